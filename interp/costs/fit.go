package costs

// Fitting a growth class to a figure measured at several sizes.
//
// The figures of the cost model are exact integers, but they are sums of
// terms of different orders: `reduce (+) 0 (iota n)` costs 3n + 1 work and
// 4 + lg n depth. A plain log–log fit of y against n at small sizes is
// misled by the constant terms (4 + lg n looks like n^0.2 between 16 and
// 256, and 50 + lg n like a constant), so the fit works on what grows:
//
//  1. Only the largest sizes are used: the upper half of them, at least
//     three. Lower-order terms matter least there.
//  2. When the figure increases between every two consecutive sizes of
//     that window, the fit looks at the increments Δy = y(n') − y(n)
//     instead of y itself. A constant term drops out exactly, so 50 + lg n
//     and lg n are the same to the fit.
//  3. For each candidate class g (1, log n, log² n, n, n log n, n², n² log n,
//     n³), the ratios Δy / Δg (or y / g when the figure does not increase
//     steadily) should tend to a constant if the figure is Θ(g). Their
//     trend is measured by least squares on log–log axes: the slope β of
//     ln(ratio) against ln n. The right class has β ≈ 0; a class too small
//     gives β > 0, one too large β < 0.
//  4. The class with the smallest |β| wins; classes within 0.02 of each
//     other tie, and the slower-growing one is taken (over a narrow range
//     of sizes, n and n log n can look alike; the simpler claim is the
//     safer one).
//  5. If even the best class has |β| > 0.3 (about a third of a power of n), the
//     figure fits none of them, and the growth is reported as n^k, with k
//     the log–log slope of the figure's increments against n.
//
// A figure equal at every size of the window is Θ(1).

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Class is a growth class: its name ("n log n") and, for the n^k class,
// the exponent.
type Class struct {
	Name string
	g    func(n float64) float64
	rank int // order of growth, for the tie rule
}

// Classes are the candidate classes, slowest-growing first. log² n is
// there because depths of sorting networks and of nested reductions grow
// so, and claims in programs name it.
var Classes = []Class{
	{"1", func(float64) float64 { return 1 }, 0},
	{"log n", func(n float64) float64 { return math.Log2(n) }, 1},
	{"log^2 n", func(n float64) float64 { l := math.Log2(n); return l * l }, 2},
	{"n", func(n float64) float64 { return n }, 3},
	{"n log n", func(n float64) float64 { return n * math.Log2(n) }, 4},
	{"n^2", func(n float64) float64 { return n * n }, 5},
	{"n^2 log n", func(n float64) float64 { return n * n * math.Log2(n) }, 6},
	{"n^3", func(n float64) float64 { return n * n * n }, 7},
}

// Fit is the fitted growth of one figure.
type Fit struct {
	// Class is one of Classes' names, or "n^k" written with k to two
	// decimals ("n^1.50"); "?" when there are too few sizes.
	Class string
	// Exponent is the log–log slope of the figure (of its increments when
	// it increases steadily) against n over the largest sizes: about 1 for
	// n, 2 for n^2, near 0 for 1 and log n.
	Exponent float64
	// Beta is the trend left in figure/class for the chosen class (0 for a
	// perfect fit); Method is "increments" or "values".
	Beta   float64
	Method string
}

const (
	tieTolerance = 0.02
	fitTolerance = 0.3
)

