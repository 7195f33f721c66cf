package session

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"fut/eval/value"
	"fut/interp/ir"
	"fut/interp/lower"
	"fut/interp/syntax"
)

// FuzzPaths is the differential test of the offload path: a generated
// well-typed expression runs on the reference evaluator, through the core
// IR after every pass (the fused path) and, where an OpenCL device exists,
// on the device; the values must agree (floats within a relative 1e-5), an
// error on one path must be an error on the others, and a program the
// lowering refuses must say why. Besides FuzzEval's constructs the
// generator uses the names of fuzzPathsPrelude, which shadow built-in
// ones: operators, a numeric module's name, prelude functions, a
// parametric module, functions passed as values and parameters named like
// prelude functions, with strided and inner slices.

const fuzzPathsPrelude = `
module M = {
  def (+) (a: i32) (b: i32) : i32 = a - b
  def max (a: i32) (b: i32) : i32 = a * b
  def sum (xs: []i32) : i32 = reduce (*) 1 xs
}
module f64 = {
  open f64
  def sqrt (x: f64) : f64 = x + 1
  def log (x: f64) : f64 = x * 3
}
module F (P: {val k: i32}) = {
  def add (x: i32) : i32 = x + P.k
  def (*) (a: i32) (b: i32) : i32 = a + b + P.k
}
module F3 = F { def k = 3i32 }
module F5 = F { def k = 5i32 }
def twice 'a (f: a -> a) (x: a) : a = f (f x)
def apply_op (op: i32 -> i32 -> i32) (x: i32) (y: i32) : i32 = x ` + "`op`" + ` y
def (%%%) (a: i32) (b: i32) : i32 = a * 10 + b
def pick (s: #small i32 | #big i32 i32 | #none) : i32 =
  match s case #small x -> x case #big x y -> x * y case #none -> -1
def compose 'a 'b 'c (f: b -> c) (g: a -> b) (x: a) : c = f (g x)
def adder (k: i32) = \(x: i32) -> x + k
def apply_rec (r: {f: i32 -> i32, g: i32 -> i32}) (x: i32) = r.f (r.g x)
module counter : { type t val mk : i32 -> t val get : t -> i32 } = {
  type t = (i32, i32)
  def mk (x: i32) : t = (x, 1)
  def get ((a, b): t) = a * 10 + b
}
module G (P: {val k: i32}) = {
  module H = F P
  def both (x: i32) : i32 = H.add x + P.k
}
module G7 = G { def k = 7i32 }
def opconst = (%%%)
`

var fuzzPathsSession *Session

func fuzzPathsSess(t testing.TB) *Session {
	if fuzzPathsSession == nil {
		s, err := NewSession(Options{Cost: true, MaxMemory: 64 << 20})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Enter(context.Background(), fuzzPathsPrelude); err != nil {
			t.Fatal(s.FormatError(err))
		}
		fuzzPathsSession = s
	}
	return fuzzPathsSession
}

// shadowed are the constructs of the generator that use fuzzPathsPrelude.
func (g *gen) shadowed(d int) string {
	switch g.pick(22) {
	case 0:
		// the operands outside M.( ), where (+) is the built-in one
		a, b := g.fresh(), g.fresh()
		return fmt.Sprintf("(let %s = %s let %s = %s in M.(%s + %s))", a, g.expr(tI32, d), b, g.expr(tI32, d), a, b)
	case 1:
		return fmt.Sprintf("(reduce M.max 1 %s)", g.expr(tArrI32, d))
	case 2:
		return fmt.Sprintf("(M.sum %s)", g.expr(tArrI32, d))
	case 3:
		return fmt.Sprintf("(i32.f64 (f64.sqrt (f64.log (f64.i32 %s))))", g.expr(tI32, d))
	case 4:
		a, b := g.fresh(), g.fresh()
		return fmt.Sprintf("(let %s = %s let %s = %s in F3.add %s + F5.(%s * %s))", a, g.expr(tI32, d), b, g.expr(tI32, d), g.expr(tI32, d), a, b)
	case 5:
		return fmt.Sprintf("(twice (\\x -> x * 2 + 1) %s)", g.expr(tI32, d))
	case 6:
		ops := []string{"(+)", "(-)", "M.max", "(%%%)", "(\\a b -> F3.(a * b))"}
		return fmt.Sprintf("(apply_op %s %s %s)", ops[g.pick(len(ops))], g.expr(tI32, d), g.expr(tI32, d))
	case 7:
		return fmt.Sprintf("(%s %%%%%% %s)", g.expr(tI32, d), g.expr(tI32, d))
	case 8:
		// the operands outside the scope of the local (+)
		v, w := g.fresh(), g.fresh()
		return fmt.Sprintf("(let %s = %s let %s = %s in let (+) = (*) in %s + %s)", v, g.expr(tI32, d), w, g.expr(tI32, d), v, w)
	case 9:
		return fmt.Sprintf("((\\(map: i32) (reduce: i32) -> map - reduce) %s %s)", g.expr(tI32, d), g.expr(tI32, d))
	case 10:
		return fmt.Sprintf("(pick (if %s then #small %s else if %s then #big %s %s else #none))",
			g.expr(tBool, d), g.expr(tI32, d), g.expr(tBool, d), g.expr(tI32, d), g.expr(tI32, d))
	case 11:
		a := g.fresh()
		return fmt.Sprintf("(let %s = %s in i32.sum %s[::%d] + i32.sum %s[%d::-1])", a, g.expr(tArrI32, d), a, g.pick(3)+1, a, g.pick(3)-1)
	case 12:
		a := g.fresh()
		return fmt.Sprintf("(let %s = %s in i32.sum (flatten %s[:, 1:]) + i32.i64 (length %s[::2]))", a, g.expr(tArr2I32, d), a, a)
	// closures, partial application, records of functions, abstract
	// types, functors applied in functors, local polymorphic functions:
	// what the source stages (interp/lower) take apart
	case 14:
		return fmt.Sprintf("(compose (adder %s) (\\x -> x * %s) %s)", g.expr(tI32, d), g.expr(tI32, d), g.expr(tI32, d))
	case 15:
		return fmt.Sprintf("(counter.get (counter.mk %s))", g.expr(tI32, d))
	case 16:
		return fmt.Sprintf("(G7.both %s)", g.expr(tI32, d))
	case 17:
		return fmt.Sprintf("(apply_rec {f = adder %s, g = (*3)} %s)", g.expr(tI32, d), g.expr(tI32, d))
	case 18:
		p, c := g.fresh(), g.fresh()
		return fmt.Sprintf("(let %s = %s let %s 't (a: t) (b: t) : t = if %s then a else b in %s %s %s + i32.f64 (%s 1.5 2.5))",
			c, g.expr(tBool, d), p, c, p, g.expr(tI32, d), g.expr(tI32, d), p)
	case 19:
		k := g.fresh()
		return fmt.Sprintf("(let %s = %s in map (adder %s) %s |> reduce (+) 0)", k, g.expr(tI32, d), k, g.expr(tArrI32, d))
	case 20:
		f := g.fresh()
		return fmt.Sprintf("(let %s = apply_op opconst %s in %s %s)", f, g.expr(tI32, d), f, g.expr(tI32, d))
	case 21:
		a, k := g.fresh(), g.fresh()
		return fmt.Sprintf("(let %s = %s let %s = %s in i32.sum (map (\\x -> twice (adder %s) x) %s))", a, g.expr(tArrI32, d), k, g.expr(tI32, d), k, a)
	default:
		f := g.fresh()
		// each operator with its neutral element (reduce needs one)
		ops := []string{"(+)", "M.max", "(\\a b -> F5.(a * b))"}
		nes := []string{"0", "1", "(-5)"}
		k := g.pick(len(ops))
		return fmt.Sprintf("(let %s = %s in reduce %s %s %s)", f, ops[k], f, nes[k], g.expr(tArrI32, d))
	}
}

