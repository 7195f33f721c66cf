package types

// Turning type expressions as written into types.

import (
	"fut/interp/syntax"
)

// dimMode says what an anonymous size [] becomes.
type dimMode int

const (
	dimFlex  dimMode = iota // a fresh size variable (ascriptions, lambdas)
	dimParam                // a fresh size parameter (function parameters)
	dimAny                  // an untracked size (type abbreviations)
)

// typeCtx collects the sizes invented while converting one type.
type typeCtx struct {
	mode   dimMode
	params []*SizeName // anonymous size parameters
}

func (c *Checker) typeExp(te syntax.TypeExp, sc *scope, mode dimMode) Type {
	ctx := &typeCtx{mode: mode}
	return c.typeExpCtx(te, sc, ctx, false)
}

func (c *Checker) lookupTypeName(q syntax.QualName, sc *scope, sp syntax.Span) *TypeDef {
	if len(q.Quals) == 0 {
		if d := sc.lookupType(q.Name); d != nil {
			return d
		}
		c.errorf(sp, "Unknown type \"%s\".", q.Name)
		return nil
	}
	m := c.lookupModPath(q.Quals, sc, sp)
	if m == nil {
		return nil
	}
	if d, ok := m.types[q.Name]; ok {
		return d
	}
	c.errorf(sp, "Unknown type \"%s\": module %s has no type \"%s\".", q.String(), joinQuals(q.Quals), q.Name)
	return nil
}

