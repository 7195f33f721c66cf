-- | GPU benchmark: inclusive prefix sum of i32 (BENCHMARKS.md: scan, 2^27
-- elements).
--
-- cost of main xs
--   where xs = map i32.i64 (iota n)
--   for n = 2^8..2^13
--   as written: W n, D log n
-- ==
-- input { [1, 2, 3, 4] }
-- output { [1, 3, 6, 10] }
-- compiled random input { [134217728]i32 }

entry main [n] (xs: [n]i32) : [n]i32 = scan (+) 0 xs
