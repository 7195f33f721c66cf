package ir

import (
	"math"

	"fut/eval/value"
)

// The chain rule for scalar operations, as value.DualBinary, DualMath1 and
// DualMath2 and the reference evaluator's dual intrinsics define it.

// s is a small builder of scalar expressions over one type.
type sb struct {
	j *jvper
	t Type
}

func (s sb) op(o string, x, y Atom) Atom {
	if x.IsConst() && y.IsConst() {
		if r, err := BinOp(o, x.Val, y.Val); err == nil {
			return C(r)
		}
	}
	t := s.t
	if bop, ok := value.LookupBinOp(o); ok && (bop.IsComparison() || o == "&&" || o == "||") {
		t = Scalar(value.Bool)
	}
	return s.j.let("ad", &BinOpE{Op: o, X: x, Y: y}, t)
}

func (s sb) fn(name string, xs ...Atom) Atom {
	return s.j.let("ad", &UnOpE{Op: name, Args: xs}, s.t)
}

func (s sb) c(f float64) Atom {
	if s.t.Elem.IsFloat() {
		return C(value.MkFloat(s.t.Elem, f))
	}
	return C(value.MkInt(s.t.Elem, int64(f)))
}

// sel is if c then x else y.
func (s sb) sel(c, x, y Atom) Atom {
	if c.IsConst() {
		if c.Val.Bool() {
			return x
		}
		return y
	}
	ie := &IfE{Cond: c, Then: &Body{Res: []Atom{x}}, Else: &Body{Res: []Atom{y}}, Ret: []Type{s.t}}
	return s.j.let("ad", ie, s.t)
}

func (s sb) not(c Atom) Atom {
	return s.j.let("ad", &UnOpE{Op: "not", Args: []Atom{c}}, Scalar(value.Bool))
}

func (j *jvper) binop(p Param, e *BinOpE) {
	bop, ok := value.LookupBinOp(e.Op)
	if !ok {
		bop, ok = extraBinOps[e.Op]
	}
	if !ok || !diff(p.T) || bop.IsComparison() || p.T.Elem == value.Bool {
		return
	}
	if !j.hasTan(e.X) && !j.hasTan(e.Y) {
		return
	}
	t := p.T
	s := sb{j, t}
	x, y := e.X, e.Y
	dx, dy := j.tanOf(x, t), j.tanOf(y, t)
	var d Atom
	switch bop {
	case value.OpAdd:
		d = s.op("+", dx, dy)
	case value.OpSub:
		d = s.op("-", dx, dy)
	case value.OpMul:
		d = s.op("+", s.op("*", dx, y), s.op("*", x, dy))
	case value.OpDiv, value.OpQuot:
		num := s.op("-", s.op("*", dx, y), s.op("*", x, dy))
		den := s.op("*", y, y)
		if t.Elem.IsFloat() {
			d = s.op(e.Op, num, den)
		} else {
			// an integer division that fails gives the zero tangent
			zero := s.op("==", den, s.c(0))
			safe := s.sel(zero, s.c(1), den)
			d = s.sel(zero, s.c(0), s.op(e.Op, num, safe))
		}
	case value.OpPow:
		if t.Elem.IsFloat() {
			// y·x^(y-1)·dx where y ≠ 0 and dx ≠ 0, plus x^y·log x·dy where
			// dy ≠ 0 and x ≠ 0 (so that no NaN comes of a zero factor)
			c1 := s.op("&&", s.op("!=", y, s.c(0)), s.op("!=", dx, s.c(0)))
			t1 := s.sel(c1, s.op("*", s.op("*", y, s.op("**", x, s.op("-", y, s.c(1)))), dx), s.c(0))
			c2 := s.op("&&", s.op("!=", dy, s.c(0)), s.op("!=", x, s.c(0)))
			t2 := s.sel(c2, s.op("*", s.op("*", s.op("**", x, y), s.fn("log", x)), dy), s.c(0))
			d = s.op("+", t1, t2)
		} else {
			ge1 := s.op(">=", y, s.c(1))
			safeY := s.sel(ge1, s.op("-", y, s.c(1)), s.c(0))
			d = s.sel(ge1, s.op("*", s.op("*", y, s.op("**", x, safeY)), dx), s.c(0))
		}
	case value.OpMin, value.OpMax:
		d = s.sel(s.op("==", V(p.Name), x), dx, dy)
	case value.OpMod, value.OpRem:
		d = dx
	default:
		return // bitwise operations: zero
	}
	j.tan[p.Name] = d
}

