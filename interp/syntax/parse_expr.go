package syntax

import (
	"math/big"
	"strconv"
	"strings"
)

// Expressions. The grammar is Futhark's, layered as its parser is:
//
//	exp   = exp2 { (":" | ":>") type }          ascription, not inside [ ]
//	exp2  = range                               if/let/loop/match/assert/\/#[ ]
//	                                              are operands that extend
//	                                              as far right as possible
//	range = binary [".." binary] ("..." | "..<" | "..>") binary
//	binary: precedence climbing over the operator table (opPrec)
//	unary = "-" unary | "!" unary | application
//	apply = atom {atom} [lambda] | constructor {atom}
//	atom  = primary { "." field | "." "(" exp ")" | index }
//
// An operator's precedence is that of its longest built-in prefix, so
// ">>=" binds like ">>" and "+^" like "+"; an operator with no built-in
// prefix binds like a backticked function.

// Precedence levels, low to high.
const (
	precRange = iota + 1
	precBacktick
	precWith
	precPipeR
	precPipeL
	precOr
	precAnd
	precCmp
	precBit
	precShift
	precAdd
	precMul
	precPow
)

var opPrefixes = []struct {
	prefix string
	prec   int
}{
	{"|>", precPipeR}, {"<|", precPipeL}, {"||", precOr}, {"&&", precAnd},
	{"<=", precCmp}, {">=", precCmp}, {"==", precCmp}, {"!=", precCmp},
	{"<<", precShift}, {">>", precShift}, {"**", precPow}, {"//", precMul},
	{"%%", precMul}, {"+", precAdd}, {"-", precAdd}, {"*", precMul},
	{"/", precMul}, {"%", precMul}, {"&", precBit}, {"^", precBit},
	{"|", precBit}, {"<", precCmp}, {">", precCmp}, {"!", precCmp},
	{"=", precCmp},
}

// OpPrecedence returns the precedence level of an infix operator (higher
// binds tighter) and whether it associates to the right. Backticked
// functions have the level of an operator with no built-in prefix.
func OpPrecedence(op string) (prec int, right bool) {
	for _, e := range opPrefixes {
		if strings.HasPrefix(op, e.prefix) {
			return e.prec, e.prec == precPipeL
		}
	}
	return precBacktick, false
}

// binop describes the infix operator at the current token, if any.
type binop struct {
	name     QualName
	backtick bool
	span     Span
	ntoks    int // tokens it takes
	prec     int
	right    bool
}

func splitQual(s string) QualName {
	// s is M.N.op where op may itself contain '.'; the qualifiers are
	// names, so split at the dots that follow a name character.
	var q QualName
	for {
		i := strings.IndexByte(s, '.')
		if i <= 0 || !isConstituent(s[i-1]) || !(isLetter(s[0]) || s[0] == '_') {
			q.Name = s
			return q
		}
		q.Quals = append(q.Quals, s[:i])
		s = s[i+1:]
	}
}

func (p *parser) binopAt(k int) (binop, bool) {
	t := p.peek(k)
	switch t.kind {
	case tOp:
		if t.text == "!" {
			return binop{}, false
		}
		prec, right := OpPrecedence(t.text)
		return binop{name: QualName{Name: t.text}, span: Span{p.pos(t.pos), p.pos(t.end)}, ntoks: 1, prec: prec, right: right}, true
	case tQualOp:
		q := splitQual(t.text)
		prec, right := OpPrecedence(q.Name)
		return binop{name: q, span: Span{p.pos(t.pos), p.pos(t.end)}, ntoks: 1, prec: prec, right: right}, true
	case tBacktick:
		var q QualName
		n := k + 1
		if p.peek(n).kind != tIdent {
			return binop{}, false
		}
		q.Name = p.peek(n).text
		n++
		for p.peek(n).kind == tDot && p.peek(n+1).kind == tIdent {
			q.Quals = append(q.Quals, q.Name)
			q.Name = p.peek(n + 1).text
			n += 2
		}
		if p.peek(n).kind != tBacktick {
			return binop{}, false
		}
		end := p.peek(n)
		return binop{name: q, backtick: true, span: Span{p.pos(t.pos), p.pos(end.end)}, ntoks: n - k + 1, prec: precBacktick}, true
	}
	return binop{}, false
}

func (p *parser) skip(n int) {
	for ; n > 0; n-- {
		p.next()
	}
}

