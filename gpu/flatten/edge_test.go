package flatten_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"fut/eval/value"
	"fut/interp/session"
)

// TestEdgeCases: empty arrays, kernel failures, several results, scalars
// made by one kernel and used by the next. Each either offloads and
// agrees with the reference, or stays on the reference path with a reason
// (never a wrong answer).
func TestEdgeCases(t *testing.T) {
	device(t)
	s := newSession(t)
	ctx := context.Background()
	for _, c := range []struct {
		name, src   string
		mustOffload bool
	}{
		{"empty_map", `map (\x -> x + 1) (iota 0)`, true},
		{"empty_reduce", `reduce (+) 0 (map (\x -> x + 1) (iota 0))`, true},
		{"out_of_bounds", `map (\i -> xs[i + 1]) (iota 1000)`, false},
		{"div_by_zero", `map (\x -> 10 / (x - x)) is`, false},
		{"index_oob", `let zs = map (+1) is in zs[8]`, false},
		{"update_oob", `let a = map (*2) xs let a[3000] = 7 in map (+1) a`, false},
		{"slice_oob", `let a = map (*2) xs in map (+1) a[900:1100]`, false},
		{"irregular_fail", `map (\n -> let a = iota n in a[n]) (1...300)`, false},
		{"tuple_result", `(map (\x -> x + 1) is, reduce (+) 0 is)`, true},
		{"unzip", `unzip (map (\x -> (x, x * 3)) is)`, true},
		{"normalise", `let s = reduce (+) 0 xs in map (\x -> x / s) xs`, true},
		{"overflow_i32", `map (\x -> x * 1000000007) is`, true},
		{"f64_math", `map (\i -> f64.sqrt (f64.i64 i) + f64.sin (f64.i64 i)) (iota 1000)`, true},
		{"u8_wrap", `map (\i -> u8.i64 i + 200) (iota 300)`, true},
		{"bool_map", `map (\x -> x > 0) is`, true},
		{"argmax", `reduce (\(a, i) (b, j) -> if a > b || (a == b && i < j) then (a, i) else (b, j)) (f32.lowest, -1) (zip ys (iota 1000))`, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ref, refErr := s.EvalExpr(ctx, c.src)
			v, off, why, err := s.EvalOffload(ctx, c.src)
			if err != nil {
				// an error of the program, found on the device: it must
				// be the reference path's, at the same position (each
				// evaluation is a new <repl:N>; whichever thread fails
				// first names its own index)
				if _, _, ok := session.Located(err); !ok || refErr == nil {
					t.Fatalf("EvalOffload: %v (reference: %v)", err, refErr)
				}
				got, want := s.FormatError(err), s.FormatError(refErr)
				norm := func(s string) string {
					if i := strings.Index(s, "\n\nBacktrace:"); i >= 0 {
						s = s[:i]
					}
					s = regexp.MustCompile(`<repl:\d+>`).ReplaceAllString(s, "<repl>")
					if i := strings.Index(s, "\n"); i >= 0 {
						s = s[:i] + regexp.MustCompile(`\d+`).ReplaceAllString(s[i:], "N")
					}
					return s
				}
				if norm(got) != norm(want) {
					t.Fatalf("the device reports\n%s\nthe reference path\n%s", got, want)
				}
				return
			}
			if !off {
				if c.mustOffload {
					t.Fatalf("not offloaded: %s", why)
				}
				if why == "" {
					t.Fatalf("not offloaded and no reason")
				}
				t.Logf("stays on the reference path: %s", why)
				return
			}
			if refErr != nil {
				t.Fatalf("offloaded %s but the reference fails: %v", value.String(v), refErr)
			}
			if !value.Equal(ref.Value, v, 1e-4) {
				t.Errorf("offloaded %s\nreference %s", value.String(v), value.String(ref.Value))
			}
		})
	}
}
