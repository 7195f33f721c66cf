package ir

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// jvp2 f x dx and vjp2 f x ybar (the intrinsics behind the prelude's jvp
// and vjp): f is lowered to a lambda over parameters of x's types and
// shapes, differentiated by JVP (ad.go), and inlined.

// adLambda lowers f applied to a value of x's shape.
func (l *lowerer) adLambda(f, x lv, at syntax.Node) (*Lambda, lv, []Atom, []Type) {
	as, ts := l.flatten(x, at)
	params := make([]Param, len(as))
	pas := make([]Atom, len(as))
	for i, t := range ts {
		params[i] = Param{l.fresh("x"), noUnique(t)}
		pas[i] = V(params[i].Name)
	}
	lam, r := l.lambda(f, params, []lv{rebuild(x, pas, ts, 0)}, at)
	return lam, r, as, ts
}

// inline emits lam's body with its parameters bound to args and returns
// its results.
func inline(b *builder, lam *Lambda, args []Atom) []Atom {
	for i, p := range lam.Params {
		b.stms = append(b.stms, &Stm{Pat: []Param{p}, E: &AtomE{X: args[i]}})
	}
	b.stms = append(b.stms, lam.Body.Stms...)
	return lam.Body.Res
}

func (l *lowerer) jvp2(b *builder, f, x, dx lv, at syntax.Node) lv {
	lam, r, as, _ := l.adLambda(f, x, at)
	dl, err := JVP(lam, l.fresh)
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
	res := inline(b, dl, append(append([]Atom{}, as...), das...))
	m := len(lam.Ret)
	return &lvTuple{elems: []lv{rebuild(r, res[:m], lam.Ret, 0), rebuild(r, res[m:], lam.Ret, 0)}}
}

// vjp2 computes the adjoint of x as the reference path does: for each
// scalar of x, the forward derivative along that scalar's unit vector,
// dotted (in f64) with ybar; the scalars of one component of x are the
// instances of a map.
func (l *lowerer) vjp2(b *builder, f, x, ybar lv, at syntax.Node) lv {
	lam, r, as, ts := l.adLambda(f, x, at)
	dl, err := JVP(lam, l.fresh)
	if err != nil {
		l.fail(at, "%v", err)
	}
	ys, yts := l.flatten(ybar, at)
	if len(ys) != len(lam.Ret) {
		l.fail(at, "an adjoint of another shape than the result")
	}
	// the result itself
	y := inline(b, freshLambda(lam, l.fresh), as)
	i64, f64 := Scalar(value.I64), Scalar(value.F64)
	adj := make([]Atom, len(as))
	for k, t := range ts {
		if t.Elem == value.Bool {
			// the zero cotangent of a bool is false
			adj[k] = C(value.MkBool(false))
			if t.Rank() > 0 {
				adj[k] = zerosOf(b, l, t)
			}
			continue
		}
		n := I64(1)
		for _, d := range t.Shape {
			n = l.arith(b, "*", n, d)
		}
		jp := Param{l.fresh("j"), i64}
		lb := &builder{l: l}
		// the unit tangent: 1 at flat index j of component k, 0 elsewhere
		dxs := make([]Atom, len(as))
		for c, tc := range ts {
			if c != k {
				dxs[c] = zeroAtom(lb, l, tc)
				continue
			}
			one := C(value.Convert(value.MkInt(value.I64, 1), t.Elem))
			if t.Rank() == 0 {
				dxs[c] = one
				continue
			}
			flat := Type{Elem: t.Elem, Shape: []Atom{n}}
			z := lb.let1("unit", &ReplicateE{N: n, X: C(zeroOf(t.Elem))}, flat).a
			u := lb.let1("unit", &UpdateE{Arr: z.Name, Idx: []Atom{V(jp.Name)}, X: one}, flat).a
			dxs[c] = u
			if t.Rank() > 1 {
				dxs[c] = lb.let1("unit", &ReshapeE{Arr: u.Name, Shape: t.Shape}, t).a
			}
		}
		res := inline(lb, freshLambda(dl, l.fresh), append(append([]Atom{}, as...), dxs...))
		dys := res[len(lam.Ret):]
		dot := C(value.F64Val(0))
		for q, dy := range dys {
			yt := lam.Ret[q]
			if !diff(yt) {
				continue
			}
			part := l.dotF64(lb, dy, ys[q], yt, yts[q], at)
			dot = lb.let1("dot", &BinOpE{Op: "+", X: dot, Y: part}, f64).a
		}
		g := lb.let1("adj", &ConvE{To: t.Elem, X: dot}, Scalar(t.Elem)).a
		flatT := Type{Elem: t.Elem, Shape: []Atom{n}}
		var grad Atom
		if hasArrayWork(dl.Body) {
			// Each pass does array work of its own: the passes run one
			// after the other (a loop), each pass's SOACs in parallel,
			// rather than as a map whose instances would each hold a
			// whole nest.
			g0 := b.let1("grad", &ReplicateE{N: n, X: C(zeroOf(t.Elem))}, flatT).a
			acc := Param{l.fresh("grad"), flatT}
			upd := lb.let1("grad", &UpdateE{Arr: acc.Name, Idx: []Atom{V(jp.Name)}, X: g}, flatT).a
			loop := &LoopE{Params: []Param{acc}, Init: []Atom{g0}, I: jp.Name, Bound: n, Body: &Body{Stms: lb.stms, Res: []Atom{upd}}}
			grad = b.let1("grad", loop, flatT).a
		} else {
			lam1 := &Lambda{Params: []Param{jp}, Ret: []Type{Scalar(t.Elem)}, Body: &Body{Stms: lb.stms, Res: []Atom{g}}}
			iota := b.let1("iota", &IotaE{N: n}, Type{Elem: value.I64, Shape: []Atom{n}})
			grad = b.let1("grad", &ScremaE{W: n, Arrs: []string{iota.a.Name}, Map: lam1}, flatT).a
		}
		switch {
		case t.Rank() == 0:
			adj[k] = b.let1("grad", &IndexE{Arr: grad.Name, Idx: []Atom{I64(0)}}, Scalar(t.Elem)).a
		case t.Rank() == 1:
			adj[k] = grad
		default:
			adj[k] = b.let1("grad", &ReshapeE{Arr: grad.Name, Shape: t.Shape}, noUnique(t)).a
		}
	}
	_ = f64
	outTs := make([]Type, len(ts))
	for i, t := range ts {
		outTs[i] = noUnique(t)
	}
	return &lvTuple{elems: []lv{rebuild(r, y, lam.Ret, 0), rebuild(x, adj, outTs, 0)}}
}

