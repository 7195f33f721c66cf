package syntax

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The printer writes any node back as Futhark source. It keeps the
// parentheses of Paren nodes and adds parentheses only where the tree
// could not be written otherwise (a synthesised tree, say an If as the
// left operand of +), so that printing a parsed tree gives text that
// parses back to the same tree, and print → parse → print is stable.
//
// Expressions are printed against a context level: the weakest
// construct allowed in that position. "tail" says whether whatever
// follows in the output would end an open-ended expression (if, let,
// loop, match, lambda, assert, attribute), which extend as far right as
// they can.

// Print returns the source text of n.
func Print(n Node) string {
	pr := &printer{}
	pr.node(n)
	return pr.b.String()
}

type printer struct {
	b      strings.Builder
	indent int
}

func (pr *printer) w(s string) { pr.b.WriteString(s) }

func (pr *printer) wf(format string, args ...any) { fmt.Fprintf(&pr.b, format, args...) }

// lineLen is the length of the current output line.
func (pr *printer) lineLen() int {
	s := pr.b.String()
	return len(s) - strings.LastIndexByte(s, '\n') - 1
}

func (pr *printer) nl() {
	pr.b.WriteByte('\n')
	for i := 0; i < pr.indent; i++ {
		pr.w("  ")
	}
}

func (pr *printer) node(n Node) {
	if isNil(n) {
		return
	}
	switch n := n.(type) {
	case Expr:
		pr.expr(n, lvlExp, true)
	case Pat:
		pr.pat(n)
	case TypeExp:
		pr.typ(n)
	case Decl:
		pr.decl(n)
	case ModExp:
		pr.modExp(n)
	case ModTypeExp:
		pr.modType(n)
	case Spec:
		pr.spec(n)
	case LoopForm:
		pr.loopForm(n)
	case *Program:
		pr.program(n)
	case *FunBind:
		pr.funBind(n)
	case *Case:
		pr.w("case ")
		pr.pat(n.Pat)
		pr.w(" -> ")
		pr.expr(n.Body, lvlExp, true)
	case *RecordField:
		pr.recordField(n)
	case *AttrInfo:
		pr.attrInfo(n)
	case *TypeParam:
		pr.typeParam(n)
	case *SizeBinder:
		pr.wf("[%s]", n.Name)
	case *Ident:
		pr.w(n.Name)
	case *PField:
		pr.pfield(n)
	case *TEField:
		pr.wf("%s: ", n.Name)
		pr.typ(n.Type)
	case *TEConstr:
		pr.teConstr(n)
	case *ModParam:
		pr.modParam(n)
	default:
		pr.wf("<%T>", n)
	}
}

// Expression levels, weakest first. Binary operators sit between lvlExp2
// and lvlUnary at their precedence (precRange … precPow).
const (
	lvlExp   = 0  // anything, including e : t
	lvlExp2  = 1  // no top-level ascription (index positions)
	lvlUnary = 20 // -e, !e
	lvlApply = 21 // f x, #c x
	lvlAtom  = 22
)

// isOpen reports whether e is an expression that extends as far right as
// possible.
func isOpen(e Expr) bool {
	switch e.(type) {
	case *If, *LetIn, *LetFun, *LetWith, *Loop, *Match, *Assert, *Attr, *Lambda:
		return true
	}
	return false
}

// level returns the strength of e's outermost construct.
func level(e Expr) int {
	switch e := e.(type) {
	case *Ascript, *Coerce:
		return lvlExp
	case *Range:
		return precRange
	case *Binary:
		if e.Backtick {
			return precBacktick
		}
		p, _ := OpPrecedence(e.Op.Name)
		return p
	case *Update:
		return precWith
	case *Negate, *Not:
		return lvlUnary
	case *Apply:
		return lvlApply
	case *Constr:
		if len(e.Args) > 0 {
			return lvlApply
		}
		return lvlAtom
	case *IntLit:
		if e.Value != nil && e.Value.Sign() < 0 && e.Text == "" {
			return lvlUnary
		}
		return lvlAtom
	case *FloatLit:
		if e.Value < 0 && e.Text == "" {
			return lvlUnary
		}
		return lvlAtom
	}
	if isOpen(e) {
		return lvlUnary
	}
	return lvlAtom
}

