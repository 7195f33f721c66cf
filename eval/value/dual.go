package value

import (
	"math"
	"sync/atomic"
)

// Dual is a number carrying a tangent, for forward-mode automatic
// differentiation (jvp): P is the primal value, T its derivative along
// the direction of the jvp that made it, which Tag names (NewTag).
//
// jvps nest (a jvp inside the function of another, as in the derivative
// of a derivative): each has its own tag, the inner one's larger, and P
// and T are Prims or Duals of smaller tags only. An operation on duals of
// different tags treats the one of the larger tag as the outer layer and
// the other as a constant of that layer, so the perturbations of two
// jvps are never confused (Siskind and Pearlmutter's perturbation
// confusion: d/dx (x · d/dy (x·y)) is 1, not 2). P and T have the same
// number type. Duals appear only while the evaluator runs a jvp; arrays
// of them are boxed.
type Dual struct {
	P, T Value
	Tag  uint64
}

func (Dual) isValue() {}

var lastTag atomic.Uint64

// NewTag names a new jvp (larger than every tag before it).
func NewTag() uint64 { return lastTag.Add(1) }

// Primal returns the primal number of a scalar (itself for a Prim; the
// innermost primal of nested duals).
func Primal(v Value) (Prim, bool) {
	for {
		switch x := v.(type) {
		case Prim:
			return x, true
		case Dual:
			v = x.P
		default:
			return Prim{}, false
		}
	}
}

// TagOf is the tag of a dual, 0 for anything else.
func TagOf(v Value) uint64 {
	if d, ok := v.(Dual); ok {
		return d.Tag
	}
	return 0
}

// Parts splits a scalar into its primal and tangent with respect to the
// jvp tag: a dual of another tag, or a plain number, is a constant there
// (tangent 0).
func Parts(v Value, tag uint64) (Value, Value) {
	if d, ok := v.(Dual); ok && d.Tag == tag {
		return d.P, d.T
	}
	p, _ := Primal(v)
	return v, zeroOf(p.T)
}

func zeroOf(t PrimType) Prim {
	switch {
	case t == Bool:
		return MkBool(false)
	case t.IsFloat():
		return MkFloat(t, 0)
	}
	return MkInt(t, 0)
}

// isZero reports whether v is a plain number equal to 0.
func isZero(v Value) bool {
	p, ok := v.(Prim)
	if !ok {
		return false
	}
	if p.T.IsFloat() {
		return p.Float() == 0
	}
	return p.T != Bool && p.Int() == 0
}

// Differentiable reports whether scalars of type t carry tangents (all
// numbers do; Futhark differentiates integer code too).
func (t PrimType) Differentiable() bool { return t != Bool && t != NoPrim }

// mkDual is the dual of the tag with primal p and tangent t.
func mkDual(tag uint64, p, t Value) Value { return Dual{P: p, T: t, Tag: tag} }

// arithmetic on numbers that may be duals (errors, which only integer
// division by zero gives, become 0: a tangent of an undefined quotient)
func add(a, b Value) Value { return arith(OpAdd, a, b) }
func sub(a, b Value) Value { return arith(OpSub, a, b) }
func mul(a, b Value) Value { return arith(OpMul, a, b) }
func div(a, b Value) Value { return arith(OpDiv, a, b) }

func arith(op BinOp, a, b Value) Value {
	v, err := DualBinary(op, a, b)
	if err != nil {
		p, _ := Primal(a)
		return zeroOf(p.T)
	}
	return v
}

// cst is the number x in the type of v.
func cst(v Value, x float64) Value {
	p, _ := Primal(v)
	if p.T.IsFloat() {
		return MkFloat(p.T, x)
	}
	return MkInt(p.T, int64(x))
}

// math1 applies a one-argument float function to a number or a dual.
func dmath1(name string, v Value) Value {
	if p, ok := v.(Prim); ok {
		r, _ := Math1(name, p)
		return r
	}
	r, _ := DualMath1(name, v)
	return r
}

// DualNeg is −v for a number or a dual.
func DualNeg(v Value) Value {
	if d, ok := v.(Dual); ok {
		return Dual{P: DualNeg(d.P), T: DualNeg(d.T), Tag: d.Tag}
	}
	return Neg(v.(Prim))
}

