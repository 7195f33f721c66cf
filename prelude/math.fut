-- | The numeric module types, and the module `bool`.
--
-- The modules i8 … u64 (ints.fut, uints.fut) and f16, f32, f64
-- (floats.fut) implement these module types. Every scalar operation in
-- them costs work 1, depth 1 (one intrinsic); the reductions sum, product,
-- maximum and minimum cost what `reduce` costs with a unit-cost operator.
--
-- Conversions between primitive types, in every module (`T.i32 x` converts
-- the i32 x to T):
--
-- * a number becomes `bool` as false when it is 0 and true otherwise;
--   `true` becomes the number 1 and `false` 0;
-- * an integer narrows to a smaller integer type by dropping high bits;
-- * an integer widens by zero extension when either type is unsigned, and
--   by sign extension when both are signed;
-- * a float becomes an integer by truncation towards zero (NaN and the
--   infinities give a meaningless integer); use `to_bits` for its bits;
-- * an integer becomes a float by rounding to the nearest representable
--   value; use `from_bits` to build a float from its bits.

-- | Types whose values can be made from every primitive type.
module type from_prim = {
  type t
  -- | Convert from i8. Work 1, depth 1.
  val i8 : i8 -> t
  -- | Convert from i16. Work 1, depth 1.
  val i16 : i16 -> t
  -- | Convert from i32. Work 1, depth 1.
  val i32 : i32 -> t
  -- | Convert from i64. Work 1, depth 1.
  val i64 : i64 -> t
  -- | Convert from u8. Work 1, depth 1.
  val u8 : u8 -> t
  -- | Convert from u16. Work 1, depth 1.
  val u16 : u16 -> t
  -- | Convert from u32. Work 1, depth 1.
  val u32 : u32 -> t
  -- | Convert from u64. Work 1, depth 1.
  val u64 : u64 -> t
  -- | Convert from f16. Work 1, depth 1.
  val f16 : f16 -> t
  -- | Convert from f32. Work 1, depth 1.
  val f32 : f32 -> t
  -- | Convert from f64. Work 1, depth 1.
  val f64 : f64 -> t
  -- | Convert from bool. Work 1, depth 1.
  val bool : bool -> t
}

-- | Numbers: the operations common to integers and floats.
module type numeric = {
  include from_prim
  -- | Addition. Work 1, depth 1.
  val (+) : t -> t -> t
  -- | Subtraction. Work 1, depth 1.
  val (-) : t -> t -> t
  -- | Multiplication. Work 1, depth 1.
  val (*) : t -> t -> t
  -- | Division. Work 1, depth 1.
  val (/) : t -> t -> t
  -- | Remainder. Work 1, depth 1.
  val (%) : t -> t -> t
  -- | Exponentiation. Work 1, depth 1.
  val (**) : t -> t -> t
  -- | Convert to i64. Work 1, depth 1.
  val to_i64 : t -> i64
  -- | Equality. Work 1, depth 1.
  val (==) : t -> t -> bool
  -- | Less than. Work 1, depth 1.
  val (<) : t -> t -> bool
  -- | Greater than. Work 1, depth 1.
  val (>) : t -> t -> bool
  -- | Less than or equal. Work 1, depth 1.
  val (<=) : t -> t -> bool
  -- | Greater than or equal. Work 1, depth 1.
  val (>=) : t -> t -> bool
  -- | Inequality. Work 1, depth 1.
  val (!=) : t -> t -> bool
  -- | Negation. Work 1, depth 1.
  val neg : t -> t
  -- | The larger of two values. Work 1, depth 1.
  val max : t -> t -> t
  -- | The smaller of two values. Work 1, depth 1.
  val min : t -> t -> t
  -- | The absolute value. Work 1, depth 1.
  val abs : t -> t
  -- | The sign: -1, 0 or 1. Work 1, depth 1.
  val sgn : t -> t
  -- | The largest value of the type (infinity for floats).
  val highest : t
  -- | The smallest value of the type (negative infinity for floats).
  val lowest : t
  -- | The sum of an array. Work 2n, depth 2 + lg n.
  val sum [n] : [n]t -> t
  -- | The product of an array. Work 2n, depth 2 + lg n.
  val product [n] : [n]t -> t
  -- | The largest element of an array, `lowest` when empty. Work 2n - 1, depth 1 + lg n.
  val maximum [n] : [n]t -> t
  -- | The smallest element of an array, `highest` when empty. Work 2n - 1, depth 1 + lg n.
  val minimum [n] : [n]t -> t
}