// endsWithMatch reports whether the rightmost part of e is a match, whose
// cases would swallow a following "case".
func endsWithMatch(e Expr) bool {
	for {
		switch x := e.(type) {
		case *Match:
			return true
		case *If:
			e = x.Else
		case *LetIn:
			e = x.Body
		case *LetFun:
			e = x.Body
		case *LetWith:
			e = x.Body
		case *Loop:
			e = x.Body
		case *Assert:
			e = x.X
		case *Attr:
			e = x.X
		case *Lambda:
			e = x.Body
		case *Binary:
			e = x.R
		case *Negate:
			e = x.X
		case *Not:
			e = x.X
		case *Update:
			e = x.Value
		case *Range:
			e = x.Stop
		case *Apply:
			e = x.Args[len(x.Args)-1]
		default:
			return false
		}
	}
}

// expr prints e where a construct of at least level ctx is allowed.
func (pr *printer) expr(e Expr, ctx int, tail bool) {
	if isNil(e) {
		pr.w("<nil>")
		return
	}
	lv := level(e)
	if lv < ctx || isOpen(e) && !tail {
		pr.w("(")
		pr.exprBare(e, true)
		pr.w(")")
		return
	}
	pr.exprBare(e, tail)
}

func (pr *printer) exprs(es []Expr) {
	for i, e := range es {
		if i > 0 {
			pr.w(", ")
		}
		pr.expr(e, lvlExp, true)
	}
}

// operand prints the operand of a prefix operator or a juxtaposition
// without letting it run into the operator (--x would be a comment).
func (pr *printer) prefixed(op string, x Expr, tail bool) {
	pr.w(op)
	s := (&printer{indent: pr.indent}).exprString(x, lvlUnary, tail)
	if s != "" && isOpChar(s[0]) {
		pr.w(" ")
	}
	pr.w(s)
}

func (pr *printer) exprString(e Expr, ctx int, tail bool) string {
	pr.expr(e, ctx, tail)
	return pr.b.String()
}