func (j *jvper) unop(p Param, e *UnOpE) {
	if !diff(p.T) {
		return
	}
	any := false
	for _, a := range e.Args {
		any = any || j.hasTan(a)
	}
	if !any {
		return
	}
	t := p.T
	s := sb{j, t}
	x := e.Args[0]
	dx := j.tanOf(x, t) // the argument's type is the result's here
	r := V(p.Name)
	var d Atom
	switch e.Op {
	case "neg":
		d = s.fn("neg", dx)
	case "abs", "fabs":
		d = s.sel(s.op("<", x, s.c(0)), s.fn("neg", dx), dx)
	case "sgn", "not", "popc", "clz", "ctz", "isnan", "isinf":
		return // functions of the primal only
	case "f16_to_bits", "f32_to_bits", "f64_to_bits", "f16_from_bits", "f32_from_bits", "f64_from_bits":
		d = s.fn(e.Op, dx)
	case "fma", "mad":
		y, z := e.Args[1], e.Args[2]
		dy, dz := j.tanOf(y, t), j.tanOf(z, t)
		d = s.op("+", s.op("+", s.op("*", dx, y), s.op("*", x, dy)), dz)
	case "lerp":
		y, w := e.Args[1], e.Args[2]
		dy, dw := j.tanOf(y, t), j.tanOf(w, t)
		diffv := s.op("-", y, x)
		ddiff := s.op("-", dy, dx)
		d = s.op("+", dx, s.op("+", s.op("*", ddiff, w), s.op("*", diffv, dw)))
	default:
		if len(e.Args) == 1 && t.Elem.IsFloat() {
			d = j.math1(s, e.Op, x, dx, r)
		} else if len(e.Args) == 2 && t.Elem.IsFloat() {
			y := e.Args[1]
			d = j.math2(s, e.Op, x, y, dx, j.tanOf(y, t), r)
		} else {
			adFail("cannot differentiate %s", e.Op)
		}
	}
	j.tan[p.Name] = d
}

func (j *jvper) math1(s sb, name string, x, dx, r Atom) Atom {
	c := s.c
	switch name {
	case "sqrt":
		return s.op("/", dx, s.op("*", c(2), r))
	case "rsqrt":
		return s.fn("neg", s.op("/", dx, s.op("*", s.op("*", c(2), x), s.fn("sqrt", x))))
	case "cbrt":
		return s.op("/", dx, s.op("*", s.op("*", c(3), r), r))
	case "exp", "expm1":
		return s.op("*", dx, s.fn("exp", x))
	case "exp2":
		return s.op("*", s.op("*", dx, s.fn("exp2", x)), c(math.Ln2))
	case "exp10":
		return s.op("*", s.op("*", dx, s.op("**", c(10), x)), c(math.Ln10))
	case "log":
		return s.op("/", dx, x)
	case "log2":
		return s.op("/", dx, s.op("*", x, c(math.Ln2)))
	case "log10":
		return s.op("/", dx, s.op("*", x, c(math.Ln10)))
	case "log1p":
		return s.op("/", dx, s.op("+", c(1), x))
	case "sin":
		return s.op("*", dx, s.fn("cos", x))
	case "cos":
		return s.fn("neg", s.op("*", dx, s.fn("sin", x)))
	case "tan":
		cx := s.fn("cos", x)
		return s.op("/", dx, s.op("*", cx, cx))
	case "asin":
		return s.op("/", dx, s.fn("sqrt", s.op("-", c(1), s.op("*", x, x))))
	case "acos":
		return s.fn("neg", s.op("/", dx, s.fn("sqrt", s.op("-", c(1), s.op("*", x, x)))))
	case "atan":
		return s.op("/", dx, s.op("+", c(1), s.op("*", x, x)))
	case "sinh":
		return s.op("*", dx, s.fn("cosh", x))
	case "cosh":
		return s.op("*", dx, s.fn("sinh", x))
	case "tanh":
		ch := s.fn("cosh", x)
		return s.op("/", dx, s.op("*", ch, ch))
	case "asinh":
		return s.op("/", dx, s.fn("sqrt", s.op("+", s.op("*", x, x), c(1))))
	case "acosh":
		return s.op("/", dx, s.fn("sqrt", s.op("-", s.op("*", x, x), c(1))))
	case "atanh":
		return s.op("/", dx, s.op("-", c(1), s.op("*", x, x)))
	case "erf", "erfc":
		g := s.op("*", s.op("*", dx, c(2/math.Sqrt(math.Pi))), s.fn("exp", s.fn("neg", s.op("*", x, x))))
		if name == "erfc" {
			return s.fn("neg", g)
		}
		return g
	case "sinpi":
		return s.op("*", s.op("*", dx, c(math.Pi)), s.fn("cos", s.op("*", c(math.Pi), x)))
	case "cospi":
		return s.fn("neg", s.op("*", s.op("*", dx, c(math.Pi)), s.fn("sin", s.op("*", c(math.Pi), x))))
	case "lgamma":
		return s.op("*", dx, j.digamma(s, x))
	case "gamma":
		return s.op("*", s.op("*", dx, r), j.digamma(s, x))
	case "round", "floor", "ceil", "trunc", "tanpi", "asinpi", "acospi", "atanpi":
		// round…trunc are piecewise constant; the reference path's rule
		// for tanpi, asinpi, acospi and atanpi is zero too, and the two
		// paths must agree
		return c(0)
	}
	adFail("cannot differentiate %s", name)
	return Atom{}
}

