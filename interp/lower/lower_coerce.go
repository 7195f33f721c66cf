package lower

import (
	"fut/interp/ir"
	"strconv"

	"fut/eval/value"
	"fut/interp/syntax"
	"fut/interp/types"
)

// Size coercions (e :> t) and the checks of sizes: a coercion compares the
// sizes it names with the value's when the program runs (assertions), and
// the value takes the sizes of the type; a size the lowering cannot compute
// stops the lowering rather than going unchecked.

func (l *lowerer) coerce(b *builder, env *lenv, e *syntax.Coerce, hint ir.Prim) lv {
	x := l.expr(b, env, e.X, hint)
	return l.coerceTo(b, env, x, e.Type, nil, e)
}

func (l *lowerer) coerceTo(b *builder, env *lenv, x lv, te syntax.TypeExp, outer []ir.Atom, at *syntax.Coerce) lv {
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
			ws := append(append([]ir.Atom{}, outer...), l.wantDims(b, env, leafShape(x), dims, at)...)
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
	want := append(append([]ir.Atom{}, outer...), l.wantDims(b, env, shape[len(outer):], dims, at)...)
	same := true
	for i, w := range want {
		same = same && w == shape[i]
	}
	if same || a.a.IsConst() {
		return x
	}
	t := ir.Type{Elem: a.t.Elem, Shape: append(want, shape[len(want):]...)}
	return b.let1("coerce", &ir.ReshapeE{Arr: a.a.Name, Shape: t.Shape, Coerce: true}, t)
}

func (l *lowerer) wantDims(b *builder, env *lenv, shape []ir.Atom, dims []syntax.Expr, at *syntax.Coerce) []ir.Atom {
	out := make([]ir.Atom, len(dims))
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
				l.checkUnlike(b, ir.C(value.MkBool(false)), "size coercion fails", at)
				out[i] = wa
			}
			continue
		}
		eq := l.binop(b, "==", &lvAtom{shape[i], ir.Scalar(value.I64)}, &lvAtom{wa, ir.Scalar(value.I64)}, at)
		l.checkUnlike(b, eq.a, "size coercion fails", at)
		out[i] = wa
	}
	return out
}

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

func (l *lowerer) coerceChecked(b *builder, env *lenv, x lv, outer []ir.Atom, dims []syntax.Expr, at *syntax.Coerce) lv {
	t, ok := l.info.TypeOf(at)
	if !ok {
		l.fail(at, "a size coercion (:>) without a type from the checker")
	}
	return l.coerceType(b, env, x, t, outer, at)
}

func (l *lowerer) coerceType(b *builder, env *lenv, x lv, t types.Type, outer []ir.Atom, at *syntax.Coerce) lv {
	var want []ir.Atom
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
		ws := append([]ir.Atom{}, outer...)
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
		nt := ir.Type{Elem: a.t.Elem, Shape: ws}
		return b.let1("coerce", &ir.ReshapeE{Arr: a.a.Name, Shape: nt.Shape, Coerce: true}, nt)
	case *types.Record:
		tup, ok := x.(*lvTuple)
		if !ok || tup.sum != nil || tup.rank != len(want) {
			l.fail(at, "a size coercion (:>) of a value that does not have the type's shape")
		}
		shape := leafShape(x)
		ws := append([]ir.Atom{}, outer...)
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
	ws := append([]ir.Atom{}, outer...)
	for i, w := range want {
		ws = append(ws, l.checkSize(b, shape[len(outer)+i], w, at))
	}
	as, ts := l.flatten(x, at)
	outs := make([]ir.Atom, len(as))
	outTs := make([]ir.Type, len(as))
	for i, a := range as {
		nt := ir.Type{Elem: ts[i].Elem, Shape: append(append([]ir.Atom{}, ws...), ts[i].Shape[len(ws):]...)}
		outTs[i] = nt
		outs[i] = a
		if !a.IsConst() && !nt.Equal(ts[i]) {
			outs[i] = b.let1("coerce", &ir.ReshapeE{Arr: a.Name, Shape: nt.Shape, Coerce: true}, nt).a
		}
	}
	return rebuild(x, outs, outTs, 0)
}

