package lower

import (
	"fut/eval/value"
	"fut/interp/ir"
	"fut/interp/syntax"
)

// Scatter and histograms in several dimensions (over the destination
// viewed as one dimension), unflatten, rotate and partition.

func (l *lowerer) flatIndex(lb *builder, is []ir.Atom, dims []ir.Atom) ir.Atom {
	if len(is) == 1 {
		return is[0]
	}
	// The flat index and its bounds check are the scatter's or hist's
	// own, which their rules charge with each element: the arithmetic is
	// implicit (it costs nothing in the fused plan).
	i64, bt := ir.Scalar(value.I64), ir.Scalar(value.Bool)
	op := func(name, o string, x, y ir.Atom, t ir.Type) ir.Atom {
		return lb.let1(name, &ir.BinOpE{Op: o, X: x, Y: y, Implicit: true}, t).a
	}
	var ok, flat ir.Atom
	for k, i := range is {
		lo := op("lo", "<=", ir.I64(0), i, bt)
		hi := op("hi", "<", i, dims[k], bt)
		in := op("in", "&&", lo, hi, bt)
		if k == 0 {
			ok, flat = in, i
			continue
		}
		ok = op("in", "&&", ok, in, bt)
		flat = op("row", "*", flat, dims[k], i64)
		flat = op("flat", "+", flat, i, i64)
	}
	// (flat + 1)·ok − 1: flat where every index is in bounds, else −1
	// (skipped)
	one := lb.let1("ok", &ir.ConvE{To: value.I64, X: ok, Implicit: true}, i64).a
	idx := op("idx", "+", flat, ir.I64(1), i64)
	idx = op("idx", "*", idx, one, i64)
	return op("idx", "-", idx, ir.I64(1), i64)
}

func (l *lowerer) indexAtoms(v lv, d int, at syntax.Node) []ir.Atom {
	if d == 1 {
		a, ok := v.(*lvAtom)
		if !ok || a.t.Rank() != 0 {
			l.fail(at, "an index that is not an i64")
		}
		return []ir.Atom{a.a}
	}
	t, ok := v.(*lvTuple)
	if !ok || len(t.elems) != d {
		l.fail(at, "an index that is not a tuple of %d i64s", d)
	}
	out := make([]ir.Atom, d)
	for k, e := range t.elems {
		out[k] = l.indexAtoms(e, 1, at)[0]
	}
	return out
}

func (l *lowerer) flatDest(b *builder, dest lv, d int, at syntax.Node) (leaves []ir.Atom, ts []ir.Type, dims []ir.Atom) {
	as, types := l.flatten(dest, at)
	for i, a := range as {
		if a.IsConst() || types[i].Rank() < d {
			l.fail(at, "a destination that is not an array of rank %d", d)
		}
		t := noUnique(types[i])
		if i == 0 {
			dims = t.Shape[:d]
		}
		if d > 1 {
			n := ir.I64(1)
			for _, k := range t.Shape[:d] {
				n = l.arith(b, "*", n, k)
			}
			ft := ir.Type{Elem: t.Elem, Shape: append([]ir.Atom{n}, t.Shape[d:]...)}
			// a view the scatter's or hist's rule includes: free
			a = b.let1("flat", &ir.ReshapeE{Arr: a.Name, Shape: ft.Shape, Coerce: true}, ft).a
			t = ft
		}
		leaves, ts = append(leaves, a), append(ts, t)
	}
	return
}

func (l *lowerer) unflatDest(b *builder, dest lv, outs []ir.Atom, at syntax.Node) lv {
	_, types := l.flatten(dest, at)
	res := make([]ir.Atom, len(outs))
	for i, o := range outs {
		t := noUnique(types[i])
		res[i] = b.let1("unflat", &ir.ReshapeE{Arr: o.Name, Shape: t.Shape, Coerce: true}, t).a
	}
	return rebuild(dest, res, noUniques(types), 0)
}

func noUniques(ts []ir.Type) []ir.Type {
	out := make([]ir.Type, len(ts))
	for i, t := range ts {
		out[i] = noUnique(t)
	}
	return out
}

func (l *lowerer) scatterN(b *builder, dest, is, vs lv, d int, at syntax.Node) lv {
	leaves, lts, dims := l.flatDest(b, dest, d, at)
	outs := make([]ir.Atom, len(leaves))
	for k, leaf := range leaves {
		// each ScatterE has a lambda (and parameters) of its own
		arrs, w, params, elems := l.rows(b, []lv{is, vs}, at)
		vals, vts := l.flatten(elems[1], at)
		if len(vals) != len(leaves) {
			l.fail(at, "scatter values that do not match the destination's elements")
		}
		lb := &builder{l: l}
		idx := l.flatIndex(lb, l.indexAtoms(elems[0], d, at), dims)
		lam := &ir.Lambda{Params: params, Ret: []ir.Type{ir.Scalar(value.I64), vts[k]}, Body: &ir.Body{Stms: lb.stms, Res: []ir.Atom{idx, vals[k]}}}
		outs[k] = b.let1("scatter", &ir.ScatterE{Dest: leaf.Name, W: w, Arrs: arrs, Map: lam, Part: k > 0}, lts[k]).a
	}
	if d == 1 {
		return rebuild(dest, outs, lts, 0)
	}
	return l.unflatDest(b, dest, outs, at)
}

