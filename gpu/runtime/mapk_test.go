package runtime

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	. "fut/gpu/kernel"
	"fut/gpu/opencl"
)

// TestMapK: map kernels that compute several elements a work item
// (opencl.MapK) give every element, for sizes that are no multiple of
// the elements a work group covers: one dimension, two (the indices
// split from the element's number), a body with a branch, and results
// of several types; a body with a loop keeps one element a work item.
func TestMapK(t *testing.T) {
	d := device(t)
	defer func(k, v int) { opencl.MapK, opencl.MapVec = k, v }(opencl.MapK, opencl.MapVec)
	opencl.MapVec = 0 // MapK's elements, not MapVec's runs
	const n, rows, cols = 100_003, 37, 1001
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i%1000)*0.5, float32(n-i)
	}
	for _, K := range []int{2, 3, 8} {
		opencl.MapK = K
		t.Run(fmt.Sprint(K), func(t *testing.T) {
			ax, ay := up(t, d, F32, x, n), up(t, d, F32, y, n)
			out, big := alloc(t, d, F32, n), alloc(t, d, Bool, n)
			k := saxpyKernel(F32)
			k.Name = fmt.Sprintf("saxpy_k%d", K)
			// and a second result: x > 200 (if x > 400 then x - 400 else y)
			b := Buf("big", Bool, k.Params[0].V())
			k.Params = append(k.Params, b)
			m := k.Shape.(*Map)
			i := m.Idx[0]
			v := NewVar("v", F32)
			m.Body = append([]Stmt{&If{Cond: Bin(">", Rd(k.Params[2], i), Float(F32, 400.0)),
				Then: nil, ThenRes: []Exp{Bin("-", Rd(k.Params[2], i), Float(F32, 400.0))},
				Else: nil, ElseRes: []Exp{Rd(k.Params[3], i)}, Res: []Var{v}}},
				append(m.Body, Wr(b, Bin(">", v, Float(F32, 200.0)), i))...)
			if err := d.Run(k, n, float32(2), ax, ay, out, big); err != nil {
				t.Fatal(err)
			}
			p, err := opencl.Generate(k, d.Caps)
			if err != nil || p.MapK != K {
				t.Fatalf("MapK %d, want %d (%v)", p.MapK, K, err)
			}
			// sizes that NVIDIA's PTX reads from registers a CUDA launch
			// does not set
			for _, f := range []string{"get_global_size", "get_num_groups"} {
				if strings.Contains(p.Source, f) {
					t.Errorf("the kernel calls %s", f)
				}
			}
			got, gotB := down[float32](t, out), down[bool](t, big)
			for i := range got {
				w := y[i]
				if x[i] > 400 {
					w = x[i] - 400
				}
				if got[i] != 2*x[i]+y[i] || gotB[i] != (w > 200) {
					t.Fatalf("element %d: %v %v, want %v %v", i, got[i], gotB[i], 2*x[i]+y[i], w > 200)
				}
			}
			// two dimensions: out[r, c] = x[r] * y[c]
			r, c := NewVar("r", I64), NewVar("c", I64)
			R, C := Scalar("R", I64), Scalar("C", I64)
			xr, yc, o2 := Buf("x", F32, R.V()), Buf("y", F32, C.V()), Buf("o", F32, R.V(), C.V())
			k2 := &Kernel{Name: fmt.Sprintf("outer_k%d", K), Params: []*Param{R, C, xr, yc, o2}, Shape: &Map{
				Dims: []Exp{R.V(), C.V()}, Idx: []Var{r, c},
				Body: []Stmt{Wr(o2, Bin("*", Rd(xr, r), Rd(yc, c)), r, c)}}}
			o := alloc(t, d, F32, rows, cols)
			if err := d.Run(k2, int64(rows), int64(cols), ax, ay, o); err != nil {
				t.Fatal(err)
			}
			g2 := down[float32](t, o)
			for e := range g2 {
				if want := x[e/cols] * y[e%cols]; g2[e] != want {
					t.Fatalf("[%d, %d] = %v, want %v", e/cols, e%cols, g2[e], want)
				}
			}
		})
	}
	// a loop in the body: one element a work item
	opencl.MapK = 4
	nn := Scalar("n", I64)
	o := Buf("o", I64, nn.V())
	i, j, s := NewVar("i", I64), NewVar("j", I64), NewVar("s", I64)
	xs := Buf("x", I64, nn.V())
	loop := &Kernel{Name: "loopy", Params: []*Param{nn, xs, o}, Shape: &Map{Dims: []Exp{nn.V()}, Idx: []Var{i}, Body: []Stmt{
		&Loop{Params: []Var{s}, Init: []Exp{Rd(xs, i)}, I: j, N: i, Body: nil, Next: []Exp{Bin("+", s, j)}},
		Wr(o, s, i)}}}
	if p, err := opencl.Generate(loop, d.Caps); err != nil || p.MapK != 0 {
		t.Errorf("a map with a loop: MapK %d (%v)", p.MapK, err)
	}
}

