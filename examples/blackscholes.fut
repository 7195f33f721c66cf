-- | Black-Scholes prices of European call and put options.
--
-- Cost growth for n options: work Θ(n), depth Θ(1) (every option is
-- priced independently), space Θ(n).
--
-- cost of main s x t 0.02 0.3
--   where s = map (\i -> 50 + f32.i64 (i % 100)) (iota n), x = replicate n 80f32, t = replicate n 1f32
--   for n = 2^8..2^12
--   as written: W n, D 1, S1 n, S∞ n
-- ==
-- input { [100f32, 50f32] [100f32, 60f32] [1f32, 0.5f32] 0.02f32 0.3f32 }
-- output { [12.821585f32, 1.3552379f32] [10.841452f32, 10.758228f32] }

-- The cumulative normal distribution, by the Abramowitz-Stegun
-- polynomial approximation.
def cnd (x: f32) : f32 =
  let a1 = 0.31938153f32
  let a2 = -0.356563782f32
  let a3 = 1.781477937f32
  let a4 = -1.821255978f32
  let a5 = 1.330274429f32
  let l = f32.abs x
  let k = 1 / (1 + 0.2316419 * l)
  let w = 1 - 1 / f32.sqrt (2 * f32.pi) * f32.exp (-l * l / 2)
            * (a1 * k + a2 * k ** 2 + a3 * k ** 3 + a4 * k ** 4 + a5 * k ** 5)
  in if x < 0 then 1 - w else w

def price (r: f32) (v: f32) (s: f32) (x: f32) (t: f32) : (f32, f32) =
  let d1 = (f32.log (s / x) + (r + v * v / 2) * t) / (v * f32.sqrt t)
  let d2 = d1 - v * f32.sqrt t
  let call = s * cnd d1 - x * f32.exp (-r * t) * cnd d2
  let put = x * f32.exp (-r * t) * cnd (-d2) - s * cnd (-d1)
  in (call, put)

entry main [n] (s: [n]f32) (x: [n]f32) (t: [n]f32) (r: f32) (v: f32) : ([n]f32, [n]f32) =
  unzip (map3 (price r v) s x t)
