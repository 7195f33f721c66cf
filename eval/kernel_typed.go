package eval

//go:generate go run gen_typed.go

import (
	"math"
	"strings"

	"fut/eval/value"
	"fut/interp/syntax"
)

// Typed scalar expressions in kernels. A pure scalar expression (one
// that staticCost accepts: literals, registers, captured scalars,
// operators that cannot fail, on operands of one known type, and the
// conversions at the end of this file) is compiled into closures that
// return Go's own float32, float64, int32, int64 or bool, so that a
// value is boxed into a value.Prim only where it leaves the expression,
// not between each operator and the next. Registers,
// constants and simple products (x*y, 2*x) are read by the operator that
// uses them: gen_typed.go writes a closure for each operator and each
// way of reading its two operands (kernel_typed_float.go, …_int.go, and
// their _box variants, which box the result).
//
// Such an expression charges nothing itself: it runs where costs are off
// or under charged (kernel_cost.go), which charges its static cost once.
// The values are those of typedOp's closures: an f32 held as a float32
// between operators is the value mkF32 and f32of would give after each.

// tnode is a typed expression.
type tnode[T any] func(f []value.Prim) T

// topnd is an operand of a typed operator: a register (reg ≥ 0), a
// constant (isC), a node, or (floats only) the product of two registers
// reg and reg2 or of the constant c and the register reg, the commonest
// operands that are operations (x*x - y*y, 2*x*y).
type topnd[T any] struct {
	reg, reg2 int
	isC       bool
	c         T
	n         tnode[T]
}

func (o topnd[T]) kind() int {
	switch {
	case o.reg2 >= 0:
		return 3
	case o.reg >= 0 && o.isC:
		return 4
	case o.reg >= 0:
		return 0
	case o.isC:
		return 1
	}
	return 2
}

func nodeOpnd[T any](n tnode[T]) (topnd[T], bool) { return topnd[T]{reg: -1, reg2: -1, n: n}, n != nil }

func leafOpnd[T any](reg int, isC bool, c T) topnd[T] {
	if isC {
		reg = -1
	}
	return topnd[T]{reg: reg, reg2: -1, isC: isC, c: c}
}

// typedScalar compiles x as a typed expression boxed at its root when x
// is an operator of such an expression and costs are off; ok is false
// otherwise (the caller compiles x as before).
func (kc *kcomp) typedScalar(x syntax.Expr, sc *kscope, e *env) (knode, value.PrimType, bool) {
	if kc.t.cost {
		return nil, value.NoPrim, false
	}
	if a, ok := unparen(x).(*syntax.Apply); ok {
		return kc.convRoot(a, sc, e)
	}
	b, ok := unparen(x).(*syntax.Binary)
	if !ok {
		return nil, value.NoPrim, false
	}
	if op, builtin := kc.t.isBuiltinOp(b, b.Op, b.Backtick, e); builtin && (op == value.OpLogAnd || op == value.OpLogOr) {
		n, ok := kc.boolNode(b, sc, e)
		if !ok {
			return nil, value.NoPrim, false
		}
		return func(f []value.Prim) value.Prim { return mkBool(n(f)) }, value.Bool, true
	}
	c, ok := kc.staticCost(b, sc, e)
	if !ok {
		return nil, value.NoPrim, false
	}
	op, _ := kc.t.isBuiltinOp(b, b.Op, b.Backtick, e)
	lt, _ := kc.staticCost(b.L, sc, e)
	var n knode
	switch lt.ty {
	case value.F32:
		n = floatRoot[float32](kc, op, lt.ty, b, sc, e)
	case value.F64:
		n = floatRoot[float64](kc, op, lt.ty, b, sc, e)
	case value.I32:
		n = intRoot[int32](kc, op, lt.ty, b, sc, e)
	case value.I64:
		n = intRoot[int64](kc, op, lt.ty, b, sc, e)
	}
	return n, c.ty, n != nil
}

