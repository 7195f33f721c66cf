package kernel

import (
	"strings"
	"testing"
)

// escapeLoop is mandelbrot's loop as flattening writes it: the body
// squares zr and zi, and the condition of the next iteration (inside an
// if, for its &&) squares their next values.
func escapeLoop(op string) *Loop {
	f := func(n string) Var { return NewVar(n, F32) }
	zr, zi, k, cont := f("zr"), f("zi"), NewVar("k", I32), NewVar("cont", Bool)
	cr, ci := f("cr"), f("ci")
	sq, sq2 := f("sq"), f("sq2")
	nzr, nzi, nk, lt := f("nzr"), f("nzi"), NewVar("nk", I32), NewVar("lt", Bool)
	a, b, s, le, c := f("a"), f("b"), f("s"), NewVar("le", Bool), NewVar("c", Bool)
	zero := Const{T: F32}
	return &Loop{
		Params: []Var{zr, zi, k, cont},
		Init:   []Exp{zero, zero, Const{T: I32}, Const{T: Bool, Bits: 1}},
		While:  cont,
		Body: []Stmt{
			L(sq, Bin(op, zr, zr)),
			L(sq2, Bin(op, zi, zi)),
			L(nzr, Bin("+", Bin("-", sq, sq2), cr)),
			L(nzi, Bin("+", Bin("*", Bin("*", Const{T: F32, F: 2}, zr), zi), ci)),
			L(nk, Bin("+", k, Const{T: I32, Bits: 1})),
			L(lt, Bin("<", nk, Const{T: I32, Bits: 255})),
			&If{Cond: lt, Then: []Stmt{
				L(a, Bin(op, nzr, nzr)),
				L(b, Bin(op, nzi, nzi)),
				L(s, Bin("+", a, b)),
				L(le, Bin("<=", s, Const{T: F32, F: 4})),
			}, ThenRes: []Exp{le}, ElseRes: []Exp{Const{T: Bool}}, Res: []Var{c}},
		},
		Next: []Exp{nzr, nzi, nk, c},
	}
}

// TestCarry: the squares of the parameters become parameters of the
// loop, computed once an iteration of the next values (where the
// condition computed them, which now reads them); an operation that can
// fail is not carried, and a loop with nothing to carry is left as it is.
func TestCarry(t *testing.T) {
	l := escapeLoop("*")
	c := Carry(l)
	if c == l || len(c.Params) != 6 || len(c.Init) != 6 || len(c.Next) != 6 {
		t.Fatalf("nothing carried: %d parameters", len(c.Params))
	}
	var sqs, reads int
	var visit func(ss []Stmt)
	visit = func(ss []Stmt) {
		for _, s := range ss {
			switch s := s.(type) {
			case *Let:
				if b, ok := s.E.(BinOp); ok && b.Op == "*" {
					if x, ok := b.X.(Var); ok && x == b.Y {
						sqs++
					}
				}
				if v, ok := s.E.(Var); ok && strings.HasSuffix(v.Name, "_next") {
					reads++
				}
			case *If:
				visit(s.Then)
				visit(s.Else)
			}
		}
	}
	visit(c.Body)
	if sqs != 2 || reads != 2 {
		t.Errorf("%d squares in the body (want 2, of the next values), %d reads of them (want 2)", sqs, reads)
	}
	if b, ok := c.Init[4].(BinOp); !ok || b.Op != "*" || b.X != l.Init[0] {
		t.Errorf("initial value of the carried square: %v", c.Init[4])
	}
	if len(l.Params) != 4 || len(l.Body) != 7 {
		t.Errorf("Carry changed the loop it was given")
	}
	if d := escapeLoop("/"); Carry(d) != d {
		t.Errorf("a division carried")
	}
	n := escapeLoop("*")
	n.Init[0] = Bin("+", NewVar("x", F32), Const{T: F32, F: 1})
	if c := Carry(n); len(c.Params) != 5 {
		t.Errorf("%d parameters: the square of a parameter with an initial value that is not a constant carried", len(c.Params))
	}
	// a variable as the initial value (rosettacode's loop (c, i) = (c0, 0)):
	// nothing of it carried (isConst says why)
	v := escapeLoop("*")
	v.Init[0], v.Init[1] = NewVar("cr", F32), NewVar("ci", F32)
	if c := Carry(v); c != v {
		t.Errorf("%d parameters: a square of parameters whose initial values are variables carried", len(c.Params))
	}
}
