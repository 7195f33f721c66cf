-- | The sum over k in 1..n of the log-sum of k: a nested, irregular
-- parallel computation (the inner size depends on the outer index).
--
-- Cost growth: work Θ(n²), depth Θ(log n); sequential space Θ(n) as
-- written (one inner array at a time plus the outer array), parallel
-- space Θ(n²) since every inner array exists at once.
--
-- cost of main n
--   for n = 2^4..2^9
--   as written: W n^2, D log n, S1 n, S∞ n^2
--   fused: S1 1
-- ==
-- input { 1i64 }
-- output { 0.0 }
-- input { 4i64 }
-- output { 5.662960480135945 }

def logsum (k: i64) : f64 =
  reduce (+) 0 (map (\i -> f64.log (f64.i64 (i + 1))) (iota k))

entry main (n: i64) : f64 =
  reduce (+) 0 (map (\k -> logsum (k + 1)) (iota n))
