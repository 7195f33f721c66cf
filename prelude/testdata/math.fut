-- The numeric modules of fut's prelude.

-- ==
-- entry: test_int_division
-- input { 7 -2 } output { -4 -1 -3 1 }
-- input { -7 2 } output { -4 1 -3 -1 }
-- input { 1 0 } error: .
entry test_int_division (x: i32) (y: i32) : (i32, i32, i32, i32) =
  (x / y, x % y, x // y, x %% y)

-- ==
-- entry: test_wrap
-- input { } output { -128i8 255u8 127i8 -128i8 255u8 0u8 18446744073709551615u64 -9223372036854775808i64 }
entry test_wrap : (i8, u8, i8, i8, u8, u8, u64, i64) =
  (127i8 + 1i8, 0u8 - 1u8, i8.highest, i8.lowest, u8.highest, u8.lowest, u64.highest, i64.lowest)

-- ==
-- entry: test_int_conversions
-- input { } output { 255u32 255 -1i64 44i8 -2 1u8 true false 3.0f32 -1 3u16 4294967295i64 255u8 4294967295u64 }
entry test_int_conversions =
  ( u32.i8 (-1i8), i32.u8 255u8, i64.i8 (-1i8), i8.i32 300, i32.f32 (-2.7f32)
  , u8.bool true, bool.i32 5, bool.f64 0.0, f32.i32 3, i32.u32 4294967295u32
  , u16.f64 3.9, i64.u32 4294967295u32, u8.i32 (-1), u64.i32 (-1)
  )

-- ==
-- entry: test_bits
-- input { } output { 8 31 3 1 5 0 32 7 64 }
entry test_bits : (i32, i32, i32, i32, i32, i32, i32, i32, i32) =
  ( i32.popc 255, i32.clz 1, i32.ctz 8, u32.get_bit 3 8u32, i32.set_bit 0 4 1
  , i32.set_bit 2 4 0, i32.num_bits, u8.clz 1u8, i64.popc (-1i64)
  )

-- ==
-- entry: test_mul_hi
-- input { } output { 2u32 -1 4 }
entry test_mul_hi : (u32, i32, i32) =
  (u32.mul_hi 2147483648u32 4u32, i32.mul_hi (-1) 1, i32.mad_hi 65536 65536 3)

-- ==
-- entry: test_shifts
-- input { } output { -4 15 1u32 16 -1 }
entry test_shifts : (i32, i32, u32, i32, i32) =
  ((-8) i32.>> 1, (-8) i32.>>> 28, 2147483648u32 u32.>> 31u32, 1 i32.<< 4, i32.not 0)

-- ==
-- entry: test_int_misc
-- input { [3, -1, 2] } output { 4 -6 3 -1 1 -1 3 }
entry test_int_misc (xs: []i32) : (i32, i32, i32, i32, i32, i32, i32) =
  (i32.sum xs, i32.product xs, i32.maximum xs, i32.minimum xs, i32.abs (-1), i32.sgn (-5), i32.max 3 (-3))

-- ==
-- entry: test_rounding
-- input { } output { -2.0 -1.0 2.0 4.0 -1.0 4.0f32 -3i64 }
entry test_rounding : (f64, f64, f64, f64, f64, f32, i64) =
  (f64.floor (-1.5), f64.ceil (-1.5), f64.round 2.5, f64.round 3.5, f64.trunc (-1.7), f32.sqrt 16, f64.to_i64 (-3.9))

-- ==
-- entry: test_special
-- input { } output { true true false 1.0 2.0 -f64.inf f32.inf }
entry test_special : (bool, bool, bool, f64, f64, f64, f32) =
  (f32.isnan f32.nan, f32.isinf f32.inf, f32.isinf 1, f64.max 1 f64.nan, f64.min f64.nan 2, f64.maximum [], f32.highest)

-- ==
-- entry: test_float_ops
-- input { } output { 0.25 -3.0 12.0 5.0 2.5 7.0 4.0 1.0 0.25 -1.0 2.0 }
entry test_float_ops : (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64) =
  ( f64.from_fraction 1 4, f64.copysign 3 (-1), f64.ldexp 3 2, f64.hypot 3 4, f64.lerp 0 10 0.25
  , f64.fma 2 3 1, f64.sum [1.5, 2.5], f64.minimum [3, 1, 2], f64.recip 4, f64.sgn (-2), f64.abs (-2)
  )

-- ==
-- entry: test_float_bits
-- input { } output { 1065353216u32 1.0f32 true true true 1 -1.0 }
entry test_float_bits : (u32, f32, bool, bool, bool, i32, f64) =
  ( f32.to_bits 1, f32.from_bits 1065353216u32
  , f32.epsilon == f32.from_bits 0x34000000u32
  , f64.epsilon == f64.from_bits 0x3CB0000000000000u64
  , f16.epsilon == f16.from_bits 0x1400u16
  , f64.get_bit 63 (-1.0), f64.set_bit 63 1.0 1
  )

-- ==
-- entry: test_float_conversions
-- input { } output { 1.5f16 3.0f32 4294967296f32 -1.0 1.0 }
entry test_float_conversions : (f16, f32, f32, f64, f64) =
  (f16.f32 1.5f32, f32.f16 (f16.i32 3), f32.u32 4294967295u32, f64.cos f64.pi, f64.log f64.e)
