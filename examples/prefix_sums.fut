-- | Inclusive prefix sums.
--
-- Cost growth: work Θ(n), depth Θ(log n), sequential and parallel space
-- Θ(n) (the result itself).
--
-- cost of main xs
--   where xs = map i32.i64 (iota n)
--   for n = 2^8..2^13
--   as written: W n, D log n, S1 n, S∞ n
--   fused: W n, D log n, S1 n, S∞ n
-- ==
-- input { [1, 2, 3, 4, 5] }
-- output { [1, 3, 6, 10, 15] }
-- input { empty([0]i32) }
-- output { empty([0]i32) }
-- input { [-1, 1, -1, 1] }
-- output { [-1, 0, -1, 0] }

entry main (xs: []i32) : []i32 =
  scan (+) 0 xs
