-- vjp of a histogram with max: the plan runs each pass's histogram as a
-- loop (which value wins a bin decides which tangent does) and reads the
-- pass's unit tangent off the index; the source's rule charges the unit
-- vector once per pass, which covers those reads.
-- ==
-- input { [5f32, 1f32, 2f32, 3f32, 4f32] [0i64, 0i64, 1i64, 1i64, 0i64] [4f32, 3f32, 2f32, 1f32, 6f32] }
-- output { [0f32, 0f32, 0f32, 0f32, 1f32] }

entry main [n] [m] (dst: [m]f32) (is: [n]i64) (vs: [n]f32) : [n]f32 =
  vjp (\vs -> reduce_by_index (copy dst) f32.max f32.lowest is vs) vs (replicate m 0 with [0] = 1)