func (pr *printer) exprBare(e Expr, tail bool) {
	switch e := e.(type) {
	case *IntLit:
		switch {
		case e.Text != "":
			pr.w(e.Text)
		case e.Value != nil:
			pr.w(e.Value.String())
		default:
			pr.w("0")
		}
		pr.w(string(e.Suffix))
	case *FloatLit:
		if e.Text != "" {
			pr.w(e.Text)
		} else {
			mod := string(e.Suffix)
			if mod == "" {
				mod = "f64"
			}
			s := strconv.FormatFloat(e.Value, 'g', -1, 64)
			switch {
			case math.IsNaN(e.Value):
				pr.w(mod + ".nan")
				return
			case math.IsInf(e.Value, 1):
				pr.w(mod + ".inf")
				return
			case math.IsInf(e.Value, -1):
				pr.w("-" + mod + ".inf")
				return
			case !strings.ContainsAny(s, ".e"):
				s += ".0"
			}
			pr.w(s)
		}
		pr.w(string(e.Suffix))
	case *BoolLit:
		pr.w(strconv.FormatBool(e.Value))
	case *CharLit:
		pr.w(charLit(e.Value))
	case *StringLit:
		pr.w(stringLit(e.Value))
	case *Var:
		pr.w(e.Name.String())
	case *Hole:
		pr.w("???")
	case *Paren:
		pr.w("(")
		pr.expr(e.X, lvlExp, true)
		pr.w(")")
	case *TupleLit:
		pr.w("(")
		pr.exprs(e.Elems)
		pr.w(")")
	case *ArrayLit:
		pr.w("[")
		pr.exprs(e.Elems)
		pr.w("]")
	case *RecordLit:
		pr.w("{")
		for i, f := range e.Fields {
			if i > 0 {
				pr.w(", ")
			}
			pr.recordField(f)
		}
		pr.w("}")
	case *Range:
		pr.expr(e.Start, precBacktick, false)
		if e.Second != nil {
			pr.w("..")
			pr.expr(e.Second, precBacktick, false)
		}
		pr.w([]string{"...", "..<", "..>"}[e.Op])
		pr.expr(e.Stop, precBacktick, tail)
	case *Project:
		x := e.X
		if _, ok := x.(*Var); ok && !isDecimal(e.Field) {
			x = &Paren{X: x} // r.x alone would be the qualified name r.x
		}
		pr.expr(x, lvlAtom, false)
		pr.w("." + e.Field)
	case *QualParen:
		pr.w(strings.Join(e.Quals, ".") + ".(")
		pr.expr(e.X, lvlExp, true)
		pr.w(")")
	case *Binary:
		p := level(e)
		_, right := OpPrecedence(e.Op.Name)
		if e.Backtick {
			right = false
		}
		lctx, rctx := p, p+1
		if right {
			lctx, rctx = p+1, p
		}
		pr.expr(e.L, lctx, false)
		pr.w(" " + opText(e.Op, e.Backtick) + " ")
		pr.expr(e.R, rctx, tail)
	case *Negate:
		pr.prefixed("-", e.X, tail)
	case *Not:
		pr.prefixed("!", e.X, tail)
	case *Apply:
		pr.expr(e.Fn, lvlAtom, false)
		pr.args(e.Args, tail)
	case *Constr:
		pr.w("#" + e.Name)
		pr.args(e.Args, tail)
	case *OpSection:
		pr.w("(" + opText(e.Op, e.Backtick) + ")")
	case *LeftSection:
		pr.w("(")
		pr.expr(e.L, lvlExp2, false)
		pr.w(" " + opText(e.Op, e.Backtick) + ")")
	case *RightSection:
		pr.w("(" + opText(e.Op, e.Backtick) + " ")
		pr.expr(e.R, lvlExp2, true)
		pr.w(")")
	case *ProjectSection:
		pr.w("(")
		for _, f := range e.Fields {
			pr.w("." + f)
		}
		pr.w(")")
	case *IndexSection:
		pr.w("(")
		for i, s := range e.Path {
			if s.Indices != nil || s.Field == "" {
				if i == 0 {
					pr.w(".")
				}
				pr.dimIndices(s.Indices)
			} else {
				pr.w("." + s.Field)
			}
		}
		pr.w(")")
	case *Lambda:
		pr.w(`\`)
		for i, p := range e.Params {
			if i > 0 {
				pr.w(" ")
			}
			pr.paramPat(p)
		}
		if e.RetType != nil {
			pr.w(": ")
			pr.typeTerm(e.RetType)
		}
		pr.w(" -> ")
		pr.expr(e.Body, lvlExp, tail)
	case *If:
		pr.w("if ")
		pr.expr(e.Cond, lvlExp, true)
		pr.w(" then ")
		pr.expr(e.Then, lvlExp, true)
		pr.w(" else ")
		pr.expr(e.Else, lvlExp, tail)
	case *LetIn:
		pr.w("let ")
		for _, s := range e.Sizes {
			pr.wf("[%s] ", s.Name)
		}
		pr.pat(e.Pat)
		pr.w(" = ")
		pr.expr(e.Value, lvlExp, true)
		pr.letBody(e.Body, tail)
	case *LetFun:
		pr.w("let ")
		pr.funHead(e.Fun)
		pr.w(" = ")
		pr.expr(e.Fun.Body, lvlExp, true)
		pr.letBody(e.Body, tail)
	case *LetWith:
		pr.w("let " + e.Dest.Name.String())
		pr.path(e.Path, false)
		pr.w(" = ")
		pr.expr(e.Value, lvlExp, true)
		pr.letBody(e.Body, tail)
	case *Update:
		pr.expr(e.X, precWith, false)
		pr.w(" with ")
		pr.path(e.Path, true)
		pr.w(" = ")
		pr.expr(e.Value, precWith+1, tail)
	case *Index:
		x := e.X
		switch x.(type) {
		case *RecordLit, *StringLit, *Hole, *OpSection, *LeftSection, *RightSection, *ProjectSection, *IndexSection:
			x = &Paren{X: x}
		}
		pr.expr(x, lvlAtom, false)
		pr.dimIndices(e.Indices)
	case *Loop:
		pr.w("loop ")
		for _, s := range e.Sizes {
			pr.wf("[%s] ", s.Name)
		}
		pr.pat(e.Pat)
		if e.Init != nil {
			pr.w(" = ")
			pr.expr(e.Init, lvlExp, true)
		}
		pr.w(" ")
		pr.loopForm(e.Form)
		pr.w(" do ")
		pr.expr(e.Body, lvlExp, tail)
	case *Match:
		pr.w("match ")
		pr.expr(e.X, lvlExp, !endsWithMatch(e.X))
		pr.indent++
		defer func() { pr.indent-- }()
		for i, c := range e.Cases {
			pr.nl()
			pr.w("case ")
			pr.pat(c.Pat)
			pr.w(" -> ")
			last := i == len(e.Cases)-1
			if !last && endsWithMatch(c.Body) {
				pr.w("(")
				pr.expr(c.Body, lvlExp, true)
				pr.w(")")
			} else {
				pr.expr(c.Body, lvlExp, !last || tail)
			}
		}
	case *Assert:
		pr.w("assert ")
		pr.expr(e.Cond, lvlAtom, false)
		pr.w(" ")
		pr.expr(e.X, lvlExp, tail)
	case *Ascript:
		pr.expr(e.X, lvlExp, false)
		pr.w(" : ")
		pr.typ(e.Type)
	case *Coerce:
		pr.expr(e.X, lvlExp, false)
		pr.w(" :> ")
		pr.typ(e.Type)
	case *Attr:
		pr.w("#[")
		pr.attrInfo(e.Attr)
		pr.w("] ")
		pr.expr(e.X, lvlExp, tail)
	default:
		pr.wf("<%T>", e)
	}
}

// letBody puts each let of a chain on its own line, leaving out every
// "in" but the last, as Futhark programs are usually written.
func (pr *printer) letBody(body Expr, tail bool) {
	pr.nl()
	switch body.(type) {
	case *LetIn, *LetFun, *LetWith:
		pr.expr(body, lvlExp, tail)
		return
	}
	pr.w("in ")
	pr.expr(body, lvlExp, tail)
}

// args prints the arguments of an application; a lambda may be the last
// argument without parentheses when nothing follows.
func (pr *printer) args(args []Expr, tail bool) {
	for i, a := range args {
		pr.w(" ")
		if _, ok := a.(*Lambda); ok && i == len(args)-1 && tail {
			pr.expr(a, lvlUnary, true)
			continue
		}
		pr.expr(a, lvlAtom, false)
	}
}

func opText(q QualName, backtick bool) string {
	if backtick || q.Name == "" || !isOpStart(q.Name[0]) {
		return "`" + q.String() + "`"
	}
	return q.String()
}

func (pr *printer) recordField(f *RecordField) {
	if f.Short {
		pr.w(f.Name)
		return
	}
	pr.w(f.Name + " = ")
	pr.expr(f.Value, lvlExp, true)
}

func (pr *printer) dimIndices(ds []*DimIndex) {
	pr.w("[")
	for i, d := range ds {
		if i > 0 {
			pr.w(", ")
		}
		if !d.IsSlice {
			pr.expr(d.Fix, lvlExp2, true)
			continue
		}
		if d.Start != nil {
			pr.expr(d.Start, lvlExp2, true)
		}
		pr.w(":")
		if d.End != nil {
			pr.expr(d.End, lvlExp2, true)
		}
		if d.HasStride || d.Stride != nil {
			pr.w(":")
			if d.Stride != nil {
				pr.expr(d.Stride, lvlExp2, true)
			}
		}
	}
	pr.w("]")
}

// path prints an update path; in "with" paths a leading field has no dot.
func (pr *printer) path(ps []PathElem, with bool) {
	for i, s := range ps {
		if s.Indices != nil || s.Field == "" {
			pr.dimIndices(s.Indices)
			continue
		}
		if i == 0 && with {
			pr.w(s.Field)
		} else {
			pr.w("." + s.Field)
		}
	}
}

func (pr *printer) loopForm(f LoopForm) {
	switch f := f.(type) {
	case *For:
		pr.w("for " + f.I.Name + " < ")
		pr.expr(f.Bound, lvlExp, true)
	case *ForIn:
		pr.w("for ")
		pr.pat(f.Pat)
		pr.w(" in ")
		pr.expr(f.Arr, lvlExp, true)
	case *While:
		pr.w("while ")
		pr.expr(f.Cond, lvlExp, true)
	}
}

func (pr *printer) attrInfo(a *AttrInfo) {
	if a.Int != nil {
		pr.w(strconv.FormatInt(*a.Int, 10))
		return
	}
	pr.w(a.Name)
	if a.Args != nil {
		pr.w("(")
		for i, x := range a.Args {
			if i > 0 {
				pr.w(", ")
			}
			pr.attrInfo(x)
		}
		pr.w(")")
	}
}

func charLit(r rune) string {
	switch r {
	case '\'':
		return `'\''`
	case '\\':
		return `'\\'`
	case '\n':
		return `'\n'`
	case '\t':
		return `'\t'`
	case '\r':
		return `'\r'`
	}
	if r < 0x20 || r == 0x7f {
		return fmt.Sprintf(`'\%d'`, r)
	}
	return "'" + string(r) + "'"
}

func stringLit(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// Patterns.

func (pr *printer) pat(p Pat) {
	switch p := p.(type) {
	case *PAscript:
		pr.patInner(p.P, true)
		pr.w(": ")
		pr.typ(p.Type)
	case *PConstr:
		pr.w("#" + p.Name)
		for _, a := range p.Args {
			pr.w(" ")
			pr.patInner(a, true)
		}
	case *PAttr:
		pr.w("#[")
		pr.attrInfo(p.Attr)
		pr.w("] ")
		pr.pat(p.P)
	default:
		pr.patInner(p, true)
	}
}

// patInner prints p as an inner pattern, in parentheses when it is not one.
func (pr *printer) patInner(p Pat, allowNeg bool) {
	switch p := p.(type) {
	case nil:
		pr.w("<nil>")
	case *PId:
		if p.Name != "" && isOpStart(p.Name[0]) {
			pr.w("(" + p.Name + ")")
		} else {
			pr.w(p.Name)
		}
	case *PWild:
		pr.w("_")
	case *PTuple:
		pr.w("(")
		for i, e := range p.Elems {
			if i > 0 {
				pr.w(", ")
			}
			pr.pat(e)
		}
		pr.w(")")
	case *PRecord:
		pr.w("{")
		for i, f := range p.Fields {
			if i > 0 {
				pr.w(", ")
			}
			pr.pfield(f)
		}
		pr.w("}")
	case *PParen:
		pr.w("(")
		pr.pat(p.P)
		pr.w(")")
	case *PLit:
		if _, neg := p.Lit.(*Negate); neg && !allowNeg {
			pr.w("(")
			pr.expr(p.Lit, lvlUnary, false)
			pr.w(")")
			return
		}
		pr.expr(p.Lit, lvlUnary, false)
	case *PConstr:
		if len(p.Args) == 0 {
			pr.w("#" + p.Name)
			return
		}
		pr.w("(")
		pr.pat(p)
		pr.w(")")
	default:
		pr.w("(")
		pr.pat(p)
		pr.w(")")
	}
}

func (pr *printer) paramPat(p Pat) { pr.patInner(p, false) }

func (pr *printer) pfield(f *PField) {
	if f.Short {
		switch x := f.Pat.(type) {
		case *PId:
			if x.Name == f.Name {
				pr.w(f.Name)
				return
			}
		case *PAscript:
			if id, ok := x.P.(*PId); ok && id.Name == f.Name {
				pr.w(f.Name + ": ")
				pr.typ(x.Type)
				return
			}
		}
	}
	pr.w(f.Name + " = ")
	pr.pat(f.Pat)
}
