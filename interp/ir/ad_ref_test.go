package ir_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"fut/eval/value"
	"fut/interp/ir"
	"fut/interp/session"
)

// AD through the lowerer: jvp and vjp of fut programs through the fused
// IR against the reference path, nested differentiation, and JVP and
// VJPByForward of the programs the other tests lower.

// jvp and vjp through the fused IR agree with the reference path, at
// every stage of the pipeline.
var adForms = []string{
	`jvp poly 0.7 1`,
	`vjp poly 0.7 1`,
	`jvp2 (dot xs) xs xs`,
	`vjp2 (dot xs) xs 2`,
	`jvp softmax xs [1, 0, 0, 0]`,
	`vjp softmax xs [1, -1, 0.5, 0]`,
	`jvp prodv xs [1, 2, 3, 4]`,
	`vjp prodv xs 1`,
	`jvp hmax xs [1, 2, 3, 4]`,
	`vjp hmax xs [1, 1]`,
	`jvp hmul ys [1, 2, 3, 4]`,
	`vjp hmul ys [1, 1, 1]`,
	`jvp iexp (7, 3) (1, 0)`,
	`jvp iexp (7, 3) (0, 1)`,
	`vjp iexp (7, 3) (1, 1, 1)`,
	`jvp pick (1.5, true) (1, false)`,
	`vjp pick (1.5, true) (1, false)`,
	`jvp rec {a = 1.5, b = [2, 3]} {a = 1, b = [0.5, 1]}`,
	`vjp rec {a = 1.5, b = [2, 3]} {s = 1, t = [1, 2]}`,
	`jvp newton 2 1`,
	`vjp newton 2 1`,
	`jvp stepw 1.5 1`,
	`vjp stepw 1.5 (1, 1)`,
	`jvp mathf 0.8 1`,
	`vjp mathf 0.8 1`,
	`jvp mathd 0.8 1`,
	`vjp mathd 0.8 1`,
	`jvp scanmul xs [1, 0, 1, 0]`,
	`vjp scanmul xs [1, 1, 1, 1]`,
	`jvp sct xs [1, 2, 3, 4]`,
	`vjp sct xs [1, 2, 3]`,
	`jvp filt xs [1, 2, 3, 4]`,
	`vjp filt xs 1`,
	`jvp (matvec m) [1, 2, 3] [0, 1, 0]`,
	`vjp (\(a, v) -> matvec a v) (m, [1, 2, 3]) [1, 1]`,
	`map (\x -> jvp poly x 1) xs`,
	`jvp (\v -> concat v (map (* 2) v)) xs xs`,
	`vjp (\v -> concat (reverse v) v) xs [1, 2, 3, 4, 5, 6, 7, 8]`,
	`jvp (\v -> copy xs with [1] = v) 2.5 1`,
	`jvp (\v -> map2 (*) v (reverse xs)) xs xs`,
	`vjp (\v -> transpose (map (map (* v)) m)) 2 [[1, 1], [1, 1], [1, 1]]`,
	`jvp (\v -> scatter (copy xs) [0, 2] [v, v * v]) 3 1`,
	`let k = length (filter (> 0) xs) in vjp (\v -> map (* 2) v) (replicate k 1.5) (iota k |> map f64.i64)`,
	`let k = length (filter (> 0) xs) in jvp (\v -> map (* 2) v) (replicate k 1.5) (replicate k 1)`,
}

func TestADAgainstReference(t *testing.T) {
	ctx := context.Background()
	s := newSession(t, "testdata/ad/defs.fut")
	for _, src := range adForms {
		checkStages(ctx, t, s, src)
	}
}

// flatRecords spreads tuples and records (fields in order) the way the
// IR returns them.
func flatRecords(v value.Value) []value.Value {
	switch v := v.(type) {
	case value.Tuple:
		var out []value.Value
		for _, x := range v {
			out = append(out, flatRecords(x)...)
		}
		return out
	case *value.Record:
		var out []value.Value
		for _, x := range v.Fields {
			out = append(out, flatRecords(x)...)
		}
		return out
	}
	return []value.Value{v}
}

