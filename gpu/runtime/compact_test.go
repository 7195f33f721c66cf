package runtime

import (
	"fmt"
	"testing"

	. "fut/gpu/kernel"
	"fut/gpu/opencl"
)

// compactKernel keeps the elements i of x (i32) where keep says, writing
// x[i] and i * 0.5 (f32) to two destinations, counted in count; flags of
// type ft.
func compactKernel(ft Type, keep func(x, i Exp) Exp) *Kernel {
	n := Scalar("n", I64)
	x := Buf("x", I32, n.V())
	dx, di, count := Buf("dx", I32, n.V()), Buf("di", F32, n.V()), Buf("count", I64, I64C(1))
	i := NewVar("i", I64)
	xv, flag, half := NewVar("xv", I32), NewVar("flag", ft), NewVar("half", F32)
	body := []Stmt{
		L(xv, Rd(x, i)),
		L(flag, Sel(keep(xv, i), Int(ft, 1), Int(ft, 0))),
		L(half, Bin("*", Conv{To: F32, X: i}, Float(F32, 0.5))),
	}
	return &Kernel{Name: "compact", Params: []*Param{n, x, dx, di, count}, Shape: &Scan{
		N: n.V(), I: i, Body: body, Elems: []Exp{flag}, Op: BinLambda("+", ft), Neutral: []Exp{Int(ft, 0)}, Comm: true,
		Keep: &Keep{Vals: []Exp{xv, half}, Dest: []*Param{dx, di}, Count: count}}}
}

