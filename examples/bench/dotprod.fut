-- | GPU benchmark: the dot product of two f32 vectors (BENCHMARKS.md:
-- dotprod, 2^27 elements). The small cases check the result on the
-- reference path; the large one is for `fut bench --backend=opencl`.
--
-- cost of main xs xs
--   where xs = map f32.i64 (iota n)
--   for n = 2^8..2^13
--   as written: W n, D log n, S1 n
--   fused: S1 1
-- ==
-- input { [1f32, 2f32, 3f32] [4f32, 5f32, 6f32] }
-- output { 32f32 }
-- compiled random input { [134217728]f32 [134217728]f32 }

entry main [n] (xs: [n]f32) (ys: [n]f32) : f32 =
  reduce (+) 0 (map2 (*) xs ys)