func floatRoot[T float32 | float64](kc *kcomp, op value.BinOp, ty value.PrimType, b *syntax.Binary, sc *kscope, e *env) knode {
	l, ok1 := floatOperand[T](kc, b.L, sc, e)
	r, ok2 := floatOperand[T](kc, b.R, sc, e)
	if !ok1 || !ok2 {
		return nil
	}
	if op.IsComparison() {
		return floatCmpBox(op, ty, l, r)
	}
	return floatArithBox(op, ty, l, r)
}

func intRoot[T int32 | int64](kc *kcomp, op value.BinOp, ty value.PrimType, b *syntax.Binary, sc *kscope, e *env) knode {
	l, ok1 := intOperand[T](kc, b.L, sc, e)
	r, ok2 := intOperand[T](kc, b.R, sc, e)
	if !ok1 || !ok2 {
		return nil
	}
	if op.IsComparison() {
		return intCmpBox(op, ty, l, r)
	}
	return intArithBox(op, ty, l, r)
}

// leaf is x's register or constant when it is one.
func (kc *kcomp) leaf(x syntax.Expr, sc *kscope, e *env) (reg int, c value.Prim, isC, ok bool) {
	switch x := x.(type) {
	case *syntax.Var:
		if len(x.Name.Quals) == 0 {
			if r, local := sc.lookup(x.Name.Name); local {
				return r, c, false, r >= 0
			}
		} else if _, local := sc.lookup(x.Name.Quals[0]); local {
			v, _, ok := kc.varVal(x, sc, e)
			if !ok || !v.scalar() {
				return 0, c, false, false
			}
			return v.reg, c, false, true
		}
		v, err := kc.t.evalVar(x, e)
		p, isPrim := v.(value.Prim)
		return -1, p, true, err == nil && isPrim
	case *syntax.IntLit, *syntax.FloatLit, *syntax.CharLit, *syntax.BoolLit, *syntax.Negate:
		p, err := kc.t.literalValue(x)
		return -1, p, true, err == nil
	}
	return 0, c, false, false
}

// floatOperand compiles x, of float type T, as an operand.
func floatOperand[T float32 | float64](kc *kcomp, x syntax.Expr, sc *kscope, e *env) (topnd[T], bool) {
	x = unparen(x)
	if b, ok := x.(*syntax.Binary); ok {
		op, builtin := kc.t.isBuiltinOp(b, b.Op, b.Backtick, e)
		if !builtin || op.IsComparison() {
			return topnd[T]{}, false
		}
		l, ok1 := floatOperand[T](kc, b.L, sc, e)
		r, ok2 := floatOperand[T](kc, b.R, sc, e)
		if !ok1 || !ok2 {
			return topnd[T]{}, false
		}
		if op == value.OpMul && r.kind() == 0 {
			switch l.kind() {
			case 0:
				return topnd[T]{reg: l.reg, reg2: r.reg}, true
			case 1:
				return topnd[T]{reg: r.reg, reg2: -1, isC: true, c: l.c}, true
			}
		}
		return nodeOpnd(floatArith(op, l, r))
	}
	if a, ok := x.(*syntax.Apply); ok {
		return toFloat[T](kc, a, sc, e)
	}
	reg, c, isC, ok := kc.leaf(x, sc, e)
	if !ok {
		return topnd[T]{}, false
	}
	return leafOpnd(reg, isC, T(math.Float64frombits(c.B))), true
}

// intOperand compiles x, of integer type T, as an operand.
func intOperand[T int32 | int64](kc *kcomp, x syntax.Expr, sc *kscope, e *env) (topnd[T], bool) {
	x = unparen(x)
	if b, ok := x.(*syntax.Binary); ok {
		op, builtin := kc.t.isBuiltinOp(b, b.Op, b.Backtick, e)
		if !builtin || op.IsComparison() {
			return topnd[T]{}, false
		}
		l, ok1 := intOperand[T](kc, b.L, sc, e)
		r, ok2 := intOperand[T](kc, b.R, sc, e)
		if !ok1 || !ok2 {
			return topnd[T]{}, false
		}
		return nodeOpnd(intArith(op, l, r))
	}
	if a, ok := x.(*syntax.Apply); ok {
		return toInt[T](kc, a, sc, e)
	}
	reg, c, isC, ok := kc.leaf(x, sc, e)
	if !ok {
		return topnd[T]{}, false
	}
	return leafOpnd(reg, isC, T(int64(c.B))), true
}

