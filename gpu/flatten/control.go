package flatten

import (
	"context"
	"fmt"

	"fut/eval/value"
	"fut/gpu/runtime"
	"fut/interp/ir"
)

// Top-level control flow around SOACs: an if or a sequential loop whose
// bodies hold SOACs runs on the host, its bodies flattened into steps of
// their own; arrays stay on the device from one iteration to the next.

// LoopStep is a top-level loop whose body (or condition) launches kernels.
type LoopStep struct {
	E     *ir.LoopE
	Pat   []ir.Param
	While []Step // the condition's steps (while loops)
	Body  []Step
}

// IfStep is a top-level if whose branches launch kernels.
type IfStep struct {
	E          *ir.IfE
	Pat        []ir.Param
	Then, Else []Step
}

// sub flattens a body into steps of its own.
func (f *flattener) sub(b *ir.Body) []Step {
	saved := f.steps
	f.steps = nil
	for _, s := range b.Stms {
		f.stm(s)
		for _, prm := range s.Pat {
			f.types[prm.Name] = prm.T
		}
	}
	steps := f.steps
	f.steps = saved
	return steps
}

func (f *flattener) loopStep(s *ir.Stm, e *ir.LoopE) {
	if len(e.Over) > 0 {
		e = f.forIn(e)
	}
	for _, prm := range e.Params {
		f.types[prm.Name] = prm.T
	}
	ls := &LoopStep{E: e, Pat: s.Pat}
	if e.While != nil {
		ls.While = f.sub(e.While)
	} else if e.I != "" {
		t := value.I64
		if e.Bound.IsConst() {
			t = e.Bound.Val.T
		} else if bt, ok := f.types[e.Bound.Name]; ok {
			t = bt.Elem
		}
		f.types[e.I] = ir.Scalar(t)
	}
	ls.Body = f.sub(e.Body)
	f.steps = append(f.steps, Step{Loop: ls})
}

// forIn rewrites for x in xs as a loop over the indices of xs whose body
// first binds x = xs[i].
func (f *flattener) forIn(e *ir.LoopE) *ir.LoopE {
	t, ok := f.types[e.Over[0]]
	if !ok || t.Rank() == 0 {
		fail("a for-in loop over %s, not a top-level array", e.Over[0])
	}
	n := t.Shape[0]
	if !f.topSize(n) {
		fail("a for-in loop over %s, whose size is not known at the top level", e.Over[0])
	}
	l := *e
	if l.I == "" {
		f.nk++
		l.I = fmt.Sprintf("row_%d_%s", f.nk, e.Over[0])
	}
	l.Bound, l.Over, l.Elems = n, nil, nil
	body := &ir.Body{Res: e.Body.Res}
	for k, over := range e.Over {
		body.Stms = append(body.Stms, &ir.Stm{Pat: []ir.Param{e.Elems[k]}, E: &ir.IndexE{Arr: over, Idx: []ir.Atom{ir.V(l.I)}}})
	}
	body.Stms = append(body.Stms, e.Body.Stms...)
	l.Body = body
	return &l
}

func (f *flattener) ifStep(s *ir.Stm, e *ir.IfE) {
	f.steps = append(f.steps, Step{If: &IfStep{E: e, Pat: s.Pat, Then: f.sub(e.Then), Else: f.sub(e.Else)}})
}

// steps runs a list of steps.
func (r *runner) steps(ctx context.Context, ss []Step) error {
	for _, st := range ss {
		if err := ctx.Err(); err != nil {
			return err
		}
		var err error
		switch {
		case st.Kernel != nil:
			err = r.launch(st)
		case st.Loop != nil:
			err = r.loop(ctx, st.Loop)
		case st.If != nil:
			err = r.ifStep(ctx, st.If)
		default:
			err = r.host(ctx, st.Host)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// slotOf is an atom's slot (a constant gets a fresh one).
func (r *runner) slotOf(a ir.Atom) (*slot, error) {
	if a.IsConst() {
		return &slot{host: a.Val}, nil
	}
	return r.slot(a.Name)
}

func (r *runner) slots(as []ir.Atom) ([]*slot, error) {
	out := make([]*slot, len(as))
	for i, a := range as {
		s, err := r.slotOf(a)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

func (r *runner) boolOf(a ir.Atom) (bool, error) {
	x, err := r.scalarArg(a)
	if err != nil {
		return false, err
	}
	b, ok := x.(bool)
	if !ok {
		return false, fmt.Errorf("flatten: condition %v is not a bool", a)
	}
	return b, nil
}

func (r *runner) ifStep(ctx context.Context, is *IfStep) error {
	c, err := r.boolOf(is.E.Cond)
	if err != nil {
		return err
	}
	steps, body := is.Else, is.E.Else
	if c {
		steps, body = is.Then, is.E.Then
	}
	if err := r.steps(ctx, steps); err != nil {
		return err
	}
	vals, err := r.slots(body.Res)
	if err != nil {
		return err
	}
	for k, prm := range is.Pat {
		r.env[prm.Name] = vals[k]
	}
	return nil
}

func (r *runner) loop(ctx context.Context, ls *LoopStep) error {
	e := ls.E
	vals, err := r.slots(e.Init)
	if err != nil {
		return err
	}
	var bound int64
	if e.While == nil {
		x, err := r.scalarArg(e.Bound)
		if err != nil {
			return err
		}
		bound = toInt(x)
	}
	mark := len(r.owned)
	for iter := int64(0); ; iter++ {
		for k, prm := range e.Params {
			r.env[prm.Name] = vals[k]
		}
		if e.While != nil {
			if err := r.steps(ctx, ls.While); err != nil {
				return err
			}
			c, err := r.boolOf(e.While.Res[0])
			if err != nil {
				return err
			}
			if !c {
				break
			}
		} else {
			if iter >= bound {
				break
			}
			if e.I != "" {
				t := value.I64
				if e.Bound.IsConst() {
					t = e.Bound.Val.T
				} else if p, ok := r.env[e.Bound.Name].host.(value.Prim); ok {
					t = p.T
				}
				r.env[e.I] = &slot{host: value.MkInt(t, iter)}
			}
		}
		if err := r.steps(ctx, ls.Body); err != nil {
			return err
		}
		if vals, err = r.slots(e.Body.Res); err != nil {
			return err
		}
		r.releaseSince(mark, vals)
	}
	for k, prm := range ls.Pat {
		r.env[prm.Name] = vals[k]
	}
	return nil
}

// releaseSince frees the device arrays made since owned[mark] that none
// of the live slots holds: what an iteration made and no longer needs.
func (r *runner) releaseSince(mark int, live []*slot) {
	keep := map[*runtime.Array]bool{}
	for _, s := range live {
		if s.dev != nil {
			keep[s.dev] = true
		}
	}
	kept := r.owned[:mark]
	for _, a := range r.owned[mark:] {
		if keep[a] {
			kept = append(kept, a)
		} else {
			a.Release()
		}
	}
	r.owned = kept
}
