package eval

import (
	"fmt"
	"math"

	"fut/eval/value"
	"fut/interp/syntax"
)

// intrinsicTable maps the names of prelude/intrinsics.fut to their Go
// implementations. Scalar functions dispatch on the run-time primitive
// type of their first argument.
var intrinsicTable map[string]intrinsicFn

func init() {
	intrinsicTable = map[string]intrinsicFn{
		"map": intrMap, "reduce": intrReduce, "reduce_comm": intrReduce, "scan": intrScan,
		"filter": intrFilter, "partition": intrPartition,
		"scatter": scatterD(1), "scatter_2d": scatterD(2), "scatter_3d": scatterD(3),
		"hist": intrHist, "reduce_by_index": reduceByIndex(1),
		"reduce_by_index_2d": reduceByIndex(2), "reduce_by_index_3d": reduceByIndex(3),
		"reduce_stream": intrReduceStream, "reduce_stream_per": intrReduceStream,
		"map_stream": intrMapStream, "map_stream_per": intrMapStream,

		"length": intrLength, "iota": intrIota, "replicate": intrReplicate,
		"copy": intrCopy, "manifest": intrCopy, "concat": intrConcat,
		"transpose": intrTranspose, "rotate": intrRotate, "flatten": intrFlatten, "reverse": intrReverse,
		"unflatten": intrUnflatten,
		"zip":       intrZip, "zip3": intrZip, "zip4": intrZip, "zip5": intrZip,
		"unzip": unzipN(2), "unzip3": unzipN(3), "unzip4": unzipN(4), "unzip5": unzipN(5),
		"opaque": intrIdentity, "trace": intrTrace, "break": intrBreak,
		"jvp2": intrJVP2, "vjp2": intrVJP2,
	}
	scalarTable = map[string]scalarFn{
		"add": binIntr(value.OpAdd), "sub": binIntr(value.OpSub), "mul": binIntr(value.OpMul),
		"div": binIntr(value.OpDiv), "mod": binIntr(value.OpMod), "quot": binIntr(value.OpQuot),
		"rem": binIntr(value.OpRem), "pow": binIntr(value.OpPow),
		"min": binIntr(value.OpMin), "max": binIntr(value.OpMax),
		"eq": binIntr(value.OpEq), "neq": binIntr(value.OpNeq), "lt": binIntr(value.OpLt),
		"le": binIntr(value.OpLe), "gt": binIntr(value.OpGt), "ge": binIntr(value.OpGe),
		"and": binIntr(value.OpAnd), "or": binIntr(value.OpOr), "xor": binIntr(value.OpXor),
		"shl": binIntr(value.OpShl), "shr": binIntr(value.OpShr), "lshr": binIntr(value.OpUShr),

		"neg":        unIntr(func(p value.Prim) value.Prim { return value.Neg(p) }),
		"complement": unIntr(func(p value.Prim) value.Prim { return value.Not(p) }),
		"abs":        unIntr(primAbs),
		"signum":     unIntr(primSignum),
		"popc":       unIntr(func(p value.Prim) value.Prim { return value.I32Val(int32(value.Popc(p))) }),
		"clz":        unIntr(func(p value.Prim) value.Prim { return value.I32Val(int32(value.Clz(p))) }),
		"ctz":        unIntr(func(p value.Prim) value.Prim { return value.I32Val(int32(value.Ctz(p))) }),
		"isinf":      unIntr(func(p value.Prim) value.Prim { return value.MkBool(p.T.IsFloat() && math.IsInf(p.Float(), 0)) }),
		"isnan":      unIntr(func(p value.Prim) value.Prim { return value.MkBool(p.T.IsFloat() && math.IsNaN(p.Float())) }),
		"mul_hi":     prim2(func(a, b value.Prim) value.Prim { return value.MulHi(a, b) }),
		"mad_hi": prim3(func(a, b, c value.Prim) value.Prim {
			r, _ := value.Binary(value.OpAdd, value.MulHi(a, b), c)
			return r
		}),
		"fma": prim3(value.FMA),
		"mad": prim3(func(a, b, c value.Prim) value.Prim {
			return value.MkFloat(a.T, a.Float()*b.Float()+c.Float())
		}),
		"lerp": prim3(func(a, b, c value.Prim) value.Prim {
			return value.MkFloat(a.T, a.Float()+(b.Float()-a.Float())*c.Float())
		}),
		"ldexp": prim2(func(a, b value.Prim) value.Prim {
			return value.MkFloat(a.T, math.Ldexp(a.Float(), int(b.Int())))
		}),
		"f16_from_bits": unIntr(func(p value.Prim) value.Prim { return value.FromBits(value.F16, p.B) }),
		"f32_from_bits": unIntr(func(p value.Prim) value.Prim { return value.FromBits(value.F32, p.B) }),
		"f64_from_bits": unIntr(func(p value.Prim) value.Prim { return value.FromBits(value.F64, p.B) }),
		"f16_to_bits":   unIntr(func(p value.Prim) value.Prim { return value.MkUint(value.U16, value.BitsOf(p)) }),
		"f32_to_bits":   unIntr(func(p value.Prim) value.Prim { return value.MkUint(value.U32, value.BitsOf(p)) }),
		"f64_to_bits":   unIntr(func(p value.Prim) value.Prim { return value.MkUint(value.U64, value.BitsOf(p)) }),
	}
	for _, ty := range []value.PrimType{value.I8, value.I16, value.I32, value.I64, value.U8, value.U16, value.U32, value.U64, value.F16, value.F32, value.F64, value.Bool} {
		ty := ty
		scalarTable["to_"+ty.String()] = unIntr(func(p value.Prim) value.Prim { return value.Convert(p, ty) })
	}
	for _, name := range []string{"sqrt", "rsqrt", "cbrt", "exp", "log", "log2", "log10", "log1p",
		"sin", "cos", "tan", "asin", "acos", "atan", "sinpi", "cospi", "tanpi", "asinpi", "acospi",
		"atanpi", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "gamma", "lgamma", "erf", "erfc",
		"ceil", "floor", "trunc", "round", "exp2", "exp10", "expm1"} {
		name := name
		scalarTable[name] = unIntrErr(func(p value.Prim) (value.Prim, bool) { return value.Math1(name, p) })
	}
	for _, name := range []string{"atan2", "atan2pi", "hypot", "nextafter", "copysign", "fmod"} {
		name := name
		scalarTable[name] = prim2ok(func(a, b value.Prim) (value.Prim, bool) { return value.Math2(name, a, b) })
	}
	registerScalars()
}

