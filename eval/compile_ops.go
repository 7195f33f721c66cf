package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Compiled operators (opValue, binop: eval_ops.go): the built-in ones on unboxed scalars along chains
// of operators (prim, primBinary), && and || short-circuiting, and the
// others applied as functions (userBinary, compile_misc.go).

// pexpr is a compiled expression whose value is returned unboxed in p
// when it is a scalar (v nil), so that an operator's operands and result
// are boxed only where a value leaves a chain of operators.
type pexpr func(t *thread, bp int) (p value.Prim, v value.Value, err error)

// prim compiles x as a pexpr.
func (cc *ccomp) prim(x syntax.Expr, sc *cscope) pexpr {
	if b, ok := unparen(x).(*syntax.Binary); ok {
		if pe := cc.primBinary(b, sc); pe != nil {
			if walkStats != nil {
				pe = walkStats.countedPrim(pe)
			}
			return pe
		}
	}
	c := cc.expr(x, sc)
	return func(t *thread, bp int) (value.Prim, value.Value, error) {
		v, err := c(t, bp)
		if err != nil {
			return value.Prim{}, nil, err
		}
		if p, ok := v.(value.Prim); ok {
			return p, nil, nil
		}
		return value.Prim{}, v, nil
	}
}

// builtinOp reports whether x applies the built-in operator op.
func (cc *ccomp) builtinOp(x *syntax.Binary, sc *cscope) (value.BinOp, bool) {
	if _, shadowed := sc.lookup(x.Op.Name); shadowed {
		cc.noteOp(x, opRes{local: true})
		return 0, false // a local operator: applied as a function
	}
	// isBuiltinOp's answer is fixed per node (scoping is lexical); with
	// no local of the operator's name, the closure's environment sees
	// what the frame's would.
	op, ok := cc.t.isBuiltinOp(x, x.Op, x.Backtick, cc.env)
	cc.noteOp(x, opRes{op: op, builtin: ok})
	return op, ok
}

func (cc *ccomp) binary(x *syntax.Binary, sc *cscope) cexpr {
	op, ok := cc.builtinOp(x, sc)
	if !ok {
		return cc.userBinary(x, sc)
	}
	if op != value.OpLogAnd && op != value.OpLogOr {
		pe := cc.primBinary(x, sc)
		return func(t *thread, bp int) (value.Value, error) {
			p, v, err := pe(t, bp)
			if err != nil {
				return nil, err
			}
			if v != nil {
				return v, nil
			}
			return p, nil
		}
	}
	return cc.logic(x, logicForm(x, op == value.OpLogAnd), sc)
}

// logic compiles && and || by their form: the left operand, a bool,
// then the arm it chooses (the right operand, or none: its own value
// stands), then the form's rule, which is late.
func (cc *ccomp) logic(x *syntax.Binary, f form, sc *cscope) cexpr {
	l := cc.expr(f.ops[0], sc)
	var arms [2]cexpr
	for i, a := range f.arms {
		if a != nil {
			arms[i] = cc.expr(a, sc)
		}
	}
	return func(t *thread, bp int) (value.Value, error) {
		base := t.live
		lv, err := l(t, bp)
		if err != nil {
			return nil, err
		}
		lp, ok := lv.(value.Prim)
		if !ok || lp.T != value.Bool {
			return nil, t.errf(x.L.Pos(), "operand of %s is not a bool", x.Op.Name)
		}
		arm := arms[1]
		if lp.B != 0 {
			arm = arms[0]
		}
		if arm == nil {
			t.after(f.rule, base)
			return lp, nil
		}
		rv, err := arm(t, bp)
		if err != nil {
			return nil, err
		}
		t.after(f.rule, base)
		return rv, nil
	}
}

// primBinary compiles a built-in operator other than && and || by its
// form (opForm): the operands, then binop, then the form's rule; nil for
// any other binary.
func (cc *ccomp) primBinary(x *syntax.Binary, sc *cscope) pexpr {
	op, ok := cc.builtinOp(x, sc)
	if !ok || op == value.OpLogAnd || op == value.OpLogOr {
		return nil
	}
	f := opForm(x)
	l, r := cc.prim(f.ops[0], sc), cc.prim(f.ops[1], sc)
	pos := x.OpSpan.Start
	return func(t *thread, bp int) (value.Prim, value.Value, error) {
		base := t.live
		lp, lv, err := l(t, bp)
		if err != nil {
			return value.Prim{}, nil, err
		}
		rp, rv, err := r(t, bp)
		if err != nil {
			return value.Prim{}, nil, err
		}
		if lv == nil && rv == nil {
			p, err := t.primOp(op, lp, rp, pos)
			if err != nil {
				return value.Prim{}, nil, err
			}
			t.after(f.rule, base)
			return p, nil, nil
		}
		if lv == nil {
			lv = lp
		}
		if rv == nil {
			rv = rp
		}
		v, err := t.binop(op, lv, rv, pos)
		if err != nil {
			return value.Prim{}, nil, err
		}
		t.after(f.rule, base)
		if p, ok := v.(value.Prim); ok {
			return p, nil, nil // a comparison of duals
		}
		return value.Prim{}, v, nil
	}
}

// opSection compiles (op): the operator's value, as opValue gives it.
func (cc *ccomp) opSection(x *syntax.OpSection, sc *cscope) cexpr {
	return cc.opVar(x.Op, x.Pos(), sc)
}