// dotF64 is Σ a·b over the elements of a (of type t) and b (of type bt),
// each converted to f64, in order, as the reference path sums them.
func (l *lowerer) dotF64(b *builder, a, bb Atom, t, bt Type, at syntax.Node) Atom {
	f64 := Scalar(value.F64)
	conv := func(x Atom, from Prim) Atom {
		if from == value.F64 {
			return x
		}
		return b.let1("f", &ConvE{To: value.F64, X: x}, f64).a
	}
	if t.Rank() == 0 {
		return b.let1("prod", &BinOpE{Op: "*", X: conv(a, t.Elem), Y: conv(bb, bt.Elem)}, f64).a
	}
	n := I64(1)
	for _, d := range t.Shape {
		n = l.arith(b, "*", n, d)
	}
	flat := func(x Atom, tt Type) string {
		if tt.Rank() == 1 && tt.Shape[0] == n {
			return x.Name
		}
		return b.let1("flat", &ReshapeE{Arr: x.Name, Shape: []Atom{n}}, Type{Elem: tt.Elem, Shape: []Atom{n}}).a.Name
	}
	px, py := Param{l.fresh("a"), Scalar(t.Elem)}, Param{l.fresh("b"), Scalar(bt.Elem)}
	mb := &builder{l: l}
	cx, cy := Atom(V(px.Name)), Atom(V(py.Name))
	if t.Elem != value.F64 {
		cx = mb.let1("f", &ConvE{To: value.F64, X: cx}, f64).a
	}
	if bt.Elem != value.F64 {
		cy = mb.let1("f", &ConvE{To: value.F64, X: cy}, f64).a
	}
	pr := mb.let1("prod", &BinOpE{Op: "*", X: cx, Y: cy}, f64).a
	mapLam := &Lambda{Params: []Param{px, py}, Ret: []Type{f64}, Body: &Body{Stms: mb.stms, Res: []Atom{pr}}}
	ra, rb := Param{l.fresh("x"), f64}, Param{l.fresh("y"), f64}
	ob := &builder{l: l}
	s := ob.let1("sum", &BinOpE{Op: "+", X: V(ra.Name), Y: V(rb.Name)}, f64).a
	red := &SegOp{Lam: &Lambda{Params: []Param{ra, rb}, Ret: []Type{f64}, Body: &Body{Stms: ob.stms, Res: []Atom{s}}}, Nes: []Atom{C(value.F64Val(0))}}
	return b.let1("dot", &ScremaE{W: n, Arrs: []string{flat(a, t), flat(bb, bt)}, Reds: []*SegOp{red}, Map: mapLam}, f64).a
}

// zeroAtom is a zero of type t (an array of zeros for an array type).
func zeroAtom(b *builder, l *lowerer, t Type) Atom {
	if t.Rank() == 0 {
		return C(zeroOf(t.Elem))
	}
	return zerosOf(b, l, t)
}

func zerosOf(b *builder, l *lowerer, t Type) Atom {
	x := C(zeroOf(t.Elem))
	for k := len(t.Shape) - 1; k >= 0; k-- {
		x = b.let1("zeros", &ReplicateE{N: t.Shape[k], X: x}, Type{Elem: t.Elem, Shape: t.Shape[k:]}).a
	}
	return x
}

// hasArrayWork reports whether b holds a SOAC or builds an array.
func hasArrayWork(b *Body) bool {
	for _, st := range b.Stms {
		switch e := st.E.(type) {
		case *ScremaE, *ScatterE, *HistE, *FilterE, *StreamE, *IotaE, *ReplicateE, *ArrayE, *ConcatE, *CopyE:
			return true
		case *IfE:
			if hasArrayWork(e.Then) || hasArrayWork(e.Else) {
				return true
			}
		case *LoopE:
			if hasArrayWork(e.Body) {
				return true
			}
		}
	}
	return false
}
