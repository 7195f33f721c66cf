package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Compiled operator sections with an operand, (x +) and (+ x), as the
// walker makes them (eval_expr.go): the operator's value, then the
// operand's, then the function; a section costs nothing itself. The
// operator's value is opValue's (opVar): a local's, a module-level
// definition's, or the built-in operator.

func (cc *ccomp) section(x syntax.Expr, sc *cscope) cexpr {
	var q syntax.QualName
	var left bool
	var operand syntax.Expr
	switch x := x.(type) {
	case *syntax.LeftSection:
		q, left, operand = x.Op, true, x.L
	case *syntax.RightSection:
		q, operand = x.Op, x.R
	default:
		return nil
	}
	pos := x.Pos()
	opv := cc.opVar(q, pos, sc)
	a := cc.expr(operand, sc)
	return func(t *thread, bp int) (value.Value, error) {
		f, err := opv(t, bp)
		if err != nil {
			return nil, err
		}
		v, err := a(t, bp)
		if err != nil {
			return nil, err
		}
		if left {
			return mkFun(&partial{f: f.(*value.Fun).Impl.(callable), args: []value.Value{v}}), nil
		}
		return mkFun(&rightSection{f: f, r: v}), nil
	}
}
