package types

// Patterns: their types, and the names they bind.

import (
	"fut/interp/syntax"
)

// bindPat gives the type of p (from its annotations, or fresh variables)
// and binds its names in sc. Names bound twice in one pattern are errors.
func (c *Checker) bindPat(p syntax.Pat, sc *scope, mode dimMode, param bool) Type {
	seen := map[string]syntax.Span{}
	t := c.patType(p, sc, mode, param, seen)
	return t
}

func (c *Checker) patType(p syntax.Pat, sc *scope, mode dimMode, param bool, seen map[string]syntax.Span) Type {
	t := c.patType1(p, sc, mode, param, seen)
	c.info.PatTypes[p] = t
	c.pendPats = append(c.pendPats, p)
	return t
}

func (c *Checker) patType1(p syntax.Pat, sc *scope, mode dimMode, param bool, seen map[string]syntax.Span) Type {
	switch p := p.(type) {
	case *syntax.PId:
		t := c.newTVar(p.Span)
		c.bindName(p, t, sc, param, seen)
		return t
	case *syntax.PWild:
		return c.newTVar(p.Span)
	case *syntax.PParen:
		return c.patType(p.P, sc, mode, param, seen)
	case *syntax.PAttr:
		return c.patType(p.P, sc, mode, param, seen)
	case *syntax.PTuple:
		ts := make([]Type, len(p.Elems))
		for i, q := range p.Elems {
			ts[i] = c.patType(q, sc, mode, param, seen)
		}
		return TupleType(ts...)
	case *syntax.PRecord:
		var fs []Field
		names := map[string]bool{}
		for _, f := range p.Fields {
			if names[f.Name] {
				c.errorf(f.Span, "Duplicate fields in record pattern: \"%s\" appears more than once.", f.Name)
				continue
			}
			names[f.Name] = true
			fs = append(fs, Field{f.Name, c.patType(f.Pat, sc, mode, param, seen)})
		}
		return NewRecord(fs)
	case *syntax.PAscript:
		d := c.typeExpCtx(p.Type, sc, c.patCtx(mode), false)
		if id, ok := unparenPat(p.P).(*syntax.PId); ok {
			c.info.PatTypes[p.P] = d
			c.pendPats = append(c.pendPats, p.P)
			c.bindName(id, d, sc, param, seen)
			return d
		}
		t := c.patType(p.P, sc, mode, param, seen)
		c.unify(syntax.SpanOf(p), d, t)
		return d
	case *syntax.PLit:
		return c.inferExpr(p.Lit, sc)
	case *syntax.PConstr:
		ps := make([]Type, len(p.Args))
		for i, a := range p.Args {
			ps[i] = c.patType(a, sc, mode, param, seen)
		}
		return c.constrVar(p.Span, p.Name, ps)
	}
	c.errorf(syntax.SpanOf(p), "Unsupported pattern.")
	return c.newTVar(syntax.SpanOf(p))
}

// patCtx is the conversion context of pattern annotations: function
// parameters share one context so that their anonymous sizes become size
// parameters.
func (c *Checker) patCtx(mode dimMode) *typeCtx {
	return &typeCtx{mode: mode}
}

func unparenPat(p syntax.Pat) syntax.Pat {
	for {
		switch q := p.(type) {
		case *syntax.PParen:
			p = q.P
		case *syntax.PAttr:
			p = q.P
		default:
			return p
		}
	}
}

func (c *Checker) bindName(p *syntax.PId, t Type, sc *scope, param bool, seen map[string]syntax.Span) {
	if _, dup := seen[p.Name]; dup {
		c.errorf(p.Span, "The name \"%s\" is also bound earlier in the same pattern.", p.Name)
		return
	}
	seen[p.Name] = p.Span
	vb := &valBind{name: p.Name, scheme: &Scheme{Type: t}, span: p.Span, local: true, level: c.level, param: param, id: c.freshID()}
	sc.vals[p.Name] = vb
	c.patBinds[p] = vb
}

// patNames lists the names p binds, in order.
func patNames(p syntax.Pat) []*syntax.PId {
	var out []*syntax.PId
	var walk func(p syntax.Pat)
	walk = func(p syntax.Pat) {
		switch p := p.(type) {
		case *syntax.PId:
			out = append(out, p)
		case *syntax.PParen:
			walk(p.P)
		case *syntax.PAttr:
			walk(p.P)
		case *syntax.PAscript:
			walk(p.P)
		case *syntax.PTuple:
			for _, q := range p.Elems {
				walk(q)
			}
		case *syntax.PRecord:
			for _, f := range p.Fields {
				walk(f.Pat)
			}
		case *syntax.PConstr:
			for _, q := range p.Args {
				walk(q)
			}
		}
	}
	walk(p)
	return out
}
