package syntax

// Type expressions.
//
//	type  = "(" name ":" type ")" "->" type | "?" ("[" name "]")+ "." type
//	      | term ["->" type]
//	term  = "*" term | sum | apply
//	sum   = constructor {atom} {"|" constructor {atom}}
//	apply = atom {"[" [exp] "]" | atom}        a "[" argument is a size
//	atom  = "(" ")" | "(" type ")" | "(" type "," … ")" | "{" fields "}"
//	      | "[" [exp] "]" term | qualname

func (p *parser) parseType() TypeExp {
	p.enter()
	defer p.leave()
	start := p.tpos()
	switch {
	case p.tok.kind == tLParen && p.peek(1).kind == tIdent && p.peek(2).kind == tColon:
		name := p.peek(1).text
		p.skip(3)
		from := p.parseType()
		p.expect(tRParen)
		p.expect(tArrow)
		to := p.parseType()
		return &TEArrow{Loc: Loc{p.span(start)}, Param: name, From: from, To: to}
	case p.tok.kind == tQuestion:
		p.next()
		var sizes []string
		for p.tok.kind == tLBracket || p.tok.kind == tIndex {
			p.next()
			sizes = append(sizes, p.expect(tIdent).text)
			p.expect(tRBracket)
		}
		if len(sizes) == 0 {
			p.fail(`"["`)
		}
		p.expect(tDot)
		t := p.parseType()
		return &TEExist{Loc: Loc{p.span(start)}, Sizes: sizes, T: t}
	}
	t := p.parseTypeTerm()
	if p.got(tArrow) {
		to := p.parseType()
		return &TEArrow{Loc: Loc{p.span(start)}, From: t, To: to}
	}
	return t
}

func (p *parser) parseTypeTerm() TypeExp {
	p.enter()
	defer p.leave()
	start := p.tpos()
	switch {
	case p.isOp("*"):
		p.next()
		t := p.parseTypeTerm()
		return &TEUnique{Loc: Loc{p.span(start)}, T: t}
	case p.tok.kind == tConstr:
		var cs []*TEConstr
		for {
			cs0 := p.tpos()
			c := &TEConstr{Name: p.expect(tConstr).text}
			for p.typeAtomStart() {
				c.Payload = append(c.Payload, p.parseTypeAtom())
			}
			c.Span = p.span(cs0)
			cs = append(cs, c)
			if !p.isOp("|") {
				break
			}
			p.next()
		}
		return &TESum{Loc: Loc{p.span(start)}, Constrs: cs}
	}
	return p.parseTypeApply()
}

func (p *parser) typeAtomStart() bool {
	switch p.tok.kind {
	case tLParen, tLBrace, tIdent, tLBracket, tIndex:
		return true
	}
	return false
}

func (p *parser) parseTypeApply() TypeExp {
	start := p.tpos()
	fn := p.parseTypeAtom()
	var args []TypeArg
	for {
		as := p.tpos()
		switch p.tok.kind {
		case tLBracket, tIndex:
			p.next()
			var dim Expr
			if p.tok.kind != tRBracket {
				dim = p.parseExp()
			}
			p.expect(tRBracket)
			args = append(args, TypeArg{Span: p.span(as), IsSize: true, Dim: dim})
			continue
		case tLParen, tLBrace, tIdent:
			t := p.parseTypeAtom()
			args = append(args, TypeArg{Span: p.span(as), Type: t})
			continue
		}
		break
	}
	if len(args) == 0 {
		return fn
	}
	return &TEApply{Loc: Loc{p.span(start)}, Fn: fn, Args: args}
}

func (p *parser) parseTypeAtom() TypeExp {
	p.enter()
	defer p.leave()
	start := p.tpos()
	switch p.tok.kind {
	case tLParen:
		p.next()
		if p.got(tRParen) {
			return &TETuple{Loc: Loc{p.span(start)}}
		}
		first := p.parseType()
		if p.got(tRParen) {
			return &TEParen{Loc: Loc{p.span(start)}, T: first}
		}
		if p.tok.kind != tComma {
			p.fail(`")" or ","`)
		}
		elems := []TypeExp{first}
		for p.got(tComma) && p.tok.kind != tRParen {
			elems = append(elems, p.parseType())
		}
		p.expect(tRParen)
		return &TETuple{Loc: Loc{p.span(start)}, Elems: elems}
	case tLBrace:
		p.next()
		var fields []*TEField
		for p.tok.kind != tRBrace {
			fs := p.tpos()
			name := p.parseFieldID()
			p.expect(tColon)
			t := p.parseType()
			fields = append(fields, &TEField{Loc: Loc{p.span(fs)}, Name: name, Type: t})
			if !p.got(tComma) {
				break
			}
		}
		p.expect(tRBrace)
		return &TERecord{Loc: Loc{p.span(start)}, Fields: fields}
	case tLBracket, tIndex:
		p.next()
		var dim Expr
		if p.tok.kind != tRBracket {
			dim = p.parseExp()
		}
		p.expect(tRBracket)
		elem := p.parseTypeTerm()
		return &TEArray{Loc: Loc{p.span(start)}, Dim: dim, Elem: elem}
	case tIdent:
		q := p.parseQualName()
		return &TEVar{Loc: Loc{p.span(start)}, Name: q}
	}
	p.fail("a type")
	return nil
}

// parseQualName parses name {"." name}.
func (p *parser) parseQualName() QualName {
	q := QualName{Name: p.expect(tIdent).text}
	for p.tok.kind == tDot && p.peek(1).kind == tIdent {
		q.Quals = append(q.Quals, q.Name)
		q.Name = p.peek(1).text
		p.skip(2)
	}
	return q
}
