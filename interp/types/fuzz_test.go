package types

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
	// wide and deep inputs that were quadratic (depth_test.go)
	f.Add("def x = #foo" + strings.Repeat(" 1", 2000))
	f.Add("def s = 1" + strings.Repeat(" + 1", 2000))
	var wide strings.Builder
	wide.WriteString("type t = #c0 i32")
	for i := 1; i < 300; i++ {
		fmt.Fprintf(&wide, " | #c%d i32", i)
	}
	wide.WriteString("\ndef f (x: t) : i32 = match x\n")
	for i := range 300 {
		fmt.Fprintf(&wide, "  case #c%d v -> v\n", i)
	}
	f.Add(wide.String())
	f.Add("def xs = [#a, #b, #c" + strings.Repeat(", #d", 500) + "]")
	f.Add("def x = " + strings.Repeat("(", 900) + "1" + strings.Repeat(")", 900))
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
