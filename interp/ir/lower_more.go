package ir

import (
	"strconv"

	"fut/eval/value"
	"fut/interp/syntax"
	"fut/interp/types"
)

// arrayCompare lowers x == y and x != y on arrays of scalars: equal when
// the shapes are equal and so is every element, as on the reference path.
func (l *lowerer) arrayCompare(b *builder, op string, x, y *lvAtom, at syntax.Node) lv {
	if op != "==" && op != "!=" {
		l.fail(at, "the operator %s on arrays", op)
	}
	if x.t.Elem != y.t.Elem || x.t.Rank() != y.t.Rank() {
		l.fail(at, "the operator %s on %s and %s", op, x.t, y.t)
	}
	bt := Scalar(value.Bool)
	same := C(value.MkBool(true))
	for i := range x.t.Shape {
		if dx, dy := x.t.Shape[i], y.t.Shape[i]; dx.IsConst() && dy.IsConst() && dx.Val.AsInt64() != dy.Val.AsInt64() {
			return &lvAtom{C(value.MkBool(op == "!=")), bt}
		}
	}
	for i := range x.t.Shape {
		eq := l.binop(b, "==", &lvAtom{x.t.Shape[i], Scalar(value.I64)}, &lvAtom{y.t.Shape[i], Scalar(value.I64)}, at)
		if same.IsConst() && same.Val.Bool() {
			same = eq.a
		} else {
			same = b.let1("same", &BinOpE{Op: "&&", X: same, Y: eq.a}, bt).a
		}
	}
	// Then: compare the elements of both, flattened to one dimension.
	tb := &builder{l: l}
	n := I64(1)
	for _, d := range x.t.Shape {
		n = l.arith(tb, "*", n, d)
	}
	flat := func(a *lvAtom) string {
		if a.a.IsConst() {
			l.fail(at, "a comparison of constant arrays")
		}
		if a.t.Rank() == 1 && a.t.Shape[0] == n {
			return a.a.Name
		}
		return tb.let1("flat", &ReshapeE{Arr: a.a.Name, Shape: []Atom{n}}, Type{Elem: a.t.Elem, Shape: []Atom{n}}).a.Name
	}
	xs, ys := flat(x), flat(y)
	px, py := Param{l.fresh("x"), Scalar(x.t.Elem)}, Param{l.fresh("y"), Scalar(x.t.Elem)}
	mb := &builder{l: l}
	e := mb.let1("eq", &BinOpE{Op: "==", X: V(px.Name), Y: V(py.Name)}, bt)
	mapLam := &Lambda{Params: []Param{px, py}, Ret: []Type{bt}, Body: &Body{Stms: mb.stms, Res: []Atom{e.a}}}
	ra, rb := Param{l.fresh("a"), bt}, Param{l.fresh("b"), bt}
	ob := &builder{l: l}
	and := ob.let1("and", &BinOpE{Op: "&&", X: V(ra.Name), Y: V(rb.Name)}, bt)
	red := &SegOp{Lam: &Lambda{Params: []Param{ra, rb}, Ret: []Type{bt}, Body: &Body{Stms: ob.stms, Res: []Atom{and.a}}}, Nes: []Atom{C(value.MkBool(true))}}
	all := tb.let1("all", &ScremaE{W: n, Arrs: []string{xs, ys}, Reds: []*SegOp{red}, Map: mapLam}, bt)
	ie := &IfE{Cond: same, Then: &Body{Stms: tb.stms, Res: []Atom{all.a}}, Else: &Body{Res: []Atom{C(value.MkBool(false))}}, Ret: []Type{bt}}
	r := b.let1("eq", ie, bt)
	if op == "!=" {
		return b.let1("neq", &UnOpE{Op: "not", Args: []Atom{r.a}}, bt)
	}
	return r
}

