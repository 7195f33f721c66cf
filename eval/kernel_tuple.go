package eval

import (
	"fmt"
	"math"

	"fut/eval/value"
	"fut/interp/syntax"
)

// Kernels for lets, tuples, loops and array reads.

// bindValue compiles "let p = v": it returns code that evaluates v into
// fresh registers and the scope with p's names bound to them.
func (kc *kcomp) bindValue(p syntax.Pat, v syntax.Expr, sc *kscope, e *env) (ktuple, *kscope, bool) {
	if name, ok := simplePat(p); ok {
		n, ok := kc.scalar(v, sc, e)
		if !ok {
			return nil, nil, false
		}
		r := kc.reg()
		if name != "" {
			sc = &kscope{name: name, reg: r, typ: kc.ty, next: sc}
		}
		return func(f []value.Prim) { f[r] = n(f) }, sc, true
	}
	names, ok := tuplePat(p)
	if !ok {
		return nil, nil, false
	}
	regs := make([]int, len(names))
	for i := range regs {
		regs[i] = kc.reg()
	}
	run, ok := kc.tuple(v, regs, sc, e)
	if !ok {
		return nil, nil, false
	}
	for i, n := range names {
		if n != "" {
			sc = &kscope{name: n, reg: regs[i], typ: kc.tys[i], next: sc}
		}
	}
	return run, sc, true
}

// tuple compiles a tuple-valued expression whose components go to dsts.
func (kc *kcomp) tuple(x syntax.Expr, dsts []int, sc *kscope, e *env) (ktuple, bool) {
	t := kc.t
	cost := t.cost
	switch x := x.(type) {
	case *syntax.Paren:
		return kc.tuple(x.X, dsts, sc, e)
	case *syntax.Ascript:
		return kc.tuple(x.X, dsts, sc, e)
	case *syntax.TupleLit:
		if len(x.Elems) != len(dsts) {
			return nil, false
		}
		nodes := make([]knode, len(dsts))
		tys := make([]value.PrimType, len(dsts))
		for i, el := range x.Elems {
			n, ok := kc.scalar(el, sc, e)
			if !ok {
				return nil, false
			}
			nodes[i], tys[i] = n, kc.ty
		}
		kc.tys = tys
		return func(f []value.Prim) {
			for i, n := range nodes {
				f[dsts[i]] = n(f)
			}
		}, true
	case *syntax.LetIn:
		if len(x.Sizes) > 0 {
			return nil, false
		}
		bind, sc2, ok := kc.bindValue(x.Pat, x.Value, sc, e)
		if !ok {
			return nil, false
		}
		body, ok := kc.tuple(x.Body, dsts, sc2, e)
		if !ok {
			return nil, false
		}
		return func(f []value.Prim) {
			base := t.live
			bind(f)
			f0 := t.live - base
			body(f)
			t.live -= f0
		}, true
	case *syntax.If:
		c, ok1 := kc.scalar(x.Cond, sc, e)
		a, ok2 := kc.tuple(x.Then, dsts, sc, e)
		ta := kc.tys
		b, ok3 := kc.tuple(x.Else, dsts, sc, e)
		if !ok1 || !ok2 || !ok3 {
			return nil, false
		}
		kc.tys = meetTypes(ta, kc.tys)
		return func(f []value.Prim) {
			if ifTest(t, c, cost, f) {
				a(f)
			} else {
				b(f)
			}
		}, true
	case *syntax.Loop:
		regs, run, ok := kc.loop(x, sc, e)
		if !ok || len(regs) != len(dsts) {
			return nil, false
		}
		// kc.tys are the loop's state types
		return func(f []value.Prim) {
			run(f)
			for i, r := range regs {
				f[dsts[i]] = f[r]
			}
		}, true
	}
	return nil, false
}

