package lower

import (
	"fut/eval/value"
	"fut/interp/ir"
	"fut/interp/syntax"
)

// Slices. a[i:j:s] follows the reference path's rule (eval/eval_index.go):
// n = (j - i + (s - sgn s)) quot s elements; an empty slice is fine
// anywhere, otherwise a forward slice needs 0 ≤ i ≤ j and a backward one
// -1 ≤ j ≤ i, with the last element touched in bounds. The check is an
// assertion at the slice's position. A slice of the outer dimension with
// stride 1 is a view (SliceE), a whole outer dimension backwards is a
// ReverseE, and any other slice (strides, inner dimensions, fixed indices
// after a slice) gathers its elements with nested maps.

// dimSlice is one index of a[…] after lowering: a fixed index, or a slice
// of n elements from start by stride.
type dimSlice struct {
	fix                 bool
	i                   ir.Atom // the fixed index
	start, n, stride    ir.Atom
	whole, backwardsAll bool // [:] or [::-1] of the whole dimension
}

// sliceIndex lowers a[…] when some index is a slice.
func (l *lowerer) sliceIndex(b *builder, env *lenv, x lv, indices []*syntax.DimIndex, e syntax.Node) lv {
	shape := leafShape(x)
	if len(indices) > len(shape) {
		l.fail(e, "more indices than the array has dimensions")
	}
	ds := make([]dimSlice, len(indices))
	for k, d := range indices {
		if !d.IsSlice {
			ds[k] = dimSlice{fix: true, i: l.toI64(b, l.scalar(b, env, d.Fix, value.I64))}
			continue
		}
		ds[k] = l.sliceDim(b, env, d, shape[k], e)
	}
	// a[fixed…, slice] with the slice a view of the outer dimension left
	last := len(ds) - 1
	prefix := true
	for _, d := range ds[:last] {
		prefix = prefix && d.fix
	}
	if prefix {
		var idx []ir.Atom
		for _, d := range ds[:last] {
			idx = append(idx, d.i)
		}
		y := x
		if len(idx) > 0 {
			y = l.indexValue(b, x, idx, e)
		}
		d := ds[last]
		switch {
		case d.whole:
			return y
		case d.backwardsAll:
			return l.reverse(b, y, e)
		case d.stride.IsConst() && d.stride.Val.AsInt64() == 1:
			return l.slice(b, y, d.start, d.n, e)
		}
	}
	return l.gather(b, x, ds, e)
}

// sliceDim lowers one slice i:j:s of a dimension of size dim and checks it.
func (l *lowerer) sliceDim(b *builder, env *lenv, d *syntax.DimIndex, dim ir.Atom, at syntax.Node) dimSlice {
	i64 := ir.Scalar(value.I64)
	stride := ir.I64(1)
	if d.Stride != nil {
		stride = l.toI64(b, l.scalar(b, env, d.Stride, value.I64))
	}
	if !stride.IsConst() {
		return l.sliceDimDynamic(b, env, d, dim, stride, at)
	}
	s := stride.Val.AsInt64()
	if s == 0 {
		l.checkUnlike(b, ir.C(value.MkBool(false)), "slice with stride 0", at)
		return dimSlice{start: ir.I64(0), n: ir.I64(0), stride: stride}
	}
	if d.Start == nil && d.End == nil && (s == 1 || s == -1) {
		if s == 1 {
			return dimSlice{start: ir.I64(0), n: dim, stride: stride, whole: true}
		}
		return dimSlice{start: l.sub(b, dim, ir.I64(1)), n: dim, stride: stride, backwardsAll: true}
	}
	var start, end ir.Atom
	if d.Start != nil {
		start = l.toI64(b, l.scalar(b, env, d.Start, value.I64))
	} else if s > 0 {
		start = ir.I64(0)
	} else {
		start = l.sub(b, dim, ir.I64(1))
	}
	if d.End != nil {
		end = l.toI64(b, l.scalar(b, env, d.End, value.I64))
	} else if s > 0 {
		end = dim
	} else {
		end = ir.I64(-1)
	}
	sgn := int64(1)
	if s < 0 {
		sgn = -1
	}
	op := func(o string, x, y ir.Atom) ir.Atom {
		if x.IsConst() && y.IsConst() {
			if r, err := ir.BinOp(o, x.Val, y.Val); err == nil {
				return ir.C(r)
			}
		}
		t := i64
		if bop, _ := value.LookupBinOp(o); bop.IsComparison() || o == "&&" || o == "||" {
			t = ir.Scalar(value.Bool)
		}
		// the slice's length, its last element and their checks are
		// part of the slice's rule in the source (one step, a view):
		// implicit, also where the length serves as a value or the
		// index arithmetic of an update
		return b.let1("sl", &ir.BinOpE{Op: o, X: x, Y: y, Implicit: true}, t).a
	}
	n := op("//", op("+", op("-", end, start), ir.I64(s-sgn)), stride)
	lastEl := op("+", start, op("*", op("-", n, ir.I64(1)), stride))
	var ok ir.Atom
	if s > 0 {
		ok = op("&&", op("&&", op("<=", ir.I64(0), start), op("<=", start, end)),
			op("&&", op("<=", ir.I64(0), lastEl), op("<", lastEl, dim)))
	} else {
		ok = op("&&", op("&&", op("<=", ir.I64(-1), end), op("<=", end, start)),
			op("&&", op("&&", op("<=", ir.I64(0), lastEl), op("<", lastEl, dim)), op("<", start, dim)))
	}
	ok = op("||", op("==", n, ir.I64(0)), ok)
	l.checkUnlike(b, ok, "Index out of bounds", at)
	n = op("max", n, ir.I64(0))
	return dimSlice{start: start, n: n, stride: stride}
}

