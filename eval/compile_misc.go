package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Compiled forms of the less common expressions: ranges, coercions,
// attributes, constructors, strings, projection and index sections,
// M.(e), ???, and operators other than the built-in ones. Where a helper
// reads an environment for more than names (the locals a #[break]
// reports, the sizes of a coercion's type), the compiled form gives it
// the frame's (envAt).

// rangeExpr compiles a..b, a..s...b, a..<b and a..>b.
func (cc *ccomp) rangeExpr(x *syntax.Range, sc *cscope) cexpr {
	parts := []cindex{{x.Start, cc.expr(x.Start, sc)}}
	if x.Second != nil {
		parts = append(parts, cindex{x.Second, cc.expr(x.Second, sc)})
	}
	parts = append(parts, cindex{x.Stop, cc.expr(x.Stop, sc)})
	return func(t *thread, bp int) (value.Value, error) {
		return t.rangeBy(x, func(y syntax.Expr) (value.Value, error) {
			for _, p := range parts {
				if p.x == y {
					return p.c(t, bp)
				}
			}
			return nil, t.errf(y.Pos(), "cannot evaluate %T in a range", y) // rangeBy asks for the parts only
		})
	}
}

// coerce compiles e :> t by its form: e, then its sizes checked against
// t's, which checkType works out in the frame's environment (a size may
// be any expression, evaluated there), then the form's rule.
func (cc *ccomp) coerce(x *syntax.Coerce, sc *cscope) cexpr {
	fm, _ := formOf(x)
	a := cc.expr(fm.ops[0], sc)
	wc := walkReason("sizes of a coercion's type")
	return func(t *thread, bp int) (value.Value, error) {
		base := t.live
		v, err := a(t, bp)
		if err != nil {
			return nil, err
		}
		prev := t.enterWalk(wc)
		err = t.checkType(v, x.Type, t.envAt(bp, sc), x.Pos())
		t.wc = prev
		if err != nil {
			return nil, err
		}
		t.after(fm.rule, base)
		return v, nil
	}
}

// attr compiles #[attr] e: #[break] reports the frame's locals before e,
// #[trace] reports e's value after it.
func (cc *ccomp) attr(x *syntax.Attr, sc *cscope) cexpr {
	a := cc.expr(x.X, sc)
	return func(t *thread, bp int) (value.Value, error) {
		return t.attrBy(x, func() []Binding { return t.envAt(bp, sc).locals() }, func() (value.Value, error) { return a(t, bp) })
	}
}

// constr compiles #c e1 … en.
func (cc *ccomp) constr(x *syntax.Constr, sc *cscope) cexpr {
	args := cc.exprs(x.Args, sc)
	return func(t *thread, bp int) (value.Value, error) {
		vals := make([]value.Value, len(args))
		for i, a := range args {
			v, err := a(t, bp)
			if err != nil {
				return nil, err
			}
			vals[i] = v
		}
		return &value.Sum{Constr: x.Name, Payload: vals}, nil
	}
}

// stringLit compiles "…": a fresh u8 array each time (stringValue).
func (cc *ccomp) stringLit(x *syntax.StringLit) cexpr {
	return func(t *thread, bp int) (value.Value, error) {
		return t.stringValue(x.Value), nil
	}
}

// projSection compiles (.a.b) and (.[i].c): a function that applies the
// path, its indices evaluated (evalCached) where it is applied, in the
// frame's environment as it is now.
func (cc *ccomp) projSection(path []syntax.PathElem, sc *cscope) cexpr {
	return func(t *thread, bp int) (value.Value, error) {
		return mkFun(&projFn{path: path, env: t.envAt(bp, sc)}), nil
	}
}

// qualParen compiles M.(e): e runs in an environment of M's names over
// the frame's (they shadow the locals), compiled as
// the body of a closure without parameters, once per node.
func (cc *ccomp) qualParen(x *syntax.QualParen, sc *cscope) cexpr {
	var k *code
	return func(t *thread, bp int) (value.Value, error) {
		e, err := t.qualEnv(x, t.envAt(bp, sc))
		if err != nil {
			return nil, err
		}
		c := &closure{body: x.X, env: e}
		if k == nil {
			k = t.compileClosure(c)
			k.bare = true
		}
		return k.run(t, c, nil)
	}
}

// opVar compiles the value of the operator q written at pos, as opValue
// gives it: the binding of its name where one is visible (a local, a
// module-level definition), else the built-in operator.
func (cc *ccomp) opVar(q syntax.QualName, pos syntax.Pos, sc *cscope) cexpr {
	return cc.variable(&syntax.Var{Loc: syntax.Loc{Span: syntax.Span{Start: pos, End: pos}}, Name: q}, sc)
}

// userBinary compiles l op r where op is not the built-in operator, by
// its form (userOpForm): the operator's value, then the operands, then
// the application, the form's rule and the operands' release.
func (cc *ccomp) userBinary(x *syntax.Binary, sc *cscope) cexpr {
	pos := x.OpSpan.Start
	fm := userOpForm(x)
	f, l, r := cc.opVar(x.Op, pos, sc), cc.expr(fm.ops[0], sc), cc.expr(fm.ops[1], sc)
	return func(t *thread, bp int) (value.Value, error) {
		base := t.live
		fv, err := f(t, bp)
		if err != nil {
			return nil, err
		}
		lv, err := l(t, bp)
		if err != nil {
			return nil, err
		}
		rv, err := r(t, bp)
		if err != nil {
			return nil, err
		}
		held := t.live - base
		v, err := t.apply2(fv, lv, rv, pos)
		t.after(fm.rule, base)
		if fm.hold {
			t.meter.release(held)
		}
		return v, err
	}
}
