package ir_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"fut/interp/ir"
)

// FuzzParse: any text either fails to parse with an error, or parses to a
// program that prints and parses again to the same text; Verify, and
// running a verified program without arguments, never panic.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/passes/*.ir")
	for _, name := range files {
		if src, err := os.ReadFile(name); err == nil {
			f.Add(string(src))
		}
	}
	f.Add("prog () : (i32) {\n  return (1i32)\n}\n")
	f.Fuzz(func(t *testing.T, src string) {
		p, err := ir.Parse(src)
		if err != nil {
			return
		}
		text := p.String()
		q, err := ir.Parse(text)
		if err != nil {
			t.Fatalf("printed program does not parse: %v\n%s", err, text)
		}
		if q.String() != text {
			t.Fatalf("print/parse is not stable:\n%s\n%s", text, q)
		}
		if ir.Verify(p) == nil && len(p.Params) == 0 {
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // a fuzzed loop may not end
			_, _ = ir.Eval(ctx, p, nil)
		}
	})
}
