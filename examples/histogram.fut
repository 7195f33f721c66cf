-- | Counts of values in k bins; values outside [0, k) are ignored.
--
-- Cost growth for n values and k bins: work Θ(n + k), depth Θ(log n),
-- space Θ(k) for the result plus the index array Θ(n) as written.
--
-- cost of main 16 xs
--   where xs = map (\i -> i32.i64 (i % 20)) (iota n)
--   for n = 2^8..2^13
--   as written: W n, D log n, S1 n, S∞ n
--   fused: S1 1
-- ==
-- input { 4i64 [0, 1, 1, 3, 3, 3, 7, -1] }
-- output { [1i32, 2i32, 0i32, 3i32] }
-- input { 2i64 empty([0]i32) }
-- output { [0i32, 0i32] }

entry main (k: i64) (xs: []i32) : [k]i32 =
  hist (+) 0 k (map i64.i32 xs) (map (const 1) xs)