// check emits an assertion that cond holds, failing with msg at the
// position of at, as the reference path fails there.
func (l *lowerer) check(b *builder, cond Atom, msg string, at syntax.Node) {
	if cond.IsConst() && cond.Val.Bool() {
		return
	}
	where := l.userWhere(at)
	b.let("check", &AssertE{Cond: cond, Msg: msg, Where: where}, Scalar(value.Bool))
}

// coerce lowers e :> t: the sizes that t names are compared with the
// value's at run time (and at lowering time when both are known), a
// mismatch fails where the reference path fails, and the value takes the
// sizes of t (a reshape, which is a view).
func (l *lowerer) coerce(b *builder, env *lenv, e *syntax.Coerce, hint Prim) lv {
	x := l.expr(b, env, e.X, hint)
	return l.coerceTo(b, env, x, e.Type, nil, e)
}

// coerceTo gives x the sizes of te; outer are the sizes wanted for the
// dimensions that x's enclosing array of tuples adds to each leaf.
func (l *lowerer) coerceTo(b *builder, env *lenv, x lv, te syntax.TypeExp, outer []Atom, at *syntax.Coerce) lv {
	var dims []syntax.Expr // the wanted sizes, nil where open
	for {
		switch t := te.(type) {
		case *syntax.TEParen:
			te = t.T
			continue
		case *syntax.TEUnique:
			te = t.T
			continue
		case *syntax.TEArray:
			dims = append(dims, t.Dim)
			te = t.Elem
			continue
		case *syntax.TETuple, *syntax.TERecord:
			tup, ok := x.(*lvTuple)
			if !ok || tup.rank != len(dims) {
				l.fail(at, "a size coercion (:>) of a value that does not have the type's shape")
			}
			ws := append(append([]Atom{}, outer...), l.wantDims(b, env, leafShape(x), dims, at)...)
			out := &lvTuple{names: tup.names, rank: tup.rank}
			if tt, isTuple := t.(*syntax.TETuple); isTuple {
				if len(tt.Elems) != len(tup.elems) {
					l.fail(at, "a size coercion (:>) of a tuple of another length")
				}
				for i, et := range tt.Elems {
					out.elems = append(out.elems, l.coerceTo(b, env, tup.elems[i], et, ws, at))
				}
				return out
			}
			out.elems = append(out.elems, tup.elems...)
			for _, f := range t.(*syntax.TERecord).Fields {
				for i, n := range tup.names {
					if n == f.Name {
						out.elems[i] = l.coerceTo(b, env, tup.elems[i], f.Type, ws, at)
					}
				}
			}
			return out
		case *syntax.TEVar:
			if len(t.Name.Quals) == 0 && value.ParsePrimType(t.Name.Name) != value.NoPrim {
				break
			}
			// A type abbreviation or a type parameter: the checker's
			// type of the coercion says what it stands for.
			return l.coerceChecked(b, env, x, outer, dims, at)
		default:
			return l.coerceChecked(b, env, x, outer, dims, at)
		}
		break
	}
	a, ok := x.(*lvAtom)
	if !ok {
		if len(dims) == 0 && len(outer) == 0 {
			return x
		}
		l.fail(at, "a size coercion (:>) of a value that does not have the type's shape")
	}
	if len(outer)+len(dims) == 0 {
		return x
	}
	shape := a.t.Shape
	if len(shape) < len(outer)+len(dims) {
		l.fail(at, "a size coercion (:>) of a value of lower rank")
	}
	want := append(append([]Atom{}, outer...), l.wantDims(b, env, shape[len(outer):], dims, at)...)
	same := true
	for i, w := range want {
		same = same && w == shape[i]
	}
	if same || a.a.IsConst() {
		return x
	}
	t := Type{Elem: a.t.Elem, Shape: append(want, shape[len(want):]...)}
	return b.let1("coerce", &ReshapeE{Arr: a.a.Name, Shape: t.Shape}, t)
}

