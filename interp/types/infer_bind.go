package types

// Inference for the binding forms: lambdas, let, loops and match.

import (
	"fmt"

	"fut/interp/syntax"
)

// inferLambdaAs infers a lambda's type, the lambda expected to be of
// type want (nil: nothing expected): its parameters take want's parameter
// types before the body is checked, as a lambda argument that a later
// argument gives its types (lateLambda).
func (c *Checker) inferLambdaAs(e *syntax.Lambda, sc *scope, want Type) Type {
	inner := newScope(sc)
	var ps []Type
	for _, p := range e.Params {
		pt := c.bindPat(p, inner, dimFlex, true)
		if a, ok := Resolve(want).(*Arrow); ok {
			// a mismatch is reported where the lambda is applied
			_ = c.unifyT(a.From, pt, false)
			want = a.To
		} else {
			want = nil
		}
		ps = append(ps, pt)
	}
	bt := c.inferExpr(e.Body, inner)
	if e.RetType != nil {
		rt := c.typeExp(e.RetType, inner, dimFlex)
		c.unifyAt(syntax.SpanOf(e.Body), "Lambda body does not have expected type.", rt, bt, false)
		bt = rt
	}
	bt = zonk(bt)
	c.checkLaterParams(e.Params, ps)
	var named []*SizeName
	for _, p := range e.Params {
		var sn *SizeName
		if id, ok := unparenPat(stripAscript(p)).(*syntax.PId); ok {
			if vb := c.patBinds[id]; vb != nil && vb.size != nil && mentionsSize(bt, vb.size) {
				sn = vb.size
			}
		}
		named = append(named, sn)
	}
	s := &subst{sizes: map[*SizeName]Size{}}
	for _, v := range inner.vals {
		if v.size != nil && !containsSizeName(named, v.size) {
			s.sizes[v.size] = &SizeAny{}
		}
	}
	bt = substType(bt, s)
	for i := len(ps) - 1; i >= 0; i-- {
		bt = &Arrow{From: ps[i], To: bt, Param: named[i]}
	}
	return bt
}

func (c *Checker) inferLetIn(e *syntax.LetIn, sc *scope) Type {
	inner := newScope(sc)
	seen := map[string]syntax.Span{}
	for _, sb := range e.Sizes {
		sn := c.newSizeName(sb.Name)
		c.localSizes[sn] = c.level
		// let [n] p = e: n is whatever size e has there.
		inner.vals[sb.Name] = &valBind{name: sb.Name, scheme: &Scheme{Type: I64}, size: sn, sizeAlias: c.newSizeVar(), span: sb.Span, local: true, level: c.level, id: c.freshID()}
		seen[sb.Name] = sb.Span
	}
	vt := setUnique(c.inferExpr(e.Value, sc), false)
	c.checkIrrefutable(e.Pat)
	for _, sb := range e.Sizes {
		// let [n] (f: [n]t -> u) = e: n is no array's size, so nothing
		// gives its value.
		constructive := false
		for _, te := range patAnnotations(e.Pat) {
			if UsesSizeConstructively(te, sb.Name) {
				constructive = true
			}
		}
		if !constructive && mentionsWord(c.srcText(syntax.SpanOf(e.Pat)), sb.Name) {
			c.errorf(sb.Span, "Cannot bind [%s]: the pattern uses it only in a function type, not as the size of an array it binds.", sb.Name)
		}
	}
	savedFlex := c.anonFlex
	c.anonFlex = anonAscribed
	pt := c.patType(e.Pat, inner, dimFlex, false, seen)
	c.anonFlex = savedFlex
	c.unifyAt(syntax.SpanOf(e.Value), fmt.Sprintf("Pattern %s cannot match a value of the bound expression's type.", c.exprName(e.Pat, "")), pt, vt, false)
	if id, ok := unparenPat(stripAscript(e.Pat)).(*syntax.PId); ok {
		// The size a let-bound i64 stands for, once its name is gone.
		if vb := c.patBinds[id]; vb != nil && isI64(vt) {
			if d := c.exprSize(e.Value, sc); sizeKey(d) != "" {
				c.letSizes[vb] = d
			}
		}
	}
	for _, sb := range e.Sizes {
		if v, ok := resolveSize(inner.vals[sb.Name].sizeAlias).(SizeVar); ok && v.link == nil {
			if mentionsWord(c.srcText(syntax.SpanOf(e.Pat)), sb.Name) {
				c.errorf(sb.Span, "Ambiguous size \"%s\": it is not the size of any array the pattern binds (ambiguous-size).", sb.Name)
			} else {
				c.errorf(sb.Span, "Size [%s] unused in pattern: it must be the size of some array it binds.", sb.Name)
			}
		}
	}
	bt := c.inferExpr(e.Body, inner)
	return c.forgetLocalSizes(bt, inner)
}

