package ir

import (
	"fmt"

	"fut/eval/value"
)

// Reverse mode from forward mode (see ad.go): VJPByForward.

// adb collects statements with fresh names.
type adb struct {
	fresh func(string) string
	stms  []*Stm
}

func (b *adb) let(base string, e Exp, t Type) Atom {
	p := Param{b.fresh(base), t}
	b.stms = append(b.stms, &Stm{Pat: []Param{p}, E: e})
	return V(p.Name)
}

// inline emits l's body (l must have fresh names) with its parameters
// bound to args and returns its results.
func (b *adb) inline(l *Lambda, args []Atom) []Atom {
	for i, p := range l.Params {
		b.stms = append(b.stms, &Stm{Pat: []Param{p}, E: &AtomE{X: args[i]}})
	}
	b.stms = append(b.stms, l.Body.Stms...)
	return l.Body.Res
}

// size is the number of scalars of an array of type t (folded when the
// dimensions are constants).
func (b *adb) size(t Type) Atom {
	if t.Rank() == 0 {
		return I64(1)
	}
	n := t.Shape[0]
	for _, d := range t.Shape[1:] {
		if n.IsConst() && d.IsConst() {
			n = I64(n.Val.AsInt64() * d.Val.AsInt64())
			continue
		}
		n = b.let("size", &BinOpE{Op: "*", X: n, Y: d}, Scalar(value.I64))
	}
	return n
}

// zeros is a zero of type t (false for bool), an array of them for an
// array type.
func (b *adb) zeros(t Type) Atom {
	x := C(ZeroOf(t.Elem))
	for k := len(t.Shape) - 1; k >= 0; k-- {
		x = b.let("zeros", &ReplicateE{N: t.Shape[k], X: x}, Type{Elem: t.Elem, Shape: t.Shape[k:]})
	}
	return x
}

// flatView is x (of type t) as a one-dimensional array of n elements.
func (b *adb) flatView(x Atom, t Type, n Atom) Atom {
	if t.Rank() == 1 {
		return x
	}
	return b.let("flat", &ReshapeE{Arr: x.Name, Shape: []Atom{n}}, Type{Elem: t.Elem, Shape: []Atom{n}})
}

// dot is Σ a·c over the scalars of a (of type t) and c (of type ct, the
// same shape), each converted to acc and summed in acc: the reference
// path's dot product of a tangent with an adjoint.
func (b *adb) dot(a, c Atom, t, ct Type, acc Prim) Atom {
	at := Scalar(acc)
	conv := func(bb *adb, x Atom, from Prim) Atom {
		if from == acc {
			return x
		}
		return bb.let("f", &ConvE{To: acc, X: x}, at)
	}
	if t.Rank() == 0 {
		return b.let("prod", &BinOpE{Op: "*", X: conv(b, a, t.Elem), Y: conv(b, c, ct.Elem)}, at)
	}
	n := b.size(t)
	pa, pc := Param{b.fresh("a"), Scalar(t.Elem)}, Param{b.fresh("c"), Scalar(ct.Elem)}
	mb := &adb{fresh: b.fresh}
	pr := mb.let("prod", &BinOpE{Op: "*", X: conv(mb, V(pa.Name), t.Elem), Y: conv(mb, V(pc.Name), ct.Elem)}, at)
	mapLam := &Lambda{Params: []Param{pa, pc}, Ret: []Type{at}, Body: &Body{Stms: mb.stms, Res: []Atom{pr}}}
	rx, ry := Param{b.fresh("x"), at}, Param{b.fresh("y"), at}
	ob := &adb{fresh: b.fresh}
	s := ob.let("sum", &BinOpE{Op: "+", X: V(rx.Name), Y: V(ry.Name)}, at)
	red := &SegOp{Lam: &Lambda{Params: []Param{rx, ry}, Ret: []Type{at}, Body: &Body{Stms: ob.stms, Res: []Atom{s}}}, Nes: []Atom{C(ZeroOf(acc))}}
	arrs := []string{b.flatView(a, t, n).Name, b.flatView(c, ct, n).Name}
	return b.let("dot", &ScremaE{W: n, Arrs: arrs, Reds: []*SegOp{red}, Map: mapLam}, at)
}

// accumulator is the type the adjoint of a parameter of type elem is
// summed in: f64, as on the reference path, except where the parameter
// and every result are of one integer type, where the integer sum is the
// same number (short of 2^53) and, unlike a conversion from f64, keeps
// its own tangent (so that vjp of vjp of integer code differentiates).
func accumulator(elem Prim, ret []Type) Prim {
	if elem.IsFloat() {
		return value.F64
	}
	for _, t := range ret {
		if diff(t) && t.Elem != elem {
			return value.F64
		}
	}
	return elem
}

