package runtime

import (
	"fmt"
	"testing"

	. "fut/gpu/kernel"
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
		paths = append(paths, struct {
			name string
			cfg  Config
			want string
		}{"look_back", Config{NoCache: true, ScanLookBack: 1}, "compact_scanlb"})
	}
	keeps := map[string]func(x, i Exp) Exp{
		"none": func(x, i Exp) Exp { return Bin("<", x, Int(I32, -1000)) },
		"all":  func(x, i Exp) Exp { return Bin(">=", x, Int(I32, -1000)) },
		"some": func(x, i Exp) Exp { return Bin("==", Bin("%", x, Int(I32, 3)), Int(I32, 1)) },
	}
	for _, p := range paths {
		d, err := OpenDevice(d0.Info, p.cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, ft := range []Type{I32, I64} {
			for kname, keep := range keeps {
				if ft == I64 && p.name == "look_back" {
					continue // the single pass takes flags of 32 bits
				}
				k := compactKernel(ft, keep)
				for _, n := range []int{0, 1, 2047, 2048, 2049, 300_001} {
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