// reverse is v[::-1] on the outer dimension, leaf by leaf (a view).
func (l *lowerer) reverse(b *builder, v lv, at syntax.Node) lv {
	as, ts := l.flatten(v, at)
	outs := make([]ir.Atom, len(as))
	for i, a := range as {
		if a.IsConst() || ts[i].Rank() == 0 {
			l.fail(at, "reversing a value that is not an array")
		}
		outs[i] = b.let("rev", &ir.ReverseE{Arr: a.Name}, noUnique(ts[i]))[0]
	}
	return rebuild(v, outs, ts, 0)
}

// gather builds a[ds…] with one nested map per slice: the element at
// (k1, …) of the result is a[…, start_d + k_d · stride_d, …]. The source
// has the slice as a view, one step: each map is marked a view (its own
// step is one) over its index, and the positions and reads are implicit,
// also once a consumer has fused them into its lambda.
func (l *lowerer) gather(b *builder, v lv, ds []dimSlice, at syntax.Node) lv {
	as, ts := l.flatten(v, at)
	for i, a := range as {
		if a.IsConst() || ts[i].Rank() < len(ds) {
			l.fail(at, "slicing a value that is not an array")
		}
	}
	var slices []int
	for k, d := range ds {
		if !d.fix {
			slices = append(slices, k)
		}
	}
	// the result's leaves: the slices' lengths, then the rest of each leaf
	outTs := make([]ir.Type, len(as))
	for i, t := range ts {
		var shape []ir.Atom
		for _, k := range slices {
			shape = append(shape, ds[k].n)
		}
		outTs[i] = ir.Type{Elem: t.Elem, Shape: append(shape, t.Shape[len(ds):]...)}
	}
	ks := make([]ir.Atom, len(slices))
	var level func(j int) (*ir.Body, []ir.Type)
	level = func(j int) (*ir.Body, []ir.Type) {
		lb := &builder{l: l}
		if j == len(slices) {
			idx := make([]ir.Atom, len(ds))
			si := 0
			for k, d := range ds {
				if d.fix {
					idx[k] = d.i
					continue
				}
				off := ks[si]
				if !(d.stride.IsConst() && d.stride.Val.AsInt64() == 1) {
					off = lb.let1("off", &ir.BinOpE{Op: "*", X: off, Y: d.stride, Implicit: true}, ir.Scalar(value.I64)).a
				}
				if !(d.start.IsConst() && d.start.Val.AsInt64() == 0) {
					off = lb.let1("ix", &ir.BinOpE{Op: "+", X: d.start, Y: off, Implicit: true}, ir.Scalar(value.I64)).a
				}
				idx[k] = off
				si++
			}
			res := make([]ir.Atom, len(as))
			rts := make([]ir.Type, len(as))
			for i, a := range as {
				rts[i] = ir.Type{Elem: ts[i].Elem, Shape: ts[i].Shape[len(ds):]}
				res[i] = lb.let1("elem", &ir.IndexE{Arr: a.Name, Idx: idx, Implicit: true}, rts[i]).a
			}
			return &ir.Body{Stms: lb.stms, Res: res}, rts
		}
		k := ir.Param{Name: l.fresh("k"), T: ir.Scalar(value.I64)}
		ks[j] = ir.V(k.Name)
		inner, rts := level(j + 1)
		n := ds[slices[j]].n
		outs := make([]ir.Type, len(rts))
		for i, t := range rts {
			outs[i] = t.ArrayOf(n)
		}
		lam := &ir.Lambda{Ret: rts, Body: inner}
		res := lb.let("gather", &ir.ScremaE{W: n, Index: k.Name, Map: lam, View: true}, outs...)
		return &ir.Body{Stms: lb.stms, Res: res}, outs
	}
	body, _ := level(0)
	b.stms = append(b.stms, body.Stms...)
	delta := len(slices) - len(ds)
	return rebuild(v, body.Res, outTs, delta)
}