func (p *parser) parseExp() Expr {
	p.enter()
	defer p.leave()
	e := p.parseExp2()
	links := 0
	defer p.unchain(&links)
	for p.tok.kind == tColon || p.tok.kind == tColonGt {
		p.chain(&links)
		coerce := p.tok.kind == tColonGt
		p.next()
		t := p.parseType()
		sp := Span{e.Pos(), t.End()}
		if coerce {
			e = &Coerce{Loc: Loc{sp}, X: e, Type: t}
		} else {
			e = &Ascript{Loc: Loc{sp}, X: e, Type: t}
		}
	}
	return e
}

// parseExp2 is an expression without a top-level type ascription.
func (p *parser) parseExp2() Expr {
	p.enter()
	defer p.leave()
	e := p.parseBinary(precBacktick)
	var second Expr
	if p.tok.kind == tDotDot {
		p.next()
		second = p.parseBinary(precBacktick)
	}
	var op RangeOp
	switch p.tok.kind {
	case tDotDotDot:
		op = RangeIncl
	case tDotDotLt:
		op = RangeUpExcl
	case tDotDotGt:
		op = RangeDownExcl
	default:
		if second != nil {
			p.fail(`"...", "..<" or "..>"`)
		}
		return e
	}
	p.next()
	end := p.parseBinary(precBacktick)
	return &Range{Loc: Loc{Span{e.Pos(), end.End()}}, Start: e, Second: second, Stop: end, Op: op}
}

func (p *parser) parseBinary(minPrec int) Expr {
	p.enter()
	defer p.leave()
	lhs := p.parseUnary()
	links := 0
	defer p.unchain(&links)
	for {
		if p.tok.kind == tWith {
			p.chain(&links)
			if precWith < minPrec {
				return lhs
			}
			p.next()
			path := p.parseUpdatePath(true)
			p.expect(tEqu)
			v := p.parseBinary(precWith + 1)
			lhs = &Update{Loc: Loc{Span{lhs.Pos(), v.End()}}, X: lhs, Path: path, Value: v}
			continue
		}
		op, ok := p.binopAt(0)
		if !ok || op.prec < minPrec {
			return lhs
		}
		if p.peek(op.ntoks).kind == tRParen {
			return lhs // a left section (e op); parseParen builds it
		}
		p.chain(&links)
		p.skip(op.ntoks)
		next := op.prec + 1
		if op.right {
			next = op.prec
		}
		rhs := p.parseBinary(next)
		lhs = &Binary{Loc: Loc{Span{lhs.Pos(), rhs.End()}}, Op: op.name, OpSpan: op.span, Backtick: op.backtick, L: lhs, R: rhs}
	}
}

func (p *parser) parseUnary() Expr {
	p.enter()
	defer p.leave()
	start := p.tpos()
	switch p.tok.kind {
	case tOp:
		switch p.tok.text {
		case "-":
			p.next()
			x := p.parseUnary()
			return &Negate{Loc: Loc{Span{start, x.End()}}, X: x}
		case "!":
			p.next()
			x := p.parseUnary()
			return &Not{Loc: Loc{Span{start, x.End()}}, X: x}
		}
	case tIf:
		p.next()
		c := p.parseExp()
		p.expect(tThen)
		t := p.parseExp()
		p.expect(tElse)
		f := p.parseExp()
		return &If{Loc: Loc{p.span(start)}, Cond: c, Then: t, Else: f}
	case tLet:
		return p.parseLet()
	case tLoop:
		return p.parseLoop()
	case tMatch:
		return p.parseMatch()
	case tAssert:
		p.next()
		c := p.parseAtom()
		x := p.parseExp()
		return &Assert{Loc: Loc{p.span(start)}, Cond: c, X: x}
	case tHashBracket:
		a := p.parseAttr()
		x := p.parseExp()
		return &Attr{Loc: Loc{p.span(start)}, Attr: a, X: x}
	case tBackslash:
		return p.parseLambda()
	}
	return p.parseApply()
}

func (p *parser) parseLambda() Expr {
	start := p.tpos()
	p.expect(tBackslash)
	var params []Pat
	for p.paramStart() {
		params = append(params, p.parseInnerPat(false))
	}
	if len(params) == 0 {
		p.fail("a parameter")
	}
	var ret TypeExp
	if p.got(tColon) {
		ret = p.parseTypeTerm()
	}
	p.expect(tArrow)
	body := p.parseExp()
	return &Lambda{Loc: Loc{p.span(start)}, Params: params, RetType: ret, Body: body}
}

