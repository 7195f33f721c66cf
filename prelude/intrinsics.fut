-- | The built-in functions that fut's evaluator implements in Go.
--
-- The type checker reads this file as the signature of a module named
-- `intrinsics`; the prelude reaches them as `intrinsics.map` and so on. It
-- is never evaluated as Futhark code.
--
-- The set is small and generic. Functions with a type parameter `'a` in a
-- scalar position are dispatched on the primitive type of their argument at
-- run time (signed or unsigned integer, float, bool): `div` is floor
-- division on signed integers, plain division on unsigned integers and
-- true division on floats. Applying one to a type it does not support is a
-- bug in the prelude, not in the user's program.
--
-- Costs follow COST_MODEL.md: every scalar intrinsic costs work 1, depth 1
-- and one word of fresh space; SOAC and array intrinsics cost what the
-- model's table gives for them, with n the outer length of the input and
-- W(f), D(f) the work and depth of one application of the function.

-- Second-order array combinators.

-- | Apply f to every element. Work n + Σ W(f x), depth 1 + max D(f x).
val map 'a [n] 'x: (a -> x) -> [n]a -> *[n]x
-- | Combine the elements with an associative op in a balanced tree; ne for an empty array. Work n + Σ W(op), depth 1 + lg n · max D(op).
val reduce 'a [n]: (a -> a -> a) -> a -> [n]a -> a
-- | As reduce, with op also commutative. Work n + Σ W(op), depth 1 + lg n · max D(op).
val reduce_comm 'a [n]: (a -> a -> a) -> a -> [n]a -> a
-- | Inclusive prefix scan with an associative op. Work n + 2 · Σ W(op), depth 1 + 2 · lg n · max D(op).
val scan 'a [n]: (a -> a -> a) -> a -> [n]a -> *[n]a
-- | The elements that satisfy p, in order. Work 4n + Σ W(p), depth 3 + max D(p) + 2 · lg n.
val filter 'a [n]: (a -> bool) -> [n]a -> *[]a
-- | The elements that satisfy p, then those that do not, each in order. Work 4n + Σ W(p), depth 3 + max D(p) + 2 · lg n.
val partition 'a [n]: (a -> bool) -> [n]a -> ?[k].([k]a, [n - k]a)
-- | Write vs[j] to dest[is[j]] for every in-bounds index; consumes dest. Work n, depth 1.
val scatter 't [k] [n]: *[k]t -> [n]i64 -> [n]t -> *[k]t
-- | scatter with two-dimensional indices. Work n, depth 1.
val scatter_2d 't [k] [m] [n]: *[k][m]t -> [n](i64, i64) -> [n]t -> *[k][m]t
-- | scatter with three-dimensional indices. Work n, depth 1.
val scatter_3d 't [k] [m] [l] [n]: *[k][m][l]t -> [n](i64, i64, i64) -> [n]t -> *[k][m][l]t
-- | A fresh histogram of k bins, each ne combined with op and the values whose index falls in it. Work n + k + Σ W(op), depth 1 + lg n · max D(op).
val hist 'a [n]: (a -> a -> a) -> a -> (k: i64) -> [n]i64 -> [n]a -> *[k]a
-- | Combine values into the bins of dest with op (ne its neutral element); consumes dest. Work n + k + Σ W(op), depth 1 + lg n · max D(op).
val reduce_by_index 'a [k] [n]: *[k]a -> (a -> a -> a) -> a -> [n]i64 -> [n]a -> *[k]a
-- | reduce_by_index with two-dimensional indices. Work n + k·m + Σ W(op), depth 1 + lg n · max D(op).
val reduce_by_index_2d 'a [k] [m] [n]: *[k][m]a -> (a -> a -> a) -> a -> [n](i64, i64) -> [n]a -> *[k][m]a
-- | reduce_by_index with three-dimensional indices. Work n + k·m·l + Σ W(op), depth 1 + lg n · max D(op).
val reduce_by_index_3d 'a [k] [m] [l] [n]: *[k][m][l]a -> (a -> a -> a) -> a -> [n](i64, i64, i64) -> [n]a -> *[k][m][l]a
-- | Reduce chunks with f, combine the chunk results with an associative op. Work m + Σ W(f chunk) + Σ W(op) over m chunks, depth 1 + max D(f chunk) + lg m · max D(op).
val reduce_stream 'a 'b [n]: (b -> b -> b) -> ((k: i64) -> [k]a -> b) -> [n]a -> b
-- | As reduce_stream, with op also commutative (chunks need not be contiguous). Same cost as reduce_stream.
val reduce_stream_per 'a 'b [n]: (b -> b -> b) -> ((k: i64) -> [k]a -> b) -> [n]a -> b
-- | Map chunks to chunks of the same size and concatenate them. Work m + Σ W(f chunk), depth 1 + max D(f chunk).
val map_stream 'a 'b [n]: ((k: i64) -> [k]a -> [k]b) -> [n]a -> *[n]b
-- | As map_stream, with chunks that need not be contiguous. Same cost as map_stream.
val map_stream_per 'a 'b [n]: ((k: i64) -> [k]a -> [k]b) -> [n]a -> *[n]b

