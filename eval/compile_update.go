package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Compiled in-place updates (a with [i].f = v, let a[i] = v in e:
// by its form, the array, the value, updatePathBy, then its step) and
// assertions, so that a loop body that updates its state in place runs
// without an environment built each iteration.

// update compiles a with path = v by its form: a, v, the update (which
// evaluates the path's indices as updatePathBy asks for them), then the
// form's rule.
func (cc *ccomp) update(x *syntax.Update, sc *cscope) cexpr {
	fm, _ := formOf(x)
	arr, val := cc.expr(fm.ops[0], sc), cc.expr(fm.ops[1], sc)
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
		if fm.rule == stepUpdate {
			t.updateStep(base)
		} else {
			t.after(fm.rule, base)
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
