package session

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"fut/eval"
	"fut/eval/value"
	"fut/interp/ir"
)

// The worked examples of docs/cost.md's "Derivatives": values and the
// four figures, exactly.
func TestDerivativeCostExamples(t *testing.T) {
	s, err := NewSession(Options{Cost: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		src, value string
		want       eval.Cost
	}{
		{`jvp (\x -> x * x) 3.0 1.0`, "6.0f64", eval.Cost{Work: 6, Depth: 6, SpaceSeq: 3, SpacePar: 3}},
		{`jvp (\x -> x * f64.sin x) 2.0 1.0`, "7.700375373139678e-2f64", eval.Cost{Work: 9, Depth: 9, SpaceSeq: 4, SpacePar: 4}},
		{`jvp (\xs -> map (\x -> x * x) xs) [1.0, 2.0, 3.0] [1.0, 0.0, 0.0]`, "[2.0f64, 0.0f64, 0.0f64]", eval.Cost{Work: 30, Depth: 14, SpaceSeq: 13, SpacePar: 15}},
		{`vjp (\(x, y) -> x * y) (3.0, 2.0) 1.0`, "(2.0f64, 3.0f64)", eval.Cost{Work: 42, Depth: 39, SpaceSeq: 9, SpacePar: 9}},
	} {
		r, err := s.EvalExpr(context.Background(), c.src)
		if err != nil {
			t.Errorf("%s: %s", c.src, s.FormatError(err))
			continue
		}
		if got := value.String(r.Value); got != c.value {
			t.Errorf("%s = %s, want %s", c.src, got, c.value)
		}
		if r.Cost != c.want {
			t.Errorf("%s: cost %+v, want %+v", c.src, r.Cost, c.want)
		}
	}
}

// The chain rule's steps that the reference path charges (eval/ad_cost.go)
// are the steps the IR's transformation adds: for each operation, the
// jvp2 of a function applying it once to arguments read at run time
// costs the function plus the table's steps, as written and in the
// lowered plan (before simplification, which may share a step of the
// tangent with the function, as x ** y in the tangent of x ** y, and
// never adds one: the fused plan costs the table's steps or fewer).
func TestChainRuleStepsMatchTransformation(t *testing.T) {
	ops := []struct {
		name, ty, expr string
		steps          int64
	}{
		{"add", "f64", "x + y", 1}, {"sub", "f64", "x - y", 1}, {"mul", "f64", "x * y", 3},
		{"div", "f64", "x / y", 5}, {"pow", "f64", "x ** y", 17}, {"min", "f64", "f64.min x y", 2},
		{"neg", "f64", "-x", 1}, {"abs", "f64", "f64.abs x", 3}, {"sqrt", "f64", "f64.sqrt x", 2},
		{"exp", "f64", "f64.exp x", 2}, {"log", "f64", "f64.log x", 1}, {"sin", "f64", "f64.sin x", 2},
		{"cos", "f64", "f64.cos x", 3}, {"tanh", "f64", "f64.tanh x", 3}, {"atan2", "f64", "f64.atan2 x y", 7},
		{"erf", "f64", "f64.erf x", 5}, {"erfc", "f64", "f64.erfc x", 6}, {"conv", "f64", "f32.f64 x", 1}, {"trunc", "f64", "i64.f64 x", 1},
		{"idiv", "i64", "x / y", 8}, {"ipow", "i64", "x ** y", 7}, {"imax", "i64", "i64.max x y", 2},
		{"lgamma", "f64", "f64.lgamma x", 18 + 5*4}, // x = 2.5 is shifted 4 times, to 6.5
	}
	var src strings.Builder
	for _, op := range ops {
		fmt.Fprintf(&src, "entry p_%s (x: %s) (y: %s) = %s\n", op.name, op.ty, op.ty, op.expr)
		fmt.Fprintf(&src, "entry d_%s (x: %s) (y: %s) (dx: %s) (dy: %s) = jvp2 (\\(x, y) -> %s) (x, y) (dx, dy)\n", op.name, op.ty, op.ty, op.ty, op.ty, op.expr)
	}
	s, _ := fileSession(t, "ops.fut", src.String(), Options{Cost: true})
	ctx := context.Background()
	lowered := func(entry string, args []value.Value) ir.Cost {
		p, irArgs, err := s.LowerEntryIR(entry, args)
		if err != nil {
			t.Fatalf("%s: %v", entry, err)
		}
		c, err := ir.FusedCost(ctx, p, irArgs)
		if err != nil {
			t.Fatalf("%s: %v", entry, err)
		}
		return c
	}
	for _, op := range ops {
		pargs := []value.Value{value.F64Val(2.5), value.F64Val(3)}
		dargs := append(pargs[:2:2], value.F64Val(1), value.F64Val(0.5))
		if op.ty == "i64" {
			pargs = []value.Value{value.I64Val(7), value.I64Val(3)}
			dargs = append(pargs[:2:2], value.I64Val(1), value.I64Val(2))
		}
		_, wp, err := s.CallEntry(ctx, "p_"+op.name, pargs)
		if err != nil {
			t.Fatalf("%s: %s", op.name, s.FormatError(err))
		}
		_, wd, err := s.CallEntry(ctx, "d_"+op.name, dargs)
		if err != nil {
			t.Fatalf("%s: %s", op.name, s.FormatError(err))
		}
		if w, d := wd.Work-wp.Work, wd.Depth-wp.Depth; w != op.steps || d != op.steps {
			t.Errorf("%s: as written the tangent costs (%d, %d), want %d", op.name, w, d, op.steps)
		}
		lp, ld := lowered("p_"+op.name, pargs), lowered("d_"+op.name, dargs)
		if w, d := ld.Work-lp.Work, ld.Depth-lp.Depth; w != op.steps || d != op.steps {
			t.Errorf("%s: the transformation's tangent costs (%d, %d), the table says %d", op.name, w, d, op.steps)
		}
		fd, err := s.EntryFusedCost(ctx, "d_"+op.name, dargs)
		if err != nil {
			t.Fatalf("%s: %v", op.name, err)
		}
		if fd.Work > wd.Work || fd.Depth > wd.Depth {
			t.Errorf("%s: fused (W %d, D %d) dearer than written (W %d, D %d)", op.name, fd.Work, fd.Depth, wd.Work, wd.Depth)
		}
	}
}

// fused W ≤ written W and fused D ≤ written D for derivatives of the
// constructs the transformation rewrites (arrays, SOACs, loops, a
// non-+ histogram, vjp's passes), with inputs read at run time.
func TestDerivativeFusedNotDearer(t *testing.T) {
	src := `
def sq (xs: []f64) = map (\x -> x * x) xs
entry j_map (xs: []f64) (ds: []f64) = jvp sq xs ds
entry j_red (xs: []f64) (ds: []f64) = jvp (\xs -> reduce (+) 0 (map (\x -> x * f64.sin x) xs)) xs ds
entry j_scan (xs: []f64) (ds: []f64) = jvp (\xs -> scan (*) 1 xs) xs ds
entry j_loop (xs: []f64) (ds: []f64) = jvp (\xs -> loop acc = 1.0 for x in xs do acc * x + 1) xs ds
entry j_upd (xs: []f64) (ds: []f64) = jvp (\xs -> let ys = copy xs in ys with [1] = ys[0] * ys[2]) xs ds
entry j_hist (xs: []f64) (ds: []f64) = jvp (\xs -> hist f64.max f64.lowest 2 (map (\i -> i % 2) (indices xs)) xs) xs ds
entry v_map (xs: []f64) = vjp (\xs -> f64.sum (sq xs)) xs 1
entry v_vec (xs: []f64) (ys: []f64) = vjp sq xs ys
entry v_pair (x: f64) (y: f64) = vjp (\(x, y) -> (x / y, x * y)) (x, y) (1, 2)
entry v_hist (xs: []f64) = vjp (\xs -> hist (*) 1 3 (map (\i -> i % 3) (indices xs)) xs) xs [1, 1, 1]
entry jj (x: f64) (y: f64) = jvp (\x -> jvp (\y -> x * y * y + f64.sin (x / y)) y 1) x 1
entry vv (xs: []f64) = vjp (\xs -> f64.sum (vjp (\ys -> f64.sum (map2 (*) xs (sq ys))) xs 1)) xs 1
`
	s, _ := fileSession(t, "ad.fut", src, Options{Cost: true})
	ctx := context.Background()
	f64s := func(fs ...float64) value.Value {
		vs := make([]value.Value, len(fs))
		for i, f := range fs {
			vs[i] = value.F64Val(f)
		}
		a, err := value.FromValues(vs, nil)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	xs := f64s(1.5, 2, 0.5, 3, 1.25)
	ds := f64s(1, 0, 0.5, 0, 2)
	for _, c := range []struct {
		entry string
		args  []value.Value
	}{
		{"j_map", []value.Value{xs, ds}}, {"j_red", []value.Value{xs, ds}},
		{"j_scan", []value.Value{xs, ds}}, {"j_loop", []value.Value{xs, ds}},
		{"j_upd", []value.Value{xs, ds}}, {"j_hist", []value.Value{xs, ds}},
		{"v_map", []value.Value{xs}}, {"v_vec", []value.Value{xs, ds}},
		{"v_pair", []value.Value{value.F64Val(3), value.F64Val(2)}},
		{"v_hist", []value.Value{xs}},
		// nested derivatives (each level's transformation applied again)
		{"jj", []value.Value{value.F64Val(3), value.F64Val(2)}}, {"vv", []value.Value{xs}},
	} {
		_, w, err := s.CallEntry(ctx, c.entry, c.args)
		if err != nil {
			t.Fatalf("%s: %s", c.entry, s.FormatError(err))
		}
		f, err := s.EntryFusedCost(ctx, c.entry, c.args)
		if err != nil {
			t.Fatalf("%s: fused: %v", c.entry, err)
		}
		if f.Work > w.Work || f.Depth > w.Depth {
			t.Errorf("%s: fused (W %d, D %d) dearer than written (W %d, D %d)", c.entry, f.Work, f.Depth, w.Work, w.Depth)
		}
		if w.Depth > w.Work || w.SpaceSeq > w.SpacePar {
			t.Errorf("%s: as written %+v breaks D ≤ W or S1 ≤ S∞", c.entry, w)
		}
	}
}
