package types

// Declarations: value and function definitions (with defaulting and
// generalisation), type abbreviations, entry points.

import (
	"fut/interp/syntax"
)

// beginDef starts the per-definition state of a top-level definition.
func (c *Checker) beginDef() {
	c.overloaded = nil
	c.constrVars = nil
	c.fieldVars = nil
	c.pendExprs = nil
	c.pendPats = nil
	c.localSizes = map[*SizeName]int{}
	c.sizeOrigin = nil
	c.originSizes = map[syntax.Expr][]*SizeName{}
	c.sizeParams = map[*SizeName]int{}
	c.typeParams = map[*TypeCon]int{}
	c.uses = map[*syntax.Var]*valBind{}
	c.letSizes = map[*valBind]Size{}
	c.opUses = map[*syntax.OpSection]*valBind{}
	c.sectionOps = map[syntax.Expr]Type{}
	c.flexSizes = nil
	c.patBinds = map[*syntax.PId]*valBind{}
	c.funBinds = map[*syntax.FunBind]*valBind{}
	c.withBinds = map[*syntax.LetWith]*valBind{}
	c.identBinds = map[*syntax.Ident]*valBind{}
	c.loopPats = map[*syntax.Loop]bool{}
	c.loopInit = map[*syntax.PId]*valBind{}
	c.matches = nil
	c.defErrStart = len(c.errs)
	c.reportedAmbiguous = map[*tvar]bool{}
}

// defaultVars resolves what inference left open: overloaded literals and
// operators take their default type, open sum types close.
func (c *Checker) defaultVars() { c.defaultVarsOf(nil, syntax.Span{}) }

// defaultVarsOf is defaultVars for a top-level definition whose type is
// bindT (declared at sp): as in Futhark, a type in bindT that several
// numeric types could have and that is defaulted (def plus x y = x + y
// becomes i32 -> i32 -> i32) is warned of, since the definition is then
// less general than it reads. A definition with errors is not warned of:
// Futhark stops at its first error.
func (c *Checker) defaultVarsOf(bindT Type, sp syntax.Span) {
	for _, v := range c.overloaded {
		r := Resolve(v)
		w, ok := r.(TVar)
		if !ok || w.overload == nil {
			continue
		}
		var p syntax.PrimType
		switch {
		case w.index && containsPrim(w.overload, "i64"):
			p = "i64"
		case containsPrim(w.overload, "i32"):
			p = "i32"
		case containsPrim(w.overload, "f64"):
			p = "f64"
		default:
			p = w.overload[0]
		}
		if bindT != nil && len(c.errs) == c.defErrStart && len(w.overload) > 1 && (p == "i32" || p == "f64") && occurs(w.tvar, bindT) {
			c.warnf(sp, "Defaulting ambiguous type to %s.", p)
		}
		w.link = &Prim{p}
	}
	for _, v := range c.constrVars {
		w, ok := Resolve(v).(TVar)
		if !ok || w.constrs == nil {
			continue
		}
		var cs []Constr
		for n, ps := range w.constrs {
			cs = append(cs, Constr{n, ps})
		}
		if len(c.errs) == c.defErrStart {
			c.errorf(w.span, "Type is ambiguous: the sum type with constructor %s is not known here (add a type annotation).", TVar{w.tvar})
		}
		w.link = newSum(cs)
	}
	for _, v := range c.fieldVars {
		w, ok := Resolve(v).(TVar)
		if !ok || w.fields == nil {
			continue
		}
		if len(c.errs) == c.defErrStart {
			c.errorf(w.span, "Type of this record is ambiguous: it must be a record %s, but is not known where its field is used (add a type annotation).", w)
		}
		var fs []Field
		for n, t := range w.fields {
			fs = append(fs, Field{n, t})
		}
		w.link = NewRecord(fs)
	}
}

