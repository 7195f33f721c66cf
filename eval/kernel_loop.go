package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Loops in kernels over scalar state. The state lives in two register
// sets, and the body (and a while loop's condition) is compiled once
// reading each set and writing the other, so that iterations alternate
// between them and none copies its new state; a final state in the
// second set is copied once.
//
// A while condition made of comparisons of pure scalar expressions
// (kernel_cost.go) and && is a typed bool (kernel_typed.go). With costs
// on, a loop whose condition and body are pure is charged once per
// iteration, after its tick, by the sums of their static charges. An
// iteration of kc.loop's general run charges the condition, then the
// body, then the loop's own 1, each from the same live space (base +
// the state's size), and nothing in them can fail or read the counters;
// so every iteration that goes on adds the same work and depth and
// reaches the same peaks, and the counters stand where the general run
// leaves them at every tick, the only point where an iteration can stop
// early. The last test of a while condition is charged by itself; for
// a && b its charges depend on whether b ran.

// loopRegs is what a static loop over k registers of state needs: with
// costs on, its body's static cost (ok false where the body is not
// pure), and k more registers for the state to alternate with.
func (kc *kcomp) loopRegs(body syntax.Expr, k int, sc *kscope, e *env) (bc scost, alt []int, ok bool) {
	if kc.t.cost {
		if bc, ok = kc.bodyCost(body, k, sc, e); !ok {
			return bc, nil, false
		}
	}
	alt = make([]int, k)
	for i := range alt {
		alt[i] = kc.reg()
	}
	return bc, alt, true
}

// staticWhile is the run of a while loop over scalar state when its
// condition and, with costs on, its body are pure; nil otherwise.
func (kc *kcomp) staticWhile(x *syntax.Loop, cond syntax.Expr, init ktuple, state, tmp []int, inner *kscope, e *env) ktuple {
	t := kc.t
	cost := t.cost
	k := len(state)
	bc, alt, ok := kc.loopRegs(x.Body, k, inner, e)
	if !ok {
		return nil
	}
	inner2 := rebind(inner, state, alt)
	var conds [2]whileCond
	var bodies [2]storeBody
	for p, c := range []struct {
		sc  *kscope
		dst []int
	}{{inner, alt}, {inner2, state}} {
		var ok1, ok2 bool
		conds[p], ok1 = kc.whileCond(cond, c.sc, e)
		bodies[p], ok2 = kc.storeBody(x.Body, c.dst, c.sc, e)
		if !ok1 || !ok2 {
			return nil
		}
	}
	pos, ks := x.Pos(), int64(k)
	if !cost {
		return whileRun(t, pos, init, state, tmp, alt, conds, bodies)
	}
	full, short := conds[0].full, conds[0].short
	iterW, iterPeak := full.w+bc.w+1, max(full.peak, bc.peak)
	if bodies[0].nodes != nil {
		return whileRunCost(t, pos, init, state, tmp, alt, conds, bodies, ks, bc, iterW, iterPeak)
	}
	return func(f []value.Prim) {
		base := t.live
		init(f)
		commitRegs(f, state, tmp)
		initF := t.live - base
		iters := 0
		p := 0
		for ; ; p ^= 1 {
			if err := t.tick(pos); err != nil {
				panic(kpanic{err})
			}
			c := &conds[p]
			if !c.a(f) {
				if c.b == nil {
					t.charge(base+ks, full)
				} else {
					t.charge(base+ks, short)
				}
				break
			}
			if c.b != nil && !c.b(f) {
				t.charge(base+ks, full)
				break
			}
			t.W += iterW
			t.D += iterW
			if iters == 0 {
				t.peakAt(base + ks + iterPeak)
				t.live = base + ks + bc.fresh
			}
			bodies[p].store(f)
			iters++
		}
		if p == 1 {
			commitRegs(f, state, alt)
		}
		if iters > 0 {
			t.live = base + ks
		} else {
			t.live = base + initF
		}
	}
}

// whileRunCost is staticWhile's run with costs on and a tuple literal
// for a body, its two halves written out.
func whileRunCost(t *thread, pos syntax.Pos, init ktuple, state, tmp, alt []int, conds [2]whileCond, bodies [2]storeBody, ks int64, bc scost, iterW, iterPeak int64) ktuple {
	a0, b0, a1, b1 := conds[0].a, conds[0].b, conds[1].a, conds[1].b
	n0, n1 := bodies[0].nodes, bodies[1].nodes
	full, early := conds[0].full, conds[0].short // early: a ended the test
	if b0 == nil {
		early = full
	}
	return func(f []value.Prim) {
		base := t.live
		init(f)
		commitRegs(f, state, tmp)
		initF := t.live - base
		live := base + ks
		ran := false
		for {
			if err := t.tick(pos); err != nil {
				panic(kpanic{err})
			}
			if !a0(f) {
				t.charge(live, early)
				break
			}
			if b0 != nil && !b0(f) {
				t.charge(live, full)
				break
			}
			t.W += iterW
			t.D += iterW
			if !ran {
				t.peakAt(live + iterPeak)
				t.live = live + bc.fresh
				ran = true
			}
			for i, n := range n0 {
				f[alt[i]] = n(f)
			}
			if err := t.tick(pos); err != nil {
				panic(kpanic{err})
			}
			if !a1(f) {
				t.charge(live, early)
				commitRegs(f, state, alt)
				break
			}
			if b1 != nil && !b1(f) {
				t.charge(live, full)
				commitRegs(f, state, alt)
				break
			}
			t.W += iterW
			t.D += iterW
			for i, n := range n1 {
				f[state[i]] = n(f)
			}
		}
		if ran {
			t.live = live
		} else {
			t.live = base + initF
		}
	}
}

