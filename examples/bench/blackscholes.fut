-- | GPU benchmark: Black-Scholes call and put prices with r = 0.02 and
-- v = 0.30, the formula of the peers' script (BENCHMARKS.md:
-- blackscholes, 2^25 options, f32).
--
-- cost of main ps ps ts
--   where ps = map (\i -> 10 + f32.i64 (i % 20)) (iota n), ts = replicate n 1f32
--   for n = 2^8..2^12
--   as written: W n, D 1, S1 n, S∞ n
-- ==
-- input { [10f32, 20f32] [12f32, 15f32] [1f32, 2f32] }
-- output { [0.59975857f32, 6.4851603f32] [2.3621426f32, 0.89700186f32] }
-- compiled random input { [33554432]f32 [33554432]f32 [33554432]f32 }

def cnd (d: f32) : f32 =
  let k = 1 / (1 + 0.2316419 * f32.abs d)
  let poly = k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))))
  let c = 0.3989422804014327 * f32.exp (-0.5 * d * d) * poly
  in if d > 0 then 1 - c else c

def price (p: f32) (s: f32) (t: f32) : (f32, f32) =
  let r = 0.02f32
  let v = 0.30f32
  let vsqrt = v * f32.sqrt t
  let d1 = (f32.log (p / s) + (r + 0.5 * v * v) * t) / vsqrt
  let d2 = d1 - vsqrt
  let c1 = cnd d1
  let c2 = cnd d2
  let xexp = s * f32.exp (-r * t)
  in (p * c1 - xexp * c2, xexp * (1 - c2) - p * (1 - c1))

entry main [n] (ps: [n]f32) (ss: [n]f32) (ts: [n]f32) : ([n]f32, [n]f32) =
  unzip (map3 price ps ss ts)