func (l *lowerer) checkedSize(env *lenv, s types.Size, at syntax.Node) ir.Atom {
	switch z := types.ResolveSize(s).(type) {
	case *types.SizeConst:
		return ir.I64(z.N)
	case *types.SizeName:
		if z.Unknown {
			return ir.Atom{}
		}
		if z.Name != "" {
			if v, ok := env.lookup(z.Name); ok {
				if a, ok := v.(*lvAtom); ok && a.t.Rank() == 0 && a.t.Elem.IsInt() {
					return a.a
				}
			}
		}
	case types.SizeVar:
		return ir.Atom{}
	}
	l.fail(at, "a size coercion (:>) to a size the lowering cannot compute (%s) is checked on the reference path", s)
	return ir.Atom{}
}

func (l *lowerer) checkSize(b *builder, got, want ir.Atom, at syntax.Node) ir.Atom {
	if want == (ir.Atom{}) || want == got {
		return got
	}
	if want.IsConst() && got.IsConst() {
		if want.Val.AsInt64() != got.Val.AsInt64() {
			l.checkUnlike(b, ir.C(value.MkBool(false)), "size coercion fails", at)
		}
		return want
	}
	eq := l.binop(b, "==", &lvAtom{got, ir.Scalar(value.I64)}, &lvAtom{want, ir.Scalar(value.I64)}, at)
	l.checkUnlike(b, eq.a, "size coercion fails", at)
	return want
}

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
					env = env.bind(z.Name, &lvAtom{dims[depth], ir.Scalar(value.I64)})
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

func wrapArrays(t types.Type, k int) types.Type {
	for i := 0; i < k; i++ {
		t = &types.Array{Dim: &types.SizeName{Unknown: true}, Elem: t}
	}
	return t
}

func (l *lowerer) sameSize(b *builder, a ir.Atom, t ir.Type, w ir.Atom, at syntax.Node) (ir.Atom, ir.Type) {
	i64 := ir.Scalar(value.I64)
	if t.Shape[0].IsConst() && w.IsConst() {
		if t.Shape[0].Val.AsInt64() != w.Val.AsInt64() {
			l.fail(at, "SOAC inputs of different sizes (%s and %s)", w, t.Shape[0])
		}
	} else {
		eq := l.binop(b, "==", &lvAtom{t.Shape[0], i64}, &lvAtom{w, i64}, at)
		l.checkUnlike(b, eq.a, "arrays of different sizes", at)
	}
	nt := ir.Type{Elem: t.Elem, Shape: append([]ir.Atom{w}, t.Shape[1:]...)}
	return b.let1("sized", &ir.ReshapeE{Arr: a.Name, Shape: nt.Shape, Coerce: true}, nt).a, nt
}

func (l *lowerer) resized(b *builder, x *lvAtom, want ir.Type, at syntax.Node) *lvAtom {
	if x.t.Elem != want.Elem || x.t.Rank() != want.Rank() || x.a.IsConst() {
		l.fail(at, "a value of type %s where %s is needed", x.t, want)
	}
	i64 := ir.Scalar(value.I64)
	for k, d := range x.t.Shape {
		w := want.Shape[k]
		if d == w {
			continue
		}
		if d.IsConst() && w.IsConst() {
			l.fail(at, "a value of type %s where %s is needed", x.t, want)
		}
		eq := l.binop(b, "==", &lvAtom{d, i64}, &lvAtom{w, i64}, at)
		l.checkUnlike(b, eq.a, "arrays of different sizes", at)
	}
	return b.let1("sized", &ir.ReshapeE{Arr: x.a.Name, Shape: want.Shape, Coerce: true}, want)
}

// checkNonNegative asserts that a size is not negative, as iota and
// replicate check on the reference path (a fused iota would otherwise be an
// empty generator).
func (l *lowerer) checkNonNegative(b *builder, n ir.Atom, at syntax.Node) {
	if n.IsConst() && n.Val.AsInt64() >= 0 {
		return
	}
	ok := l.binop(b, "<=", &lvAtom{ir.I64(0), ir.Scalar(value.I64)}, &lvAtom{n, ir.Scalar(value.I64)}, at)
	l.checkUnlike(b, ok.a, "negative size", at)
}
