package runtime

import (
	"math"
	"math/rand"
	"testing"

	"fut/eval/value"
	. "fut/gpu/kernel"
)

// The device's arithmetic is checked against the reference evaluator's
// (eval/value) on edge cases and random values, for every type and operator.

func testValues(t value.PrimType, rng *rand.Rand, n int) []value.Prim {
	var ps []value.Prim
	switch {
	case t == value.Bool:
		for i := 0; i < n; i++ {
			ps = append(ps, value.MkBool(rng.Intn(2) == 1))
		}
		return ps
	case t.IsFloat():
		for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -2.5, 3.5, 1e30, -1e-30, math.Inf(1), math.Inf(-1), math.NaN(), 7, -7} {
			ps = append(ps, value.MkFloat(t, f))
		}
		for len(ps) < n {
			ps = append(ps, value.MkFloat(t, (rng.Float64()-0.5)*math.Pow(2, float64(rng.Intn(40)-20))))
		}
		return ps
	}
	bits := t.Bits()
	for _, x := range []int64{0, 1, -1, 2, -2, 7, -7, 1<<(bits-1) - 1, -1 << (bits - 1), 3, 100, -100} {
		ps = append(ps, value.MkInt(t, x))
	}
	for len(ps) < n {
		ps = append(ps, value.MkInt(t, int64(rng.Uint64())>>rng.Intn(64)))
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

func samePrim(a, b value.Prim, tol float64) bool {
	if a.T != b.T {
		return false
	}
	if a.T.IsFloat() {
		x, y := a.Float(), b.Float()
		if math.IsNaN(x) || math.IsNaN(y) {
			return math.IsNaN(x) && math.IsNaN(y)
		}
		if x == y {
			return true
		}
		return tol > 0 && math.Abs(x-y) <= tol*math.Max(math.Abs(x), math.Abs(y))
	}
	return a.B == b.B
}

func TestArithmeticMatchesReference(t *testing.T) {
	d := device(t)
	rng := rand.New(rand.NewSource(3))
	types := []value.PrimType{value.I8, value.I16, value.I32, value.I64, value.U8, value.U16, value.U32, value.U64, value.F32, value.Bool}
	if d.Caps.F64 {
		types = append(types, value.F64)
	}
	if d.Caps.F16 {
		types = append(types, value.F16)
	}
	const n = 64
	for _, vt := range types {
		kt := TypeOf(vt)
		var ops []string
		switch {
		case vt == value.Bool:
			ops = []string{"==", "!=", "<", "<=", ">", ">=", "&&", "||", "&", "|", "^"}
		case vt.IsFloat():
			ops = []string{"+", "-", "*", "/", "%", "//", "%%", "**", "min", "max", "==", "!=", "<", "<=", ">", ">="}
		default:
			ops = []string{"+", "-", "*", "/", "%", "//", "%%", "**", "min", "max", "==", "!=", "<", "<=", ">", ">=", "&", "|", "^", "<<", ">>", ">>>"}
		}
		xs, ys := testValues(vt, rng, n), testValues(vt, rng, n)
		rng.Shuffle(n, func(i, j int) { ys[i], ys[j] = ys[j], ys[i] })
		if vt.IsInt() {
			for i := range ys { // no division by zero, no negative exponent
				if ys[i].B == 0 || vt.IsSigned() && ys[i].Int() < 0 && rng.Intn(2) == 0 {
					ys[i] = value.MkInt(vt, 3)
				}
			}
		}
		np := Scalar("n", I64)
		x, y := Buf("x", kt, np.V()), Buf("y", kt, np.V())
		i, xi, yi := NewVar("i", I64), NewVar("xi", kt), NewVar("yi", kt)
		body := []Stmt{L(xi, Rd(x, i)), L(yi, Rd(y, i))}
		params := []*Param{np, x, y}
		args := []any{int64(n), up(t, d, kt, primData(vt, xs), n), up(t, d, kt, primData(vt, ys), n)}
		for k, op := range ops {
			var e Exp = Bin(op, xi, yi)
			if op == "**" && vt.IsInt() {
				e = Bin(op, xi, Bin("&", yi, Int(kt, 7)))
			}
			out := Buf("o"+string(rune('a'+k)), e.Type(), np.V())
			params = append(params, out)
			body = append(body, Wr(out, e, i))
			args = append(args, alloc(t, d, e.Type(), n))
		}
		k := &Kernel{Name: "arith_" + vt.String(), Params: params, Shape: &Map{Dims: []Exp{np.V()}, Idx: []Var{i}, Body: body}}
		if err := d.Run(k, args...); err != nil {
			t.Fatalf("%v: %v", vt, err)
		}
		for o, op := range ops {
			arr := args[3+o].(*Array)
			got, err := arr.Download()
			if err != nil {
				t.Fatal(err)
			}
			bop, ok := value.LookupBinOp(op)
			if !ok {
				bop = map[string]value.BinOp{"min": value.OpMin, "max": value.OpMax}[op]
			}
			tol := 0.0
			if vt.IsFloat() && (op == "/" || op == "**" || op == "%" || op == "%%" || op == "//") {
				tol = 4e-7
				if vt == value.F64 {
					tol = 1e-15
				}
			}
			for j := 0; j < n; j++ {
				yv := ys[j]
				if op == "**" && vt.IsInt() {
					yv = value.MkInt(vt, int64(yv.B&7))
				}
				want, err := value.Binary(bop, xs[j], yv)
				if err != nil {
					t.Fatalf("%v %s: reference failed on %v, %v: %v", vt, op, xs[j], yv, err)
				}
				g := value.DataGet(PrimOf(arr.T), got, j)
				if !samePrim(g, want, tol) {
					t.Errorf("%v: %v %s %v = %v on the device, %v in the reference", vt, xs[j], op, yv, g, want)
				}
			}
		}
	}
}

func TestConversionsMatchReference(t *testing.T) {
	d := device(t)
	rng := rand.New(rand.NewSource(4))
	types := []value.PrimType{value.I8, value.I16, value.I32, value.I64, value.U8, value.U16, value.U32, value.U64, value.F32, value.Bool}
	if d.Caps.F64 {
		types = append(types, value.F64)
	}
	const n = 48
	for _, from := range types {
		kf := TypeOf(from)
		xs := testValues(from, rng, n)
		for j := range xs { // avoid double rounding of wide integers to f32 in the reference
			if from.IsInt() && j%2 == 0 {
				xs[j] = value.MkInt(from, int64(xs[j].B&0xfffff))
			}
		}
		np := Scalar("n", I64)
		x := Buf("x", kf, np.V())
		i, xi := NewVar("i", I64), NewVar("xi", kf)
		body := []Stmt{L(xi, Rd(x, i))}
		params := []*Param{np, x}
		args := []any{int64(n), up(t, d, kf, primData(from, xs), n)}
		for k, to := range types {
			out := Buf("o"+string(rune('a'+k)), TypeOf(to), np.V())
			params = append(params, out)
			body = append(body, Wr(out, Cv(TypeOf(to), xi), i))
			args = append(args, alloc(t, d, TypeOf(to), n))
		}
		k := &Kernel{Name: "conv_" + from.String(), Params: params, Shape: &Map{Dims: []Exp{np.V()}, Idx: []Var{i}, Body: body}}
		if err := d.Run(k, args...); err != nil {
			t.Fatalf("%v: %v", from, err)
		}
		for o, to := range types {
			got, err := args[2+o].(*Array).Download()
			if err != nil {
				t.Fatal(err)
			}
			for j := 0; j < n; j++ {
				want := value.Convert(xs[j], to)
				if from.IsInt() && to == value.F32 && xs[j].B > 0xfffff && ^xs[j].B > 0xfffff {
					continue // the reference rounds twice (through f64)
				}
				if g := value.DataGet(to, got, j); !samePrim(g, want, 0) {
					t.Errorf("%v → %v of %v: device %v, reference %v", from, to, xs[j], g, want)
				}
			}
		}
	}
}
