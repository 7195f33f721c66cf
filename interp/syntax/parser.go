// Package syntax is fut's front end: it turns Futhark source text into an
// abstract syntax tree and back.
//
// Input: source text registered in a FileSet (a file, the prelude, one REPL
// entry). Output: a *Program (or an Expr, a TypeExp, a list of Specs) whose
// every node carries its exact Span, or an ErrorList of syntax errors sorted
// by position, each "file:line:col: Unexpected token: 'X', expected Y".
//
// Invariants: the tree is exactly what was written (parentheses are kept
// as Paren nodes; dotted names stay unresolved *Var nodes; nothing is
// desugared), Print of any node gives source text that parses back to the
// same tree, and no input, however malformed or deeply nested, makes the
// parser panic or overflow the stack.
//
// Layout: pos.go (positions, errors) and ast.go (the tree) are the
// contract with the later stages; lexer.go tokenises; parser.go holds the
// entry points and the parser's machinery; parse_expr.go, parse_let.go,
// parse_pat.go, parse_type.go and parse_decl.go parse one concern each;
// walk.go is Inspect; printer.go and printer_decl.go print.
package syntax

import (
	"errors"
	"strings"
)

// maxDepth bounds the parser's recursion so that deeply nested input gives
// an error instead of exhausting the Go stack.
const maxDepth = 5000

// maxNest bounds the depth of the tree a parse builds. Recursion counts
// (enter), and so does each node that a loop wraps around the previous
// one (a + b + c …, x.a.b…, e : t : t), since later stages walk the tree
// recursively: hundreds of thousands of operators give an error here
// instead of a Go stack overflow in the checker.
const maxNest = 20000

// maxErrors stops parsing a file after this many errors.
const maxErrors = 10

type parser struct {
	file    *File
	toks    []token
	i       int
	tok     token
	errs    ErrorList
	depth   int
	nest    int // depth of the tree being built: enter plus chain
	fileDoc string
}

// bailout unwinds the parser to the nearest recovery point after an error.
type bailout struct{}

// tooMany unwinds the whole parse.
type tooMany struct{}

func newParser(fset *FileSet, name string, src []byte) *parser {
	f := fset.AddFile(name, src)
	p := &parser{file: f}
	p.toks, p.fileDoc = lex(f, &p.errs)
	p.tok = p.toks[0]
	return p
}

func (p *parser) next() {
	if p.i < len(p.toks)-1 {
		p.i++
	}
	p.tok = p.toks[p.i]
}

func (p *parser) peek(n int) token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) pos(off int) Pos { return p.file.Pos(off) }

// start and end of the current token.
func (p *parser) tpos() Pos { return p.pos(p.tok.pos) }
func (p *parser) tend() Pos { return p.pos(p.tok.end) }

// prevEnd is the end of the last consumed token.
func (p *parser) prevEnd() Pos {
	if p.i == 0 {
		return p.pos(0)
	}
	return p.pos(p.toks[p.i-1].end)
}

func (p *parser) span(start Pos) Span { return Span{start, p.prevEnd()} }

func (p *parser) addErr(sp Span, msg string) {
	if len(p.errs) > 0 {
		last := p.errs[len(p.errs)-1]
		if last.Span.Start == sp.Start {
			return // one error per place
		}
	}
	p.errs = append(p.errs, &Error{Span: sp, Msg: msg})
	if len(p.errs) >= maxErrors {
		panic(tooMany{})
	}
}

// fail reports an error at the current token and unwinds.
func (p *parser) fail(expected string) {
	msg := unexpected(p.tok)
	if p.tok.kind == tEOF && p.i == 0 {
		msg = "empty input" // nothing begun, so not incomplete
	}
	if expected != "" {
		msg += ", expected " + expected
	}
	p.addErr(Span{p.tpos(), p.tend()}, msg)
	panic(bailout{})
}

// failAt reports an error with a free message and unwinds.
func (p *parser) failAt(sp Span, msg string) {
	p.addErr(sp, msg)
	panic(bailout{})
}

func (p *parser) expect(k tokKind) token {
	t := p.tok
	if t.kind != k {
		p.fail(quoteKind(k))
	}
	p.next()
	return t
}

func quoteKind(k tokKind) string {
	if s, ok := fixedText[k]; ok && k != tEOF {
		return `"` + s + `"`
	}
	s := k.String()
	if _, ok := keywords[s]; ok {
		return `"` + s + `"`
	}
	return s
}

func (p *parser) got(k tokKind) bool {
	if p.tok.kind == k {
		p.next()
		return true
	}
	return false
}

func (p *parser) isOp(text string) bool { return p.tok.kind == tOp && p.tok.text == text }

// enter guards recursion; every recursive production calls it.
func (p *parser) enter() {
	p.depth++
	p.nest++
	if p.depth > maxDepth {
		p.addErr(Span{p.tpos(), p.tend()}, "nesting too deep")
		panic(tooMany{})
	}
}

func (p *parser) leave() { p.depth--; p.nest-- }

