package opencl_test

// Emulated f16 (devices without cl_khr_fp16): kernels run on the OpenCL
// device with Caps.F16 turned off, so emulation is what is tested on
// every device, and their results are compared with the reference
// evaluator's (eval/value), which rounds every f16 operation to f16.

import (
	"math"
	"math/rand"
	"strings"
	"testing"

	"fut/eval/value"
	. "fut/gpu/kernel"
	"fut/gpu/opencl"
	"fut/gpu/runtime"
)

var emuDev *runtime.Device

// emuDevice opens the first OpenCL device once (skipping without one) and
// sets its capabilities to caps: kernels must be new values after a change
// (the device remembers built kernels by their *Kernel).
func emuDevice(t *testing.T, f64 bool) *runtime.Device {
	t.Helper()
	if emuDev == nil {
		d, err := runtime.Open(runtime.Config{NoCache: true})
		if err != nil {
			t.Skipf("no OpenCL device here (%v): install pocl-opencl-icd to run these tests", err)
		}
		emuDev = d
	}
	if f64 && !emuDev.Info.HasF64 {
		t.Skip("the device has no f64")
	}
	emuDev.Caps.F16 = false
	emuDev.Caps.F64 = f64
	return emuDev
}

func upload(t *testing.T, d *runtime.Device, ty Type, data any, n int) *runtime.Array {
	t.Helper()
	a, err := d.Upload(ty, []int64{int64(n)}, data)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func alloc(t *testing.T, d *runtime.Device, ty Type, n int) *runtime.Array {
	t.Helper()
	a, err := d.Alloc(ty, int64(n))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func download(t *testing.T, a *runtime.Array) *value.Array {
	t.Helper()
	v, err := a.Value()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func h(x float64) value.Prim { return value.MkFloat(value.F16, x) }

// f16Values are edge cases, then random f16 values of every exponent.
func f16Values(rng *rand.Rand, n int) []value.Prim {
	var ps []value.Prim
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -2.5, 3.5, 7, -7, 0.1, 1000, 2049,
		65504, -65504, 0x1p-14, 0x1p-24, -0x1p-24, 0x1.ffcp-15, 60000, math.Inf(1), math.Inf(-1), math.NaN()} {
		ps = append(ps, h(f))
	}
	for len(ps) < n {
		b := uint16(rng.Intn(1 << 16))
		if rng.Intn(3) == 0 { // more of the moderate values
			b = b&0x83ff | uint16(12+rng.Intn(8))<<10
		}
		ps = append(ps, value.FromBits(value.F16, uint64(b)))
	}
	return ps
}

func primData(t value.PrimType, ps []value.Prim) any {
	d := value.MakeData(t, len(ps))
	for i, p := range ps {
		value.DataSet(d, i, p)
	}
	return d
}

// f16Steps is how many f16 values lie between a and b (0: equal; NaNs
// are equal to each other; -0 equals 0).
func f16Steps(a, b float64) int {
	if math.IsNaN(a) || math.IsNaN(b) {
		if math.IsNaN(a) && math.IsNaN(b) {
			return 0
		}
		return 1 << 20
	}
	if a == b {
		return 0
	}
	ord := func(x float64) int { // monotone in x
		u := int(value.F16Bits(value.RoundF16(x)))
		if u&0x8000 != 0 {
			return -(u & 0x7fff)
		}
		return u
	}
	d := ord(a) - ord(b)
	if d < 0 {
		d = -d
	}
	return max(d, 1)
}

type emuCase struct {
	name string
	exp  func(x, y, z Exp) Exp
	ref  func(x, y, z value.Prim) value.Prim
	// f16 steps allowed without f64 (the functions of float)
	tolF32 int
}

func bin(op string) emuCase {
	bop, ok := value.LookupBinOp(op)
	if !ok {
		bop = map[string]value.BinOp{"min": value.OpMin, "max": value.OpMax}[op]
	}
	return emuCase{name: op, exp: func(x, y, z Exp) Exp { return Bin(op, x, y) },
		ref: func(x, y, z value.Prim) value.Prim {
			r, err := value.Binary(bop, x, y)
			if err != nil {
				panic(err)
			}
			return r
		}}
}

func math1(fn string, tol int) emuCase {
	return emuCase{name: fn, tolF32: tol, exp: func(x, y, z Exp) Exp { return Call{Fn: fn, Args: []Exp{x}} },
		ref: func(x, y, z value.Prim) value.Prim {
			r, ok := value.Math1(fn, x)
			if !ok {
				panic(fn)
			}
			return r
		}}
}

func math2(fn string, tol int) emuCase {
	return emuCase{name: fn, tolF32: tol, exp: func(x, y, z Exp) Exp { return Call{Fn: fn, Args: []Exp{x, y}} },
		ref: func(x, y, z value.Prim) value.Prim {
			r, ok := value.Math2(fn, x, y)
			if !ok {
				panic(fn)
			}
			return r
		}}
}

func emuCases() []emuCase {
	cs := []emuCase{bin("+"), bin("-"), bin("*"), bin("/"), bin("%"), bin("//"), bin("%%"), bin("min"), bin("max"), bin("=="), bin("<"), bin(">=")}
	pow := bin("**")
	pow.tolF32 = 1
	cs = append(cs, pow,
		emuCase{name: "neg", exp: func(x, y, z Exp) Exp { return UnOp{Op: "neg", X: x} }, ref: func(x, y, z value.Prim) value.Prim { return h(-x.Float()) }},
		emuCase{name: "abs", exp: func(x, y, z Exp) Exp { return UnOp{Op: "abs", X: x} }, ref: func(x, y, z value.Prim) value.Prim { return h(math.Abs(x.Float())) }},
		emuCase{name: "sgn", exp: func(x, y, z Exp) Exp { return UnOp{Op: "sgn", X: x} }, ref: func(x, y, z value.Prim) value.Prim {
			f := x.Float()
			switch {
			case f > 0:
				return h(1)
			case f < 0:
				return h(-1)
			}
			return x
		}},
		emuCase{name: "fma", tolF32: 1, exp: func(x, y, z Exp) Exp { return Call{Fn: "fma", Args: []Exp{x, y, z}} }, ref: func(x, y, z value.Prim) value.Prim { return value.FMA(x, y, z) }},
		emuCase{name: "mad", tolF32: 1, exp: func(x, y, z Exp) Exp { return Call{Fn: "mad", Args: []Exp{x, y, z}} }, ref: func(x, y, z value.Prim) value.Prim { return h(x.Float()*y.Float() + z.Float()) }},
		// lerp as the flattener builds it: each step an f16 operation
		emuCase{name: "lerp", exp: func(x, y, z Exp) Exp { return Bin("+", x, Bin("*", Bin("-", y, x), z)) }, ref: func(x, y, z value.Prim) value.Prim {
			return h(x.Float() + h(h(y.Float()-x.Float()).Float()*z.Float()).Float())
		}},
		emuCase{name: "isnan", exp: func(x, y, z Exp) Exp { return Call{Fn: "isnan", Args: []Exp{x}} }, ref: func(x, y, z value.Prim) value.Prim { return value.MkBool(math.IsNaN(x.Float())) }},
		emuCase{name: "isinf", exp: func(x, y, z Exp) Exp { return Call{Fn: "isinf", Args: []Exp{x}} }, ref: func(x, y, z value.Prim) value.Prim { return value.MkBool(math.IsInf(x.Float(), 0)) }},
		emuCase{name: "select", exp: func(x, y, z Exp) Exp { return Sel(Bin("<", x, y), x, z) }, ref: func(x, y, z value.Prim) value.Prim {
			if x.Float() < y.Float() {
				return x
			}
			return z
		}},
		emuCase{name: "consts", exp: func(x, y, z Exp) Exp {
			return Bin("+", Bin("*", x, Float(F16, 0.1)), Float(F16, 1.0/3))
		}, ref: func(x, y, z value.Prim) value.Prim { return h(h(x.Float()*h(0.1).Float()).Float() + h(1.0/3).Float()) }},
		emuCase{name: "ldexp", exp: func(x, y, z Exp) Exp { return Call{Fn: "ldexp", Args: []Exp{x, Int(I32, -3)}} }, ref: func(x, y, z value.Prim) value.Prim { return h(math.Ldexp(x.Float(), -3)) }},
	)
	for _, fn := range []string{"floor", "ceil", "trunc", "round", "fabs"} {
		cs = append(cs, math1(fn, 0))
	}
	for _, fn := range []string{"sqrt", "rsqrt", "cbrt"} {
		cs = append(cs, math1(fn, 1))
	}
	for _, fn := range []string{"exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
		"asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "erf", "erfc", "sinpi", "cospi", "asinpi", "acospi", "atanpi"} {
		cs = append(cs, math1(fn, 2))
	}
	for _, fn := range []string{"copysign", "fmin", "fmax", "fmod", "nextafter"} {
		cs = append(cs, math2(fn, 0))
	}
	for _, fn := range []string{"atan2", "hypot", "pow", "atan2pi"} {
		cs = append(cs, math2(fn, 2))
	}
	return cs
}

// TestF16EmulatedArithmetic runs every f16 operator and math function on
// emulated f16, with and without f64 on the device, against the reference.
func TestF16EmulatedArithmetic(t *testing.T) {
	for _, f64 := range []bool{true, false} {
		name := "via_f64"
		if !f64 {
			name = "via_f32"
		}
		t.Run(name, func(t *testing.T) {
			d := emuDevice(t, f64)
			rng := rand.New(rand.NewSource(16))
			const n = 400
			xs, ys, zs := f16Values(rng, n), f16Values(rng, n), f16Values(rng, n)
			rng.Shuffle(n, func(i, j int) { ys[i], ys[j] = ys[j], ys[i] })
			rng.Shuffle(n, func(i, j int) { zs[i], zs[j] = zs[j], zs[i] })
			np := Scalar("n", I64)
			x, y, z := Buf("x", F16, np.V()), Buf("y", F16, np.V()), Buf("z", F16, np.V())
			i, xi, yi, zi := NewVar("i", I64), NewVar("xi", F16), NewVar("yi", F16), NewVar("zi", F16)
			body := []Stmt{L(xi, Rd(x, i)), L(yi, Rd(y, i)), L(zi, Rd(z, i))}
			params := []*Param{np, x, y, z}
			args := []any{int64(n), upload(t, d, F16, primData(value.F16, xs), n), upload(t, d, F16, primData(value.F16, ys), n), upload(t, d, F16, primData(value.F16, zs), n)}
			cases := emuCases()
			for k, c := range cases {
				e := c.exp(xi, yi, zi)
				// through a let: the value must be an f16 before it is stored
				v := NewVar("r"+string(rune('a'+k%26))+string(rune('a'+k/26)), e.Type())
				body = append(body, L(v, e))
				out := Buf("o"+v.Name, e.Type(), np.V())
				params = append(params, out)
				body = append(body, Wr(out, v, i))
				args = append(args, alloc(t, d, e.Type(), n))
			}
			k := &Kernel{Name: "emu16_" + name, Params: params, Shape: &Map{Dims: []Exp{np.V()}, Idx: []Var{i}, Body: body}}
			if err := d.Run(k, args...); err != nil {
				src, _ := opencl.Generate(k, d.Caps)
				if src != nil {
					t.Log(src.Source)
				}
				t.Fatal(err)
			}
			bad := 0
			for o, c := range cases {
				got := download(t, args[4+o].(*runtime.Array))
				for j := 0; j < n; j++ {
					want := c.ref(xs[j], ys[j], zs[j])
					g := value.DataGet(got.T, got.Data, j)
					tol := 0
					if !f64 {
						tol = c.tolF32
					}
					ok := g.B == want.B
					if want.T.IsFloat() {
						ok = f16Steps(g.Float(), want.Float()) <= tol
					}
					if !ok {
						bad++
						if bad < 20 {
							t.Errorf("%s(%v, %v, %v) = %v, want %v", c.name, xs[j].Float(), ys[j].Float(), zs[j].Float(), g, want)
						}
					}
				}
			}
		})
	}
}

// TestF16EmulatedConversions checks conversions both ways, the bits of
// f16 and a scalar f16 argument.
func TestF16EmulatedConversions(t *testing.T) {
	for _, f64 := range []bool{true, false} {
		name := "via_f64"
		if !f64 {
			name = "via_f32"
		}
		t.Run(name, func(t *testing.T) {
			d := emuDevice(t, f64)
			rng := rand.New(rand.NewSource(61))
			const n = 300
			hs := f16Values(rng, n)
			var f32s, f64s []value.Prim
			var i64s, u64s []value.Prim
			var bits []value.Prim
			for j := 0; j < n; j++ {
				f := hs[j].Float()
				// near f16 halfway points: rounding through float first would be wrong
				g := f * (1 + math.Ldexp(1, -11)) * (1 + (rng.Float64()-0.5)*1e-9)
				if j%5 == 0 {
					g = 1 + math.Ldexp(1, -11) + math.Ldexp(1, -40)
				}
				f32s = append(f32s, value.MkFloat(value.F32, g))
				f64s = append(f64s, value.MkFloat(value.F64, g))
				i64s = append(i64s, value.MkInt(value.I64, int64(rng.Uint64())>>rng.Intn(64)))
				u64s = append(u64s, value.MkUint(value.U64, rng.Uint64()>>rng.Intn(64)))
				bits = append(bits, value.MkUint(value.U16, uint64(rng.Intn(1<<16))))
			}
			np := Scalar("n", I64)
			a := Scalar("a", F16)
			xh, x32, x64 := Buf("xh", F16, np.V()), Buf("x32", F32, np.V()), Buf("x64", F64, np.V())
			xi, xu, xb := Buf("xi", I64, np.V()), Buf("xu", U64, np.V()), Buf("xb", U16, np.V())
			i := NewVar("i", I64)
			type conv struct {
				in  *Param
				to  Type
				e   func(Exp) Exp
				ref func(value.Prim) value.Prim
			}
			cv := func(to Type) func(Exp) Exp { return func(e Exp) Exp { return Cv(to, e) } }
			ref := func(to value.PrimType) func(value.Prim) value.Prim {
				return func(p value.Prim) value.Prim { return value.Convert(p, to) }
			}
			convs := []conv{
				{xh, F32, cv(F32), ref(value.F32)},
				{xh, I8, cv(I8), ref(value.I8)},
				{xh, I16, cv(I16), ref(value.I16)},
				{xh, I32, cv(I32), ref(value.I32)},
				{xh, I64, cv(I64), ref(value.I64)},
				{xh, U8, cv(U8), ref(value.U8)},
				{xh, U16, cv(U16), ref(value.U16)},
				{xh, U32, cv(U32), ref(value.U32)},
				{xh, U64, cv(U64), ref(value.U64)},
				{xh, Bool, cv(Bool), ref(value.Bool)},
				{x32, F16, cv(F16), ref(value.F16)},
				{xi, F16, cv(F16), ref(value.F16)},
				{xu, F16, cv(F16), ref(value.F16)},
				{xi, F16, func(e Exp) Exp { return Cv(F16, Cv(I16, e)) }, func(p value.Prim) value.Prim { return value.Convert(value.Convert(p, value.I16), value.F16) }},
				{xh, F16, func(e Exp) Exp { return Cv(F16, Bin("<", e, Float(F16, 0))) }, func(p value.Prim) value.Prim { return value.Convert(value.MkBool(p.Float() < 0), value.F16) }},
				{xh, U16, func(e Exp) Exp { return Call{Fn: "to_bits", Args: []Exp{e}} }, func(p value.Prim) value.Prim { return value.MkUint(value.U16, value.BitsOf(p)) }},
				{xb, F16, func(e Exp) Exp { return Call{Fn: "from_bits", Args: []Exp{e}, Res: F16} }, func(p value.Prim) value.Prim { return value.FromBits(value.F16, p.B) }},
				// a saxpy with a scalar f16 argument
				{xh, F16, func(e Exp) Exp { return Bin("+", Bin("*", a.V(), e), Float(F16, 0.25)) }, func(p value.Prim) value.Prim {
					return h(h(-1.5*p.Float()).Float() + 0.25)
				}},
			}
			toBits := 15
			if f64 {
				convs = append(convs,
					conv{xh, F64, cv(F64), ref(value.F64)},
					conv{x64, F16, cv(F16), ref(value.F16)},
				)
			}
			params := []*Param{np, a, xh, x32, xi, xu, xb}
			args := []any{int64(n), -1.5, upload(t, d, F16, primData(value.F16, hs), n), upload(t, d, F32, primData(value.F32, f32s), n),
				upload(t, d, I64, primData(value.I64, i64s), n), upload(t, d, U64, primData(value.U64, u64s), n), upload(t, d, U16, primData(value.U16, bits), n)}
			ins := map[*Param][]value.Prim{xh: hs, x32: f32s, xi: i64s, xu: u64s, xb: bits}
			if f64 {
				params = append(params, x64)
				args = append(args, upload(t, d, F64, primData(value.F64, f64s), n))
				ins[x64] = f64s
			}
			first := len(params)
			var body []Stmt
			for k, c := range convs {
				e := c.e(Rd(c.in, i))
				v := NewVar("c"+string(rune('a'+k)), e.Type())
				out := Buf("o"+v.Name, e.Type(), np.V())
				body = append(body, L(v, e), Wr(out, v, i))
				params = append(params, out)
				args = append(args, alloc(t, d, e.Type(), n))
			}
			k := &Kernel{Name: "emu16conv_" + name, Params: params, Shape: &Map{Dims: []Exp{np.V()}, Idx: []Var{i}, Body: body}}
			if err := d.Run(k, args...); err != nil {
				t.Fatal(err)
			}
			bad := 0
			for o, c := range convs {
				got := download(t, args[first+o].(*runtime.Array))
				for j := 0; j < n; j++ {
					in := ins[c.in][j]
					want := c.ref(in)
					g := value.DataGet(got.T, got.Data, j)
					ok := g.B == want.B
					if want.T.IsFloat() {
						ok = f16Steps(g.Float(), want.Float()) == 0 && math.Signbit(g.Float()) == math.Signbit(want.Float()) || math.IsNaN(g.Float()) && math.IsNaN(want.Float())
					}
					if o == toBits && math.IsNaN(in.Float()) { // any NaN's bits
						ok = g.B&0x7c00 == 0x7c00 && g.B&0x3ff != 0
					}
					if !ok {
						bad++
						if bad < 20 {
							t.Errorf("conversion %d of %v (%v) = %v, want %v", o, in, in.T, g, want)
						}
					}
				}
			}
		})
	}
}

// TestF16EmulatedSOACs runs reductions, scans, histograms and a scatter
// of f16 (local memory and partial results in half storage).
func TestF16EmulatedSOACs(t *testing.T) {
	d := emuDevice(t, d64(t))
	rng := rand.New(rand.NewSource(7))
	for _, n := range []int{1, 300, 5000, 100_000} {
		// quarters in [-2, 2]: every partial sum of fewer than 2^12 of
		// them is exact in f16, so sums do not depend on the order
		small := make([]value.Prim, n)
		for j := range small {
			small[j] = h(float64(rng.Intn(17)-8) / 4)
		}
		any16 := f16Values(rng, n)[:n]
		np := Scalar("n", I64)
		x := Buf("x", F16, np.V())
		i := NewVar("i", I64)
		t.Run("reduce", func(t *testing.T) {
			for _, op := range []string{"+", "min", "max"} {
				data, ne := any16, MinValue(F16)
				switch op {
				case "+":
					data, ne = small, Float(F16, 0)
					if n > 4000 {
						data = small[:4000]
					}
				case "min":
					ne = MaxValue(F16)
				}
				m := len(data)
				out := Buf("out", F16, Int(I64, 1))
				for _, comm := range []bool{true, false} {
					k := &Kernel{Name: "emu16red", Params: []*Param{np, x, out}, Shape: &Reduce{
						N: np.V(), I: i, Elems: []Exp{Rd(x, i)}, Op: BinLambda(op, F16), Neutral: []Exp{ne}, Comm: comm, Out: []*Param{out}}}
					o := alloc(t, d, F16, 1)
					if err := d.Run(k, int64(m), upload(t, d, F16, primData(value.F16, data), m), o); err != nil {
						t.Fatal(err)
					}
					want := value.MkFloat(value.F16, ne.F)
					bop := map[string]value.BinOp{"+": value.OpAdd, "min": value.OpMin, "max": value.OpMax}[op]
					for _, p := range data {
						want, _ = value.Binary(bop, want, p)
					}
					if g := value.DataGet(value.F16, download(t, o).Data, 0); f16Steps(g.Float(), want.Float()) != 0 {
						t.Errorf("n=%d: reduce %s (comm %v) = %v, want %v", m, op, comm, g, want)
					}
				}
			}
		})
		t.Run("scan", func(t *testing.T) {
			for _, op := range []string{"+", "max"} {
				data, ne := small, Float(F16, 0)
				if op == "max" {
					data, ne = any16, MinValue(F16)
				}
				m := min(len(data), 4000)
				data = data[:m]
				out := Buf("out", F16, np.V())
				k := &Kernel{Name: "emu16scan", Params: []*Param{np, x, out}, Shape: &Scan{
					N: np.V(), I: i, Elems: []Exp{Rd(x, i)}, Op: BinLambda(op, F16), Neutral: []Exp{ne}, Comm: op == "+", Out: []*Param{out}}}
				o := alloc(t, d, F16, m)
				if err := d.Run(k, int64(m), upload(t, d, F16, primData(value.F16, data), m), o); err != nil {
					t.Fatal(err)
				}
				got := download(t, o)
				acc := value.MkFloat(value.F16, ne.F)
				bop := map[string]value.BinOp{"+": value.OpAdd, "max": value.OpMax}[op]
				for j, p := range data {
					acc, _ = value.Binary(bop, acc, p)
					if g := value.DataGet(value.F16, got.Data, j); f16Steps(g.Float(), acc.Float()) != 0 {
						t.Fatalf("n=%d: scan %s at %d = %v, want %v", m, op, j, g, acc)
					}
				}
			}
		})
		t.Run("hist", func(t *testing.T) {
			const bins = 37
			is := make([]int64, n)
			for j := range is {
				is[j] = int64(rng.Intn(bins+4)) - 2 // some outside: ignored
			}
			for _, op := range []string{"+", "min", "max"} {
				data, ne := small, Float(F16, 0)
				if op != "+" {
					data, ne = any16, MaxValue(F16)
					if op == "max" {
						ne = MinValue(F16)
					}
				}
				m := n
				if op == "+" {
					m = min(n, 4000)
				}
				nb := Scalar("b", I64)
				ib, dest := Buf("is", I64, np.V()), Buf("dest", F16, nb.V())
				k := &Kernel{Name: "emu16hist", Params: []*Param{np, nb, ib, x, dest}, Shape: &Hist{
					N: np.V(), I: i, Dest: dest, Bin: Rd(ib, i), Val: Rd(x, i), Op: BinLambda(op, F16), OpName: op, Neutral: ne}}
				init := make([]value.Prim, bins)
				for b := range init {
					init[b] = h(float64(b) - 3)
				}
				o := upload(t, d, F16, primData(value.F16, init), bins)
				if err := d.Run(k, int64(m), int64(bins), upload(t, d, I64, is[:m], m), upload(t, d, F16, primData(value.F16, data[:m]), m), o); err != nil {
					t.Fatal(err)
				}
				bop := map[string]value.BinOp{"+": value.OpAdd, "min": value.OpMin, "max": value.OpMax}[op]
				want := append([]value.Prim(nil), init...)
				for j := 0; j < m; j++ {
					if b := is[j]; b >= 0 && b < bins {
						want[b], _ = value.Binary(bop, want[b], data[j])
					}
				}
				got := download(t, o)
				for b := range want {
					if g := value.DataGet(value.F16, got.Data, b); f16Steps(g.Float(), want[b].Float()) != 0 {
						t.Fatalf("n=%d: hist %s bin %d = %v, want %v", m, op, b, g, want[b])
					}
				}
			}
		})
		t.Run("scatter", func(t *testing.T) {
			dest := Buf("dest", F16, np.V())
			k := &Kernel{Name: "emu16scatter", Params: []*Param{np, x, dest}, Shape: &Scatter{
				N: np.V(), I: i, Dest: []*Param{dest}, Idx: []Exp{Bin("-", Bin("-", np.V(), i), Int(I64, 1))}, Vals: []Exp{Bin("*", Rd(x, i), Float(F16, 3))}}}
			o := alloc(t, d, F16, n)
			if err := d.Run(k, int64(n), upload(t, d, F16, primData(value.F16, any16), n), o); err != nil {
				t.Fatal(err)
			}
			got := download(t, o)
			for j := 0; j < n; j++ {
				want := h(3 * any16[n-1-j].Float())
				if g := value.DataGet(value.F16, got.Data, j); f16Steps(g.Float(), want.Float()) != 0 {
					t.Fatalf("n=%d: scatter at %d = %v, want %v", n, j, g, want)
				}
			}
		})
	}
}

func d64(t *testing.T) bool {
	d := emuDevice(t, false)
	return d.Info.HasF64
}

// TestF16EmulatedSource: the generated C holds no half values, only half
// pointers, read and written with vload_half and vstore_half_rte.
func TestF16EmulatedSource(t *testing.T) {
	n := Scalar("n", I64)
	a := Scalar("a", F16)
	x, out := Buf("x", F16, n.V()), Buf("out", F16, n.V())
	i := NewVar("i", I64)
	k := &Kernel{Name: "src", Params: []*Param{n, a, x, out}, Shape: &Map{
		Dims: []Exp{n.V()}, Idx: []Var{i}, Body: []Stmt{Wr(out, Bin("+", a.V(), Call{Fn: "sqrt", Args: []Exp{Rd(x, i)}}), i)}}}
	p, err := opencl.Generate(k, opencl.Caps{F64: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"__global half *v_x", "ushort a_v_a", "vload_half(", "vstore_half_rte(", "fut_d2h(sqrt((double)("} {
		if !strings.Contains(p.Source, want) {
			t.Errorf("no %q in\n%s", want, p.Source)
		}
	}
	if strings.Contains(p.Source, "cl_khr_fp16") {
		t.Errorf("the emulation enables cl_khr_fp16")
	}
}
