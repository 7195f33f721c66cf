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
