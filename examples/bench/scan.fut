-- | GPU benchmark: inclusive prefix sum of i32 (BENCHMARKS.md: scan, 2^27
-- elements).
-- ==
-- input { [1, 2, 3, 4] }
-- output { [1, 3, 6, 10] }
-- compiled random input { [134217728]i32 }

entry main [n] (xs: [n]i32) : [n]i32 = scan (+) 0 xs
