package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Compiled loops: loop p = init for i < n / for x in xs / while c do
// body, with p, i and x in slots of the frame, so that an iteration
// binds the state into its slots instead of allocating one environment
// node per name. Cost per COST_MODEL.md: W = W0 + Σ(Wk + 1), D likewise,
// and the loop state is held while each iteration runs: S = max(S0,
// max_k ‖state_k‖ + S_k). The steps, in order: the initial value, then
// the bound or the array; for each iteration a tick, live reset to the
// state held (loopHeld, thread.go), the body, and the iteration's own
// (1, 1); a while condition is evaluated (and charged) with the state
// bound and held before each iteration and once more at the end; after
// the loop, live is loopEnd's. A loop that binds sizes (loop [n] (xs: [n]t))
// binds its state as bindLet does (walkedPat).

// loop compiles x by its form: the initial state, then a for loop's
// bound or array; each iteration a while loop's condition, then the
// body, then the form's rule.
func (cc *ccomp) loop(x *syntax.Loop, sc *cscope) cexpr {
	f, _ := formOf(x)
	var init cexpr
	if f.ops[0] != nil {
		init = cc.expr(f.ops[0], sc)
	} else {
		wc := walkReason("loop without an initial value")
		init = func(t *thread, bp int) (value.Value, error) {
			prev := t.enterWalk(wc)
			v, err := t.patValue(x.Pat, t.envAt(bp, sc))
			t.wc = prev
			return v, err
		}
	}
	pos := x.Pos()
	switch form := x.Form.(type) {
	case *syntax.For:
		bound := cc.expr(f.ops[1], sc)
		is := cc.slot()
		cc.noteCounter(form, is)
		ls := cc.loopState(x, f, &cscope{name: form.I.Name, slot: is, next: sc})
		return func(t *thread, bp int) (value.Value, error) {
			base := t.live
			state, err := init(t, bp)
			if err != nil {
				return nil, err
			}
			bv, err := bound(t, bp)
			if err != nil {
				return nil, err
			}
			start := t.live
			b, ok := primOf(bv)
			if !ok || !b.T.IsInt() {
				return nil, t.errf(form.Bound.Pos(), "loop bound is not an integer")
			}
			n := b.Int()
			inSlots := false
			for i := int64(0); i < n; i++ {
				t.slots[bp+is] = value.MkInt(b.T, i)
				if err := ls.iterate(t, bp, pos, base, &state, inSlots); err != nil {
					return nil, err
				}
				inSlots = ls.parts != nil
			}
			return ls.end(t, bp, base, start, state, inSlots, n > 0), nil
		}
	case *syntax.ForIn:
		arr := cc.expr(f.ops[1], sc)
		ebind, esc := cc.pat(form.Pat, sc)
		ls := cc.loopState(x, f, esc)
		return func(t *thread, bp int) (value.Value, error) {
			base := t.live
			state, err := init(t, bp)
			if err != nil {
				return nil, err
			}
			av, err := arr(t, bp)
			if err != nil {
				return nil, err
			}
			start := t.live
			a, ok := av.(*value.Array)
			if !ok {
				return nil, t.errf(form.Arr.Pos(), "for-in over a value that is not an array")
			}
			n := a.Shape[0]
			inSlots := false
			for i := int64(0); i < n; i++ {
				if err := ebind(t, bp, a.Index(i)); err != nil {
					return nil, err
				}
				if err := ls.iterate(t, bp, pos, base, &state, inSlots); err != nil {
					return nil, err
				}
				inSlots = ls.parts != nil
			}
			return ls.end(t, bp, base, start, state, inSlots, n > 0), nil
		}
	case *syntax.While:
		ls := cc.loopState(x, f, sc)
		cond := cc.prim(f.arms[0], ls.sc)
		return func(t *thread, bp int) (value.Value, error) {
			base := t.live
			state, err := init(t, bp)
			if err != nil {
				return nil, err
			}
			start := t.live
			inSlots, iters := false, 0
			for {
				var held int64
				if t.cost {
					held = loopHeld(liveAt(base), ls.size(t, bp, state, inSlots)).c
					t.live = held
				}
				if err := ls.bind(t, bp, state, inSlots); err != nil {
					return nil, err
				}
				c, v, err := cond(t, bp)
				if err != nil {
					return nil, err
				}
				if v != nil || c.T != value.Bool {
					return nil, t.errf(form.Cond.Pos(), "while condition is not a bool")
				}
				if c.B == 0 {
					break
				}
				// the state is bound again for the body: the slots hold it
				if err := t.tick(pos); err != nil {
					return nil, err
				}
				if t.cost {
					t.live = held
				}
				if state, err = ls.run(t, bp); err != nil {
					return nil, err
				}
				t.after(f.rule, t.live)
				inSlots = ls.parts != nil
				iters++
			}
			return ls.end(t, bp, base, start, state, inSlots, iters > 0), nil
		}
	}
	return cc.cannot(x) // syntax has no other loop form
}

