package types

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fut/interp/syntax"
)

// Many payloads, many constructors, long chains of unified variables:
// checking time grows about linearly. Each case is checked at n = 15,000,
// which takes well under a second when the work is linear and minutes
// when it is quadratic (8,000 cases of a match took 29 s before); the
// bound of 20 s is a guard against that, not a measurement, so a loaded
// machine does not make it fail.
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
		prog, err := syntax.ParseFile(fset, name+".fut", []byte(g(15000)))
		if err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		base.Fork().CheckProgram(prog)
		if d := time.Since(t0); d > 20*time.Second {
			t.Errorf("%s: checking 15,000 took %v: quadratic again?", name, d)
		}
	}
}