func lookupIntrinsic(name string) intrinsicFn { return intrinsicTable[name] }

// scalarFn is a scalar intrinsic as a pure function of its arguments;
// one of one argument is also fn1, which the flat kernels apply to each
// lane's scalar without a slice (fcomp.intrinsic).
type scalarFn struct {
	arity int
	fn    func(a []value.Prim) (value.Prim, error)
	fn1   func(a value.Prim) (value.Prim, error)
}

// scalarTable holds the scalar intrinsics; each costs (1, 1, 1).
var scalarTable map[string]scalarFn

func registerScalars() {
	for name, sf := range scalarTable {
		name, sf := name, sf
		intrinsicTable[name] = func(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
			// the thread's buffer: a local one escapes through sf.fn, and a
			// scalar function never calls back into the evaluator
			ps := t.prims[:len(args)]
			for i, a := range args {
				p, ok := a.(value.Prim)
				if !ok {
					if isDual(a) {
						return t.dualIntrinsic(name, args, pos)
					}
					return nil, t.errf(pos, "scalar intrinsic applied to a value that is not a scalar")
				}
				ps[i] = p
			}
			r, err := sf.fn(ps)
			if err != nil {
				return nil, t.errf(pos, "%v", err)
			}
			t.scalarStep(t.live)
			return r, nil
		}
	}
}

// binPrim applies a built-in operator to scalars (reconciling types that
// a missing checker left apart).
func binPrim(op value.BinOp, a, b value.Prim) (value.Prim, error) {
	if a.T != b.T {
		a, b = unifyPrims(a, b)
	}
	if (op == value.OpShl || op == value.OpShr || op == value.OpUShr) && b.T.IsSigned() && b.Int() < 0 {
		b = value.MkInt(b.T, 64)
	}
	return value.Binary(op, a, b)
}

func binIntr(op value.BinOp) scalarFn {
	return scalarFn{arity: 2, fn: func(a []value.Prim) (value.Prim, error) { return binPrim(op, a[0], a[1]) }}
}

func unIntr(f func(value.Prim) value.Prim) scalarFn {
	return scalarFn{arity: 1,
		fn:  func(a []value.Prim) (value.Prim, error) { return f(a[0]), nil },
		fn1: func(a value.Prim) (value.Prim, error) { return f(a), nil }}
}

func unIntrErr(f func(value.Prim) (value.Prim, bool)) scalarFn {
	return scalarFn{arity: 1,
		fn: func(a []value.Prim) (value.Prim, error) {
			r, ok := f(a[0])
			if !ok {
				return r, mathTypeErr(a[0])
			}
			return r, nil
		},
		fn1: func(a value.Prim) (value.Prim, error) {
			r, ok := f(a)
			if !ok {
				return r, mathTypeErr(a)
			}
			return r, nil
		}}
}

func mathTypeErr(a value.Prim) error { return fmt.Errorf("math function applied to a %s", a.T) }

func prim2(f func(a, b value.Prim) value.Prim) scalarFn {
	return scalarFn{arity: 2, fn: func(a []value.Prim) (value.Prim, error) { return f(a[0], a[1]), nil }}
}

func prim2ok(f func(a, b value.Prim) (value.Prim, bool)) scalarFn {
	return scalarFn{arity: 2, fn: func(a []value.Prim) (value.Prim, error) {
		r, ok := f(a[0], a[1])
		if !ok {
			return r, mathTypeErr(a[0])
		}
		return r, nil
	}}
}

func prim3(f func(a, b, c value.Prim) value.Prim) scalarFn {
	return scalarFn{arity: 3, fn: func(a []value.Prim) (value.Prim, error) { return f(a[0], a[1], a[2]), nil }}
}

func primAbs(p value.Prim) value.Prim {
	switch {
	case p.T.IsFloat():
		return value.MkFloat(p.T, math.Abs(p.Float()))
	case p.T.IsSigned() && p.Int() < 0:
		return value.Neg(p)
	}
	return p
}

func primSignum(p value.Prim) value.Prim {
	switch {
	case p.T.IsFloat():
		x := p.Float()
		switch {
		case math.IsNaN(x):
			return p
		case x > 0:
			return value.MkFloat(p.T, 1)
		case x < 0:
			return value.MkFloat(p.T, -1)
		}
		return value.MkFloat(p.T, 0)
	case p.T.IsSigned():
		x := p.Int()
		switch {
		case x > 0:
			return value.MkInt(p.T, 1)
		case x < 0:
			return value.MkInt(p.T, -1)
		}
		return value.MkInt(p.T, 0)
	case p.T == value.Bool:
		return p
	}
	if p.B > 0 {
		return value.MkUint(p.T, 1)
	}
	return value.MkUint(p.T, 0)
}
