package lower

import (
	"fut/eval/value"
	"fut/interp/ir"
	"fut/interp/syntax"
	"fut/interp/types"
)

// apply inlines a call: a closure's body is lowered with its parameters
// bound to the arguments; a builtin emits its statements.
func (l *lowerer) apply(b *builder, f lv, args []lv, at syntax.Node) lv {
	for len(args) > 0 {
		switch fn := f.(type) {
		case *lvClosure:
			all := append(append([]lv{}, fn.args...), args...)
			if len(all) < len(fn.params) {
				c := *fn
				c.args = all
				return &c
			}
			env := fn.env
			for name, v := range fn.sizeArgs {
				env = env.bind(name, v)
			}
			saved := l.sizeScope
			l.sizeScope = fn.sizes
			for i, p := range fn.params {
				env = l.bindPat(env, p, all[i])
			}
			l.sizeScope = saved
			l.depth++
			if l.depth > maxInlineDepth {
				l.fail(at, "recursion too deep while inlining %s", fn.name)
			}
			l.calls = append(l.calls, at)
			l.frames = append(l.frames, l.frame(fn.name, at))
			f = l.expr(b, env, fn.body, value.NoPrim)
			l.calls = l.calls[:len(l.calls)-1]
			l.frames = l.frames[:len(l.frames)-1]
			l.depth--
			args = all[len(fn.params):]
		case *lvPath:
			f = l.followPath(b, fn.env, args[0], fn.path, at)
			args = args[1:]
		case *lvHole:
			arr, ok := types.Resolve(fn.t).(*types.Arrow)
			if !ok {
				l.fail(at, "applying a hole that is not a function")
			}
			f = l.holeValue(b, nil, arr.To, at)
			args = args[1:]
		case *lvBuiltin:
			arity, ok := builtinArity(fn.name)
			if !ok {
				l.fail(at, "the function %s is not known to the IR", fn.name)
			}
			all := append(append([]lv{}, fn.args...), args...)
			if len(all) < arity {
				return &lvBuiltin{name: fn.name, args: all}
			}
			f = l.callBuiltin(b, fn.name, all[:arity], at)
			args = all[arity:]
		default:
			l.fail(at, "applying a value that is not a function")
		}
	}
	return f
}

func (l *lowerer) ifExpr(b *builder, env *lenv, e *syntax.If, hint ir.Prim) lv {
	c := l.scalar(b, env, e.Cond, value.Bool)
	tb, eb := &builder{l: l}, &builder{l: l}
	tv := l.expr(tb, env, e.Then, hint)
	if a, ok := tv.(*lvAtom); ok && hint == value.NoPrim {
		hint = a.t.Elem
	}
	ev := l.expr(eb, env, e.Else, hint)
	return l.branches(b, c.a, tb, tv, eb, ev, e)
}

// branches is if cond then tv else ev, their statements in tb and eb.
// Arrays whose sizes differ between the branches get sizes of the if's
// own: it returns them first (let (n, xs: [n]t) = if …), as Futhark's
// existential branches do.
func (l *lowerer) branches(b *builder, cond ir.Atom, tb *builder, tv lv, eb *builder, ev lv, at syntax.Node) lv {
	ta, tt := l.flatten(tv, at)
	ea, et := l.flatten(ev, at)
	if len(ta) != len(ea) {
		l.fail(at, "branches of different shapes")
	}
	var extT, extE []ir.Atom // the sizes each branch gives
	ret := make([]ir.Type, len(tt))
	var exts []ir.Param
	for i := range tt {
		if tt[i].Elem != et[i].Elem || tt[i].Rank() != et[i].Rank() {
			l.fail(at, "branches whose types differ (%s and %s)", tt[i], et[i])
		}
		ret[i] = ir.Type{Elem: tt[i].Elem, Shape: make([]ir.Atom, len(tt[i].Shape))}
		for k := range tt[i].Shape {
			dt, de := tt[i].Shape[k], et[i].Shape[k]
			if dt == de {
				ret[i].Shape[k] = dt
				continue
			}
			n := ir.Param{Name: l.fresh("ext"), T: ir.Scalar(value.I64)}
			exts = append(exts, n)
			extT, extE = append(extT, dt), append(extE, de)
			ret[i].Shape[k] = ir.V(n.Name)
		}
	}
	if len(exts) == 0 {
		ie := &ir.IfE{Cond: cond, Then: &ir.Body{Stms: tb.stms, Res: ta}, Else: &ir.Body{Stms: eb.stms, Res: ea}, Ret: tt}
		return rebuild(tv, b.let("if", ie, tt...), tt, 0)
	}
	pat := append(append([]ir.Param{}, exts...), make([]ir.Param, len(ret))...)
	for i, t := range ret {
		pat[len(exts)+i] = ir.Param{Name: l.fresh("if"), T: t}
	}
	ie := &ir.IfE{Cond: cond, Then: &ir.Body{Stms: tb.stms, Res: append(extT, ta...)}, Else: &ir.Body{Stms: eb.stms, Res: append(extE, ea...)}, Ret: ir.ParamTypes(pat)}
	b.stms = append(b.stms, &ir.Stm{Pat: pat, E: ie})
	outs := make([]ir.Atom, len(ret))
	for i := range ret {
		outs[i] = ir.V(pat[len(exts)+i].Name)
	}
	return rebuild(tv, outs, ret, 0)
}

