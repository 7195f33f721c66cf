package lower

import (
	"fut/interp/ir"
	"sort"

	"fut/eval/value"
	"fut/interp/syntax"
	"fut/interp/types"
)

// Sum types, as Futhark's internaliser represents them: a tag (an i64,
// the constructor's index in name order) and the payloads of every
// constructor side by side, the inactive ones zero. The lowered value is
// an lvTuple with a sumLayout: elems[0] is the tag, then each
// constructor's payload in order. An array of sums is a tag array and
// payload arrays, as an array of tuples is a tuple of arrays. match is a
// chain of IfE over the cases' tests, decided while lowering when the tag
// is known.

// sumLayout says where each constructor's payload is in a sum's elems.
type sumLayout struct {
	constrs []string
	start   []int // elems index of the constructor's first payload value
	arity   []int
}

func (s *sumLayout) index(name string) int {
	for i, c := range s.constrs {
		if c == name {
			return i
		}
	}
	return -1
}

// constr lowers #c args, a value of the sum type the checker gave e.
func (l *lowerer) constr(b *builder, env *lenv, e *syntax.Constr) lv {
	t, ok := l.info.TypeOf(e)
	if !ok {
		l.fail(e, "a constructor without a type from the checker")
	}
	sum, ok := types.Resolve(t).(*types.Sum)
	if !ok {
		l.fail(e, "a constructor whose type is not a sum type")
	}
	args := make([]lv, len(e.Args))
	for i, a := range e.Args {
		args[i] = l.expr(b, env, a, value.NoPrim)
	}
	return l.sumValue(b, env, sum, e.Name, args, e)
}

// sumValue builds the sum value with constructor name and payload args,
// the other constructors' payloads zero.
func (l *lowerer) sumValue(b *builder, env *lenv, sum *types.Sum, name string, args []lv, at syntax.Node) lv {
	cs := append([]types.Constr{}, sum.Constrs...)
	sort.Slice(cs, func(i, j int) bool { return cs[i].Name < cs[j].Name })
	lay := &sumLayout{}
	out := &lvTuple{sum: lay}
	tag := -1
	for i, c := range cs {
		if c.Name == name {
			tag = i
		}
	}
	if tag < 0 {
		l.fail(at, "no constructor #%s in the sum type", name)
	}
	out.elems = append(out.elems, &lvAtom{ir.I64(int64(tag)), ir.Scalar(value.I64)})
	for i, c := range cs {
		lay.constrs = append(lay.constrs, c.Name)
		lay.start = append(lay.start, len(out.elems))
		lay.arity = append(lay.arity, len(c.Payload))
		for k, pt := range c.Payload {
			if i == tag {
				if k >= len(args) {
					l.fail(at, "the constructor #%s applied to too few values", name)
				}
				out.elems = append(out.elems, args[k])
			} else {
				out.elems = append(out.elems, l.zero(b, env, pt, at))
			}
		}
	}
	return out
}

// zero is a value of type t whose scalars are all zero (or false): the
// payload of an inactive constructor. Array sizes must be known.
func (l *lowerer) zero(b *builder, env *lenv, t types.Type, at syntax.Node) lv {
	switch t := types.Resolve(t).(type) {
	case *types.Prim:
		p := value.ParsePrimType(string(t.Kind))
		return &lvAtom{ir.C(ir.ZeroOf(p)), ir.Scalar(p)}
	case *types.Array:
		n := l.typeSize(env, t.Dim, at)
		row := l.zero(b, env, t.Elem, at)
		as, ts := l.flatten(row, at)
		outs := make([]ir.Atom, len(as))
		outTs := make([]ir.Type, len(as))
		for i, a := range as {
			outTs[i] = ts[i].ArrayOf(n)
			outs[i] = b.let1("zeros", &ir.ReplicateE{N: n, X: a}, outTs[i]).a
		}
		return rebuild(row, outs, outTs, 1)
	case *types.Record:
		var names []string
		var elems []lv
		for _, f := range t.Fields {
			names = append(names, f.Name)
			elems = append(elems, l.zero(b, env, f.Type, at))
		}
		names, elems = sortRecord(names, elems)
		if value.IsTupleRecord(names) {
			names = nil
		}
		return &lvTuple{names: names, elems: elems}
	case *types.Sum:
		if len(t.Constrs) == 0 {
			l.fail(at, "an empty sum type")
		}
		first := t.Constrs[0].Name
		for _, c := range t.Constrs {
			if c.Name < first {
				first = c.Name
			}
		}
		var args []lv
		for _, c := range t.Constrs {
			if c.Name == first {
				for _, pt := range c.Payload {
					args = append(args, l.zero(b, env, pt, at))
				}
			}
		}
		return l.sumValue(b, env, t, first, args, at)
	}
	l.fail(at, "a sum type whose payload has the type %s", t)
	return nil
}