-- Arrays.

-- | The outer size of an array. Work 1, depth 1, no fresh space.
val length 't [n]: [n]t -> i64
-- | The array 0, 1, …, n-1. Work n, depth 1, space n + 1.
val iota: (n: i64) -> *[n]i64
-- | An array of n copies of x. Work ‖result‖ - rank, depth 1, space ‖result‖.
val replicate 't: (n: i64) -> t -> *[n]t
-- | A fresh copy of a value. Work ‖v‖, depth 1, space ‖v‖.
val copy 't: t -> *t
-- | A fresh copy of a value, laid out in row-major order. Work ‖v‖, depth 1, space ‖v‖.
val manifest 't: t -> *t
-- | Two arrays one after the other. Work n + m, depth 1, space ‖result‖.
val concat 't [n] [m]: [n]t -> [m]t -> *[n + m]t
-- | Swap the two outer dimensions. Work n · m · (inner size), depth 1, space ‖result‖.
val transpose 't [n] [m]: [n][m]t -> *[m][n]t
-- | Rotate left by r (right when r is negative): element i of the result is a[(i + r) mod n]. Work ‖result‖ elements, depth 1, space ‖result‖.
val rotate 't [n]: i64 -> [n]t -> *[n]t
-- | The rows in reverse order (a view). Work 1, depth 1, no fresh space.
val reverse 't [n]: [n]t -> [n]t
-- | Merge the two outer dimensions (a view). Work 1, depth 1, no fresh space.
val flatten 't [n] [m]: [n][m]t -> [n * m]t
-- | Split the outer dimension in two (a view); an error when n · m is not the size. Work 1, depth 1, no fresh space.
val unflatten 't: (n: i64) -> (m: i64) -> [n * m]t -> [n][m]t
-- | Pair up two arrays of the same size (a view). Work 0, depth 0, no fresh space.
val zip 'a 'b [n]: [n]a -> [n]b -> *[n](a, b)
-- | Three arrays as an array of triples (a view). Work 0, depth 0, no fresh space.
val zip3 'a 'b 'c [n]: [n]a -> [n]b -> [n]c -> *[n](a, b, c)
-- | Four arrays as an array of 4-tuples (a view). Work 0, depth 0, no fresh space.
val zip4 'a 'b 'c 'd [n]: [n]a -> [n]b -> [n]c -> [n]d -> *[n](a, b, c, d)
-- | Five arrays as an array of 5-tuples (a view). Work 0, depth 0, no fresh space.
val zip5 'a 'b 'c 'd 'e [n]: [n]a -> [n]b -> [n]c -> [n]d -> [n]e -> *[n](a, b, c, d, e)
-- | An array of pairs as two arrays (a view). Work 0, depth 0, no fresh space.
val unzip 'a 'b [n]: [n](a, b) -> ([n]a, [n]b)
-- | An array of triples as three arrays (a view). Work 0, depth 0, no fresh space.
val unzip3 'a 'b 'c [n]: [n](a, b, c) -> ([n]a, [n]b, [n]c)
-- | An array of 4-tuples as four arrays (a view). Work 0, depth 0, no fresh space.
val unzip4 'a 'b 'c 'd [n]: [n](a, b, c, d) -> ([n]a, [n]b, [n]c, [n]d)
-- | An array of 5-tuples as five arrays (a view). Work 0, depth 0, no fresh space.
val unzip5 'a 'b 'c 'd 'e [n]: [n](a, b, c, d, e) -> ([n]a, [n]b, [n]c, [n]d, [n]e)

-- Arithmetic on any numeric type (integers wrap around; unsigned types use unsigned operations).

-- | x + y. Work 1, depth 1.
val add 'a: a -> a -> a
-- | x - y. Work 1, depth 1.
val sub 'a: a -> a -> a
-- | x * y. Work 1, depth 1.
val mul 'a: a -> a -> a
-- | x / y: rounds towards negative infinity on integers; an error when an integer y is 0. Work 1, depth 1.
val div 'a: a -> a -> a
-- | x % y: the remainder of div (sign of y) on integers, fmod on floats. Work 1, depth 1.
val mod 'a: a -> a -> a
-- | Integer division rounding towards zero. Work 1, depth 1.
val quot 'a: a -> a -> a
-- | The remainder of quot (sign of x). Work 1, depth 1.
val rem 'a: a -> a -> a
-- | x to the power y; an error for a negative integer exponent. Work 1, depth 1.
val pow 'a: a -> a -> a
-- | -x. Work 1, depth 1.
val neg 'a: a -> a
-- | The absolute value. Work 1, depth 1.
val abs 'a: a -> a
-- | -1, 0 or 1 by the sign of x (NaN for NaN). Work 1, depth 1.
val signum 'a: a -> a
-- | The smaller of x and y (for floats, the other one when one is NaN). Work 1, depth 1.
val min 'a: a -> a -> a
-- | The larger of x and y (for floats, the other one when one is NaN). Work 1, depth 1.
val max 'a: a -> a -> a

