package ir_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"fut/eval/value"
	"fut/interp/ir"
)

// slope fits log y = a + b log x by least squares and returns b.
func slope(xs, ys []float64) float64 {
	var sx, sy, sxx, sxy float64
	n := float64(len(xs))
	for i := range xs {
		x, y := math.Log(xs[i]), math.Log(ys[i])
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	return (n*sxy - sx*sy) / (n*sxx - sx*sx)
}

// growth evaluates expr after def-ining the given declarations for each n,
// and returns the reference costs and the fused plan's.
func growth(t *testing.T, ns []int, decls func(n int) string, expr string) (ref, fused [][4]float64) {
	return growthIn(t, "", ns, decls, expr)
}

func growthIn(t *testing.T, file string, ns []int, decls func(n int) string, expr string) (ref, fused [][4]float64) {
	ctx := context.Background()
	s := newSession(t, file)
	for _, n := range ns {
		if _, err := s.Enter(ctx, decls(n)); err != nil {
			t.Fatal(s.FormatError(err))
		}
		r, err := s.EvalExpr(ctx, expr)
		if err != nil {
			t.Fatal(s.FormatError(err))
		}
		c, err := s.FusedCost(ctx, expr)
		if err != nil {
			t.Fatal(err)
		}
		ref = append(ref, [4]float64{float64(r.Cost.Work), float64(r.Cost.Depth), float64(r.Cost.SpaceSeq), float64(r.Cost.SpacePar)})
		fused = append(fused, [4]float64{float64(c.Work), float64(c.Depth), float64(c.SpaceSeq), float64(c.SpacePar)})
	}
	return
}

func column(rows [][4]float64, k int) []float64 {
	var out []float64
	for _, r := range rows {
		out = append(out, r[k])
	}
	return out
}

func expectSlope(t *testing.T, what string, xs, ys []float64, lo, hi float64) {
	t.Helper()
	b := slope(xs, ys)
	t.Logf("%s: exponent %.3f (%v)", what, b, ys)
	if b < lo || b > hi {
		t.Errorf("%s grows as n^%.2f, want an exponent in [%.1f, %.1f]", what, b, lo, hi)
	}
}

func TestGrowthSumMapIota(t *testing.T) {
	ns := []int{1 << 8, 1 << 10, 1 << 12, 1 << 14}
	ref, fused := growth(t, ns, func(n int) string { return fmt.Sprintf("def n : i64 = %d", n) },
		`reduce (+) 0 (map (\x -> x * 2 + 1) (iota n))`)
	xs := make([]float64, len(ns))
	for i, n := range ns {
		xs[i] = float64(n)
	}
	expectSlope(t, "W fused", xs, column(fused, 0), 0.95, 1.05)
	expectSlope(t, "S1 as written", xs, column(ref, 2), 0.95, 1.05)
	expectSlope(t, "S1 fused", xs, column(fused, 2), -0.01, 0.01)
	expectSlope(t, "S∞ fused", xs, column(fused, 3), 0.95, 1.05)
	// Depth Θ(log n): it grows by a constant each time n quadruples.
	d := column(fused, 1)
	for i := 2; i < len(d); i++ {
		if d[i]-d[i-1] != d[i-1]-d[i-2] || d[i] <= d[i-1] {
			t.Errorf("fused depth %v is not logarithmic", d)
		}
	}
	for i := range ns {
		if fused[i][0] > ref[i][0] || fused[i][1] > ref[i][1] {
			t.Errorf("n=%d: the fused plan %v costs more than the source %v", ns[i], fused[i], ref[i])
		}
	}
}

func TestGrowthMatmul(t *testing.T) {
	ns := []int{4, 8, 16, 32}
	decls := func(n int) string {
		return fmt.Sprintf("def a = map (\\i -> map (\\j -> i32.i64 (i + j)) (iota %d)) (iota %d)\n"+
			"def b = map (\\i -> map (\\j -> i32.i64 (i * j %% 7)) (iota %d)) (iota %d)", n, n, n, n)
	}
	ref, fused := growth(t, ns, decls, `map (\row -> map (\col -> reduce (+) 0 (map2 (*) row col)) (transpose b)) a`)
	xs := make([]float64, len(ns))
	for i, n := range ns {
		xs[i] = float64(n)
	}
	expectSlope(t, "W as written", xs, column(ref, 0), 2.8, 3.2)
	expectSlope(t, "W fused", xs, column(fused, 0), 2.8, 3.2)
	expectSlope(t, "S∞ as written", xs, column(ref, 3), 2.7, 3.2)
	expectSlope(t, "S∞ fused", xs, column(fused, 3), 1.8, 2.2)
	expectSlope(t, "S1 fused", xs, column(fused, 2), 1.8, 2.2)
}

// The exact figures of COST_MODEL.md's worked examples that the IR keeps:
// the IR has no literals to charge (constants are free operands), so only
// the SOAC rules are compared here, on programs without constants.
func TestFusedCostRules(t *testing.T) {
	p, err := ir.Parse(`prog (n: i64) : (i64) {
  let (xs: [n]i64) = iota n
  let (r: i64) = screma n (xs) {
    reduce \(x: i64, y: i64) : (i64) {
      let (s: i64) = x + y
      return (s)
    } (0i64)
    map \(x2: i64) : (i64) {
      return (x2)
    }
  }
  return (r)
}
`)
	if err != nil {
		t.Fatal(err)
	}
	c, err := ir.FusedCost(context.Background(), p, []value.Value{value.I64Val(4)})
	if err != nil {
		t.Fatal(err)
	}
	// iota 4: (4, 1, 5); the reduction: W = 4 + 3, D = 1 + 2, S1 = 1,
	// S∞ = 2 (two applications in the first level).
	want := ir.Cost{Work: 11, Depth: 4, SpaceSeq: 6, SpacePar: 7}
	if c != want {
		t.Errorf("cost %+v, want %+v", c, want)
	}
}

func TestGrowthNbody(t *testing.T) {
	ns := []int{8, 16, 32, 64}
	decls := func(n int) string {
		return fmt.Sprintf("def xs = map f32.i64 (iota %d)\n"+
			"def ys = map (\\i -> f32.i64 (i * i %% 5)) (iota %d)\n"+
			"def zs = map (\\i -> f32.i64 (i %% 3)) (iota %d)\n"+
			"def ms = map (\\i -> 1 + f32.i64 i) (iota %d)", n, n, n, n)
	}
	ref, fused := growthIn(t, "../../examples/nbody.fut", ns, decls, "main xs ys zs ms")
	xs := make([]float64, len(ns))
	for i, n := range ns {
		xs[i] = float64(n)
	}
	expectSlope(t, "W as written", xs, column(ref, 0), 1.9, 2.1)
	expectSlope(t, "W fused", xs, column(fused, 0), 1.9, 2.1)
	expectSlope(t, "S∞ as written", xs, column(ref, 3), 1.8, 2.1)
	expectSlope(t, "S∞ fused", xs, column(fused, 3), 0.9, 1.1)
	expectSlope(t, "S1 fused", xs, column(fused, 2), 0.8, 1.1)
}
