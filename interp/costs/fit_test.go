package costs

import (
	"math"
	"testing"
)

func sizes(a, b int64) []int64 {
	var out []int64
	for n := a; n <= b; n *= 2 {
		out = append(out, n)
	}
	return out
}

func lg(n int64) float64 { return math.Log2(float64(n)) }

// TestFitSynthetic: exact formulas with the lower-order terms that real
// figures have, at the sizes sweeps use.
func TestFitSynthetic(t *testing.T) {
	cases := []struct {
		name  string
		ns    []int64
		f     func(n int64) float64
		class string
	}{
		{"constant", sizes(256, 16384), func(int64) float64 { return 7 }, "1"},
		{"zero", sizes(256, 16384), func(int64) float64 { return 0 }, "1"},
		{"log", sizes(256, 16384), func(n int64) float64 { return 4 + lg(n) }, "log n"},
		{"log, large constant", sizes(256, 16384), func(n int64) float64 { return 500 + 2*lg(n) }, "log n"},
		{"log squared", sizes(256, 16384), func(n int64) float64 { return 3 + lg(n)*lg(n) + 5*lg(n) }, "log^2 n"},
		{"linear", sizes(256, 16384), func(n int64) float64 { return 3*float64(n) + 1 }, "n"},
		{"linear, large constant", sizes(256, 16384), func(n int64) float64 { return float64(n) + 100000 }, "n"},
		{"linear plus log", sizes(256, 16384), func(n int64) float64 { return 5*float64(n) + 40*lg(n) + 9 }, "n"},
		{"n log n", sizes(256, 16384), func(n int64) float64 { return float64(n)*lg(n) + 7*float64(n) }, "n log n"},
		{"quadratic", sizes(16, 1024), func(n int64) float64 { return float64(n*n) + 100*float64(n) + 3 }, "n^2"},
		{"quadratic small", sizes(4, 64), func(n int64) float64 { return 3*float64(n*n) + 10*float64(n) + 30 }, "n^2"},
		{"n^2 log n", sizes(16, 1024), func(n int64) float64 { return float64(n*n)*lg(n) + 3*float64(n*n) }, "n^2 log n"},
		{"cubic", sizes(4, 64), func(n int64) float64 { return float64(n*n*n) + 20*float64(n*n) + 5 }, "n^3"},
		{"n^1.5", sizes(256, 65536), func(n int64) float64 { return math.Pow(float64(n), 1.5) }, "n^1.50"},
		{"listed sizes", []int64{10, 100, 1000, 10000}, func(n int64) float64 { return 2*float64(n) + 5 }, "n"},
		{"listed, log", []int64{10, 100, 1000, 10000}, func(n int64) float64 { return 3*lg(n) + 2 }, "log n"},
	}
	for _, c := range cases {
		ys := make([]int64, len(c.ns))
		for i, n := range c.ns {
			ys[i] = int64(math.Round(c.f(n)))
		}
		f := FitGrowth(c.ns, ys)
		if f.Class != c.class {
			t.Errorf("%s: fitted %s (β %.3f, exponent %.2f, %s), want %s", c.name, f.Class, f.Beta, f.Exponent, f.Method, c.class)
		}
	}
}

func TestFitTooFew(t *testing.T) {
	if f := FitGrowth([]int64{2, 4}, []int64{1, 2}); f.Class != "?" {
		t.Errorf("two sizes: %v", f)
	}
}

func TestParseClass(t *testing.T) {
	for in, want := range map[string]string{
		"1": "1", "log n": "log n", "lg n": "log n", "log^2 n": "log^2 n", "n": "n",
		"n log n": "n log n", "nlogn": "n log n", "n^2": "n^2", "n²": "n^2", "Θ(n³)": "n^3",
		"n^2 log n": "n^2 log n", "n^1.5": "n^1.50", "n^1": "n", "m^2": "n^2",
	} {
		got, err := ParseClass(in, "m")
		if err != nil || got != want {
			t.Errorf("ParseClass(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "n!", "2^n", "log log n"} {
		if got, err := ParseClass(in, "n"); err == nil {
			t.Errorf("ParseClass(%q) = %q, want an error", in, got)
		}
	}
}
