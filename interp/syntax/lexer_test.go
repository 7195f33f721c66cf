package syntax

import (
	"strings"
	"testing"
)

// lexString renders the tokens of src as "kind:text" separated by spaces.
func lexString(src string) (string, ErrorList) {
	var errs ErrorList
	f := NewFileSet().AddFile("lex", []byte(src))
	toks, _ := lex(f, &errs)
	var parts []string
	for _, t := range toks[:len(toks)-1] {
		parts = append(parts, kindName(t.kind)+":"+t.text)
	}
	return strings.Join(parts, " "), errs
}

func kindName(k tokKind) string {
	switch k {
	case tIdent:
		return "id"
	case tInt:
		return "int"
	case tFloat:
		return "float"
	case tOp:
		return "op"
	case tQualOp:
		return "qop"
	case tIndex:
		return "idx"
	case tLBracket:
		return "lbr"
	case tConstr:
		return "con"
	case tChar:
		return "char"
	case tString:
		return "str"
	}
	return "p"
}

func TestLexer(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"x.0.1", "id:x p:. int:0 p:. int:1"},
		{"1.5 2.", "float:1.5 int:2 p:."},
		{"a.b.c", "id:a p:. id:b p:. id:c"},
		{"M.(e)", "id:M p:. p:( id:e p:)"},
		{"f32.+ i32.** M.N.>>=", "qop:f32.+ qop:i32.** qop:M.N.>>="},
		{"xs[i] f [x] (a)[0] b][1]", "id:xs idx:[ id:i p:] id:f lbr:[ id:x p:] p:( id:a p:) idx:[ int:0 p:] id:b p:] idx:[ int:1 p:]"},
		{"x' _y a_b'c", "id:x' id:_y id:a_b'c"},
		{"_ __", "p:_ p:_ p:_"},
		{"1i8 2u64 0xFFi16 0b1_01u8 1_000", "int:1i8 int:2u64 int:0xFFi16 int:0b1_01u8 int:1_000"},
		{"2.5f16 1e10 1E-3f64 3f32 0x1.fp3 0x1.8p-1f32", "float:2.5f16 float:1e10 float:1E-3f64 float:3f32 float:0x1.fp3 float:0x1.8p-1f32"},
		{"0xff.x", "int:0xff p:. id:x"},
		{`'a' '\n' '\'' '\\' 'λ' '\65'`, `char:'a' char:'\n' char:'\'' char:'\\' char:'λ' char:'\65'`},
		{`"a\"b" "λ\t"`, `str:"a\"b" str:"λ\t"`},
		{"'a '^b '~c", "p:' id:a p:'^ id:b p:'~ id:c"},
		{"#foo #[inline] ???", "con:foo p:#[ id:inline p:] p:???"},
		{"a...b a..<b a..>b a..b..c", "id:a p:... id:b id:a p:..< id:b id:a p:..> id:b id:a p:.. id:b p:.. id:c"},
		{"(.x) (.[0])", "p:( p:. id:x p:) p:( p:. lbr:[ int:0 p:] p:)"},
		{"a |> b <| c >>= d +^ e", "id:a op:|> id:b op:<| id:c op:>>= id:d op:+^ id:e"},
		{"= == -> ->> : :> ! !=", "p:= op:== p:-> op:->> p:: p::> op:! op:!="},
		{"x -- comment\ny", "id:x id:y"},
		{"if then else def let loop in val for do with local open include import type entry module while assert match case true false",
			"p:if p:then p:else p:def p:let p:loop p:in p:val p:for p:do p:with p:local p:open p:include p:import p:type p:entry p:module p:while p:assert p:match p:case p:true p:false"},
		{"type^ type~", "p:type op:^ p:type p:~"},
		{"`f` \\x", "p:` id:f p:` p:\\ id:x"},
	} {
		got, errs := lexString(c.src)
		if len(errs) > 0 {
			t.Errorf("%q: %v", c.src, errs)
		}
		if got != c.want {
			t.Errorf("%q:\n got  %s\n want %s", c.src, got, c.want)
		}
	}
}

func TestLexValues(t *testing.T) {
	var errs ErrorList
	f := NewFileSet().AddFile("lex", []byte(`'\n' 'λ' '\x41' "a\tb\\c\u03bb"`))
	toks, _ := lex(f, &errs)
	want := []string{"\n", "λ", "A", "a\tb\\cλ"}
	for i, w := range want {
		if toks[i].val != w {
			t.Errorf("token %d: value %q, want %q", i, toks[i].val, w)
		}
	}
}

func TestDocComments(t *testing.T) {
	src := "-- | File doc.\n\n-- | First line.\n-- second line\n--\n-- after blank\ndef f = 1\n-- plain\ndef g = 2\n"
	fset := NewFileSet()
	prog, err := ParseFile(fset, "d", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if prog.Doc != "File doc." {
		t.Errorf("file doc %q", prog.Doc)
	}
	if d := prog.Decls[0].(*ValDecl).Fun.Doc; d != "First line.\nsecond line\n\nafter blank" {
		t.Errorf("doc %q", d)
	}
	if d := prog.Decls[1].(*ValDecl).Fun.Doc; d != "" {
		t.Errorf("plain comment became doc %q", d)
	}
	// A single doc comment before the first declaration belongs to it.
	prog, _ = ParseFile(fset, "e", []byte("-- | Only.\ndef f = 1\n"))
	if prog.Doc != "" || prog.Decls[0].(*ValDecl).Fun.Doc != "Only." {
		t.Errorf("file doc %q, decl doc %q", prog.Doc, prog.Decls[0].(*ValDecl).Fun.Doc)
	}
}

func TestLexErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`"abc`, "unterminated string literal"},
		{"'", ""},
		{"'ab'", ""},
		{`"\q"`, "invalid escape sequence in string literal"},
		{"1 § 2", `unexpected character "§"`},
		{"#", `unexpected character "#"`},
	} {
		_, errs := lexString(c.src)
		got := ""
		if len(errs) > 0 {
			got = errs[0].Msg
		}
		if got != c.want {
			t.Errorf("%q: error %q, want %q", c.src, got, c.want)
		}
	}
}
