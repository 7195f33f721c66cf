//go:build ignore

// gen_math writes ints.fut, uints.fut and floats.fut: the numeric modules i8 … u64
// and f16 … f64. They differ only in their type, their limits and a few
// words of documentation, so they are generated from the tables below
// rather than kept by hand in eleven copies.
//
// Run it from this directory with `go generate` (see prelude.go).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A def is one definition of a module. In doc, head and body, $t stands
// for the module's type, $b for its number of bits, $u for the unsigned
// integer type of the same width (floats only), and $hi, $lo for its limits.
type def struct {
	doc  string
	head string // everything between `def ` and ` =`
	body string
}

var intDefs = []def{
	{"Addition, wrapping around on overflow.", "(+) (x: $t) (y: $t) : $t", "intrinsics.add x y"},
	{"Subtraction, wrapping around on overflow.", "(-) (x: $t) (y: $t) : $t", "intrinsics.sub x y"},
	{"Multiplication, wrapping around on overflow.", "(*) (x: $t) (y: $t) : $t", "intrinsics.mul x y"},
	{"$div", "(/) (x: $t) (y: $t) : $t", "intrinsics.div x y"},
	{"$mod", "(%) (x: $t) (y: $t) : $t", "intrinsics.mod x y"},
	{"x to the power y (y must not be negative).", "(**) (x: $t) (y: $t) : $t", "intrinsics.pow x y"},
	{"Division rounding towards zero; an error when y is 0.", "(//) (x: $t) (y: $t) : $t", "intrinsics.quot x y"},
	{"The remainder of `//`, with the sign of x; an error when y is 0.", "(%%) (x: $t) (y: $t) : $t", "intrinsics.rem x y"},
	{"Bitwise and.", "(&) (x: $t) (y: $t) : $t", "intrinsics.and x y"},
	{"Bitwise or.", "(|) (x: $t) (y: $t) : $t", "intrinsics.or x y"},
	{"Bitwise exclusive or.", "(^) (x: $t) (y: $t) : $t", "intrinsics.xor x y"},
	{"Bitwise complement.", "not (x: $t) : $t", "intrinsics.complement x"},
	{"Shift left by y bits.", "(<<) (x: $t) (y: $t) : $t", "intrinsics.shl x y"},
	{"$shr", "(>>) (x: $t) (y: $t) : $t", "intrinsics.shr x y"},
	{"Logical shift right by y bits (zeroes shifted in).", "(>>>) (x: $t) (y: $t) : $t", "intrinsics.lshr x y"},

	{"Convert an i8 to $t.", "i8 (x: i8) : $t", "intrinsics.to_$t x"},
	{"Convert an i16 to $t.", "i16 (x: i16) : $t", "intrinsics.to_$t x"},
	{"Convert an i32 to $t.", "i32 (x: i32) : $t", "intrinsics.to_$t x"},
	{"Convert an i64 to $t.", "i64 (x: i64) : $t", "intrinsics.to_$t x"},
	{"Convert a u8 to $t.", "u8 (x: u8) : $t", "intrinsics.to_$t x"},
	{"Convert a u16 to $t.", "u16 (x: u16) : $t", "intrinsics.to_$t x"},
	{"Convert a u32 to $t.", "u32 (x: u32) : $t", "intrinsics.to_$t x"},
	{"Convert a u64 to $t.", "u64 (x: u64) : $t", "intrinsics.to_$t x"},
	{"Convert an f16 to $t, truncating towards zero.", "f16 (x: f16) : $t", "intrinsics.to_$t x"},
	{"Convert an f32 to $t, truncating towards zero.", "f32 (x: f32) : $t", "intrinsics.to_$t x"},
	{"Convert an f64 to $t, truncating towards zero.", "f64 (x: f64) : $t", "intrinsics.to_$t x"},
	{"1 for true, 0 for false.", "bool (x: bool) : $t", "intrinsics.to_$t x"},
	{"Convert to i32.", "to_i32 (x: $t) : i32", "intrinsics.to_i32 x"},
	{"Convert to i64.", "to_i64 (x: $t) : i64", "intrinsics.to_i64 x"},

	{"Equality.", "(==) (x: $t) (y: $t) : bool", "intrinsics.eq x y"},
	{"Less than.", "(<) (x: $t) (y: $t) : bool", "intrinsics.lt x y"},
	{"Greater than.", "(>) (x: $t) (y: $t) : bool", "intrinsics.gt x y"},
	{"Less than or equal.", "(<=) (x: $t) (y: $t) : bool", "intrinsics.le x y"},
	{"Greater than or equal.", "(>=) (x: $t) (y: $t) : bool", "intrinsics.ge x y"},
	{"Inequality.", "(!=) (x: $t) (y: $t) : bool", "intrinsics.neq x y"},

	{"The sign of x: -1, 0 or 1 (0 or 1 for unsigned types).", "sgn (x: $t) : $t", "intrinsics.signum x"},
	{"$abs", "abs (x: $t) : $t", "intrinsics.abs x"},
	{"Negation, wrapping around on overflow.", "neg (x: $t) : $t", "intrinsics.neg x"},
	{"The larger of x and y.", "max (x: $t) (y: $t) : $t", "intrinsics.max x y"},
	{"The smaller of x and y.", "min (x: $t) (y: $t) : $t", "intrinsics.min x y"},
	{"The largest value of the type, $hi.", "highest : $t", "$hival"},
	{"The smallest value of the type, $lo.", "lowest : $t", "$loval"},

	{"The number of bits in a value of the type.", "num_bits : i32", "$b"},
	{"Bit number `bit` of x (0 the least significant), as 0 or 1. Work 5, depth 5.", "get_bit (bit: i32) (x: $t) : i32", "intrinsics.to_i32 (intrinsics.and (intrinsics.lshr x (intrinsics.to_$t bit)) 1)"},
	{"x with bit number `bit` set to b (0 or 1). Work 9, depth 9.", "set_bit (bit: i32) (x: $t) (b: i32) : $t", "intrinsics.or (intrinsics.and x (intrinsics.complement (intrinsics.shl 1 (intrinsics.to_$t bit)))) (intrinsics.shl (intrinsics.to_$t b) (intrinsics.to_$t bit))"},
	{"The number of bits set.", "popc (x: $t) : i32", "intrinsics.popc x"},
	{"The upper $b bits of the $2b-bit product of x and y.", "mul_hi (x: $t) (y: $t) : $t", "intrinsics.mul_hi x y"},
	{"`mul_hi a b + c`.", "mad_hi (a: $t) (b: $t) (c: $t) : $t", "intrinsics.mad_hi a b c"},
	{"The number of leading zero bits.", "clz (x: $t) : i32", "intrinsics.clz x"},
	{"The number of trailing zero bits.", "ctz (x: $t) : i32", "intrinsics.ctz x"},

	{"The sum of the elements (0 when empty). Work 2n, depth 2 + lg n.", "sum [n] (xs: [n]$t) : $t", "reduce (+) 0 xs"},
	{"The product of the elements (1 when empty). Work 2n, depth 2 + lg n.", "product [n] (xs: [n]$t) : $t", "reduce (*) 1 xs"},
	{"The largest element (`lowest` when empty). Work 2n - 1, depth 1 + lg n.", "maximum [n] (xs: [n]$t) : $t", "reduce max lowest xs"},
	{"The smallest element (`highest` when empty). Work 2n - 1, depth 1 + lg n.", "minimum [n] (xs: [n]$t) : $t", "reduce min highest xs"},
}