// whileRun is staticWhile's run with costs off, its two halves written
// out.
func whileRun(t *thread, pos syntax.Pos, init ktuple, state, tmp, alt []int, conds [2]whileCond, bodies [2]storeBody) ktuple {
	a0, b0, a1, b1 := conds[0].a, conds[0].b, conds[1].a, conds[1].b
	body0, body1 := bodies[0], bodies[1]
	n0, n1 := body0.nodes, body1.nodes
	if n0 == nil {
		return func(f []value.Prim) {
			init(f)
			commitRegs(f, state, tmp)
			for {
				if err := t.tick(pos); err != nil {
					panic(kpanic{err})
				}
				if !a0(f) || b0 != nil && !b0(f) {
					return
				}
				body0.run(f)
				if err := t.tick(pos); err != nil {
					panic(kpanic{err})
				}
				if !a1(f) || b1 != nil && !b1(f) {
					commitRegs(f, state, alt)
					return
				}
				body1.run(f)
			}
		}
	}
	return func(f []value.Prim) {
		init(f)
		commitRegs(f, state, tmp)
		for {
			if err := t.tick(pos); err != nil {
				panic(kpanic{err})
			}
			if !a0(f) || b0 != nil && !b0(f) {
				return
			}
			for i, n := range n0 {
				f[alt[i]] = n(f)
			}
			if err := t.tick(pos); err != nil {
				panic(kpanic{err})
			}
			if !a1(f) || b1 != nil && !b1(f) {
				commitRegs(f, state, alt)
				return
			}
			for i, n := range n1 {
				f[state[i]] = n(f)
			}
		}
	}
}

// store runs the body, leaving the new state in its registers.
func (b *storeBody) store(f []value.Prim) {
	if b.nodes == nil {
		b.run(f)
		return
	}
	for i, n := range b.nodes {
		f[b.dsts[i]] = n(f)
	}
}

// whileCond is a while loop's condition, compiled without charges: a,
// or a && b; with costs on, a test that ends after a costs short, one
// that runs the whole condition costs full.
type whileCond struct {
	a, b        tnode[bool]
	short, full scost
}

func (kc *kcomp) whileCond(cond syntax.Expr, sc *kscope, e *env) (whileCond, bool) {
	t := kc.t
	boolOf := func(x syntax.Expr) (tnode[bool], bool) {
		return costOff(kc, func() (tnode[bool], bool) { return kc.boolNode(x, sc, e) })
	}
	var w whileCond
	if and, ok := unparen(cond).(*syntax.Binary); ok {
		if op, builtin := t.isBuiltinOp(and, and.Op, and.Backtick, e); builtin && op == value.OpLogAnd {
			var ok1, ok2 bool
			w.a, ok1 = boolOf(and.L)
			w.b, ok2 = boolOf(and.R)
			if !ok1 || !ok2 {
				return w, false
			}
			if t.cost {
				lc, ok1 := kc.staticCost(and.L, sc, e)
				rc, ok2 := kc.staticCost(and.R, sc, e)
				if !ok1 || !ok2 || lc.ty != value.Bool || rc.ty != value.Bool {
					return w, false
				}
				w.short = scost{w: lc.w + 1, peak: max(lc.peak, lc.fresh+1), fresh: 1}
				w.full = scost{w: lc.w + rc.w + 1, peak: max(lc.peak, lc.fresh+rc.peak, lc.fresh+rc.fresh+1), fresh: 1}
			}
			return w, true
		}
	}
	var ok bool
	if w.a, ok = boolOf(cond); !ok {
		return w, false
	}
	if t.cost {
		if w.full, ok = kc.staticCost(cond, sc, e); !ok || w.full.ty != value.Bool {
			return w, false
		}
	}
	return w, true
}

// storeBody is a loop body compiled without charges to write the new
// state into dsts: one node for each component of a tuple literal, or
// a run that writes them all.
type storeBody struct {
	nodes []knode
	dsts  []int
	run   ktuple
}

