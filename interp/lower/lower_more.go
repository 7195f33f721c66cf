package lower

import (
	"fut/interp/ir"
	"strings"

	"fut/eval/value"
	"fut/interp/syntax"
	"fut/interp/types"
)

func (l *lowerer) arrayCompare(b *builder, op string, x, y *lvAtom, at syntax.Node) lv {
	if op != "==" && op != "!=" {
		l.fail(at, "the operator %s on arrays", op)
	}
	if x.t.Elem != y.t.Elem || x.t.Rank() != y.t.Rank() {
		l.fail(at, "the operator %s on %s and %s", op, x.t, y.t)
	}
	bt := ir.Scalar(value.Bool)
	same := ir.C(value.MkBool(true))
	for i := range x.t.Shape {
		if dx, dy := x.t.Shape[i], y.t.Shape[i]; dx.IsConst() && dy.IsConst() && dx.Val.AsInt64() != dy.Val.AsInt64() {
			return &lvAtom{ir.C(value.MkBool(op == "!=")), bt}
		}
	}
	// The source charges == on arrays one step, as on scalars: the shape
	// test, the branch on it, the comparisons and their combination are
	// implicit, and the map and reduction over the elements are marked as
	// one step (ScremaE.View).
	for i := range x.t.Shape {
		dx, dy := x.t.Shape[i], y.t.Shape[i]
		var eq ir.Atom
		if dx == dy {
			continue
		}
		eq = b.let1("same", &ir.BinOpE{Op: "==", X: dx, Y: dy, Implicit: true}, bt).a
		if same.IsConst() && same.Val.Bool() {
			same = eq
		} else {
			same = b.let1("same", &ir.BinOpE{Op: "&&", X: same, Y: eq, Implicit: true}, bt).a
		}
	}
	// Then: compare the elements of both, flattened to one dimension.
	tb := &builder{l: l}
	n := ir.I64(1)
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
		return tb.let1("flat", &ir.ReshapeE{Arr: a.a.Name, Shape: []ir.Atom{n}, Coerce: true}, ir.Type{Elem: a.t.Elem, Shape: []ir.Atom{n}}).a.Name
	}
	xs, ys := flat(x), flat(y)
	px, py := ir.Param{Name: l.fresh("x"), T: ir.Scalar(x.t.Elem)}, ir.Param{Name: l.fresh("y"), T: ir.Scalar(x.t.Elem)}
	// x != y is: some element differs (or the shapes do)
	comb, unit := "&&", true
	if op == "!=" {
		comb, unit = "||", false
	}
	mb := &builder{l: l}
	e := mb.let1("eq", &ir.BinOpE{Op: op, X: ir.V(px.Name), Y: ir.V(py.Name), Implicit: true}, bt)
	mapLam := &ir.Lambda{Params: []ir.Param{px, py}, Ret: []ir.Type{bt}, Body: &ir.Body{Stms: mb.stms, Res: []ir.Atom{e.a}}}
	ra, rb := ir.Param{Name: l.fresh("a"), T: bt}, ir.Param{Name: l.fresh("b"), T: bt}
	ob := &builder{l: l}
	and := ob.let1("and", &ir.BinOpE{Op: comb, X: ir.V(ra.Name), Y: ir.V(rb.Name), Implicit: true}, bt)
	red := &ir.SegOp{Lam: &ir.Lambda{Params: []ir.Param{ra, rb}, Ret: []ir.Type{bt}, Body: &ir.Body{Stms: ob.stms, Res: []ir.Atom{and.a}}}, Nes: []ir.Atom{ir.C(value.MkBool(unit))}}
	all := tb.let1("all", &ir.ScremaE{W: n, Arrs: []string{xs, ys}, Reds: []*ir.SegOp{red}, Map: mapLam, View: true}, bt)
	if same.IsConst() && same.Val.Bool() {
		b.stms = append(b.stms, tb.stms...)
		return all
	}
	ie := &ir.IfE{Cond: same, Then: &ir.Body{Stms: tb.stms, Res: []ir.Atom{all.a}}, Else: &ir.Body{Res: []ir.Atom{ir.C(value.MkBool(!unit))}}, Ret: []ir.Type{bt}, Implicit: true}
	return b.let1("eq", ie, bt)
}

