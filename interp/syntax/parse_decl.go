package syntax

// Declarations, modules and module types.
//
// Error recovery: an error inside a top-level declaration unwinds to the
// declaration loop, which skips to the next token that can only begin a
// declaration (def, entry, type, module, open, import, local, or let/#[ in
// the first column) and goes on, so one run reports the errors of several
// declarations.

// try runs f and reports whether it finished without a syntax error; it
// lets tooMany through.
func (p *parser) try(f func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, b := r.(bailout); b {
				ok = false
				return
			}
			panic(r)
		}
	}()
	f()
	return true
}

func (p *parser) declStart() bool {
	switch p.tok.kind {
	case tDef, tEntry, tType, tModule, tOpen, tImport, tLocal, tLet, tHashBracket:
		return true
	}
	return false
}

func (p *parser) atLineStart() bool {
	off := p.tok.pos
	return off == 0 || p.file.Src[off-1] == '\n'
}

func (p *parser) parseTopDecls() []Decl {
	var decls []Decl
	for p.tok.kind != tEOF {
		before := p.i
		var d Decl
		if p.try(func() { d = p.parseDecl() }) {
			decls = append(decls, d)
			continue
		}
		if p.i == before {
			p.next()
		}
		for p.tok.kind != tEOF {
			switch p.tok.kind {
			case tDef, tEntry, tType, tModule, tOpen, tImport, tLocal:
				if p.atLineStart() || p.tok.kind != tType {
					goto resume
				}
			case tLet, tHashBracket:
				if p.atLineStart() {
					goto resume
				}
			}
			p.next()
		}
	resume:
	}
	return decls
}

func (p *parser) parseDecl() Decl {
	p.enter()
	defer p.leave()
	start := p.tpos()
	doc := p.tok.doc
	switch p.tok.kind {
	case tHashBracket:
		a := p.parseAttr()
		d := p.parseDecl()
		if v, ok := d.(*ValDecl); ok {
			v.Fun.Attrs = append([]*AttrInfo{a}, v.Fun.Attrs...)
			v.Span.Start = start
			v.Fun.Span.Start = start
		}
		setDoc(d, doc)
		return d
	case tDef, tEntry, tLet:
		entry := p.tok.kind == tEntry
		fb := p.parseValBind()
		fb.Doc = doc
		return &ValDecl{Loc: Loc{p.span(start)}, Entry: entry, Fun: fb}
	case tType:
		p.next()
		lifted := p.parseLiftedness()
		name := p.expect(tIdent).text
		params := p.parseTypeParams()
		p.expect(tEqu)
		def := p.parseType()
		return &TypeDecl{Loc: Loc{p.span(start)}, Name: name, Lifted: lifted, Params: params, Def: def, Doc: doc}
	case tModule:
		p.next()
		if p.got(tType) {
			name := p.expect(tIdent).text
			p.expect(tEqu)
			def := p.parseModType()
			return &ModTypeDecl{Loc: Loc{p.span(start)}, Name: name, Def: def, Doc: doc}
		}
		name := p.expect(tIdent).text
		var params []*ModParam
		for p.tok.kind == tLParen {
			params = append(params, p.parseModParam())
		}
		var sig ModTypeExp
		if p.got(tColon) {
			sig = p.parseModType()
		}
		p.expect(tEqu)
		body := p.parseModExp()
		return &ModDecl{Loc: Loc{p.span(start)}, Name: name, Params: params, Sig: sig, Body: body, Doc: doc}
	case tOpen:
		p.next()
		m := p.parseModExp()
		return &OpenDecl{Loc: Loc{p.span(start)}, Mod: m}
	case tImport:
		p.next()
		path := p.expect(tString).val
		return &ImportDecl{Loc: Loc{p.span(start)}, Path: path}
	case tLocal:
		p.next()
		d := p.parseDecl()
		setDoc(d, doc)
		return &LocalDecl{Loc: Loc{p.span(start)}, D: d}
	}
	p.fail("a declaration")
	return nil
}

func (p *parser) parseLiftedness() Liftedness {
	switch {
	case p.isOp("^"):
		p.next()
		return Lifted
	case p.tok.kind == tTilde:
		p.next()
		return SizeLifted
	}
	return Unlifted
}

// bindingOp reports whether the tokens at k are "(" op ")", an operator
// in binding position.
func (p *parser) bindingOpAt(k int) (string, bool) {
	if p.peek(k).kind != tLParen || p.peek(k+2).kind != tRParen {
		return "", false
	}
	t := p.peek(k + 1)
	if t.kind == tOp && t.text != "!" {
		return t.text, true
	}
	return "", false
}