-- Comparisons on any primitive type (false < true for bool).

-- | x == y. Work 1, depth 1.
val eq 'a: a -> a -> bool
-- | x != y. Work 1, depth 1.
val neq 'a: a -> a -> bool
-- | x < y. Work 1, depth 1.
val lt 'a: a -> a -> bool
-- | x <= y. Work 1, depth 1.
val le 'a: a -> a -> bool
-- | x > y. Work 1, depth 1.
val gt 'a: a -> a -> bool
-- | x >= y. Work 1, depth 1.
val ge 'a: a -> a -> bool

-- Bits of integers.

-- | Bitwise and. Work 1, depth 1.
val and 'a: a -> a -> a
-- | Bitwise or. Work 1, depth 1.
val or 'a: a -> a -> a
-- | Bitwise exclusive or. Work 1, depth 1.
val xor 'a: a -> a -> a
-- | Bitwise complement. Work 1, depth 1.
val complement 'a: a -> a
-- | Shift left by y bits (0 when y is at least the bit width). Work 1, depth 1.
val shl 'a: a -> a -> a
-- | Shift right by y bits: arithmetic on signed types, logical on unsigned ones. Work 1, depth 1.
val shr 'a: a -> a -> a
-- | Logical shift right by y bits on any integer type. Work 1, depth 1.
val lshr 'a: a -> a -> a
-- | The number of set bits. Work 1, depth 1.
val popc 'a: a -> i32
-- | The number of leading zero bits. Work 1, depth 1.
val clz 'a: a -> i32
-- | The number of trailing zero bits. Work 1, depth 1.
val ctz 'a: a -> i32
-- | The upper half of the double-width product x · y. Work 1, depth 1.
val mul_hi 'a: a -> a -> a
-- | mul_hi x y + z. Work 1, depth 1.
val mad_hi 'a: a -> a -> a -> a

-- Floating point.

-- | Square root. Work 1, depth 1.
val sqrt 'a: a -> a
-- | Reciprocal square root. Work 1, depth 1.
val rsqrt 'a: a -> a
-- | Cube root. Work 1, depth 1.
val cbrt 'a: a -> a
-- | e to the x. Work 1, depth 1.
val exp 'a: a -> a
-- | Natural logarithm. Work 1, depth 1.
val log 'a: a -> a
-- | Base-2 logarithm. Work 1, depth 1.
val log2 'a: a -> a
-- | Base-10 logarithm. Work 1, depth 1.
val log10 'a: a -> a
-- | log (1 + x), accurate for small x. Work 1, depth 1.
val log1p 'a: a -> a
-- | Sine. Work 1, depth 1.
val sin 'a: a -> a
-- | Cosine. Work 1, depth 1.
val cos 'a: a -> a
-- | Tangent. Work 1, depth 1.
val tan 'a: a -> a
-- | Arc sine. Work 1, depth 1.
val asin 'a: a -> a
-- | Arc cosine. Work 1, depth 1.
val acos 'a: a -> a
-- | Arc tangent. Work 1, depth 1.
val atan 'a: a -> a
-- | sin (π x). Work 1, depth 1.
val sinpi 'a: a -> a
-- | cos (π x). Work 1, depth 1.
val cospi 'a: a -> a
-- | tan (π x). Work 1, depth 1.
val tanpi 'a: a -> a
-- | asin x / π. Work 1, depth 1.
val asinpi 'a: a -> a
-- | acos x / π. Work 1, depth 1.
val acospi 'a: a -> a
-- | atan x / π. Work 1, depth 1.
val atanpi 'a: a -> a
-- | Hyperbolic sine. Work 1, depth 1.
val sinh 'a: a -> a
-- | Hyperbolic cosine. Work 1, depth 1.
val cosh 'a: a -> a
-- | Hyperbolic tangent. Work 1, depth 1.
val tanh 'a: a -> a
-- | Inverse hyperbolic sine. Work 1, depth 1.
val asinh 'a: a -> a
-- | Inverse hyperbolic cosine. Work 1, depth 1.
val acosh 'a: a -> a
-- | Inverse hyperbolic tangent. Work 1, depth 1.
val atanh 'a: a -> a
-- | The angle of the point (x, y) for atan2 y x. Work 1, depth 1.
val atan2 'a: a -> a -> a
-- | atan2 y x / π. Work 1, depth 1.
val atan2pi 'a: a -> a -> a
-- | sqrt (x² + y²) without undue overflow. Work 1, depth 1.
val hypot 'a: a -> a -> a
-- | The gamma function. Work 1, depth 1.
val gamma 'a: a -> a
-- | The natural logarithm of the absolute value of gamma. Work 1, depth 1.
val lgamma 'a: a -> a
-- | The error function. Work 1, depth 1.
val erf 'a: a -> a
-- | The complementary error function. Work 1, depth 1.
val erfc 'a: a -> a
-- | Round towards positive infinity. Work 1, depth 1.
val ceil 'a: a -> a
-- | Round towards negative infinity. Work 1, depth 1.
val floor 'a: a -> a
-- | Round towards zero. Work 1, depth 1.
val trunc 'a: a -> a
-- | Round to the nearest integer, ties to even. Work 1, depth 1.
val round 'a: a -> a
-- | The next representable value after x in the direction of y. Work 1, depth 1.
val nextafter 'a: a -> a -> a
-- | x · 2^y. Work 1, depth 1.
val ldexp 'a: a -> i32 -> a
-- | The magnitude of x with the sign of y. Work 1, depth 1.
val copysign 'a: a -> a -> a
-- | Whether x is an infinity. Work 1, depth 1.
val isinf 'a: a -> bool
-- | Whether x is NaN. Work 1, depth 1.
val isnan 'a: a -> bool
-- | x · y + z with one rounding. Work 1, depth 1.
val fma 'a: a -> a -> a -> a
-- | x · y + z, rounded once or twice. Work 1, depth 1.
val mad 'a: a -> a -> a -> a
-- | Linear interpolation v0 + (v1 - v0) · t. Work 1, depth 1.
val lerp 'a: a -> a -> a -> a

