package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// The constructs whose order and charges compiled code takes from their
// forms (form.go): each closure runs the form's skeleton by hand, the
// operands in the form's order, then the construct's own operation, the
// form's rule, the arm and the release where the form has them.

// unary compiles -x and !x: the form's operand, then op (which checks
// it and computes the value), then the form's rule.
func (cc *ccomp) unary(x syntax.Expr, sc *cscope, op func(t *thread, v value.Value, pos syntax.Pos) (value.Value, error)) cexpr {
	f, _ := formOf(x)
	a := cc.expr(f.ops[0], sc)
	return func(t *thread, bp int) (value.Value, error) {
		base := t.live
		v, err := a(t, bp)
		if err != nil {
			return nil, err
		}
		if v, err = op(t, v, x.Pos()); err != nil {
			return nil, err
		}
		t.after(f.rule, base)
		return v, nil
	}
}

// ifExpr compiles if c then a else b: the form's condition (unboxed),
// checked to be a bool, the form's rule, then the arm it chooses.
func (cc *ccomp) ifExpr(x *syntax.If, sc *cscope) cexpr {
	f, _ := formOf(x)
	c, th, el := cc.prim(f.ops[0], sc), cc.expr(f.arms[0], sc), cc.expr(f.arms[1], sc)
	return func(t *thread, bp int) (value.Value, error) {
		base := t.live
		b, v, err := c(t, bp)
		if err != nil {
			return nil, err
		}
		if v != nil || b.T != value.Bool {
			return nil, t.errf(x.Cond.Pos(), "if condition is not a bool")
		}
		t.after(f.rule, base)
		if b.B != 0 {
			return th(t, bp)
		}
		return el(t, bp)
	}
}

// assert compiles assert c x: the form's condition, which must hold,
// the form's rule, then its arm, x.
func (cc *ccomp) assert(x *syntax.Assert, sc *cscope) cexpr {
	f, _ := formOf(x)
	cond, body := cc.expr(f.ops[0], sc), cc.expr(f.arms[0], sc)
	return func(t *thread, bp int) (value.Value, error) {
		base := t.live
		c, err := cond(t, bp)
		if err != nil {
			return nil, err
		}
		if b, ok := c.(value.Prim); !ok || b.B == 0 {
			return nil, t.errf(x.Pos(), "Assertion is false: %s", t.sourceText(unparen(x.Cond)))
		}
		t.after(f.rule, base)
		return body(t, bp)
	}
}

// letIn compiles let p = v in body: the form's operand, bound to the
// pattern, the form's rule, then its arm, the body (in the pattern's
// scope), with the bound value held until the body is done.
func (cc *ccomp) letIn(x *syntax.LetIn, sc *cscope) cexpr {
	f, _ := formOf(x)
	var bind cbind
	var sc2 *cscope
	if len(x.Sizes) > 0 {
		bind, sc2 = cc.walkedPat(x.Sizes, x.Pat, sc)
	} else {
		bind, sc2 = cc.pat(x.Pat, sc)
	}
	val := cc.expr(f.ops[0], sc)
	body := cc.expr(f.arms[0], sc2)
	return func(t *thread, bp int) (value.Value, error) {
		base := t.live
		v, err := val(t, bp)
		if err != nil {
			return nil, err
		}
		held := t.live - base
		if err := bind(t, bp, v); err != nil {
			return nil, err
		}
		t.after(f.rule, base)
		r, err := body(t, bp)
		if err != nil {
			return nil, err
		}
		if f.hold {
			t.meter.release(held)
		}
		return r, nil
	}
}

// tuple compiles (a, b, …) by its form: the elements in order.
func (cc *ccomp) tuple(x *syntax.TupleLit, sc *cscope) cexpr {
	fm, _ := formOf(x)
	if len(fm.ops) == 0 {
		return func(*thread, int) (value.Value, error) { return value.Tuple(nil), nil }
	}
	els := cc.exprs(fm.ops, sc)
	return func(t *thread, bp int) (value.Value, error) {
		base := t.live
		out := make(value.Tuple, len(els))
		for i, el := range els {
			v, err := el(t, bp)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		t.after(fm.rule, base)
		return out, nil
	}
}

// record builds a record literal by its form (the fields in the order
// written) as value.NewRecord would, with the fields' order worked out
// once: the names are shared, and the record
// and its fields are one allocation.
func (cc *ccomp) record(x *syntax.RecordLit, sc *cscope) cexpr {
	fm, _ := formOf(x)
	names := make([]string, len(x.Fields))
	for i, f := range x.Fields {
		names[i] = f.Name
	}
	fs := cc.exprs(fm.ops, sc)
	sorted, order, tuple := fieldOrder(names)
	return func(t *thread, bp int) (value.Value, error) {
		base := t.live
		var r *value.Record
		var vs []value.Value
		if len(fs) <= 4 {
			rb := &struct {
				r   value.Record
				buf [4]value.Value
			}{}
			r, vs = &rb.r, rb.buf[:len(fs):len(fs)]
		} else {
			r, vs = &value.Record{}, make([]value.Value, len(fs))
		}
		for i, f := range fs {
			v, err := f(t, bp)
			if err != nil {
				return nil, err
			}
			vs[order[i]] = v
		}
		t.after(fm.rule, base)
		if tuple {
			return value.Tuple(vs), nil
		}
		r.Names, r.Fields = sorted, vs
		return r, nil
	}
}

// project compiles x.f by its form: x, then the field.
func (cc *ccomp) project(x *syntax.Project, sc *cscope) cexpr {
	fm, _ := formOf(x)
	a := cc.expr(fm.ops[0], sc)
	return func(t *thread, bp int) (value.Value, error) {
		base := t.live
		v, err := a(t, bp)
		if err != nil {
			return nil, err
		}
		if v, err = t.field(v, x.Field, x.Pos()); err != nil {
			return nil, err
		}
		t.after(fm.rule, base)
		return v, nil
	}
}