func (c *Checker) typeExpCtx(te syntax.TypeExp, sc *scope, ctx *typeCtx, result bool) Type {
	switch te := te.(type) {
	case *syntax.TEVar:
		d := c.lookupTypeName(te.Name, sc, te.Span)
		if d == nil {
			return c.newTVar(te.Span)
		}
		if len(d.Params) > 0 {
			c.errorf(te.Span, "Type \"%s\" takes %d arguments, but is used without any.", te.Name, len(d.Params))
			return c.newTVar(te.Span)
		}
		return c.freshAnonSizes(d.Body, te.Span, ctx)
	case *syntax.TEParen:
		return c.typeExpCtx(te.T, sc, ctx, result)
	case *syntax.TETuple:
		ts := make([]Type, len(te.Elems))
		for i, e := range te.Elems {
			ts[i] = c.typeExpCtx(e, sc, ctx, result)
		}
		return TupleType(ts...)
	case *syntax.TERecord:
		fs := make([]Field, 0, len(te.Fields))
		seen := map[string]bool{}
		for _, f := range te.Fields {
			if seen[f.Name] {
				c.errorf(f.Span, "Duplicate field \"%s\" in record type.", f.Name)
				continue
			}
			seen[f.Name] = true
			fs = append(fs, Field{f.Name, c.typeExpCtx(f.Type, sc, ctx, result)})
		}
		return NewRecord(fs)
	case *syntax.TEArray:
		elem := c.typeExpCtx(te.Elem, sc, ctx, result)
		if v, ok := unparenType(te.Elem).(*syntax.TEVar); ok {
			if d := c.lookupTypeNameQuiet(v.Name, sc); d != nil && d.Lifted != syntax.Unlifted {
				c.errorf(te.Span, "Cannot create array with elements of lifted type \"%s\" (it might contain functions or anonymous sizes).", v.Name)
			}
		}
		if isFunctional(elem) {
			c.errorf(te.Span, "Cannot create array with elements of lifted type %s (arrays of functional values are not allowed).", quoteT(elem))
		}
		return &Array{Dim: c.dimExp(te.Dim, sc, ctx, result), Elem: elem}
	case *syntax.TEUnique:
		return setUnique(c.typeExpCtx(te.T, sc, ctx, result), true)
	case *syntax.TEArrow:
		inner := sc
		var param *SizeName
		if te.Param != "" {
			if v := sc.lookupVal(te.Param); v != nil && v.arrowParam {
				c.errorf(te.Span, "The parameter name \"%s\" is used twice in this function type.", te.Param)
			}
			inner = newScope(sc)
			param = c.newSizeName(te.Param)
			inner.vals[te.Param] = &valBind{name: te.Param, scheme: &Scheme{Type: I64}, size: param, span: te.Span, arrowParam: true}
		}
		from := c.typeExpCtx(te.From, sc, ctx, false)
		if param != nil {
			inner.vals[te.Param].scheme = &Scheme{Type: from}
		}
		a := &Arrow{Param: param, From: from}
		if ex, ok := te.To.(*syntax.TEExist); ok {
			inner2 := newScope(inner)
			for _, n := range ex.Sizes {
				if !UsesSizeConstructively(ex.T, n) {
					c.errorf(ex.Span, "Existential size \"%s\" not used as array size (unused-existential).", n)
				}
				sn := c.newUnknown(n)
				inner2.vals[n] = &valBind{name: n, scheme: &Scheme{Type: I64}, size: sn, span: ex.Span}
				a.Exist = append(a.Exist, sn)
			}
			a.To = c.typeExpCtx(ex.T, inner2, ctx, true)
		} else {
			a.To = c.typeExpCtx(te.To, inner, ctx, true)
		}
		if ctx.mode == dimParam {
			// Anonymous sizes in the final result are existential.
			if _, isArrow := te.To.(*syntax.TEArrow); !isArrow {
				a.Exist = append(a.Exist, c.takeResultUnknowns()...)
			}
		}
		return a
	case *syntax.TESum:
		if len(te.Constrs) > 256 {
			c.errorf(te.Span, "A sum type may have at most 256 constructors, but this one has %d.", len(te.Constrs))
		}
		cs := make([]Constr, 0, len(te.Constrs))
		seen := map[string]bool{}
		for _, k := range te.Constrs {
			if seen[k.Name] {
				c.errorf(k.Span, "Duplicate constructor #%s in sum type.", k.Name)
				continue
			}
			seen[k.Name] = true
			ps := make([]Type, len(k.Payload))
			for i, p := range k.Payload {
				ps[i] = c.typeExpCtx(p, sc, ctx, result)
			}
			cs = append(cs, Constr{k.Name, ps})
		}
		return newSum(cs)
	case *syntax.TEApply:
		name, ok := te.Fn.(*syntax.TEVar)
		if !ok {
			c.errorf(te.Span, "Only a type name can be applied to type arguments.")
			return c.newTVar(te.Span)
		}
		d := c.lookupTypeName(name.Name, sc, name.Span)
		if d == nil {
			return c.newTVar(te.Span)
		}
		if len(d.Params) != len(te.Args) {
			c.errorf(te.Span, "Type \"%s\" takes %d arguments, but is given %d.", name.Name, len(d.Params), len(te.Args))
			return c.newTVar(te.Span)
		}
		args := make([]TypeArg, len(te.Args))
		for i, a := range te.Args {
			p := d.Params[i]
			if a.IsSize {
				if p.Size == nil {
					c.errorf(a.Span, "Type \"%s\" expects a type as argument %d, but is given a size.", name.Name, i+1)
					return c.newTVar(te.Span)
				}
				args[i] = TypeArg{Size: c.dimExp(a.Dim, sc, ctx, result)}
			} else {
				if p.Con == nil {
					c.errorf(a.Span, "Type \"%s\" expects a size as argument %d, but is given a type.", name.Name, i+1)
					return c.newTVar(te.Span)
				}
				at := c.typeExpCtx(a.Type, sc, ctx, result)
				if p.Con.Lifted == syntax.Unlifted && isFunctional(at) {
					c.errorf(a.Span, "The non-lifted type parameter \"%s\" of \"%s\" cannot be given the function type %s.", p.Con.Name, name.Name, quoteT(at))
				}
				args[i] = TypeArg{Type: at}
			}
		}
		return c.freshAnonSizes(applyTypeDef(d, args), te.Span, ctx)
	case *syntax.TEExist:
		inner := newScope(sc)
		for _, n := range te.Sizes {
			if !UsesSizeConstructively(te.T, n) {
				c.errorf(te.Span, "Existential size \"%s\" not used as array size (unused-existential).", n)
			}
			vb := &valBind{name: n, scheme: &Scheme{Type: I64}, size: c.newUnknown(n), span: te.Span}
			if ctx.mode == dimAny {
				// In a type abbreviation: fresh at each use, so untracked
				// (but for a binding's annotation: flexsizes.go).
				vb.sizeAlias = &SizeAny{anon: true}
			}
			if ctx.mode == dimFlex {
				// A declared result type checked against a body: the
				// existential sizes are whatever the body gives.
				vb.sizeAlias = c.newSizeVar()
			}
			inner.vals[n] = vb
		}
		return c.typeExpCtx(te.T, inner, ctx, result)
	}
	c.errorf(syntax.SpanOf(te), "Unsupported type expression.")
	return c.newTVar(syntax.SpanOf(te))
}