// wantDims checks the sizes of shape against the wanted ones (nil: open)
// and returns the sizes the value has afterwards.
func (l *lowerer) wantDims(b *builder, env *lenv, shape []Atom, dims []syntax.Expr, at *syntax.Coerce) []Atom {
	out := make([]Atom, len(dims))
	for i, d := range dims {
		out[i] = shape[i]
		if d == nil {
			continue
		}
		want := l.sizeExpr(b, env, d)
		wa := l.toI64(b, want)
		if wa.IsConst() && shape[i].IsConst() {
			if wa.Val.AsInt64() != shape[i].Val.AsInt64() {
				// fails when run, before anything uses the new size
				l.check(b, C(value.MkBool(false)), "size coercion fails", at)
				out[i] = wa
			}
			continue
		}
		eq := l.binop(b, "==", &lvAtom{shape[i], Scalar(value.I64)}, &lvAtom{wa, Scalar(value.I64)}, at)
		l.check(b, eq.a, "size coercion fails", at)
		out[i] = wa
	}
	return out
}

// sizeExpr lowers a size in a type expression: a size name in scope (the
// names of types are not in the checker's table of uses, and are scoped as
// variables are), a constant, or an expression.
func (l *lowerer) sizeExpr(b *builder, env *lenv, d syntax.Expr) *lvAtom {
	switch x := d.(type) {
	case *syntax.Var:
		if _, ok := l.info.Use(x); !ok {
			// not resolved by the checker (a name it made up): in scope
			if len(x.Name.Quals) == 0 {
				if v, ok := env.lookup(x.Name.Name); ok {
					if a, ok := v.(*lvAtom); ok && a.t.Rank() == 0 && a.t.Elem.IsInt() {
						return a
					}
				}
			}
			l.fail(d, "the size %s is not known to the lowering", x.Name)
		}
	case *syntax.Paren:
		return l.sizeExpr(b, env, x.X)
	}
	a := l.scalar(b, env, d, value.I64)
	if a.t.Rank() != 0 || !a.t.Elem.IsInt() {
		l.fail(d, "a size that is not an integer")
	}
	return a
}

// flatIndex emits, into lb, the index into d dimensions dims flattened
// (row-major) of the d indices is, or -1 when one is out of bounds (which
// scatter and reduce_by_index skip, as for one dimension).
func (l *lowerer) flatIndex(lb *builder, is []Atom, dims []Atom) Atom {
	if len(is) == 1 {
		return is[0]
	}
	i64, bt := Scalar(value.I64), Scalar(value.Bool)
	var ok, flat Atom
	for k, i := range is {
		lo := lb.let1("lo", &BinOpE{Op: "<=", X: I64(0), Y: i}, bt).a
		hi := lb.let1("hi", &BinOpE{Op: "<", X: i, Y: dims[k]}, bt).a
		in := lb.let1("in", &BinOpE{Op: "&&", X: lo, Y: hi}, bt).a
		if k == 0 {
			ok, flat = in, i
			continue
		}
		ok = lb.let1("in", &BinOpE{Op: "&&", X: ok, Y: in}, bt).a
		flat = lb.let1("row", &BinOpE{Op: "*", X: flat, Y: dims[k]}, i64).a
		flat = lb.let1("flat", &BinOpE{Op: "+", X: flat, Y: i}, i64).a
	}
	ie := &IfE{Cond: ok, Then: &Body{Res: []Atom{flat}}, Else: &Body{Res: []Atom{I64(-1)}}, Ret: []Type{i64}}
	return lb.let1("idx", ie, i64).a
}

// indexAtoms are the d index components of one element of an index array.
func (l *lowerer) indexAtoms(v lv, d int, at syntax.Node) []Atom {
	if d == 1 {
		a, ok := v.(*lvAtom)
		if !ok || a.t.Rank() != 0 {
			l.fail(at, "an index that is not an i64")
		}
		return []Atom{a.a}
	}
	t, ok := v.(*lvTuple)
	if !ok || len(t.elems) != d {
		l.fail(at, "an index that is not a tuple of %d i64s", d)
	}
	out := make([]Atom, d)
	for k, e := range t.elems {
		out[k] = l.indexAtoms(e, 1, at)[0]
	}
	return out
}