func (c *Checker) inferLoop(e *syntax.Loop, sc *scope) Type {
	var it Type
	if e.Init != nil {
		it = c.inferExpr(e.Init, sc)
	} else {
		it = c.patVarsType(e.Pat, sc)
	}
	initSp := syntax.SpanOf(e.Pat)
	if e.Init != nil {
		initSp = syntax.SpanOf(e.Init)
	}
	// The parameter's sizes and everything the body makes are one level
	// in, so that a variant size something outside came to depend on is
	// seen (loop_sizes.go).
	outer := c.level
	c.level++
	defer func() { c.level = outer }()
	ld := &loopDims{level: c.level}
	lt := c.freshLoopDims(zonk(it), ld)
	inner := newScope(sc)
	var explicit []*SizeName
	for _, sb := range e.Sizes {
		sn := c.newSizeName(sb.Name)
		c.localSizes[sn] = c.level
		explicit = append(explicit, sn)
		inner.vals[sb.Name] = &valBind{name: sb.Name, scheme: &Scheme{Type: I64}, size: sn, span: sb.Span, local: true, level: c.level, id: c.freshID()}
	}
	pt := c.bindPat(e.Pat, inner, dimFlex, false)
	c.loopPats[e] = true
	initOK := c.unifyAt(initSp, "Initial loop values do not have expected type.", pt, lt, false)
	if isFunctional(pt) {
		c.errorf(syntax.SpanOf(e.Pat), "Loop parameters may not be of function type (here %s).", quoteT(pt))
	}
	makeUnlifted(pt)
	ld.start = c.nextID
	body := newScope(inner)
	switch f := e.Form.(type) {
	case *syntax.For:
		bt := c.inferExpr(f.Bound, sc)
		v := c.overloadedVar(f.Span, intPrims, "loop bound")
		c.unify(syntax.SpanOf(f.Bound), v, bt)
		body.vals[f.I.Name] = &valBind{name: f.I.Name, scheme: &Scheme{Type: bt}, span: f.I.Span, local: true, level: c.level, id: c.freshID()}
		c.identBinds[f.I] = body.vals[f.I.Name]
	case *syntax.ForIn:
		at := c.inferExpr(f.Arr, sc)
		elem := c.newTVar(f.Span)
		c.unifyNoSizes(syntax.SpanOf(f.Arr), &Array{Dim: &SizeAny{}, Elem: elem}, at)
		pt2 := c.bindPat(f.Pat, body, dimFlex, false)
		c.unify(syntax.SpanOf(f.Pat), pt2, elem)
	case *syntax.While:
		ct := c.inferExpr(f.Cond, inner)
		c.unify(syntax.SpanOf(f.Cond), Bool, ct)
	}
	bt := c.inferExpr(e.Body, body)
	if !initOK {
		return c.forgetLocalSizes(pt, inner)
	}
	n := len(c.errs)
	sparams := append(explicit, c.loopSizeParams(ld, pt, lt, bt, syntax.SpanOf(e.Body), syntax.SpanOf(e.Pat), e.Pat)...)
	if len(c.errs) > n {
		return c.forgetLocalSizes(pt, inner)
	}
	// The body must return the parameter's type for any variant sizes,
	// and the initial value must have it.
	newVar := func() Size { return c.newSizeVar() }
	if pb := instLoopSizes(pt, sparams, newVar); !c.unifyAt(syntax.SpanOf(e.Body), "Loop body does not have expected type.", pb, bt, false) {
		return c.forgetLocalSizes(pt, inner)
	}
	if pi := instLoopSizes(pt, sparams, newVar); !c.unifyAt(initSp, "Initial loop values do not have expected type.", pi, it, false) {
		return c.forgetLocalSizes(pt, inner)
	}
	c.level = outer
	res := instLoopSizes(pt, sparams, func() Size { return c.unknownFrom("size of loop result", e.Span) })
	res = uniqueLike(res, c.joinTypes(pt, bt))
	return c.forgetLocalSizes(res, inner)
}

