package types

import (
	"os"
	"path/filepath"
	"testing"

	"fut/interp/syntax"
)

// FuzzCheck checks arbitrary programs that parse: the checker must report
// errors, never panic.
func FuzzCheck(f *testing.F) {
	for _, dir := range []string{"testdata/errors", "testdata/ok"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.fut"))
		for _, p := range files {
			src, _ := os.ReadFile(p)
			f.Add(string(src))
		}
	}
	f.Add("def f x = x.0 + x.1")
	f.Add("module M = { type t = i32 } : { type t } def x : M.t = 1")
	base, fset := newPreludeChecker(f, nil)
	f.Fuzz(func(t *testing.T, src string) {
		prog, err := syntax.ParseFile(fset, "fuzz.fut", []byte(src))
		if err != nil {
			return
		}
		c := base.Fork()
		c.CheckProgram(prog)
	})
}
