package types

import (
	"strings"
	"testing"

	"fut/interp/syntax"
)

// deepParens wraps the literal 1 (parsed, for a position) in n
// parentheses, built directly: the parser would refuse it.
func deepParens(t *testing.T, fset *syntax.FileSet, n int) syntax.Expr {
	t.Helper()
	e, err := syntax.ParseExpr(fset, "<deep>", []byte("1"))
	if err != nil {
		t.Fatal(err)
	}
	sp := syntax.SpanOf(e)
	for range n {
		e = &syntax.Paren{Loc: syntax.Loc{Span: sp}, X: e}
	}
	return e
}

// Trees deeper than the checker's limit, made without the parser, give a
// positioned error instead of overflowing the Go stack (which would kill
// the process): as an expression and as a definition's body. One at the
// limit is checked.
func TestCheckDepthLimit(t *testing.T) {
	base, fset := newPreludeChecker(t, nil)
	for _, n := range []int{MaxDepth + 1, 1_000_000} {
		c := base.Fork()
		_, err := c.CheckExpr(deepParens(t, fset, n))
		if err == nil || !strings.Contains(fset.FormatAll(err), "<deep>:1:1: Expression nested too deeply (more than 50000 levels)") {
			t.Errorf("an expression %d deep: %v", n, fset.FormatAll(err))
		}
		prog, perr := syntax.ParseFile(fset, "<deepdef>", []byte("def x = 0"))
		if perr != nil {
			t.Fatal(perr)
		}
		prog.Decls[0].(*syntax.ValDecl).Fun.Body = deepParens(t, fset, n)
		if err := c.CheckProgram(prog); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
			t.Errorf("a definition %d deep: %v", n, err)
		}
		// the checker is usable afterwards
		if _, err := c.CheckExpr(deepParens(t, fset, 3)); err != nil {
			t.Errorf("after the error: %v", fset.FormatAll(err))
		}
	}
	c := base.Fork()
	if ty, err := c.CheckExpr(deepParens(t, fset, MaxDepth-1)); err != nil || ty.String() != "i32" {
		t.Errorf("an expression at the limit: %v, %v", ty, fset.FormatAll(err))
	}
}

// The deepest trees the parser builds are within the checker's limit.
func TestParserDepthWithinCheckerLimit(t *testing.T) {
	base, fset := newPreludeChecker(t, nil)
	for _, src := range []string{
		"1" + strings.Repeat(" + 1", 19990),
		strings.Repeat("(", 900) + "1" + strings.Repeat(")", 900),
		strings.Repeat("- ", 900) + "1",
		strings.Repeat("let y = 1 in ", 900) + "y",
	} {
		e, err := syntax.ParseExpr(fset, "<parsed>", []byte(src))
		if err != nil {
			t.Fatalf("%.40s…: the parser refuses it (make it shallower): %v", src, fset.FormatAll(err))
		}
		c := base.Fork()
		if _, err := c.CheckExpr(e); err != nil && strings.Contains(err.Error(), "nested too deeply") {
			t.Errorf("%.40s…: %v", src, fset.FormatAll(err))
		}
	}
}