// loopState is a loop's pattern and body. Where the pattern is a tuple
// of k patterns and every value the body can give is a tuple literal of
// k (through lets, ifs and parentheses), the body leaves the new state's
// components in k slots from tmp (into) and the next iteration binds
// them (parts): no tuple is made per iteration, only one at the end.
// The charges are the same, since a tuple literal costs nothing and the
// size of a tuple is the sum of its components' sizes.
type loopState struct {
	rule  stepRule // charged after each iteration's body (its form's)
	sc    *cscope  // the body's scope
	all   cbind    // binds a whole state value
	body  cexpr
	parts []cbind
	tmp   int
	into  cstore
}

// cstore evaluates a tuple-valued expression into slots.
type cstore func(t *thread, bp int) error

func (cc *ccomp) loopState(x *syntax.Loop, f form, sc *cscope) *loopState {
	body := f.arms[len(f.arms)-1]
	if len(x.Sizes) > 0 {
		all, bsc := cc.walkedPat(x.Sizes, x.Pat, sc)
		return &loopState{rule: f.rule, sc: bsc, all: all, body: cc.expr(body, bsc)}
	}
	if tp, ok := tuplePatOf(x.Pat); ok {
		psc := sc
		parts := make([]cbind, len(tp.Elems))
		for i, q := range tp.Elems {
			parts[i], psc = cc.pat(q, psc)
		}
		n := len(parts)
		cc.noteParts(x.Pat, pTuple, nil, tp.Elems)
		all := tupleBinder(tp.Pos(), parts)
		ls := &loopState{rule: f.rule, sc: psc, all: all}
		tmp := cc.nslots
		cc.nslots += n
		if ls.into = cc.tupleInto(body, n, tmp, psc); ls.into != nil {
			ls.parts, ls.tmp = parts, tmp
		} else {
			ls.body = cc.expr(body, psc)
		}
		return ls
	}
	all, bsc := cc.pat(x.Pat, sc)
	return &loopState{rule: f.rule, sc: bsc, all: all, body: cc.expr(body, bsc)}
}

// tuplePatOf returns a tuple pattern (p1, …, pk), in parentheses or not.
func tuplePatOf(p syntax.Pat) (*syntax.PTuple, bool) {
	switch p := p.(type) {
	case *syntax.PParen:
		return tuplePatOf(p.P)
	case *syntax.PTuple:
		return p, len(p.Elems) > 1
	}
	return nil, false
}

