package syntax

// Patterns and type parameters.
//
//	pat      = "#[" attr "]" pat | constructor {inner} | inner [":" type]
//	inner    = name | "(" op ")" | "_" | "(" ")" | "(" pat ")" | "(" pat "," … ")"
//	         | "{" fields "}" | ["-"] literal | constructor
//
// Function parameters are inner patterns without a leading minus.

// paramStartAt reports whether token k ahead can begin a parameter pattern.
func (p *parser) paramStartAt(k int) bool {
	switch p.peek(k).kind {
	case tIdent, tUnderscore, tLParen, tLBrace, tInt, tFloat, tChar, tTrue, tFalse, tConstr:
		return true
	}
	return false
}

func (p *parser) paramStart() bool { return p.paramStartAt(0) }

func (p *parser) typeParamStartAt(k int) bool {
	switch p.peek(k).kind {
	case tApos, tAposHat, tAposTilde, tLBracket, tIndex:
		return true
	}
	return false
}

func (p *parser) parsePat() Pat {
	p.enter()
	defer p.leave()
	start := p.tpos()
	var pat Pat
	switch p.tok.kind {
	case tHashBracket:
		a := p.parseAttr()
		x := p.parsePat()
		return &PAttr{Loc: Loc{p.span(start)}, Attr: a, P: x}
	case tConstr:
		name := p.tok.text
		p.next()
		var args []Pat
		for p.paramStart() || p.negLitStart() {
			args = append(args, p.parseInnerPat(true))
		}
		pat = &PConstr{Loc: Loc{p.span(start)}, Name: name, Args: args}
	default:
		pat = p.parseInnerPat(true)
	}
	if p.got(tColon) {
		t := p.parseType()
		pat = &PAscript{Loc: Loc{p.span(start)}, P: pat, Type: t}
	}
	return pat
}

func (p *parser) negLitStart() bool {
	return p.isOp("-") && (p.peek(1).kind == tInt || p.peek(1).kind == tFloat)
}

func (p *parser) parseInnerPat(allowNeg bool) Pat {
	p.enter()
	defer p.leave()
	start := p.tpos()
	t := p.tok
	sp := Span{start, p.tend()}
	switch t.kind {
	case tIdent:
		p.next()
		return &PId{Loc: Loc{sp}, Name: t.text}
	case tUnderscore:
		p.next()
		return &PWild{Loc{sp}}
	case tConstr:
		p.next()
		return &PConstr{Loc: Loc{sp}, Name: t.text}
	case tInt, tFloat, tChar, tTrue, tFalse:
		lit := p.parsePrimary()
		return &PLit{Loc: Loc{sp}, Lit: lit}
	case tLBrace:
		return p.parseRecordPat()
	case tLParen:
		p.next()
		if p.got(tRParen) {
			return &PTuple{Loc: Loc{p.span(start)}}
		}
		if op, ok := p.binopAt(0); ok && p.peek(op.ntoks).kind == tRParen && !op.backtick && len(op.name.Quals) == 0 {
			p.skip(op.ntoks + 1)
			return &PId{Loc: Loc{p.span(start)}, Name: op.name.Name}
		}
		first := p.parsePat()
		if p.got(tRParen) {
			return &PParen{Loc: Loc{p.span(start)}, P: first}
		}
		if p.tok.kind != tComma {
			p.fail(`")" or ","`)
		}
		elems := []Pat{first}
		for p.got(tComma) && p.tok.kind != tRParen {
			elems = append(elems, p.parsePat())
		}
		p.expect(tRParen)
		return &PTuple{Loc: Loc{p.span(start)}, Elems: elems}
	}
	if allowNeg && p.negLitStart() {
		p.next()
		lit := p.parsePrimary()
		neg := &Negate{Loc: Loc{p.span(start)}, X: lit}
		return &PLit{Loc: Loc{p.span(start)}, Lit: neg}
	}
	p.fail("a pattern")
	return nil
}

func (p *parser) parseRecordPat() Pat {
	start := p.tpos()
	p.expect(tLBrace)
	var fields []*PField
	for p.tok.kind != tRBrace {
		fs := p.tpos()
		nameTok := p.tok
		name := p.parseFieldID()
		f := &PField{Name: name}
		switch {
		case p.got(tEqu):
			f.Pat = p.parsePat()
		case p.got(tColon):
			t := p.parseType()
			id := &PId{Loc: Loc{Span{fs, p.pos(nameTok.end)}}, Name: name}
			f.Pat = &PAscript{Loc: Loc{p.span(fs)}, P: id, Type: t}
			f.Short = true
		default:
			f.Pat = &PId{Loc: Loc{p.span(fs)}, Name: name}
			f.Short = true
		}
		f.Span = p.span(fs)
		fields = append(fields, f)
		if !p.got(tComma) {
			break
		}
	}
	p.expect(tRBrace)
	return &PRecord{Loc: Loc{p.span(start)}, Fields: fields}
}

// parseTypeParams parses [n] 'a '~a '^a … .
func (p *parser) parseTypeParams() []*TypeParam {
	var ps []*TypeParam
	for {
		start := p.tpos()
		var kind TypeParamKind
		switch p.tok.kind {
		case tLBracket, tIndex:
			if p.peek(1).kind != tIdent || p.peek(2).kind != tRBracket {
				return ps
			}
			name := p.peek(1).text
			p.skip(3)
			ps = append(ps, &TypeParam{Loc: Loc{p.span(start)}, Name: name, Kind: TPSize})
			continue
		case tApos:
			kind = TPType
		case tAposHat:
			kind = TPLifted
		case tAposTilde:
			kind = TPSizeLifted
		default:
			return ps
		}
		p.next()
		name := p.expect(tIdent)
		ps = append(ps, &TypeParam{Loc: Loc{p.span(start)}, Name: name.text, Kind: kind})
	}
}