func (l *lowerer) histN(b *builder, dest *lvAtom, op lv, ne *lvAtom, is, vs lv, d int, at syntax.Node) lv {
	leaves, lts, dims := l.flatDest(b, dest, d, at)
	arrs, w, params, elems := l.rows(b, []lv{is, vs}, at)
	va, ok := elems[1].(*lvAtom)
	if !ok || !ne.t.Equal(lts[0].Row()) {
		l.fail(at, "a histogram whose values do not fit its destination")
	}
	lb := &builder{l: l}
	idx := l.flatIndex(lb, l.indexAtoms(elems[0], d, at), dims)
	x, y := ir.Param{Name: l.fresh("x"), T: ne.t}, ir.Param{Name: l.fresh("y"), T: ne.t}
	opLam, _ := l.lambda(op, []ir.Param{x, y}, []lv{&lvAtom{ir.V(x.Name), x.T}, &lvAtom{ir.V(y.Name), y.T}}, at)
	lam := &ir.Lambda{Params: params, Ret: []ir.Type{ir.Scalar(value.I64), va.t}, Body: &ir.Body{Stms: lb.stms, Res: []ir.Atom{idx, va.a}}}
	h := &ir.HistE{Dest: leaves[0].Name, W: w, Arrs: arrs, Op: &ir.SegOp{Lam: opLam, Nes: []ir.Atom{ne.a}}, Map: lam}
	out := b.let1("hist", h, lts[0]).a
	return l.unflatDest(b, dest, []ir.Atom{out}, at)
}

func (l *lowerer) unflatten(b *builder, n, m *lvAtom, xs lv, at syntax.Node) lv {
	na, ma := l.toI64(b, n), l.toI64(b, m)
	ok := l.binop(b, "&&", l.binop(b, "<=", &lvAtom{ir.I64(0), ir.Scalar(value.I64)}, &lvAtom{na, ir.Scalar(value.I64)}, at),
		l.binop(b, "<=", &lvAtom{ir.I64(0), ir.Scalar(value.I64)}, &lvAtom{ma, ir.Scalar(value.I64)}, at), at)
	shape := leafShape(xs)
	if len(shape) == 0 {
		l.fail(at, "unflatten of a value that is not an array")
	}
	prod := l.arith(b, "*", na, ma)
	same := l.binop(b, "==", &lvAtom{prod, ir.Scalar(value.I64)}, &lvAtom{shape[0], ir.Scalar(value.I64)}, at)
	all := l.binop(b, "&&", ok, same, at)
	l.checkUnlike(b, all.a, "Cannot unflatten", at)
	as, ts := l.flatten(xs, at)
	outs := make([]ir.Atom, len(as))
	outTs := make([]ir.Type, len(as))
	for i, a := range as {
		t := ir.Type{Elem: ts[i].Elem, Shape: append([]ir.Atom{na, ma}, ts[i].Shape[1:]...)}
		outs[i] = b.let1("unflat", &ir.ReshapeE{Arr: a.Name, Shape: t.Shape}, t).a
		outTs[i] = t
	}
	return rebuild(xs, outs, outTs, 1)
}

func (l *lowerer) rotate(b *builder, r *lvAtom, xs lv, at syntax.Node) lv {
	shape := leafShape(xs)
	if len(shape) == 0 {
		l.fail(at, "rotate of a value that is not an array")
	}
	n := shape[0]
	ra := l.toI64(b, r)
	i64 := ir.Scalar(value.I64)
	// k = ((r mod n) + n) mod n, 0 for an empty array. The source's rule
	// for rotate charges the result's elements: the offset, the positions
	// and the reads are implicit, and the map runs over its index (one
	// step per element, as the rule).
	implicit := func(b *builder, op string, x, y ir.Atom) ir.Atom {
		return b.let1("rot", &ir.BinOpE{Op: op, X: x, Y: y, Implicit: true}, i64).a
	}
	nz := implicit(b, "max", n, ir.I64(1))
	k := implicit(b, "%%", implicit(b, "+", implicit(b, "%%", ra, nz), nz), nz)
	as, ts := l.flatten(xs, at)
	i := ir.Param{Name: l.fresh("i"), T: i64}
	lb := &builder{l: l}
	j := implicit(lb, "+", ir.V(i.Name), k)
	j = implicit(lb, "%%", j, nz)
	res := make([]ir.Atom, len(as))
	rts := make([]ir.Type, len(as))
	outTs := make([]ir.Type, len(as))
	for q, a := range as {
		if a.IsConst() {
			l.fail(at, "rotate of a constant")
		}
		rts[q] = ts[q].Row()
		res[q] = lb.let1("elem", &ir.IndexE{Arr: a.Name, Idx: []ir.Atom{j}, Implicit: true}, rts[q]).a
		outTs[q] = noUnique(ts[q])
	}
	lam := &ir.Lambda{Ret: rts, Body: &ir.Body{Stms: lb.stms, Res: res}}
	outs := b.let("rotate", &ir.ScremaE{W: n, Index: i.Name, Map: lam}, outTs...)
	return rebuild(xs, outs, outTs, 0)
}

func (l *lowerer) partition(b *builder, p, xs lv, at syntax.Node) lv {
	return l.filterParts(b, p, xs, true, at)
}