// rangeExpr lowers a..b...c, a..<c, a..>c and a...c by the reference
// path's rule (eval/eval_array.go): the step is b - a (1, or -1 for ..>,
// without b); a range that is empty the wrong way round or has step 0 is
// an error at its position; the elements are a + i·step.
func (l *lowerer) rangeExpr(b *builder, env *lenv, e *syntax.Range, hint ir.Prim) lv {
	start := l.scalar(b, env, e.Start, hint)
	t := start.t
	if t.Rank() != 0 || !t.Elem.IsInt() {
		l.fail(e, "a range of %s", t)
	}
	stop := l.scalar(b, env, e.Stop, t.Elem)
	if !stop.t.Equal(t) {
		l.fail(e, "a range whose bounds differ in type")
	}
	a, z := l.toI64(b, start), l.toI64(b, stop)
	step := ir.I64(1)
	if e.Second != nil {
		second := l.scalar(b, env, e.Second, t.Elem)
		// the stride is the range's own, which its rule charges with
		// its elements
		d := l.toI64(b, second)
		if d.IsConst() && a.IsConst() {
			step = l.arith(b, "-", d, a)
		} else {
			step = b.let1("step", &ir.BinOpE{Op: "-", X: d, Y: a, Implicit: true}, ir.Scalar(value.I64)).a
		}
	} else if e.Op == syntax.RangeDownExcl {
		step = ir.I64(-1)
	}
	i64 := ir.Scalar(value.I64)
	cmp := func(op string, x, y ir.Atom) ir.Atom { return l.binop(b, op, &lvAtom{x, i64}, &lvAtom{y, i64}, e).a }
	if !step.IsConst() {
		return l.rangeDynamic(b, e, start, a, z, step)
	}
	s := step.Val.AsInt64()
	var bad, n ir.Atom
	never, always := ir.C(value.MkBool(false)), ir.C(value.MkBool(true))
	switch e.Op {
	case syntax.RangeIncl:
		switch {
		case s == 0:
			bad, n = always, ir.I64(0)
		case s > 0:
			bad, n = cmp("<", z, a), l.arith(b, "+", l.arith(b, "//", l.arith(b, "-", z, a), step), ir.I64(1))
		default:
			bad, n = cmp(">", z, a), l.arith(b, "+", l.arith(b, "//", l.arith(b, "-", a, z), ir.I64(-s)), ir.I64(1))
		}
	case syntax.RangeUpExcl:
		if s <= 0 {
			bad, n = always, ir.I64(0)
		} else {
			bad, n = cmp("<", z, a), l.arith(b, "//", l.arith(b, "+", l.arith(b, "-", z, a), ir.I64(s-1)), step)
		}
	default: // RangeDownExcl
		if s >= 0 {
			bad, n = always, ir.I64(0)
		} else {
			bad, n = cmp(">", z, a), l.arith(b, "//", l.arith(b, "+", l.arith(b, "-", a, z), ir.I64(-s-1)), ir.I64(-s))
		}
	}
	if bad != never {
		ok := bad
		if bad.IsConst() {
			ok = ir.C(value.MkBool(!bad.Val.Bool()))
		} else {
			ok = b.let1("ok", &ir.UnOpE{Op: "not", Args: []ir.Atom{bad}}, ir.Scalar(value.Bool)).a
		}
		l.checkUnlike(b, ok, "Range is invalid", e)
		// an invalid range stops at the check; n stays sound for the types
		n = l.binop(b, "max", &lvAtom{n, i64}, &lvAtom{ir.I64(0), i64}, e).a
	}
	if s == 1 {
		return b.let1("range", &ir.IotaE{N: n, Start: start.a}, t.ArrayOf(n))
	}
	// a + i·step, in the range's type
	i := ir.Param{Name: l.fresh("i"), T: i64}
	lb := &builder{l: l}
	off := lb.let1("off", &ir.BinOpE{Op: "*", X: ir.V(i.Name), Y: step, Implicit: true}, i64).a
	if t.Elem != value.I64 {
		off = lb.let1("off", &ir.ConvE{To: t.Elem, X: off, Implicit: true}, t).a
	}
	x := lb.let1("x", &ir.BinOpE{Op: "+", X: start.a, Y: off, Implicit: true}, t).a
	iota := b.let1("iota", &ir.IotaE{N: n}, ir.Type{Elem: value.I64, Shape: []ir.Atom{n}})
	lam := &ir.Lambda{Params: []ir.Param{i}, Ret: []ir.Type{t}, Body: &ir.Body{Stms: lb.stms, Res: []ir.Atom{x}}}
	return b.let1("range", &ir.ScremaE{W: n, Arrs: []string{iota.a.Name}, Map: lam}, t.ArrayOf(n))
}

