package eval

import (
	"math"

	"fut/eval/value"
	"fut/interp/syntax"
)

// Operators in kernels: typed Go operations where the operand types are
// known, and direct reads of register and constant operands.

func (kc *kcomp) binary(x *syntax.Binary, sc *kscope, e *env) (knode, bool) {
	t := kc.t
	cost := t.cost
	l, ok1 := kc.scalar(x.L, sc, e)
	lt, lo := kc.ty, kc.opnd
	r, ok2 := kc.scalar(x.R, sc, e)
	rt, ro := kc.ty, kc.opnd
	if !ok1 || !ok2 {
		return nil, false
	}
	op, builtin := t.isBuiltinOp(x, x.Op, x.Backtick, e)
	if !builtin {
		fv, err := t.opValue(x.Op, x.Backtick, e, x.OpSpan.Start)
		if err != nil {
			return nil, false
		}
		return kc.callT(fv, []knode{l, r}, []value.PrimType{lt, rt}, x.OpSpan.Start)
	}
	pos := x.OpSpan.Start
	switch op {
	case value.OpLogAnd, value.OpLogOr:
		or := op == value.OpLogOr
		kc.ty = value.Bool
		return func(f []value.Prim) value.Prim {
			base := t.live
			a := l(f)
			if (a.B != 0) != or {
				a = r(f)
			}
			if cost {
				t.kstep(base)
			}
			return a
		}, true
	}
	if fn := typedOp(op, lt); fn != nil && lt == rt && lt != value.NoPrim {
		n := kc.fastOperands(fn, lo, ro)
		if n == nil {
			n = kc.nodeOperands(fn, l, r, lo, ro)
		}
		if n != nil {
			kc.binop(op, l, r, lt, rt, pos) // sets kc.ty
			return n, true
		}
	}
	return kc.binop(op, l, r, lt, rt, pos), true
}

// fastOperands builds a typed operator node that reads register and
// constant operands directly (they cost nothing), or nil.
func (kc *kcomp) fastOperands(fn func(a, b value.Prim) value.Prim, lo, ro operand) knode {
	t := kc.t
	cost := t.cost
	switch {
	case lo.reg >= 0 && ro.reg >= 0:
		a, b := lo.reg, ro.reg
		if !cost {
			return func(f []value.Prim) value.Prim { return fn(f[a], f[b]) }
		}
		return func(f []value.Prim) value.Prim { t.kstep(t.live); return fn(f[a], f[b]) }
	case lo.reg >= 0 && ro.isConst:
		a, c := lo.reg, ro.c
		if !cost {
			return func(f []value.Prim) value.Prim { return fn(f[a], c) }
		}
		return func(f []value.Prim) value.Prim { t.kstep(t.live); return fn(f[a], c) }
	case lo.isConst && ro.reg >= 0:
		c, b := lo.c, ro.reg
		if !cost {
			return func(f []value.Prim) value.Prim { return fn(c, f[b]) }
		}
		return func(f []value.Prim) value.Prim { t.kstep(t.live); return fn(c, f[b]) }
	}
	return nil
}

// nodeOperands is fastOperands where one or both operands are computed:
// the typed operation is applied directly, with the Composition charges.
func (kc *kcomp) nodeOperands(fn func(a, b value.Prim) value.Prim, l, r knode, lo, ro operand) knode {
	t := kc.t
	cost := t.cost
	switch {
	case ro.reg >= 0:
		b := ro.reg
		if !cost {
			return func(f []value.Prim) value.Prim { return fn(l(f), f[b]) }
		}
		return func(f []value.Prim) value.Prim {
			base := t.live
			a := l(f)
			t.kstep(base)
			return fn(a, f[b])
		}
	case ro.isConst:
		c := ro.c
		if !cost {
			return func(f []value.Prim) value.Prim { return fn(l(f), c) }
		}
		return func(f []value.Prim) value.Prim {
			base := t.live
			a := l(f)
			t.kstep(base)
			return fn(a, c)
		}
	case lo.reg >= 0:
		a := lo.reg
		if !cost {
			return func(f []value.Prim) value.Prim { return fn(f[a], r(f)) }
		}
		return func(f []value.Prim) value.Prim {
			base := t.live
			b := r(f)
			t.kstep(base)
			return fn(f[a], b)
		}
	case lo.isConst:
		c := lo.c
		if !cost {
			return func(f []value.Prim) value.Prim { return fn(c, r(f)) }
		}
		return func(f []value.Prim) value.Prim {
			base := t.live
			b := r(f)
			t.kstep(base)
			return fn(c, b)
		}
	}
	if !cost {
		return func(f []value.Prim) value.Prim { return fn(l(f), r(f)) }
	}
	return nil
}

// binop compiles a built-in operator on two compiled operands, as a
// typed Go operation when both operand types are known and equal.
func (kc *kcomp) binop(op value.BinOp, l, r knode, lt, rt value.PrimType, pos syntax.Pos) knode {
	t := kc.t
	cost := t.cost
	kc.ty = value.NoPrim
	if lt == rt && lt != value.NoPrim {
		if op.IsComparison() {
			kc.ty = value.Bool
		} else {
			kc.ty = lt
		}
		if fn := typedOp(op, lt); fn != nil {
			return func(f []value.Prim) value.Prim {
				base := t.live
				a := l(f)
				b := r(f)
				if cost {
					t.kstep(base)
				}
				return fn(a, b)
			}
		}
	}
	return func(f []value.Prim) value.Prim {
		base := t.live
		a := l(f)
		b := r(f)
		v, err := binPrim(op, a, b)
		if err != nil {
			kc.kerr(pos, "%v", err)
		}
		if cost {
			t.kstep(base)
		}
		return v
	}
}