var floatDefs = []def{
	{"Addition.", "(+) (x: $t) (y: $t) : $t", "intrinsics.add x y"},
	{"Subtraction.", "(-) (x: $t) (y: $t) : $t", "intrinsics.sub x y"},
	{"Multiplication.", "(*) (x: $t) (y: $t) : $t", "intrinsics.mul x y"},
	{"Division.", "(/) (x: $t) (y: $t) : $t", "intrinsics.div x y"},
	{"The remainder of x / y truncated towards zero, with the sign of x (C's fmod).", "(%) (x: $t) (y: $t) : $t", "intrinsics.mod x y"},
	{"x to the power y.", "(**) (x: $t) (y: $t) : $t", "intrinsics.pow x y"},

	{"Convert an i8 to $t.", "i8 (x: i8) : $t", "intrinsics.to_$t x"},
	{"Convert an i16 to $t.", "i16 (x: i16) : $t", "intrinsics.to_$t x"},
	{"Convert an i32 to $t.", "i32 (x: i32) : $t", "intrinsics.to_$t x"},
	{"Convert an i64 to $t.", "i64 (x: i64) : $t", "intrinsics.to_$t x"},
	{"Convert a u8 to $t.", "u8 (x: u8) : $t", "intrinsics.to_$t x"},
	{"Convert a u16 to $t.", "u16 (x: u16) : $t", "intrinsics.to_$t x"},
	{"Convert a u32 to $t.", "u32 (x: u32) : $t", "intrinsics.to_$t x"},
	{"Convert a u64 to $t.", "u64 (x: u64) : $t", "intrinsics.to_$t x"},
	{"Convert an f16 to $t.", "f16 (x: f16) : $t", "intrinsics.to_$t x"},
	{"Convert an f32 to $t.", "f32 (x: f32) : $t", "intrinsics.to_$t x"},
	{"Convert an f64 to $t.", "f64 (x: f64) : $t", "intrinsics.to_$t x"},
	{"1 for true, 0 for false.", "bool (x: bool) : $t", "intrinsics.to_$t x"},
	{"x / y, computed in $t. Work 3, depth 3.", "from_fraction (x: i64) (y: i64) : $t", "intrinsics.div (intrinsics.to_$t x) (intrinsics.to_$t y)"},
	{"Convert to i64, truncating towards zero.", "to_i64 (x: $t) : i64", "intrinsics.to_i64 x"},
	{"Convert to f64.", "to_f64 (x: $t) : f64", "intrinsics.to_f64 x"},

	{"Equality (false when either is NaN).", "(==) (x: $t) (y: $t) : bool", "intrinsics.eq x y"},
	{"Less than.", "(<) (x: $t) (y: $t) : bool", "intrinsics.lt x y"},
	{"Greater than.", "(>) (x: $t) (y: $t) : bool", "intrinsics.gt x y"},
	{"Less than or equal.", "(<=) (x: $t) (y: $t) : bool", "intrinsics.le x y"},
	{"Greater than or equal.", "(>=) (x: $t) (y: $t) : bool", "intrinsics.ge x y"},
	{"Inequality (true when either is NaN).", "(!=) (x: $t) (y: $t) : bool", "intrinsics.neq x y"},

	{"Negation.", "neg (x: $t) : $t", "intrinsics.neg x"},
	{"The reciprocal 1 / x. Work 2, depth 2.", "recip (x: $t) : $t", "intrinsics.div 1 x"},
	{"The larger of x and y (the other one when one is NaN).", "max (x: $t) (y: $t) : $t", "intrinsics.max x y"},
	{"The smaller of x and y (the other one when one is NaN).", "min (x: $t) (y: $t) : $t", "intrinsics.min x y"},
	{"The sign of x: -1, 0 or 1.", "sgn (x: $t) : $t", "intrinsics.signum x"},
	{"The absolute value.", "abs (x: $t) : $t", "intrinsics.abs x"},

	{"Square root.", "sqrt (x: $t) : $t", "intrinsics.sqrt x"},
	{"Reciprocal square root, 1 / sqrt x.", "rsqrt (x: $t) : $t", "intrinsics.rsqrt x"},
	{"Cube root.", "cbrt (x: $t) : $t", "intrinsics.cbrt x"},
	{"Natural logarithm.", "log (x: $t) : $t", "intrinsics.log x"},
	{"Base-2 logarithm.", "log2 (x: $t) : $t", "intrinsics.log2 x"},
	{"Base-10 logarithm.", "log10 (x: $t) : $t", "intrinsics.log10 x"},
	{"log (1 + x), accurate also for small x.", "log1p (x: $t) : $t", "intrinsics.log1p x"},
	{"e raised to the power x.", "exp (x: $t) : $t", "intrinsics.exp x"},
	{"Sine.", "sin (x: $t) : $t", "intrinsics.sin x"},
	{"Cosine.", "cos (x: $t) : $t", "intrinsics.cos x"},
	{"Tangent.", "tan (x: $t) : $t", "intrinsics.tan x"},
	{"sin (pi * x), more accurate.", "sinpi (x: $t) : $t", "intrinsics.sinpi x"},
	{"cos (pi * x), more accurate.", "cospi (x: $t) : $t", "intrinsics.cospi x"},
	{"tan (pi * x), more accurate.", "tanpi (x: $t) : $t", "intrinsics.tanpi x"},
	{"Arc cosine.", "acos (x: $t) : $t", "intrinsics.acos x"},
	{"Arc sine.", "asin (x: $t) : $t", "intrinsics.asin x"},
	{"Arc tangent.", "atan (x: $t) : $t", "intrinsics.atan x"},
	{"acos x / pi.", "acospi (x: $t) : $t", "intrinsics.acospi x"},
	{"asin x / pi.", "asinpi (x: $t) : $t", "intrinsics.asinpi x"},
	{"atan x / pi.", "atanpi (x: $t) : $t", "intrinsics.atanpi x"},
	{"Hyperbolic sine.", "sinh (x: $t) : $t", "intrinsics.sinh x"},
	{"Hyperbolic cosine.", "cosh (x: $t) : $t", "intrinsics.cosh x"},
	{"Hyperbolic tangent.", "tanh (x: $t) : $t", "intrinsics.tanh x"},
	{"Inverse hyperbolic cosine.", "acosh (x: $t) : $t", "intrinsics.acosh x"},
	{"Inverse hyperbolic sine.", "asinh (x: $t) : $t", "intrinsics.asinh x"},
	{"Inverse hyperbolic tangent.", "atanh (x: $t) : $t", "intrinsics.atanh x"},
	{"The angle of the point (y, x) from the positive x axis: `atan2 y x`.", "atan2 (y: $t) (x: $t) : $t", "intrinsics.atan2 y x"},
	{"atan2 y x / pi.", "atan2pi (y: $t) (x: $t) : $t", "intrinsics.atan2pi y x"},
	{"sqrt (x*x + y*y), without undue overflow or underflow.", "hypot (x: $t) (y: $t) : $t", "intrinsics.hypot x y"},
	{"The gamma function.", "gamma (x: $t) : $t", "intrinsics.gamma x"},
	{"The natural logarithm of the absolute value of `gamma` x.", "lgamma (x: $t) : $t", "intrinsics.lgamma x"},
	{"The error function.", "erf (x: $t) : $t", "intrinsics.erf x"},
	{"The complementary error function, 1 - erf x.", "erfc (x: $t) : $t", "intrinsics.erfc x"},
	{"Linear interpolation: v0 + (v1 - v0) * t.", "lerp (v0: $t) (v1: $t) (t: $t) : $t", "intrinsics.lerp v0 v1 t"},
	{"a * b + c with a single rounding.", "fma (a: $t) (b: $t) (c: $t) : $t", "intrinsics.fma a b c"},
	{"a * b + c, possibly with a single rounding.", "mad (a: $t) (b: $t) (c: $t) : $t", "intrinsics.mad a b c"},
	{"Round towards positive infinity.", "ceil (x: $t) : $t", "intrinsics.ceil x"},
	{"Round towards negative infinity.", "floor (x: $t) : $t", "intrinsics.floor x"},
	{"Round towards zero.", "trunc (x: $t) : $t", "intrinsics.trunc x"},
	{"Round to the nearest integer, ties to even.", "round (x: $t) : $t", "intrinsics.round x"},
	{"The next representable value after x in the direction of y.", "nextafter (x: $t) (y: $t) : $t", "intrinsics.nextafter x y"},
	{"x multiplied by 2 to the power y.", "ldexp (x: $t) (y: i32) : $t", "intrinsics.ldexp x y"},
	{"The magnitude of x with the sign of y.", "copysign (x: $t) (y: $t) : $t", "intrinsics.copysign x y"},

	{"The IEEE 754 bits of x.", "to_bits (x: $t) : $u", "intrinsics.$t_to_bits x"},
	{"The $t whose IEEE 754 bits are x.", "from_bits (x: $u) : $t", "intrinsics.$t_from_bits x"},
	{"The number of bits in a value of the type.", "num_bits : i32", "$b"},
	{"Bit number `bit` of the IEEE 754 representation of x, as 0 or 1. Work 6, depth 6.", "get_bit (bit: i32) (x: $t) : i32", "intrinsics.to_i32 (intrinsics.and (intrinsics.lshr (intrinsics.$t_to_bits x) (intrinsics.to_$u bit)) 1)"},
	{"x with bit number `bit` of its representation set to b (0 or 1). Work 11, depth 11.", "set_bit (bit: i32) (x: $t) (b: i32) : $t", "intrinsics.$t_from_bits (intrinsics.or (intrinsics.and (intrinsics.$t_to_bits x) (intrinsics.complement (intrinsics.shl 1 (intrinsics.to_$u bit)))) (intrinsics.shl (intrinsics.to_$u b) (intrinsics.to_$u bit)))"},

	{"Whether x is positive or negative infinity.", "isinf (x: $t) : bool", "intrinsics.isinf x"},
	{"Whether x is NaN.", "isnan (x: $t) : bool", "intrinsics.isnan x"},
	{"Positive infinity.", "inf : $t", "intrinsics.div 1 0"},
	{"Not a number.", "nan : $t", "intrinsics.div 0 0"},
	{"The largest value of the type: positive infinity.", "highest : $t", "inf"},
	{"The smallest value of the type: negative infinity.", "lowest : $t", "intrinsics.neg inf"},
	{"The difference between 1 and the next larger representable number.", "epsilon : $t", "$eps"},
	{"The ratio of a circle's circumference to its diameter.", "pi : $t", "3.14159265358979323846264338327950288$t"},
	{"Euler's number, the base of the natural logarithm.", "e : $t", "2.71828182845904523536028747135266250$t"},

	{"The sum of the elements (0 when empty). Work 2n, depth 2 + lg n.", "sum [n] (xs: [n]$t) : $t", "reduce (+) 0 xs"},
	{"The product of the elements (1 when empty). Work 2n, depth 2 + lg n.", "product [n] (xs: [n]$t) : $t", "reduce (*) 1 xs"},
	{"The largest element (`lowest` when empty; NaNs are ignored). Work 2n - 1, depth 1 + lg n.", "maximum [n] (xs: [n]$t) : $t", "reduce max lowest xs"},
	{"The smallest element (`highest` when empty; NaNs are ignored). Work 2n - 1, depth 1 + lg n.", "minimum [n] (xs: [n]$t) : $t", "reduce min highest xs"},
}