// endDef defaults what is left and resolves the recorded types.
func (c *Checker) endDef(fb *syntax.FunBind) {
	c.defaultVars()
	var z zonker
	for _, e := range c.pendExprs {
		c.info.Types[e] = z.zonk(c.info.Types[e])
	}
	for _, p := range c.pendPats {
		c.info.PatTypes[p] = z.zonk(c.info.PatTypes[p])
	}
	if len(c.errs) == c.defErrStart {
		c.checkExhaustive()
	}
	c.checkFlexSizes()
	c.checkLiterals()
	for _, e := range c.pendExprs {
		if x, ok := e.(*syntax.If); ok && hasArrow(c.info.Types[e]) {
			c.errorf(x.Span, "Conditional branches may not be of function type (here %s).", quoteT(c.info.Types[e]))
		}
	}
}

// checkRetSizesAccessible reports a declared result type that uses as a
// size a variable bound inside a parameter's pattern (def f (x: i64, _:
// bool) : [x]i32): a caller cannot name it, as in Futhark.
func (c *Checker) checkRetSizesAccessible(fb *syntax.FunBind, paramBinds []*valBind, ret Type) {
	for i, p := range fb.Params {
		for _, id := range patNames(p) {
			vb := c.patBinds[id]
			if vb == nil || vb.size == nil || (i < len(paramBinds) && paramBinds[i] == vb) {
				continue
			}
			if mentionsSize(ret, vb.size) {
				c.errorf(syntax.SpanOf(fb.RetType), "The result type refers to the size \"%s\", which is bound inside the pattern of a parameter, where a caller cannot name it (inaccessible-size).", vb.name)
				return
			}
		}
	}
}

// hasArrow reports whether t has a function type in it, or a lifted type
// parameter as written (one that generalisation made is not one).
func hasArrow(t Type) bool {
	switch t := Resolve(t).(type) {
	case *Arrow:
		return true
	case *Con:
		return t.Con.Lifted == syntax.Lifted && !t.Con.inferred
	case *Array:
		return hasArrow(t.Elem)
	case *Record:
		for _, f := range t.Fields {
			if hasArrow(f.Type) {
				return true
			}
		}
	case *Sum:
		for _, cn := range t.Constrs {
			for _, p := range cn.Payload {
				if hasArrow(p) {
					return true
				}
			}
		}
	}
	return false
}

func liftedOf(k syntax.TypeParamKind) syntax.Liftedness {
	switch k {
	case syntax.TPLifted:
		return syntax.Lifted
	case syntax.TPSizeLifted:
		return syntax.SizeLifted
	}
	return syntax.Unlifted
}

