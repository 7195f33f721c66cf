package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Compiled matches: match e case p -> b …: the scrutinee, the match's (1, 1), then the
// first case whose pattern matches, its names bound in slots. A pattern
// is tried as matchPat tries it.

// cmatch matches a value against a compiled refutable pattern, binding
// its names as it goes.
type cmatch func(t *thread, bp int, v value.Value) (bool, error)

func (cc *ccomp) match(x *syntax.Match, sc *cscope) cexpr {
	scrut := cc.expr(x.X, sc)
	type ccase struct {
		m    cmatch
		body cexpr
	}
	cases := make([]ccase, len(x.Cases))
	for i, c := range x.Cases {
		m, csc := cc.matcher(c.Pat, sc)
		cases[i] = ccase{m, cc.expr(c.Body, csc)}
	}
	return func(t *thread, bp int) (value.Value, error) {
		base := t.live
		v, err := scrut(t, bp)
		if err != nil {
			return nil, err
		}
		t.controlStep(base)
		for _, c := range cases {
			ok, err := c.m(t, bp, v)
			if err != nil {
				return nil, err
			}
			if ok {
				return c.body(t, bp)
			}
		}
		return nil, t.errf(x.Pos(), "no case matches the value %s", short(value.String(v)))
	}
}

// matcher compiles p as matchPat matches it.
func (cc *ccomp) matcher(p syntax.Pat, sc *cscope) (cmatch, *cscope) {
	switch p := p.(type) {
	case *syntax.PParen:
		return cc.matcher(p.P, sc)
	case *syntax.PAttr:
		return cc.matcher(p.P, sc)
	case *syntax.PAscript:
		return cc.matcher(p.P, sc)
	case *syntax.PLit:
		lit, err := cc.t.literalValue(p.Lit)
		if err != nil {
			// as matchPat: the error, where the match is tried
			return func(t *thread, bp int, v value.Value) (bool, error) {
				_, err := t.literalValue(p.Lit)
				return false, err
			}, sc
		}
		return func(t *thread, bp int, v value.Value) (bool, error) {
			pv, ok := primOf(v)
			if !ok {
				return false, nil
			}
			l := lit
			if l.T != pv.T {
				l = value.Convert(l, pv.T)
			}
			return value.Identical(l, pv), nil
		}, sc
	case *syntax.PConstr:
		ms, sc := cc.matchers(p.Args, sc)
		return func(t *thread, bp int, v value.Value) (bool, error) {
			s, ok := v.(*value.Sum)
			if !ok || s.Constr != p.Name || len(s.Payload) != len(ms) {
				return false, nil
			}
			return matchAll(t, bp, ms, s.Payload)
		}, sc
	case *syntax.PTuple:
		ms, sc := cc.matchers(p.Elems, sc)
		return func(t *thread, bp int, v value.Value) (bool, error) {
			parts, ok := tupleParts(v, len(ms))
			if !ok {
				return false, nil
			}
			return matchAll(t, bp, ms, parts)
		}, sc
	case *syntax.PRecord:
		pats := make([]syntax.Pat, len(p.Fields))
		for i, f := range p.Fields {
			if pats[i] = f.Pat; f.Pat == nil {
				pats[i] = &syntax.PId{Loc: f.Loc, Name: f.Name}
			}
		}
		ms, sc := cc.matchers(pats, sc)
		return func(t *thread, bp int, v value.Value) (bool, error) {
			r, ok := v.(*value.Record)
			if !ok {
				return false, nil
			}
			for i, f := range p.Fields {
				fv, ok := r.Field(f.Name)
				if !ok {
					return false, nil
				}
				if ok, err := ms[i](t, bp, fv); !ok || err != nil {
					return false, err
				}
			}
			return true, nil
		}, sc
	}
	// a name, _, or what bindPat binds (or refuses, with its error)
	b, sc := cc.pat(p, sc)
	return func(t *thread, bp int, v value.Value) (bool, error) {
		err := b(t, bp, v)
		return err == nil, err
	}, sc
}

func (cc *ccomp) matchers(ps []syntax.Pat, sc *cscope) ([]cmatch, *cscope) {
	ms := make([]cmatch, len(ps))
	for i, q := range ps {
		ms[i], sc = cc.matcher(q, sc)
	}
	return ms, sc
}

func matchAll(t *thread, bp int, ms []cmatch, vs []value.Value) (bool, error) {
	for i, m := range ms {
		if ok, err := m(t, bp, vs[i]); !ok || err != nil {
			return false, err
		}
	}
	return true, nil
}
