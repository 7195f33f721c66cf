-- Array sizes that do not agree.
def a [n][m] (xs: [n]i32) (ys: [m]i32) = zip xs ys -- ERROR 49 "Sizes \"n\" and \"m\" do not match\."
def b [n] (xs: [n]i32) : [n]i32 = filter (> 0) xs -- ERROR 35 "do not match"
def c [n] (xs: [n]i32) = zip xs (filter (> 0) xs) -- ERROR 33 "do not match"
def d [n] (xs: [n]i32) = zip xs (filter (> 0) xs :> [n]i32)
def e (n: f64) (xs: [n]i32) = xs -- ERROR 22 "must have type i64"
def f (n: i64) : [n]i32 = replicate 3 0 -- ERROR 27 "Sizes \"n\" and \"3\" do not match\."
def g [n] (xs: [n]i32) : [n]i32 = xs[1:] -- ERROR 35 "do not match"
def h (b: bool) (n: i64) (m: i64) : [n]i64 = if b then iota n else iota m -- ERROR 46 "do not match"
