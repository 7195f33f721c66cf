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
	"fut/interp/testspec"
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

// knownFailures lists the programs of Futhark's tests that fut's checker
// does not yet treat as Futhark does, one path (relative to the corpus) a
// line, with the reason after a #.
const knownFailures = "testdata/corpus_known_failures.txt"

// TestFutharkCorpus checks Futhark's own test programs: a program whose
// test block expects a compile-time error must be rejected with an error
// that matches the block's regex (as fut test matches it), and a program
// with runnable cases must check. A program that fails and is not on the
// list of known failures fails the test, as does a listed program that
// now passes (remove it from the list). FUT_CORPUS=part limits the run to
// paths containing part; FUT_CORPUS_UPDATE=1 rewrites the list from this
// run.
func TestFutharkCorpus(t *testing.T) {
	if _, err := os.Stat(futharkTests); err != nil {
		t.Skipf("no Futhark test corpus at %s", futharkTests)
	}
	known := readKnownFailures(t)
	base, fset := newPreludeChecker(t, nil)
	var files []string
	filepath.Walk(futharkTests, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".fut") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	var pos, posOK, neg, negOK int
	causes := map[string]int{}
	failed := map[string]string{} // relative path → reason
	only := os.Getenv("FUT_CORPUS")
	for _, f := range files {
		rel, _ := filepath.Rel(futharkTests, f)
		if only != "" && !strings.Contains(rel, only) {
			continue
		}
		src, _ := os.ReadFile(f)
		spec, _ := testspec.Parse(src, f)
		wantErr, regex := false, ""
		if spec != nil {
			for _, b := range spec.Blocks {
				if b.CompileError {
					wantErr, regex = true, b.CompileErrorRegex
					break
				}
			}
		}
		kind := testKind(src)
		if wantErr {
			kind = -1
		}
		var err error
		var warns syntax.ErrorList
		prog, perr := syntax.ParseFile(fset, f, src)
		if perr != nil {
			err = perr
		} else {
			c := base.Fork()
			c.SetImporter(fileImporter(fset))
			err = checkSafely(c, prog)
			warns = c.Warnings()
		}
		if err != nil && strings.HasPrefix(err.Error(), "PANIC") {
			t.Errorf("%s: %v", f, err)
		}
		switch kind {
		case 1:
			pos++
			if err == nil {
				posOK++
				continue
			}
			first := strings.SplitN(fset.FormatAll(err), "\n", 2)[0]
			failed[rel] = "rejected: " + causeOf(first)
			causes[causeOf(first)]++
		case -1:
			neg++
			if err == nil {
				failed[rel] = "accepted"
				continue
			}
			// Matched as futhark test matches it: against the warnings
			// and the error that checking printed.
			msg := fset.FormatAll(err)
			if len(warns) > 0 {
				msg = fset.FormatAll(warns) + "\n" + msg
			}
			if ok, rerr := testspec.MatchError(regex, msg); !ok || rerr != nil {
				failed[rel] = "wrong error: " + causeOf(strings.SplitN(msg, "\n", 2)[0])
				continue
			}
			negOK++
		}
	}
	t.Logf("must check: %d/%d (%.1f%%); must be rejected with the expected error: %d/%d (%.1f%%)",
		posOK, pos, pct(posOK, pos), negOK, neg, pct(negOK, neg))
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
	if os.Getenv("FUT_CORPUS_UPDATE") != "" {
		if only != "" {
			t.Fatal("FUT_CORPUS_UPDATE rewrites the whole list: run it without FUT_CORPUS")
		}
		writeKnownFailures(t, failed)
		return
	}
	var rels []string
	for rel := range failed {
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	for _, rel := range rels {
		if _, ok := known[rel]; !ok {
			t.Errorf("%s: %s (a regression: it is not in %s)", rel, failed[rel], knownFailures)
		}
	}
	var fixed []string
	for rel := range known {
		if only != "" && !strings.Contains(rel, only) {
			continue
		}
		if _, still := failed[rel]; !still {
			if _, err := os.Stat(filepath.Join(futharkTests, rel)); err == nil {
				fixed = append(fixed, rel)
			}
		}
	}
	sort.Strings(fixed)
	for _, rel := range fixed {
		t.Errorf("%s now passes: remove it from %s", rel, knownFailures)
	}
}

func readKnownFailures(t *testing.T) map[string]string {
	data, err := os.ReadFile(knownFailures)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		path, why, _ := strings.Cut(line, "#")
		out[strings.TrimSpace(path)] = strings.TrimSpace(why)
	}
	return out
}

func writeKnownFailures(t *testing.T, failed map[string]string) {
	var b strings.Builder
	b.WriteString("# Programs of Futhark's tests (" + futharkTests + ") that fut's checker does not yet\n")
	b.WriteString("# treat as Futhark does; TestFutharkCorpus fails on any other failure, and on a\n")
	b.WriteString("# program listed here that passes. Regenerate with FUT_CORPUS_UPDATE=1.\n")
	var rels []string
	for rel := range failed {
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	for _, rel := range rels {
		fmt.Fprintf(&b, "%s # %s\n", rel, failed[rel])
	}
	if err := os.WriteFile(knownFailures, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
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
