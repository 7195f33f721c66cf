package value

import (
	"errors"
	"math"
	"math/bits"
)

// BinOp is a built-in overloaded binary operator.
type BinOp uint8

const (
	OpNone BinOp = iota
	OpAdd
	OpSub
	OpMul
	OpDiv  // /: rounds towards negative infinity on integers
	OpMod  // %: sign of the divisor on integers
	OpQuot // //: rounds towards zero
	OpRem  // %%: sign of the dividend
	OpPow
	OpEq
	OpNeq
	OpLt
	OpGt
	OpLe
	OpGe
	OpLogAnd // &&
	OpLogOr  // ||
	OpAnd    // &
	OpOr     // |
	OpXor    // ^
	OpShl    // <<
	OpShr    // >>: arithmetic on signed, logical on unsigned
	OpUShr   // >>>: logical
	OpMin    // not an operator symbol: for min/max intrinsics
	OpMax
)

var binOpNames = map[string]BinOp{
	"+": OpAdd, "-": OpSub, "*": OpMul, "/": OpDiv, "%": OpMod, "//": OpQuot, "%%": OpRem,
	"**": OpPow, "==": OpEq, "!=": OpNeq, "<": OpLt, ">": OpGt, "<=": OpLe, ">=": OpGe,
	"&&": OpLogAnd, "||": OpLogOr, "&": OpAnd, "|": OpOr, "^": OpXor, "<<": OpShl,
	">>": OpShr, ">>>": OpUShr,
}

// LookupBinOp maps an operator symbol to its built-in operator.
func LookupBinOp(name string) (BinOp, bool) {
	op, ok := binOpNames[name]
	return op, ok
}

// IsComparison reports whether op yields a bool.
func (op BinOp) IsComparison() bool { return op >= OpEq && op <= OpGe }

// ErrDivByZero is integer division by zero.
var ErrDivByZero = errors.New("division by zero")

// ErrNegExp is an integer power with a negative exponent.
var ErrNegExp = errors.New("negative exponent in integer power")