// JVP and VJPByForward of every program the other tests lower: each
// either verifies, with the program's primal results at zero tangents,
// or is an error naming what cannot be differentiated.
func TestADOfLoweredPrograms(t *testing.T) {
	type prog struct{ file, src string }
	var progs []prog
	for _, src := range loweredForms {
		progs = append(progs, prog{"testdata/exprs.fut", src})
	}
	for _, c := range loadCases(t) {
		progs = append(progs, prog{c.file, c.expr})
	}
	sessions := map[string]*session.Session{}
	n := 0
	for _, pr := range progs {
		s := sessions[pr.file]
		if s == nil {
			s = newSession(t, pr.file)
			sessions[pr.file] = s
		}
		if adOfLowered(t, s, pr.src) {
			n++
		}
	}
	t.Logf("%d of %d programs differentiated, %d checked against finite differences", n, len(progs), fdChecked)
	if n < len(progs)*3/4 {
		t.Errorf("only %d of %d programs differentiated", n, len(progs))
	}
}

// fdChecked counts the programs whose tangents were checked against
// finite differences.
var fdChecked int

func adOfLowered(t *testing.T, s *session.Session, src string) bool {
	ctx := context.Background()
	p, args, err := s.LowerIR(src)
	if err != nil {
		return false
	}
	want, err := ir.EvalAll(ctx, p, args)
	if err != nil {
		return false
	}
	jl, err := ir.JVP(lambdaOf(p), freshNames())
	if err != nil {
		t.Logf("%s: %v", src, err)
		if !strings.HasPrefix(err.Error(), "jvp: ") || strings.Contains(err.Error(), "internal error") {
			t.Errorf("%s: %v", src, err)
		}
		return false
	}
	jp := progOf(jl)
	if err := ir.Verify(jp); err != nil {
		t.Errorf("%s: JVP: %v\n%s", src, err, jp)
		return false
	}
	zeros := make([]value.Value, len(args))
	for i, a := range args {
		zeros[i] = mapScalars(a, new(int), func(_ int, p value.Prim) value.Prim {
			return value.Convert(value.MkInt(value.I64, 0), p.T)
		})
	}
	got, err := ir.EvalAll(ctx, jp, append(append([]value.Value{}, args...), zeros...))
	if err != nil {
		t.Errorf("%s: JVP: %v", src, err)
		return false
	}
	if !close(value.Tuple(got[:len(want)]), value.Tuple(want)) {
		t.Errorf("%s: JVP's primal results %v, the program's %v", src, got[:len(want)], want)
	}
	if checkFD(t, src, p, jp, args) {
		fdChecked++
	}
	vl, err := ir.VJPByForward(lambdaOf(p), freshNames())
	if err != nil {
		if !strings.Contains(err.Error(), "it computes") {
			t.Errorf("%s: VJP: %v", src, err)
		}
		return false
	}
	if err := ir.Verify(progOf(vl)); err != nil {
		t.Errorf("%s: VJP: %v\n%s", src, err, progOf(vl))
		return false
	}
	return true
}