// flatDest views each leaf of dest ([k1]…[kd] rest) as [k1·…·kd] rest.
func (l *lowerer) flatDest(b *builder, dest lv, d int, at syntax.Node) (leaves []Atom, ts []Type, dims []Atom) {
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
			n := I64(1)
			for _, k := range t.Shape[:d] {
				n = l.arith(b, "*", n, k)
			}
			ft := Type{Elem: t.Elem, Shape: append([]Atom{n}, t.Shape[d:]...)}
			a = b.let1("flat", &ReshapeE{Arr: a.Name, Shape: ft.Shape}, ft).a
			t = ft
		}
		leaves, ts = append(leaves, a), append(ts, t)
	}
	return
}

// unflatDest gives the results of flatDest's leaves their shape back.
func (l *lowerer) unflatDest(b *builder, dest lv, outs []Atom, at syntax.Node) lv {
	_, types := l.flatten(dest, at)
	res := make([]Atom, len(outs))
	for i, o := range outs {
		t := noUnique(types[i])
		res[i] = b.let1("unflat", &ReshapeE{Arr: o.Name, Shape: t.Shape}, t).a
	}
	return rebuild(dest, res, noUniques(types), 0)
}

func noUniques(ts []Type) []Type {
	out := make([]Type, len(ts))
	for i, t := range ts {
		out[i] = noUnique(t)
	}
	return out
}

// scatterN lowers scatter (d = 1) and scatter_2d/3d: each leaf of dest
// (an array of tuples has several) is written by a ScatterE at the
// flattened indices.
func (l *lowerer) scatterN(b *builder, dest, is, vs lv, d int, at syntax.Node) lv {
	leaves, lts, dims := l.flatDest(b, dest, d, at)
	outs := make([]Atom, len(leaves))
	for k, leaf := range leaves {
		// each ScatterE has a lambda (and parameters) of its own
		arrs, w, params, elems := l.rows(b, []lv{is, vs}, at)
		vals, vts := l.flatten(elems[1], at)
		if len(vals) != len(leaves) {
			l.fail(at, "scatter values that do not match the destination's elements")
		}
		lb := &builder{l: l}
		idx := l.flatIndex(lb, l.indexAtoms(elems[0], d, at), dims)
		lam := &Lambda{Params: params, Ret: []Type{Scalar(value.I64), vts[k]}, Body: &Body{Stms: lb.stms, Res: []Atom{idx, vals[k]}}}
		outs[k] = b.let1("scatter", &ScatterE{Dest: leaf.Name, W: w, Arrs: arrs, Map: lam}, lts[k]).a
	}
	if d == 1 {
		return rebuild(dest, outs, lts, 0)
	}
	return l.unflatDest(b, dest, outs, at)
}

// histN lowers reduce_by_index_2d/3d as a histogram over the flattened
// destination.
func (l *lowerer) histN(b *builder, dest *lvAtom, op lv, ne *lvAtom, is, vs lv, d int, at syntax.Node) lv {
	leaves, lts, dims := l.flatDest(b, dest, d, at)
	arrs, w, params, elems := l.rows(b, []lv{is, vs}, at)
	va, ok := elems[1].(*lvAtom)
	if !ok || !ne.t.Equal(lts[0].Row()) {
		l.fail(at, "a histogram whose values do not fit its destination")
	}
	lb := &builder{l: l}
	idx := l.flatIndex(lb, l.indexAtoms(elems[0], d, at), dims)
	x, y := Param{l.fresh("x"), ne.t}, Param{l.fresh("y"), ne.t}
	opLam, _ := l.lambda(op, []Param{x, y}, []lv{&lvAtom{V(x.Name), x.T}, &lvAtom{V(y.Name), y.T}}, at)
	lam := &Lambda{Params: params, Ret: []Type{Scalar(value.I64), va.t}, Body: &Body{Stms: lb.stms, Res: []Atom{idx, va.a}}}
	h := &HistE{Dest: leaves[0].Name, W: w, Arrs: arrs, Op: &SegOp{Lam: opLam, Nes: []Atom{ne.a}}, Map: lam}
	out := b.let1("hist", h, lts[0]).a
	return l.unflatDest(b, dest, []Atom{out}, at)
}