// tupleInto compiles x, whose values are tuple literals of k, to store
// their components in the slots from dst; nil for any other x.
func (cc *ccomp) tupleInto(x syntax.Expr, k, dst int, sc *cscope) cstore {
	switch x := x.(type) {
	case *syntax.Paren:
		return cc.tupleInto(x.X, k, dst, sc)
	case *syntax.TupleLit:
		f, _ := formOf(x)
		if len(f.ops) != k {
			return nil
		}
		els := cc.exprs(f.ops, sc)
		return func(t *thread, bp int) error { // by its form, as ccomp.tuple
			base := t.live
			for i, el := range els {
				v, err := el(t, bp)
				if err != nil {
					return err
				}
				t.slots[bp+dst+i] = v
			}
			t.after(f.rule, base)
			return nil
		}
	case *syntax.LetIn:
		if len(x.Sizes) > 0 {
			return nil
		}
		f, _ := formOf(x)
		val := cc.expr(f.ops[0], sc)
		bind, sc2 := cc.pat(x.Pat, sc)
		body := cc.tupleInto(f.arms[0], k, dst, sc2)
		if body == nil {
			return nil
		}
		return func(t *thread, bp int) error { // by its form, as ccomp.letIn
			base := t.live
			v, err := val(t, bp)
			if err != nil {
				return err
			}
			held := t.live - base
			if err := bind(t, bp, v); err != nil {
				return err
			}
			t.after(f.rule, base)
			if err := body(t, bp); err != nil {
				return err
			}
			if f.hold {
				t.meter.release(held)
			}
			return nil
		}
	case *syntax.If:
		f, _ := formOf(x)
		c, th, el := cc.prim(f.ops[0], sc), cc.tupleInto(f.arms[0], k, dst, sc), cc.tupleInto(f.arms[1], k, dst, sc)
		if th == nil || el == nil {
			return nil
		}
		return func(t *thread, bp int) error { // by its form, as ccomp.ifExpr
			base := t.live
			b, v, err := c(t, bp)
			if err != nil {
				return err
			}
			if v != nil || b.T != value.Bool {
				return t.errf(x.Cond.Pos(), "if condition is not a bool")
			}
			t.after(f.rule, base)
			if b.B != 0 {
				return th(t, bp)
			}
			return el(t, bp)
		}
	}
	return nil
}

// size is the size of the state, a value or the parts in the slots.
func (ls *loopState) size(t *thread, bp int, state value.Value, inSlots bool) int64 {
	if !inSlots {
		return value.Size(state)
	}
	var s int64
	for i := range ls.parts {
		s += value.Size(t.slots[bp+ls.tmp+i])
	}
	return s
}

func (ls *loopState) bind(t *thread, bp int, state value.Value, inSlots bool) error {
	if !inSlots {
		return ls.all(t, bp, state)
	}
	for i, b := range ls.parts {
		if err := b(t, bp, t.slots[bp+ls.tmp+i]); err != nil {
			return err
		}
	}
	return nil
}

// run runs the body: the new state is its value, or in the slots (nil).
func (ls *loopState) run(t *thread, bp int) (value.Value, error) {
	if ls.into != nil {
		return nil, ls.into(t, bp)
	}
	return ls.body(t, bp)
}

// iterate runs one iteration of a loop: a tick, live reset to the state
// held above base (loopHeld), the state bound, the body, and the form's
// rule; the new state is in *state or in the slots.
func (ls *loopState) iterate(t *thread, bp int, pos syntax.Pos, base int64, state *value.Value, inSlots bool) error {
	if err := t.tick(pos); err != nil {
		return err
	}
	if t.cost {
		t.live = loopHeld(liveAt(base), ls.size(t, bp, *state, inSlots)).c
	}
	if err := ls.bind(t, bp, *state, inSlots); err != nil {
		return err
	}
	nv, err := ls.run(t, bp)
	if err != nil {
		return err
	}
	t.after(ls.rule, t.live)
	*state = nv
	return nil
}

// end is the loop's value, left live as loopEnd says: the last state
// held above base where an iteration ran, else what the initial value
// (and the bound) left, start.
func (ls *loopState) end(t *thread, bp int, base, start int64, state value.Value, inSlots, ran bool) value.Value {
	if inSlots {
		tu := make(value.Tuple, len(ls.parts))
		copy(tu, t.slots[bp+ls.tmp:])
		state = tu
	}
	if t.cost {
		t.live = loopEnd(liveAt(base), liveAt(start), value.Size(state), ran).c
	}
	return state
}