// parseValBind parses the rest of def/entry/let at declaration level.
func (p *parser) parseValBind() *FunBind {
	start := p.tpos()
	p.next()
	fb := &FunBind{}
	if op, ok := p.bindingOpAt(0); ok {
		fb.Name, fb.IsOp = op, true
		fb.NameSpan = Span{p.pos(p.peek(1).pos), p.pos(p.peek(1).end)}
		p.skip(3)
	} else if t := p.peek(1); p.tok.kind == tIdent && t.kind == tOp && t.text == "!" {
		p.failAt(Span{p.pos(t.pos), p.pos(t.end)}, "'!' is a prefix operator and cannot be used as infix operator.")
	} else if p.tok.kind == tIdent && !p.infixOpAt(1) {
		fb.Name = p.tok.text
		fb.NameSpan = Span{p.tpos(), p.tend()}
		p.next()
	} else {
		// Infix definition: def p1 op p2.
		if !p.paramStart() {
			p.fail("a name")
		}
		left := p.parseInnerPat(false)
		if p.tok.kind == tEqu || p.tok.kind == tColon {
			p.failAt(SpanOf(left), "cannot bind a pattern at top level; bind a single name instead")
		}
		if p.tok.kind == tOp && p.tok.text == "!" {
			p.failAt(Span{p.tpos(), p.tend()}, "'!' is a prefix operator and cannot be used as infix operator.")
		}
		if !p.infixOpAt(0) {
			p.fail("an operator")
		}
		fb.Name, fb.IsOp = p.tok.text, true
		fb.NameSpan = Span{p.tpos(), p.tend()}
		p.next()
		right := p.parseInnerPat(false)
		fb.Params = []Pat{left, right}
	}
	if len(fb.Params) == 0 {
		fb.TypeParams = p.parseTypeParams()
		for p.paramStart() {
			fb.Params = append(fb.Params, p.parseInnerPat(false))
		}
	}
	if p.got(tColon) {
		fb.RetType = p.parseType()
	}
	p.expect(tEqu)
	fb.Body = p.parseExp()
	fb.Span = p.span(start)
	return fb
}

func (p *parser) infixOpAt(k int) bool {
	t := p.peek(k)
	return t.kind == tOp && t.text != "!"
}

func (p *parser) parseModParam() *ModParam {
	start := p.tpos()
	p.expect(tLParen)
	name := p.expect(tIdent).text
	p.expect(tColon)
	sig := p.parseModType()
	p.expect(tRParen)
	return &ModParam{Loc: Loc{p.span(start)}, Name: name, Sig: sig}
}

func (p *parser) parseModExp() ModExp {
	p.enter()
	defer p.leave()
	start := p.tpos()
	var m ModExp
	switch p.tok.kind {
	case tBackslash:
		p.next()
		param := p.parseModParam()
		var sig ModTypeExp
		if p.got(tColon) {
			if p.tok.kind == tLParen {
				ps := p.tpos()
				p.next()
				s := p.parseModType()
				p.expect(tRParen)
				sig = &SigParen{Loc: Loc{p.span(ps)}, S: s}
			} else {
				qs := p.tpos()
				q := p.parseQualName()
				sig = &SigVar{Loc: Loc{p.span(qs)}, Name: q}
			}
		}
		p.expect(tArrow)
		body := p.parseModExp()
		return &ModLambda{Loc: Loc{p.span(start)}, Param: param, Sig: sig, Body: body}
	case tImport:
		p.next()
		path := p.expect(tString).val
		m = &ModImport{Loc: Loc{p.span(start)}, Path: path}
	default:
		m = p.parseModAtom()
		for p.tok.kind == tLParen || p.tok.kind == tIdent || p.tok.kind == tLBrace {
			arg := p.parseModAtom()
			m = &ModApply{Loc: Loc{p.span(start)}, Fn: m, Arg: arg}
		}
	}
	for p.got(tColon) {
		sig := p.parseModType()
		m = &ModAscript{Loc: Loc{p.span(start)}, M: m, Sig: sig}
	}
	return m
}