// TestCompact: a filter's compaction in one kernel, on the single-pass
// scan and on the three-pass one, keeps the elements in order and counts
// them, at sizes around the tiles' edges and with none, all or some
// elements kept.
func TestCompact(t *testing.T) {
	d0 := device(t)
	paths := []struct {
		name string
		cfg  Config
		want string // the kernel that must run
	}{{"three_pass", Config{NoCache: true, ScanLookBack: -1}, "compact_scan3"}}
	if d0.Caps.Int64Atomics {
		// look_back: the compaction that holds its elements in
		// registers (opencl.FilterPass 1); look_back_warp: the same,
		// ranked by ballots (2); look_back_again: the one that computes
		// them again after the look-back (0)
		for _, name := range []string{"look_back", "look_back_warp", "look_back_again"} {
			paths = append(paths, struct {
				name string
				cfg  Config
				want string
			}{name, Config{NoCache: true, ScanLookBack: 1}, "compact_scanlb"})
		}
	}
	defer func(v int) { opencl.FilterPass = v }(opencl.FilterPass)
	keeps := map[string]func(x, i Exp) Exp{
		"none": func(x, i Exp) Exp { return Bin("<", x, Int(I32, -1000)) },
		"all":  func(x, i Exp) Exp { return Bin(">=", x, Int(I32, -1000)) },
		"some": func(x, i Exp) Exp { return Bin("==", Bin("%", x, Int(I32, 3)), Int(I32, 1)) },
	}
	for _, p := range paths {
		opencl.FilterPass = map[string]int{"look_back_again": 0, "look_back_warp": 2}[p.name]
		if p.name == "look_back" {
			opencl.FilterPass = 1
		}
		d, err := OpenDevice(d0.Info, p.cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, ft := range []Type{I32, I64} {
			for kname, keep := range keeps {
				if ft == I64 && p.name != "three_pass" {
					continue // the single pass takes flags of 32 bits
				}
				k := compactKernel(ft, keep)
				// the register-holding compaction's tiles: 16·256
				// elements for one kept value of 4 bytes, 8·256 here
				for _, n := range []int{0, 1, 2047, 2048, 2049, 4095, 4096, 4097, 3*4096 + 17, 300_001} {
					t.Run(fmt.Sprintf("%s/%v/%s/%d", p.name, ft, kname, n), func(t *testing.T) {
						x := make([]int32, n)
						var wx []int32
						var wi []float32
						for i := range x {
							x[i] = int32((i*7919)%1000) - 500
							m := ((x[i] % 3) + 3) % 3 // Futhark's %: the divisor's sign
							if kname == "all" || (kname == "some" && m == 1) {
								wx = append(wx, x[i])
								wi = append(wi, float32(i)*0.5)
							}
						}
						dx, di, cnt := alloc(t, d, I32, int64(max(n, 1))), alloc(t, d, F32, int64(max(n, 1))), alloc(t, d, I64, 1)
						defer dx.Release()
						defer di.Release()
						defer cnt.Release()
						var in *Array
						if n > 0 {
							in = up(t, d, I32, x, int64(n))
						} else {
							in = alloc(t, d, I32, 1)
						}
						defer in.Release()
						if err := d.Run(k, int64(n), in, dx, di, cnt); err != nil {
							t.Fatal(err)
						}
						ran := false
						for _, e := range d.Profile.Entries() {
							ran = ran || e.Name == p.want
						}
						d.Profile.Reset()
						if n > 0 && !ran {
							t.Fatalf("%s did not run", p.want)
						}
						c := down[int64](t, cnt)[0]
						if c != int64(len(wx)) {
							t.Fatalf("count %d, want %d", c, len(wx))
						}
						gx, gi := down[int32](t, dx), down[float32](t, di)
						for j := range wx {
							if gx[j] != wx[j] || gi[j] != wi[j] {
								t.Fatalf("kept element %d: (%d, %v), want (%d, %v)", j, gx[j], gi[j], wx[j], wi[j])
							}
						}
					})
				}
			}
		}
		d.Close()
	}
}

// compactTypes keeps the elements i of x (i32) where keep says, writing
// x[i] in every type of types (converted) to a destination each.
func compactTypes(name string, types []Type, keep func(x, i Exp) Exp) *Kernel {
	n := Scalar("n", I64)
	x, count := Buf("x", I32, n.V()), Buf("count", I64, I64C(1))
	i := NewVar("i", I64)
	xv, flag := NewVar("xv", I32), NewVar("flag", I32)
	params := []*Param{n, x}
	var vals []Exp
	var dests []*Param
	for k, t := range types {
		d := Buf(fmt.Sprintf("d%d", k), t, n.V())
		params = append(params, d)
		dests = append(dests, d)
		vals = append(vals, Conv{To: t, X: xv})
	}
	params = append(params, count)
	body := []Stmt{L(xv, Rd(x, i)), L(flag, Sel(keep(xv, i), Int(I32, 1), Int(I32, 0)))}
	return &Kernel{Name: name, Params: params, Shape: &Scan{
		N: n.V(), I: i, Body: body, Elems: []Exp{flag}, Op: BinLambda("+", I32), Neutral: []Exp{Int(I32, 0)}, Comm: true,
		Keep: &Keep{Vals: vals, Dest: dests, Count: count}}}
}

// TestCompactOnePass: the register-holding compactions (opencl.FilterPass
// 1 and 2) with 1, 5, 16 and 32 elements per work item (opencl.FilterK)
// and look-back windows of 0, 1, 3 and 32 (opencl.FilterWindow), keeping
// one value, three of different sizes, or one of each type, at sizes
// around its tiles' edges, with none, all, some or runs of the elements
// kept, gives the kept values in order and their count.
func TestCompactOnePass(t *testing.T) {
	d0 := device(t)
	if !d0.Caps.Int64Atomics {
		t.Skip("the single pass needs 64-bit atomics")
	}
	defer func(v, k, w int, all bool, stage, async int) {
		opencl.FilterPass, opencl.FilterK, opencl.FilterWindow, opencl.FilterWalkAll, opencl.FilterStage, opencl.FilterAsync = v, k, w, all, stage, async
	}(opencl.FilterPass, opencl.FilterK, opencl.FilterWindow, opencl.FilterWalkAll, opencl.FilterStage, opencl.FilterAsync)
	opencl.FilterAsync = 0 // TestCompactAsync's
	many := []Type{I32, I64, Bool, U8, I16, U32, F32, F16}
	if d0.Caps.F64 {
		many = append(many, F64)
	}
	keeps, kept := compactKeeps, compactKept
	// pass, elements per work item, look-back window (and a fourth: 1
	// where every look-back walks to the first tile; a fifth: 1 where the
	// kept values go out through local memory, 2 where they are staged
	// as read: opencl.FilterStage)
	for _, pk := range [][5]int{{1, 1, 32, 1, 0}, {1, 5, 1, 0, 0}, {1, 16, 0, 1, 0}, {1, 32, 3, 1, 0}, {2, 16, 32, 0, 0}, {2, 32, 1, 1, 0}, {2, 16, 32, 0, 1}, {2, 5, 0, 1, 1}, {2, 32, 3, 1, 1}, {2, 28, 32, 0, 2}, {2, 5, 0, 1, 2}, {2, 32, 3, 1, 2}} {
		fk := pk[1]
		opencl.FilterPass, opencl.FilterK, opencl.FilterWindow, opencl.FilterWalkAll, opencl.FilterStage = pk[0], fk, pk[2], pk[3] == 1, pk[4]
		d, err := OpenDevice(d0.Info, Config{NoCache: true, ScanLookBack: 1})
		if err != nil {
			t.Fatal(err)
		}
		// {I64, Bool, F32}: staged in areas of three sizes and alignments
		for _, types := range [][]Type{{F32}, {I64, Bool, F32}, many} {
			for kname, keep := range keeps {
				k := compactTypes("compact", types, keep)
				tile := 256 * fk
				for _, n := range []int{1, 255, 256, 257, tile - 1, tile, tile + 1, 5*tile + 3, 70_001} {
					t.Run(fmt.Sprintf("pass%d/k%d/w%d/s%d/%d/%s/%d", pk[0], fk, pk[2], pk[4], len(types), kname, n), func(t *testing.T) {
						runCompactTypes(t, d, k, types, n, func(x int32, i int) bool { return kept(kname, x, i) })
					})
				}
			}
		}
		d.Close()
	}
}

// compactPair keeps the elements i of x and y (both of 4-byte elements)
// where x[i] + y[i] is odd, writing y[i] and x[i] - y[i] (i64): a
// streamed compaction of two arrays.
func compactPair() *Kernel {
	n := Scalar("n", I64)
	x, y, count := Buf("x", I32, n.V()), Buf("y", F32, n.V()), Buf("count", I64, I64C(1))
	dy, dd := Buf("dy", F32, n.V()), Buf("dd", I64, n.V())
	i := NewVar("i", I64)
	xv, yv, flag := NewVar("xv", I32), NewVar("yv", F32), NewVar("flag", I32)
	sum := Bin("+", xv, Conv{To: I32, X: yv})
	body := []Stmt{L(xv, Rd(x, i)), L(yv, Rd(y, i)),
		L(flag, Sel(Bin("==", Bin("%", sum, Int(I32, 2)), Int(I32, 1)), Int(I32, 1), Int(I32, 0)))}
	return &Kernel{Name: "pair", Params: []*Param{n, x, y, dy, dd, count}, Shape: &Scan{
		N: n.V(), I: i, Body: body, Elems: []Exp{flag}, Op: BinLambda("+", I32), Neutral: []Exp{Int(I32, 0)}, Comm: true,
		Keep: &Keep{Vals: []Exp{yv, Conv{To: I64, X: Bin("-", xv, Conv{To: I32, X: yv})}}, Dest: []*Param{dy, dd}, Count: count}}}
}

// TestCompactAsync: the streamed compaction (opencl.FilterAsync; on a
// device without asynchronous copies, forced, with plain copies and work
// item 0's look-back) with 4 to 32 elements per work item, 16-byte
// copies or 4-byte ones, every look-back walking to the first tile or
// not, and the kept values staged in local memory or written where they
// go, keeping one value, one of each type (with 24 and 4 elements a
// work item), or two computed from two arrays, at sizes around its
// tiles' edges, gives the kept values in order and their count; the
// program generated is the streamed one.
func TestCompactAsync(t *testing.T) {
	d0 := device(t)
	if !d0.Caps.Int64Atomics {
		t.Skip("the single pass needs 64-bit atomics")
	}
	defer func(v, k, async int, all, v16, stage bool) {
		opencl.FilterPass, opencl.FilterAsyncK, opencl.FilterAsync, opencl.FilterWalkAll, opencl.FilterAsyncVec, opencl.FilterAsyncStage = v, k, async, all, v16, stage
	}(opencl.FilterPass, opencl.FilterAsyncK, opencl.FilterAsync, opencl.FilterWalkAll, opencl.FilterAsyncVec, opencl.FilterAsyncStage)
	opencl.FilterPass, opencl.FilterAsync = 2, 2
	many := []Type{I32, I64, Bool, U8, I16, U32, F32, F16}
	keeps, kept := compactKeeps, compactKept
	// elements per work item, 16-byte copies, every look-back to the first
	// tile, staged
	for _, c := range []struct {
		k                int
		v16, walk, stage bool
	}{{24, true, false, true}, {4, true, true, false}, {20, false, false, true}, {8, false, true, false}, {32, true, true, true}} {
		opencl.FilterAsyncK, opencl.FilterAsyncVec, opencl.FilterWalkAll, opencl.FilterAsyncStage = c.k, c.v16, c.walk, c.stage
		d, err := OpenDevice(d0.Info, Config{NoCache: true, ScanLookBack: 1})
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("k%d/v%v/w%v/s%v", c.k, c.v16, c.walk, c.stage)
		typeSets := [][]Type{{F32}, many}
		if c.k != 24 && c.k != 4 {
			typeSets = typeSets[:1] // one of each type: the first two only (time on PoCL)
		}
		for _, types := range typeSets {
			for kname, keep := range keeps {
				k := compactTypes("compact", types, keep)
				if p, err := opencl.Generate(k, d.Caps); err != nil || p.KeepAsync != 1 {
					t.Fatalf("%s: the compaction is not the streamed one (%v)", name, err)
				}
				tile := 256 * opencl.AsyncK(1)
				for _, n := range []int{1, 257, tile - 1, tile, tile + 1, 5*tile + 3, 70_001} {
					t.Run(fmt.Sprintf("%s/%d/%s/%d", name, len(types), kname, n), func(t *testing.T) {
						runCompactTypes(t, d, k, types, n, func(x int32, i int) bool { return kept(kname, x, i) })
					})
				}
			}
		}
		// two arrays
		k := compactPair()
		if p, err := opencl.Generate(k, d.Caps); err != nil || p.KeepAsync != 2 {
			t.Fatalf("%s: the pair's compaction is not the streamed one of two arrays (%v)", name, err)
		}
		for _, n := range []int{1, 256 * opencl.AsyncK(2), 256*opencl.AsyncK(2) + 1, 50_003} {
			t.Run(fmt.Sprintf("%s/pair/%d", name, n), func(t *testing.T) {
				x, y := make([]int32, n), make([]float32, n)
				var wy []float32
				var wd []int64
				for i := range x {
					x[i] = int32((i*7919)%1000) - 500
					y[i] = float32((i * 31) % 17)
					if s := x[i] + int32(y[i]); ((s%2)+2)%2 == 1 {
						wy = append(wy, y[i])
						wd = append(wd, int64(x[i]-int32(y[i])))
					}
				}
				ix, iy := up(t, d, I32, x, int64(n)), up(t, d, F32, y, int64(n))
				defer ix.Release()
				defer iy.Release()
				dy, dd, cnt := alloc(t, d, F32, int64(n)), alloc(t, d, I64, int64(n)), alloc(t, d, I64, 1)
				defer dy.Release()
				defer dd.Release()
				defer cnt.Release()
				if err := d.Run(k, int64(n), ix, iy, dy, dd, cnt); err != nil {
					t.Fatal(err)
				}
				if c := down[int64](t, cnt)[0]; c != int64(len(wy)) {
					t.Fatalf("count %d, want %d", c, len(wy))
				}
				gy, gd := down[float32](t, dy), down[int64](t, dd)
				for j := range wy {
					if gy[j] != wy[j] || gd[j] != wd[j] {
						t.Fatalf("kept element %d: (%v, %d), want (%v, %d)", j, gy[j], gd[j], wy[j], wd[j])
					}
				}
			})
		}
		d.Close()
	}
}

// keptWant is element j of the downloaded destination got and what it
// should be, the kept value v converted to got's type.
func keptWant(t *testing.T, got any, j int, v int64) (g, w any) {
	switch gs := got.(type) {
	case []int32:
		return gs[j], int32(v)
	case []int64:
		return gs[j], v
	case []bool:
		return gs[j], v != 0
	case []uint8:
		return gs[j], uint8(v)
	case []int16:
		return gs[j], int16(v)
	case []uint32:
		return gs[j], uint32(v)
	case []float32:
		return gs[j], float32(v)
	case []uint16: // f16 bits
		return gs[j], f16Bits([]float32{float32(v)})[0]
	case []float64:
		return gs[j], float64(v)
	}
	t.Fatalf("a destination downloads as %T", got)
	return nil, nil
}

// runCompactTypes runs compactTypes's kernel k (destinations of types)
// on n elements x[i] = (i·7919 mod 1000) − 500 and checks the count and
// the kept values, those where kept says, in order.
func runCompactTypes(t *testing.T, d *Device, k *Kernel, types []Type, n int, kept func(x int32, i int) bool) {
	t.Helper()
	x := make([]int32, n)
	var want []int
	for i := range x {
		x[i] = int32((i*7919)%1000) - 500
		if kept(x[i], i) {
			want = append(want, i)
		}
	}
	in := up(t, d, I32, x, int64(n))
	defer in.Release()
	args := []any{int64(n), in}
	var outs []*Array
	for _, ty := range types {
		o := alloc(t, d, ty, int64(n))
		defer o.Release()
		outs = append(outs, o)
		args = append(args, o)
	}
	cnt := alloc(t, d, I64, 1)
	defer cnt.Release()
	args = append(args, cnt)
	if err := d.Run(k, args...); err != nil {
		t.Fatal(err)
	}
	if c := down[int64](t, cnt)[0]; c != int64(len(want)) {
		t.Fatalf("count %d, want %d", c, len(want))
	}
	for c, ty := range types {
		got, err := outs[c].Download()
		if err != nil {
			t.Fatal(err)
		}
		for j, i := range want {
			if g, w := keptWant(t, got, j, int64(x[i])); g != w {
				t.Fatalf("%v: kept element %d (x[%d]): %v, want %v", ty, j, i, g, w)
			}
		}
	}
}

// compactKeeps are the conditions of the one-pass compactions' tests:
// none, all, some (x mod 3 = 1) or runs (300 of every 700) of the
// elements kept; compactKept says the same of element i, of value x.
var compactKeeps = map[string]func(x, i Exp) Exp{
	"none": func(x, i Exp) Exp { return Bin("<", x, Int(I32, -1000)) },
	"all":  func(x, i Exp) Exp { return Bin(">=", x, Int(I32, -1000)) },
	"some": func(x, i Exp) Exp { return Bin("==", Bin("%", x, Int(I32, 3)), Int(I32, 1)) },
	"runs": func(x, i Exp) Exp { return Bin("<", Bin("%", i, I64C(700)), I64C(300)) },
}

func compactKept(kname string, x int32, i int) bool {
	switch kname {
	case "all":
		return true
	case "some":
		return ((x%3)+3)%3 == 1
	case "runs":
		return i%700 < 300
	}
	return false
}
