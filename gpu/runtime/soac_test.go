package runtime

import (
	"fmt"
	"math"

	"fut/eval/value"
	"math/rand"
	"testing"

	. "fut/gpu/kernel"
	"fut/gpu/opencl"
)

func TestReduce(t *testing.T) {
	d := device(t)
	const n = 1_000_000
	rng := rand.New(rand.NewSource(1))
	t.Run("dotprod_f32", func(t *testing.T) {
		x, y := make([]float32, n), make([]float32, n)
		var want float64
		for i := range x {
			x[i], y[i] = rng.Float32(), rng.Float32()
			want += float64(x[i]) * float64(y[i])
		}
		out := alloc(t, d, F32, 1)
		k := mapReduceKernel("dot", F32, "+", Float(F32, 0), true, true)
		if err := d.Run(k, int64(n), up(t, d, F32, x, n), up(t, d, F32, y, n), out); err != nil {
			t.Fatal(err)
		}
		if got := float64(down[float32](t, out)[0]); math.Abs(got-want) > 1e-4*want {
			t.Fatalf("dot = %v, want %v", got, want)
		}
	})
	t.Run("sum_i64_noncomm", func(t *testing.T) {
		x := make([]int64, n)
		var want int64
		for i := range x {
			x[i] = int64(rng.Intn(2000) - 1000)
			want += x[i]
		}
		out := alloc(t, d, I64, 1)
		k := mapReduceKernel("sum", I64, "+", Int(I64, 0), false, false)
		if err := d.Run(k, int64(n), up(t, d, I64, x, n), out); err != nil {
			t.Fatal(err)
		}
		if got := down[int64](t, out)[0]; got != want {
			t.Fatalf("sum = %d, want %d", got, want)
		}
	})
	t.Run("min_max_i32", func(t *testing.T) {
		x := make([]int32, n)
		lo, hi := int32(math.MaxInt32), int32(math.MinInt32)
		for i := range x {
			x[i] = rng.Int31() - 1<<30
			lo, hi = min(lo, x[i]), max(hi, x[i])
		}
		ax := up(t, d, I32, x, n)
		for _, c := range []struct {
			op   string
			ne   Exp
			want int32
		}{{"min", MaxValue(I32), lo}, {"max", MinValue(I32), hi}} {
			out := alloc(t, d, I32, 1)
			if err := d.Run(mapReduceKernel(c.op, I32, c.op, c.ne, true, false), int64(n), ax, out); err != nil {
				t.Fatal(err)
			}
			if got := down[int32](t, out)[0]; got != c.want {
				t.Fatalf("%s = %d, want %d", c.op, got, c.want)
			}
		}
	})
	t.Run("empty", func(t *testing.T) {
		out := alloc(t, d, I32, 1)
		if err := d.Run(mapReduceKernel("min0", I32, "min", MaxValue(I32), true, false), int64(0), alloc(t, d, I32, 0), out); err != nil {
			t.Fatal(err)
		}
		if got := down[int32](t, out)[0]; got != math.MaxInt32 {
			t.Fatalf("reduce of nothing = %d", got)
		}
	})
	t.Run("segmented_argmax_noncomm", func(t *testing.T) {
		// per row of a 300×777 matrix: (first index of the maximum, maximum)
		const rows, cols = 300, 777
		x := make([]float32, rows*cols)
		for i := range x {
			x[i] = float32(rng.Intn(50))
		}
		r, c := Scalar("r", I64), Scalar("c", I64)
		m := Buf("m", F32, r.V(), c.V())
		oi, ov := Buf("oi", I64, r.V()), Buf("ov", F32, r.V())
		s, j := NewVar("s", I64), NewVar("j", I64)
		xi, xv, yi, yv := NewVar("xi", I64), NewVar("xv", F32), NewVar("yi", I64), NewVar("yv", F32)
		pick := NewVar("pick", Bool)
		op := Lambda{X: []Var{xi, xv}, Y: []Var{yi, yv},
			Body: []Stmt{L(pick, Bin(">", yv, xv))},
			Res:  []Exp{Sel(pick, yi, xi), Sel(pick, yv, xv)}}
		k := &Kernel{Name: "argmax", Params: []*Param{r, c, m, oi, ov}, Shape: &Reduce{
			Segments: r.V(), N: c.V(), Seg: s, I: j, Elems: []Exp{j, Rd(m, s, j)},
			Op: op, Neutral: []Exp{Int(I64, -1), Float(F32, math.Inf(-1))}, Out: []*Param{oi, ov}}}
		ai, av := alloc(t, d, I64, rows), alloc(t, d, F32, rows)
		if err := d.Run(k, int64(rows), int64(cols), up(t, d, F32, x, rows, cols), ai, av); err != nil {
			t.Fatal(err)
		}
		gi, gv := down[int64](t, ai), down[float32](t, av)
		for row := 0; row < rows; row++ {
			bi, bv := int64(-1), float32(math.Inf(-1))
			for col := 0; col < cols; col++ {
				if v := x[row*cols+col]; v > bv {
					bi, bv = int64(col), v
				}
			}
			if gi[row] != bi || gv[row] != bv {
				t.Fatalf("row %d: got (%d, %v), want (%d, %v)", row, gi[row], gv[row], bi, bv)
			}
		}
	})
}