// Binary applies op to two scalars of the same type.
func Binary(op BinOp, a, b Prim) (Prim, error) {
	t := a.T
	switch {
	case t.IsFloat():
		x, y := a.Float(), b.Float()
		switch op {
		case OpAdd:
			return MkFloat(t, x+y), nil
		case OpSub:
			return MkFloat(t, x-y), nil
		case OpMul:
			return MkFloat(t, x*y), nil
		case OpDiv:
			return MkFloat(t, x/y), nil
		case OpMod:
			return MkFloat(t, fmod(x, y)), nil
		case OpRem, OpQuot:
			if op == OpRem {
				return MkFloat(t, math.Mod(x, y)), nil
			}
			return MkFloat(t, math.Trunc(x/y)), nil
		case OpPow:
			return MkFloat(t, math.Pow(x, y)), nil
		case OpMin:
			return MkFloat(t, fmin(x, y)), nil
		case OpMax:
			return MkFloat(t, fmax(x, y)), nil
		case OpEq:
			return MkBool(x == y), nil
		case OpNeq:
			return MkBool(x != y), nil
		case OpLt:
			return MkBool(x < y), nil
		case OpGt:
			return MkBool(x > y), nil
		case OpLe:
			return MkBool(x <= y), nil
		case OpGe:
			return MkBool(x >= y), nil
		}
	case t.IsSigned():
		x, y := a.Int(), b.Int()
		switch op {
		case OpAdd:
			return MkInt(t, x+y), nil
		case OpSub:
			return MkInt(t, x-y), nil
		case OpMul:
			return MkInt(t, x*y), nil
		case OpDiv, OpMod, OpQuot, OpRem:
			if y == 0 {
				return Prim{}, ErrDivByZero
			}
			if y == -1 { // avoid the trap on MinInt / -1; the results wrap
				if op == OpDiv || op == OpQuot {
					return MkInt(t, -x), nil
				}
				return MkInt(t, 0), nil
			}
			q, r := x/y, x%y
			switch op {
			case OpQuot:
				return MkInt(t, q), nil
			case OpRem:
				return MkInt(t, r), nil
			case OpDiv:
				if r != 0 && (r < 0) != (y < 0) {
					q--
				}
				return MkInt(t, q), nil
			default:
				if r != 0 && (r < 0) != (y < 0) {
					r += y
				}
				return MkInt(t, r), nil
			}
		case OpPow:
			if y < 0 {
				return Prim{}, ErrNegExp
			}
			return MkInt(t, int64(ipow(uint64(x), uint64(y)))), nil
		case OpMin:
			return MkInt(t, min(x, y)), nil
		case OpMax:
			return MkInt(t, max(x, y)), nil
		case OpShr:
			if y >= 64 || y < 0 {
				y = 63
			}
			return MkInt(t, x>>uint(y)), nil
		case OpLt:
			return MkBool(x < y), nil
		case OpGt:
			return MkBool(x > y), nil
		case OpLe:
			return MkBool(x <= y), nil
		case OpGe:
			return MkBool(x >= y), nil
		}
		return intBits(op, t, a.B, b.B)
	case t.IsUnsigned():
		x, y := a.B, b.B
		switch op {
		case OpAdd:
			return MkUint(t, x+y), nil
		case OpSub:
			return MkUint(t, x-y), nil
		case OpMul:
			return MkUint(t, x*y), nil
		case OpDiv, OpQuot:
			if y == 0 {
				return Prim{}, ErrDivByZero
			}
			return MkUint(t, x/y), nil
		case OpMod, OpRem:
			if y == 0 {
				return Prim{}, ErrDivByZero
			}
			return MkUint(t, x%y), nil
		case OpPow:
			return MkUint(t, ipow(x, y)), nil
		case OpMin:
			return MkUint(t, min(x, y)), nil
		case OpMax:
			return MkUint(t, max(x, y)), nil
		case OpShr:
			return intBits(OpUShr, t, x, y)
		case OpLt:
			return MkBool(x < y), nil
		case OpGt:
			return MkBool(x > y), nil
		case OpLe:
			return MkBool(x <= y), nil
		case OpGe:
			return MkBool(x >= y), nil
		}
		return intBits(op, t, x, y)
	case t == Bool:
		x, y := a.B != 0, b.B != 0
		switch op {
		case OpLogAnd, OpAnd, OpMin:
			return MkBool(x && y), nil
		case OpLogOr, OpOr, OpMax:
			return MkBool(x || y), nil
		case OpEq:
			return MkBool(x == y), nil
		case OpNeq, OpXor:
			return MkBool(x != y), nil
		case OpLt:
			return MkBool(!x && y), nil
		case OpGt:
			return MkBool(x && !y), nil
		case OpLe:
			return MkBool(!x || y), nil
		case OpGe:
			return MkBool(x || !y), nil
		}
	}
	return Prim{}, errors.New("operator not defined on " + t.String())
}

// intBits handles the operators whose result depends only on the bits.
func intBits(op BinOp, t PrimType, x, y uint64) (Prim, error) {
	w := uint64(t.Bits())
	switch op {
	case OpEq:
		return MkBool(x == y), nil
	case OpNeq:
		return MkBool(x != y), nil
	case OpAnd:
		return MkUint(t, x&y), nil
	case OpOr:
		return MkUint(t, x|y), nil
	case OpXor:
		return MkUint(t, x^y), nil
	case OpShl:
		if y >= w {
			return MkUint(t, 0), nil
		}
		return MkUint(t, x<<y), nil
	case OpUShr:
		if y >= w {
			return MkUint(t, 0), nil
		}
		mask := uint64(math.MaxUint64)
		if w < 64 {
			mask = 1<<w - 1
		}
		return MkUint(t, (x&mask)>>y), nil
	}
	return Prim{}, errors.New("operator not defined on " + t.String())
}

func ipow(x, y uint64) uint64 {
	r := uint64(1)
	for y > 0 {
		if y&1 == 1 {
			r *= x
		}
		x *= x
		y >>= 1
	}
	return r
}

func fmod(x, y float64) float64 {
	r := math.Mod(x, y)
	if r != 0 && (r < 0) != (y < 0) {
		r += y
	}
	return r
}

func fmin(x, y float64) float64 {
	if math.IsNaN(x) {
		return y
	}
	if math.IsNaN(y) {
		return x
	}
	return math.Min(x, y)
}