// loop compiles a loop whose state is one scalar or a tuple of scalars;
// it returns the registers that hold the final state.
func (kc *kcomp) loop(x *syntax.Loop, sc *kscope, e *env) ([]int, ktuple, bool) {
	t := kc.t
	cost := t.cost
	if len(x.Sizes) > 0 || x.Init == nil {
		return nil, nil, false
	}
	names, ok := tuplePat(x.Pat)
	if !ok {
		n, ok := simplePat(x.Pat)
		if !ok {
			return nil, nil, false
		}
		names = []string{n}
	}
	k := len(names)
	state := make([]int, k)
	tmp := make([]int, k)
	for i := range state {
		state[i], tmp[i] = kc.reg(), kc.reg()
	}
	var init ktuple
	var initTys []value.PrimType
	if k == 1 {
		n, ok := kc.scalar(x.Init, sc, e)
		if !ok {
			return nil, nil, false
		}
		r := tmp[0]
		init = func(f []value.Prim) { f[r] = n(f) }
		initTys = []value.PrimType{kc.ty}
	} else if init, ok = kc.tuple(x.Init, tmp, sc, e); !ok {
		return nil, nil, false
	} else {
		initTys = kc.tys
	}
	// The state's types are the initial value's, if the body keeps them
	// (it always does in a checked program); otherwise they are unknown.
	stateTys := initTys
	scopeWith := func(tys []value.PrimType) *kscope { return bindState(sc, names, state, tys) }
	compileBody := func(s0 *kscope) (ktuple, bool) {
		if k == 1 {
			n, ok := kc.scalar(x.Body, s0, e)
			if !ok {
				return nil, false
			}
			kc.tys = []value.PrimType{kc.ty}
			r := tmp[0]
			return func(f []value.Prim) { f[r] = n(f) }, true
		}
		return kc.tuple(x.Body, tmp, s0, e)
	}
	inner := scopeWith(stateTys)
	commit := func(f []value.Prim) {
		for i, r := range state {
			f[r] = f[tmp[i]]
		}
	}
	pos := x.Pos()
	ks := int64(k)
	switch form := x.Form.(type) {
	case *syntax.For:
		bound, ok := kc.scalar(form.Bound, sc, e)
		if !ok {
			return nil, nil, false
		}
		bt := kc.ty
		ireg := kc.reg()
		// the state's names shadow the index's, as in evalLoop
		isc := &kscope{name: form.I.Name, reg: ireg, typ: bt, next: sc}
		bsc := bindState(isc, names, state, stateTys)
		body, ok := compileBody(bsc)
		if ok && !sameTypes(kc.tys, stateTys) {
			stateTys = unknownTypes(k)
			bsc = bindState(isc, names, state, stateTys)
			body, ok = compileBody(bsc)
		}
		if !ok {
			return nil, nil, false
		}
		kc.tys = stateTys
		if run := kc.staticFor(x, init, bound, ireg, state, tmp, bsc, e); run != nil {
			return state, run, true
		}
		return state, func(f []value.Prim) {
			base := t.live
			init(f)
			commit(f)
			bv := bound(f)
			initF := t.live - base
			n := bv.Int()
			for i := int64(0); i < n; i++ {
				if err := t.tick(pos); err != nil {
					panic(kpanic{err})
				}
				if cost {
					t.live = base + ks
				}
				f[ireg] = value.MkInt(bv.T, i)
				body(f)
				if cost {
					t.W++
					t.D++
				}
				commit(f)
			}
			if cost {
				if n > 0 {
					t.live = base + ks
				} else {
					t.live = base + initF
				}
			}
		}, true
	case *syntax.While:
		body, ok2 := compileBody(inner)
		if ok2 && !sameTypes(kc.tys, stateTys) {
			stateTys = unknownTypes(k)
			inner = scopeWith(stateTys)
			body, ok2 = compileBody(inner)
		}
		cond, ok1 := kc.scalar(form.Cond, inner, e)
		if !ok1 || !ok2 {
			return nil, nil, false
		}
		kc.tys = stateTys
		if run := kc.staticWhile(x, form.Cond, init, state, tmp, inner, e); run != nil {
			return state, run, true
		}
		return state, func(f []value.Prim) {
			base := t.live
			init(f)
			commit(f)
			initF := t.live - base
			iters := 0
			for {
				if err := t.tick(pos); err != nil {
					panic(kpanic{err})
				}
				if cost {
					t.live = base + ks
				}
				if cond(f).B == 0 {
					break
				}
				if cost {
					t.live = base + ks
				}
				body(f)
				if cost {
					t.W++
					t.D++
				}
				commit(f)
				iters++
			}
			if cost {
				if iters > 0 {
					t.live = base + ks
				} else {
					t.live = base + initF
				}
			}
		}, true
	}
	return nil, nil, false
}