// rangeDynamic is rangeExpr for a step known only at run time: the same
// rule, with the step's sign tested when the program runs.
func (l *lowerer) rangeDynamic(b *builder, e *syntax.Range, start *lvAtom, a, z, step ir.Atom) lv {
	i64 := ir.Scalar(value.I64)
	d := dyn{b, "rg"}
	op, not, sel := d.op, d.not, d.sel
	pos, neg := op(">", step, ir.I64(0)), op("<", step, ir.I64(0))
	absStep := op("max", sel(pos, step, op("-", ir.I64(0), step)), ir.I64(1)) // never 0 below
	var bad, n ir.Atom
	switch e.Op {
	case syntax.RangeIncl:
		bad = op("||", op("==", step, ir.I64(0)), op("||", op("&&", pos, op("<", z, a)), op("&&", neg, op(">", z, a))))
		dist := sel(pos, op("-", z, a), op("-", a, z))
		n = op("+", op("//", dist, absStep), ir.I64(1))
	case syntax.RangeUpExcl:
		bad = op("||", not(pos), op("<", z, a))
		n = op("//", op("+", op("-", z, a), op("-", absStep, ir.I64(1))), absStep)
	default:
		bad = op("||", not(neg), op(">", z, a))
		n = op("//", op("+", op("-", a, z), op("-", absStep, ir.I64(1))), absStep)
	}
	l.checkUnlike(b, not(bad), "Range is invalid", e)
	n = op("max", n, ir.I64(0))
	t := start.t
	i := ir.Param{Name: l.fresh("i"), T: i64}
	lb := &builder{l: l}
	off := lb.let1("off", &ir.BinOpE{Op: "*", X: ir.V(i.Name), Y: step, Implicit: true}, i64).a
	if t.Elem != value.I64 {
		off = lb.let1("off", &ir.ConvE{To: t.Elem, X: off, Implicit: true}, t).a
	}
	x := lb.let1("x", &ir.BinOpE{Op: "+", X: start.a, Y: off, Implicit: true}, t).a
	iota := b.let1("iota", &ir.IotaE{N: n}, ir.Type{Elem: value.I64, Shape: []ir.Atom{n}})
	lam := &ir.Lambda{Params: []ir.Param{i}, Ret: []ir.Type{t}, Body: &ir.Body{Stms: lb.stms, Res: []ir.Atom{x}}}
	return b.let1("range", &ir.ScremaE{W: n, Arrs: []string{iota.a.Name}, Map: lam}, t.ArrayOf(n))
}