// Where the reference path fails or is wrong, the IR is checked against
// the right answer: nested differentiation, which the reference does
// not support (its duals have one tangent; through the IR the outer
// derivative differentiates the inner one's IR), and the concatenation
// of a dual array with a plain one, which it refuses.
func TestNestedAD(t *testing.T) {
	ctx := context.Background()
	s := newSession(t, "testdata/ad/defs.fut")
	for src, want := range map[string]string{
		`jvp (\x -> jvp (\y -> y * y * y) x 1) 2f64 1`:                              `12f64`,
		`vjp (\x -> vjp (\y -> y * y * y) x 1) 2i32 1`:                              `12i32`,
		`vjp (\x -> vjp (\y -> y * y * y) x 1) 2f32 1`:                              `12f32`,
		`jvp (\x -> vjp poly x 1) 0.5 1`:                                            `3f64`,
		`vjp (\v -> vjp (\w -> map (\x -> x * x * x) w) v [1, 1]) [1i32, 2] [1, 1]`: `[6i32, 12i32]`,
		`jvp (\v -> concat v xs) xs xs`:                                             `[1.5f64, -0.5f64, 2f64, 0.25f64, 0f64, 0f64, 0f64, 0f64]`,
		`vjp (\v -> concat xs v) xs [1, 2, 3, 4, 5, 6, 7, 8]`:                       `[5f64, 6f64, 7f64, 8f64]`,
	} {
		p, args, err := s.LowerIR(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		final, _, err := ir.Run(p, "")
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		got, err := ir.Eval(ctx, final, args)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		w, err := value.Read([]byte(want))
		if err != nil {
			t.Fatal(err)
		}
		if !close(got, w[0]) {
			t.Errorf("%s = %s, want %s", src, value.String(got), want)
		}
	}
}

// The derivative of every function of the numeric modules that the
// prelude has, in f32 and f64, agrees with the reference path's.
func TestADMathAgainstReference(t *testing.T) {
	ctx := context.Background()
	s := newSession(t, "")
	one := []string{"sqrt", "exp", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "acos",
		"atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "gamma", "lgamma", "erf", "erfc",
		"cbrt", "round", "ceil", "floor", "trunc", "sinpi", "cospi", "tanpi", "asinpi", "acospi",
		"atanpi", "rsqrt", "abs", "neg", "sgn", "to_bits"}
	two := []string{"atan2", "hypot", "copysign", "min", "max", "nextafter", "atan2pi"}
	ops := []string{"+", "-", "*", "/", "**", "%"}
	var forms []string
	for _, ty := range []string{"f32", "f64"} {
		for _, f := range one {
			forms = append(forms, fmt.Sprintf(`jvp %s.%s 0.3%s 1`, ty, f, ty))
			forms = append(forms, fmt.Sprintf(`jvp %s.%s 1.7%s 1`, ty, f, ty))
		}
		for _, f := range two {
			forms = append(forms, fmt.Sprintf(`jvp (\(x, y) -> %s.%s x y) (0.6%s, 1.3%s) (1, 0.5)`, ty, f, ty, ty))
			forms = append(forms, fmt.Sprintf(`vjp (\(x, y) -> %s.%s x y) (1.6%s, -0.3%s) 1`, ty, f, ty, ty))
			forms = append(forms, fmt.Sprintf(`vjp (\(x, y) -> %s.%s x y) (1.6%s, 2%s) 1`, ty, f, ty, ty))
		}
		for _, o := range ops {
			forms = append(forms, fmt.Sprintf(`jvp (\(x, y) -> x %s y) (0.6%s, 1.3%s) (1, 0.5)`, o, ty, ty))
			forms = append(forms, fmt.Sprintf(`vjp (\(x, y) -> x %s y) (1.6%s, -0.3%s) 1`, o, ty, ty))
		}
	}
	for _, ty := range []string{"i32", "i64", "u8"} {
		for _, o := range []string{"+", "-", "*", "/", "%", "**", "//", "%%", "&", "<<"} {
			forms = append(forms, fmt.Sprintf(`jvp (\(x, y) -> x %s y) (7%s, 3%s) (1, 2)`, o, ty, ty))
			forms = append(forms, fmt.Sprintf(`vjp (\(x, y) -> x %s y) (7%s, 3%s) 2`, o, ty, ty))
		}
		for _, f := range []string{"min", "max"} {
			forms = append(forms, fmt.Sprintf(`jvp (\(x, y) -> %s.%s x y) (7%s, 3%s) (1, 2)`, ty, f, ty, ty))
		}
		for _, f := range []string{"abs", "sgn", "neg"} {
			forms = append(forms, fmt.Sprintf(`jvp %s.%s 5%s 3`, ty, f, ty))
			if ty[0] == 'i' {
				forms = append(forms, fmt.Sprintf(`jvp %s.%s (-5%s) 3`, ty, f, ty))
			}
		}
		for _, to := range []string{"f64", "i8", "u16", "f32"} {
			forms = append(forms, fmt.Sprintf(`jvp %s.%s 5%s 3`, to, ty, ty))
			if to[0] == 'f' {
				forms = append(forms, fmt.Sprintf(`jvp %s.%s 2.5%s 3`, ty, to, to))
			}
		}
	}
	// Where the reference path is wrong, the IR must give the right
	// answer: eval/ad.go's abs of a dual tests the sign of an integer by
	// reading its bits as a float, so that abs (-5) is -5 with the
	// tangent unchanged.
	known := map[string]string{
		`jvp i32.abs (-5i32) 3`: `-3i32`,
		`jvp i64.abs (-5i64) 3`: `-3i64`,
	}
	checked := 0
	for _, src := range forms {
		want, err := s.EvalExpr(ctx, src)
		if err != nil {
			t.Logf("%s: not on the reference path: %s", src, s.FormatError(err))
			continue
		}
		if k, ok := known[src]; ok {
			v, err := value.Read([]byte(k))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: the reference path gives %s, wrongly", src, value.String(want.Value))
			want.Value = v[0]
		}
		p, args, err := s.LowerIR(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		final, _, err := ir.Run(p, "")
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		got, err := ir.EvalAll(ctx, final, args)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if w := flatRecords(want.Value); !close(value.Tuple(got), value.Tuple(w)) {
			t.Errorf("%s: the fused IR gives %s, the reference %s", src, value.String(value.Tuple(got)), value.String(want.Value))
		}
		checked++
	}
	t.Logf("%d of %d forms checked", checked, len(forms))
	if checked < len(forms)*9/10 {
		t.Errorf("only %d of %d forms run on the reference path", checked, len(forms))
	}
}

// where p's results are all f64 (other floats are too coarse for them).
func checkFD(t *testing.T, src string, p, jp *ir.Prog, args []value.Value) bool {
	for _, r := range p.Ret {
		if r.Elem != value.F64 {
			return false
		}
	}
	ctx := context.Background()
	ds := make([]value.Value, len(args))
	for i, a := range args {
		ds[i] = mapScalars(direction(a, i, false), new(int), func(_ int, q value.Prim) value.Prim {
			if p.Params[i].T.Elem != value.F64 {
				return value.Convert(value.MkInt(value.I64, 0), q.T)
			}
			return q
		})
	}
	got, err := ir.EvalAll(ctx, jp, append(append([]value.Value{}, args...), ds...))
	if err != nil {
		t.Errorf("%s: JVP: %v", src, err)
		return false
	}
	const h = 1e-6
	xp, xm := make([]value.Value, len(args)), make([]value.Value, len(args))
	for i := range args {
		xp[i], xm[i] = axpy(args[i], ds[i], h), axpy(args[i], ds[i], -h)
	}
	yp, err1 := ir.EvalAll(ctx, p, xp)
	ym, err2 := ir.EvalAll(ctx, p, xm)
	if err1 != nil || err2 != nil {
		return false // the perturbed point is outside the domain
	}
	m := len(p.Ret)
	for i := range yp {
		g, a, b := scalars(got[m+i]), scalars(yp[i]), scalars(ym[i])
		if len(a) != len(g) || len(b) != len(g) {
			continue // a size that depends on the values
		}
		for k := range g {
			if math.IsInf(a[k], 0) || math.IsInf(b[k], 0) {
				continue // an infinite value (an empty bucket's -inf) has no finite difference
			}
			if fd := (a[k] - b[k]) / (2 * h); !near(g[k], fd, 1e-4) {
				t.Errorf("%s: tangent %d[%d] is %g, finite differences %g", src, i, k, g[k], fd)
			}
		}
	}
	return true
}
