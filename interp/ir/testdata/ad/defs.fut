-- Definitions for the AD tests against the reference path (ad_test.go).
def xs = [1.5f64, -0.5, 2.0, 0.25]
def ys = [0.5f32, 1.5, -2.0, 3.0]
def is = [1i64, 0, 1, 7]
def m = [[1.0f64, 2.0, 3.0], [4.0, 5.0, 6.0]]
def poly (x: f64) = x * x * x - 2 * x + 1
def dot [n] (a: [n]f64) (b: [n]f64) = reduce (+) 0 (map2 (*) a b)
def softmax [n] (v: [n]f64) = let e = map f64.exp v let s = reduce (+) 0 e in map (/ s) e
def prodv [n] (v: [n]f64) = reduce (*) 1 v
def hmax [n] (v: [n]f64) = hist f64.max 0 2 is[:n] v
def hmul [n] (v: [n]f32) = reduce_by_index (replicate 3 1f32) (*) 1 is[:n] v
def iexp (a: i32, b: i32) = (a * b + a / b, a ** 3, f64.i32 a * 0.5)
def pick (x: f64, c: bool) = if c then (x * 2, !c) else (x, c)
def rec (r: {a: f64, b: [2]f32}) = {s = r.a * f64.f32 r.b[0], t = map (* f32.f64 r.a) r.b}
def newton (x: f64) = loop y = x for _i < 5 do y - (y * y - x) / (2 * y)
def stepw (x: f64) = loop (y, k) = (x, 0i32) while y < 100 do (y * 3 + 1, k + 1)
def mathf (x: f32) = f32.sin x * f32.exp x + f32.sqrt x - f32.log x + f32.tanh x + f32.atan2 x 2 + x ** 1.5
def mathd (x: f64) = f64.lgamma x + f64.gamma x + f64.erf x + f64.cbrt x + f64.hypot x 3 + f64.copysign x (-1) + f64.fma x x 2
def scanmul [n] (v: [n]f64) = scan (*) 1 v
def sct [n] (v: [n]f64) = scatter (replicate 3 0f64) is[:n] (map (* 2) v)
def filt [n] (v: [n]f64) = reduce (+) 0 (filter (> 0) v)
def matvec [n][k] (a: [n][k]f64) (v: [k]f64) = map (\r -> dot r v) a