func (p *parser) parseModAtom() ModExp {
	p.enter()
	defer p.leave()
	start := p.tpos()
	switch p.tok.kind {
	case tLParen:
		p.next()
		m := p.parseModExp()
		p.expect(tRParen)
		return &ModParen{Loc: Loc{p.span(start)}, M: m}
	case tIdent:
		q := p.parseQualName()
		return &ModVar{Loc: Loc{p.span(start)}, Name: q}
	case tLBrace:
		p.next()
		var decls []Decl
		for p.tok.kind != tRBrace {
			if p.tok.kind == tEOF {
				p.fail(`"}"`)
			}
			decls = append(decls, p.parseDecl())
		}
		p.next()
		return &ModStruct{Loc: Loc{p.span(start)}, Decls: decls}
	}
	p.fail("a module expression")
	return nil
}

func (p *parser) parseModType() ModTypeExp {
	p.enter()
	defer p.leave()
	start := p.tpos()
	if p.tok.kind == tLParen && p.peek(1).kind == tIdent && p.peek(2).kind == tColon {
		name := p.peek(1).text
		p.skip(3)
		from := p.parseModType()
		p.expect(tRParen)
		p.expect(tArrow)
		to := p.parseModType()
		return &SigArrow{Loc: Loc{p.span(start)}, Param: name, From: from, To: to}
	}
	s := p.parseModTypeAtom()
	for p.tok.kind == tWith {
		p.next()
		path := p.parseQualName()
		params := p.parseTypeParams()
		p.expect(tEqu)
		t := p.parseType()
		s = &SigWith{Loc: Loc{p.span(start)}, S: s, Path: path, Params: params, Type: t}
	}
	if p.got(tArrow) {
		to := p.parseModType()
		return &SigArrow{Loc: Loc{p.span(start)}, From: s, To: to}
	}
	return s
}

func (p *parser) parseModTypeAtom() ModTypeExp {
	start := p.tpos()
	switch p.tok.kind {
	case tIdent:
		q := p.parseQualName()
		return &SigVar{Loc: Loc{p.span(start)}, Name: q}
	case tLBrace:
		p.next()
		specs := p.parseSpecs()
		p.expect(tRBrace)
		return &SigSpecs{Loc: Loc{p.span(start)}, Specs: specs}
	case tLParen:
		p.next()
		s := p.parseModType()
		p.expect(tRParen)
		return &SigParen{Loc: Loc{p.span(start)}, S: s}
	}
	p.fail("a module type")
	return nil
}

func (p *parser) parseSpecs() []Spec {
	var specs []Spec
	for {
		switch p.tok.kind {
		case tVal, tType, tModule, tInclude, tHashBracket:
			specs = append(specs, p.parseSpec())
		default:
			return specs
		}
	}
}

func (p *parser) parseSpec() Spec {
	p.enter()
	defer p.leave()
	start := p.tpos()
	doc := p.tok.doc
	switch p.tok.kind {
	case tHashBracket:
		p.parseAttr() // attributes on specs are accepted and dropped
		return p.parseSpec()
	case tVal:
		p.next()
		s := &ValSpec{Doc: doc}
		if op, ok := p.bindingOpAt(0); ok {
			s.Name, s.IsOp = op, true
			p.skip(3)
		} else if p.infixOpAt(0) {
			s.Name, s.IsOp = p.tok.text, true
			p.next()
		} else {
			s.Name = p.expect(tIdent).text
		}
		s.TypeParams = p.parseTypeParams()
		p.expect(tColon)
		s.Type = p.parseType()
		s.Span = p.span(start)
		return s
	case tType:
		p.next()
		s := &TypeSpec{Doc: doc}
		s.Lifted = p.parseLiftedness()
		s.Name = p.expect(tIdent).text
		s.Params = p.parseTypeParams()
		if p.got(tEqu) {
			s.Def = p.parseType()
		}
		s.Span = p.span(start)
		return s
	case tModule:
		p.next()
		name := p.expect(tIdent).text
		p.expect(tColon)
		sig := p.parseModType()
		return &ModSpec{Loc: Loc{p.span(start)}, Name: name, Sig: sig}
	case tInclude:
		p.next()
		s := p.parseModType()
		return &IncludeSpec{Loc: Loc{p.span(start)}, S: s}
	}
	p.fail("a specification")
	return nil
}

// setDoc gives d the documentation comment doc unless it has its own.
func setDoc(d Decl, doc string) {
	if doc == "" {
		return
	}
	switch d := d.(type) {
	case *ValDecl:
		if d.Fun.Doc == "" {
			d.Fun.Doc = doc
		}
	case *TypeDecl:
		if d.Doc == "" {
			d.Doc = doc
		}
	case *ModDecl:
		if d.Doc == "" {
			d.Doc = doc
		}
	case *ModTypeDecl:
		if d.Doc == "" {
			d.Doc = doc
		}
	}
}
