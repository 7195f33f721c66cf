package eval

import (
	"math"

	"fut/eval/value"
)

// The cost of a derivative (docs/cost.md, "Derivatives"). jvp evaluates
// its function once on dual numbers, and the cost is what the
// transformation that the fused plan runs does: every step is charged
// again for the tangent it carries (thread.tan, step), except a scalar
// operator's, whose tangent costs the scalar steps of its chain rule,
// counted here one by one as interp/ir/ad_scalar.go writes them (with
// every operand carrying a tangent: the plan's may fold some away, never
// add any). A test of interp/session checks this table against the
// transformation.

// binTangentSteps is the number of steps of the chain rule of op on
// operands of type t (the result's type).
func binTangentSteps(op value.BinOp, t value.PrimType) int64 {
	if !t.Differentiable() || op.IsComparison() {
		return 0
	}
	switch op {
	case value.OpAdd, value.OpSub:
		return 1 // dx ± dy
	case value.OpMul:
		return 3 // dx·y + x·dy
	case value.OpDiv, value.OpQuot:
		if t.IsFloat() {
			return 5 // (dx·y − x·dy) / (y·y)
		}
		return 8 // the same, guarded against a zero divisor (a test and two selections)
	case value.OpPow:
		if t.IsFloat() {
			// y·x^(y−1)·dx and x^y·log x·dy, each guarded by two tests,
			// then their sum
			return 17
		}
		return 7 // y·x^(y−1)·dx where y ≥ 1
	case value.OpMin, value.OpMax:
		return 2 // a test and a selection
	}
	return 0 // %, %%: dx itself; bitwise operators: zero
}

// intrinsicTangentSteps is the number of steps of the chain rule of the
// scalar intrinsic name applied to args (some of them duals), whose
// result is r.
func intrinsicTangentSteps(name string, args []value.Value, r value.Value) int64 {
	rt := value.NoPrim
	if p, ok := value.Primal(r); ok {
		rt = p.T
	}
	if op, ok := intrinsicBinOps[name]; ok && len(args) == 2 {
		return binTangentSteps(op, rt)
	}
	if to, ok := convTarget(name); ok {
		if !to.Differentiable() {
			return 0 // none
		}
		return 1 // the same conversion of dx, also from a float to an integer (as Futhark)
	}
	if !rt.Differentiable() {
		return 0
	}
	switch name {
	case "neg", "f16_to_bits", "f32_to_bits", "f64_to_bits", "f16_from_bits", "f32_from_bits", "f64_from_bits":
		return 1
	case "abs", "fabs":
		return 3 // a test, a negation, a selection
	case "fma", "mad":
		return 4
	case "lerp":
		return 6
	case "lgamma", "gamma":
		x, _ := value.Primal(args[0])
		k := int64(1) // dx · ψ(x)
		if name == "gamma" {
			k = 2 // dx · Γ(x) · ψ(x)
		}
		return k + digammaSteps(asFloat(x))
	}
	if k, ok := math1TangentSteps[name]; ok {
		return k
	}
	if k, ok := math2TangentSteps[name]; ok {
		return k
	}
	return 0 // sgn, popc and other functions of the primal only
}

// math1TangentSteps: the chain rule of each one-argument function of the
// math library (its derivative times dx).
var math1TangentSteps = map[string]int64{
	"sqrt": 2, "rsqrt": 5, "cbrt": 3,
	"exp": 2, "expm1": 2, "exp2": 3, "exp10": 3,
	"log": 1, "log2": 2, "log10": 2, "log1p": 2,
	"sin": 2, "cos": 3, "tan": 3,
	"asin": 4, "acos": 5, "atan": 3,
	"sinh": 2, "cosh": 2, "tanh": 3,
	"asinh": 4, "acosh": 4, "atanh": 3,
	"erf": 5, "erfc": 6, "sinpi": 4, "cospi": 5,
}

// math2TangentSteps: the same for the two-argument functions.
var math2TangentSteps = map[string]int64{
	"atan2": 7, "atan2pi": 8, "hypot": 4, "pow": 10, "copysign": 5,
	"fmin": 2, "fmax": 2,
}

// digammaSteps is the steps of ψ(x) as the transformation computes it:
// a loop shifting x up to 6 or more (a test each time, then x + 1 and
// r − 1/x and the iteration's own step), then the asymptotic series (16
// steps). A loop that would not end (x = −∞) is counted to its bound.
func digammaSteps(x float64) int64 {
	k := int64(0)
	if x < 6 && !math.IsInf(x, -1) {
		k = int64(math.Ceil(6 - x))
		for x+float64(k-1) >= 6 && k > 0 { // rounding at large magnitudes
			k--
		}
	}
	if k > 1<<40 || math.IsInf(x, -1) {
		k = 1 << 40
	}
	return 16 + (k + 1) + 4*k
}