// boolNode compiles a condition made of comparisons of pure scalar
// expressions joined by && and ||, with costs off; ok is false for any
// other expression.
func (kc *kcomp) boolNode(x syntax.Expr, sc *kscope, e *env) (tnode[bool], bool) {
	if kc.t.cost {
		return nil, false
	}
	b, ok := unparen(x).(*syntax.Binary)
	if !ok {
		return nil, false
	}
	op, builtin := kc.t.isBuiltinOp(b, b.Op, b.Backtick, e)
	if !builtin {
		return nil, false
	}
	if op == value.OpLogAnd || op == value.OpLogOr {
		l, ok1 := kc.boolNode(b.L, sc, e)
		r, ok2 := kc.boolNode(b.R, sc, e)
		if !ok1 || !ok2 {
			return nil, false
		}
		if op == value.OpLogAnd {
			return func(f []value.Prim) bool { return l(f) && r(f) }, true
		}
		return func(f []value.Prim) bool { return l(f) || r(f) }, true
	}
	if !op.IsComparison() {
		return nil, false
	}
	if _, ok := kc.staticCost(b, sc, e); !ok {
		return nil, false
	}
	lt, _ := kc.staticCost(b.L, sc, e)
	var n tnode[bool]
	switch lt.ty {
	case value.F32:
		n = floatCmpNode[float32](kc, op, b, sc, e)
	case value.F64:
		n = floatCmpNode[float64](kc, op, b, sc, e)
	case value.I32:
		n = intCmpNode[int32](kc, op, b, sc, e)
	case value.I64:
		n = intCmpNode[int64](kc, op, b, sc, e)
	}
	return n, n != nil
}

func floatCmpNode[T float32 | float64](kc *kcomp, op value.BinOp, b *syntax.Binary, sc *kscope, e *env) tnode[bool] {
	l, ok1 := floatOperand[T](kc, b.L, sc, e)
	r, ok2 := floatOperand[T](kc, b.R, sc, e)
	if !ok1 || !ok2 {
		return nil
	}
	return floatCmp(op, l, r)
}

func intCmpNode[T int32 | int64](kc *kcomp, op value.BinOp, b *syntax.Binary, sc *kscope, e *env) tnode[bool] {
	l, ok1 := intOperand[T](kc, b.L, sc, e)
	r, ok2 := intOperand[T](kc, b.R, sc, e)
	if !ok1 || !ok2 {
		return nil
	}
	return intCmp(op, l, r)
}

// Conversions (f32.i64 x, i64.i32 x, …: the intrinsics to_t) of a pure
// expression are pure too: a scalar intrinsic's step after its argument,
// and value.Convert never fails. The typed ones are those whose Go
// conversion gives what value.Convert gives: from a signed integer or a
// float to a float (through float64, as Convert goes), and between i32
// and i64.

