package value

import "math"

// Float math functions by name, applied at the argument's float type.

var math1 = map[string]func(float64) float64{
	"sqrt": math.Sqrt, "exp": math.Exp, "log": math.Log, "log2": math.Log2,
	"log10": math.Log10, "log1p": math.Log1p, "sin": math.Sin, "cos": math.Cos,
	"tan": math.Tan, "asin": math.Asin, "acos": math.Acos, "atan": math.Atan,
	"sinh": math.Sinh, "cosh": math.Cosh, "tanh": math.Tanh, "asinh": math.Asinh,
	"acosh": math.Acosh, "atanh": math.Atanh, "gamma": math.Gamma,
	"lgamma": func(x float64) float64 { y, _ := math.Lgamma(x); return y },
	"erf":    math.Erf, "erfc": math.Erfc, "cbrt": math.Cbrt,
	"round": math.RoundToEven, "ceil": math.Ceil, "floor": math.Floor,
	"trunc": math.Trunc, "fabs": math.Abs,
	"sinpi":  func(x float64) float64 { return math.Sin(math.Pi * x) },
	"cospi":  func(x float64) float64 { return math.Cos(math.Pi * x) },
	"tanpi":  func(x float64) float64 { return math.Tan(math.Pi * x) },
	"asinpi": func(x float64) float64 { return math.Asin(x) / math.Pi },
	"acospi": func(x float64) float64 { return math.Acos(x) / math.Pi },
	"atanpi": func(x float64) float64 { return math.Atan(x) / math.Pi },
	"exp2":   math.Exp2, "exp10": func(x float64) float64 { return math.Pow(10, x) },
	"rsqrt": func(x float64) float64 { return 1 / math.Sqrt(x) },
	"expm1": math.Expm1,
}

var math2 = map[string]func(float64, float64) float64{
	"atan2": math.Atan2, "hypot": math.Hypot, "pow": math.Pow,
	"copysign": math.Copysign, "nextafter": math.Nextafter,
	"fmin": fmin, "fmax": fmax, "fmod": math.Mod,
	"atan2pi": func(y, x float64) float64 { return math.Atan2(y, x) / math.Pi },
}

// Math1 applies a one-argument float function; ok is false for an unknown name.
func Math1(name string, p Prim) (Prim, bool) {
	f, ok := math1[name]
	if !ok || !p.T.IsFloat() {
		return Prim{}, false
	}
	return MkFloat(p.T, f(p.Float())), true
}

// Math2 applies a two-argument float function.
func Math2(name string, a, b Prim) (Prim, bool) {
	f, ok := math2[name]
	if !ok || !a.T.IsFloat() {
		return Prim{}, false
	}
	return MkFloat(a.T, f(a.Float(), b.Float())), true
}

// HasMath reports whether name is a float math function and its arity.
func HasMath(name string) (arity int, ok bool) {
	if _, ok := math1[name]; ok {
		return 1, true
	}
	if _, ok := math2[name]; ok {
		return 2, true
	}
	return 0, false
}

// FMA is a*b+c rounded once (at the type's precision via float64 for f16/f32).
func FMA(a, b, c Prim) Prim {
	if a.T == F64 {
		return MkFloat(F64, math.FMA(a.Float(), b.Float(), c.Float()))
	}
	return MkFloat(a.T, math.FMA(a.Float(), b.Float(), c.Float()))
}

// fixedResults are the scalar functions whose result type does not
// follow their argument's: the bit counts, the float classifications
// and the bit casts.
var fixedResults = map[string]PrimType{
	"popc": I32, "clz": I32, "ctz": I32,
	"isnan": Bool, "isinf": Bool,
	"f16_from_bits": F16, "f32_from_bits": F32, "f64_from_bits": F64,
	"f16_to_bits": U16, "f32_to_bits": U32, "f64_to_bits": U64,
}

// FixedResult is the result type of a scalar function whose result type
// is not its argument's (ok false for the others).
func FixedResult(name string) (PrimType, bool) {
	t, ok := fixedResults[name]
	return t, ok
}