// TestMapVec: a map of one dimension whose buffers are read and written
// at the element's number computes runs of 4 neighbouring elements,
// each buffer moved 16 bytes at a time (opencl.MapVec), where the
// length is a multiple of 4, and as MapK does otherwise: every element
// right either way, for 1 and 2 runs a work item.
func TestMapVec(t *testing.T) {
	d := device(t)
	defer func(v int) { opencl.MapVec = v }(opencl.MapVec)
	for _, V := range []int{1, 2} {
		opencl.MapVec = V
		for _, n := range []int{100_000, 100_003, 4, 8} {
			t.Run(fmt.Sprint(V, n), func(t *testing.T) {
				x, y := make([]float32, n), make([]float32, n)
				for i := range x {
					x[i], y[i] = float32(i%1000)*0.5, float32(i*i%977)
				}
				ax, ay, out := up(t, d, F32, x, int64(n)), up(t, d, F32, y, int64(n)), alloc(t, d, F32, int64(n))
				k := saxpyKernel(F32)
				k.Name = fmt.Sprintf("saxpy_v%d", V)
				p, err := opencl.Generate(k, d.Caps)
				if err != nil || !strings.Contains(p.Source, "float4") || p.MapK != 4*V {
					t.Fatalf("MapK %d, want %d; vectors %v (%v)", p.MapK, 4*V, strings.Contains(p.Source, "float4"), err)
				}
				if err := d.Run(k, int64(n), float32(2), ax, ay, out); err != nil {
					t.Fatal(err)
				}
				for i, got := range down[float32](t, out) {
					if got != 2*x[i]+y[i] {
						t.Fatalf("element %d: %v, want %v", i, got, 2*x[i]+y[i])
					}
				}
			})
		}
	}
}

// TestVecBounds: a buffer read at the element's number but shorter than
// the elements is read one element at a time, with its bounds checked,
// by maps, reductions and scans that read others by vectors: the
// element past its end fails as it does without vectors.
func TestVecBounds(t *testing.T) {
	const n, m = 1 << 20, 1<<20 - 1000
	xs := make([]float32, m)
	for i := range xs {
		xs[i] = float32(i % 13)
	}
	nn, mm := Scalar("n", I64), Scalar("m", I64)
	x, y, out := Buf("x", F32, mm.V()), Buf("y", F32, nn.V()), Buf("out", F32, nn.V())
	i := NewVar("i", I64)
	sum := BinLambda("+", F32)
	kernels := []*Kernel{
		{Name: "vb_map", Params: []*Param{nn, mm, x, y, out}, Shape: &Map{Dims: []Exp{nn.V()}, Idx: []Var{i},
			Body: []Stmt{Wr(out, Bin("+", Rd(x, i), Rd(y, i)), i)}}},
		{Name: "vb_red", Params: []*Param{nn, mm, x, y, out}, Shape: &Reduce{N: nn.V(), I: i,
			Elems: []Exp{Bin("*", Rd(x, i), Rd(y, i))}, Op: sum, Neutral: []Exp{Float(F32, 0)}, Comm: true, Out: []*Param{out}}},
		{Name: "vb_scan", Params: []*Param{nn, mm, x, y, out}, Shape: &Scan{N: nn.V(), I: i,
			Elems: []Exp{Bin("+", Rd(x, i), Rd(y, i))}, Op: sum, Neutral: []Exp{Float(F32, 0)}, Comm: true, Out: []*Param{out}}},
	}
	for _, k := range kernels {
		t.Run(k.Name, func(t *testing.T) {
			d := device(t)
			if _, ok := k.Shape.(*Scan); ok {
				d = lookBackDevice(t)
				defer d.Close()
			}
			ax, ay, o := up(t, d, F32, xs, m), up(t, d, F32, make([]float32, n), n), alloc(t, d, F32, n)
			err := d.Run(k, int64(n), int64(m), ax, ay, o)
			var ke *KernelError
			if !errors.As(err, &ke) || !strings.Contains(err.Error(), "out of bounds for array of shape [1047576]") {
				t.Fatalf("want an index out of bounds, got %v", err)
			}
		})
	}
}

