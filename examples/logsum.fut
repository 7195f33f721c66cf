-- | The sum of log i for i in 1..n.
--
-- Cost growth: work Θ(n), depth Θ(log n); sequential space Θ(n) as
-- written (iota and map materialise n elements), Θ(1) when fused and
-- streamed, which is the point of the example.
--
-- cost of main n
--   for n = 2^8..2^13
--   as written: W n, D log n, S1 n, S∞ n
--   fused: W n, D log n, S1 1
-- ==
-- input { 1i64 }
-- output { 0.0 }
-- input { 10i64 }
-- output { 15.104412573075518 }
-- input { 1000i64 }
-- output { 5912.128178488171 }

entry main (n: i64) : f64 =
  reduce (+) 0 (map (\i -> f64.log (f64.i64 (i + 1))) (iota n))
