package types

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"fut/interp/syntax"
)

const futharkTests = "/tmp/futhark/tests"

// testKind reads a file's -- == block: +1 when it has an input case that
// is not an error (the program must check), -1 when it expects only a
// compile-time error (the checker must reject it), 0 otherwise.
func testKind(src []byte) int {
	sc := bufio.NewScanner(bytes.NewReader(src))
	in := false
	inputs, okInputs, errs := 0, 0, 0
	pendingInput := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "-- ==" {
			in = true
			continue
		}
		if !in || !strings.HasPrefix(line, "--") {
			continue
		}
		body := strings.TrimSpace(strings.TrimPrefix(line, "--"))
		switch {
		case regexp.MustCompile(`^(compiled |nobench |random |script )*input\b`).MatchString(body):
			if pendingInput {
				okInputs++
			}
			inputs++
			pendingInput = true
		case strings.HasPrefix(body, "output"):
			if pendingInput {
				okInputs++
				pendingInput = false
			}
		case strings.HasPrefix(body, "error:"):
			if pendingInput {
				pendingInput = false
			} else {
				errs++
			}
		}
	}
	if pendingInput {
		okInputs++
	}
	switch {
	case okInputs > 0:
		return 1
	case inputs == 0 && errs > 0:
		return -1
	}
	return 0
}

func TestFutharkCorpus(t *testing.T) {
	if _, err := os.Stat(futharkTests); err != nil {
		t.Skip("no Futhark test corpus")
	}
	base, fset := newPreludeChecker(t, nil)
	var files []string
	filepath.Walk(futharkTests, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".fut") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	var pos, posOK, neg, negOK, parseFail, skipped int
	causes := map[string]int{}
	var failures []string
	only := os.Getenv("FUT_CORPUS")
	for _, f := range files {
		if only != "" && !strings.Contains(f, only) {
			continue
		}
		src, _ := os.ReadFile(f)
		kind := testKind(src)
		if kind == 0 {
			// Still must not crash the checker.
			if prog, err := syntax.ParseFile(fset, f, src); err == nil {
				c := base.Fork()
				c.SetImporter(fileImporter(fset))
				if err := checkSafely(c, prog); err != nil && strings.HasPrefix(err.Error(), "PANIC") {
					t.Errorf("%s: %v", f, err)
				}
			}
			continue
		}
		prog, err := syntax.ParseFile(fset, f, src)
		if err != nil {
			if kind > 0 {
				parseFail++
			} else {
				neg++
				negOK++ // a syntax error is a rejection too
			}
			continue
		}
		missing := false
		inner := fileImporter(fset)
		c := base.Fork()
		c.SetImporter(func(from, path string) (*syntax.Program, error) {
			p, err := inner(from, path)
			if err != nil {
				missing = true
			}
			return p, err
		})
		err = checkSafely(c, prog)
		if missing {
			skipped++
			continue
		}
		if kind > 0 {
			pos++
			if err == nil {
				posOK++
			} else {
				if strings.HasPrefix(err.Error(), "PANIC") {
					t.Errorf("%s: %v", f, err)
				}
				msg := fset.FormatAll(err)
				first := strings.SplitN(msg, "\n", 2)[0]
				failures = append(failures, f+": "+first)
				causes[causeOf(first)]++
			}
		} else {
			neg++
			if el, ok := err.(syntax.ErrorList); ok && len(el) > 0 && el[0].Span.Start.IsValid() {
				negOK++
			} else {
				failures = append(failures, "NOT REJECTED: "+f)
			}
		}
	}
	t.Logf("must check: %d/%d (%.1f%%); must reject: %d/%d (%.1f%%); parse failures %d; skipped (imports) %d",
		posOK, pos, pct(posOK, pos), negOK, neg, pct(negOK, neg), parseFail, skipped)
	var cs []string
	for k, n := range causes {
		cs = append(cs, fmt.Sprintf("%4d %s", n, k))
	}
	sort.Sort(sort.Reverse(sort.StringSlice(cs)))
	for i, s := range cs {
		if i < 25 {
			t.Log(s)
		}
	}
	if os.Getenv("FUT_CORPUS_V") != "" {
		for _, f := range failures {
			t.Log(f)
		}
	}
	if pct(posOK, pos) < 90 {
		t.Errorf("too few valid programs check")
	}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}

var quoted = regexp.MustCompile(`\d+|"[^"]*"|\b[a-z_][a-z0-9_']*\b`)

func causeOf(msg string) string {
	if i := strings.Index(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	if len(msg) > 60 {
		msg = msg[:60]
	}
	return msg
}

func checkSafely(c *Checker, p *syntax.Program) (err error) {
	defer func() {
		if os.Getenv("FUT_CORPUS_PANIC") != "" {
			return
		}
		if r := recover(); r != nil {
			err = fmt.Errorf("PANIC: %v", r)
		}
	}()
	return c.CheckProgram(p)
}