// FitGrowth fits the growth of ys measured at the sizes ns (increasing,
// each at least 2). It needs at least three sizes.
func FitGrowth(ns []int64, ys []int64) Fit {
	m := len(ns)
	if m < 3 || len(ys) != m {
		return Fit{Class: "?", Method: "too few sizes (a fit needs 3)"}
	}
	w := max(3, m/2+1)
	xs := make([]float64, 0, w)
	vs := make([]float64, 0, w)
	for i := m - w; i < m; i++ {
		xs = append(xs, float64(ns[i]))
		vs = append(vs, float64(ys[i]))
	}
	constant := true
	increasing := true
	for i := 1; i < len(vs); i++ {
		if vs[i] != vs[0] {
			constant = false
		}
		if vs[i] <= vs[i-1] {
			increasing = false
		}
	}
	if constant {
		return Fit{Class: "1", Method: "values"}
	}
	type trend struct {
		c    Class
		beta float64
	}
	var trends []trend
	var exponent float64
	method := "values"
	if increasing {
		method = "increments"
		var mids, dys []float64
		for i := 1; i < len(xs); i++ {
			mids = append(mids, math.Sqrt(xs[i]*xs[i-1]))
			dys = append(dys, vs[i]-vs[i-1])
		}
		for _, c := range Classes[1:] {
			var lr []float64
			ok := true
			for i := 1; i < len(xs); i++ {
				dg := c.g(xs[i]) - c.g(xs[i-1])
				if dg <= 0 {
					ok = false
					break
				}
				lr = append(lr, math.Log(dys[i-1]/dg))
			}
			if ok {
				trends = append(trends, trend{c, slope(logs(mids), lr)})
			}
		}
		// n's trend is the exponent less one (Δy/Δn ~ n^(k-1)).
		for _, t := range trends {
			if t.c.Name == "n" {
				exponent = 1 + t.beta
			}
		}
	} else {
		var lx, ly []float64
		for i := range xs {
			if vs[i] > 0 {
				lx = append(lx, math.Log(xs[i]))
				ly = append(ly, math.Log(vs[i]))
			}
		}
		if len(lx) < 2 {
			return Fit{Class: "1", Method: "values"}
		}
		exponent = slope(lx, ly)
		for _, c := range Classes {
			var lr, lxs []float64
			for i := range xs {
				if g := c.g(xs[i]); vs[i] > 0 && g > 0 {
					lxs = append(lxs, math.Log(xs[i]))
					lr = append(lr, math.Log(vs[i]/g))
				}
			}
			if len(lr) >= 2 {
				trends = append(trends, trend{c, slope(lxs, lr)})
			}
		}
	}
	// The smallest |β| wins; within the tolerance of it, the slowest class.
	best := -1
	if len(trends) > 0 {
		least := math.Inf(1)
		for _, t := range trends {
			least = math.Min(least, math.Abs(t.beta))
		}
		for i, t := range trends { // trends are in Classes' order
			if math.Abs(t.beta) <= least+tieTolerance {
				best = i
				break
			}
		}
	}
	if best < 0 || math.Abs(trends[best].beta) > fitTolerance {
		return Fit{Class: PowerClass(exponent), Exponent: exponent, Method: method}
	}
	return Fit{Class: trends[best].c.Name, Exponent: exponent, Beta: trends[best].beta, Method: method}
}

// PowerClass names n^k with k to two decimals.
func PowerClass(k float64) string {
	return "n^" + strconv.FormatFloat(k, 'f', 2, 64)
}

func logs(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = math.Log(x)
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
	d := n*sxx - sx*sx
	if d == 0 {
		return 0
	}
	return (n*sxy - sx*sy) / d
}

// ParseClass reads a growth class as a program's claim or a user writes
// it: "1", "log n", "log^2 n", "n", "n log n", "n^2", "n^2 log n", "n^3",
// "n^1.5"; also with ² and ³, "lg" for log, "nlogn" without spaces, or
// wrapped in Θ( ). v is the sweep variable, which may stand for n.
func ParseClass(s, v string) (string, error) {
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "Θ(") && strings.HasSuffix(t, ")") {
		t = strings.TrimSpace(t[len("Θ(") : len(t)-1])
	}
	t = strings.NewReplacer("²", "^2", "³", "^3", "·", " ", "*", " ").Replace(t)
	// Tokens: words and numbers, with ^ kept to its operand.
	fields := strings.Fields(strings.ReplaceAll(strings.ReplaceAll(t, "log", " log "), "lg", " log "))
	for i, f := range fields {
		switch {
		case f == v:
			fields[i] = "n"
		case strings.HasPrefix(f, v+"^"):
			fields[i] = "n" + f[len(v):]
		}
	}
	norm := strings.Join(fields, " ")
	norm = strings.ReplaceAll(norm, "log ^2", "log^2")
	for _, c := range Classes {
		if norm == c.Name {
			return c.Name, nil
		}
	}
	if k, ok := strings.CutPrefix(norm, "n^"); ok {
		if x, err := strconv.ParseFloat(k, 64); err == nil {
			switch x {
			case 0:
				return "1", nil
			case 1:
				return "n", nil
			case 2:
				return "n^2", nil
			case 3:
				return "n^3", nil
			}
			return PowerClass(x), nil
		}
	}
	return "", fmt.Errorf("%q is not a growth class (one of 1, log n, log^2 n, n, n log n, n^2, n^2 log n, n^3, n^k)", s)
}

// SameGrowth reports whether a fitted class agrees with a claimed one: the
// same name, or, where either is n^k, exponents within 0.1.
func SameGrowth(fitted Fit, claimed string) bool {
	if fitted.Class == claimed {
		return true
	}
	kc, okc := powerOf(claimed)
	kf, okf := powerOf(fitted.Class)
	if !okc && !okf {
		return false
	}
	if !okf {
		kf = fitted.Exponent
	}
	if !okc {
		return false // a named class claimed, n^k fitted
	}
	return math.Abs(kc-kf) <= 0.1
}

// powerOf is k for the classes that are a plain power n^k.
func powerOf(class string) (float64, bool) {
	switch class {
	case "1":
		return 0, true
	case "n":
		return 1, true
	}
	if k, ok := strings.CutPrefix(class, "n^"); ok && !strings.Contains(k, " ") {
		x, err := strconv.ParseFloat(k, 64)
		return x, err == nil
	}
	return 0, false
}
