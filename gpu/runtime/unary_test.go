package runtime

import (
	"math"
	"math/rand"
	"testing"

	"fut/eval/value"
	. "fut/gpu/kernel"
)

// unaryRef is the reference result of a unary kernel operation.
func unaryRef(op string, p value.Prim) value.Prim {
	switch op {
	case "neg":
		return value.Neg(p)
	case "!":
		return value.Not(p)
	case "popc":
		return value.MkInt(value.I32, int64(value.Popc(p)))
	case "clz":
		return value.MkInt(value.I32, int64(value.Clz(p)))
	case "ctz":
		return value.MkInt(value.I32, int64(value.Ctz(p)))
	case "to_bits":
		return value.FromBits(map[value.PrimType]value.PrimType{value.F32: value.U32, value.F64: value.U64}[p.T], value.BitsOf(p))
	}
	r, _ := value.Math1(op, p)
	return r
}

func TestUnaryAndMathMatchReference(t *testing.T) {
	d := device(t)
	rng := rand.New(rand.NewSource(5))
	types := []value.PrimType{value.I8, value.I16, value.I32, value.I64, value.U8, value.U16, value.U32, value.U64, value.F32}
	if d.Caps.F64 {
		types = append(types, value.F64)
	}
	const n = 40
	for _, vt := range types {
		kt := TypeOf(vt)
		ops := []string{"neg", "!", "popc", "clz", "ctz"}
		if vt.IsFloat() {
			ops = []string{"neg", "sqrt", "exp", "log", "sin", "cos", "tanh", "floor", "ceil", "round", "trunc", "cbrt", "to_bits", "fabs"}
		}
		xs := testValues(vt, rng, n)
		np := Scalar("n", I64)
		x := Buf("x", kt, np.V())
		i, xi := NewVar("i", I64), NewVar("xi", kt)
		body := []Stmt{L(xi, Rd(x, i))}
		params := []*Param{np, x}
		args := []any{int64(n), up(t, d, kt, primData(vt, xs), n)}
		for k, op := range ops {
			var e Exp
			switch op {
			case "neg", "!", "popc", "clz", "ctz":
				e = UnOp{Op: op, X: xi}
			default:
				e = Call{Fn: op, Args: []Exp{xi}}
			}
			out := Buf("o"+string(rune('a'+k)), e.Type(), np.V())
			params = append(params, out)
			body = append(body, Wr(out, e, i))
			args = append(args, alloc(t, d, e.Type(), n))
		}
		k := &Kernel{Name: "unary_" + vt.String(), Params: params, Shape: &Map{Dims: []Exp{np.V()}, Idx: []Var{i}, Body: body}}
		if err := d.Run(k, args...); err != nil {
			t.Fatalf("%v: %v", vt, err)
		}
		for o, op := range ops {
			arr := args[2+o].(*Array)
			got, err := arr.Download()
			if err != nil {
				t.Fatal(err)
			}
			tol := 0.0
			switch op {
			case "sqrt", "exp", "log", "sin", "cos", "tanh", "cbrt":
				tol = 4e-6 // OpenCL allows a few ulp
				if vt == value.F64 {
					tol = 1e-14
				}
			}
			for j := 0; j < n; j++ {
				want := unaryRef(op, xs[j])
				g := value.DataGet(PrimOf(arr.T), got, j)
				if (op == "sin" || op == "cos") && math.Abs(xs[j].Float()) > 1e6 {
					continue // argument reduction of huge values differs by design
				}
				if !samePrim(g, want, tol) {
					t.Errorf("%v: %s(%v) = %v on the device, %v in the reference", vt, op, xs[j], g, want)
				}
			}
		}
	}
}