// check asserts cond, failing with msg, the reference path's message, at
// at's position.
func (l *lowerer) check(b *builder, cond ir.Atom, msg string, at syntax.Node) {
	if cond.IsConst() && cond.Val.Bool() {
		return
	}
	where := l.traced(l.userWhere(at))
	b.let("check", &ir.AssertE{Cond: cond, Msg: msg, Where: where}, ir.Scalar(value.Bool))
}

// frame is a call's line of a backtrace.
func (l *lowerer) frame(name string, at syntax.Node) string {
	if name == "" {
		name = "<lambda>"
	}
	pos := "<unknown>"
	if l.fset != nil && at != nil && at.Pos().IsValid() {
		pos = l.fset.Position(at.Pos()).String()
	}
	return name + " called at " + pos
}

// traced is where followed by the backtrace of the calls being inlined,
// innermost first, each after " <- " (see SplitWhere).
func (l *lowerer) traced(where string) string {
	if where == "" {
		return ""
	}
	var b strings.Builder
	b.WriteString(where)
	for i := len(l.frames) - 1; i >= 0; i-- {
		b.WriteString(" <- ")
		b.WriteString(l.frames[i])
	}
	return b.String()
}

// checkUnlike is check for a message that is not the reference path's
// (which names values known only when it fails: shapes, a slice as
// written): the assertion is Approx, and its failure is reported by
// running the reference path.
func (l *lowerer) checkUnlike(b *builder, cond ir.Atom, msg string, at syntax.Node) {
	if cond.IsConst() && cond.Val.Bool() {
		return
	}
	b.let("check", &ir.AssertE{Cond: cond, Msg: msg, Where: l.traced(l.userWhere(at)), Approx: true}, ir.Scalar(value.Bool))
}

// sourceText is the text of n as written ("<expression>" where unknown).
func (l *lowerer) sourceText(n syntax.Node) string {
	if l.fset == nil {
		return "<expression>"
	}
	f := l.fset.File(n.Pos())
	if f == nil {
		return "<expression>"
	}
	a, e := f.Offset(n.Pos()), f.Offset(n.End())
	if a < 0 || e > len(f.Src) || a >= e {
		return "<expression>"
	}
	return strings.TrimSpace(string(f.Src[a:e]))
}

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

func (l *lowerer) holeValue(b *builder, env *lenv, t types.Type, at syntax.Node) lv {
	if _, ok := types.Resolve(t).(*types.Arrow); ok {
		return &lvHole{t: t}
	}
	return l.zero(b, env, t, at)
}

// whereOf is the position an error of the expression at names, as the
// reference path names it: an operator's own position for an infix
// application, the first index for an index or an update, the call in the
// user's code for an error inside the prelude.
func (l *lowerer) whereOf(at syntax.Node) string {
	if at == nil || l.fset == nil {
		return ""
	}
	var idx []*syntax.DimIndex
	switch e := at.(type) {
	case *syntax.Binary:
		if e.OpSpan.Start.IsValid() {
			at = posNode(e.OpSpan.Start)
		}
	case *syntax.Index:
		idx = e.Indices
	case *syntax.LetWith:
		if len(e.Path) > 0 {
			idx = e.Path[0].Indices
		}
	case *syntax.Update:
		if len(e.Path) > 0 {
			idx = e.Path[0].Indices
		}
	}
	if len(idx) > 0 && idx[0].Pos().IsValid() {
		at = posNode(idx[0].Pos())
	}
	return l.traced(l.userWhere(at))
}

// posNode is a position as a syntax.Node.
type posNode syntax.Pos

func (p posNode) Pos() syntax.Pos { return syntax.Pos(p) }
func (p posNode) End() syntax.Pos { return syntax.Pos(p) }