func (l *lowerer) loop(b *builder, env *lenv, e *syntax.Loop) lv {
	var init lv
	if e.Init != nil {
		init = l.expr(b, env, e.Init, value.NoPrim)
	} else {
		init = l.patValue(env, e.Pat)
	}
	// A loop whose arrays change size from one iteration to the next gets
	// a size parameter for each such dimension (as Futhark's loops with
	// existential sizes): lowered once with the initial sizes, then again
	// with the sizes that changed as parameters.
	var ext map[[2]int]bool
	for try := 0; ; try++ {
		tb := &builder{l: l}
		v, changed := l.loopWith(tb, env, e, init, ext)
		if len(changed) == 0 {
			b.stms = append(b.stms, tb.stms...)
			return v
		}
		if try == 3 {
			l.fail(e, "a loop whose variables change size in ways the lowering does not follow")
		}
		if ext == nil {
			ext = map[[2]int]bool{}
		}
		for k := range changed {
			ext[k] = true
		}
	}
}

// loopWith lowers the loop with size parameters for the dimensions in ext
// (leaf, dimension); changed lists the dimensions whose size the body
// changes and that are not among them yet (then the result is not used).
func (l *lowerer) loopWith(b *builder, env *lenv, e *syntax.Loop, init lv, ext map[[2]int]bool) (lv, map[[2]int]bool) {
	atoms, types := l.flatten(init, e)
	var sizeParams []ir.Param
	var sizeInit []ir.Atom
	ptypes := make([]ir.Type, len(types))
	for i, t := range types {
		ptypes[i] = ir.Type{Elem: t.Elem, Shape: append([]ir.Atom{}, t.Shape...)}
		for k := range t.Shape {
			if ext[[2]int{i, k}] {
				n := ir.Param{Name: l.fresh("size"), T: ir.Scalar(value.I64)}
				sizeParams = append(sizeParams, n)
				sizeInit = append(sizeInit, t.Shape[k])
				ptypes[i].Shape[k] = ir.V(n.Name)
			}
		}
	}
	params := make([]ir.Param, len(atoms))
	pAtoms := make([]ir.Atom, len(atoms))
	for i, t := range ptypes {
		params[i] = ir.Param{Name: l.fresh("acc"), T: t}
		pAtoms[i] = ir.V(params[i].Name)
	}
	lb := &builder{l: l}
	loopE := &ir.LoopE{Params: append(append([]ir.Param{}, sizeParams...), params...), Init: append(append([]ir.Atom{}, sizeInit...), atoms...), I: l.fresh("i")}
	// the loop's pattern is bound inside the form's index or element
	// pattern, as the checker scopes them: a name of both is the loop
	// variable's in the body
	var inner *lenv
	bindLoopPat := func(outer *lenv) {
		saved := l.sizeScope
		if len(e.Sizes) > 0 {
			// loop [n] (xs: [n]t) = …: the binders are the loop's sizes
			l.sizeScope = map[string]bool{}
			for _, sb := range e.Sizes {
				l.sizeScope[sb.Name] = true
			}
		}
		inner = l.bindPat(outer, e.Pat, rebuild(init, pAtoms, ptypes, 0))
		l.sizeScope = saved
	}
	switch f := e.Form.(type) {
	case *syntax.For:
		n := l.scalar(b, env, f.Bound, value.NoPrim)
		loopE.Bound = l.toI64(b, n)
		var iv lv = &lvAtom{ir.V(loopE.I), ir.Scalar(value.I64)}
		if n.t.Elem != value.I64 {
			iv = lb.let1(f.I.Name, &ir.ConvE{To: n.t.Elem, X: ir.V(loopE.I), Implicit: true}, n.t)
		}
		bindLoopPat(env.bind(f.I.Name, iv))
	case *syntax.ForIn:
		xs := l.expr(b, env, f.Arr, value.NoPrim)
		shape := leafShape(xs)
		if len(shape) == 0 {
			l.fail(f.Arr, "for … in over a value that is not an array")
		}
		loopE.Bound = shape[0]
		as, ts := l.flatten(xs, f.Arr)
		var eas []ir.Atom
		var ets []ir.Type
		for k, a := range as {
			if a.IsConst() {
				l.fail(f.Arr, "for … in over a constant")
			}
			p := ir.Param{Name: l.fresh(a.Name), T: ts[k].Row()}
			loopE.Elems = append(loopE.Elems, p)
			loopE.Over = append(loopE.Over, a.Name)
			eas, ets = append(eas, ir.V(p.Name)), append(ets, p.T)
		}
		bindLoopPat(l.bindPat(env, f.Pat, rebuild(xs, eas, ets, -1)))
	case *syntax.While:
		bindLoopPat(env)
		loopE.I = ""
		cb := &builder{l: l}
		c := l.scalar(cb, inner, f.Cond, value.Bool)
		loopE.While = &ir.Body{Stms: cb.stms, Res: []ir.Atom{c.a}}
	default:
		l.fail(e, "this loop form")
	}
	rv := l.expr(lb, inner, e.Body, value.NoPrim)
	ra, rt := l.flatten(rv, e.Body)
	if len(ra) != len(atoms) {
		l.fail(e, "a loop body whose result does not match the loop's variables")
	}
	var changed map[[2]int]bool
	var sizeRes []ir.Atom
	for i := range rt {
		if rt[i].Elem != ptypes[i].Elem || rt[i].Rank() != ptypes[i].Rank() {
			l.fail(e, "a loop whose variables change type (%s to %s)", ptypes[i], rt[i])
		}
		for k := range rt[i].Shape {
			if ext[[2]int{i, k}] {
				sizeRes = append(sizeRes, rt[i].Shape[k])
			} else if rt[i].Shape[k] != ptypes[i].Shape[k] {
				if changed == nil {
					changed = map[[2]int]bool{}
				}
				changed[[2]int{i, k}] = true
			}
		}
	}
	if len(changed) > 0 {
		return nil, changed
	}
	loopE.Body = &ir.Body{Stms: lb.stms, Res: append(sizeRes, ra...)}
	if len(sizeParams) == 0 {
		return rebuild(init, b.let("loop", loopE, types...), types, 0), nil
	}
	// the loop's results: its final sizes, then its arrays over them
	pat := make([]ir.Param, 0, len(loopE.Params))
	rename := map[string]ir.Atom{}
	for _, p := range sizeParams {
		q := ir.Param{Name: l.fresh("size"), T: p.T}
		rename[p.Name] = ir.V(q.Name)
		pat = append(pat, q)
	}
	outTs := make([]ir.Type, len(ptypes))
	for i, t := range ptypes {
		ot := ir.Type{Elem: t.Elem, Shape: make([]ir.Atom, len(t.Shape))}
		for k, d := range t.Shape {
			ot.Shape[k] = d
			if r, ok := rename[d.Name]; ok && d.Name != "" {
				ot.Shape[k] = r
			}
		}
		outTs[i] = ot
		pat = append(pat, ir.Param{Name: l.fresh("loop"), T: ot})
	}
	b.stms = append(b.stms, &ir.Stm{Pat: pat, E: loopE})
	outs := make([]ir.Atom, len(ptypes))
	for i := range ptypes {
		outs[i] = ir.V(pat[len(sizeParams)+i].Name)
	}
	return rebuild(init, outs, outTs, 0), nil
}

