-- | GPU benchmark: 2x + y over f32 vectors (BENCHMARKS.md: saxpy, 2^27
-- elements).
--
-- cost of main xs xs
--   where xs = map f32.i64 (iota n)
--   for n = 2^8..2^13
--   as written: W n, D 1, S1 n, S∞ n
-- ==
-- input { [1f32, 2f32, 3f32] [4f32, 5f32, 6f32] }
-- output { [6f32, 9f32, 12f32] }
-- compiled random input { [134217728]f32 [134217728]f32 }

entry main [n] (xs: [n]f32) (ys: [n]f32) : [n]f32 =
  map2 (\x y -> 2 * x + y) xs ys