func FuzzPaths(f *testing.F) {
	for c := 0; c < 40; c++ {
		f.Add([]byte{byte(c), byte(c * 7), 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5})
	}
	f.Fuzz(checkPaths)
}

// checkPaths runs the program the bytes generate on every path and
// compares the results (FuzzPaths' body).
func checkPaths(t *testing.T, data []byte) {
	{
		g := &gen{data: data, shadow: true}
		src := g.expr(tI32, 4)
		s := fuzzPathsSess(t)
		ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
		defer cancel()
		want, rerr := s.EvalExpr(ctx, src)
		if rerr != nil {
			var el syntax.ErrorList
			if errors.As(rerr, &el) {
				t.Fatalf("generated program does not check: %s\n%s", src, s.FormatError(rerr))
			}
			if ctx.Err() != nil {
				return
			}
		}
		p, args, err := s.LowerIR(src)
		if err != nil {
			var nl *lower.NotLowered
			if !errors.As(err, &nl) {
				t.Fatalf("lowering %s: %v", src, err)
			}
			if strings.Contains(nl.Reason, "internal error") {
				t.Fatalf("lowering %s: %v", src, err)
			}
			return
		}
		final, _, err := ir.Run(p, "")
		if err != nil {
			t.Fatalf("passes on %s: %v", src, err)
		}
		got, ferr := ir.EvalAll(ctx, final, args)
		if ctx.Err() != nil {
			return
		}
		switch {
		case rerr != nil && ferr == nil:
			t.Fatalf("%s: the reference path fails (%s), the fused path gives %v", src, s.FormatError(rerr), got)
		case rerr == nil && ferr != nil:
			t.Fatalf("%s: the fused path fails (%v), the reference path gives %s", src, ferr, value.String(want.Value))
		case rerr == nil:
			if len(got) != 1 || !samePrim(got[0], want.Value) {
				t.Fatalf("%s: fused %v, reference %s\n%s", src, got, value.String(want.Value), final)
			}
		}
		if _, err := OffloadDevice(); err != nil || rerr != nil {
			return
		}
		r, why, err := s.EvalOn(ctx, BackendOpenCL, src)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			t.Fatalf("%s on OpenCL: %v", src, err)
		}
		if r.RanOn != "interp" && !samePrim(r.Value, want.Value) {
			t.Fatalf("%s: OpenCL %s, reference %s", src, value.String(r.Value), value.String(want.Value))
		}
		_ = why
	}
}

// samePrim compares two scalars, floats within a relative 1e-5.
func samePrim(a, b value.Value) bool {
	x, ok1 := a.(value.Prim)
	y, ok2 := b.(value.Prim)
	if !ok1 || !ok2 || x.T != y.T {
		return false
	}
	if x.T.IsFloat() {
		p, q := x.Float(), y.Float()
		return p == q || math.Abs(p-q) <= 1e-5*math.Max(math.Abs(p), math.Abs(q)) || math.IsNaN(p) && math.IsNaN(q)
	}
	return x == y
}