// unflatten n m xs views xs as [n][m] (checked: n and m not negative,
// n·m the outer size, as on the reference path).
func (l *lowerer) unflatten(b *builder, n, m *lvAtom, xs lv, at syntax.Node) lv {
	na, ma := l.toI64(b, n), l.toI64(b, m)
	ok := l.binop(b, "&&", l.binop(b, "<=", &lvAtom{I64(0), Scalar(value.I64)}, &lvAtom{na, Scalar(value.I64)}, at),
		l.binop(b, "<=", &lvAtom{I64(0), Scalar(value.I64)}, &lvAtom{ma, Scalar(value.I64)}, at), at)
	shape := leafShape(xs)
	if len(shape) == 0 {
		l.fail(at, "unflatten of a value that is not an array")
	}
	prod := l.arith(b, "*", na, ma)
	same := l.binop(b, "==", &lvAtom{prod, Scalar(value.I64)}, &lvAtom{shape[0], Scalar(value.I64)}, at)
	all := l.binop(b, "&&", ok, same, at)
	l.check(b, all.a, "Cannot unflatten", at)
	as, ts := l.flatten(xs, at)
	outs := make([]Atom, len(as))
	outTs := make([]Type, len(as))
	for i, a := range as {
		t := Type{Elem: ts[i].Elem, Shape: append([]Atom{na, ma}, ts[i].Shape[1:]...)}
		outs[i] = b.let1("unflat", &ReshapeE{Arr: a.Name, Shape: t.Shape}, t).a
		outTs[i] = t
	}
	return rebuild(xs, outs, outTs, 1)
}

// rotate r xs: element i is xs[(i + r) mod n], gathered by a map.
func (l *lowerer) rotate(b *builder, r *lvAtom, xs lv, at syntax.Node) lv {
	shape := leafShape(xs)
	if len(shape) == 0 {
		l.fail(at, "rotate of a value that is not an array")
	}
	n := shape[0]
	ra := l.toI64(b, r)
	i64 := Scalar(value.I64)
	// k = ((r mod n) + n) mod n, 0 for an empty array
	nz := l.binop(b, "max", &lvAtom{n, i64}, &lvAtom{I64(1), i64}, at).a
	k := l.arith(b, "%%", l.arith(b, "+", l.arith(b, "%%", ra, nz), nz), nz)
	as, ts := l.flatten(xs, at)
	i := Param{l.fresh("i"), i64}
	lb := &builder{l: l}
	j := lb.let1("j", &BinOpE{Op: "+", X: V(i.Name), Y: k}, i64).a
	j = lb.let1("j", &BinOpE{Op: "%%", X: j, Y: nz}, i64).a
	res := make([]Atom, len(as))
	rts := make([]Type, len(as))
	outTs := make([]Type, len(as))
	for q, a := range as {
		if a.IsConst() {
			l.fail(at, "rotate of a constant")
		}
		rts[q] = ts[q].Row()
		res[q] = lb.let1("elem", &IndexE{Arr: a.Name, Idx: []Atom{j}}, rts[q]).a
		outTs[q] = noUnique(ts[q])
	}
	iota := b.let1("iota", &IotaE{N: n}, Type{Elem: value.I64, Shape: []Atom{n}})
	lam := &Lambda{Params: []Param{i}, Ret: rts, Body: &Body{Stms: lb.stms, Res: res}}
	outs := b.let("rotate", &ScremaE{W: n, Arrs: []string{iota.a.Name}, Map: lam}, outTs...)
	return rebuild(xs, outs, outTs, 0)
}

