package types

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fut/interp/syntax"
)

// Many payloads, many constructors, long chains of unified variables:
// checking time grows about linearly.
// Each case is timed at n and 4n; quadratic work would take 16 times as
// long, linear 4 (the bound of 10 leaves room for noise).
func TestCheckWideSums(t *testing.T) {
	base, fset := newPreludeChecker(t, nil)
	gens := map[string]func(n int) string{
		// a constructor with n payloads, its type inferred and printed
		"payloads": func(n int) string {
			var b strings.Builder
			b.WriteString("def x = #foo")
			for i := range n {
				fmt.Fprintf(&b, " %d", i)
			}
			return b.String()
		},
		// a declared sum of n constructors and a match of n cases
		"match": func(n int) string {
			var b strings.Builder
			b.WriteString("type t = ")
			for i := range n {
				if i > 0 {
					b.WriteString(" | ")
				}
				fmt.Fprintf(&b, "#c%d i32", i)
			}
			b.WriteString("\ndef f (x: t) : i32 = match x\n")
			for i := range n {
				fmt.Fprintf(&b, "  case #c%d v -> v + %d\n", i, i)
			}
			return b.String()
		},
		// n additions of overloaded literals: n variables unified in a chain
		"chain": func(n int) string { return "def s = 1" + strings.Repeat(" + 1", n) },
		// an array of n different constructors
		"array": func(n int) string {
			var b strings.Builder
			b.WriteString("def xs = [")
			for i := range n {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "#c%d", i)
			}
			b.WriteString("]")
			return b.String()
		},
	}
	for name, g := range gens {
		var times [2]time.Duration
		for k, n := range []int{2000, 8000} {
			prog, err := syntax.ParseFile(fset, name+".fut", []byte(g(n)))
			if err != nil {
				t.Fatal(err)
			}
			// the best of three, to keep a pause of the machine out
			times[k] = time.Hour
			for range 3 {
				c := base.Fork()
				t0 := time.Now()
				c.CheckProgram(prog)
				times[k] = min(times[k], time.Since(t0))
			}
		}
		if times[1] > 10*times[0] && times[1] > 50*time.Millisecond {
			t.Errorf("%s: %v at n = 2000, %v at n = 8000", name, times[0], times[1])
		}
	}
}