// typeSize is a size of a checked type: a constant, or a size name in scope.
func (l *lowerer) typeSize(env *lenv, s types.Size, at syntax.Node) ir.Atom {
	switch z := types.ResolveSize(s).(type) {
	case *types.SizeConst:
		return ir.I64(z.N)
	case *types.SizeName:
		if !z.Unknown && z.Name != "" {
			if v, ok := env.lookup(z.Name); ok {
				if a, ok := v.(*lvAtom); ok && a.t.Rank() == 0 && a.t.Elem.IsInt() {
					return a.a
				}
			}
		}
	}
	l.fail(at, "a sum type whose payload array has a size unknown here")
	return ir.Atom{}
}

// match lowers match x case p1 -> e1 … as tests of the patterns in order.
func (l *lowerer) match(b *builder, env *lenv, e *syntax.Match, hint ir.Prim) lv {
	x := l.expr(b, env, e.X, value.NoPrim)
	return l.cases(b, env, x, e.Cases, hint, e, false)
}

// cases lowers the cases of a match to a chain of tests and branches.
// The source charges one step for the match, whatever the number of
// cases tried: the tests are implicit arithmetic, and every branch but
// the first (later is true in the recursion) is implicit.
func (l *lowerer) cases(b *builder, env *lenv, x lv, cs []*syntax.Case, hint ir.Prim, at syntax.Node, later bool) lv {
	if len(cs) == 0 {
		// The checker proved the match exhaustive: no value gets here.
		l.fail(at, "a match with no case left")
	}
	c := cs[0]
	if len(cs) == 1 {
		return l.expr(b, l.bindPat(env, c.Pat, x), c.Body, hint)
	}
	test := l.patTest(b, c.Pat, x)
	if test.IsConst() {
		if test.Val.Bool() {
			return l.expr(b, l.bindPat(env, c.Pat, x), c.Body, hint)
		}
		return l.cases(b, env, x, cs[1:], hint, at, later)
	}
	tb, eb := &builder{l: l}, &builder{l: l}
	tv := l.expr(tb, l.bindPat(env, c.Pat, x), c.Body, hint)
	if a, ok := tv.(*lvAtom); ok && hint == value.NoPrim {
		hint = a.t.Elem
	}
	ev := l.cases(eb, env, x, cs[1:], hint, at, true)
	from := len(b.stms)
	r := l.branches(b, test, tb, tv, eb, ev, at)
	for _, st := range b.stms[from:] {
		if ie, ok := st.E.(*ir.IfE); ok && later {
			ie.Implicit = true
		}
	}
	return r
}

// patTest emits the test of whether v matches p (a constant when it is
// known while lowering).
func (l *lowerer) patTest(b *builder, p syntax.Pat, v lv) ir.Atom {
	yes := ir.C(value.MkBool(true))
	and := func(x, y ir.Atom) ir.Atom {
		switch {
		case x.IsConst():
			if x.Val.Bool() {
				return y
			}
			return x
		case y.IsConst():
			if y.Val.Bool() {
				return x
			}
			return y
		}
		return b.let1("and", &ir.BinOpE{Op: "&&", X: x, Y: y, Implicit: true}, ir.Scalar(value.Bool)).a
	}
	// a test is part of the match's one step
	eq := func(x, y *lvAtom) ir.Atom {
		if x.a.IsConst() && y.a.IsConst() {
			if r, err := ir.BinOp("==", x.a.Val, y.a.Val); err == nil {
				return ir.C(r)
			}
		}
		return b.let1("case", &ir.BinOpE{Op: "==", X: x.a, Y: y.a, Implicit: true}, ir.Scalar(value.Bool)).a
	}
	switch p := p.(type) {
	case *syntax.PId, *syntax.PWild:
		return yes
	case *syntax.PParen:
		return l.patTest(b, p.P, v)
	case *syntax.PAttr:
		return l.patTest(b, p.P, v)
	case *syntax.PAscript:
		return l.patTest(b, p.P, v)
	case *syntax.PLit:
		a, ok := v.(*lvAtom)
		if !ok || a.t.Rank() != 0 {
			l.fail(p, "a literal pattern on a value that is not a scalar")
		}
		lit := l.scalar(b, nil, p.Lit, a.t.Elem)
		return eq(a, lit)
	case *syntax.PTuple:
		t, ok := v.(*lvTuple)
		if !ok || t.rank != 0 || t.sum != nil || len(t.elems) != len(p.Elems) {
			l.fail(p, "a tuple pattern on a value that is not such a tuple")
		}
		r := yes
		for i, q := range p.Elems {
			r = and(r, l.patTest(b, q, t.elems[i]))
		}
		return r
	case *syntax.PRecord:
		t, ok := v.(*lvTuple)
		if !ok || t.rank != 0 || t.sum != nil {
			l.fail(p, "a record pattern on a value that is not a record")
		}
		r := yes
		for _, f := range p.Fields {
			x, ok := t.field(f.Name)
			if !ok {
				l.fail(f, "no field %s", f.Name)
			}
			r = and(r, l.patTest(b, f.Pat, x))
		}
		return r
	case *syntax.PConstr:
		t, ok := v.(*lvTuple)
		if !ok || t.sum == nil || t.rank != 0 {
			l.fail(p, "a constructor pattern on a value that is not of a sum type")
		}
		k := t.sum.index(p.Name)
		if k < 0 || len(p.Args) != t.sum.arity[k] {
			l.fail(p, "no constructor #%s of %d values in this sum type", p.Name, len(p.Args))
		}
		tag := t.elems[0].(*lvAtom)
		r := eq(tag, &lvAtom{ir.I64(int64(k)), ir.Scalar(value.I64)})
		for i, q := range p.Args {
			r = and(r, l.patTest(b, q, t.elems[t.sum.start[k]+i]))
		}
		return r
	}
	l.fail(p, "this pattern")
	return ir.Atom{}
}