type intType struct {
	name, hi, lo, hival, loval string
	bits                       int
	signed                     bool
}

var intTypes = []intType{
	{"i8", "127", "-128", "127", "intrinsics.sub (intrinsics.neg 127) 1", 8, true},
	{"i16", "32767", "-32768", "32767", "intrinsics.sub (intrinsics.neg 32767) 1", 16, true},
	{"i32", "2147483647", "-2147483648", "2147483647", "intrinsics.sub (intrinsics.neg 2147483647) 1", 32, true},
	{"i64", "9223372036854775807", "-9223372036854775808", "9223372036854775807", "intrinsics.sub (intrinsics.neg 9223372036854775807) 1", 64, true},
	{"u8", "255", "0", "255", "0", 8, false},
	{"u16", "65535", "0", "65535", "0", 16, false},
	{"u32", "4294967295", "0", "4294967295", "0", 32, false},
	{"u64", "18446744073709551615", "0", "18446744073709551615", "0", 64, false},
}

type floatType struct {
	name, bitsType, eps string
	bits                int
}

var floatTypes = []floatType{
	{"f16", "u16", "0.0009765625f16", 16},
	{"f32", "u32", "1.1920928955078125e-7f32", 32},
	{"f64", "u64", "2.220446049250313080847263336181640625e-16f64", 64},
}