// conversion returns the type that x converts its one argument to, when
// x applies a conversion intrinsic, or a function whose body applies one
// to its parameter (the prelude's f32.i64): the call is free and its
// argument stays live while the body runs (callT), so that the charges
// are the intrinsic's.
func (kc *kcomp) conversion(x *syntax.Apply, sc *kscope, e *env) (value.PrimType, bool) {
	if len(x.Args) != 1 {
		return value.NoPrim, false
	}
	fv, ok := kc.fnValue(x.Fn, sc, e)
	if !ok {
		return value.NoPrim, false
	}
	fn, ok := fv.(*value.Fun)
	if !ok {
		return value.NoPrim, false
	}
	if c, ok := fn.Impl.(*closure); ok {
		if len(c.params) != 1 || len(c.sizeParams) > 0 || kc.depth > 16 {
			return value.NoPrim, false
		}
		name, ok := simplePat(c.params[0])
		body, isApply := unparen(c.body).(*syntax.Apply)
		if !ok || name == "" || !isApply || len(body.Args) != 1 {
			return value.NoPrim, false
		}
		if v, ok := unparen(body.Args[0]).(*syntax.Var); !ok || len(v.Name.Quals) > 0 || v.Name.Name != name {
			return value.NoPrim, false
		}
		kc.depth++
		defer func() { kc.depth-- }()
		return kc.conversion(body, &kscope{name: name, reg: -1}, c.env)
	}
	in, ok := fn.Impl.(*intrinsic)
	if !ok || in.arity_ != 1 || !strings.HasPrefix(in.name, "to_") {
		return value.NoPrim, false
	}
	if sf, ok := scalarTable[in.name]; !ok || sf.arity != 1 {
		return value.NoPrim, false
	}
	to := value.ParsePrimType(in.name[3:])
	return to, to != value.NoPrim
}

// convCost is staticCost for a conversion of a typed conversion's kind.
func (kc *kcomp) convCost(x *syntax.Apply, sc *kscope, e *env) (scost, bool) {
	to, ok := kc.conversion(x, sc, e)
	if !ok {
		return scost{}, false
	}
	a, ok := kc.staticCost(x.Args[0], sc, e)
	if !ok || !typedConversion(a.ty, to) {
		return scost{}, false
	}
	return scost{w: a.w + 1, peak: max(a.peak, a.fresh+1), fresh: 1, ty: to}, true
}

func typedConversion(from, to value.PrimType) bool {
	switch to {
	case value.F32, value.F64:
		return from == value.F32 || from == value.F64 || from == value.I32 || from == value.I64
	case value.I32, value.I64:
		return from == value.I32 || from == value.I64
	}
	return false
}

// convRoot is typedScalar for a conversion.
func (kc *kcomp) convRoot(x *syntax.Apply, sc *kscope, e *env) (knode, value.PrimType, bool) {
	c, ok := kc.convCost(x, sc, e)
	if !ok {
		return nil, value.NoPrim, false
	}
	ty := c.ty
	switch ty {
	case value.F32:
		if o, ok := toFloat[float32](kc, x, sc, e); ok {
			n := asNode(o, floatRead[float32])
			return func(f []value.Prim) value.Prim { return value.Prim{T: ty, B: math.Float64bits(float64(n(f)))} }, ty, true
		}
	case value.F64:
		if o, ok := toFloat[float64](kc, x, sc, e); ok {
			n := asNode(o, floatRead[float64])
			return func(f []value.Prim) value.Prim { return value.Prim{T: ty, B: math.Float64bits(n(f))} }, ty, true
		}
	case value.I32:
		if o, ok := toInt[int32](kc, x, sc, e); ok {
			n := asNode(o, intRead[int32])
			return func(f []value.Prim) value.Prim { return value.Prim{T: ty, B: uint64(int64(n(f)))} }, ty, true
		}
	case value.I64:
		if o, ok := toInt[int64](kc, x, sc, e); ok {
			n := asNode(o, intRead[int64])
			return func(f []value.Prim) value.Prim { return value.Prim{T: ty, B: uint64(n(f))} }, ty, true
		}
	}
	return nil, value.NoPrim, false
}

func floatRead[T float32 | float64](p value.Prim) T { return T(math.Float64frombits(p.B)) }
func intRead[T int32 | int64](p value.Prim) T       { return T(int64(p.B)) }

// asNode is o as a node, whatever its kind.
func asNode[T float32 | float64 | int32 | int64](o topnd[T], read func(value.Prim) T) tnode[T] {
	a, b, c := o.reg, o.reg2, o.c
	switch o.kind() {
	case 0:
		return func(f []value.Prim) T { return read(f[a]) }
	case 1:
		return func([]value.Prim) T { return c }
	case 3:
		return func(f []value.Prim) T { return T(read(f[a]) * read(f[b])) }
	case 4:
		return func(f []value.Prim) T { return T(c * read(f[a])) }
	}
	return o.n
}