// partition p xs is the elements that satisfy p, then those that do not,
// each in order: two filters.
func (l *lowerer) partition(b *builder, p, xs lv, at syntax.Node) lv {
	yes := l.filterWith(b, p, xs, false, at)
	no := l.filterWith(b, p, xs, true, at)
	return &lvTuple{elems: []lv{yes, no}}
}

// userWhere is the position of at, or, when at is in the prelude, of the
// innermost call in the user's code: where the reference path reports an
// error.
func (l *lowerer) userWhere(at syntax.Node) string {
	if l.fset == nil {
		return ""
	}
	inLib := func(n syntax.Node) bool {
		f := l.fset.File(n.Pos())
		return f != nil && f.Library
	}
	n := at
	for i := len(l.calls) - 1; n != nil && n.Pos().IsValid() && inLib(n) && i >= 0; i-- {
		n = l.calls[i]
	}
	if n == nil || !n.Pos().IsValid() {
		return ""
	}
	return l.fset.Position(n.Pos()).String()
}

// sameSize gives the array a (of type t) the outer size w, after checking
// that its size is w.
func (l *lowerer) sameSize(b *builder, a Atom, t Type, w Atom, at syntax.Node) (Atom, Type) {
	i64 := Scalar(value.I64)
	if t.Shape[0].IsConst() && w.IsConst() {
		if t.Shape[0].Val.AsInt64() != w.Val.AsInt64() {
			l.fail(at, "SOAC inputs of different sizes (%s and %s)", w, t.Shape[0])
		}
	} else {
		eq := l.binop(b, "==", &lvAtom{t.Shape[0], i64}, &lvAtom{w, i64}, at)
		l.check(b, eq.a, "arrays of different sizes", at)
	}
	nt := Type{Elem: t.Elem, Shape: append([]Atom{w}, t.Shape[1:]...)}
	return b.let1("sized", &ReshapeE{Arr: a.Name, Shape: nt.Shape}, nt).a, nt
}

// coerceChecked coerces x by the checker's type of the coercion, for
// target types written with abbreviations (ints [3], M.t). dims are the
// array dimensions already read off the syntax, which the checker's type
// begins with too.
func (l *lowerer) coerceChecked(b *builder, env *lenv, x lv, outer []Atom, dims []syntax.Expr, at *syntax.Coerce) lv {
	t, ok := l.info.TypeOf(at)
	if !ok {
		l.fail(at, "a size coercion (:>) without a type from the checker")
	}
	return l.coerceType(b, env, x, t, outer, at)
}