// VJPByForward differentiates lam in reverse mode as the reference path
// does, from forward mode: it returns a lambda taking lam's parameters
// and then one adjoint per result (of the results' types), and returning
// lam's results and then one adjoint per parameter. Scalar j of
// parameter k's adjoint is Σ over the results of tangent·adjoint (in
// f64, converted back to the parameter's type) where the tangent is
// lam's JVP along the unit vector of that scalar; a bool parameter's
// adjoint is false.
//
// The passes of one parameter are the instances of a map over its
// flattened indices, so that they run in parallel, unless a pass does
// array work of its own (a SOAC, an array built, or the unit vector
// itself where the derivative does more than read scalars of it, see
// unitIndexed): then they run one after the other in a loop, each
// pass's SOACs parallel, rather than as a map each of whose instances
// would hold a whole nest.
func VJPByForward(lam *Lambda, fresh func(string) string) (*Lambda, error) {
	return VJPIn(lam, fresh, nil)
}

// VJPIn is VJPByForward where env gives the types of lam's free
// variables (see JVPIn).
func VJPIn(lam *Lambda, fresh func(string) string, env map[string]Type) (out *Lambda, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, adError(fmt.Sprintf("internal error in vjp: %v", r))
		}
	}()
	lam = splitLambda(lam, env)
	inner := map[string]bool{}
	binds(&ScremaE{Map: lam}, func(n string) { inner[n] = true })
	for _, t := range lam.Ret {
		for _, d := range t.Shape {
			if inner[d.Name] {
				// the adjoint would be a parameter whose size is not
				// known outside the function
				return nil, adError("vjp of a function whose result's size " + d.Name + " it computes")
			}
		}
	}
	dl, err := JVPIn(lam, fresh, env)
	if err != nil {
		return nil, err
	}
	b := &adb{fresh: fresh}
	params := make([]Param, 0, len(lam.Params)+len(lam.Ret))
	xs := make([]Atom, len(lam.Params))
	for i, p := range lam.Params {
		params = append(params, p)
		xs[i] = V(p.Name)
	}
	ys := make([]Atom, len(lam.Ret))
	for i, t := range lam.Ret {
		t.Unique = false
		p := Param{fresh("ybar"), t}
		params = append(params, p)
		ys[i] = V(p.Name)
	}
	res := append([]Atom{}, b.inline(freshLambda(lam, fresh), xs)...)
	i64 := Scalar(value.I64)
	// zero tangents of the parameters other than the one differentiated,
	// shared by every pass
	zero := make([]Atom, len(lam.Params))
	for c, p := range lam.Params {
		zero[c] = b.zeros(p.T)
	}
	ret := append([]Type{}, lam.Ret...)
	for k, p := range lam.Params {
		t := p.T
		t.Unique = false
		ret = append(ret, t)
		if t.Elem == value.Bool {
			res = append(res, zero[k])
			continue
		}
		n := b.size(t)
		jp := Param{fresh("j"), i64}
		pb := &adb{fresh: fresh}
		dxs := append([]Atom{}, zero...)
		one := C(value.Convert(value.MkInt(value.I64, 1), t.Elem))
		if t.Rank() == 0 {
			dxs[k] = one
		} else {
			flat := Type{Elem: t.Elem, Shape: []Atom{n}}
			z := pb.let("unit", &ReplicateE{N: n, X: C(ZeroOf(t.Elem))}, flat)
			u := pb.let("unit", &UpdateE{Arr: z.Name, Idx: []Atom{V(jp.Name)}, X: one}, flat)
			dxs[k] = u
			if t.Rank() > 1 {
				dxs[k] = pb.let("unit", &ReshapeE{Arr: u.Name, Shape: t.Shape}, t)
			}
		}
		fl := freshLambda(dl, fresh)
		arrayWork := t.Rank() > 0 // the unit vector, unless rewritten away
		if t.Rank() > 0 {
			// Where the derivative only reads scalars of this tangent,
			// they are read off the index (1 at j, 0 elsewhere) and the
			// unit vector is never built: each pass is scalar code.
			d := fl.Params[len(lam.Params)+k].Name
			if body, ok := unitIndexed(fl.Body, d, t, jp.Name, fresh); ok {
				fl = &Lambda{Params: fl.Params, Ret: fl.Ret, Body: body}
				dxs[k] = zero[k]
				pb.stms = nil
				arrayWork = false
			}
		}
		arrayWork = arrayWork || HasArrayWork(fl.Body)
		r := pb.inline(fl, append(append([]Atom{}, xs...), dxs...))
		acc := accumulator(t.Elem, lam.Ret)
		dot := C(ZeroOf(acc))
		for q, dy := range r[len(lam.Ret):] {
			yt := lam.Ret[q]
			if !diff(yt) {
				continue
			}
			part := pb.dot(dy, ys[q], yt, yt, acc)
			dot = pb.let("dot", &BinOpE{Op: "+", X: dot, Y: part}, Scalar(acc))
		}
		g := dot
		if t.Elem != acc {
			g = pb.let("adj", &ConvE{To: t.Elem, X: dot}, Scalar(t.Elem))
		}
		flatT := Type{Elem: t.Elem, Shape: []Atom{n}}
		var grad Atom
		if arrayWork {
			acc := Param{fresh("grad"), flatT}
			upd := pb.let("grad", &UpdateE{Arr: acc.Name, Idx: []Atom{V(jp.Name)}, X: g}, flatT)
			g0 := b.let("grad", &ReplicateE{N: n, X: C(ZeroOf(t.Elem))}, flatT)
			loop := &LoopE{Params: []Param{acc}, Init: []Atom{g0}, I: jp.Name, Bound: n, Body: &Body{Stms: pb.stms, Res: []Atom{upd}}}
			grad = b.let("grad", loop, flatT)
		} else {
			m := &Lambda{Params: []Param{jp}, Ret: []Type{Scalar(t.Elem)}, Body: &Body{Stms: pb.stms, Res: []Atom{g}}}
			iota := b.let("iota", &IotaE{N: n}, Type{Elem: value.I64, Shape: []Atom{n}})
			grad = b.let("grad", &ScremaE{W: n, Arrs: []string{iota.Name}, Map: m}, flatT)
		}
		switch t.Rank() {
		case 0:
			grad = b.let("grad", &IndexE{Arr: grad.Name, Idx: []Atom{I64(0)}}, t)
		case 1:
		default:
			grad = b.let("grad", &ReshapeE{Arr: grad.Name, Shape: t.Shape}, t)
		}
		res = append(res, grad)
	}
	return &Lambda{Params: params, Ret: ret, Body: &Body{Stms: b.stms, Res: res}}, nil
}

