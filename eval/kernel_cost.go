package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Static charges in kernels. A scalar expression made only of literals,
// registers, captured scalars and built-in operators that cannot fail
// charges the same steps every time it runs, relative to the live space
// it starts from: each literal and operator is one kstep, and the peak
// follows from the operands' fresh sizes (Composition). Such an
// expression is compiled without charges and charged once, by the sums,
// after it ran: the counters end exactly where the steps would leave
// them, since nothing inside reads them.

// scost is what a pure scalar expression charges: w steps (each of work
// and depth 1), a peak of live+peak, and a result of fresh size fresh.
type scost struct {
	w, peak, fresh int64
	ty             value.PrimType
}

// staticCost is x's scost; ok is false unless x is such an expression
// and the kernel compiles every operator in it as a typed operation.
func (kc *kcomp) staticCost(x syntax.Expr, sc *kscope, e *env) (scost, bool) {
	switch x := x.(type) {
	case *syntax.Paren:
		return kc.staticCost(x.X, sc, e)
	case *syntax.Var:
		if len(x.Name.Quals) > 0 {
			if _, local := sc.lookup(x.Name.Quals[0]); local {
				// a field of a local record: a register
				if v, _, ok := kc.varVal(x, sc, e); ok && v.scalar() && v.typ != value.NoPrim {
					return scost{ty: v.typ}, true
				}
			}
			return scost{}, false
		}
		if _, ok := sc.lookup(x.Name.Name); ok {
			ty := sc.typeOf(x.Name.Name)
			return scost{ty: ty}, ty != value.NoPrim
		}
		v, err := kc.t.evalVar(x, e)
		if p, ok := v.(value.Prim); err == nil && ok {
			return scost{ty: p.T}, true // a captured scalar: a constant
		}
		return scost{}, false
	case *syntax.IntLit, *syntax.FloatLit, *syntax.CharLit, *syntax.BoolLit, *syntax.Negate:
		if n, isNeg := x.(*syntax.Negate); isNeg && !isLiteral(n.X) {
			return scost{}, false
		}
		p, err := kc.t.literalValue(x)
		return scost{w: 1, peak: 1, fresh: 1, ty: p.T}, err == nil
	case *syntax.Apply:
		return kc.convCost(x, sc, e) // kernel_typed.go
	case *syntax.Binary:
		op, builtin := kc.t.isBuiltinOp(x, x.Op, x.Backtick, e)
		if !builtin || !cannotFail(op) {
			return scost{}, false
		}
		l, ok1 := kc.staticCost(x.L, sc, e)
		r, ok2 := kc.staticCost(x.R, sc, e)
		if !ok1 || !ok2 || l.ty != r.ty || typedOp(op, l.ty) == nil {
			return scost{}, false
		}
		if op == value.OpDiv && !l.ty.IsFloat() {
			return scost{}, false
		}
		ty := l.ty
		if op.IsComparison() {
			ty = value.Bool
		}
		return scost{w: l.w + r.w + 1, peak: max(l.peak, l.fresh+r.peak, l.fresh+r.fresh+1), fresh: 1, ty: ty}, true
	}
	return scost{}, false
}

// cannotFail lists the operators that give a value for any operands of
// their type (division only on floats, checked by the caller).
func cannotFail(op value.BinOp) bool {
	switch op {
	case value.OpAdd, value.OpSub, value.OpMul, value.OpDiv,
		value.OpEq, value.OpNeq, value.OpLt, value.OpGt, value.OpLe, value.OpGe:
		return true
	}
	return false
}

// charged compiles x, whose charges are c, without charges, and charges
// c once after it.
func (kc *kcomp) charged(x syntax.Expr, c scost, sc *kscope, e *env) (knode, bool) {
	t := kc.t
	n, ok := kc.uncharged(x, sc, e)
	if !ok || kc.ty != c.ty {
		return nil, false
	}
	kc.opnd = noOperand
	w, peak, fresh := c.w, c.peak, c.fresh
	return func(f []value.Prim) value.Prim {
		live := t.live
		v := n(f)
		t.W += w
		t.D += w
		if x := live + peak; x > t.pk1 {
			t.pk1 = x
		}
		if x := live + peak; x > t.pkP {
			t.pkP = x
		}
		t.live = live + fresh
		return v
	}, true
}

// uncharged compiles x as if costs were off.
func (kc *kcomp) uncharged(x syntax.Expr, sc *kscope, e *env) (knode, bool) {
	t := kc.t
	t.cost = false
	defer func() { t.cost = true }()
	return kc.scalar(x, sc, e)
}