func (c *Checker) takeResultUnknowns() []*SizeName {
	r := c.resultUnknowns
	c.resultUnknowns = nil
	return r
}

func newSum(cs []Constr) *Sum {
	s := &Sum{Constrs: cs}
	sortConstrs(s.Constrs)
	return s
}

func (c *Checker) dimExp(d syntax.Expr, sc *scope, ctx *typeCtx, result bool) Size {
	if d == nil {
		switch {
		case ctx.mode == dimParam && result:
			u := c.newUnknown("d")
			c.resultUnknowns = append(c.resultUnknowns, u)
			return u
		case ctx.mode == dimParam:
			sn := c.newSizeName("d")
			ctx.params = append(ctx.params, sn)
			c.anonParams = append(c.anonParams, sn)
			return sn
		case ctx.mode == dimFlex:
			v := c.newSizeVar()
			v.declared = c.anonFlex == anonResult
			return v
		}
		// In a type abbreviation: fresh at each use (flexsizes.go).
		return &SizeAny{anon: true}
	}
	switch d := d.(type) {
	case *syntax.IntLit:
		c.info.Types[d] = I64
		return &SizeConst{N: d.Value.Int64()}
	case *syntax.Var:
		c.info.Types[d] = I64
		if len(d.Name.Quals) == 0 {
			v := sc.lookupVal(d.Name.Name)
			if v == nil || v.builtin != "" {
				c.errorf(d.Span, "Unknown size \"%s\": it must be a size parameter or a variable of type i64 in scope.", d.Name.Name)
				return &SizeAny{}
			}
			if v.scheme != nil && len(v.scheme.TParams) == 0 {
				if err := c.unifyT(I64, v.scheme.Type, true); err != nil {
					c.errorf(d.Span, "\"%s\" is used as a size, so it must have type i64, but it has type %s.", d.Name.Name, quoteT(v.scheme.Type))
					return &SizeAny{}
				}
			}
			c.recordUse(d, v) // a size in a type denotes a variable too
			return c.sizeOfBinding(v)
		}
		if m := sc.lookupMod(d.Name.Quals[0]); m != nil && !c.valShadowsMod(sc, d.Name.Quals[0]) {
			for _, q := range d.Name.Quals[1:] {
				if m = m.mods[q]; m == nil {
					break
				}
			}
			if m != nil {
				if v, ok := m.vals[d.Name.Name]; ok && v.builtin == "" {
					c.recordUse(d, v)
					// named as written (Size.n), so that a size argument
					// the checker infers from it (SizeArgs) is an
					// expression in scope where the size was written,
					// not the bare member name
					return c.sizeOfBindingNamed(v, d.Name.String())
				}
			}
			c.errorf(d.Span, "Unknown size \"%s\".", d.Name)
			return &SizeAny{}
		}
	case *syntax.Paren:
		c.info.Types[d] = I64
		return c.dimExp(d.X, sc, ctx, result)
	}
	// A size expression: check it as an i64 expression. One that binds
	// names could not be compared with another, and is not allowed.
	if b := bindingIn(d); b != nil {
		c.errorf(syntax.SpanOf(b), "Size expression with binding is forbidden (size-expression-bind): a size in a type may not contain a let, a lambda, a loop or a match.")
		return &SizeAny{}
	}
	t := c.inferExpr(d, sc)
	c.unify(syntax.SpanOf(d), I64, t)
	return c.exprSize(d, sc)
}

// bindingIn is the first expression in e that binds names (a let, a local
// function, a lambda, a loop, an in-place update binding, a match), or
// nil: as in Futhark, such an expression cannot be a size.
func bindingIn(e syntax.Expr) syntax.Expr {
	var found syntax.Expr
	syntax.Inspect(e, func(n syntax.Node) bool {
		if found != nil {
			return false
		}
		switch x := n.(type) {
		case *syntax.LetIn, *syntax.LetFun, *syntax.Lambda, *syntax.Loop, *syntax.LetWith, *syntax.Match:
			found = x.(syntax.Expr)
			return false
		}
		return true
	})
	return found
}

func unparenType(te syntax.TypeExp) syntax.TypeExp {
	for {
		p, ok := te.(*syntax.TEParen)
		if !ok {
			return te
		}
		te = p.T
	}
}

func (c *Checker) lookupTypeNameQuiet(q syntax.QualName, sc *scope) *TypeDef {
	n := len(c.errs)
	d := c.lookupTypeName(q, sc, syntax.Span{})
	c.errs = c.errs[:n]
	return d
}
