package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Hostile programs too large to keep in the repository (hundreds of
// kilobytes each) are generated here, as go/parser's TestParseDepthLimit
// does, and must give exactly these errors (at these positions): the
// parser's and checker's depth limits, with no stack overflow and no
// quadratic time.
var generatedBad = []struct {
	name, src, err string
}{
	{"syn_deep_lets", "-- Lets nested a hundred thousand deep.\ndef main (x: i32) =\n" + strings.Repeat("let x = x + 1 in\n", 100000) + "x\n",
		"%s:1001:9: nesting too deep"},
	{"syn_long_chain", "-- An operator chain of two hundred thousand terms.\ndef main (x: i32) = x" + strings.Repeat(" + x", 200000) + "\n",
		"%s:2:79995: expression nested too deeply (more than 20000 levels)"},
	{"syn_long_projection", "-- A hundred thousand field projections (once quadratic in the lexer).\ndef main (x: {a: i32}) = x" + strings.Repeat(".a", 100000) + "\n",
		"%s:2:40015: expression nested too deeply (more than 20000 levels)"},
	{"syn_deep_parens", "-- Parentheses nested a hundred thousand deep.\ndef main (x: i32) = " + strings.Repeat("(", 100000) + "x" + strings.Repeat(")", 100000) + "\n",
		"%s:2:1020: nesting too deep"},
}

func TestGeneratedBadPrograms(t *testing.T) {
	dir := t.TempDir()
	for _, c := range generatedBad {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(dir, c.name+".fut")
			if err := os.WriteFile(file, []byte(c.src), 0o644); err != nil {
				t.Fatal(err)
			}
			got := badRun(t, file, "")
			want := strings.ReplaceAll(c.err, "%s", file)
			if len(got) == 0 || got[0] != want {
				t.Errorf("want %q, got %q", want, got)
			}
		})
	}
}