func emit(b *strings.Builder, defs []def, r *strings.Replacer) {
	for _, d := range defs {
		doc := r.Replace(d.doc)
		if !strings.Contains(doc, "Work ") {
			doc += " Work 1, depth 1."
		}
		fmt.Fprintf(b, "  -- | %s\n  def %s = %s\n", doc, r.Replace(d.head), r.Replace(d.body))
	}
}

func ints(signed bool) string {
	var b strings.Builder
	if signed {
		b.WriteString(header("The signed integer modules i8, i16, i32 and i64."))
	} else {
		b.WriteString(header("The unsigned integer modules u8, u16, u32 and u64."))
	}
	for _, t := range intTypes {
		if t.signed != signed {
			continue
		}
		kind, div, mod, shr, abs := "signed", "Division rounding towards negative infinity; an error when y is 0.",
			"The remainder of `/`, with the sign of y; an error when y is 0.",
			"Arithmetic shift right by y bits (the sign bit shifted in).", "The absolute value (wrapping around for the lowest value)."
		if !t.signed {
			kind, div, mod, shr, abs = "unsigned", "Division rounding down; an error when y is 0.",
				"The remainder of `/`; an error when y is 0.",
				"Shift right by y bits (zeroes shifted in).", "The absolute value: x itself."
		}
		r := strings.NewReplacer("$div", div, "$mod", mod, "$shr", shr, "$abs", abs,
			"$hival", t.hival, "$loval", t.loval, "$hi", t.hi, "$lo", t.lo,
			"$2b", fmt.Sprint(2*t.bits), "$b", fmt.Sprint(t.bits), "$t", t.name)
		fmt.Fprintf(&b, "-- | %d-bit %s integers.\nmodule %s : (integral with t = %s) = {\n  type t = %s\n", t.bits, kind, t.name, t.name, t.name)
		emit(&b, intDefs, r)
		b.WriteString("}\n\n")
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

func floats() string {
	var b strings.Builder
	b.WriteString(header("The floating-point modules f16, f32 and f64 (IEEE 754 binary16, binary32, binary64)."))
	for _, t := range floatTypes {
		r := strings.NewReplacer("$eps", t.eps, "$b", fmt.Sprint(t.bits), "$u", t.bitsType, "$t", t.name)
		fmt.Fprintf(&b, "-- | %d-bit IEEE 754 floating-point numbers.\nmodule %s : (float with t = %s with int_t = %s) = {\n  type t = %s\n  -- | The unsigned integer type with as many bits as t.\n  type int_t = %s\n",
			t.bits, t.name, t.name, t.bitsType, t.name, t.bitsType)
		emit(&b, floatDefs, r)
		b.WriteString("}\n\n")
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

func header(what string) string {
	return fmt.Sprintf("-- | %s\n--\n-- Generated by gen_math.go from its tables; edit those, not this file.\n-- Every function costs what the one intrinsic it calls costs unless its\n-- comment says otherwise; a scalar intrinsic is work 1, depth 1.\n\n", what)
}

func main() {
	dir := flag.String("dir", ".", "the directory to write the files to")
	flag.Parse()
	for name, text := range map[string]string{"ints.fut": ints(true), "uints.fut": ints(false), "floats.fut": floats()} {
		if err := os.WriteFile(filepath.Join(*dir, name), []byte(text), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
