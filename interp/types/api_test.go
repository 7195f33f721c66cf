package types

import (
	"testing"

	"fut/interp/syntax"
)

func parseExpr(t *testing.T, fset *syntax.FileSet, src string) syntax.Expr {
	t.Helper()
	e, err := syntax.ParseExpr(fset, "<test>", []byte(src))
	if err != nil {
		t.Fatalf("parse %q: %s", src, fset.FormatAll(err))
	}
	return e
}

func TestExprTypes(t *testing.T) {
	base, fset := newPreludeChecker(t, nil)
	cases := []struct{ src, want string }{
		{"1", "i32"},
		{"1.5", "f64"},
		{"1 + 2.5f32", "f32"},
		{"1u8 + 2", "u8"},
		{"(1, true)", "(i32, bool)"},
		{"{x = 1, y = 2.0}", "{x: i32, y: f64}"},
		{"[1, 2, 3]", "[3]i32"},
		{"iota 5", "[5]i64"},
		{"map (+1) [1, 2]", "[2]i32"},
		{"\\(x: i32) -> x", "i32 -> i32"},
		{"(.x)", "?"},
		{"\"abc\"", "[3]u8"},
		{"let xs = [1i64, 2] in xs[1:]", "[1]i64"},
		{"let xs = [1i64, 2] in xs[1:2:2]", "[]i64"},
		{"#foo 1 : (#foo i32 | #bar)", "#bar | #foo i32"},
		{"0..<10", "[10]i32"},
		{"if true then [1] else [2, 3]", "[]i32"},
		{"i32.sum [1, 2]", "i32"},
		{"zip [1] [true]", "[1](i32, bool)"},
	}
	for _, tc := range cases {
		c := base.Fork()
		e := parseExpr(t, fset, tc.src)
		ty, err := c.CheckExpr(e)
		if tc.want == "?" {
			if err == nil {
				t.Errorf("%s: expected an error, got type %s", tc.src, ty)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %s", tc.src, fset.FormatAll(err))
			continue
		}
		if got := ty.String(); got != tc.want {
			t.Errorf("%s: type %s, want %s", tc.src, got, tc.want)
		}
	}
}

func TestLitTypeAndInfo(t *testing.T) {
	base, fset := newPreludeChecker(t, nil)
	c := base.Fork()
	src := "def f (x: f32) = x + 1\ndef g = [1, 2] : []u16\nentry main (xs: []i32) (y: i64) : (i32, []f32) = (xs[y], [1])\n"
	prog, err := syntax.ParseFile(fset, "lit.fut", []byte(src))
	if err != nil {
		t.Fatal(fset.FormatAll(err))
	}
	if err := c.CheckProgram(prog); err != nil {
		t.Fatal(fset.FormatAll(err))
	}
	var lits []syntax.PrimType
	syntax.Inspect(prog.Decls[0], func(n syntax.Node) bool {
		if l, ok := n.(*syntax.IntLit); ok {
			p, ok := c.Info().LitType(l)
			if !ok {
				t.Errorf("no type for literal %s", l.Text)
			}
			lits = append(lits, p)
		}
		return true
	})
	syntax.Inspect(prog.Decls[1], func(n syntax.Node) bool {
		if l, ok := n.(*syntax.IntLit); ok {
			p, _ := c.Info().LitType(l)
			lits = append(lits, p)
		}
		return true
	})
	want := []syntax.PrimType{"f32", "u16", "u16"}
	if len(lits) != len(want) {
		t.Fatalf("literal types %v, want %v", lits, want)
	}
	for i := range want {
		if lits[i] != want[i] {
			t.Errorf("literal %d: %s, want %s", i, lits[i], want[i])
		}
	}
	params, results, ok := c.EntryPoint("main")
	if !ok || len(params) != 2 || len(results) != 2 {
		t.Fatalf("entry point: %v %v %v", params, results, ok)
	}
	if p, r, ok := ArrayElem(params[0]); !ok || p != "i32" || r != 1 {
		t.Errorf("ArrayElem(%s) = %s %d %v", params[0], p, r, ok)
	}
	if results[1].String() != "[]f32" && results[1].String() != "[1]f32" {
		t.Errorf("result type %s", results[1])
	}
}

// A failed REPL declaration leaves the environment as it was.
func TestCheckDeclsAtomic(t *testing.T) {
	base, fset := newPreludeChecker(t, nil)
	c := base.Fork()
	decls, _, err := syntax.ParseEntry(fset, "<repl:1>", []byte("def good = 1\ndef bad = good + true"))
	if err != nil {
		t.Fatal(fset.FormatAll(err))
	}
	if err := c.CheckDecls(decls); err == nil {
		t.Fatal("expected an error")
	}
	if _, err := c.CheckExpr(parseExpr(t, fset, "good")); err == nil {
		t.Error("good should not be defined after a failed entry")
	}
	decls, _, _ = syntax.ParseEntry(fset, "<repl:2>", []byte("def good = 1"))
	if err := c.CheckDecls(decls); err != nil {
		t.Fatal(fset.FormatAll(err))
	}
	ty, err := c.CheckExpr(parseExpr(t, fset, "good + 1"))
	if err != nil || ty.String() != "i32" {
		t.Errorf("good + 1: %v %v", ty, err)
	}
}

// REPL entries build on each other: types, modules and functions.
func TestREPLIncremental(t *testing.T) {
	base, fset := newPreludeChecker(t, nil)
	c := base.Fork()
	for i, src := range []string{
		"type t = i32",
		"def f (x: t) = x + 1",
		"module M = { def y = 2.5f32 }",
		"module type S = { val z : i64 }",
		"module N : S = { def z = 7i64 }",
	} {
		decls, _, err := syntax.ParseEntry(fset, "<repl>", []byte(src))
		if err != nil {
			t.Fatalf("%d: %s", i, fset.FormatAll(err))
		}
		if err := c.CheckDecls(decls); err != nil {
			t.Fatalf("%s: %s", src, fset.FormatAll(err))
		}
	}
	for src, want := range map[string]string{"f 2": "i32", "M.y": "f32", "N.z + 1": "i64", "(f 1, M.y)": "(i32, f32)"} {
		ty, err := c.CheckExpr(parseExpr(t, fset, src))
		if err != nil {
			t.Errorf("%s: %s", src, fset.FormatAll(err))
			continue
		}
		if ty.String() != want {
			t.Errorf("%s: %s, want %s", src, ty, want)
		}
	}
	if _, err := c.CheckExpr(parseExpr(t, fset, "f 2.0")); err == nil {
		t.Error("f 2.0 should not check")
	}
}

// TestSchemeNames checks that distinct sizes print with distinct names: the
// anonymous sizes of parameters, and existential sizes without a name.
func TestSchemeNames(t *testing.T) {
	base, fset := newPreludeChecker(t, nil)
	src := `def f (a: [][]f32) (b: []i32) = b
def g [n] (a: [n]f32) (b: [n+1]i32) = b
def h (xs: []i32) = xs[1:]
def k (m: i32) (xs: []i32) = xs[:i64.i32 m]
def l [n] (xs: [n]i32) (ys: []i32) = (xs, ys)
`
	prog, err := syntax.ParseFile(fset, "names.fut", []byte(src))
	if err != nil {
		t.Fatal(fset.FormatAll(err))
	}
	c := base.Fork()
	if err := c.CheckProgram(prog); err != nil {
		t.Fatal(fset.FormatAll(err))
	}
	for name, want := range map[string]string{
		"f": "[n] [n1] [n2] : [n][n1]f32 -> [n2]i32 -> [n2]i32",
		"g": "[n] : [n]f32 -> [n + 1]i32 -> [n + 1]i32",
		"h": "[n] : [n]i32 -> [n - 1]i32",
		"k": "[n] : (m: i32) -> [n]i32 -> [i64.i32 m]i32",
		"l": "[n] [n1] : [n]i32 -> [n1]i32 -> ([n]i32, [n1]i32)",
	} {
		sc, ok := c.LookupValue(name)
		if !ok {
			t.Fatalf("%s not found", name)
		}
		if got := sc.String(); got != want {
			t.Errorf("%s : %s, want %s", name, got, want)
		}
	}
}
