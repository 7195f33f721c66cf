package testspec

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const futharkTests = "/tmp/futhark/tests"

// Every test block in Futhark's own tests parses, and every data file and
// regex they name can be used.
func TestFutharkCorpus(t *testing.T) {
	if _, err := os.Stat(futharkTests); err != nil {
		t.Skip("no Futhark checkout at " + futharkTests)
	}
	blockStart := regexp.MustCompile(`(?m)^--[ \t]+==[ \t]*$`)
	var files, withBlocks, blocks, wantBlocks, cases, failed, badRegex, missingData int
	err := filepath.WalkDir(futharkTests, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".fut") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		n := len(blockStart.FindAll(src, -1))
		wantBlocks += n
		spec, err := Parse(src, path)
		if err != nil {
			failed++
			t.Errorf("%v", err)
			return nil
		}
		if n > 0 {
			withBlocks++
		}
		// Blocks split by entry: sections count once per `-- ==`.
		lines := map[int]bool{}
		for _, b := range spec.Blocks {
			lines[b.Line] = true
			cases += len(b.Cases)
			for _, re := range append([]string{b.CompileErrorRegex}, b.Warnings...) {
				if _, err := CompileRegex(re); err != nil {
					badRegex++
					t.Logf("%s:%d: regex %q: %v", path, b.Line, re, err)
				}
			}
			for _, c := range b.Cases {
				if _, err := CompileRegex(c.ErrorRegex); err != nil {
					badRegex++
					t.Logf("%s:%d: regex %q: %v", path, c.Line, c.ErrorRegex, err)
				}
				for _, f := range []string{c.InputFile, c.OutputFile} {
					if f == "" {
						continue
					}
					if _, err := os.Stat(filepath.Join(filepath.Dir(path), f)); err != nil {
						missingData++
					}
				}
			}
		}
		blocks += len(lines)
		if len(lines) != n {
			t.Errorf("%s: %d test blocks parsed, %d in the file", path, len(lines), n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files (%d with test blocks): %d of %d blocks parsed, %d cases; %d files failed, %d regexes Go cannot compile, %d data files absent",
		files, withBlocks, blocks, wantBlocks, cases, failed, badRegex, missingData)
}
