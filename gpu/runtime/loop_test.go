package runtime

import (
	"testing"

	. "fut/gpu/kernel"
)

// collatz: steps(i) = number of steps of the Collatz map from i+1 to 1,
// and a for loop summing the first (i % 50) odd numbers; If and both loop forms.
func TestLoopsAndIf(t *testing.T) {
	d := device(t)
	np := Scalar("n", I64)
	steps, sums := Buf("steps", I32, np.V()), Buf("sums", I64, np.V())
	i := NewVar("i", I64)
	x, c := NewVar("x", I64), NewVar("c", I32)
	even, nx := NewVar("even", Bool), NewVar("nx", I64)
	acc, j := NewVar("acc", I64), NewVar("j", I64)
	body := []Stmt{
		&Loop{Params: []Var{x, c}, Init: []Exp{Bin("+", i, I64C(1)), Int(I32, 0)},
			While: Bin("!=", x, I64C(1)),
			Body: []Stmt{
				L(even, Bin("==", Bin("%", x, I64C(2)), I64C(0))),
				&If{Cond: even, ThenRes: []Exp{Bin("/", x, I64C(2))}, ElseRes: []Exp{Bin("+", Bin("*", x, I64C(3)), I64C(1))}, Res: []Var{nx}},
			},
			Next: []Exp{nx, Bin("+", c, Int(I32, 1))}},
		Wr(steps, c, i),
		&Loop{Params: []Var{acc}, Init: []Exp{I64C(0)}, I: j, N: Bin("%", i, I64C(50)),
			Next: []Exp{Bin("+", acc, Bin("+", Bin("*", I64C(2), j), I64C(1)))}},
		Wr(sums, acc, i),
	}
	k := &Kernel{Name: "loops", Params: []*Param{np, steps, sums}, Shape: &Map{Dims: []Exp{np.V()}, Idx: []Var{i}, Body: body}}
	const n = 10_000
	as, am := alloc(t, d, I32, n), alloc(t, d, I64, n)
	if err := d.Run(k, int64(n), as, am); err != nil {
		t.Fatalf("%v\n%s", err, k)
	}
	gs, gm := down[int32](t, as), down[int64](t, am)
	for q := 0; q < n; q++ {
		v, cnt := int64(q+1), int32(0)
		for v != 1 {
			if v%2 == 0 {
				v /= 2
			} else {
				v = 3*v + 1
			}
			cnt++
		}
		m := int64(q % 50)
		if gs[q] != cnt || gm[q] != m*m {
			t.Fatalf("i=%d: steps %d (want %d), sum %d (want %d)", q, gs[q], cnt, gm[q], m*m)
		}
	}
}

// TestCountedLoops runs escape-time loops, whose condition tests a
// counter against a bound and then a value: counters of i32 and i64
// from below, at and beyond their bound, bounds negative and positive,
// a constant bound and one given as an argument. Each loop runs
// z ↦ (5z + 3) mod 1000003 while k+1 < c and z mod 7 ≠ 0.
func TestCountedLoops(t *testing.T) {
	d := device(t)
	for _, ct := range []Type{I32, I64} {
		for _, constBound := range []bool{false, true} {
			for _, bound := range []int64{-5, 0, 3, 40, 255} {
				if constBound && bound != 40 {
					continue
				}
				np, cp := Scalar("n", I64), Scalar("c", ct)
				ks, zs := Buf("ks", ct, np.V()), Buf("zs", I64, np.V())
				i := NewVar("i", I64)
				z, k, cont := NewVar("z", I64), NewVar("k", ct), NewVar("cont", Bool)
				z1, k1, lt, odd, c1 := NewVar("z1", I64), NewVar("k1", ct), NewVar("lt", Bool), NewVar("odd", Bool), NewVar("c1", Bool)
				var c Exp = cp.V()
				if constBound {
					c = Int(ct, bound)
				}
				// k starts at c - (i mod 13) + 2: above, at and below the bound
				k0 := Bin("+", Bin("-", c, Cv(ct, Bin("%", i, I64C(13)))), Int(ct, 2))
				body := []Stmt{
					&Loop{Params: []Var{z, k, cont}, Init: []Exp{i, k0, Bin("<", k0, c)},
						While: cont,
						Body: []Stmt{
							L(z1, Bin("%", Bin("+", Bin("*", z, I64C(5)), I64C(3)), I64C(1000003))),
							L(k1, Bin("+", k, Int(ct, 1))),
							L(lt, Bin("<", k1, c)),
							&If{Cond: lt,
								Then:    []Stmt{L(odd, Bin("!=", Bin("%", z1, I64C(7)), I64C(0)))},
								ThenRes: []Exp{odd}, ElseRes: []Exp{BoolC(false)}, Res: []Var{c1}},
						},
						Next: []Exp{z1, k1, c1}},
					Wr(ks, k, i),
					Wr(zs, z, i),
				}
				kn := &Kernel{Name: "counted", Params: []*Param{np, cp, ks, zs}, Shape: &Map{Dims: []Exp{np.V()}, Idx: []Var{i}, Body: body}}
				const n = 5000
				ak, az := alloc(t, d, ct, n), alloc(t, d, I64, n)
				var carg any = int64(bound)
				if ct == I32 {
					carg = int32(bound)
				}
				if err := d.Run(kn, int64(n), carg, ak, az); err != nil {
					t.Fatalf("%v\n%s", err, kn)
				}
				gz := down[int64](t, az)
				var gk []int64
				if ct == I32 {
					for _, v := range down[int32](t, ak) {
						gk = append(gk, int64(v))
					}
				} else {
					gk = down[int64](t, ak)
				}
				for q := range int64(n) {
					zz, kk := q, bound-q%13+2
					for more := kk < bound; more; {
						zz = (zz*5 + 3) % 1000003
						kk++
						more = kk < bound && zz%7 != 0
					}
					if gk[q] != kk || gz[q] != zz {
						t.Fatalf("%v bound %d (constant %v), i=%d: k %d z %d, want k %d z %d", ct, bound, constBound, q, gk[q], gz[q], kk, zz)
					}
				}
				ak.Release()
				az.Release()
			}
		}
	}
}
