package eval

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestGrowth checks COST_MODEL.md's growth table ("as written" columns):
// each figure is measured at several sizes and the exponent of n (or the
// slope in lg n, for logarithmic growth) is fitted by least squares.
func TestGrowth(t *testing.T) {
	s := newSession(t, true)
	s.run(`def matmul [n] (a: [n][n]i64) (b: [n][n]i64) : [n][n]i64 =
	         map (\row -> map (\col -> reduce (+) 0 (map2 (*) row col)) (transpose b)) a`)
	type growth string // "1", "log", "n", "n2", "n3"
	cases := []struct {
		name  string
		src   string // N stands for the size
		sizes []int64
		w, d  growth
		s1    growth
		sp    growth
	}{
		{"map-reduce", `reduce (+) 0 (map (\x -> x * 2) (iota N))`, pow2(8, 12), "n", "log", "n", "n"},
		{"scan", `let xs = iota N in scan (+) 0 xs`, pow2(8, 12), "n", "log", "n", "n"},
		{"loop sum", `loop s = 0 for i < N do s + i`, pow2(8, 12), "n", "n", "1", "1"},
		{"matmul", `let a = map (\i -> map (\j -> i + j) (iota N)) (iota N) in matmul a a`, pow2(3, 6), "n3", "log", "n2", "n3"},
		{"in-place loop", `loop a = replicate N 0 for i < N do a with [i] = i`, pow2(8, 12), "n", "n", "n", "n"},
		{"copying loop", `loop a = replicate N 0 for i < N do (copy a) with [i] = i`, pow2(8, 11), "n2", "n", "n", "n"},
	}
	for _, c := range cases {
		var ns, ws, ds, s1s, sps []float64
		for _, n := range c.sizes {
			_, cost, err := s.run(strings.ReplaceAll(c.src, "N", itoa(n)))
			if err != nil {
				t.Fatalf("%s at n=%d: %v", c.name, n, err)
			}
			if cost.Depth > cost.Work || cost.SpaceSeq > cost.SpacePar || cost.Depth < 0 {
				t.Errorf("%s at n=%d: invariants broken: %v", c.name, n, cost)
			}
			ns = append(ns, float64(n))
			ws = append(ws, float64(cost.Work))
			ds = append(ds, float64(cost.Depth))
			s1s = append(s1s, float64(cost.SpaceSeq))
			sps = append(sps, float64(cost.SpacePar))
		}
		for _, f := range []struct {
			what string
			ys   []float64
			want growth
		}{{"W", ws, c.w}, {"D", ds, c.d}, {"S1", s1s, c.s1}, {"S∞", sps, c.sp}} {
			lg2 := func(xs []float64) []float64 {
				out := make([]float64, len(xs))
				for i, x := range xs {
					out[i] = math.Log2(x)
				}
				return out
			}
			t.Logf("%-14s %-3s want %-3s exponent %5.2f, slope in lg n %8.2f", c.name, f.what, f.want, slope(lg2(ns), lg2(f.ys)), slope(lg2(ns), f.ys))
			if msg := checkGrowth(ns, f.ys, string(f.want)); msg != "" {
				t.Errorf("%s: %s %s (values %v)", c.name, f.what, msg, f.ys)
			}
		}
	}
}

func pow2(a, b int) []int64 {
	var out []int64
	for k := a; k <= b; k++ {
		out = append(out, 1<<k)
	}
	return out
}

// slope fits y = a + b·x by least squares and returns b.
func slope(xs, ys []float64) float64 {
	n := float64(len(xs))
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx += xs[i]
		sy += ys[i]
		sxx += xs[i] * xs[i]
		sxy += xs[i] * ys[i]
	}
	return (n*sxy - sx*sy) / (n*sxx - sx*sx)
}

func checkGrowth(ns, ys []float64, want string) string {
	logn := make([]float64, len(ns))
	logy := make([]float64, len(ys))
	for i := range ns {
		logn[i] = math.Log2(ns[i])
		logy[i] = math.Log2(ys[i])
	}
	exp := slope(logn, logy)
	switch want {
	case "1":
		if math.Abs(exp) > 0.05 {
			return "should be Θ(1); fitted exponent " + ftoa(exp)
		}
	case "log":
		// linear in lg n: a positive slope against lg n, exponent well below 1
		if b := slope(logn, ys); b <= 0.5 || exp > 0.5 {
			return "should be Θ(log n); slope in lg n " + ftoa(b) + ", exponent " + ftoa(exp)
		}
	default:
		k := map[string]float64{"n": 1, "n2": 2, "n3": 3}[want]
		if math.Abs(exp-k) > 0.15 {
			return "should be Θ(" + want + "); fitted exponent " + ftoa(exp)
		}
	}
	return ""
}

func ftoa(x float64) string { return fmt.Sprintf("%.2f", x) }