-- | Integers, signed or unsigned, of a fixed number of bits.
module type integral = {
  include numeric
  -- | Division rounding towards zero. Work 1, depth 1.
  val (//) : t -> t -> t
  -- | The remainder of `//`. Work 1, depth 1.
  val (%%) : t -> t -> t
  -- | Bitwise and. Work 1, depth 1.
  val (&) : t -> t -> t
  -- | Bitwise or. Work 1, depth 1.
  val (|) : t -> t -> t
  -- | Bitwise exclusive or. Work 1, depth 1.
  val (^) : t -> t -> t
  -- | Bitwise complement. Work 1, depth 1.
  val not : t -> t
  -- | Shift left. Work 1, depth 1.
  val (<<) : t -> t -> t
  -- | Shift right (arithmetic for signed types). Work 1, depth 1.
  val (>>) : t -> t -> t
  -- | Logical shift right. Work 1, depth 1.
  val (>>>) : t -> t -> t
  -- | The number of bits of the type.
  val num_bits : i32
  -- | One bit of a value, as 0 or 1. Work 5, depth 5.
  val get_bit : i32 -> t -> i32
  -- | A value with one bit set to 0 or 1. Work 9, depth 9.
  val set_bit : i32 -> t -> i32 -> t
  -- | The number of bits set. Work 1, depth 1.
  val popc : t -> i32
  -- | The upper half of the double-width product. Work 1, depth 1.
  val mul_hi : (x: t) -> (y: t) -> t
  -- | `mul_hi a b + c`. Work 1, depth 1.
  val mad_hi : (a: t) -> (b: t) -> (c: t) -> t
  -- | The number of leading zero bits. Work 1, depth 1.
  val clz : t -> i32
  -- | The number of trailing zero bits. Work 1, depth 1.
  val ctz : t -> i32
}

-- | Real numbers, approximated.
module type real = {
  include numeric
  -- | The reciprocal. Work 2, depth 2.
  val recip : t -> t
  -- | The quotient of two i64s. Work 3, depth 3.
  val from_fraction : i64 -> i64 -> t
  -- | Convert to f64. Work 1, depth 1.
  val to_f64 : t -> f64
  -- | Square root. Work 1, depth 1.
  val sqrt : t -> t
  -- | Reciprocal square root. Work 1, depth 1.
  val rsqrt : t -> t
  -- | Cube root. Work 1, depth 1.
  val cbrt : t -> t
  -- | The exponential function. Work 1, depth 1.
  val exp : t -> t
  -- | Sine. Work 1, depth 1.
  val sin : t -> t
  -- | Cosine. Work 1, depth 1.
  val cos : t -> t
  -- | Tangent. Work 1, depth 1.
  val tan : t -> t
  -- | sin (pi * x). Work 1, depth 1.
  val sinpi : t -> t
  -- | cos (pi * x). Work 1, depth 1.
  val cospi : t -> t
  -- | tan (pi * x). Work 1, depth 1.
  val tanpi : t -> t
  -- | Arc sine. Work 1, depth 1.
  val asin : t -> t
  -- | Arc cosine. Work 1, depth 1.
  val acos : t -> t
  -- | Arc tangent. Work 1, depth 1.
  val atan : t -> t
  -- | asin x / pi. Work 1, depth 1.
  val asinpi : t -> t
  -- | acos x / pi. Work 1, depth 1.
  val acospi : t -> t
  -- | atan x / pi. Work 1, depth 1.
  val atanpi : t -> t
  -- | Hyperbolic sine. Work 1, depth 1.
  val sinh : t -> t
  -- | Hyperbolic cosine. Work 1, depth 1.
  val cosh : t -> t
  -- | Hyperbolic tangent. Work 1, depth 1.
  val tanh : t -> t
  -- | Inverse hyperbolic sine. Work 1, depth 1.
  val asinh : t -> t
  -- | Inverse hyperbolic cosine. Work 1, depth 1.
  val acosh : t -> t
  -- | Inverse hyperbolic tangent. Work 1, depth 1.
  val atanh : t -> t
  -- | `atan2 y x`, the angle of the point (x, y). Work 1, depth 1.
  val atan2 : t -> t -> t
  -- | atan2 y x / pi. Work 1, depth 1.
  val atan2pi : t -> t -> t
  -- | The length of the hypotenuse. Work 1, depth 1.
  val hypot : t -> t -> t
  -- | The gamma function. Work 1, depth 1.
  val gamma : t -> t
  -- | The logarithm of the absolute gamma function. Work 1, depth 1.
  val lgamma : t -> t
  -- | The error function. Work 1, depth 1.
  val erf : t -> t
  -- | The complementary error function. Work 1, depth 1.
  val erfc : t -> t
  -- | Linear interpolation. Work 1, depth 1.
  val lerp : t -> t -> t -> t
  -- | Natural logarithm. Work 1, depth 1.
  val log : t -> t
  -- | Base-2 logarithm. Work 1, depth 1.
  val log2 : t -> t
  -- | Base-10 logarithm. Work 1, depth 1.
  val log10 : t -> t
  -- | log (1 + x). Work 1, depth 1.
  val log1p : t -> t
  -- | Round up. Work 1, depth 1.
  val ceil : t -> t
  -- | Round down. Work 1, depth 1.
  val floor : t -> t
  -- | Round towards zero. Work 1, depth 1.
  val trunc : t -> t
  -- | Round to nearest, ties to even. Work 1, depth 1.
  val round : t -> t
  -- | a * b + c, possibly fused. Work 1, depth 1.
  val mad : (a: t) -> (b: t) -> (c: t) -> t
  -- | a * b + c with one rounding. Work 1, depth 1.
  val fma : (a: t) -> (b: t) -> (c: t) -> t
  -- | Whether a value is infinite. Work 1, depth 1.
  val isinf : t -> bool
  -- | Whether a value is NaN. Work 1, depth 1.
  val isnan : t -> bool
  -- | Positive infinity.
  val inf : t
  -- | Not a number.
  val nan : t
  -- | The constant pi.
  val pi : t
  -- | Euler's number e.
  val e : t
}

-- | IEEE 754 floating-point numbers.
module type float = {
  include real
  -- | The unsigned integer type with the same number of bits as t.
  type int_t
  -- | The float with the given bits. Work 1, depth 1.
  val from_bits : int_t -> t
  -- | The bits of a float. Work 1, depth 1.
  val to_bits : t -> int_t
  -- | The number of bits of the type.
  val num_bits : i32
  -- | One bit of the representation, as 0 or 1. Work 6, depth 6.
  val get_bit : i32 -> t -> i32
  -- | A value with one bit of its representation set. Work 11, depth 11.
  val set_bit : i32 -> t -> i32 -> t
  -- | The difference between 1 and the next representable number.
  val epsilon : t
  -- | The next representable number after x towards y. Work 1, depth 1.
  val nextafter : (x: t) -> (y: t) -> t
  -- | x times 2 to the power y. Work 1, depth 1.
  val ldexp : t -> i32 -> t
  -- | The magnitude of x with the sign of y. Work 1, depth 1.
  val copysign : (x: t) -> (y: t) -> t
}

-- | Booleans as a module: conversions from numbers (0 is false, anything else true).
module bool : (from_prim with t = bool) = {
  type t = bool
  -- | Whether an i8 is non-zero. Work 1, depth 1.
  def i8 (x: i8) : bool = intrinsics.to_bool x
  -- | Whether an i16 is non-zero. Work 1, depth 1.
  def i16 (x: i16) : bool = intrinsics.to_bool x
  -- | Whether an i32 is non-zero. Work 1, depth 1.
  def i32 (x: i32) : bool = intrinsics.to_bool x
  -- | Whether an i64 is non-zero. Work 1, depth 1.
  def i64 (x: i64) : bool = intrinsics.to_bool x
  -- | Whether a u8 is non-zero. Work 1, depth 1.
  def u8 (x: u8) : bool = intrinsics.to_bool x
  -- | Whether a u16 is non-zero. Work 1, depth 1.
  def u16 (x: u16) : bool = intrinsics.to_bool x
  -- | Whether a u32 is non-zero. Work 1, depth 1.
  def u32 (x: u32) : bool = intrinsics.to_bool x
  -- | Whether a u64 is non-zero. Work 1, depth 1.
  def u64 (x: u64) : bool = intrinsics.to_bool x
  -- | Whether an f16 is non-zero. Work 1, depth 1.
  def f16 (x: f16) : bool = intrinsics.to_bool x
  -- | Whether an f32 is non-zero. Work 1, depth 1.
  def f32 (x: f32) : bool = intrinsics.to_bool x
  -- | Whether an f64 is non-zero. Work 1, depth 1.
  def f64 (x: f64) : bool = intrinsics.to_bool x
  -- | The identity on bool. Work 0, depth 0.
  def bool (x: bool) : bool = x
}
