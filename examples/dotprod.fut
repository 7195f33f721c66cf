-- | Dot product of two vectors.
--
-- Cost growth for vectors of length n: work Θ(n), depth Θ(log n),
-- sequential space Θ(n) as written (map2's products are materialised),
-- Θ(1) once map2 is fused into the reduction.
--
-- cost of main xs xs
--   where xs = map f64.i64 (iota n)
--   for n = 2^8..2^13
--   as written: W n, D log n, S1 n, S∞ n
--   fused: W n, D log n, S1 1
-- ==
-- input { [1.0, 2.0, 3.0] [4.0, 5.0, 6.0] }
-- output { 32.0 }
-- input { empty([0]f64) empty([0]f64) }
-- output { 0.0 }
-- input { [1.0, 2.0] [3.0] }
-- error: .*

def dot [n] (xs: [n]f64) (ys: [n]f64) : f64 =
  reduce (+) 0 (map2 (*) xs ys)

entry main [n][m] (xs: [n]f64) (ys: [m]f64) : f64 =
  dot xs (ys :> [n]f64)
