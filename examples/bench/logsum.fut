-- | GPU benchmark: the sum of log i for i in 1..n in f32 (BENCHMARKS.md:
-- logsum, n = 2^30): nothing is in memory, so fused it is pure
-- computation.
--
-- cost of main n
--   for n = 2^8..2^13
--   as written: W n, D log n, S1 n
--   fused: W n, D log n, S1 1
-- ==
-- input { 10i64 }
-- output { 15.104412f32 }
-- compiled input { 1073741824i64 }

entry main (n: i64) : f32 =
  reduce (+) 0 (map (\i -> f32.log (f32.i64 i)) (1...n))
