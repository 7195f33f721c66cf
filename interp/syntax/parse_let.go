package syntax

// The binding forms of expressions: let (pattern, function, in-place
// update), loop and match.
//
// After "let" the parser decides by looking ahead: "[" (after a space)
// starts size binders; a name followed by an indexing "[" or by "." is an
// in-place update (let a[i] = v, let r.f = v); a name followed by anything
// that can start a parameter is a local function; anything else is a
// pattern. A let's body is "in e", or directly another let (Futhark lets
// a chain of lets leave out every "in" but the last).

func (p *parser) parseLet() Expr {
	p.enter()
	defer p.leave()
	start := p.tpos()
	p.expect(tLet)
	sizes := p.parseSizeBinders()
	if len(sizes) == 0 && p.tok.kind == tIdent {
		nt := p.peek(1)
		switch {
		case nt.kind == tIndex || nt.kind == tDot:
			return p.parseLetWith(start)
		case nt.kind != tEqu && nt.kind != tColon && (p.paramStartAt(1) || p.typeParamStartAt(1)):
			return p.parseLetFun(start)
		}
	}
	pat := p.parsePat()
	p.expect(tEqu)
	v := p.parseExp()
	body := p.parseLetBody()
	return &LetIn{Loc: Loc{p.span(start)}, Sizes: sizes, Pat: pat, Value: v, Body: body}
}

func (p *parser) parseSizeBinders() []*SizeBinder {
	var sizes []*SizeBinder
	for (p.tok.kind == tLBracket || p.tok.kind == tIndex) && p.peek(1).kind == tIdent && p.peek(2).kind == tRBracket {
		s := p.tpos()
		name := p.peek(1).text
		p.skip(3)
		sizes = append(sizes, &SizeBinder{Loc: Loc{p.span(s)}, Name: name})
	}
	return sizes
}

func (p *parser) parseLetBody() Expr {
	switch p.tok.kind {
	case tIn:
		p.next()
		return p.parseExp()
	case tLet:
		return p.parseLet()
	case tDef, tType, tModule:
		p.failAt(Span{p.tpos(), p.tend()}, `Unexpected "`+p.tok.text+`", expected "in" (missing "in"?)`)
	}
	p.fail(`"in"`)
	return nil
}

func (p *parser) parseLetWith(start Pos) Expr {
	name := p.tok
	p.next()
	dest := &Var{Loc: Loc{Span{p.pos(name.pos), p.pos(name.end)}}, Name: QualName{Name: name.text}}
	path := p.parseUpdatePath(false)
	p.expect(tEqu)
	v := p.parseExp()
	body := p.parseLetBody()
	return &LetWith{Loc: Loc{p.span(start)}, Dest: dest, Path: path, Value: v, Body: body}
}

func (p *parser) parseLetFun(start Pos) Expr {
	fb := &FunBind{Name: p.tok.text, NameSpan: Span{p.tpos(), p.tend()}}
	p.next()
	fb.TypeParams = p.parseTypeParams()
	for p.paramStart() {
		fb.Params = append(fb.Params, p.parseInnerPat(false))
	}
	if len(fb.Params) == 0 {
		p.fail("a parameter")
	}
	if p.got(tColon) {
		fb.RetType = p.parseType()
	}
	p.expect(tEqu)
	fb.Body = p.parseExp()
	fb.Span = Span{start, fb.Body.End()}
	body := p.parseLetBody()
	return &LetFun{Loc: Loc{p.span(start)}, Fun: fb, Body: body}
}

func (p *parser) parseLoop() Expr {
	p.enter()
	defer p.leave()
	start := p.tpos()
	p.expect(tLoop)
	sizes := p.parseSizeBinders()
	pat := p.parsePat()
	var init Expr
	if p.got(tEqu) {
		init = p.parseExp()
	}
	fs := p.tpos()
	var form LoopForm
	switch p.tok.kind {
	case tFor:
		p.next()
		if p.tok.kind == tIdent && p.peek(1).kind == tOp && p.peek(1).text == "<" {
			id := &Ident{Loc: Loc{Span{p.tpos(), p.tend()}}, Name: p.tok.text}
			p.skip(2)
			bound := p.parseExp()
			form = &For{Loc: Loc{p.span(fs)}, I: id, Bound: bound}
		} else {
			fp := p.parsePat()
			p.expect(tIn)
			arr := p.parseExp()
			form = &ForIn{Loc: Loc{p.span(fs)}, Pat: fp, Arr: arr}
		}
	case tWhile:
		p.next()
		c := p.parseExp()
		form = &While{Loc: Loc{p.span(fs)}, Cond: c}
	default:
		p.fail(`"for" or "while"`)
	}
	p.expect(tDo)
	body := p.parseExp()
	return &Loop{Loc: Loc{p.span(start)}, Sizes: sizes, Pat: pat, Init: init, Form: form, Body: body}
}

func (p *parser) parseMatch() Expr {
	p.enter()
	defer p.leave()
	start := p.tpos()
	p.expect(tMatch)
	x := p.parseExp()
	var cases []*Case
	for p.tok.kind == tCase {
		cs := p.tpos()
		p.next()
		pat := p.parsePat()
		p.expect(tArrow)
		body := p.parseExp()
		cases = append(cases, &Case{Loc: Loc{p.span(cs)}, Pat: pat, Body: body})
	}
	if len(cases) == 0 {
		p.fail(`"case"`)
	}
	return &Match{Loc: Loc{p.span(start)}, X: x, Cases: cases}
}
