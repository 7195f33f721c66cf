package value

import "math"

// Dual is a float scalar carrying a tangent, for forward-mode automatic
// differentiation (jvp): P is the primal value, T its derivative along
// the direction being differentiated. Both have the same float type.
// Duals appear only while the evaluator runs a jvp; arrays of them are
// boxed.
type Dual struct {
	P, T Prim
}

func (Dual) isValue() {}

// Primal returns the primal part of a scalar (itself for a Prim).
func Primal(v Value) (Prim, bool) {
	switch v := v.(type) {
	case Prim:
		return v, true
	case Dual:
		return v.P, true
	}
	return Prim{}, false
}

// tangentOf is v's tangent (0 for a plain scalar).
func tangentOf(v Value, t PrimType) Prim {
	if d, ok := v.(Dual); ok {
		return d.T
	}
	return zeroOf(t)
}

func zeroOf(t PrimType) Prim {
	if t.IsFloat() {
		return MkFloat(t, 0)
	}
	return MkInt(t, 0)
}

// Differentiable reports whether scalars of type t carry tangents (all
// numbers do; Futhark differentiates integer code too).
func (t PrimType) Differentiable() bool { return t != Bool && t != NoPrim }

// DualBinary applies op to scalars at least one of which is a Dual. The
// tangent is computed in the operands' own type.
func DualBinary(op BinOp, a, b Value) (Value, error) {
	pa, _ := Primal(a)
	pb, _ := Primal(b)
	r, err := Binary(op, pa, pb)
	if err != nil || !r.T.Differentiable() || op.IsComparison() {
		return r, err
	}
	t := r.T
	dx, dy := tangentOf(a, t), tangentOf(b, t)
	bin := func(op BinOp, x, y Prim) Prim { v, _ := Binary(op, x, y); return v }
	var d Prim
	switch op {
	case OpAdd:
		d = bin(OpAdd, dx, dy)
	case OpSub:
		d = bin(OpSub, dx, dy)
	case OpMul:
		d = bin(OpAdd, bin(OpMul, dx, pb), bin(OpMul, pa, dy))
	case OpDiv, OpQuot:
		num := bin(OpSub, bin(OpMul, dx, pb), bin(OpMul, pa, dy))
		d, err = Binary(op, num, bin(OpMul, pb, pb))
		if err != nil {
			d = zeroOf(t)
		}
	case OpPow:
		if t.IsFloat() {
			x, y := pa.Float(), pb.Float()
			v := 0.0
			if y != 0 && dx.Float() != 0 {
				v = y * math.Pow(x, y-1) * dx.Float()
			}
			if dy.Float() != 0 && x != 0 {
				v += math.Pow(x, y) * math.Log(x) * dy.Float()
			}
			d = MkFloat(t, v)
		} else if pb.Int() >= 1 {
			d = bin(OpMul, bin(OpMul, pb, bin(OpPow, pa, bin(OpSub, pb, MkInt(t, 1)))), dx)
		} else {
			d = zeroOf(t)
		}
	case OpMin, OpMax:
		if Identical(r, pa) {
			d = dx
		} else {
			d = dy
		}
	case OpMod, OpRem:
		d = dx
	default:
		d = zeroOf(t)
	}
	return Dual{r, d}, nil
}

// DualMath1 applies a one-argument float function to a Dual.
func DualMath1(name string, a Dual) (Value, bool) {
	r, ok := Math1(name, a.P)
	if !ok {
		return nil, false
	}
	x, dx := a.P.Float(), a.T.Float()
	var d float64
	switch name {
	case "sqrt":
		d = dx / (2 * math.Sqrt(x))
	case "rsqrt":
		d = -dx / (2 * x * math.Sqrt(x))
	case "cbrt":
		d = dx / (3 * math.Cbrt(x) * math.Cbrt(x))
	case "exp":
		d = dx * math.Exp(x)
	case "exp2":
		d = dx * math.Exp2(x) * math.Ln2
	case "exp10":
		d = dx * math.Pow(10, x) * math.Ln10
	case "expm1":
		d = dx * math.Exp(x)
	case "log":
		d = dx / x
	case "log2":
		d = dx / (x * math.Ln2)
	case "log10":
		d = dx / (x * math.Ln10)
	case "log1p":
		d = dx / (1 + x)
	case "sin":
		d = dx * math.Cos(x)
	case "cos":
		d = -dx * math.Sin(x)
	case "tan":
		c := math.Cos(x)
		d = dx / (c * c)
	case "asin":
		d = dx / math.Sqrt(1-x*x)
	case "acos":
		d = -dx / math.Sqrt(1-x*x)
	case "atan":
		d = dx / (1 + x*x)
	case "sinh":
		d = dx * math.Cosh(x)
	case "cosh":
		d = dx * math.Sinh(x)
	case "tanh":
		c := math.Cosh(x)
		d = dx / (c * c)
	case "asinh":
		d = dx / math.Sqrt(x*x+1)
	case "acosh":
		d = dx / math.Sqrt(x*x-1)
	case "atanh":
		d = dx / (1 - x*x)
	case "erf":
		d = dx * 2 / math.Sqrt(math.Pi) * math.Exp(-x*x)
	case "erfc":
		d = -dx * 2 / math.Sqrt(math.Pi) * math.Exp(-x*x)
	case "fabs":
		d = dx
		if x < 0 {
			d = -dx
		}
	case "sinpi":
		d = dx * math.Pi * math.Cos(math.Pi*x)
	case "cospi":
		d = -dx * math.Pi * math.Sin(math.Pi*x)
	case "lgamma":
		d = dx * digamma(x)
	case "gamma":
		d = dx * math.Gamma(x) * digamma(x)
	default: // round, floor, ceil, trunc: piecewise constant
		d = 0
	}
	return Dual{r, MkFloat(r.T, d)}, true
}

// DualMath2 applies a two-argument float function to scalars (at least one a Dual).
func DualMath2(name string, a, b Value) (Value, bool) {
	pa, _ := Primal(a)
	pb, _ := Primal(b)
	r, ok := Math2(name, pa, pb)
	if !ok {
		return nil, false
	}
	t := r.T
	x, y := pa.Float(), pb.Float()
	dx, dy := tangentOf(a, t).Float(), tangentOf(b, t).Float()
	var d float64
	switch name {
	case "atan2":
		d = (dx*y - x*dy) / (x*x + y*y)
	case "atan2pi":
		d = (dx*y - x*dy) / (x*x + y*y) / math.Pi
	case "hypot":
		d = (x*dx + y*dy) / math.Hypot(x, y)
	case "pow":
		d = y * math.Pow(x, y-1) * dx
		if dy != 0 {
			d += math.Pow(x, y) * math.Log(x) * dy
		}
	case "copysign":
		d = dx
		if math.Signbit(x) != math.Signbit(y) {
			d = -dx
		}
	case "fmin", "fmax":
		if r.Float() == x {
			d = dx
		} else {
			d = dy
		}
	}
	return Dual{r, MkFloat(t, d)}, true
}

func digamma(x float64) float64 {
	// asymptotic series after shifting x up
	r := 0.0
	for x < 6 {
		r -= 1 / x
		x++
	}
	f := 1 / (x * x)
	return r + math.Log(x) - 0.5/x - f*(1.0/12-f*(1.0/120-f*(1.0/252-f*(1.0/240-f/132))))
}