// coerceType gives x the sizes of the checked type t.
func (l *lowerer) coerceType(b *builder, env *lenv, x lv, t types.Type, outer []Atom, at *syntax.Coerce) lv {
	var want []Atom
	t = types.Resolve(t)
	for {
		arr, ok := t.(*types.Array)
		if !ok {
			break
		}
		want = append(want, l.checkedSize(env, arr.Dim, at))
		t = types.Resolve(arr.Elem)
	}
	switch tt := t.(type) {
	case *types.Prim:
		a, ok := x.(*lvAtom)
		if !ok || len(a.t.Shape) != len(outer)+len(want) {
			l.fail(at, "a size coercion (:>) of a value that does not have the type's shape")
		}
		if len(want) == 0 {
			return x
		}
		shape := a.t.Shape[len(outer):]
		ws := append([]Atom{}, outer...)
		for i, w := range want {
			ws = append(ws, l.checkSize(b, shape[i], w, at))
		}
		same := true
		for i, w := range ws {
			same = same && w == a.t.Shape[i]
		}
		if same || a.a.IsConst() {
			return x
		}
		nt := Type{Elem: a.t.Elem, Shape: ws}
		return b.let1("coerce", &ReshapeE{Arr: a.a.Name, Shape: nt.Shape}, nt)
	case *types.Record:
		tup, ok := x.(*lvTuple)
		if !ok || tup.sum != nil || tup.rank != len(want) {
			l.fail(at, "a size coercion (:>) of a value that does not have the type's shape")
		}
		shape := leafShape(x)
		ws := append([]Atom{}, outer...)
		for i, w := range want {
			ws = append(ws, l.checkSize(b, shape[i], w, at))
		}
		out := &lvTuple{names: tup.names, rank: tup.rank}
		for _, f := range tt.Fields {
			v, ok := tup.field(f.Name)
			if !ok {
				l.fail(at, "no field %s", f.Name)
			}
			out.elems = append(out.elems, l.coerceType(b, env, v, f.Type, ws, at))
		}
		if len(out.elems) != len(tup.elems) {
			l.fail(at, "a size coercion (:>) of a record with other fields")
		}
		// keep the fields in the value's order
		sorted := make([]lv, len(tup.elems))
		for i := range tup.elems {
			name := strconv.Itoa(i)
			if tup.names != nil {
				name = tup.names[i]
			}
			for k, f := range tt.Fields {
				if f.Name == name {
					sorted[i] = out.elems[k]
				}
			}
		}
		out.elems = sorted
		return out
	}
	// A type parameter ('t, no arguments): the sizes apply to the outer
	// dimensions of every leaf of the value, whatever its elements are. An
	// abstract type with arguments (P.vec [n]) hides how its sizes relate
	// to the value's: that stays on the reference path.
	con, ok := t.(*types.Con)
	if !ok || len(con.Args) > 0 {
		l.fail(at, "a size coercion (:>) to the type %s is checked on the reference path", t)
	}
	shape := leafShape(x)
	if len(shape) < len(outer)+len(want) {
		l.fail(at, "a size coercion (:>) of a value of lower rank")
	}
	ws := append([]Atom{}, outer...)
	for i, w := range want {
		ws = append(ws, l.checkSize(b, shape[len(outer)+i], w, at))
	}
	as, ts := l.flatten(x, at)
	outs := make([]Atom, len(as))
	outTs := make([]Type, len(as))
	for i, a := range as {
		nt := Type{Elem: ts[i].Elem, Shape: append(append([]Atom{}, ws...), ts[i].Shape[len(ws):]...)}
		outTs[i] = nt
		outs[i] = a
		if !a.IsConst() && !nt.Equal(ts[i]) {
			outs[i] = b.let1("coerce", &ReshapeE{Arr: a.Name, Shape: nt.Shape}, nt).a
		}
	}
	return rebuild(x, outs, outTs, 0)
}

// checkedSize is a size of a checked type as an atom; the zero Atom for a
// size the type leaves open (an anonymous or existential one). A size the
// lowering cannot compute stops the lowering: it is never left unchecked.
func (l *lowerer) checkedSize(env *lenv, s types.Size, at syntax.Node) Atom {
	switch z := types.ResolveSize(s).(type) {
	case *types.SizeConst:
		return I64(z.N)
	case *types.SizeName:
		if z.Unknown {
			return Atom{}
		}
		if z.Name != "" {
			if v, ok := env.lookup(z.Name); ok {
				if a, ok := v.(*lvAtom); ok && a.t.Rank() == 0 && a.t.Elem.IsInt() {
					return a.a
				}
			}
		}
	case types.SizeVar:
		return Atom{}
	}
	l.fail(at, "a size coercion (:>) to a size the lowering cannot compute (%s) is checked on the reference path", s)
	return Atom{}
}

// checkSize asserts that got is want (the zero Atom: anything) and
// returns the size the value has afterwards.
func (l *lowerer) checkSize(b *builder, got, want Atom, at syntax.Node) Atom {
	if want == (Atom{}) || want == got {
		return got
	}
	if want.IsConst() && got.IsConst() {
		if want.Val.AsInt64() != got.Val.AsInt64() {
			l.check(b, C(value.MkBool(false)), "size coercion fails", at)
		}
		return want
	}
	eq := l.binop(b, "==", &lvAtom{got, Scalar(value.I64)}, &lvAtom{want, Scalar(value.I64)}, at)
	l.check(b, eq.a, "size coercion fails", at)
	return want
}