// toFloat compiles a conversion to the float type T: a constant is
// converted now, a register read and converted by one closure.
func toFloat[T float32 | float64](kc *kcomp, x *syntax.Apply, sc *kscope, e *env) (topnd[T], bool) {
	if _, ok := kc.convCost(x, sc, e); !ok {
		return topnd[T]{}, false
	}
	arg := x.Args[0]
	from, _ := kc.staticCost(arg, sc, e)
	switch from.ty {
	case value.F32:
		o, ok := floatOperand[float32](kc, arg, sc, e)
		if !ok {
			break
		}
		a, n := o.reg, asNode(o, floatRead[float32])
		switch o.kind() {
		case 0:
			return nodeOpnd(func(f []value.Prim) T { return T(float32(math.Float64frombits(f[a].B))) })
		case 1:
			return leafOpnd(-1, true, T(o.c)), true
		}
		return nodeOpnd(func(f []value.Prim) T { return T(n(f)) })
	case value.F64:
		o, ok := floatOperand[float64](kc, arg, sc, e)
		if !ok {
			break
		}
		a, n := o.reg, asNode(o, floatRead[float64])
		switch o.kind() {
		case 0:
			return nodeOpnd(func(f []value.Prim) T { return T(math.Float64frombits(f[a].B)) })
		case 1:
			return leafOpnd(-1, true, T(o.c)), true
		}
		return nodeOpnd(func(f []value.Prim) T { return T(n(f)) })
	case value.I32:
		o, ok := intOperand[int32](kc, arg, sc, e)
		if !ok {
			break
		}
		a, n := o.reg, asNode(o, intRead[int32])
		switch o.kind() {
		case 0:
			return nodeOpnd(func(f []value.Prim) T { return T(float64(int32(f[a].B))) })
		case 1:
			return leafOpnd(-1, true, T(float64(o.c))), true
		}
		return nodeOpnd(func(f []value.Prim) T { return T(float64(n(f))) })
	case value.I64:
		o, ok := intOperand[int64](kc, arg, sc, e)
		if !ok {
			break
		}
		a, n := o.reg, asNode(o, intRead[int64])
		switch o.kind() {
		case 0:
			return nodeOpnd(func(f []value.Prim) T { return T(float64(int64(f[a].B))) })
		case 1:
			return leafOpnd(-1, true, T(float64(o.c))), true
		}
		return nodeOpnd(func(f []value.Prim) T { return T(float64(n(f))) })
	}
	return topnd[T]{}, false
}

// toInt compiles a conversion to the integer type T, as toFloat.
func toInt[T int32 | int64](kc *kcomp, x *syntax.Apply, sc *kscope, e *env) (topnd[T], bool) {
	if _, ok := kc.convCost(x, sc, e); !ok {
		return topnd[T]{}, false
	}
	arg := x.Args[0]
	from, _ := kc.staticCost(arg, sc, e)
	switch from.ty {
	case value.I32:
		o, ok := intOperand[int32](kc, arg, sc, e)
		if !ok {
			break
		}
		a, n := o.reg, asNode(o, intRead[int32])
		switch o.kind() {
		case 0:
			return nodeOpnd(func(f []value.Prim) T { return T(int32(f[a].B)) })
		case 1:
			return leafOpnd(-1, true, T(o.c)), true
		}
		return nodeOpnd(func(f []value.Prim) T { return T(n(f)) })
	case value.I64:
		o, ok := intOperand[int64](kc, arg, sc, e)
		if !ok {
			break
		}
		a, n := o.reg, asNode(o, intRead[int64])
		switch o.kind() {
		case 0:
			return nodeOpnd(func(f []value.Prim) T { return T(int64(f[a].B)) })
		case 1:
			return leafOpnd(-1, true, T(o.c)), true
		}
		return nodeOpnd(func(f []value.Prim) T { return T(n(f)) })
	}
	return topnd[T]{}, false
}