// DualConvert converts a number or a dual to the type t: a dual to a
// number type stays one, its tangent converted (also where a float
// becomes an integer, as Futhark differentiates a conversion); to bool,
// the primal is converted.
func DualConvert(v Value, t PrimType) Value {
	d, ok := v.(Dual)
	if !ok {
		p, _ := Primal(v)
		return Convert(p, t)
	}
	if !t.Differentiable() {
		p, _ := Primal(v)
		return Convert(p, t)
	}
	return Dual{P: DualConvert(d.P, t), T: DualConvert(d.T, t), Tag: d.Tag}
}

// DualBinary applies op to scalars any of which may be duals. The
// tangent is computed in the operands' own type.
func DualBinary(op BinOp, a, b Value) (Value, error) {
	tag := max(TagOf(a), TagOf(b))
	if tag == 0 {
		pa, ok1 := a.(Prim)
		pb, ok2 := b.(Prim)
		if !ok1 || !ok2 {
			pa, _ = Primal(a)
			pb, _ = Primal(b)
		}
		return Binary(op, pa, pb)
	}
	pa, dx := Parts(a, tag)
	pb, dy := Parts(b, tag)
	r, err := DualBinary(op, pa, pb)
	if err != nil {
		return nil, err
	}
	rp, _ := Primal(r)
	if !rp.T.Differentiable() || op.IsComparison() {
		return r, nil
	}
	var d Value
	switch op {
	case OpAdd:
		d = add(dx, dy)
	case OpSub:
		d = sub(dx, dy)
	case OpMul:
		d = add(mul(dx, pb), mul(pa, dy))
	case OpDiv, OpQuot:
		num := sub(mul(dx, pb), mul(pa, dy))
		d = arith(op, num, mul(pb, pb))
	case OpPow:
		xp, _ := Primal(pa)
		yp, _ := Primal(pb)
		if rp.T.IsFloat() {
			d = cst(r, 0)
			if yp.Float() != 0 && !isZero(dx) {
				d = mul(mul(pb, arith(OpPow, pa, sub(pb, cst(pb, 1)))), dx)
			}
			if !isZero(dy) && xp.Float() != 0 {
				d = add(d, mul(mul(r, dmath1("log", pa)), dy))
			}
		} else if yp.Int() >= 1 {
			d = mul(mul(pb, arith(OpPow, pa, sub(pb, cst(pb, 1)))), dx)
		} else {
			d = zeroOf(rp.T)
		}
	case OpMin, OpMax:
		xp, _ := Primal(pa)
		if Identical(rp, xp) {
			d = dx
		} else {
			d = dy
		}
	case OpMod, OpRem:
		d = dx
	default:
		d = zeroOf(rp.T)
	}
	return mkDual(tag, r, d), nil
}