func fmax(x, y float64) float64 {
	if math.IsNaN(x) {
		return y
	}
	if math.IsNaN(y) {
		return x
	}
	return math.Max(x, y)
}

// Neg is unary minus.
func Neg(a Prim) Prim {
	switch {
	case a.T.IsFloat():
		return MkFloat(a.T, -a.Float())
	case a.T == Bool:
		return a
	}
	return MkUint(a.T, -a.B)
}

// Not is ! : logical not on bool, complement on integers.
func Not(a Prim) Prim {
	if a.T == Bool {
		return MkBool(a.B == 0)
	}
	return MkUint(a.T, ^a.B)
}

// Convert converts p to type t as Futhark's conversion functions do:
// integers are sign- or zero-extended by their source type and wrapped,
// floats are truncated towards zero when converted to integers.
func Convert(p Prim, t PrimType) Prim {
	from := p.T
	switch {
	case from == t:
		return p
	case t == Bool:
		if from.IsFloat() {
			return MkBool(p.Float() != 0)
		}
		return MkBool(p.B != 0)
	case t.IsFloat():
		switch {
		case from.IsFloat():
			return MkFloat(t, p.Float())
		case from.IsUnsigned():
			return MkFloat(t, float64(p.B))
		case from == Bool:
			return MkFloat(t, float64(p.B))
		}
		return MkFloat(t, float64(int64(p.B)))
	}
	// t is an integer type
	if from.IsFloat() {
		f := math.Trunc(p.Float())
		switch {
		case math.IsNaN(f) || math.IsInf(f, 0):
			return MkInt(t, 0)
		case t.IsUnsigned() && f >= 0:
			if f >= 1<<64 {
				return MkUint(t, math.MaxUint64)
			}
			return MkUint(t, uint64(f))
		case f >= 1<<63:
			return MkInt(t, math.MaxInt64)
		case f < -(1 << 63):
			return MkInt(t, math.MinInt64)
		}
		return MkInt(t, int64(f))
	}
	// integer to integer: sign extension only from signed to signed
	b := p.B
	if !(from.IsSigned() && t.IsSigned()) && from != Bool && from.Bits() < 64 {
		b &= 1<<uint(from.Bits()) - 1
	}
	return MkUint(t, b)
}

// BitsOf returns the raw bits of p at its width (for float-to-bits casts).
func BitsOf(p Prim) uint64 {
	switch p.T {
	case F64:
		return p.B
	case F32:
		return uint64(math.Float32bits(float32(p.Float())))
	case F16:
		return uint64(F16Bits(p.Float()))
	}
	w := p.T.Bits()
	if w == 64 {
		return p.B
	}
	return p.B & (1<<uint(w) - 1)
}

// FromBits builds a value of type t from raw bits of t's width.
func FromBits(t PrimType, b uint64) Prim {
	switch t {
	case F64:
		return Prim{F64, b}
	case F32:
		return F32Val(math.Float32frombits(uint32(b)))
	case F16:
		return Prim{F16, math.Float64bits(F16FromBits(uint16(b)))}
	}
	return MkUint(t, b)
}

// Popc, Clz, Ctz count bits at p's width.
func Popc(p Prim) int { return bits.OnesCount64(BitsOf(p)) }

func Clz(p Prim) int {
	return bits.LeadingZeros64(BitsOf(p)) - (64 - p.T.Bits())
}

func Ctz(p Prim) int {
	w := p.T.Bits()
	b := BitsOf(p)
	if b == 0 {
		return w
	}
	return bits.TrailingZeros64(b)
}

// MulHi is the upper half of the full product of two integers of type t.
func MulHi(a, b Prim) Prim {
	t := a.T
	w := uint(t.Bits())
	if t.IsSigned() {
		if w == 64 {
			hi, _ := bits.Mul64(a.B, b.B)
			// signed correction
			if a.Int() < 0 {
				hi -= b.B
			}
			if b.Int() < 0 {
				hi -= a.B
			}
			return MkUint(t, hi)
		}
		return MkInt(t, (a.Int()*b.Int())>>w)
	}
	if w == 64 {
		hi, _ := bits.Mul64(a.B, b.B)
		return MkUint(t, hi)
	}
	return MkUint(t, (a.B*b.B)>>w)
}