// unitView is a view of the unit tangent d (an array, the base, of type
// base): to maps indices into the view to indices into d.
type unitView struct {
	shape []Atom
	to    func(ab *adb, idx []Atom) []Atom
}

// unitIndexed rewrites b, where d is the unit tangent of type t along
// the flat index j, so that every read of a scalar of d, or of a view of
// d (a row, a slice, a transposition, a reversal, a reshape, a copy),
// becomes (the flat index in d == j ? 1 : 0). It fails when b uses d or
// a view of it otherwise.
func unitIndexed(b *Body, d string, t Type, j string, fresh func(string) string) (*Body, bool) {
	views := map[string]unitView{d: {shape: t.Shape, to: func(_ *adb, idx []Atom) []Atom { return idx }}}
	return unitRewrite(b, views, t, j, fresh)
}

func unitRewrite(b *Body, views map[string]unitView, t Type, j string, fresh func(string) string) (*Body, bool) {
	i64 := Scalar(value.I64)
	out := &Body{Res: b.Res}
	for _, st := range b.Stms {
		e := st.E
		if arr := viewedArray(e); arr != "" || isIndexOfView(e, views) {
			if arr == "" {
				arr = e.(*IndexE).Arr
			}
			v, ok := views[arr]
			if !ok {
				goto other
			}
			ab := &adb{fresh: fresh}
			name := st.Pat[0].Name
			switch x := e.(type) {
			case *IndexE:
				if len(x.Idx) == len(v.shape) {
					// a read of the unit tangent: the pass's unit vector,
					// which the source's rule charges once per pass,
					// covers it (docs/cost.md, "Derivatives"), so its
					// position, test and choice are implicit
					orig := v.to(ab, x.Idx)
					f := orig[0]
					for k := 1; k < len(orig); k++ {
						f = ab.let("flat", &BinOpE{Op: "*", X: f, Y: t.Shape[k], Implicit: true}, i64)
						f = ab.let("flat", &BinOpE{Op: "+", X: f, Y: orig[k], Implicit: true}, i64)
					}
					eq := ab.let("unit", &BinOpE{Op: "==", X: f, Y: V(j), Implicit: true}, Scalar(value.Bool))
					one := C(value.Convert(value.MkInt(value.I64, 1), t.Elem))
					out.Stms = append(out.Stms, ab.stms...)
					out.Stms = append(out.Stms, &Stm{Pat: st.Pat, E: &IfE{Cond: eq, Then: &Body{Res: []Atom{one}},
						Else: &Body{Res: []Atom{C(ZeroOf(t.Elem))}}, Ret: []Type{Scalar(t.Elem)}, Implicit: true}})
					continue
				}
				pre := append([]Atom{}, x.Idx...)
				views[name] = unitView{shape: v.shape[len(pre):], to: func(ab *adb, idx []Atom) []Atom {
					return v.to(ab, append(append([]Atom{}, pre...), idx...))
				}}
			case *TransposeE:
				views[name] = unitView{shape: st.Pat[0].T.Shape, to: func(ab *adb, idx []Atom) []Atom {
					return v.to(ab, append([]Atom{idx[1], idx[0]}, idx[2:]...))
				}}
			case *ReverseE:
				views[name] = unitView{shape: v.shape, to: func(ab *adb, idx []Atom) []Atom {
					last := ab.let("rev", &BinOpE{Op: "-", X: v.shape[0], Y: I64(1), Implicit: true}, i64)
					i := ab.let("rev", &BinOpE{Op: "-", X: last, Y: idx[0], Implicit: true}, i64)
					return v.to(ab, append([]Atom{i}, idx[1:]...))
				}}
			case *SliceE:
				start := x.Start
				views[name] = unitView{shape: st.Pat[0].T.Shape, to: func(ab *adb, idx []Atom) []Atom {
					i := ab.let("slice", &BinOpE{Op: "+", X: start, Y: idx[0], Implicit: true}, i64)
					return v.to(ab, append([]Atom{i}, idx[1:]...))
				}}
			case *CopyE:
				views[name] = v
			case *ReshapeE:
				shape := x.Shape
				views[name] = unitView{shape: shape, to: func(ab *adb, idx []Atom) []Atom {
					// the flat position in the new shape, then the
					// indices in the old one
					f := idx[0]
					for k := 1; k < len(idx); k++ {
						f = ab.let("flat", &BinOpE{Op: "*", X: f, Y: shape[k], Implicit: true}, i64)
						f = ab.let("flat", &BinOpE{Op: "+", X: f, Y: idx[k], Implicit: true}, i64)
					}
					old := make([]Atom, len(v.shape))
					for k := len(v.shape) - 1; k > 0; k-- {
						old[k] = ab.let("unflat", &BinOpE{Op: "%", X: f, Y: v.shape[k], Implicit: true}, i64)
						f = ab.let("unflat", &BinOpE{Op: "/", X: f, Y: v.shape[k], Implicit: true}, i64)
					}
					old[0] = f
					return v.to(ab, old)
				}}
			}
			continue // the view is never built
		}
	other:
		switch x := e.(type) {
		case *AtomE:
			if v, ok := views[x.X.Name]; ok && !x.X.IsConst() && st.Pat[0].T.Rank() > 0 {
				views[st.Pat[0].Name] = v
				continue
			}
		case *IfE:
			th, ok1 := unitRewrite(x.Then, views, t, j, fresh)
			el, ok2 := unitRewrite(x.Else, views, t, j, fresh)
			if !ok1 || !ok2 {
				return nil, false
			}
			e = &IfE{Cond: x.Cond, Then: th, Else: el, Ret: x.Ret, Implicit: x.Implicit}
		case *LoopE:
			nl := *x
			// a walk over the rows of a view reads row I of it
			nl.Elems, nl.Over = nil, nil
			body := x.Body
			for k, a := range x.Over {
				if _, isView := views[a]; isView {
					read := &Stm{Pat: []Param{x.Elems[k]}, E: &IndexE{Arr: a, Idx: []Atom{V(x.I)}}}
					body = &Body{Stms: append([]*Stm{read}, body.Stms...), Res: body.Res}
					continue
				}
				nl.Elems, nl.Over = append(nl.Elems, x.Elems[k]), append(nl.Over, a)
			}
			var ok bool
			if nl.Body, ok = unitRewrite(body, views, t, j, fresh); !ok {
				return nil, false
			}
			if x.While != nil {
				if nl.While, ok = unitRewrite(x.While, views, t, j, fresh); !ok {
					return nil, false
				}
			}
			e = &nl
		}
		used := false
		uses(e, func(n string) {
			_, ok := views[n]
			used = used || ok
		})
		if used {
			return nil, false
		}
		out.Stms = append(out.Stms, &Stm{Pat: st.Pat, E: e})
	}
	for _, a := range b.Res {
		if _, ok := views[a.Name]; ok && !a.IsConst() {
			return nil, false
		}
	}
	return out, true
}

func isIndexOfView(e Exp, views map[string]unitView) bool {
	x, ok := e.(*IndexE)
	if !ok {
		return false
	}
	_, ok = views[x.Arr]
	return ok
}
