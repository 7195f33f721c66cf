package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Compiled loops: loop p = init for i < n / for x in xs / while c do
// body, with p, i and x in slots of the frame, so that an iteration
// binds the state into its slots instead of allocating one environment
// node per name. The steps and charges are evalLoop's (eval_loop.go), in
// its order: the initial value, then the bound or the array; for each
// iteration a tick, live reset to the state's size above the loop's
// base, the body, and the iteration's own (1, 1); a while condition is
// evaluated (and charged) with the state bound before each iteration and
// once more at the end. A loop that binds sizes (loop [n] (xs: [n]t))
// or whose pattern the compiler does not bind is left to the walker.

// loop compiles x, or returns nil for the walker.
func (cc *ccomp) loop(x *syntax.Loop, sc *cscope) cexpr {
	if len(x.Sizes) > 0 {
		return nil
	}
	var init cexpr
	if x.Init != nil {
		init = cc.expr(x.Init, sc)
	} else {
		init = func(t *thread, bp int) (value.Value, error) {
			return t.patValue(x.Pat, t.envAt(bp, sc))
		}
	}
	pos := x.Pos()
	switch form := x.Form.(type) {
	case *syntax.For:
		bound := cc.expr(form.Bound, sc)
		is := cc.slot()
		bind, bsc, ok := cc.pat(x.Pat, &cscope{name: form.I.Name, slot: is, next: sc})
		if !ok {
			return nil
		}
		body := cc.expr(x.Body, bsc)
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
			initF := t.live - base
			b, ok := primOf(bv)
			if !ok || !b.T.IsInt() {
				return nil, t.errf(form.Bound.Pos(), "loop bound is not an integer")
			}
			n := b.Int()
			for i := int64(0); i < n; i++ {
				t.slots[bp+is] = value.MkInt(b.T, i)
				if state, err = t.iterate(pos, base, state, bind, body, bp); err != nil {
					return nil, err
				}
			}
			t.loopEnd(base, initF, state, n > 0)
			return state, nil
		}
	case *syntax.ForIn:
		arr := cc.expr(form.Arr, sc)
		ebind, esc, ok := cc.pat(form.Pat, sc)
		if !ok {
			return nil
		}
		bind, bsc, ok := cc.pat(x.Pat, esc)
		if !ok {
			return nil
		}
		body := cc.expr(x.Body, bsc)
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
			initF := t.live - base
			a, ok := av.(*value.Array)
			if !ok {
				return nil, t.errf(form.Arr.Pos(), "for-in over a value that is not an array")
			}
			n := a.Shape[0]
			for i := int64(0); i < n; i++ {
				if err := ebind(t, bp, a.Index(i)); err != nil {
					return nil, err
				}
				if state, err = t.iterate(pos, base, state, bind, body, bp); err != nil {
					return nil, err
				}
			}
			t.loopEnd(base, initF, state, n > 0)
			return state, nil
		}
	case *syntax.While:
		bind, bsc, ok := cc.pat(x.Pat, sc)
		if !ok {
			return nil
		}
		cond, body := cc.prim(form.Cond, bsc), cc.expr(x.Body, bsc)
		return func(t *thread, bp int) (value.Value, error) {
			base := t.live
			state, err := init(t, bp)
			if err != nil {
				return nil, err
			}
			initF := t.live - base
			iters := 0
			for {
				var size int64
				if t.cost {
					size = value.Size(state)
					t.live = base + size
				}
				if err := bind(t, bp, state); err != nil {
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
				// the walker binds the same state again: the slots hold it
				if err := t.tick(pos); err != nil {
					return nil, err
				}
				if t.cost {
					t.live = base + size
				}
				nv, err := body(t, bp)
				if err != nil {
					return nil, err
				}
				if t.cost {
					t.W++
					t.D++
				}
				state = nv
				iters++
			}
			t.loopEnd(base, initF, state, iters > 0)
			return state, nil
		}
	}
	return nil
}

// iterate runs one iteration of a for loop as evalLoop's body does and
// returns the new state.
func (t *thread) iterate(pos syntax.Pos, base int64, state value.Value, bind cbind, body cexpr, bp int) (value.Value, error) {
	if err := t.tick(pos); err != nil {
		return nil, err
	}
	if t.cost {
		t.live = base + value.Size(state)
	}
	if err := bind(t, bp, state); err != nil {
		return nil, err
	}
	nv, err := body(t, bp)
	if err != nil {
		return nil, err
	}
	if t.cost {
		t.W++
		t.D++
	}
	return nv, nil
}

// loopEnd leaves the loop's result live, as evalLoop does.
func (t *thread) loopEnd(base, initF int64, state value.Value, ran bool) {
	if !t.cost {
		return
	}
	if ran {
		t.live = base + value.Size(state)
	} else {
		t.live = base + initF
	}
}