// checkFunBind checks a function or constant definition and returns its
// scheme. Top-level definitions are defaulted before generalisation.
func (c *Checker) checkFunBind(fb *syntax.FunBind, sc *scope, top bool) *Scheme {
	outer := c.level
	c.level++
	selfScope := newScope(sc)
	inner := newScope(selfScope)
	var tparams []*TypeCon
	var sparams []*SizeName
	var declSizes []*SizeName
	seen := map[string]bool{}
	for _, tp := range fb.TypeParams {
		if seen[tp.Name] {
			c.errorf(tp.Span, "Type parameter \"%s\" is also bound previously in the same list.", tp.Name)
		}
		seen[tp.Name] = true
		if tp.Kind == syntax.TPSize {
			sn := c.newSizeName(tp.Name)
			inner.vals[tp.Name] = &valBind{name: tp.Name, scheme: &Scheme{Type: I64}, size: sn, span: tp.Span, local: true, level: c.level, id: c.freshID()}
			sparams = append(sparams, sn)
			declSizes = append(declSizes, sn)
			if !top {
				c.sizeParams[sn] = c.level
			}
			continue
		}
		c.nextID++
		tc := &TypeCon{Name: tp.Name, Lifted: liftedOf(tp.Kind), id: c.nextID}
		if !top {
			c.typeParams[tc] = c.level
		}
		inner.types[tp.Name] = &TypeDef{Name: tp.Name, Body: &Con{Con: tc}, Lifted: tc.Lifted}
		tparams = append(tparams, tc)
	}
	savedAnon := c.anonParams
	c.anonParams = nil
	var paramTs []Type
	var paramBinds []*valBind
	pnames := map[string]syntax.Span{}
	for _, tp := range fb.TypeParams {
		if tp.Kind == syntax.TPSize {
			pnames[tp.Name] = tp.Span
		}
	}
	for _, p := range fb.Params {
		c.checkIrrefutable(p)
		t := c.patType(p, inner, dimFlex, true, pnames)
		paramTs = append(paramTs, t)
		var vb *valBind
		if id, ok := unparenPat(stripAscript(p)).(*syntax.PId); ok {
			vb = c.patBinds[id]
		}
		paramBinds = append(paramBinds, vb)
	}
	sparams = append(sparams, c.anonParams...)
	c.anonParams = savedAnon
	var declRet Type
	if fb.RetType != nil {
		savedFlex := c.anonFlex
		c.anonFlex = anonResult
		declRet = c.typeExp(fb.RetType, inner, dimFlex)
		c.anonFlex = savedFlex
		c.checkRetSizesAccessible(fb, paramBinds, declRet)
	}
	// The anonymous sizes of the declared result ([]t): one that the
	// body leaves open is no existential but the caller's to choose.
	var retVars []*svar
	if declRet != nil {
		walkSizes(declRet, func(z Size) { retVars = append(retVars, sizeVarsIn(z)...) })
	}
	// The function is in scope in its own body (monomorphically), so
	// that it may call itself.
	var self Type
	if len(fb.Params) > 0 {
		var res Type = c.newTVar(fb.NameSpan)
		if declRet != nil {
			res = declRet
		}
		self = res
		for i := len(paramTs) - 1; i >= 0; i-- {
			a := &Arrow{From: paramTs[i], To: self}
			if declRet != nil {
				// A parameter the declared result speaks of (f (n: i64)
				// : [n]t) names it here too, as in the final type.
				if vb := paramBinds[i]; vb != nil && vb.size != nil && mentionsSize(self, vb.size) {
					a.Param = vb.size
				}
			}
			self = a
		}
		selfScope.vals[fb.Name] = &valBind{name: fb.Name, scheme: &Scheme{TParams: tparams, SParams: declSizes, Type: self}, span: fb.NameSpan, local: true, level: c.level, id: c.freshID()}
		if top {
			// A recursive use denotes the declaration itself.
			selfScope.vals[fb.Name].obj = c.declObject(fb)
		}
	}
	bt := c.inferExpr(fb.Body, inner)
	if self != nil {
		defer c.checkRecursion(fb, selfScope.vals[fb.Name], paramTs, inner)
	}
	if self != nil && declRet == nil {
		r := self
		for range paramTs {
			r = r.(*Arrow).To
		}
		c.unifyAt(syntax.SpanOf(fb.Body), "Function body does not have expected type.", r, bt, true)
	}
	if declRet != nil {
		if _, isFun := Resolve(declRet).(*Arrow); isFun && !uniqueCompatible(declRet, bt) {
			c.errorf(syntax.SpanOf(fb.Body), "Function body does not have expected type %s: it consumes an argument that the declared type does not.", quoteT(declRet))
		}
		c.unifyAt(syntax.SpanOf(fb.Body), "Function body does not have expected type.", declRet, bt, false)
		bt = declRet
	} else {
		bt = setUnique(bt, false)
	}
	if top {
		bindT := bt
		for i := len(paramTs) - 1; i >= 0; i-- {
			bindT = &Arrow{From: paramTs[i], To: bindT}
		}
		c.defaultVarsOf(bindT, fb.NameSpan)
	}
	// Sizes the result may speak of: parameters, and anything from outside.
	allowed := map[*SizeName]bool{}
	for _, s := range sparams {
		allowed[s] = true
	}
	for _, vb := range paramBinds {
		if vb != nil {
			c.sizeOfBinding(vb)
			allowed[vb.size] = true
		}
	}
	// Sizes of parameters still open become size parameters.
	// So do open sizes inside a parameter's size expression ([n * m]
	// gives n and m), as in Futhark.
	var open func(z Size)
	open = func(z Size) {
		switch x := resolveSize(z).(type) {
		case SizeVar:
			sn := c.newSizeName("n")
			x.link = sn
			sparams = append(sparams, sn)
			allowed[sn] = true
		case *SizeExpr:
			if x.Op != "" {
				open(x.L)
				open(x.R)
			}
		case *SizeTerm:
			for _, a := range x.Args {
				open(a)
			}
		}
	}
	for _, pt := range paramTs {
		walkSizes(pt, open)
	}
	ret, exist := c.existentialise(zonk(bt), allowed, outer, retVars)
	if n := existOnlyInParam(ret, exist); n != "" {
		c.errorf(syntax.SpanOf(fb.Body), "Cannot generalise the result type %s of \"%s\": the size \"%s\" it makes is used only in the parameter of a function in it, where no caller could know it.", quoteT(ret), fb.Name, n)
	} else if u := c.localInFunction(ret, allowed, outer); u != nil {
		what := "a size"
		if u.scoped != "" {
			what = "\"" + u.scoped + "\""
		}
		c.errorf(syntax.SpanOf(fb.Body), "Cannot generalise the result type %s of \"%s\". Unknown size %s in parameter of a function in it: it is computed inside \"%s\", so no caller could know it (unknown-param-def).", quoteT(ret), fb.Name, what, fb.Name)
	}
	// Build the function type; name parameters used as sizes.
	ft := ret
	for i := len(paramTs) - 1; i >= 0; i-- {
		a := &Arrow{From: paramTs[i], To: ft}
		if i == len(paramTs)-1 {
			a.Exist = exist
		}
		if vb := paramBinds[i]; vb != nil && vb.size != nil && mentionsSize(ft, vb.size) {
			a.Param = vb.size
		}
		ft = a
	}
	ft = zonk(ft)
	if len(fb.Params) > 0 {
		c.checkSizeParamsUsed(fb, declSizes, []Type{ft})
	} else if len(declSizes) > 0 && top && len(exist) > 0 {
		c.errorf(fb.NameSpan, "\"%s\" is a size-polymorphic value binding whose type has unknown sizes, which is not allowed.", fb.Name)
	}
	if len(fb.Params) == 0 && isFunctional(ft) == false && len(exist) > 0 {
		ft = substType(ft, existToAny(exist))
	}
	// Generalise over what is still open.
	var gen subst
	gen.types = map[*TypeCon]*TypeDef{}
	c.checkParamScope(fb, paramTs, allowed, outer)
	c.checkLaterParams(fb.Params, paramTs)
	if top {
		// Only in a constant: in a function body a size fut leaves open
		// may be one Futhark knows (an in-place update's value, whose
		// sizes fut does not unify).
		if c.instSizes != nil && len(c.errs) == c.defErrStart && len(fb.Params) == 0 {
			c.checkAmbiguousSizes(*c.instSizes, ft)
		}
		c.generalize(ft, outer, &tparams, &sparams)
	}
	c.level = outer
	sch := &Scheme{TParams: tparams, SParams: sparams, Type: zonk(ft)}
	c.info.Defs[fb] = sch
	return sch
}