func scanKernel(name string, ty Type, op string) *Kernel {
	n := Scalar("n", I64)
	x, out := Buf("x", ty, n.V()), Buf("out", ty, n.V())
	i := NewVar("i", I64)
	return &Kernel{Name: name, Params: []*Param{n, x, out}, Shape: &Scan{
		N: n.V(), I: i, Elems: []Exp{Rd(x, i)}, Op: BinLambda(op, ty), Neutral: []Exp{Int(ty, 0)}, Comm: op == "+", Out: []*Param{out}}}
}

func TestScan(t *testing.T) {
	d := device(t)
	k := scanKernel("prefix", I32, "+")
	for _, n := range []int{1, 255, 256, 257, 70_001, 1_000_000} {
		x := make([]int32, n)
		for i := range x {
			x[i] = int32(i%7) - 3 + int32(i%1000)*1000
		}
		out := alloc(t, d, I32, int64(n))
		if err := d.Run(k, int64(n), up(t, d, I32, x, int64(n)), out); err != nil {
			t.Fatal(err)
		}
		got := down[int32](t, out)
		var acc int32
		for i := range x {
			acc += x[i]
			if got[i] != acc {
				t.Fatalf("n=%d: out[%d] = %d, want %d", n, i, got[i], acc)
			}
		}
	}
	// a non-commutative operator: composition of affine maps a*x+b, as pairs.
	const n = 100_000
	a0, b0 := NewVar("a0", I32), NewVar("b0", I32)
	a1, b1 := NewVar("a1", I32), NewVar("b1", I32)
	np := Scalar("n", I64)
	xa, xb := Buf("xa", I32, np.V()), Buf("xb", I32, np.V())
	oa, ob := Buf("oa", I32, np.V()), Buf("ob", I32, np.V())
	i := NewVar("i", I64)
	// (a0,b0) then (a1,b1): x ↦ a1*(a0*x+b0)+b1
	comp := &Kernel{Name: "affine", Params: []*Param{np, xa, xb, oa, ob}, Shape: &Scan{
		N: np.V(), I: i, Elems: []Exp{Rd(xa, i), Rd(xb, i)},
		Op:      Lambda{X: []Var{a0, b0}, Y: []Var{a1, b1}, Res: []Exp{Bin("*", a1, a0), Bin("+", Bin("*", a1, b0), b1)}},
		Neutral: []Exp{Int(I32, 1), Int(I32, 0)}, Out: []*Param{oa, ob}}}
	as, bs := make([]int32, n), make([]int32, n)
	for j := range as {
		as[j], bs[j] = int32(j%5)-2, int32(j%11)
	}
	ga, gb := alloc(t, d, I32, n), alloc(t, d, I32, n)
	if err := d.Run(comp, int64(n), up(t, d, I32, as, n), up(t, d, I32, bs, n), ga, gb); err != nil {
		t.Fatal(err)
	}
	da, db := down[int32](t, ga), down[int32](t, gb)
	ca, cb := int32(1), int32(0)
	for j := range as {
		ca, cb = as[j]*ca, as[j]*cb+bs[j]
		if da[j] != ca || db[j] != cb {
			t.Fatalf("affine scan at %d: got (%d, %d), want (%d, %d)", j, da[j], db[j], ca, cb)
		}
	}
}

