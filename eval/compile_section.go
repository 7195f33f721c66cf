package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Compiled operator sections with an operand, (x +) and (+ x), as the
// walker makes them (eval_expr.go): the operator's value, then the
// operand's, then the function; a section costs nothing itself. An
// operator whose name a local binds is left to the walker.

func (cc *ccomp) section(x syntax.Expr, sc *cscope) cexpr {
	var q syntax.QualName
	var backtick, left bool
	var operand syntax.Expr
	switch x := x.(type) {
	case *syntax.LeftSection:
		q, backtick, left, operand = x.Op, x.Backtick, true, x.L
	case *syntax.RightSection:
		q, backtick, operand = x.Op, x.Backtick, x.R
	default:
		return nil
	}
	head := q.Name
	if len(q.Quals) > 0 {
		head = q.Quals[0]
	}
	if _, local := sc.lookup(head); local {
		return nil
	}
	a := cc.expr(operand, sc)
	pos := x.Pos()
	return func(t *thread, bp int) (value.Value, error) {
		f, err := t.opValue(q, backtick, t.fenv, pos)
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