// patVarsType is the type of a loop pattern without initial value: the
// current types of its variables.
func (c *Checker) patVarsType(p syntax.Pat, sc *scope) Type {
	switch p := p.(type) {
	case *syntax.PId:
		v := sc.lookupVal(p.Name)
		if v == nil || v.builtin != "" {
			c.errorf(p.Span, "Unknown name \"%s\".", p.Name)
			return c.newTVar(p.Span)
		}
		c.loopInit[p] = v
		return c.instantiate(v.scheme, p.Span)
	case *syntax.PParen:
		return c.patVarsType(p.P, sc)
	case *syntax.PAscript:
		return c.patVarsType(p.P, sc)
	case *syntax.PTuple:
		ts := make([]Type, len(p.Elems))
		for i, q := range p.Elems {
			ts[i] = c.patVarsType(q, sc)
		}
		return TupleType(ts...)
	}
	return c.newTVar(syntax.SpanOf(p))
}

func (c *Checker) inferMatch(e *syntax.Match, sc *scope) Type {
	xt := c.inferExpr(e.X, sc)
	var res Type
	for _, cs := range e.Cases {
		inner := newScope(sc)
		pt := c.bindPat(cs.Pat, inner, dimFlex, false)
		c.unifyAt(syntax.SpanOf(cs.Pat), "Pattern does not match the type of the value being matched.", xt, pt, false)
		bt := c.inferExpr(cs.Body, inner)
		bt = c.forgetLocalSizes(bt, inner)
		if res == nil {
			res = bt
			continue
		}
		if c.unifyAt(syntax.SpanOf(cs.Body), "The branches of this match differ in type.", res, bt, true) {
			res = c.joinTypes(res, bt)
		}
	}
	if res == nil {
		return c.newTVar(e.Span)
	}
	if isFunctional(res) {
		c.errorf(e.Span, "Match branches may not be of function type (here %s).", quoteT(res))
	}
	c.matches = append(c.matches, e)
	return res
}

// makeUnlifted forbids the open parts of t to become functions (loop
// parameters may not be functions).
func makeUnlifted(t Type) {
	switch t := Resolve(t).(type) {
	case TVar:
		t.lifted = syntax.Unlifted
	case *Record:
		for _, f := range t.Fields {
			makeUnlifted(f.Type)
		}
	case *Array:
		makeUnlifted(t.Elem)
	}
}

// patAnnotations lists the type annotations in a pattern.
func patAnnotations(p syntax.Pat) []syntax.TypeExp {
	var out []syntax.TypeExp
	var walk func(p syntax.Pat)
	walk = func(p syntax.Pat) {
		switch q := p.(type) {
		case *syntax.PParen:
			walk(q.P)
		case *syntax.PAttr:
			walk(q.P)
		case *syntax.PAscript:
			out = append(out, q.Type)
			walk(q.P)
		case *syntax.PTuple:
			for _, e := range q.Elems {
				walk(e)
			}
		case *syntax.PRecord:
			for _, f := range q.Fields {
				walk(f.Pat)
			}
		case *syntax.PConstr:
			for _, a := range q.Args {
				walk(a)
			}
		}
	}
	walk(p)
	return out
}

// lateLambda is args[i] when it is a lambda to check after the arguments
// that follow it, so that its parameters have the types those give
// (map (\n -> n with body = 0) octree: a record update needs the whole
// type of n, which octree gives), as Futhark checks it; nil otherwise.
// Only a lambda that needs a parameter's whole type is checked late (its
// body updates a record), so that every other application is checked,
// and reports its errors, in the order written.
func lateLambda(args []syntax.Expr, i int) *syntax.Lambda {
	if i == len(args)-1 {
		return nil
	}
	lam, ok := unparenExpr(args[i]).(*syntax.Lambda)
	if !ok {
		return nil
	}
	updates := false
	syntax.Inspect(lam.Body, func(n syntax.Node) bool {
		if u, ok := n.(*syntax.Update); ok && len(u.Path) > 0 && u.Path[0].Indices == nil {
			updates = true
		}
		return !updates
	})
	if !updates {
		return nil
	}
	return lam
}