// digamma is ψ(x), as the reference path computes it: x shifted up to 6
// or more by the recurrence, then the asymptotic series.
func (j *jvper) digamma(s sb, x Atom) Atom {
	t := s.t
	xp, rp := Param{j.fresh("dg_x"), t}, Param{j.fresh("dg_r"), t}
	saved := j.out
	j.out = nil
	cond := s.op("<", V(xp.Name), s.c(6))
	while := &Body{Stms: j.out, Res: []Atom{cond}}
	j.out = nil
	nx := s.op("+", V(xp.Name), s.c(1))
	nr := s.op("-", V(rp.Name), s.op("/", s.c(1), V(xp.Name)))
	body := &Body{Stms: j.out, Res: []Atom{nx, nr}}
	j.out = saved
	xs, rs := Param{j.fresh("dg_x"), t}, Param{j.fresh("dg_r"), t}
	j.emit([]Param{xs, rs}, &LoopE{Params: []Param{xp, rp}, Init: []Atom{x, s.c(0)}, While: while, Body: body})
	y, r := V(xs.Name), V(rs.Name)
	f := s.op("/", s.c(1), s.op("*", y, y))
	inner := s.op("-", s.c(1.0/240), s.op("/", f, s.c(132)))
	inner = s.op("-", s.c(1.0/252), s.op("*", f, inner))
	inner = s.op("-", s.c(1.0/120), s.op("*", f, inner))
	inner = s.op("-", s.c(1.0/12), s.op("*", f, inner))
	d := s.op("+", r, s.fn("log", y))
	d = s.op("-", d, s.op("/", s.c(0.5), y))
	return s.op("-", d, s.op("*", f, inner))
}

func (j *jvper) math2(s sb, name string, x, y, dx, dy, r Atom) Atom {
	switch name {
	case "atan2", "atan2pi":
		d := s.op("/", s.op("-", s.op("*", dx, y), s.op("*", x, dy)), s.op("+", s.op("*", x, x), s.op("*", y, y)))
		if name == "atan2pi" {
			d = s.op("/", d, s.c(math.Pi))
		}
		return d
	case "hypot":
		return s.op("/", s.op("+", s.op("*", x, dx), s.op("*", y, dy)), r)
	case "pow":
		// the reference's rule for the function (not the operator **,
		// which guards its terms differently)
		t1 := s.op("*", s.op("*", y, s.fn("pow", x, s.op("-", y, s.c(1)))), dx)
		t2 := s.sel(s.op("!=", dy, s.c(0)), s.op("*", s.op("*", r, s.fn("log", x)), dy), s.c(0))
		return s.op("+", t1, t2)
	case "copysign":
		// -dx when the sign bits differ (copysign 1 v is ±1 by v's sign
		// bit, -0 and NaNs included)
		neg := s.op("!=", s.fn("copysign", s.c(1), x), s.fn("copysign", s.c(1), y))
		return s.sel(neg, s.fn("neg", dx), dx)
	case "fmin", "fmax":
		return s.sel(s.op("==", r, x), dx, dy)
	case "nextafter", "fmod":
		return s.c(0)
	}
	adFail("cannot differentiate %s", name)
	return Atom{}
}