// updateSlice lowers dest with [slices…] = v: the slice's elements are
// written by a scatter into dest viewed as one dimension over the indexed
// ones, after checking the slice (as a[…] does) and v's shape.
func (l *lowerer) updateSlice(b *builder, env *lenv, dest lv, indices []*syntax.DimIndex, ve syntax.Expr, at syntax.Node) lv {
	shape := leafShape(dest)
	if len(indices) > len(shape) {
		l.fail(at, "more indices than the array has dimensions")
	}
	ds := make([]dimSlice, len(indices))
	for k, d := range indices {
		if !d.IsSlice {
			ds[k] = dimSlice{fix: true, i: l.toI64(b, l.scalar(b, env, d.Fix, value.I64))}
			continue
		}
		ds[k] = l.sliceDim(b, env, d, shape[k], at)
	}
	hint := value.NoPrim
	if a, ok := dest.(*lvAtom); ok {
		hint = a.t.Elem
	}
	v := l.expr(b, env, ve, hint)
	i64 := ir.Scalar(value.I64)
	// the value's outer sizes must be the slice's
	var lens []ir.Atom
	for _, d := range ds {
		if !d.fix {
			lens = append(lens, d.n)
		}
	}
	vshape := leafShape(v)
	if len(vshape) < len(lens) {
		l.fail(at, "an update of a slice with a value of lower rank")
	}
	for k, n := range lens {
		eq := l.binop(b, "==", &lvAtom{vshape[k], i64}, &lvAtom{n, i64}, at)
		l.checkUnlike(b, eq.a, "Shape of the value does not match the slice", at)
	}
	for k, d := range ds {
		if d.fix {
			in := l.binop(b, "&&", l.binop(b, "<=", &lvAtom{ir.I64(0), i64}, &lvAtom{d.i, i64}, at),
				l.binop(b, "<", &lvAtom{d.i, i64}, &lvAtom{shape[k], i64}, at), at)
			l.checkUnlike(b, in.a, "Index out of bounds", at)
		}
	}
	// q runs over the slice's elements; its position in dest, flattened
	// over the len(ds) indexed dimensions, is Σ idx_d · (size of the
	// dimensions after d).
	q := ir.I64(1)
	for _, n := range lens {
		q = l.arith(b, "*", q, n)
	}
	leaves, lts, _ := l.flatDest(b, dest, len(ds), at)
	vs, vts := l.flatten(v, at)
	if len(vs) != len(leaves) {
		l.fail(at, "an update with a value of another shape")
	}
	outs := make([]ir.Atom, len(leaves))
	for li, leaf := range leaves {
		rowT := ir.Type{Elem: vts[li].Elem, Shape: vts[li].Shape[len(lens):]}
		flatT := rowT.ArrayOf(q)
		va := vs[li]
		if va.IsConst() {
			l.fail(at, "an update of a slice with a constant")
		}
		// the update's rule (one step) includes the views and the index
		// arithmetic: the value viewed flat is a coercion, and the
		// arithmetic that places element q is implicit
		fv := b.let1("vals", &ir.ReshapeE{Arr: va.Name, Shape: flatT.Shape, Coerce: true}, flatT).a
		p := ir.Param{Name: l.fresh("q"), T: i64}
		row := ir.Param{Name: l.fresh("row"), T: rowT}
		lb := &builder{l: l}
		// decompose q into the slice coordinates, innermost fastest
		ks := make([]ir.Atom, len(lens))
		rest := ir.V(p.Name)
		for k := len(lens) - 1; k >= 0; k-- {
			if k == 0 {
				ks[k] = rest
				break
			}
			ks[k] = lb.let1("k", &ir.BinOpE{Op: "%%", X: rest, Y: lens[k], Implicit: true}, i64).a
			rest = lb.let1("k", &ir.BinOpE{Op: "//", X: rest, Y: lens[k], Implicit: true}, i64).a
		}
		pos := ir.I64(0)
		si := 0
		for k, d := range ds {
			var ix ir.Atom
			if d.fix {
				ix = d.i
			} else {
				ix = lb.let1("ix", &ir.BinOpE{Op: "*", X: ks[si], Y: d.stride, Implicit: true}, i64).a
				ix = lb.let1("ix", &ir.BinOpE{Op: "+", X: d.start, Y: ix, Implicit: true}, i64).a
				si++
			}
			if k > 0 {
				pos = lb.let1("pos", &ir.BinOpE{Op: "*", X: pos, Y: shape[k], Implicit: true}, i64).a
			}
			pos = lb.let1("pos", &ir.BinOpE{Op: "+", X: pos, Y: ix, Implicit: true}, i64).a
		}
		lam := &ir.Lambda{Params: []ir.Param{row}, Ret: []ir.Type{i64, rowT}, Body: &ir.Body{Stms: lb.stms, Res: []ir.Atom{pos, ir.V(row.Name)}}}
		outs[li] = b.let1("upd", &ir.ScatterE{Dest: leaf.Name, W: q, Arrs: []string{fv.Name}, Index: p.Name, Map: lam, Slice: true, Part: li > 0}, lts[li]).a
	}
	if len(ds) == 1 {
		return rebuild(dest, outs, noUniques(lts), 0)
	}
	return l.unflatDest(b, dest, outs, at)
}