// atomStart reports whether the current token can begin an atom (an
// argument in an application).
func (p *parser) atomStart() bool {
	switch p.tok.kind {
	case tInt, tFloat, tChar, tString, tTrue, tFalse, tHole, tIdent, tConstr,
		tLParen, tLBracket, tLBrace:
		return true
	}
	return false
}

func (p *parser) parseApply() Expr {
	start := p.tpos()
	if p.tok.kind == tConstr {
		name := p.tok.text
		p.next()
		var args []Expr
		for p.atomStart() {
			args = append(args, p.parseAtom())
		}
		return &Constr{Loc: Loc{p.span(start)}, Name: name, Args: args}
	}
	f := p.parseAtom()
	var args []Expr
	for {
		if p.atomStart() {
			args = append(args, p.parseAtom())
			continue
		}
		if p.tok.kind == tBackslash {
			args = append(args, p.parseLambda())
		}
		break
	}
	if len(args) == 0 {
		return f
	}
	return &Apply{Loc: Loc{p.span(start)}, Fn: f, Args: args}
}

func (p *parser) parseAtom() Expr {
	p.enter()
	defer p.leave()
	e := p.parsePrimary()
	links := 0
	defer p.unchain(&links)
	for {
		p.chain(&links)
		switch p.tok.kind {
		case tDot:
			nt := p.peek(1)
			switch {
			case nt.kind == tIdent:
				p.skip(2)
				if v, ok := e.(*Var); ok {
					// v is this loop's own node: extend it in place, or a
					// long chain a.b.c… copies its qualifiers quadratically.
					v.Name.Quals = append(v.Name.Quals, v.Name.Name)
					v.Name.Name = nt.text
					v.Loc = Loc{Span{v.Pos(), p.prevEnd()}}
				} else {
					e = &Project{Loc: Loc{Span{e.Pos(), p.prevEnd()}}, X: e, Field: nt.text}
				}
				continue
			case nt.kind == tInt && isDecimal(nt.text):
				p.skip(2)
				e = &Project{Loc: Loc{Span{e.Pos(), p.prevEnd()}}, X: e, Field: nt.text}
				continue
			case nt.kind == tLParen:
				v, ok := e.(*Var)
				if !ok {
					p.next()
					p.failAt(Span{p.tpos(), p.tend()}, "can only locally open module names, not arbitrary expressions")
				}
				p.skip(2)
				x := p.parseExp()
				p.expect(tRParen)
				quals := append(append([]string(nil), v.Name.Quals...), v.Name.Name)
				e = &QualParen{Loc: Loc{Span{e.Pos(), p.prevEnd()}}, Quals: quals, X: x}
				continue
			}
		case tIndex:
			idx := p.parseDimIndices()
			e = &Index{Loc: Loc{Span{e.Pos(), p.prevEnd()}}, X: e, Indices: idx}
			continue
		}
		return e
	}
}

