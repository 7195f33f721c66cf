-- Local functions, closures and partial application through the source
-- stages: local polymorphic functions, closures returned by functions,
-- functions in records, sections, constants that are functions.

def adder (x: i32) = \(y: i32) -> x + y
def op = (+)
def compose 'a 'b 'c (f: b -> c) (g: a -> b) = \x -> f (g x)
def apply_all (fs: {inc: i32 -> i32, dbl: i32 -> i32}) (x: i32) = fs.dbl (fs.inc x)

entry main (xss: [][]i32) (k: i32) (i: i64) =
  let pair 't (x: t) (y: t) : [2]t = [x, y]
  let add_k = adder k
  let rows = map (map add_k) xss
  let firsts = map (.[i]) xss
  let sums = map (reduce op 0) xss
  let scanned = map (scan (\a b -> a + b + 0 * k) 0) xss
  let f = compose (* 2) (adder 1)
  let g = apply_all {inc = adder k, dbl = \x -> x * 2}
  let ps = pair 1.5f32 2.5f32
  let qs = pair true false
  let piped = xss |> map (map (+ k)) |> map i32.sum
  in (rows, firsts, sums, scanned, f k, g k, ps, qs, piped)

-- ==
-- entry: main
-- input { [[1, 2, 3], [4, 5, 6]] 10 1i64 }
-- output { [[11i32, 12i32, 13i32], [14i32, 15i32, 16i32]] [2i32, 5i32] [6i32, 15i32] [[1i32, 3i32, 6i32], [4i32, 9i32, 15i32]] 22i32 40i32 [1.5f32, 2.5f32] [true, false] [36i32, 45i32] }
