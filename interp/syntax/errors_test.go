package syntax

import (
	"strings"
	"testing"
)

// TestErrors checks the message and position of syntax errors. The
// expected errors are "line:col: message" lines (line:col-col for a span
// of more than one character), all of them in order.
func TestErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"def f x = x +", `1:14: Unexpected end of file, expected an expression`},
		{"def f = (1, 2", `1:14: Unexpected end of file, expected ")"`},
		{"def f = let x = 1", `1:18: Unexpected end of file, expected "in"`},
		{"def f =\n  let x = 1\ndef g = 2", `3:1-4: Unexpected "def", expected "in" (missing "in"?)`},
		{"def f = if c then 1", `1:20: Unexpected end of file, expected "else"`},
		{"def x = 1 )\ndef y = 2 +\ndef z = 3", "1:11: Unexpected token: ')', expected a declaration\n3:1-4: Unexpected token: 'def' (a keyword), expected an expression"},
		{"def f = \"abc", `1:9-13: unterminated string literal`},
		{"def f = 1 § 2", "1:11-13: unexpected character \"§\""},
		{"def f = match x", `1:16: Unexpected end of file, expected "case"`},
		{"def f (x: ) = x", `1:11: Unexpected token: ')', expected a type`},
		{"type t = [n]", `1:13: Unexpected end of file, expected a type`},
		{"def f = (.)", `1:11: Unexpected token: ')', expected a field name`},
		{"def f = (x).(1)", `1:13: can only locally open module names, not arbitrary expressions`},
		{"module M = {", `1:13: Unexpected end of file, expected "}"`},
		{"def f = loop x = 0 do x", `1:20-22: Unexpected token: 'do' (a keyword), expected "for" or "while"`},
		{"val x: i32", `1:1-4: Unexpected token: 'val' (a keyword), expected a declaration`},
	} {
		fset := NewFileSet()
		_, err := ParseFile(fset, "e.fut", []byte(c.src))
		if err == nil {
			t.Errorf("%q: no error, want %s", c.src, c.want)
			continue
		}
		got := strings.ReplaceAll(fset.FormatAll(err), "e.fut:", "")
		if got != c.want {
			t.Errorf("%q:\n got  %s\n want %s", c.src, got, c.want)
		}
		for _, e := range err.(ErrorList) {
			if fset.File(e.Span.Start) == nil {
				t.Errorf("%q: error without a valid position: %s", c.src, e.Msg)
			}
		}
	}
}

func TestDeepNesting(t *testing.T) {
	for _, src := range []string{
		strings.Repeat("[", 10000),
		strings.Repeat("- ", 10000) + "x",
		strings.Repeat("let x = 1 in ", 10000) + "x",
		strings.Repeat("if a then b else ", 10000) + "c",
		strings.Repeat("f (", 10000),
		"1 : " + strings.Repeat("[", 10000),
		"1 : " + strings.Repeat("(", 10000),
		"loop " + strings.Repeat("(", 10000),
		"{a = " + strings.Repeat("{a = ", 10000),
	} {
		fset := NewFileSet()
		_, err := ParseFile(fset, "deep.fut", []byte("def y = "+src))
		if err == nil || !strings.Contains(err.Error(), "nesting too deep") {
			t.Errorf("%.20s…: want nesting too deep, got %v", src, err)
		}
	}
	{
		fset := NewFileSet()
		_, err := ParseFile(fset, "deep.fut", []byte("module M = "+strings.Repeat("{module N = ", 10000)))
		if err == nil || !strings.Contains(err.Error(), "nesting too deep") {
			t.Errorf("deep modules: want nesting too deep, got %v", err)
		}
	}
	fset := NewFileSet()
	_, err := ParseExpr(fset, "deep", []byte(strings.Repeat("(", 100000)+"1"+strings.Repeat(")", 100000)))
	if err == nil || !strings.Contains(err.Error(), "nesting too deep") {
		t.Errorf("want nesting too deep, got %v", err)
	}
	// Moderately deep input still parses.
	e := mustExpr(t, strings.Repeat("(", 100)+"1"+strings.Repeat(")", 100))
	if Print(e) != strings.Repeat("(", 100)+"1"+strings.Repeat(")", 100) {
		t.Errorf("deep parens printed wrongly")
	}
}

func TestIncomplete(t *testing.T) {
	for _, c := range []struct {
		src        string
		incomplete bool
	}{
		{"(1, 2", true},
		{"let x = 1", true},
		{"if a then b", true},
		{"loop x = 0 for i < 10", true},
		{"match x", true},
		{"[1, 2", true},
		{"1 +", true},
		{"1 + )", false},
		{"(1))", false},
		{"x )", false},
		{"", false},
		{"-- only a comment", false},
	} {
		fset := NewFileSet()
		_, err := ParseExpr(fset, "<repl>", []byte(c.src))
		if err == nil {
			t.Errorf("%q: no error", c.src)
			continue
		}
		if got := Incomplete(err); got != c.incomplete {
			t.Errorf("%q: Incomplete = %v, want %v (%v)", c.src, got, c.incomplete, err)
		}
	}
	fset := NewFileSet()
	if _, err := ParseFile(fset, "f", []byte("def f x =")); !Incomplete(err) {
		t.Errorf("unfinished def not incomplete: %v", err)
	}
	if _, err := ParseFile(fset, "g", []byte("def f = (.x")); !Incomplete(err) {
		t.Errorf("unfinished section not incomplete: %v", err)
	}
	if Incomplete(nil) {
		t.Errorf("nil error is incomplete")
	}
}

func TestParseEntry(t *testing.T) {
	for _, c := range []struct {
		src   string
		decls int
		expr  bool
		err   bool
	}{
		{"1 + 2", 0, true, false},
		{"def f x = x + 1", 1, false, false},
		{"let x = 1", 1, false, false},
		{"let x = 1 in x + 1", 0, true, false},
		{"def a = 1 def b = 2", 2, false, false},
		{"type t = i32", 1, false, false},
		{"let x = 1 in", 0, false, true},
		{"#[trace] f 1", 0, true, false},
		{"#[inline] def f = 1", 1, false, false},
		{"open M", 1, false, false},
	} {
		fset := NewFileSet()
		decls, e, err := ParseEntry(fset, "<repl:1>", []byte(c.src))
		if (err != nil) != c.err || len(decls) != c.decls || (e != nil) != c.expr {
			t.Errorf("%q: %d decls, expr %v, err %v", c.src, len(decls), e != nil, err)
		}
		if err != nil && fset.File(err.(ErrorList)[0].Span.Start) == nil {
			t.Errorf("%q: error position not in the caller's file set", c.src)
		}
	}
}