// patValue is the current value of a pattern's variables (loop p for … with
// no initial value).
func (l *lowerer) patValue(env *lenv, p syntax.Pat) lv {
	switch p := p.(type) {
	case *syntax.PId:
		return l.local(env, p.Name, p)
	case *syntax.PParen:
		return l.patValue(env, p.P)
	case *syntax.PAscript:
		return l.patValue(env, p.P)
	case *syntax.PTuple:
		t := &lvTuple{}
		for _, q := range p.Elems {
			t.elems = append(t.elems, l.patValue(env, q))
		}
		return t
	}
	l.fail(p, "a loop pattern without an initial value")
	return nil
}

func (l *lowerer) toI64(b *builder, x *lvAtom) ir.Atom {
	if x.t.Elem == value.I64 {
		return x.a
	}
	if !x.t.Elem.IsInt() || x.t.Rank() != 0 {
		l.fail(nil, "a size or index of type %s", x.t)
	}
	if x.a.IsConst() {
		return ir.C(value.Convert(x.a.Val, value.I64))
	}
	return b.let("i64", &ir.ConvE{To: value.I64, X: x.a, Implicit: true}, ir.Scalar(value.I64))[0]
}

func (l *lowerer) index(b *builder, env *lenv, e *syntax.Index) lv {
	x := l.expr(b, env, e.X, value.NoPrim)
	return l.indexWith(b, env, x, e.Indices, e)
}

