-- Definitions for exprs_test.go.
def xs = [3i32, 1, 4, 1, 5, 9, 2, 6]
def fs = [1.5, -2.0, 7.25, 3.0]
def m = [[1, 2, 3], [4, 5, 6]]
def ps = [(1i32, 2.0f32), (3, 4.5), (5, -1)]
def r = {a = 1i32, b = 2.5f64}
def n : i64 = 6
def sq (x: i32) = x * x
def twice 'a (f: a -> a) (x: a) : a = f (f x)
def add3 (a: i32) (b: i32) (c: i32) = a + b + c
def norm [k] (v: [k]f64) : f64 = f64.sqrt (reduce (+) 0 (map (\x -> x * x) v))
def fact (k: i32) : i32 = loop acc = 1 for i < k do acc * (i + 1)
def countdown (x: i32) : i32 = if x <= 0 then 0 else 1 + countdown (x - 1)