// sliceDimDynamic is sliceDim for a stride known only at run time: the
// defaults and the check depend on its sign, tested when the program runs.
func (l *lowerer) sliceDimDynamic(b *builder, env *lenv, d *syntax.DimIndex, dim, stride ir.Atom, at syntax.Node) dimSlice {
	dy := dyn{b, "sl"}
	op, sel, not := dy.op, dy.sel, dy.not
	pos := op(">", stride, ir.I64(0))
	var start, end ir.Atom
	if d.Start != nil {
		start = l.toI64(b, l.scalar(b, env, d.Start, value.I64))
	} else {
		start = sel(pos, ir.I64(0), op("-", dim, ir.I64(1)))
	}
	if d.End != nil {
		end = l.toI64(b, l.scalar(b, env, d.End, value.I64))
	} else {
		end = sel(pos, dim, ir.I64(-1))
	}
	sgn := sel(pos, ir.I64(1), ir.I64(-1))
	zero := op("==", stride, ir.I64(0))
	safe := sel(zero, ir.I64(1), stride) // the check below fails first when 0
	n := op("//", op("+", op("-", end, start), op("-", stride, sgn)), safe)
	last := op("+", start, op("*", op("-", n, ir.I64(1)), stride))
	inb := op("&&", op("<=", ir.I64(0), last), op("<", last, dim))
	fwd := op("&&", op("&&", op("<=", ir.I64(0), start), op("<=", start, end)), inb)
	bwd := op("&&", op("&&", op("<=", ir.I64(-1), end), op("<=", end, start)), op("&&", inb, op("<", start, dim)))
	notPos := not(pos)
	dirOK := op("||", op("&&", pos, fwd), op("&&", notPos, bwd))
	ok := op("||", op("==", n, ir.I64(0)), dirOK)
	notZero := not(zero)
	l.checkUnlike(b, op("&&", notZero, ok), "Index out of bounds", at)
	n = op("max", n, ir.I64(0))
	return dimSlice{start: start, n: n, stride: stride}
}

// dyn builds the i64 and bool arithmetic of run-time checks (a range's or
// a slice's with a step known only when run) in b, folding constants;
// base names its variables.
type dyn struct {
	b    *builder
	base string
}

func (d dyn) op(o string, x, y ir.Atom) ir.Atom {
	t := ir.Scalar(value.I64)
	if bop, _ := value.LookupBinOp(o); bop.IsComparison() || o == "&&" || o == "||" {
		t = ir.Scalar(value.Bool)
	}
	if x.IsConst() && y.IsConst() {
		if r, err := ir.BinOp(o, x.Val, y.Val); err == nil {
			return ir.C(r)
		}
	}
	return d.b.let1(d.base, &ir.BinOpE{Op: o, X: x, Y: y}, t).a
}

func (d dyn) not(x ir.Atom) ir.Atom {
	return d.b.let1(d.base, &ir.UnOpE{Op: "not", Args: []ir.Atom{x}}, ir.Scalar(value.Bool)).a
}

// sel is if c then x else y on i64s.
func (d dyn) sel(c, x, y ir.Atom) ir.Atom {
	i64 := ir.Scalar(value.I64)
	ie := &ir.IfE{Cond: c, Then: &ir.Body{Res: []ir.Atom{x}}, Else: &ir.Body{Res: []ir.Atom{y}}, Ret: []ir.Type{i64}}
	return d.b.let1(d.base, ie, i64).a
}