func stripAscript(p syntax.Pat) syntax.Pat {
	for {
		switch q := p.(type) {
		case *syntax.PParen:
			p = q.P
		case *syntax.PAscript:
			p = q.P
		case *syntax.PAttr:
			p = q.P
		default:
			return p
		}
	}
}

// mentionsSize reports whether t speaks of the size s.
func mentionsSize(t Type, s *SizeName) bool {
	found := false
	walkSizes(t, func(z Size) {
		if sizeMentions(z, s) {
			found = true
		}
	})
	return found
}

func sizeMentions(z Size, s *SizeName) bool {
	switch z := resolveSize(z).(type) {
	case *SizeName:
		return z == s
	case *SizeExpr:
		if z.Op != "" {
			return sizeMentions(z.L, s) || sizeMentions(z.R, s)
		}
	case *SizeTerm:
		for _, a := range z.Args {
			if sizeMentions(a, s) {
				return true
			}
		}
	}
	return false
}

func walkSizes(t Type, f func(Size)) {
	switch t := Resolve(t).(type) {
	case *Array:
		f(t.Dim)
		walkSizes(t.Elem, f)
	case *Record:
		for _, fl := range t.Fields {
			walkSizes(fl.Type, f)
		}
	case *Sum:
		for _, cn := range t.Constrs {
			for _, p := range cn.Payload {
				walkSizes(p, f)
			}
		}
	case *Arrow:
		walkSizes(t.From, f)
		walkSizes(t.To, f)
	case *Con:
		for _, a := range t.Args {
			if a.Type != nil {
				walkSizes(a.Type, f)
			} else {
				f(a.Size)
			}
		}
	}
}

