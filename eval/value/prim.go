package value

import (
	"math"
)

// PrimType is a primitive type.
type PrimType uint8

const (
	NoPrim PrimType = iota
	I8
	I16
	I32
	I64
	U8
	U16
	U32
	U64
	F16
	F32
	F64
	Bool
)

var primNames = [...]string{"?", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "f32", "f64", "bool"}

func (t PrimType) String() string {
	if int(t) < len(primNames) {
		return primNames[t]
	}
	return "?"
}

// ParsePrimType maps "i32" etc. to its PrimType (NoPrim if unknown).
func ParsePrimType(s string) PrimType {
	for i, n := range primNames {
		if i > 0 && n == s {
			return PrimType(i)
		}
	}
	return NoPrim
}

func (t PrimType) IsInt() bool      { return t >= I8 && t <= U64 }
func (t PrimType) IsSigned() bool   { return t >= I8 && t <= I64 }
func (t PrimType) IsUnsigned() bool { return t >= U8 && t <= U64 }
func (t PrimType) IsFloat() bool    { return t >= F16 && t <= F64 }

// Bits is the width of t in bits (1 for bool is reported as 8).
func (t PrimType) Bits() int {
	switch t {
	case I8, U8, Bool:
		return 8
	case I16, U16, F16:
		return 16
	case I32, U32, F32:
		return 32
	}
	return 64
}

// Prim is a primitive scalar. B holds the bits: integers sign-extended
// (signed types) or zero-extended (unsigned) to 64 bits, floats as the
// float64 bits of their value (already rounded to the type), bools 0/1.
type Prim struct {
	T PrimType
	B uint64
}

// Int returns an integer-typed p as int64 (the signed view).
func (p Prim) Int() int64 { return int64(p.B) }

// Uint returns the unsigned view of p's bits.
func (p Prim) Uint() uint64 { return p.B }

// Float returns a float-typed p as float64.
func (p Prim) Float() float64 { return math.Float64frombits(p.B) }

// Bool returns a bool p.
func (p Prim) Bool() bool { return p.B != 0 }

// AsInt64 converts any numeric p to int64 (truncating floats); for indices and sizes.
func (p Prim) AsInt64() int64 {
	if p.T.IsFloat() {
		return int64(p.Float())
	}
	return int64(p.B)
}

// MkInt makes an integer of type t from x, wrapping to t's width.
func MkInt(t PrimType, x int64) Prim { return Prim{t, normInt(t, uint64(x))} }

// MkUint is MkInt from unsigned bits.
func MkUint(t PrimType, x uint64) Prim { return Prim{t, normInt(t, x)} }

// MkFloat makes a float of type t from x, rounding to t.
func MkFloat(t PrimType, x float64) Prim { return Prim{t, math.Float64bits(roundFloat(t, x))} }

// MkBool makes a bool.
func MkBool(b bool) Prim {
	if b {
		return Prim{Bool, 1}
	}
	return Prim{Bool, 0}
}

// I32Val etc. are shorthands.
func I32Val(x int32) Prim   { return Prim{I32, uint64(int64(x))} }
func I64Val(x int64) Prim   { return Prim{I64, uint64(x)} }
func F64Val(x float64) Prim { return Prim{F64, math.Float64bits(x)} }
func F32Val(x float32) Prim { return Prim{F32, math.Float64bits(float64(x))} }

func normInt(t PrimType, x uint64) uint64 {
	switch t {
	case I8:
		return uint64(int64(int8(x)))
	case I16:
		return uint64(int64(int16(x)))
	case I32:
		return uint64(int64(int32(x)))
	case U8:
		return uint64(uint8(x))
	case U16:
		return uint64(uint16(x))
	case U32:
		return uint64(uint32(x))
	case Bool:
		if x != 0 {
			return 1
		}
		return 0
	}
	return x
}

func roundFloat(t PrimType, x float64) float64 {
	switch t {
	case F32:
		return float64(float32(x))
	case F16:
		return RoundF16(x)
	}
	return x
}

// RoundF16 rounds x to the nearest IEEE half-precision value (ties to even).
func RoundF16(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
		return x
	}
	a := math.Abs(x)
	var q float64
	if a < 0x1p-14 {
		q = 0x1p-24
	} else {
		_, e := math.Frexp(a) // a in [2^(e-1), 2^e)
		q = math.Ldexp(1, e-1-10)
	}
	r := math.RoundToEven(x/q) * q
	if math.Abs(r) > 65504 {
		return math.Copysign(math.Inf(1), x)
	}
	return r
}

// F16Bits returns the IEEE half bits of x (x already rounded to f16).
func F16Bits(x float64) uint16 {
	var sign uint16
	if math.Signbit(x) {
		sign = 0x8000
	}
	a := math.Abs(x)
	switch {
	case math.IsNaN(x):
		return 0x7e00
	case math.IsInf(x, 0):
		return sign | 0x7c00
	case a == 0:
		return sign
	case a < 0x1p-14:
		return sign | uint16(a/0x1p-24)
	}
	frac, e := math.Frexp(a) // frac in [0.5,1)
	exp := e - 1 + 15
	mant := uint16((frac*2 - 1) * 1024)
	return sign | uint16(exp)<<10 | mant
}

// F16FromBits decodes half bits.
func F16FromBits(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp := int(h>>10) & 0x1f
	mant := float64(h & 0x3ff)
	switch exp {
	case 0:
		return sign * mant * 0x1p-24
	case 0x1f:
		if mant != 0 {
			return math.NaN()
		}
		return sign * math.Inf(1)
	}
	return sign * math.Ldexp(1+mant/1024, exp-15)
}