// TestMapDivisions: maps of two and three dimensions split the element
// number into indices with the divisors' magic numbers
// (opencl.MapDivisors), or with 64-bit divisions where the runtime gives
// none (opencl.MapDivFallback) or the generator asks for none
// (opencl.MapDivMagic off); a read and a write at the map's indices go
// to the element's number, one at the indices permuted does not. Every
// element right, with one element a work item and several (MapK).
func TestMapDivisions(t *testing.T) {
	d := device(t)
	defer func(k int, magic, fall bool) {
		opencl.MapK, opencl.MapDivMagic, opencl.MapDivFallback = k, magic, fall
	}(opencl.MapK, opencl.MapDivMagic, opencl.MapDivFallback)
	A, B, C := Scalar("A", I64), Scalar("B", I64), Scalar("C", I64)
	a, b, c := NewVar("a", I64), NewVar("b", I64), NewVar("c", I64)
	in := Buf("in", I64, A.V(), B.V(), C.V())
	out := Buf("out", I64, A.V(), B.V(), C.V())
	perm := Buf("perm", I64, C.V(), B.V(), A.V())
	num := Bin("+", Bin("+", Bin("*", a, I64C(1_000_000)), Bin("*", b, I64C(1000))), c)
	k3 := &Kernel{Name: "div3", Params: []*Param{A, B, C, in, out, perm}, Shape: &Map{
		Dims: []Exp{A.V(), B.V(), C.V()}, Idx: []Var{a, b, c},
		Body: []Stmt{
			Wr(out, Bin("+", num, Rd(in, a, b, c)), a, b, c),
			Wr(perm, num, c, b, a)}}}
	for _, mode := range []string{"magic", "fallback", "off"} {
		for _, K := range []int{1, 3} {
			opencl.MapDivMagic, opencl.MapDivFallback, opencl.MapK = mode != "off", mode == "fallback", K
			for _, sh := range [][3]int64{{3, 7, 1001}, {1, 1, 5}, {5, 1, 1}, {2, 3, 4}, {17, 129, 3}} {
				t.Run(fmt.Sprintf("%s/k%d/%dx%dx%d", mode, K, sh[0], sh[1], sh[2]), func(t *testing.T) {
					kk := *k3
					kk.Name = fmt.Sprintf("div3_%s_%d", mode, K)
					n := sh[0] * sh[1] * sh[2]
					x := make([]int64, n)
					for e := range x {
						x[e] = int64(e) * 7
					}
					ain := up(t, d, I64, x, sh[0], sh[1], sh[2])
					aout, aperm := alloc(t, d, I64, sh[0], sh[1], sh[2]), alloc(t, d, I64, sh[2], sh[1], sh[0])
					if err := d.Run(&kk, sh[0], sh[1], sh[2], ain, aout, aperm); err != nil {
						t.Fatal(err)
					}
					got, gotP := down[int64](t, aout), down[int64](t, aperm)
					for i := range sh[0] {
						for j := range sh[1] {
							for l := range sh[2] {
								e := (i*sh[1]+j)*sh[2] + l
								w := i*1_000_000 + j*1000 + l
								if got[e] != w+x[e] {
									t.Fatalf("out[%d, %d, %d] = %d, want %d", i, j, l, got[e], w+x[e])
								}
								if p := (l*sh[1]+j)*sh[0] + i; gotP[p] != w {
									t.Fatalf("perm[%d, %d, %d] = %d, want %d", l, j, i, gotP[p], w)
								}
							}
						}
					}
					p, err := opencl.Generate(&kk, d.Caps)
					if err != nil {
						t.Fatal(err)
					}
					if want := mode != "off"; (p.MapDivs == 2) != want || strings.Contains(p.Source, "dm1") != want {
						t.Errorf("MapDivs %d, the source naming dm1 %v; want magic numbers %v", p.MapDivs, strings.Contains(p.Source, "dm1"), want)
					}
				})
			}
		}
	}
}
