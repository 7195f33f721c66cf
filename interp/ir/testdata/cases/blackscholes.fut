-- ir: price r v s x t
-- expect: soacs=1
-- The Black-Scholes price of the examples, as a nest: the normal
-- distribution of all d1 and d2 is computed by separate maps, which
-- fusion joins into one.
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

def price (r: f32) (v: f32) (s: []f32) (x: []f32) (t: []f32) : ([]f32, []f32) =
  let d1s = map3 (\s x t -> (f32.log (s / x) + (r + v * v / 2) * t) / (v * f32.sqrt t)) s x t
  let d2s = map2 (\d1 t -> d1 - v * f32.sqrt t) d1s t
  let calls = map5 (\s x t d1 d2 -> s * cnd d1 - x * f32.exp (-r * t) * cnd d2) s x t d1s d2s
  let puts = map5 (\s x t d1 d2 -> x * f32.exp (-r * t) * cnd (-d2) - s * cnd (-d1)) s x t d1s d2s
  in (calls, puts)

def s = [100f32, 50f32, 70f32]
def x = [100f32, 60f32, 65f32]
def t = [1f32, 0.5f32, 2f32]
def r = 0.02f32
def v = 0.3f32
