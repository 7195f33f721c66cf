package ir

import (
	"fut/eval/value"
	"fut/interp/syntax"
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
		if a.t.Rank() == 1 {
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
	where := ""
	if at != nil && l.fset != nil && at.Pos().IsValid() {
		where = l.fset.Position(at.Pos()).String()
	}
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
			// A type abbreviation or a type parameter: its sizes are not
			// seen through here (ints [3], M.t).
			l.fail(at, "a size coercion (:>) to the type %s is checked on the reference path", t.Name)
		default:
			l.fail(at, "a size coercion (:>) to this type is checked on the reference path")
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
				l.check(b, C(value.MkBool(false)), "size coercion fails", at)
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
		if len(x.Name.Quals) == 0 {
			if v, ok := env.lookup(x.Name.Name); ok {
				if a, ok := v.(*lvAtom); ok && a.t.Rank() == 0 && a.t.Elem.IsInt() {
					return a
				}
			}
		}
		if _, ok := l.info.Use(x); !ok {
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