// chain records that a loop wrapped one more node around the tree it is
// building; *n counts them, and the caller gives them back with unchain
// (deferred) when it returns.
func (p *parser) chain(n *int) {
	*n++
	p.nest++
	if p.nest > maxNest {
		p.addErr(Span{p.tpos(), p.tend()}, "expression nested too deeply (more than 20000 levels)")
		panic(tooMany{})
	}
}

func (p *parser) unchain(n *int) { p.nest -= *n }

// run calls f, turning an unwinding error into a normal return.
func (p *parser) run(f func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			switch r.(type) {
			case bailout, tooMany:
				ok = false
			default:
				panic(r)
			}
		}
	}()
	f()
	return true
}

func (p *parser) result() error {
	p.errs.Sort()
	return p.errs.Err()
}

// ParseFile parses a whole source file. On error it returns the partial
// program and an ErrorList.
func ParseFile(fset *FileSet, name string, src []byte) (*Program, error) {
	p := newParser(fset, name, src)
	prog := &Program{File: p.file, Doc: p.fileDoc}
	p.run(func() { prog.Decls = p.parseTopDecls() })
	return prog, p.result()
}

// ParseExpr parses one expression filling the whole input.
func ParseExpr(fset *FileSet, name string, src []byte) (Expr, error) {
	p := newParser(fset, name, src)
	var e Expr
	p.run(func() {
		e = p.parseExp()
		if p.tok.kind != tEOF {
			p.fail("end of expression")
		}
	})
	if len(p.errs) > 0 {
		return nil, p.result()
	}
	return e, nil
}

// ParseType parses one type expression filling the whole input.
func ParseType(fset *FileSet, name string, src []byte) (TypeExp, error) {
	p := newParser(fset, name, src)
	var t TypeExp
	p.run(func() {
		t = p.parseType()
		if p.tok.kind != tEOF {
			p.fail("end of type")
		}
	})
	if len(p.errs) > 0 {
		return nil, p.result()
	}
	return t, nil
}

// ParseSpecs parses a file that is a sequence of module type
// specifications (val, type, module, include), as in a module type body.
func ParseSpecs(fset *FileSet, name string, src []byte) ([]Spec, error) {
	p := newParser(fset, name, src)
	var specs []Spec
	p.run(func() {
		specs = p.parseSpecs()
		if p.tok.kind != tEOF {
			p.fail("a specification")
		}
	})
	return specs, p.result()
}

// ParseEntry parses one REPL entry: either a sequence of declarations or a
// single expression (exactly one of decls and expr is set on success).
// An entry starting with "let" is an expression when it parses as one
// (let … in …), and a declaration otherwise.
func ParseEntry(fset *FileSet, name string, src []byte) (decls []Decl, expr Expr, err error) {
	asDecls := func() ([]Decl, Expr, error) {
		prog, err := ParseFile(fset, name, src)
		return prog.Decls, nil, err
	}
	asExpr := func() ([]Decl, Expr, error) {
		e, err := ParseExpr(fset, name, src)
		return nil, e, err
	}
	switch newParser(NewFileSet(), name, src).tok.kind {
	case tDef, tEntry, tType, tModule, tOpen, tImport, tLocal:
		return asDecls()
	case tLet, tHashBracket:
		// Trial parses go to a scratch file set, so that the caller's set
		// holds only the entry as finally parsed.
		if _, err := ParseExpr(NewFileSet(), name, src); err == nil {
			return asExpr()
		}
		if _, err := ParseFile(NewFileSet(), name, src); err == nil {
			return asDecls()
		}
	}
	return asExpr()
}

const eofMsg = "Unexpected end of file"

// unexpected begins the report of a token the parser did not expect, in
// Futhark's words (Unexpected token: 'bar'), with the token's kind where
// that helps.
func unexpected(t token) string {
	switch t.kind {
	case tEOF:
		return eofMsg
	case tIdent:
		return "Unexpected token: '" + t.text + "' (an identifier)"
	case tConstr:
		return "Unexpected token: '#" + t.text + "' (a constructor)"
	case tIllegal:
		return "Unexpected token: " + t.describe()
	}
	if _, ok := keywords[t.text]; ok {
		return "Unexpected token: '" + t.text + "' (a keyword)"
	}
	return "Unexpected token: '" + t.text + "'"
}

// Incomplete reports whether err says that the input ended too early: a
// bracket left open, or a let, if, loop, match or def not finished. A REPL
// uses it to ask for another line.
func Incomplete(err error) bool {
	var l ErrorList
	if !errors.As(err, &l) {
		var e *Error
		if errors.As(err, &e) {
			l = ErrorList{e}
		}
	}
	for _, e := range l {
		if strings.HasPrefix(e.Msg, eofMsg) {
			return true
		}
	}
	return false
}

// Pos and End make *Program a Node: it spans its whole file.
func (p *Program) Pos() Pos {
	if p.File == nil {
		return NoPos
	}
	return p.File.Pos(0)
}

func (p *Program) End() Pos {
	if p.File == nil {
		return NoPos
	}
	return p.File.Pos(len(p.File.Src))
}
