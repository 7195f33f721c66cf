package types

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fut/interp/syntax"
)

// hasTVar reports whether t still has an unresolved unification variable.
func hasTVar(t Type) bool {
	switch t := Resolve(t).(type) {
	case TVar:
		return true
	case *Array:
		return hasTVar(t.Elem)
	case *Record:
		for _, f := range t.Fields {
			if hasTVar(f.Type) {
				return true
			}
		}
	case *Sum:
		for _, c := range t.Constrs {
			for _, p := range c.Payload {
				if hasTVar(p) {
					return true
				}
			}
		}
	case *Arrow:
		return hasTVar(t.From) || hasTVar(t.To)
	case *Con:
		for _, a := range t.Args {
			if a.Type != nil && hasTVar(a.Type) {
				return true
			}
		}
	}
	return false
}

// TestInfoComplete checks that after a program checks, every expression
// in it has a fully resolved type and every literal a primitive type.
func TestInfoComplete(t *testing.T) {
	base, fset := newPreludeChecker(t, nil)
	files, _ := filepath.Glob("testdata/ok/*.fut")
	examples, _ := filepath.Glob("../../examples/*.fut")
	files = append(files, examples...)
	if _, err := os.Stat(futharkTests); err == nil {
		more, _ := filepath.Glob(filepath.Join(futharkTests, "*.fut"))
		files = append(files, more...)
		if os.Getenv("FUT_INFO_ALL") != "" {
			more, _ = filepath.Glob(filepath.Join(futharkTests, "*/*.fut"))
			files = append(files, more...)
		}
	}
	checked, missing, open, lits := 0, 0, 0, 0
	for _, f := range files {
		src, _ := os.ReadFile(f)
		prog, err := syntax.ParseFile(fset, f, src)
		if err != nil {
			continue
		}
		c := base.Fork()
		c.SetImporter(fileImporter(fset))
		if err := checkSafely(c, prog); err != nil {
			if strings.Contains(f, "testdata") || strings.Contains(f, "examples") {
				t.Errorf("%s", fset.FormatAll(err))
			}
			continue
		}
		checked++
		info := c.Info()
		for _, d := range prog.Decls {
			syntax.Inspect(d, func(n syntax.Node) bool {
				e, ok := n.(syntax.Expr)
				if !ok {
					return true
				}
				ty, ok := info.TypeOf(e)
				switch {
				case !ok:
					missing++
					if missing < 5 {
						t.Logf("no type: %s at %s", syntax.Print(e), fset.Position(e.Pos()))
					}
				case hasTVar(ty):
					open++
					if open < 5 {
						t.Logf("open type %s: %s at %s", ty, syntax.Print(e), fset.Position(e.Pos()))
					}
				}
				switch e.(type) {
				case *syntax.IntLit, *syntax.FloatLit, *syntax.CharLit:
					if _, ok := info.LitType(e); !ok {
						lits++
					}
				}
				return true
			})
		}
	}
	t.Logf("%d programs: %d expressions without a type, %d with open types, %d literals without a primitive type", checked, missing, open, lits)
	if missing > 0 || lits > 0 {
		t.Errorf("incomplete side tables")
	}
}