func isDecimal(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

func (p *parser) parsePrimary() Expr {
	t := p.tok
	start := p.tpos()
	sp := Span{start, p.tend()}
	switch t.kind {
	case tInt:
		p.next()
		return p.intLit(t, sp)
	case tFloat:
		p.next()
		return p.floatLit(t, sp)
	case tChar:
		p.next()
		return &CharLit{Loc: Loc{sp}, Value: []rune(t.val)[0]}
	case tString:
		p.next()
		return &StringLit{Loc: Loc{sp}, Value: t.val}
	case tTrue, tFalse:
		p.next()
		return &BoolLit{Loc: Loc{sp}, Value: t.kind == tTrue}
	case tHole:
		p.next()
		return &Hole{Loc{sp}}
	case tIdent:
		p.next()
		return &Var{Loc: Loc{sp}, Name: QualName{Name: t.text}}
	case tConstr:
		p.next()
		return &Constr{Loc: Loc{sp}, Name: t.text}
	case tLParen:
		return p.parseParen()
	case tLBracket, tIndex:
		p.next()
		elems := p.parseExpList(tRBracket)
		return &ArrayLit{Loc: Loc{p.span(start)}, Elems: elems}
	case tLBrace:
		return p.parseRecord()
	}
	p.fail("an expression")
	return nil
}

// parseExpList parses e, e, … [,] close (the opener already consumed).
func (p *parser) parseExpList(close tokKind) []Expr {
	var elems []Expr
	for p.tok.kind != close {
		elems = append(elems, p.parseExp())
		if !p.got(tComma) {
			break
		}
	}
	p.expect(close)
	return elems
}

func (p *parser) parseRecord() Expr {
	start := p.tpos()
	p.expect(tLBrace)
	var fields []*RecordField
	for p.tok.kind != tRBrace {
		fs := p.tpos()
		t := p.tok
		if t.kind != tIdent && !(t.kind == tInt && isDecimal(t.text)) {
			p.fail("a field name")
		}
		p.next()
		if p.got(tEqu) {
			v := p.parseExp()
			fields = append(fields, &RecordField{Loc: Loc{p.span(fs)}, Name: t.text, Value: v})
		} else {
			if t.kind != tIdent {
				p.fail(`"="`)
			}
			sp := Span{fs, p.prevEnd()}
			fields = append(fields, &RecordField{Loc: Loc{sp}, Name: t.text, Short: true,
				Value: &Var{Loc: Loc{sp}, Name: QualName{Name: t.text}}})
		}
		if !p.got(tComma) {
			break
		}
	}
	p.expect(tRBrace)
	return &RecordLit{Loc: Loc{p.span(start)}, Fields: fields}
}

// parseParen parses everything that starts with "(": unit, parentheses,
// tuples, operator sections and projection/index sections.
func (p *parser) parseParen() Expr {
	start := p.tpos()
	p.expect(tLParen)
	if p.got(tRParen) {
		return &TupleLit{Loc: Loc{p.span(start)}}
	}
	// (op) and (op e), but (-x) is a negation.
	if op, ok := p.binopAt(0); ok {
		if p.peek(op.ntoks).kind == tRParen {
			p.skip(op.ntoks + 1)
			return &OpSection{Loc: Loc{p.span(start)}, Op: op.name, Backtick: op.backtick}
		}
		if !(p.tok.kind == tOp && p.tok.text == "-") {
			p.skip(op.ntoks)
			r := p.parseExp2()
			p.expect(tRParen)
			return &RightSection{Loc: Loc{p.span(start)}, Op: op.name, Backtick: op.backtick, R: r}
		}
	}
	if p.tok.kind == tDot {
		return p.parseSection(start)
	}
	e := p.parseExp()
	if op, ok := p.binopAt(0); ok && p.peek(op.ntoks).kind == tRParen {
		p.skip(op.ntoks + 1)
		return &LeftSection{Loc: Loc{p.span(start)}, Op: op.name, Backtick: op.backtick, L: e}
	}
	if p.got(tRParen) {
		return &Paren{Loc: Loc{p.span(start)}, X: e}
	}
	if p.tok.kind != tComma {
		p.fail(`")" or ","`)
	}
	p.next()
	elems := append([]Expr{e}, p.parseExpList(tRParen)...)
	if len(elems) == 1 {
		return &Paren{Loc: Loc{p.span(start)}, X: e}
	}
	return &TupleLit{Loc: Loc{p.span(start)}, Elems: elems}
}

// parseSection parses (.a.b) and (.[i].a) after the "(".
func (p *parser) parseSection(start Pos) Expr {
	var path []PathElem
	allFields := true
	for {
		es := p.tpos()
		switch {
		case p.tok.kind == tDot && (p.peek(1).kind == tLBracket || p.peek(1).kind == tIndex) && len(path) == 0:
			p.next()
			idx := p.parseDimIndices()
			path = append(path, PathElem{Indices: idx, Span: p.span(es)})
			allFields = false
		case p.tok.kind == tDot:
			p.next()
			f := p.parseFieldID()
			path = append(path, PathElem{Field: f, Span: p.span(es)})
		case p.tok.kind == tIndex && len(path) > 0:
			idx := p.parseDimIndices()
			path = append(path, PathElem{Indices: idx, Span: p.span(es)})
			allFields = false
		case p.tok.kind == tRParen && len(path) > 0:
			p.next()
			if allFields {
				fs := make([]string, len(path))
				for i, e := range path {
					fs[i] = e.Field
				}
				return &ProjectSection{Loc: Loc{p.span(start)}, Fields: fs}
			}
			return &IndexSection{Loc: Loc{p.span(start)}, Path: path}
		default:
			p.fail(`".", "[" or ")"`)
		}
	}
}

func (p *parser) parseFieldID() string {
	t := p.tok
	if t.kind == tIdent || t.kind == tInt && isDecimal(t.text) {
		p.next()
		return t.text
	}
	p.fail("a field name")
	return ""
}

// parseUpdatePath parses the path of "with" updates and let-updates:
// [i].f[j] … . A bare field name is allowed first when bare is set.
func (p *parser) parseUpdatePath(bare bool) []PathElem {
	var path []PathElem
	for {
		es := p.tpos()
		switch {
		case p.tok.kind == tLBracket || p.tok.kind == tIndex:
			idx := p.parseDimIndices()
			path = append(path, PathElem{Indices: idx, Span: p.span(es)})
		case p.tok.kind == tDot:
			p.next()
			f := p.parseFieldID()
			path = append(path, PathElem{Field: f, Span: p.span(es)})
		case bare && len(path) == 0 && (p.tok.kind == tIdent || p.tok.kind == tInt):
			f := p.parseFieldID()
			path = append(path, PathElem{Field: f, Span: p.span(es)})
		default:
			if len(path) == 0 {
				p.fail("an index or field")
			}
			return path
		}
	}
}

func (p *parser) parseDimIndices() []*DimIndex {
	p.enter()
	defer p.leave()
	if p.tok.kind != tIndex && p.tok.kind != tLBracket {
		p.fail(`"["`)
	}
	p.next()
	var idx []*DimIndex
	for p.tok.kind != tRBracket {
		idx = append(idx, p.parseDimIndex())
		if !p.got(tComma) {
			break
		}
	}
	p.expect(tRBracket)
	return idx
}

func (p *parser) parseDimIndex() *DimIndex {
	start := p.tpos()
	d := &DimIndex{}
	endOfPart := func() bool {
		k := p.tok.kind
		return k == tColon || k == tComma || k == tRBracket
	}
	var first Expr
	if !endOfPart() {
		first = p.parseExp2()
	}
	if p.tok.kind != tColon {
		if first == nil {
			p.fail("an index")
		}
		d.Fix = first
		d.Span = p.span(start)
		return d
	}
	d.IsSlice, d.HasColon = true, true
	d.Start = first
	p.next()
	if !endOfPart() {
		d.End = p.parseExp2()
	}
	if p.got(tColon) {
		d.HasStride = true
		if !endOfPart() {
			d.Stride = p.parseExp2()
		}
	}
	d.Span = p.span(start)
	return d
}

// Literals.

func splitSuffix(text string, list []string) (string, PrimType) {
	for _, s := range list {
		if strings.HasSuffix(text, s) {
			return text[:len(text)-len(s)], PrimType(s)
		}
	}
	return text, ""
}

func (p *parser) intLit(t token, sp Span) Expr {
	text, suf := splitSuffix(t.text, intSuffixes)
	digits := strings.ReplaceAll(text, "_", "")
	base := 10
	if len(digits) > 2 && digits[0] == '0' {
		switch digits[1] {
		case 'x', 'X':
			base, digits = 16, digits[2:]
		case 'b', 'B':
			base, digits = 2, digits[2:]
		}
	}
	v, ok := new(big.Int).SetString(digits, base)
	if !ok {
		p.addErr(sp, "invalid integer literal "+t.text)
		v = new(big.Int)
	}
	return &IntLit{Loc: Loc{sp}, Text: text, Value: v, Suffix: suf}
}

func (p *parser) floatLit(t token, sp Span) Expr {
	text, suf := t.text, PrimType("")
	isHex := strings.HasPrefix(text, "0x") || strings.HasPrefix(text, "0X")
	if !isHex || strings.ContainsAny(text, "pP") {
		text, suf = splitSuffix(text, floatSuffixes)
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(text, "_", ""), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			p.addErr(sp, "invalid float literal "+t.text)
		}
	}
	return &FloatLit{Loc: Loc{sp}, Text: text, Value: v, Suffix: suf}
}

func (p *parser) parseAttr() *AttrInfo {
	p.expect(tHashBracket)
	a := p.parseAttrInfo()
	p.expect(tRBracket)
	return a
}

func (p *parser) parseAttrInfo() *AttrInfo {
	p.enter()
	defer p.leave()
	start := p.tpos()
	t := p.tok
	switch t.kind {
	case tInt:
		p.next()
		lit := p.intLit(t, Span{start, p.prevEnd()}).(*IntLit)
		n := lit.Value.Int64()
		return &AttrInfo{Loc: Loc{p.span(start)}, Int: &n}
	case tIdent:
		p.next()
		a := &AttrInfo{Name: t.text}
		if p.got(tLParen) {
			a.Args = []*AttrInfo{}
			for p.tok.kind != tRParen {
				a.Args = append(a.Args, p.parseAttrInfo())
				if !p.got(tComma) {
					break
				}
			}
			p.expect(tRParen)
		}
		a.Span = p.span(start)
		return a
	}
	p.fail("an attribute")
	return nil
}
