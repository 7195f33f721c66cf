package syntax

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const corpusDir = "/tmp/futhark/tests"

// expectsError reports whether a test program's test block expects a
// compile-time error (which may be a syntax error).
var expectsErrorRE = regexp.MustCompile(`(?m)^--\s*error:`)

// TestCorpus parses every program of Futhark's own test suite (when it is
// checked out) and checks that print → parse → print is stable on it.
func TestCorpus(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("no Futhark test corpus at " + corpusDir)
	}
	var files []string
	filepath.WalkDir(corpusDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".fut") {
			files = append(files, path)
		}
		return nil
	})
	parsed, failed, expectedFail, unstable := 0, 0, 0, 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		fset := NewFileSet()
		prog, err := ParseFile(fset, path, src)
		if err != nil {
			if expectsErrorRE.Match(src) {
				expectedFail++
				t.Logf("parse error (test expects some error): %s", fset.FormatAll(err))
				continue
			}
			failed++
			t.Errorf("%s", fset.FormatAll(err))
			continue
		}
		parsed++
		if msg := checkSpans(prog); msg != "" {
			t.Errorf("%s: bad span: %s", path, msg)
		}
		if msg := checkStable(prog); msg != "" {
			unstable++
			t.Errorf("%s: %s", path, msg)
		}
	}
	t.Logf("corpus: %d files, %d parse, %d fail, %d fail but expect an error, %d unstable",
		len(files), parsed, failed, expectedFail, unstable)
}

// TestCorpusOther parses the prelude and the other Futhark programs of
// the checkout (library, literate, formatter and property tests).
func TestCorpusOther(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("no Futhark checkout")
	}
	n := 0
	for _, dir := range []string{"prelude", "tests_lib", "tests_literate", "tests_adhoc", "tests_pkg",
		"tests_fmt", "tests_bench", "tests_repl", "tests_server", "tests_property"} {
		filepath.WalkDir(filepath.Join(filepath.Dir(corpusDir), dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".fut") {
				return nil
			}
			n++
			src, _ := os.ReadFile(path)
			fset := NewFileSet()
			prog, err := ParseFile(fset, path, src)
			if err != nil {
				t.Errorf("%s", fset.FormatAll(err))
				return nil
			}
			if msg := checkSpans(prog); msg != "" {
				t.Errorf("%s: bad span: %s", path, msg)
			}
			if msg := checkStable(prog); msg != "" {
				t.Errorf("%s: %s", path, msg)
			}
			return nil
		})
	}
	t.Logf("%d other files", n)
}

// TestFormatterPairs checks that each program of Futhark's formatter tests
// parses to the same tree as its formatted version: line breaks and
// spacing must not change the meaning.
func TestFormatterPairs(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(corpusDir), "tests_fmt", "*.fut"))
	if len(files) == 0 {
		t.Skip("no Futhark formatter tests")
	}
	for _, f := range files {
		exp := filepath.Join(filepath.Dir(f), "expected", filepath.Base(f))
		a, _ := os.ReadFile(f)
		b, err := os.ReadFile(exp)
		if err != nil {
			continue
		}
		pa, err1 := ParseFile(NewFileSet(), f, a)
		pb, err2 := ParseFile(NewFileSet(), exp, b)
		if err1 != nil || err2 != nil {
			t.Errorf("%s: %v %v", f, err1, err2)
			continue
		}
		if dump(pa.Decls) != dump(pb.Decls) {
			t.Errorf("%s: differs from its formatted version:\n%s", f, firstDiff(dump(pa.Decls), dump(pb.Decls)))
		}
	}
}
