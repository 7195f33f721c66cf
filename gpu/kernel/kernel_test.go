package kernel

import (
	"strings"
	"testing"
)

func TestPrint(t *testing.T) {
	n, a := Scalar("n", I64), Scalar("a", F32)
	x, out := Buf("x", F32, n.V()), Buf("out", F32, n.V())
	i, v := NewVar("i", I64), NewVar("v", F32)
	k := &Kernel{Name: "scale", Params: []*Param{n, a, x, out}, Shape: &Map{
		Dims: []Exp{n.V()}, Idx: []Var{i},
		Body: []Stmt{L(v, Bin("*", a.V(), Rd(x, i))), Wr(out, Sel(Bin(">", v, Float(F32, 0)), v, Float(F32, 0)), i)},
	}}
	want := `kernel scale(n: i64, a: f32, x: [n]f32, out: [n]f32)
map (i < n) {
  let v: f32 = (a * x[i])
  out[i] <- ((v > 0f32) ? v : 0f32)
}
`
	if got := k.String(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	r := &Kernel{Name: "sum", Params: []*Param{n, x, out}, Shape: &Reduce{N: n.V(), I: i, Elems: []Exp{Rd(x, i)},
		Op: BinLambda("+", F32), Neutral: []Exp{Float(F32, 0)}, Comm: true, Out: []*Param{out}}}
	if s := r.String(); !strings.Contains(s, "reduce_comm (i < n)") || !strings.Contains(s, `\(op_x) (op_y) -> (op_x + op_y) from 0f32 into out`) {
		t.Fatalf("reduce printed as\n%s", s)
	}
}

func TestConstants(t *testing.T) {
	if c := Int(I8, -1); c.Int64() != -1 || c.Float64() != -1 {
		t.Fatalf("i8 -1: %d %v", c.Int64(), c.Float64())
	}
	if c := Int(U8, 255); c.Int64() != 255 {
		t.Fatalf("u8 255: %d", c.Int64())
	}
	if MaxValue(I16).Int64() != 32767 || MinValue(I16).Int64() != -32768 || MaxValue(U32).Int64() != 1<<32-1 {
		t.Fatal("bounds of types")
	}
	if ParseType("f16") != F16 || ParseType("x") != NoType || F64.Size() != 8 || Bool.Size() != 1 {
		t.Fatal("types")
	}
	if (BinOp{"<", Int(I32, 1), Int(I32, 2)}).Type() != Bool || (UnOp{"popc", Int(U64, 1)}).Type() != I32 {
		t.Fatal("result types")
	}
}

func TestVerify(t *testing.T) {
	n := Scalar("n", I64)
	x := Buf("x", I32, n.V())
	i, a, b := NewVar("i", I64), NewVar("a", I32), NewVar("b", I32)
	mk := func(body ...Stmt) *Kernel {
		return &Kernel{Name: "k", Params: []*Param{n, x}, Shape: &Map{Dims: []Exp{n.V()}, Idx: []Var{i}, Body: body}}
	}
	if err := Verify(mk(L(a, Rd(x, i)), Wr(x, a, i))); err != nil {
		t.Fatal(err)
	}
	other := Buf("y", I32, n.V())
	for name, k := range map[string]*Kernel{
		"unbound":     mk(Wr(x, a, i)),
		"twice":       mk(L(a, Int(I32, 1)), L(a, Int(I32, 2))),
		"rank":        mk(Wr(x, Int(I32, 1), i, i)),
		"foreign buf": mk(Wr(other, Int(I32, 1), i)),
		"loop scope": mk(&Loop{Params: []Var{a}, Init: []Exp{Int(I32, 0)}, I: NewVar("j", I64), N: n.V(),
			Body: []Stmt{L(b, Int(I32, 1))}, Next: []Exp{b}}, Wr(x, b, i)),
		"if arity": mk(&If{Cond: BoolC(true), ThenRes: []Exp{Int(I32, 1)}, Res: []Var{a}}),
	} {
		if err := Verify(k); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TransposeOf recognises out[i, j] <- in[j, i] over [R, C] and nothing
// else.
func TestTransposeOf(t *testing.T) {
	R, C := I64C(3), I64C(5)
	in := Buf("in", F32, C, R)
	out := Buf("out", F32, R, C)
	i, j := Var{"i", I64}, Var{"j", I64}
	mk := func(w Stmt) *Map { return &Map{Dims: []Exp{R, C}, Idx: []Var{i, j}, Body: []Stmt{w}} }
	if o, n, ok := TransposeOf(mk(Wr(out, Rd(in, j, i), i, j))); !ok || o != out || n != in {
		t.Errorf("the transpose is not recognised")
	}
	for name, m := range map[string]*Map{
		"copy":         mk(Wr(out, Rd(Buf("in2", F32, R, C), i, j), i, j)),
		"wrong shape":  mk(Wr(out, Rd(Buf("in3", F32, R, C), j, i), i, j)),
		"other type":   mk(Wr(out, Rd(Buf("in4", F64, C, R), j, i), i, j)),
		"computed":     mk(Wr(out, Bin("+", Rd(in, j, i), Rd(in, j, i)), i, j)),
		"swapped dest": mk(Wr(out, Rd(in, j, i), j, i)),
	} {
		if _, _, ok := TransposeOf(m); ok {
			t.Errorf("%s: taken for a transpose", name)
		}
	}
}