// DualMath1 applies a one-argument float function to a dual (or a
// number).
func DualMath1(name string, v Value) (Value, bool) {
	a, ok := v.(Dual)
	if !ok {
		p, isP := v.(Prim)
		if !isP {
			return nil, false
		}
		return Math1(name, p)
	}
	x, dx := a.P, a.T
	var r Value
	if xp, isP := x.(Prim); isP {
		p, ok := Math1(name, xp)
		if !ok {
			return nil, false
		}
		r = p
	} else if r, ok = DualMath1(name, x); !ok {
		return nil, false
	}
	c := func(f float64) Value { return cst(x, f) }
	sq := func(y Value) Value { return mul(y, y) }
	xf, _ := Primal(x)
	var d Value
	switch name {
	case "sqrt":
		d = div(dx, mul(c(2), r))
	case "rsqrt":
		d = DualNeg(div(dx, mul(mul(c(2), x), dmath1("sqrt", x))))
	case "cbrt":
		d = div(dx, mul(c(3), sq(r)))
	case "exp", "expm1":
		d = mul(dx, dmath1("exp", x))
	case "exp2":
		d = mul(mul(dx, dmath1("exp2", x)), c(math.Ln2))
	case "exp10":
		d = mul(mul(dx, arith(OpPow, c(10), x)), c(math.Ln10))
	case "log":
		d = div(dx, x)
	case "log2":
		d = div(dx, mul(x, c(math.Ln2)))
	case "log10":
		d = div(dx, mul(x, c(math.Ln10)))
	case "log1p":
		d = div(dx, add(c(1), x))
	case "sin":
		d = mul(dx, dmath1("cos", x))
	case "cos":
		d = DualNeg(mul(dx, dmath1("sin", x)))
	case "tan":
		d = div(dx, sq(dmath1("cos", x)))
	case "asin":
		d = div(dx, dmath1("sqrt", sub(c(1), sq(x))))
	case "acos":
		d = DualNeg(div(dx, dmath1("sqrt", sub(c(1), sq(x)))))
	case "atan":
		d = div(dx, add(c(1), sq(x)))
	case "sinh":
		d = mul(dx, dmath1("cosh", x))
	case "cosh":
		d = mul(dx, dmath1("sinh", x))
	case "tanh":
		d = div(dx, sq(dmath1("cosh", x)))
	case "asinh":
		d = div(dx, dmath1("sqrt", add(sq(x), c(1))))
	case "acosh":
		d = div(dx, dmath1("sqrt", sub(sq(x), c(1))))
	case "atanh":
		d = div(dx, sub(c(1), sq(x)))
	case "erf":
		d = mul(mul(dx, c(2/math.Sqrt(math.Pi))), dmath1("exp", DualNeg(sq(x))))
	case "erfc":
		d = DualNeg(mul(mul(dx, c(2/math.Sqrt(math.Pi))), dmath1("exp", DualNeg(sq(x)))))
	case "fabs":
		d = dx
		if xf.Float() < 0 {
			d = DualNeg(dx)
		}
	case "sinpi":
		d = mul(mul(dx, c(math.Pi)), dmath1("cospi", x))
	case "cospi":
		d = DualNeg(mul(mul(dx, c(math.Pi)), dmath1("sinpi", x)))
	case "lgamma":
		// the digamma function of the primal: a derivative of this
		// derivative (nested jvp) treats it as a constant
		d = mul(dx, c(digamma(xf.Float())))
	case "gamma":
		d = mul(mul(dx, r), c(digamma(xf.Float())))
	default: // round, floor, ceil, trunc: piecewise constant
		d = cst(x, 0)
	}
	return mkDual(a.Tag, r, d), true
}

// DualMath2 applies a two-argument float function to scalars (any of
// them may be duals).
func DualMath2(name string, a, b Value) (Value, bool) {
	tag := max(TagOf(a), TagOf(b))
	if tag == 0 {
		pa, _ := Primal(a)
		pb, _ := Primal(b)
		return Math2(name, pa, pb)
	}
	x, dx := Parts(a, tag)
	y, dy := Parts(b, tag)
	r, ok := DualMath2(name, x, y)
	if !ok {
		return nil, false
	}
	xf, _ := Primal(x)
	yf, _ := Primal(y)
	rf, _ := Primal(r)
	sq := func(v Value) Value { return mul(v, v) }
	var d Value
	switch name {
	case "atan2":
		d = div(sub(mul(dx, y), mul(x, dy)), add(sq(x), sq(y)))
	case "atan2pi":
		d = div(div(sub(mul(dx, y), mul(x, dy)), add(sq(x), sq(y))), cst(x, math.Pi))
	case "hypot":
		d = div(add(mul(x, dx), mul(y, dy)), r)
	case "pow":
		d = mul(mul(y, dmath2("pow", x, sub(y, cst(y, 1)))), dx)
		if !isZero(dy) {
			d = add(d, mul(mul(r, dmath1("log", x)), dy))
		}
	case "copysign":
		d = dx
		if math.Signbit(xf.Float()) != math.Signbit(yf.Float()) {
			d = DualNeg(dx)
		}
	case "fmin", "fmax":
		if rf.Float() == xf.Float() {
			d = dx
		} else {
			d = dy
		}
	default:
		d = cst(r, 0)
	}
	return mkDual(tag, r, d), true
}

func dmath2(name string, a, b Value) Value {
	r, _ := DualMath2(name, a, b)
	return r
}

func digamma(x float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsInf(x, -1) || x <= 0 && x == math.Floor(x):
		return math.NaN() // the poles, and no limit at −∞
	case math.IsInf(x, 1):
		return x
	case x < 0: // reflection
		return digamma(1-x) - math.Pi/math.Tan(math.Pi*x)
	}
	// asymptotic series after shifting x up
	r := 0.0
	for x < 6 {
		r -= 1 / x
		x++
	}
	f := 1 / (x * x)
	return r + math.Log(x) - 0.5/x - f*(1.0/12-f*(1.0/120-f*(1.0/252-f*(1.0/240-f/132))))
}
