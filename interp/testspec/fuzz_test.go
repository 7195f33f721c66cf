package testspec

import (
	"strings"
	"testing"
)

// Parse never panics, and a parsed spec keeps its invariants.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"-- ==\n-- input { 1 } output { 2 }\n",
		"-- ==\n-- tags { a }\n-- entry: f g\n-- \"n\" compiled random input { [1]i32 } auto output\n",
		"-- ==\n-- error: x\n",
		"-- ==\n-- script input @ f.in\n-- input {\n-- 1 } error: y\n-- structure gpu { A 1 }\n-- warning: w\n",
		"-- ==\n-- property: p\n",
		"-- ==\n--\"a\\\"b\" input { \"}\" }\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		s, err := Parse([]byte(src), "f.fut")
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if !strings.HasPrefix(err.Error(), "f.fut:") {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		for _, b := range s.Blocks {
			if len(b.Cases) > 0 && b.Entries == nil {
				t.Fatalf("block on line %d has nil Entries", b.Line)
			}
			if b.CompileError && len(b.Cases) > 0 {
				t.Fatalf("block on line %d expects a compile error and has cases", b.Line)
			}
			names := map[string]bool{}
			for _, c := range b.Cases {
				if names[c.Name] {
					t.Fatalf("duplicate case name %q", c.Name)
				}
				names[c.Name] = true
			}
		}
	})
}