// indexWith is x[indices…], the indices evaluated in env.
func (l *lowerer) indexWith(b *builder, env *lenv, x lv, indices []*syntax.DimIndex, at syntax.Node) lv {
	for _, d := range indices {
		if d.IsSlice {
			return l.sliceIndex(b, env, x, indices, at)
		}
	}
	idx := l.indices(b, env, indices, at)
	return l.indexValue(b, x, idx, at)
}

// sub is x - y on i64 atoms, folded when both are constants.
func (l *lowerer) sub(b *builder, x, y ir.Atom) ir.Atom {
	if y.IsConst() && y.Val.Int() == 0 {
		return x
	}
	if x.IsConst() && y.IsConst() {
		return ir.I64(x.Val.Int() - y.Val.Int())
	}
	return b.let("len", &ir.BinOpE{Op: "-", X: x, Y: y}, ir.Scalar(value.I64))[0]
}

// slice is v[start : start+n] on the outer dimension, leaf by leaf.
func (l *lowerer) slice(b *builder, v lv, start, n ir.Atom, at syntax.Node) lv {
	as, ts := l.flatten(v, at)
	outs := make([]ir.Atom, len(as))
	outTs := make([]ir.Type, len(as))
	for i, a := range as {
		if a.IsConst() || ts[i].Rank() == 0 {
			l.fail(at, "slicing a value that is not an array")
		}
		t := ir.Type{Elem: ts[i].Elem, Shape: append([]ir.Atom{n}, ts[i].Shape[1:]...)}
		outs[i] = b.let("slice", &ir.SliceE{Arr: a.Name, Start: start, Len: n}, t)[0]
		outTs[i] = t
	}
	return rebuild(v, outs, outTs, 0)
}

func (l *lowerer) indices(b *builder, env *lenv, ds []*syntax.DimIndex, at syntax.Node) []ir.Atom {
	var idx []ir.Atom
	for _, d := range ds {
		if d.IsSlice || d.Fix == nil {
			l.fail(at, "slices are not lowered yet")
		}
		idx = append(idx, l.toI64(b, l.scalar(b, env, d.Fix, value.I64)))
	}
	return idx
}

// indexValue is v[idx…] for an array (of tuples). The source reads an
// element of an array of tuples in one step, however many arrays the IR
// stores its fields in: the first field's read is charged, the others
// are implicit.
func (l *lowerer) indexValue(b *builder, v lv, idx []ir.Atom, at syntax.Node) lv {
	charged := false
	return l.indexLeaves(b, v, idx, at, &charged)
}

