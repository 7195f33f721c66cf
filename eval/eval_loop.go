package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// evalLoop runs loop p = init for/while … do body. Cost per
// COST_MODEL.md: W = W0 + Σ(Wk + 1), D likewise, and the loop state is
// held while each iteration runs: S = max(S0, max_k ‖state_k‖ + S_k).
func (t *thread) evalLoop(x *syntax.Loop, e *env) (value.Value, error) {
	base := t.live
	var state value.Value
	var err error
	if x.Init != nil {
		if state, err = t.eval(x.Init, e); err != nil {
			return nil, err
		}
	} else if state, err = t.patValue(x.Pat, e); err != nil {
		return nil, err
	}
	initF := t.live - base
	iters := 0
	body := func(e2 *env) error {
		if err := t.tick(x.Pos()); err != nil {
			return err
		}
		if t.cost {
			t.live = base + value.Size(state)
		}
		e3, err := t.bindLet(x.Sizes, x.Pat, state, e2)
		if err != nil {
			return err
		}
		nv, err := t.eval(x.Body, e3)
		if err != nil {
			return err
		}
		if t.cost {
			t.W++
			t.D++
		}
		state = nv
		iters++
		return nil
	}
	switch f := x.Form.(type) {
	case *syntax.For:
		bv, err := t.eval(f.Bound, e)
		if err != nil {
			return nil, err
		}
		initF = t.live - base
		bp, ok := primOf(bv)
		if !ok || !bp.T.IsInt() {
			return nil, t.errf(f.Bound.Pos(), "loop bound is not an integer")
		}
		n := bp.Int()
		for i := int64(0); i < n; i++ {
			if err := body(e.bind(f.I.Name, value.MkInt(bp.T, i))); err != nil {
				return nil, err
			}
		}
	case *syntax.ForIn:
		av, err := t.eval(f.Arr, e)
		if err != nil {
			return nil, err
		}
		initF = t.live - base
		arr, ok := av.(*value.Array)
		if !ok {
			return nil, t.errf(f.Arr.Pos(), "for-in over a value that is not an array")
		}
		for i := int64(0); i < arr.Shape[0]; i++ {
			e2, err := t.bindPat(f.Pat, arr.Index(i), e, nil)
			if err != nil {
				return nil, err
			}
			if err := body(e2); err != nil {
				return nil, err
			}
		}
	case *syntax.While:
		for {
			if t.cost {
				t.live = base + value.Size(state)
			}
			e2, err := t.bindLet(x.Sizes, x.Pat, state, e)
			if err != nil {
				return nil, err
			}
			c, err := t.eval(f.Cond, e2)
			if err != nil {
				return nil, err
			}
			cp, ok := c.(value.Prim)
			if !ok || cp.T != value.Bool {
				return nil, t.errf(f.Cond.Pos(), "while condition is not a bool")
			}
			if cp.B == 0 {
				break
			}
			if err := body(e); err != nil {
				return nil, err
			}
		}
	}
	if t.cost {
		if iters > 0 {
			t.live = base + value.Size(state)
		} else {
			t.live = base + initF
		}
	}
	return state, nil
}

// patValue rebuilds the value of a loop pattern from the variables it
// names (loop x for … with no initialiser).
func (t *thread) patValue(p syntax.Pat, e *env) (value.Value, error) {
	switch p := p.(type) {
	case *syntax.PId:
		v, ok := e.lookup(p.Name)
		if !ok {
			return nil, t.errf(p.Pos(), "unknown name %s", p.Name)
		}
		return v, nil
	case *syntax.PParen:
		return t.patValue(p.P, e)
	case *syntax.PAscript:
		return t.patValue(p.P, e)
	case *syntax.PAttr:
		return t.patValue(p.P, e)
	case *syntax.PTuple:
		out := make(value.Tuple, len(p.Elems))
		for i, q := range p.Elems {
			v, err := t.patValue(q, e)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case *syntax.PRecord:
		names := make([]string, len(p.Fields))
		vals := make([]value.Value, len(p.Fields))
		for i, f := range p.Fields {
			q := f.Pat
			if q == nil {
				q = &syntax.PId{Loc: f.Loc, Name: f.Name}
			}
			v, err := t.patValue(q, e)
			if err != nil {
				return nil, err
			}
			names[i], vals[i] = f.Name, v
		}
		return value.NewRecord(names, vals), nil
	}
	return nil, t.errf(p.Pos(), "loop pattern needs an initial value")
}