-- Conversions from any primitive type, as Futhark's prelude defines them:
-- true is 1 and false 0; a number is true when it is not 0; an integer
-- narrows by dropping high bits and widens by zero extension when the
-- source or the target is unsigned, by sign extension when both are signed;
-- a float becomes an integer by truncation towards zero (NaN and the
-- infinities give 0); an integer becomes a float by rounding to nearest.

-- | Convert to i8. Work 1, depth 1.
val to_i8 'a: a -> i8
-- | Convert to i16. Work 1, depth 1.
val to_i16 'a: a -> i16
-- | Convert to i32. Work 1, depth 1.
val to_i32 'a: a -> i32
-- | Convert to i64. Work 1, depth 1.
val to_i64 'a: a -> i64
-- | Convert to u8. Work 1, depth 1.
val to_u8 'a: a -> u8
-- | Convert to u16. Work 1, depth 1.
val to_u16 'a: a -> u16
-- | Convert to u32. Work 1, depth 1.
val to_u32 'a: a -> u32
-- | Convert to u64. Work 1, depth 1.
val to_u64 'a: a -> u64
-- | Convert to f16. Work 1, depth 1.
val to_f16 'a: a -> f16
-- | Convert to f32. Work 1, depth 1.
val to_f32 'a: a -> f32
-- | Convert to f64. Work 1, depth 1.
val to_f64 'a: a -> f64
-- | Whether x is non-zero (bool is itself). Work 1, depth 1.
val to_bool 'a: a -> bool
-- | The f16 with these IEEE bits. Work 1, depth 1.
val f16_from_bits: u16 -> f16
-- | The IEEE bits of an f16. Work 1, depth 1.
val f16_to_bits: f16 -> u16
-- | The f32 with these IEEE bits. Work 1, depth 1.
val f32_from_bits: u32 -> f32
-- | The IEEE bits of an f32. Work 1, depth 1.
val f32_to_bits: f32 -> u32
-- | The f64 with these IEEE bits. Work 1, depth 1.
val f64_from_bits: u64 -> f64
-- | The IEEE bits of an f64. Work 1, depth 1.
val f64_to_bits: f64 -> u64

-- Debugging and differentiation.

-- | x, hidden from the optimiser. Work 0, depth 0.
val opaque 't: t -> t
-- | x, printed by the evaluator as a trace event. Work 0, depth 0.
val trace 't: t -> t
-- | x, after stopping in the debugger when one is attached. Work 0, depth 0.
val break 't: t -> t
-- | f x and the forward-mode derivative of f at x along x'. Cost: that of f, and of its tangent.
val jvp2 'a 'b: (a -> b) -> a -> a -> (b, b)
-- | f x and the reverse-mode derivative of f at x for the adjoint y'. Cost: that of f, and of its adjoint.
val vjp2 'a 'b: (a -> b) -> a -> b -> (b, a)
