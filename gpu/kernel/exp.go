package kernel

import "math"

// Exp is a scalar expression.
type Exp interface{ Type() Type }

// Var is a variable: a scalar parameter, a Let, a loop parameter or index,
// an If result, or a shape's index.
type Var struct {
	Name string
	T    Type
}

// Const is a constant; Bits holds integers (two's complement) and bools
// (0/1), F holds floats.
type Const struct {
	T    Type
	Bits uint64
	F    float64
}

// BinOp is a binary operator, named as in Futhark: + - * / % // %% **
// min max == != < <= > >= & | ^ << >> >>> && ||.
type BinOp struct {
	Op   string
	X, Y Exp
}

// UnOp is a unary operator: "neg", "!" (not, or complement on integers),
// "abs", "sgn", "popc", "clz", "ctz" (the last three give i32).
type UnOp struct {
	Op string
	X  Exp
}

// Conv converts X to To with Futhark's rules (floats truncate toward zero,
// NaN and infinities give 0, integers wrap).
type Conv struct {
	To Type
	X  Exp
}

// Call is a math function on floats: sqrt exp exp2 log log2 log10 sin cos
// tan asin acos atan sinh cosh tanh asinh acosh atanh atan2 pow hypot
// floor ceil trunc round (half to even) fma cbrt erf erfc lgamma gamma
// copysign log1p expm1 exp10 rsqrt sinpi cospi tanpi asinpi acospi atanpi
// atan2pi nextafter fmin fmax fmod fabs mad, isnan isinf (bool), to_bits
// (unsigned of the same width), from_bits (Res gives the float type), and
// mul_hi on integers.
type Call struct {
	Fn   string
	Args []Exp
	Res  Type // result type; NoType means the first argument's type
}

// Select is c ? t : f (both arms evaluated).
type Select struct{ C, T, F Exp }

// Read is Buf[Idx…], bounds-checked.
type Read struct {
	Buf *Param
	Idx []Exp
}

func (v Var) Type() Type   { return v.T }
func (c Const) Type() Type { return c.T }
func (b BinOp) Type() Type {
	switch b.Op {
	case "==", "!=", "<", "<=", ">", ">=":
		return Bool
	}
	return b.X.Type()
}
func (u UnOp) Type() Type {
	switch u.Op {
	case "popc", "clz", "ctz":
		return I32
	}
	return u.X.Type()
}
func (c Conv) Type() Type { return c.To }
func (c Call) Type() Type {
	switch c.Fn {
	case "isnan", "isinf":
		return Bool
	case "to_bits":
		if c.Res != NoType { // U16 of an f16 held in an f32
			return c.Res
		}
		switch c.Args[0].Type() {
		case F16:
			return U16
		case F32:
			return U32
		}
		return U64
	}
	if c.Res != NoType {
		return c.Res
	}
	return c.Args[0].Type()
}
func (s Select) Type() Type { return s.T.Type() }
func (r Read) Type() Type   { return r.Buf.T }

// Int is an integer constant of type t (wrapped to its width).
func Int(t Type, v int64) Const { return Const{T: t, Bits: uint64(v)} }

// Float is a float constant of type t.
func Float(t Type, f float64) Const { return Const{T: t, F: f} }

// BoolC is a bool constant.
func BoolC(b bool) Const {
	if b {
		return Const{T: Bool, Bits: 1}
	}
	return Const{T: Bool}
}

// I64 is an i64 constant.
func I64C(v int64) Const { return Int(I64, v) }

// Float64 is the constant's value as a float64 (for any type).
func (c Const) Float64() float64 {
	switch {
	case c.T.IsFloat():
		return c.F
	case c.T.IsSigned():
		return float64(c.Int64())
	}
	return float64(c.Bits)
}

// Int64 is the constant's integer value, sign-extended from its width.
func (c Const) Int64() int64 {
	w := uint(c.T.Bits())
	if w >= 64 {
		return int64(c.Bits)
	}
	x := c.Bits & (1<<w - 1)
	if c.T.IsSigned() && x>>(w-1) == 1 {
		return int64(x) - int64(1)<<w
	}
	return int64(x)
}

// Min and Max constants of a type (neutral elements of max and min).
func MinValue(t Type) Const {
	switch {
	case t.IsFloat():
		return Float(t, math.Inf(-1))
	case t.IsSigned():
		return Int(t, -1<<(t.Bits()-1))
	case t == Bool:
		return BoolC(false)
	}
	return Int(t, 0)
}

