package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Compiled operator sections with an operand, (x +) and (+ x): the operator's value, then the
// operand's, then the function; a section costs nothing itself. The
// operator's value is opValue's (opVar): a local's, a module-level
// definition's, or the built-in operator.

// section compiles (operand q) where left, else (q operand); pos is
// the section's.
func (cc *ccomp) section(q syntax.QualName, left bool, operand syntax.Expr, pos syntax.Pos, sc *cscope) cexpr {
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