func TestScatter(t *testing.T) {
	d := device(t)
	n, m := Scalar("n", I64), Scalar("m", I64)
	is, vs := Buf("is", I64, n.V()), Buf("vs", F32, n.V())
	dest := Buf("dest", F32, m.V())
	i := NewVar("i", I64)
	k := &Kernel{Name: "scatter", Params: []*Param{n, m, is, vs, dest}, Shape: &Scatter{
		N: n.V(), I: i, Dest: []*Param{dest}, Idx: []Exp{Rd(is, i)}, Vals: []Exp{Rd(vs, i)}}}
	const nn, mm = 10_000, 5_000
	idx, val := make([]int64, nn), make([]float32, nn)
	base := make([]float32, mm)
	want := make([]float32, mm)
	for j := range base {
		base[j] = -1
		want[j] = -1
	}
	for j := range idx {
		idx[j] = int64(j)*2 - 3000 // many out of bounds, each in-bounds index once
		val[j] = float32(j)
		if idx[j] >= 0 && idx[j] < mm {
			want[idx[j]] = val[j]
		}
	}
	ad := up(t, d, F32, base, mm)
	if err := d.Run(k, int64(nn), int64(mm), up(t, d, I64, idx, nn), up(t, d, F32, val, nn), ad); err != nil {
		t.Fatal(err)
	}
	got := down[float32](t, ad)
	for j := range want {
		if got[j] != want[j] {
			t.Fatalf("dest[%d] = %v, want %v", j, got[j], want[j])
		}
	}
}

func histKernel(name string, ty Type, op string, ne Exp, generic bool) *Kernel {
	n, b := Scalar("n", I64), Scalar("b", I64)
	is, vs := Buf("is", I64, n.V()), Buf("vs", ty, n.V())
	dest := Buf("dest", ty, b.V())
	i := NewVar("i", I64)
	opName := op
	if generic {
		opName = ""
	}
	return &Kernel{Name: name, Params: []*Param{n, b, is, vs, dest}, Shape: &Hist{
		N: n.V(), I: i, Dest: dest, Bin: Rd(is, i), Val: Rd(vs, i), Op: BinLambda(op, ty), OpName: opName, Neutral: ne}}
}

func TestHist(t *testing.T) {
	d := device(t)
	const n, bins = 1_000_000, 256
	rng := rand.New(rand.NewSource(2))
	idx := make([]int64, n)
	for j := range idx {
		idx[j] = int64(rng.Intn(bins+20)) - 10 // some outside: ignored
	}
	aidx := up(t, d, I64, idx, n)
	t.Run("counts_i32_atomic_and_generic", func(t *testing.T) {
		ones := make([]int32, n)
		for j := range ones {
			ones[j] = 1
		}
		aones := up(t, d, I32, ones, n)
		// the generic (non-atomic) path costs O(n·L) work on a CPU: fewer elements
		for _, c := range []struct {
			generic bool
			m       int
		}{{false, n}, {true, 200_000}} {
			init := make([]int32, bins)
			want := make([]int32, bins)
			for j := range init {
				init[j], want[j] = int32(j), int32(j) // initial contents are kept
			}
			for _, j := range idx[:c.m] {
				if j >= 0 && j < bins {
					want[j]++
				}
			}
			dest := up(t, d, I32, init, bins)
			if err := d.Run(histKernel("hist_i32", I32, "+", Int(I32, 0), c.generic), int64(c.m), int64(bins), aidx, aones, dest); err != nil {
				t.Fatal(err)
			}
			got := down[int32](t, dest)
			for j := range want {
				if got[j] != want[j] {
					t.Fatalf("generic=%v: bin %d = %d, want %d", c.generic, j, got[j], want[j])
				}
			}
		}
	})
	t.Run("f32_add_and_i32_max", func(t *testing.T) {
		vals := make([]float32, n)
		ivals := make([]int32, n)
		wantF := make([]float64, bins)
		wantI := make([]int32, bins)
		for j := range wantI {
			wantI[j] = math.MinInt32
		}
		for j := range vals {
			vals[j] = float32(rng.Intn(8)) // exact sums in f32
			ivals[j] = rng.Int31()
			if b := idx[j]; b >= 0 && b < bins {
				wantF[b] += float64(vals[j])
				wantI[b] = max(wantI[b], ivals[j])
			}
		}
		df := up(t, d, F32, make([]float32, bins), bins)
		if err := d.Run(histKernel("hist_f32", F32, "+", Float(F32, 0), false), int64(n), int64(bins), aidx, up(t, d, F32, vals, n), df); err != nil {
			t.Fatal(err)
		}
		minInit := make([]int32, bins)
		for j := range minInit {
			minInit[j] = math.MinInt32
		}
		di := up(t, d, I32, minInit, bins)
		if err := d.Run(histKernel("hist_max", I32, "max", MinValue(I32), false), int64(n), int64(bins), aidx, up(t, d, I32, ivals, n), di); err != nil {
			t.Fatal(err)
		}
		gf, gi := down[float32](t, df), down[int32](t, di)
		for j := 0; j < bins; j++ {
			if float64(gf[j]) != wantF[j] || gi[j] != wantI[j] {
				t.Fatalf("bin %d: got %v, %d; want %v, %d", j, gf[j], gi[j], wantF[j], wantI[j])
			}
		}
	})
	t.Run("many_bins_global_atomics", func(t *testing.T) {
		const many, n = 50_000, 200_000
		idx := make([]int64, n)
		ones := make([]int32, n)
		want := make([]int32, many)
		for j := range idx {
			idx[j], ones[j] = int64(rng.Intn(many)), 1
			want[idx[j]]++
		}
		dest := up(t, d, I32, make([]int32, many), many)
		if err := d.Run(histKernel("hist_many", I32, "+", Int(I32, 0), false), int64(n), int64(many), up(t, d, I64, idx, n), up(t, d, I32, ones, n), dest); err != nil {
			t.Fatal(err)
		}
		got := down[int32](t, dest)
		for j := range want {
			if got[j] != want[j] {
				t.Fatalf("bin %d = %d, want %d", j, got[j], want[j])
			}
		}
	})
}

