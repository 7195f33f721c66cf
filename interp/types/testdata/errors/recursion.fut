-- Recursive functions: saturated calls, unchanged higher-order arguments,
-- first-order results.
def fact (n: i64) : i64 = if n == 0 then 1 else n * fact (n - 1)
def go (g: i64 -> i64) (n: i64) : i64 = if n == 0 then g 0 else go (\x -> g x * 2) (n - 1) -- ERROR 68 "must be passed unchanged"
def add (n: i64) : i64 -> i64 = \x -> if n == 0 then x else add (n - 1) (x + 1) -- ERROR 5 "Return type of recursive function \"add\" is not first-order: \"i64 -> i64\" \(make the func"
def rep (n: i64) (f: i64 -> i64) (x: i64) : i64 = if n == 0 then x else let g = rep (n - 1) f in g (f x) -- ERROR 81 "Recursive call of \"rep\" is not fully saturated: it has a higher-order parameter, so it mu"
-- In its own body a function's type names the parameters its declared
-- result speaks of, as outside it.
def count_down (n: i64) : [n]i64 = if n <= 0 then iota n else let _r = map count_down [n - 1] in iota n -- ERROR "Cannot apply \"map\" to \"count_down\", a function whose result size depends on its own argument"
def rec_sized (n: i64) : [n]i64 = if n <= 0 then iota n else map (+ 1) (rec_sized n)
