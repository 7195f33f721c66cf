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