// storeBody compiles x, whose scope sc does not see dsts, so that x may
// write dsts while it still reads the state.
func (kc *kcomp) storeBody(x syntax.Expr, dsts []int, sc *kscope, e *env) (storeBody, bool) {
	return costOff(kc, func() (storeBody, bool) {
		if tl, ok := unparen(x).(*syntax.TupleLit); ok && len(tl.Elems) == len(dsts) && len(dsts) > 1 {
			nodes := make([]knode, len(dsts))
			for i, el := range tl.Elems {
				if nodes[i], ok = kc.scalar(el, sc, e); !ok {
					return storeBody{}, false
				}
			}
			return storeBody{nodes: nodes, dsts: dsts}, true
		}
		if len(dsts) > 1 {
			run, ok := kc.tuple(x, dsts, sc, e)
			return storeBody{run: run}, ok
		}
		n, ok := kc.scalar(x, sc, e)
		return storeBody{nodes: []knode{n}, dsts: dsts}, ok
	})
}

// rebind is sc with the names bound to registers from bound to those of
// to instead.
func rebind(sc *kscope, from, to []int) *kscope {
	if sc == nil || sc.val != nil {
		return sc
	}
	for i, r := range from {
		if sc.reg == r {
			return &kscope{name: sc.name, reg: to[i], typ: sc.typ, next: rebind(sc.next, from, to)}
		}
	}
	return sc
}

// staticFor is the run of a for loop over scalar state whose body is,
// with costs on, pure; nil otherwise.
func (kc *kcomp) staticFor(x *syntax.Loop, init ktuple, bound knode, ireg int, state, tmp []int, bsc *kscope, e *env) ktuple {
	t := kc.t
	cost := t.cost
	k := len(state)
	bc, alt, ok := kc.loopRegs(x.Body, k, bsc, e)
	if !ok {
		return nil
	}
	body0, ok0 := kc.storeBody(x.Body, alt, bsc, e)
	body1, ok1 := kc.storeBody(x.Body, state, rebind(bsc, state, alt), e)
	if !ok0 || !ok1 {
		return nil
	}
	pos, ks := x.Pos(), int64(k)
	iterW := bc.w + 1
	return func(f []value.Prim) {
		base := t.live
		init(f)
		commitRegs(f, state, tmp)
		bv := bound(f)
		initF := t.live - base
		n := bv.Int()
		for i := int64(0); i < n; i++ {
			if err := t.tick(pos); err != nil {
				panic(kpanic{err})
			}
			if cost {
				t.W += iterW
				t.D += iterW
				if i == 0 {
					t.peakAt(base + ks + bc.peak)
					t.live = base + ks + bc.fresh
				}
			}
			f[ireg] = value.MkInt(bv.T, i)
			if i&1 == 0 {
				body0.store(f)
			} else {
				body1.store(f)
			}
		}
		if n > 0 && n&1 == 1 {
			commitRegs(f, state, alt)
		}
		if cost {
			if n > 0 {
				t.live = base + ks
			} else {
				t.live = base + initF
			}
		}
	}
}

// bodyCost is the static cost of a loop body of k scalars: one pure
// expression, or a tuple of k, evaluated in order (a tuple is free).
func (kc *kcomp) bodyCost(x syntax.Expr, k int, sc *kscope, e *env) (scost, bool) {
	if k == 1 {
		return kc.staticCost(x, sc, e)
	}
	tl, ok := unparen(x).(*syntax.TupleLit)
	if !ok || len(tl.Elems) != k {
		return scost{}, false
	}
	var c scost
	for _, el := range tl.Elems {
		ec, ok := kc.staticCost(el, sc, e)
		if !ok {
			return scost{}, false
		}
		c.peak = max(c.peak, c.fresh+ec.peak)
		c.fresh += ec.fresh
		c.w += ec.w
	}
	return c, true
}

// costOff runs compile as if costs were off, keeping what the kernel
// compiler records about the last expression it compiled.
func costOff[T any](kc *kcomp, compile func() (T, bool)) (T, bool) {
	t := kc.t
	ty, tys, opnd, cost := kc.ty, kc.tys, kc.opnd, t.cost
	t.cost = false
	defer func() { kc.ty, kc.tys, kc.opnd, t.cost = ty, tys, opnd, cost }()
	return compile()
}

// charge charges a pure expression of cost c run from live space live.
func (t *thread) charge(live int64, c scost) {
	t.W += c.w
	t.D += c.w
	t.peakAt(live + c.peak)
	t.live = live + c.fresh
}

// peakAt raises both peaks to x.
func (t *thread) peakAt(x int64) {
	if x > t.pk1 {
		t.pk1 = x
	}
	if x > t.pkP {
		t.pkP = x
	}
}

func commitRegs(f []value.Prim, state, tmp []int) {
	for i, r := range state {
		f[r] = f[tmp[i]]
	}
}
