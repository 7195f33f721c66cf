-- | Keep the positive elements of an array.
--
-- Cost growth: work Θ(n), depth Θ(log n) (the flags are scanned to find
-- each survivor's place), space Θ(n).
--
-- cost of main xs
--   where xs = map (\i -> f32.i64 (i % 7) - 3) (iota n)
--   for n = 2^8..2^13
--   as written: W n, D log n, S1 n, S∞ n
-- ==
-- input { [1.0f32, -2.0f32, 3.0f32, 0.0f32, 5.0f32] }
-- output { [1.0f32, 3.0f32, 5.0f32] }
-- input { [-1.0f32, -2.0f32] }
-- output { empty([0]f32) }

entry main (xs: []f32) : []f32 =
  filter (\x -> x > 0) xs