// MaxValue is the largest value of t (+inf for floats).
func MaxValue(t Type) Const {
	switch {
	case t.IsFloat():
		return Float(t, math.Inf(1))
	case t.IsSigned():
		return Int(t, 1<<(t.Bits()-1)-1)
	case t == Bool:
		return BoolC(true)
	}
	if t == U64 {
		return Const{T: t, Bits: math.MaxUint64}
	}
	return Int(t, 1<<t.Bits()-1)
}

// Stmt is a statement of a body.
type Stmt interface{ stmt() }

// Let binds V to E. Site (as in Write and Assert) is the statement's
// source position, a number in the kernel's Sites (0: none): an error the
// statement raises (a read out of bounds, a division by zero) names it.
type Let struct {
	V    Var
	E    Exp
	Site int
}

// Write stores V at Buf[Idx…], bounds-checked.
type Write struct {
	Buf  *Param
	Idx  []Exp
	V    Exp
	Site int
}

// Assert sets the kernel's error flag when Cond is false: a check of the
// source (assert, a size coercion, a slice's bounds). With Idx set it is
// a bounds check of the source's indices Idx (the first len(Idx)
// dimensions) in an array of the dimensions Shape (of kind ErrBounds,
// reporting both, as the reference path reports an index out of bounds);
// otherwise of kind ErrAssert.
type Assert struct {
	Cond       Exp
	Idx, Shape []Exp
	Site       int
}

// Site is a source position of a kernel's statements: Where as
// file:line:col, the message of a failed check (Msg; "" where the error's
// kind says what failed) and, for an index of the source, how many
// indices it has (Rank): a read out of bounds reports the last Rank of the
// buffer's indices and dimensions (the others fix the row the source's
// array is, in a buffer of several).
type Site struct {
	Where, Msg string
	Rank       int
}

// Stamp sets the site of the statements of ss (nested ones included)
// that have none.
func Stamp(ss []Stmt, site int) {
	for _, s := range ss {
		switch s := s.(type) {
		case *Let:
			if s.Site == 0 {
				s.Site = site
			}
		case *Write:
			if s.Site == 0 {
				s.Site = site
			}
		case *Assert:
			if s.Site == 0 {
				s.Site = site
			}
		case *If:
			Stamp(s.Then, site)
			Stamp(s.Else, site)
		case *Loop:
			Stamp(s.Body, site)
		}
	}
}

// If binds Res to ThenRes or ElseRes.
type If struct {
	Cond             Exp
	Then, Else       []Stmt
	ThenRes, ElseRes []Exp
	Res              []Var
}

// Loop is a sequential loop: Params start at Init and become Next after
// each iteration; I (i64) counts from 0 to N-1. With While set, the loop
// instead runs while While (over Params) holds, and N and I are unused.
// After the loop, Params hold their final values.
type Loop struct {
	Params []Var
	Init   []Exp
	I      Var
	N      Exp
	While  Exp
	Body   []Stmt
	Next   []Exp
}

func (*Let) stmt()    {}
func (*Write) stmt()  {}
func (*Assert) stmt() {}
func (*If) stmt()     {}
func (*Loop) stmt()   {}

// Convenience constructors for building kernels by hand.

// Bin is BinOp{op, x, y}.
func Bin(op string, x, y Exp) BinOp { return BinOp{op, x, y} }

// Rd is a read.
func Rd(p *Param, idx ...Exp) Read { return Read{p, idx} }

// Wr is a write statement.
func Wr(p *Param, v Exp, idx ...Exp) *Write { return &Write{Buf: p, Idx: idx, V: v} }

// L is a Let statement.
func L(v Var, e Exp) *Let { return &Let{V: v, E: e} }

// BinLambda is the lambda x op y on one component of type t.
func BinLambda(op string, t Type) Lambda {
	x, y := Var{"op_x", t}, Var{"op_y", t}
	return Lambda{X: []Var{x}, Y: []Var{y}, Res: []Exp{Bin(op, x, y)}}
}

// NewVar is Var{name, t}.
func NewVar(name string, t Type) Var { return Var{Name: name, T: t} }

// Cv is the conversion of x to t.
func Cv(t Type, x Exp) Conv { return Conv{To: t, X: x} }

// Sel is c ? t : f.
func Sel(c, t, f Exp) Select { return Select{C: c, T: t, F: f} }
