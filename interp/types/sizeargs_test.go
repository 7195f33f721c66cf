package types

import (
	"testing"

	"fut/interp/syntax"
)

// SizeArgs gives, at each use of a size-polymorphic function, the sizes
// that the use fixes, as expressions over the names in scope there,
// including sizes fixed only later (by an ascription).
func TestSizeArgs(t *testing.T) {
	c, fset := newPreludeChecker(t, nil)
	src := `
def fill [n] (x: i32) : [n]i32 = replicate n x
def a = fill 3 : [4]i32
def b (k: i64) : [k]i32 = fill 7
def c (n: i64) (m: i64) (xs: [n*m]i32) = unflatten xs
def d (xs: []i32) = unflatten (xs :> [2 * 3]i32)
`
	p, err := syntax.ParseFile(fset, "t.fut", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.CheckProgram(p); err != nil {
		t.Fatalf("check: %s", fset.FormatAll(err))
	}
	info := c.Info()
	want := map[string]map[string]string{
		"a": {"n": "4"},
		"b": {"n": "k"},
		"c": {"n": "n", "m": "m"},
		"d": {"n": "2", "m": "3"},
	}
	for _, d := range p.Decls {
		vd, ok := d.(*syntax.ValDecl)
		if !ok || want[vd.Fun.Name] == nil {
			continue
		}
		var use *syntax.Var
		syntax.Inspect(vd.Fun.Body, func(n syntax.Node) bool {
			if v, ok := n.(*syntax.Var); ok && (v.Name.Name == "fill" || v.Name.Name == "unflatten") {
				use = v
			}
			return true
		})
		if use == nil {
			t.Fatalf("%s: no use found", vd.Fun.Name)
		}
		got := info.SizeArgs(use)
		for name, w := range want[vd.Fun.Name] {
			x, ok := got[name]
			if !ok {
				t.Errorf("%s: no size argument %s (got %v)", vd.Fun.Name, name, got)
				continue
			}
			if s := exprText(x); s != w {
				t.Errorf("%s: size %s = %s, want %s", vd.Fun.Name, name, s, w)
			}
		}
	}
}

func exprText(x syntax.Expr) string {
	switch x := x.(type) {
	case *syntax.IntLit:
		return x.Value.String()
	case *syntax.Var:
		return x.Name.String()
	case *syntax.Binary:
		return "(" + exprText(x.L) + " " + x.Op.Name + " " + exprText(x.R) + ")"
	}
	return "?"
}
