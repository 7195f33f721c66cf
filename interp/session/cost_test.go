package session

import (
	"context"
	"strconv"
	"testing"

	"fut/eval"
)

// The worked examples of COST_MODEL.md must come out exactly.
func TestCostModelExamples(t *testing.T) {
	s, err := NewSession(Options{Cost: true})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		src  string
		want eval.Cost
	}{
		{"1 + 2", eval.Cost{Work: 3, Depth: 3, SpaceSeq: 3, SpacePar: 3}},
		{"iota 4", eval.Cost{Work: 5, Depth: 2, SpaceSeq: 6, SpacePar: 6}},
		{`map (\x -> x * 2) (iota 4)`, eval.Cost{Work: 17, Depth: 5, SpaceSeq: 12, SpacePar: 18}},
		{"reduce (+) 0 (iota 4)", eval.Cost{Work: 13, Depth: 6, SpaceSeq: 7, SpacePar: 8}},
	}
	for _, c := range cases {
		r, err := s.EvalExpr(context.Background(), c.src)
		if err != nil {
			t.Errorf("%s: %s", c.src, s.FormatError(err))
			continue
		}
		if r.Cost != c.want {
			t.Errorf("%s: cost %v, want %v", c.src, r.Cost, c.want)
		}
	}
}

// reduce (+) 0 (iota n) costs (3n + 1, 4 + lg n, n + 3, n + 2 + ⌈n/2⌉)
// for a literal n ≥ 2 (COST_MODEL.md).
func TestCostReduceIotaFormula(t *testing.T) {
	s, err := NewSession(Options{Cost: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int64{2, 3, 5, 8, 100, 1000} {
		r, err := s.EvalExpr(context.Background(), "reduce (+) 0 (iota "+strconv.FormatInt(n, 10)+")")
		if err != nil {
			t.Fatal(s.FormatError(err))
		}
		lg := int64(0)
		for (int64(1) << lg) < n {
			lg++
		}
		want := eval.Cost{Work: 3*n + 1, Depth: 4 + lg, SpaceSeq: n + 3, SpacePar: n + 2 + (n+1)/2}
		if r.Cost != want {
			t.Errorf("n=%d: cost %v, want %v", n, r.Cost, want)
		}
	}
}

// The fused plan never costs more work or depth than the source
// (COST_MODEL.md: lowering adds no cost of its own), loops with converted
// indices and indexing included.
func TestFusedNotDearer(t *testing.T) {
	s, err := NewSession(Options{Cost: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, src := range []string{
		"loop s = 0 for i < 1000 do s + i",
		"let xs = iota 100 in loop s = 0 for i < 100 do s + xs[i]",
		"loop s = 0i64 for i < 50i32 do s + i64.i32 i",
		"let xs = map (+1) (iota 64) in loop (a, b) = (0, 1) for i < 32 do (b, a + b + i32.i64 xs[i])",
		`map (\i -> loop acc = 0f32 for j < 10 do acc + f32.i32 j * f32.i64 i) (iota 20)`,
		"reduce (+) 0 (map (\\x -> x * 2) (iota 1000))",
		"(iota 10)[2:8]",
		"reverse (iota 10)",
		"let xs = iota 10 in xs with [3] = 7",
		"f32.i32 3",
	} {
		r, err := s.EvalExpr(ctx, src)
		if err != nil {
			t.Fatalf("%s: %s", src, s.FormatError(err))
		}
		f, err := s.FusedCost(ctx, src)
		if err != nil {
			t.Fatalf("%s: fused: %v", src, err)
		}
		if f.Work > r.Cost.Work || f.Depth > r.Cost.Depth {
			t.Errorf("%s: fused (W %d, D %d) dearer than written (W %d, D %d)", src, f.Work, f.Depth, r.Cost.Work, r.Cost.Depth)
		}
	}
}

// reverse is a view: (1, 1, 0), as COST_MODEL.md's table says.
func TestReverseCost(t *testing.T) {
	s, err := NewSession(Options{Cost: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, err := s.EvalExpr(ctx, "let xs = iota 10 in reverse xs")
	if err != nil {
		t.Fatal(s.FormatError(err))
	}
	b, err := s.EvalExpr(ctx, "let xs = iota 10 in xs")
	if err != nil {
		t.Fatal(s.FormatError(err))
	}
	d := eval.Cost{Work: a.Cost.Work - b.Cost.Work, Depth: a.Cost.Depth - b.Cost.Depth, SpaceSeq: a.Cost.SpaceSeq - b.Cost.SpaceSeq}
	if d != (eval.Cost{Work: 1, Depth: 1}) {
		t.Errorf("reverse adds %+v, want W 1, D 1, no space", d)
	}
}
