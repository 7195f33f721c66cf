package lower

import (
	"fut/interp/ir"
	"fut/interp/syntax"
)

// jvp2 f x dx and vjp2 f x ybar (the intrinsics behind the prelude's jvp
// and vjp): f is lowered to a lambda over parameters of x's types and
// shapes, differentiated by JVP (ad.go), and inlined.

// adLambda lowers f applied to a value of x's shape.
func (l *lowerer) adLambda(f, x lv, at syntax.Node) (*ir.Lambda, lv, []ir.Atom, []ir.Type) {
	as, ts := l.flatten(x, at)
	params := make([]ir.Param, len(as))
	pas := make([]ir.Atom, len(as))
	for i, t := range ts {
		params[i] = ir.Param{Name: l.fresh("x"), T: noUnique(t)}
		pas[i] = ir.V(params[i].Name)
	}
	lam, r := l.lambda(f, params, []lv{rebuild(x, pas, ts, 0)}, at)
	return lam, r, as, ts
}

// inline emits lam's body with its parameters bound to args and returns
// its results.
func inline(b *builder, lam *ir.Lambda, args []ir.Atom) []ir.Atom {
	for i, p := range lam.Params {
		b.stms = append(b.stms, &ir.Stm{Pat: []ir.Param{p}, E: &ir.AtomE{X: args[i]}})
	}
	b.stms = append(b.stms, lam.Body.Stms...)
	return lam.Body.Res
}

func (l *lowerer) jvp2(b *builder, f, x, dx lv, at syntax.Node) lv {
	lam, r, as, _ := l.adLambda(f, x, at)
	dl, err := ir.JVPIn(lam, l.fresh, l.scopeTypes(b))
	if err != nil {
		l.fail(at, "%v", err)
	}
	das, dts := l.flatten(dx, at)
	if len(das) != len(as) {
		l.fail(at, "a tangent of another shape than the point")
	}
	for i, p := range lam.Params {
		if !dts[i].Equal(p.T) && !das[i].IsConst() {
			// sizes the checker proved equal, computed apart
			das[i] = l.resized(b, &lvAtom{das[i], dts[i]}, p.T, at).a
		}
	}
	res := inline(b, dl, append(append([]ir.Atom{}, as...), das...))
	m := len(lam.Ret)
	return &lvTuple{elems: []lv{rebuild(r, res[:m], lam.Ret, 0), rebuild(r, res[m:], lam.Ret, 0)}}
}

// vjp2 computes the adjoint of x as the reference path does, by
// VJPByForward (ad_vjp.go): for each scalar of x, the forward derivative
// along that scalar's unit vector, dotted (in f64) with ybar.
func (l *lowerer) vjp2(b *builder, f, x, ybar lv, at syntax.Node) lv {
	lam, r, as, ts := l.adLambda(f, x, at)
	vl, err := ir.VJPIn(lam, l.fresh, l.scopeTypes(b))
	if err != nil {
		l.fail(at, "%v", err)
	}
	ys, yts := l.flatten(ybar, at)
	if len(ys) != len(lam.Ret) {
		l.fail(at, "an adjoint of another shape than the result")
	}
	for i, t := range lam.Ret {
		if !yts[i].Equal(t) && !ys[i].IsConst() {
			// sizes the checker proved equal, computed apart
			ys[i] = l.resized(b, &lvAtom{ys[i], yts[i]}, t, at).a
		}
	}
	res := inline(b, vl, append(append([]ir.Atom{}, as...), ys...))
	m := len(lam.Ret)
	return &lvTuple{elems: []lv{rebuild(r, res[:m], lam.Ret, 0), rebuild(x, res[m:], noUniques(ts), 0)}}
}

// scopeTypes gives the types of the names f's lambda may use from
// outside: the program's parameters and what b has bound (names bound
// by builders around b are not seen; a lambda that needs one of their
// types fails to differentiate, and the expression is not lowered).
func (l *lowerer) scopeTypes(b *builder) map[string]ir.Type {
	return ir.AllTypes(&ir.Prog{Params: l.params, Body: &ir.Body{Stms: b.stms}})
}
