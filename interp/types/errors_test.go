package types

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"fut/interp/syntax"
)

// expectation is one "-- ERROR [col] "regex"" comment: an error expected
// on that line (and column, when given) whose message matches; or one
// "-- WARNING [col] "regex"" comment, a warning expected likewise. A line
// may end in several.
type expectation struct {
	line, col int
	re        *regexp.Regexp
	text      string
	warning   bool
}

var errorComment = regexp.MustCompile(`-- (ERROR|WARNING) (?:(\d+) )?"((?:[^"\\]|\\.)*)"`)

func expectations(t *testing.T, src string) []expectation {
	var out []expectation
	for i, line := range strings.Split(src, "\n") {
		for _, m := range errorComment.FindAllStringSubmatch(line, -1) {
			col := 0
			if m[2] != "" {
				col, _ = strconv.Atoi(m[2])
			}
			pat := strings.ReplaceAll(m[3], `\"`, `"`)
			re, err := regexp.Compile(pat)
			if err != nil {
				t.Fatalf("line %d: bad pattern %q: %v", i+1, pat, err)
			}
			out = append(out, expectation{line: i + 1, col: col, re: re, text: pat, warning: m[1] == "WARNING"})
		}
	}
	return out
}

// TestErrors checks every program in testdata/errors: each expected
// error (and warning) must be reported at its line (and column) with a
// matching message, and no other error (or warning) may be reported.
func TestErrors(t *testing.T) {
	files, _ := filepath.Glob("testdata/errors/*.fut")
	if len(files) == 0 {
		t.Fatal("no test files")
	}
	base, fset := newPreludeChecker(t, nil)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			prog, err := syntax.ParseFile(fset, f, src)
			if err != nil {
				t.Fatalf("parse: %s", fset.FormatAll(err))
			}
			c := base.Fork()
			c.SetImporter(fileImporter(fset))
			err = c.CheckProgram(prog)
			var got syntax.ErrorList
			if err != nil {
				got = err.(syntax.ErrorList)
			}
			warns := c.Warnings()
			exps := expectations(t, string(src))
			for _, kind := range []string{"error", "warning"} {
				reported := got
				if kind == "warning" {
					reported = warns
				}
				used := make([]bool, len(reported))
				for _, x := range exps {
					if x.warning != (kind == "warning") {
						continue
					}
					found := false
					for i, e := range reported {
						p := fset.Position(e.Span.Start)
						if used[i] || p.Line != x.line || (x.col != 0 && p.Col != x.col) {
							continue
						}
						if x.re.MatchString(e.Msg) {
							used[i], found = true, true
							break
						}
					}
					if !found {
						var near []string
						for _, e := range reported {
							if fset.Position(e.Span.Start).Line == x.line {
								near = append(near, fset.Format(e))
							}
						}
						t.Errorf("%s:%d:%d: missing %s matching %q; on that line: %q", filepath.Base(f), x.line, x.col, kind, x.text, near)
					}
				}
				for i, e := range reported {
					if !used[i] {
						t.Errorf("unexpected %s %s", kind, fset.Format(e))
					}
				}
			}
		})
	}
}
