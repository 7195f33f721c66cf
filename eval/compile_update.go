package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Compiled in-place updates (a with [i].f = v, let a[i] = v in e:
// the array, the value, updatePathBy, then a step of (1, 1)) and
// assertions, so that a loop body that updates its state in place runs
// without an environment built each iteration.

// update compiles a with path = v.
func (cc *ccomp) update(x *syntax.Update, sc *cscope) cexpr {
	arr, val := cc.expr(x.X, sc), cc.expr(x.Value, sc)
	var parts cindices
	for _, el := range x.Path {
		parts = cc.indices(parts, el.Indices, sc)
	}
	return func(t *thread, bp int) (value.Value, error) {
		base := t.live
		a, err := arr(t, bp)
		if err != nil {
			return nil, err
		}
		v, err := val(t, bp)
		if err != nil {
			return nil, err
		}
		r, err := t.updatePathBy(a, x.Path, v, parts.by(t, bp, sc), x.Pos())
		if err != nil {
			return nil, err
		}
		if t.cost {
			t.step(base, 1, 1, 0, 0)
		}
		return r, nil
	}
}

// letWith compiles let a[i] = v in body: the update, then the body with
// a bound to its result.
func (cc *ccomp) letWith(x *syntax.LetWith, sc *cscope) cexpr {
	upd := cc.update(&syntax.Update{Loc: x.Loc, X: x.Dest, Path: x.Path, Value: x.Value}, sc)
	s := cc.slot()
	body := cc.expr(x.Body, &cscope{name: x.Dest.Name.Name, slot: s, next: sc})
	return func(t *thread, bp int) (value.Value, error) {
		v, err := upd(t, bp)
		if err != nil {
			return nil, err
		}
		t.slots[bp+s] = v
		return body(t, bp)
	}
}