func (l *lowerer) indexLeaves(b *builder, v lv, idx []ir.Atom, at syntax.Node, charged *bool) lv {
	switch v := v.(type) {
	case *lvAtom:
		if len(idx) > v.t.Rank() {
			l.fail(at, "too many indices")
		}
		t := ir.Type{Elem: v.t.Elem, Shape: v.t.Shape[len(idx):]}
		implicit := *charged
		*charged = true
		return b.let1("elem", &ir.IndexE{Arr: v.a.Name, Idx: idx, Implicit: implicit}, t)
	case *lvTuple:
		if len(idx) > v.rank {
			l.fail(at, "too many indices")
		}
		out := &lvTuple{names: v.names, rank: v.rank - len(idx), sum: v.sum}
		for _, x := range v.elems {
			out.elems = append(out.elems, l.indexLeaves(b, x, idx, at, charged))
		}
		return out
	}
	l.fail(at, "indexing a function")
	return nil
}

// update is dest with path = v (a fresh array; dest is consumed). A path
// of several steps reads the element or field, updates it by the rest of
// the path and writes it back.
func (l *lowerer) update(b *builder, env *lenv, dest lv, path []syntax.PathElem, ve syntax.Expr, at syntax.Node) lv {
	return l.updatePath(b, env, dest, path, ve, at)
}

func (l *lowerer) updatePath(b *builder, env *lenv, dest lv, path []syntax.PathElem, ve syntax.Expr, at syntax.Node) lv {
	pe := path[0]
	if pe.Field != "" {
		t, ok := dest.(*lvTuple)
		if !ok || t.rank != 0 || t.sum != nil {
			l.fail(at, "a field update of a value that is not a record")
		}
		x, ok := t.field(pe.Field)
		if !ok {
			l.fail(at, "no field %s", pe.Field)
		}
		var nx lv
		if len(path) == 1 {
			hint := value.NoPrim
			if a, ok := x.(*lvAtom); ok {
				hint = a.t.Elem
			}
			nx = l.expr(b, env, ve, hint)
		} else {
			nx = l.updatePath(b, env, x, path[1:], ve, at)
		}
		out := &lvTuple{names: t.names}
		for _, e := range t.elems {
			if e == x {
				e = nx
			}
			out.elems = append(out.elems, e)
		}
		return out
	}
	for _, d := range pe.Indices {
		if d.IsSlice {
			if len(path) > 1 {
				l.fail(at, "an update through a slice and then more steps")
			}
			return l.updateSlice(b, env, dest, pe.Indices, ve, at)
		}
	}
	idx := l.indices(b, env, pe.Indices, at)
	var v lv
	if len(path) == 1 {
		var hint ir.Prim
		if a, ok := dest.(*lvAtom); ok {
			hint = a.t.Elem
		}
		v = l.expr(b, env, ve, hint)
	} else {
		v = l.updatePath(b, env, l.indexValue(b, dest, idx, at), path[1:], ve, at)
	}
	return l.writeAt(b, dest, idx, v, at)
}

// writeAt is dest with [idx] = v, leaf by leaf.
func (l *lowerer) writeAt(b *builder, dest lv, idx []ir.Atom, v lv, at syntax.Node) lv {
	var upd func(d, x lv) lv
	upd = func(d, x lv) lv {
		switch d := d.(type) {
		case *lvAtom:
			xa, ok := x.(*lvAtom)
			if !ok || d.a.IsConst() || len(idx) > d.t.Rank() {
				l.fail(at, "an update with a value of another type or size")
			}
			if want := (ir.Type{Elem: d.t.Elem, Shape: d.t.Shape[len(idx):]}); !xa.t.Equal(want) {
				xa = l.resized(b, xa, want, at)
			}
			t := d.t
			t.Unique = false
			return b.let1(d.a.Name, &ir.UpdateE{Arr: d.a.Name, Idx: idx, X: xa.a}, t)
		case *lvTuple:
			xt, ok := x.(*lvTuple)
			if !ok || len(xt.elems) != len(d.elems) {
				l.fail(at, "an update with a value of another shape")
			}
			out := &lvTuple{names: d.names, rank: d.rank, sum: d.sum}
			for i := range d.elems {
				out.elems = append(out.elems, upd(d.elems[i], xt.elems[i]))
			}
			return out
		}
		l.fail(at, "an update of a function")
		return nil
	}
	return upd(dest, v)
}
