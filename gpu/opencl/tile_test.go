package opencl

import (
	"strings"
	"testing"

	. "fut/gpu/kernel"
)

// tiledFold is a one-dimensional tiled fold over T of elem(x[i], y[T])
// with op(acc, e), of type ty, and Post post (nil: none).
func tiledFold(ty Type, elem func(a, b Exp) Exp, op func(a, b Exp) Exp, post func(r Exp) Exp) (*Kernel, *Tiled) {
	n, k := Scalar("n", I64), Scalar("k", I64)
	x, y, out := Buf("x", F32, n.V()), Buf("y", F32, k.V()), Buf("out", ty, n.V())
	i, tv := NewVar("i", I64), NewVar("t", I64)
	e := NewVar("e", ty)
	ax, ay := NewVar("a", ty), NewVar("b", ty)
	tl := &Tiled{
		Dims: []Exp{n.V()}, Idx: []Var{i}, K: k.V(), T: tv,
		Body:    []Stmt{&Let{V: e, E: elem(Rd(x, i), Rd(y, tv))}},
		Elems:   []Exp{e},
		Op:      Lambda{X: []Var{ax}, Y: []Var{ay}, Res: []Exp{op(ax, ay)}},
		Neutral: []Exp{Float(ty, 0)},
		Out:     []*Param{out},
		Tiles:   []*Param{y},
	}
	if ty.IsInt() {
		tl.Neutral = []Exp{Int(ty, 0)}
	}
	if post != nil {
		r := NewVar("r", ty)
		tl.PostIn, tl.PostRes = []Var{r}, []Exp{post(r)}
	}
	return &Kernel{Name: "fold", Params: []*Param{n, k, x, y, out}, Shape: tl}, tl
}

// Contraction is allowed in a tiled fold only where no float flows into
// anything but a float by a continuous operation, and the generated fold
// says so.
func TestContractible(t *testing.T) {
	add := func(a, b Exp) Exp { return BinOp{Op: "+", X: a, Y: b} }
	mul := func(a, b Exp) Exp { return BinOp{Op: "*", X: a, Y: b} }
	for _, c := range []struct {
		name string
		ty   Type
		elem func(a, b Exp) Exp
		post func(r Exp) Exp
		want bool
	}{
		{"products", F32, mul, nil, true},
		{"distance", F32, func(a, b Exp) Exp { return Call{Fn: "fabs", Args: []Exp{BinOp{Op: "-", X: a, Y: b}}} }, func(r Exp) Exp { return Call{Fn: "sqrt", Args: []Exp{r}} }, true},
		{"near_count", I32, func(a, b Exp) Exp {
			return Select{C: BinOp{Op: "<", X: BinOp{Op: "-", X: a, Y: b}, Y: Float(F32, 1)}, T: Int(I32, 1), F: Int(I32, 0)}
		}, nil, false},
		{"clamped", F32, func(a, b Exp) Exp {
			d := BinOp{Op: "*", X: a, Y: b}
			return Select{C: BinOp{Op: "<", X: d, Y: Float(F32, 1)}, T: d, F: Float(F32, 1)}
		}, nil, false},
		{"floored", F32, func(a, b Exp) Exp { return Call{Fn: "floor", Args: []Exp{BinOp{Op: "*", X: a, Y: b}}} }, nil, false},
		{"post_rounds", F32, mul, func(r Exp) Exp { return Conv{To: F32, X: Conv{To: I32, X: r}} }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			k, tl := tiledFold(c.ty, c.elem, add, c.post)
			ts := []Type{c.ty}
			if got := contractible(tl, ts); got != c.want {
				t.Fatalf("contractible = %v, want %v", got, c.want)
			}
			p, err := Generate(k, Caps{})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(p.Source, "FP_CONTRACT ON"); got != c.want {
				t.Errorf("source contracts: %v, want %v", got, c.want)
			}
		})
	}
}