// bindTypeSizes binds the size names of the checked type t to the sizes of
// v, as bindSizes does for the sizes written in a type expression.
func (l *lowerer) bindTypeSizes(env *lenv, t types.Type, v lv) *lenv {
	t = types.Resolve(t)
	dims := leafShape(v)
	depth := 0
	for {
		arr, ok := t.(*types.Array)
		if !ok {
			break
		}
		if depth < len(dims) {
			if z, ok := types.ResolveSize(arr.Dim).(*types.SizeName); ok && !z.Unknown && z.Name != "" {
				if _, bound := env.lookup(z.Name); !bound || l.sizeScope[z.Name] {
					env = env.bind(z.Name, &lvAtom{dims[depth], Scalar(value.I64)})
				}
			}
		}
		depth++
		t = types.Resolve(arr.Elem)
	}
	if rec, ok := t.(*types.Record); ok {
		if tup, ok := v.(*lvTuple); ok && tup.sum == nil && tup.rank == depth {
			for _, f := range rec.Fields {
				if x, ok := tup.field(f.Name); ok {
					// the fields' own dimensions follow the array's
					env = l.bindTypeSizes(env, wrapArrays(f.Type, depth), x)
				}
			}
		}
	}
	return env
}

// wrapArrays puts k anonymous outer dimensions around a field's type, so
// that a field of an array of records is seen with the array's dimensions
// first, as its lowered value has them.
func wrapArrays(t types.Type, k int) types.Type {
	for i := 0; i < k; i++ {
		t = &types.Array{Dim: &types.SizeName{Unknown: true}, Elem: t}
	}
	return t
}

// followPath applies an index section's path (.[i].x …) to v.
func (l *lowerer) followPath(b *builder, env *lenv, v lv, path []syntax.PathElem, at syntax.Node) lv {
	for _, pe := range path {
		if pe.Field != "" {
			v = l.project(at, v, pe.Field)
			continue
		}
		v = l.indexWith(b, env, v, pe.Indices, at)
	}
	return v
}

// holeValue is a stand-in of type t for a hole (never used: the program
// fails at the hole first).
func (l *lowerer) holeValue(b *builder, env *lenv, t types.Type, at syntax.Node) lv {
	if _, ok := types.Resolve(t).(*types.Arrow); ok {
		return &lvHole{t: t}
	}
	return l.zero(b, env, t, at)
}

// resized gives x the type want when only sizes differ (sizes the checker
// proved equal that the lowering computed apart): checked, then viewed
// with want's shape.
func (l *lowerer) resized(b *builder, x *lvAtom, want Type, at syntax.Node) *lvAtom {
	if x.t.Elem != want.Elem || x.t.Rank() != want.Rank() || x.a.IsConst() {
		l.fail(at, "a value of type %s where %s is needed", x.t, want)
	}
	i64 := Scalar(value.I64)
	for k, d := range x.t.Shape {
		w := want.Shape[k]
		if d == w {
			continue
		}
		if d.IsConst() && w.IsConst() {
			l.fail(at, "a value of type %s where %s is needed", x.t, want)
		}
		eq := l.binop(b, "==", &lvAtom{d, i64}, &lvAtom{w, i64}, at)
		l.check(b, eq.a, "arrays of different sizes", at)
	}
	return b.let1("sized", &ReshapeE{Arr: x.a.Name, Shape: want.Shape}, want)
}

// checkNonNegative asserts that a size is not negative (as iota and replicate
// check on the reference path: a fused iota would otherwise be an empty
// generator).
func (l *lowerer) checkNonNegative(b *builder, n Atom, at syntax.Node) {
	if n.IsConst() && n.Val.AsInt64() >= 0 {
		return
	}
	ok := l.binop(b, "<=", &lvAtom{I64(0), Scalar(value.I64)}, &lvAtom{n, Scalar(value.I64)}, at)
	l.check(b, ok.a, "negative size", at)
}
