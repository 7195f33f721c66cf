package eval

// Context sizes read off the arguments' coercions: in
// `unflatten (xs :> [2 * 3]i32)` the parameter [n * m]t meets the
// coercion [2 * 3]i32, so n = 2 and m = 3, as Futhark unifies size
// expressions by their form. Used for the sizes that the checker's
// instantiation (SizeArger) left open.

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// sizesFromCoercions returns f with the context sizes that its
// arguments' coercions fix bound, or f itself.
func (t *thread) sizesFromCoercions(f value.Value, args []syntax.Expr, e *env) value.Value {
	fn, ok := f.(*value.Fun)
	if !ok {
		return f
	}
	c, ok := fn.Impl.(*closure)
	if !ok || len(c.ctxSizes) == 0 {
		return f
	}
	open := false
	for _, n := range c.ctxSizes {
		if _, bound := c.env.lookupLocal(n); !bound {
			open = true
		}
	}
	if !open {
		return f
	}
	env := c.env
	for i, a := range args {
		if i >= len(c.params) {
			break
		}
		pt := paramType(c.params[i])
		at := coercedType(a)
		if pt == nil || at == nil {
			continue
		}
		env = t.matchDims(pt, at, env, c.ctxSizes, e)
	}
	if env == c.env {
		return f
	}
	c2 := *c
	c2.env = env
	c2.flat = nil // its flat kernels may hold values of c's environment
	return mkFun(&c2)
}

// paramType is the type ascribed to a parameter pattern, or nil.
func paramType(p syntax.Pat) syntax.TypeExp {
	for {
		switch q := p.(type) {
		case *syntax.PParen:
			p = q.P
		case *syntax.PAttr:
			p = q.P
		case *syntax.PAscript:
			return q.Type
		default:
			return nil
		}
	}
}

// coercedType is the type of an argument written e :> t or e : t.
func coercedType(a syntax.Expr) syntax.TypeExp {
	for {
		switch x := a.(type) {
		case *syntax.Paren:
			a = x.X
		case *syntax.Coerce:
			return x.Type
		case *syntax.Ascript:
			return x.Type
		default:
			return nil
		}
	}
}

// matchDims binds the unbound names among sizes that pt's dimensions
// have where at has an expression of the same form, evaluated in the
// caller's environment ce (free of cost).
func (t *thread) matchDims(pt, at syntax.TypeExp, env *env, sizes []string, ce *env) *env {
	for {
		pa, ok1 := stripParens(pt).(*syntax.TEArray)
		aa, ok2 := stripParens(at).(*syntax.TEArray)
		if !ok1 || !ok2 {
			return env
		}
		env = t.matchDim(pa.Dim, aa.Dim, env, sizes, ce)
		pt, at = pa.Elem, aa.Elem
	}
}

func (t *thread) matchDim(pd, ad syntax.Expr, env *env, sizes []string, ce *env) *env {
	pd, ad = unparen(pd), unparen(ad)
	switch p := pd.(type) {
	case *syntax.Var:
		n := p.Name.Name
		if len(p.Name.Quals) > 0 || !contains(sizes, n) || ad == nil {
			return env
		}
		if _, bound := env.lookupLocal(n); bound {
			return env
		}
		w, d, pk1, pkP, live := t.W, t.D, t.pk1, t.pkP, t.live
		v, err := t.evalCached(ad, ce)
		t.W, t.D, t.pk1, t.pkP, t.live = w, d, pk1, pkP, live
		if err != nil {
			return env
		}
		if x, ok := v.(value.Prim); ok && x.T.IsInt() {
			return env.bind(n, value.I64Val(x.Int()))
		}
	case *syntax.Binary:
		a, ok := ad.(*syntax.Binary)
		if !ok || a.Op.String() != p.Op.String() {
			return env
		}
		env = t.matchDim(p.L, a.L, env, sizes, ce)
		return t.matchDim(p.R, a.R, env, sizes, ce)
	}
	return env
}