// lookBackDevice opens the test device again, its scans single-pass
// whatever its type (skipping where it cannot), for the test to close.
func lookBackDevice(t *testing.T) *Device {
	d0 := device(t)
	if !d0.Caps.Int64Atomics {
		t.Skip("no 64-bit atomics: no single-pass scan")
	}
	d, err := OpenDevice(d0.Info, Config{NoCache: true, ScanLookBack: 1})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestScanLookBack runs the single-pass scan on this device whatever its
// type, and with every look-back walking back to the first tile
// (opencl.FilterWalkAll).
func TestScanLookBack(t *testing.T) {
	d := lookBackDevice(t)
	defer d.Close()
	defer func(all bool) { opencl.FilterWalkAll = all }(opencl.FilterWalkAll)
	for _, all := range []bool{false, true} {
		opencl.FilterWalkAll = all
		t.Run(fmt.Sprintf("all%v", all), func(t *testing.T) { scanLookBackCases(t, d, all) })
	}
}

// scanLookBackCases: with all (every look-back to the first tile, a
// walk as long as the tiles before), no more than some tens of tiles.
func scanLookBackCases(t *testing.T, d *Device, all bool) {
	for _, c := range []struct {
		ty Type
		op string
	}{{I32, "+"}, {F32, "max"}, {U8, "+"}, {Bool, "||"}} {
		k := scanKernel("lb", c.ty, c.op)
		if sc := k.Shape.(*Scan); c.ty == Bool {
			sc.Neutral = []Exp{BoolC(false)}
		}
		for _, n := range []int{1, 2047, 2048, 2049, 30_001, 300_001} {
			if all && n > 30_001 {
				continue
			}
			var in any
			want := make([]float64, n)
			switch c.ty {
			case I32:
				x := make([]int32, n)
				var acc int32
				for i := range x {
					x[i] = int32(i%13) - 6
					acc += x[i]
					want[i] = float64(acc)
				}
				in = x
			case F32:
				x := make([]float32, n)
				acc := float32(math.Inf(-1))
				for i := range x {
					x[i] = float32((i * 7919) % 100003)
					acc = max(acc, x[i])
					want[i] = float64(acc)
				}
				in = x
			case U8:
				x := make([]uint8, n)
				var acc uint8
				for i := range x {
					x[i] = uint8(i)
					acc += x[i]
					want[i] = float64(acc)
				}
				in = x
			case Bool:
				x := make([]bool, n)
				acc := false
				for i := range x {
					x[i] = i == n/2
					acc = acc || x[i]
					want[i] = map[bool]float64{false: 0, true: 1}[acc]
				}
				in = x
			}
			out := alloc(t, d, c.ty, int64(n))
			if err := d.Run(k, int64(n), up(t, d, c.ty, in, int64(n)), out); err != nil {
				t.Fatal(err)
			}
			if e := d.Profile.Entries(); len(e) != 1 || e[0].Name != "lb_scanlb" {
				t.Fatalf("the single-pass kernel did not run: %+v", e)
			}
			d.Profile.Reset()
			v, _ := out.Value()
			for i := 0; i < n; i++ {
				g := value.DataGet(v.T, v.Data, i)
				gf := float64(g.B)
				switch {
				case g.T.IsFloat():
					gf = g.Float()
				case g.T.IsSigned():
					gf = float64(g.Int())
				}
				if gf != want[i] {
					t.Fatalf("%v %s n=%d: out[%d] = %v, want %v", c.ty, c.op, n, i, gf, want[i])
				}
			}
		}
	}
}

// TestReduceUnrolled: a commutative reduction whose work items read u
// elements an iteration (opencl.RedUnroll) gives the exact sum and
// minimum for lengths around multiples of the group size, and the same
// f32 dot product as one at a time (the elements are combined in the
// plain loop's order).
func TestReduceUnrolled(t *testing.T) {
	d := device(t)
	defer func(u int) { opencl.RedUnroll = u }(opencl.RedUnroll)
	rng := rand.New(rand.NewSource(7))
	const n = 300_007
	x := make([]int64, n)
	xf, yf := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i] = int64(rng.Intn(1<<20) - 1<<19)
		xf[i], yf[i] = rng.Float32(), rng.Float32()
	}
	ax, axf, ayf := up(t, d, I64, x, n), up(t, d, F32, xf, n), up(t, d, F32, yf, n)
	var dot1 float32
	defer func(tail, vec bool) { opencl.RedTail, opencl.RedVec = tail, vec }(opencl.RedTail, opencl.RedVec)
	// the blocks' last round shared out, and read 16 bytes a load: the
	// elements are combined in another order
	for _, tv := range [][2]bool{{false, false}, {true, false}, {true, true}, {false, true}} {
		opencl.RedTail, opencl.RedVec = tv[0], tv[1]
		for _, u := range []int{1, 2, 4, 7, 8, 0} {
			opencl.RedUnroll = u
			for _, m := range []int64{0, 1, 255, 256, 1023, 4 * 256 * 3, n} {
				var sum, lo int64 = 0, math.MaxInt64
				for _, v := range x[:m] {
					sum, lo = sum+v, min(lo, v)
				}
				for _, c := range []struct {
					op   string
					ne   Exp
					want int64
				}{{"+", Int(I64, 0), sum}, {"min", MaxValue(I64), lo}} {
					out := alloc(t, d, I64, 1)
					if err := d.Run(mapReduceKernel(fmt.Sprintf("r%d", u), I64, c.op, c.ne, true, false), m, ax, out); err != nil {
						t.Fatal(err)
					}
					if got := down[int64](t, out)[0]; got != c.want {
						t.Errorf("unroll %d, %s of %d: %d, want %d", u, c.op, m, got, c.want)
					}
				}
			}
			// Σ x[i]·(i mod 13): each element's value read with its own number
			k := mapReduceKernel(fmt.Sprintf("w%d", u), I64, "+", Int(I64, 0), true, false)
			r := k.Shape.(*Reduce)
			r.Elems = []Exp{Bin("*", r.Elems[0], Bin("%", r.I, I64C(13)))}
			var wsum int64
			for i, v := range x {
				wsum += v * int64(i%13)
			}
			wout := alloc(t, d, I64, 1)
			if err := d.Run(k, int64(n), ax, wout); err != nil {
				t.Fatal(err)
			}
			if got := down[int64](t, wout)[0]; got != wsum {
				t.Errorf("tail %v vec %v unroll %d: weighted sum %d, want %d", tv[0], tv[1], u, got, wsum)
			}
			out := alloc(t, d, F32, 1)
			if err := d.Run(mapReduceKernel(fmt.Sprintf("dot%d", u), F32, "+", Float(F32, 0), true, true), int64(n), axf, ayf, out); err != nil {
				t.Fatal(err)
			}
			got := down[float32](t, out)[0]
			switch {
			case u == 1 && !tv[0]:
				dot1 = got
			case !tv[0] && !tv[1] && got != dot1, math.Abs(float64(got-dot1)) > 1e-5*float64(dot1):
				t.Errorf("tail %v vec %v unroll %d: dot %v, one at a time %v", tv[0], tv[1], u, got, dot1)
			}
		}
	}
}