func f64of(p value.Prim) float64 { return math.Float64frombits(p.B) }
func f32of(p value.Prim) float32 { return float32(math.Float64frombits(p.B)) }
func mkF64(x float64) value.Prim { return value.Prim{T: value.F64, B: math.Float64bits(x)} }
func mkF32(x float32) value.Prim { return value.Prim{T: value.F32, B: math.Float64bits(float64(x))} }
func mkI32(x int32) value.Prim   { return value.Prim{T: value.I32, B: uint64(int64(x))} }
func mkI64(x int64) value.Prim   { return value.Prim{T: value.I64, B: uint64(x)} }

var (
	primTrue  = value.MkBool(true)
	primFalse = value.MkBool(false)
)

func mkBool(b bool) value.Prim {
	if b {
		return primTrue
	}
	return primFalse
}

// typedOp is a Go implementation of op on operands of type ty that never
// fails, or nil.
func typedOp(op value.BinOp, ty value.PrimType) func(a, b value.Prim) value.Prim {
	switch ty {
	case value.F64:
		switch op {
		case value.OpAdd:
			return func(a, b value.Prim) value.Prim { return mkF64(f64of(a) + f64of(b)) }
		case value.OpSub:
			return func(a, b value.Prim) value.Prim { return mkF64(f64of(a) - f64of(b)) }
		case value.OpMul:
			return func(a, b value.Prim) value.Prim { return mkF64(f64of(a) * f64of(b)) }
		case value.OpDiv:
			return func(a, b value.Prim) value.Prim { return mkF64(f64of(a) / f64of(b)) }
		case value.OpLt:
			return func(a, b value.Prim) value.Prim { return mkBool(f64of(a) < f64of(b)) }
		case value.OpLe:
			return func(a, b value.Prim) value.Prim { return mkBool(f64of(a) <= f64of(b)) }
		case value.OpGt:
			return func(a, b value.Prim) value.Prim { return mkBool(f64of(a) > f64of(b)) }
		case value.OpGe:
			return func(a, b value.Prim) value.Prim { return mkBool(f64of(a) >= f64of(b)) }
		}
	case value.F32:
		switch op {
		case value.OpAdd:
			return func(a, b value.Prim) value.Prim { return mkF32(f32of(a) + f32of(b)) }
		case value.OpSub:
			return func(a, b value.Prim) value.Prim { return mkF32(f32of(a) - f32of(b)) }
		case value.OpMul:
			return func(a, b value.Prim) value.Prim { return mkF32(f32of(a) * f32of(b)) }
		case value.OpDiv:
			return func(a, b value.Prim) value.Prim { return mkF32(f32of(a) / f32of(b)) }
		case value.OpLt:
			return func(a, b value.Prim) value.Prim { return mkBool(f32of(a) < f32of(b)) }
		case value.OpLe:
			return func(a, b value.Prim) value.Prim { return mkBool(f32of(a) <= f32of(b)) }
		case value.OpGt:
			return func(a, b value.Prim) value.Prim { return mkBool(f32of(a) > f32of(b)) }
		case value.OpGe:
			return func(a, b value.Prim) value.Prim { return mkBool(f32of(a) >= f32of(b)) }
		}
	case value.I32:
		switch op {
		case value.OpAdd:
			return func(a, b value.Prim) value.Prim { return mkI32(int32(a.B) + int32(b.B)) }
		case value.OpSub:
			return func(a, b value.Prim) value.Prim { return mkI32(int32(a.B) - int32(b.B)) }
		case value.OpMul:
			return func(a, b value.Prim) value.Prim { return mkI32(int32(a.B) * int32(b.B)) }
		}
	case value.I64:
		switch op {
		case value.OpAdd:
			return func(a, b value.Prim) value.Prim { return mkI64(int64(a.B) + int64(b.B)) }
		case value.OpSub:
			return func(a, b value.Prim) value.Prim { return mkI64(int64(a.B) - int64(b.B)) }
		case value.OpMul:
			return func(a, b value.Prim) value.Prim { return mkI64(int64(a.B) * int64(b.B)) }
		}
	}
	if ty.IsInt() {
		switch op {
		case value.OpEq:
			return func(a, b value.Prim) value.Prim { return mkBool(a.B == b.B) }
		case value.OpNeq:
			return func(a, b value.Prim) value.Prim { return mkBool(a.B != b.B) }
		}
		if ty.IsSigned() {
			switch op {
			case value.OpLt:
				return func(a, b value.Prim) value.Prim { return mkBool(int64(a.B) < int64(b.B)) }
			case value.OpLe:
				return func(a, b value.Prim) value.Prim { return mkBool(int64(a.B) <= int64(b.B)) }
			case value.OpGt:
				return func(a, b value.Prim) value.Prim { return mkBool(int64(a.B) > int64(b.B)) }
			case value.OpGe:
				return func(a, b value.Prim) value.Prim { return mkBool(int64(a.B) >= int64(b.B)) }
			}
		}
	}
	return nil
}

func isBoolLit(x syntax.Expr) bool {
	_, ok := x.(*syntax.BoolLit)
	return ok
}