// eqAtoms is x == y on scalars, folded when both are constants.
func (l *lowerer) eqAtoms(b *builder, x, y *lvAtom, at syntax.Node) ir.Atom {
	if x.a.IsConst() && y.a.IsConst() {
		r, err := ir.BinOp("==", x.a.Val, y.a.Val)
		if err == nil {
			return ir.C(r)
		}
	}
	return l.binop(b, "==", x, y, at).a
}

// bindConstr binds the payload patterns of #c p… to v's payload.
func (l *lowerer) bindConstr(env *lenv, p *syntax.PConstr, v lv) *lenv {
	t, ok := v.(*lvTuple)
	if !ok || t.sum == nil {
		l.fail(p, "a constructor pattern on a value that is not of a sum type")
	}
	k := t.sum.index(p.Name)
	if k < 0 || len(p.Args) != t.sum.arity[k] {
		l.fail(p, "no constructor #%s of %d values in this sum type", p.Name, len(p.Args))
	}
	for i, q := range p.Args {
		env = l.bindPat(env, q, t.elems[t.sum.start[k]+i])
	}
	return env
}

// structEq is x == y on tuples, records and sums: every scalar equal (an
// inactive constructor's payload is zero in both).
func (l *lowerer) structEq(b *builder, x, y lv, at syntax.Node) ir.Atom {
	xa, xt := l.flatten(x, at)
	ya, yt := l.flatten(y, at)
	if len(xa) != len(ya) {
		l.fail(at, "== on values of different shapes")
	}
	r := ir.C(value.MkBool(true))
	for i := range xa {
		var e ir.Atom
		if xt[i].Rank() > 0 {
			e = l.arrayCompare(b, "==", &lvAtom{xa[i], xt[i]}, &lvAtom{ya[i], yt[i]}, at).(*lvAtom).a
		} else {
			e = l.eqAtoms(b, &lvAtom{xa[i], xt[i]}, &lvAtom{ya[i], yt[i]}, at)
		}
		switch {
		case r.IsConst() && r.Val.Bool():
			r = e
		case e.IsConst() && e.Val.Bool():
		default:
			r = b.let1("and", &ir.BinOpE{Op: "&&", X: r, Y: e}, ir.Scalar(value.Bool)).a
		}
	}
	return r
}

// emptyArray lowers [] at the type the checker gave it: zero rows of its
// element type (whose own sizes must be known).
func (l *lowerer) emptyArray(b *builder, env *lenv, e *syntax.ArrayLit) lv {
	t, ok := l.info.TypeOf(e)
	if !ok {
		l.fail(e, "an empty array literal without a type from the checker")
	}
	arr, ok := types.Resolve(t).(*types.Array)
	if !ok {
		l.fail(e, "an empty array literal whose type is not an array type")
	}
	row := l.zero(b, env, arr.Elem, e)
	as, ts := l.flatten(row, e)
	outs := make([]ir.Atom, len(as))
	outTs := make([]ir.Type, len(as))
	for i, a := range as {
		outTs[i] = ts[i].ArrayOf(ir.I64(0))
		outs[i] = b.let1("empty", &ir.ReplicateE{N: ir.I64(0), X: a}, outTs[i]).a
	}
	return rebuild(row, outs, outTs, 1)
}
