package opencl

import (
	"fmt"
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

// matmulFold is a two-dimensional tiled product of a (n×k) and b (k×m)
// of ty, its accumulators of type acc (a pair where acc has two).
func matmulFold(ty Type, pair bool) (*Kernel, *Tiled) {
	n, m, k := Scalar("n", I64), Scalar("m", I64), Scalar("k", I64)
	a, b := Buf("a", ty, n.V(), k.V()), Buf("b", ty, k.V(), m.V())
	out, out2 := Buf("out", ty, n.V(), m.V()), Buf("out2", ty, n.V(), m.V())
	i, j, t := NewVar("i", I64), NewVar("j", I64), NewVar("t", I64)
	e := NewVar("e", ty)
	tl := &Tiled{
		Dims: []Exp{n.V(), m.V()}, Idx: []Var{i, j}, K: k.V(), T: t,
		Body:    []Stmt{&Let{V: e, E: Bin("*", Rd(a, i, t), Rd(b, t, j))}},
		Elems:   []Exp{e},
		Op:      BinLambda("+", ty),
		Neutral: []Exp{Int(ty, 0)},
		Out:     []*Param{out},
		Tiles:   []*Param{a, b},
	}
	ps := []*Param{n, m, k, a, b, out}
	if pair {
		x1, x2, y1, y2 := NewVar("x1", ty), NewVar("x2", ty), NewVar("y1", ty), NewVar("y2", ty)
		tl.Elems = []Exp{e, e}
		tl.Op = Lambda{X: []Var{x1, x2}, Y: []Var{y1, y2}, Res: []Exp{Bin("+", x1, y1), Bin("max", x2, y2)}}
		tl.Neutral = []Exp{Int(ty, 0), Int(ty, 0)}
		tl.Out = []*Param{out, out2}
		ps = append(ps, out2)
	}
	return &Kernel{Name: "mm", Params: ps, Shape: tl}, tl
}

// TestTileCandidates: every candidate of a kernel generates, with its
// own sizes in the program (the group its source requires, its local
// memory counted), names itself as ParseTile reads it, and is of the
// kernel's form; the default comes first and none is repeated.
func TestTileCandidates(t *testing.T) {
	t.Setenv("FUT_TILE_REG", "")
	k1, t1 := tiledFold(F32, func(a, b Exp) Exp { return Bin("*", a, b) }, func(a, b Exp) Exp { return Bin("+", a, b) }, nil)
	k2, t2 := matmulFold(F32, false)
	k3, t3 := matmulFold(I64, true)
	for _, c := range []struct {
		k    *Kernel
		tl   *Tiled
		want TileConfig // the default
	}{
		{k1, t1, TileConfig{Threads: TileGroup}},
		{k2, t2, TileConfig{Threads: 16, RegY: 8, RegX: 8, Step: 16}},
		{k3, t3, TileConfig{Threads: 16, RegY: 4, RegX: 4, Step: 16}},
	} {
		cands := TileCandidates(c.tl)
		if len(cands) < 4 || len(cands) > maxTileCandidates || cands[0] != c.want || DefaultTile(c.tl) != c.want {
			t.Errorf("%s: candidates %v, default %v", c.k.Name, cands, DefaultTile(c.tl))
		}
		seen := map[TileConfig]bool{}
		for _, tc := range cands {
			if seen[tc] || !tc.Fits(c.tl) {
				t.Errorf("%v repeated or not of the kernel's form", tc)
			}
			seen[tc] = true
			if back, err := ParseTile(tc.String()); err != nil || back != tc {
				t.Errorf("%v: ParseTile(%q) = %v, %v", tc, tc.String(), back, err)
			}
			p, err := GenerateTile(c.k, Caps{}, tc)
			if err != nil {
				t.Fatalf("%v: %v", tc, err)
			}
			if p.Tile != tc || p.TileLocal <= 0 || !strings.Contains(p.Source, fmt.Sprintf("reqd_work_group_size(%d, 1, 1)", tc.Group())) {
				t.Errorf("%v: program of %v, %d bytes of local memory", tc, p.Tile, p.TileLocal)
			}
		}
	}
	// the local memory of the default product of f32: two tiles of 16
	// steps of 128 points padded by 4
	if p, err := Generate(k2, Caps{}); err != nil || p.TileLocal != 2*16*132*4 {
		t.Errorf("default product: %d bytes of local memory (%v)", p.TileLocal, err)
	}
	t.Setenv("FUT_TILE_REG", "2")
	if p, err := Generate(k2, Caps{}); err != nil || p.Tile != (TileConfig{Threads: 16, RegY: 2, RegX: 2, Step: 16}) {
		t.Errorf("FUT_TILE_REG=2: %v (%v)", p.Tile, err)
	}
	if _, err := GenerateTile(k1, Caps{}, TileConfig{Threads: 16, RegY: 8, RegX: 8, Step: 16}); err == nil {
		t.Errorf("two-dimensional sizes for a kernel of one dimension generated")
	}
	for _, bad := range []string{"", "t16", "t16r8x8", "t15r8x8k16", "t16r9x8k16", "t16r8x8k0", "g100", "g256m9", "g2048", "x", "t16r8x8k16z"} {
		if _, err := ParseTile(bad); err == nil {
			t.Errorf("ParseTile(%q) accepted", bad)
		}
	}
}