// bindState binds a loop's state names to their registers above sc.
func bindState(sc *kscope, names []string, state []int, tys []value.PrimType) *kscope {
	for i, n := range names {
		if n != "" {
			sc = &kscope{name: n, reg: state[i], typ: tys[i], next: sc}
		}
	}
	return sc
}

func sameTypes(a, b []value.PrimType) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func unknownTypes(k int) []value.PrimType { return make([]value.PrimType, k) }

func meetTypes(a, b []value.PrimType) []value.PrimType {
	out := make([]value.PrimType, len(a))
	for i := range a {
		if i < len(b) && a[i] == b[i] {
			out[i] = a[i]
		}
	}
	return out
}

// index compiles a[i, j] of a captured primitive array to a scalar.
func (kc *kcomp) index(x *syntax.Index, sc *kscope, e *env) (knode, bool) {
	t := kc.t
	cost := t.cost
	v, ok := unparen(x.X).(*syntax.Var)
	if !ok || len(v.Name.Quals) > 0 {
		return nil, false
	}
	if _, local := sc.lookup(v.Name.Name); local {
		return nil, false
	}
	av, err := t.evalVar(v, e)
	if err != nil {
		return nil, false
	}
	a, ok := av.(*value.Array)
	if !ok || a.Kind != value.KPrim || len(a.Shape) != len(x.Indices) {
		return nil, false
	}
	idx := make([]knode, len(x.Indices))
	for i, d := range x.Indices {
		if d.Fix == nil {
			return nil, false
		}
		n, ok := kc.scalar(d.Fix, sc, e)
		if !ok {
			return nil, false
		}
		idx[i] = n
	}
	pos := indexErrPos(x.Indices, x.Pos())
	shape, data, typ := a.Shape, a.Data, a.T
	get := reader(typ, data)
	kc.ty = typ
	return func(f []value.Prim) value.Prim {
		base := t.live
		off := int64(0)
		var buf [4]int64
		is := buf[:0]
		bad := false
		for k, n := range idx {
			i := n(f).Int()
			is = append(is, i)
			if i < 0 || i >= shape[k] {
				bad = true
			}
			off = off*shape[k] + i
		}
		if bad {
			s := fmt.Sprint(is)
			kc.kerr(pos, "Index [%s] out of bounds for array of shape %s.", joinInts(s), value.ShapeString(shape))
		}
		if cost {
			t.kstep(base)
		}
		return get(int(off))
	}, true
}

func joinInts(s string) string {
	// fmt prints [1 2]; Futhark writes 1, 2
	s = s[1 : len(s)-1]
	out := ""
	for i, c := range s {
		if c == ' ' && i > 0 {
			out += ", "
		} else {
			out += string(c)
		}
	}
	return out
}

// reader returns a typed element reader for a flat slice.
func reader(t value.PrimType, d any) func(i int) value.Prim {
	switch d := d.(type) {
	case []float64:
		return func(i int) value.Prim { return value.F64Val(d[i]) }
	case []int64:
		return func(i int) value.Prim { return value.Prim{T: t, B: uint64(d[i])} }
	case []int32:
		return func(i int) value.Prim { return value.Prim{T: t, B: uint64(int64(d[i]))} }
	case []float32:
		return func(i int) value.Prim { return value.DataGet(t, d, i) }
	}
	return func(i int) value.Prim { return value.DataGet(t, d, i) }
}

// writer returns a typed element writer for a flat slice.
func writer(d any) func(i int, p value.Prim) {
	switch d := d.(type) {
	case []float64:
		return func(i int, p value.Prim) { d[i] = math.Float64frombits(p.B) }
	case []float32:
		return func(i int, p value.Prim) { d[i] = float32(math.Float64frombits(p.B)) }
	case []int64:
		return func(i int, p value.Prim) { d[i] = int64(p.B) }
	case []int32:
		return func(i int, p value.Prim) { d[i] = int32(p.B) }
	case []bool:
		return func(i int, p value.Prim) { d[i] = p.B != 0 }
	}
	return func(i int, p value.Prim) { value.DataSet(d, i, p) }
}