// generalize turns the variables of t above level outer into type and
// size parameters.
func (c *Checker) generalize(t Type, outer int, tparams *[]*TypeCon, sparams *[]*SizeName) {
	n := 0
	// A record whose fields are used but whose type is not known yet
	// keeps the whole function monomorphic, so that its uses decide.
	blocked := false
	var find func(t Type)
	find = func(t Type) {
		switch x := Resolve(t).(type) {
		case TVar:
			if x.fields != nil {
				blocked = true
			}
		case *Array:
			find(x.Elem)
		case *Record:
			for _, f := range x.Fields {
				find(f.Type)
			}
		case *Arrow:
			find(x.From)
			find(x.To)
		}
	}
	find(t)
	var walk func(t Type, inParam bool)
	walk = func(t Type, inParam bool) {
		switch x := Resolve(t).(type) {
		case TVar:
			if blocked {
				return
			}
			if x.level > outer && x.equality && x.overload == nil && !c.reportedAmbiguous[x.tvar] {
				c.reportedAmbiguous[x.tvar] = true
				c.errorf(x.span, "The type of this comparison is ambiguous: it cannot be generalised to a type parameter, as a type parameter does not support equality (add a type annotation).")
				return
			}
			if x.level > outer && x.overload == nil && x.fields == nil && x.constrs == nil {
				c.nextID++
				name := string(rune('a' + n%26))
				n++
				tc := &TypeCon{Name: name, Lifted: x.lifted, id: c.nextID, inferred: true}
				x.link = &Con{Con: tc}
				*tparams = append(*tparams, tc)
			}
		case *Array:
			if v, ok := resolveSize(x.Dim).(SizeVar); ok && v.level > outer {
				sn := c.newSizeName("n")
				if inParam {
					*sparams = append(*sparams, sn)
					v.link = sn
				} else {
					v.link = &SizeAny{}
				}
			}
			walk(x.Elem, inParam)
		case *Record:
			for _, f := range x.Fields {
				walk(f.Type, inParam)
			}
		case *Sum:
			for _, cn := range x.Constrs {
				for _, p := range cn.Payload {
					walk(p, inParam)
				}
			}
		case *Arrow:
			walk(x.From, true)
			walk(x.To, inParam)
		case *Con:
			for _, a := range x.Args {
				if a.Type != nil {
					walk(a.Type, inParam)
				}
			}
		}
	}
	walk(t, false)
}

// checkValDecl checks a top-level def/let/entry and binds it.
func (c *Checker) checkValDecl(d *syntax.ValDecl, sc *scope, exp *ns) {
	if d.Fun.IsOp && (d.Fun.Name == "&&" || d.Fun.Name == "||") {
		c.errorf(d.Fun.NameSpan, "The operator \"%s\" cannot be redefined (it is short-circuiting).", d.Fun.Name)
	}
	if d.Entry && c.modDepth > 0 {
		c.errorf(d.Fun.NameSpan, "Entry points may only be declared at the top level, not inside a module.")
	}
	c.beginDef()
	errsBefore := len(c.errs)
	var inst []instSize
	c.instSizes = &inst
	sch := c.checkFunBind(d.Fun, sc, true)
	c.instSizes = nil
	c.endDef(d.Fun)
	if len(c.errs) == errsBefore {
		c.checkCausality(d.Fun.Name, d.Fun.Params, d.Fun.Body)
	}
	sch.Type = zonk(sch.Type)
	vb := &valBind{name: d.Fun.Name, scheme: sch, span: d.Fun.NameSpan, id: c.freshID(), declared: true, obj: c.declObject(d.Fun)}
	if len(c.errs) == errsBefore {
		c.checkUniqueFun(d.Fun, sch)
	}
	if d.Entry && len(c.errs) == errsBefore {
		c.checkEntry(d, sch)
	}
	sc.vals[d.Fun.Name] = vb
	if exp != nil {
		exp.vals[d.Fun.Name] = vb
	}
}

func unparenExpr(e syntax.Expr) syntax.Expr {
	for {
		p, ok := e.(*syntax.Paren)
		if !ok {
			return e
		}
		e = p.X
	}
}
