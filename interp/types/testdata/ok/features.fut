-- A little of everything, for the side-table test.
type point = {x: f32, y: f32}
type shape = #circle point f32 | #rect point point

def area (s: shape) : f32 =
  match s
  case #circle _ r -> 3.14 * r * r
  case #rect a b -> (b.x - a.x) * (b.y - a.y)

module type addable = { type t val add : t -> t -> t val zero : t }
module sum_of (A: addable) = { def sum (xs: []A.t) = reduce A.add A.zero xs }
module I = sum_of { type t = i32 def add (a: i32) (b: i32) = a + b def zero = 0 }

def histogram [n] (k: i64) (xs: [n]i64) : [k]i32 =
  reduce_by_index (replicate k 0) (+) 0 xs (replicate n 1)

def update (xs: *[]i32) (i: i64) = xs with [i] = 1

def loops (n: i64) =
  let xs = loop acc = [] for i < n do acc ++ [i]
  let (a, b) = loop (a, b) = (0, 1) while a < 100 do (b, a + b)
  in (xs, a + b, I.sum [1, 2, 3])

entry main (xs: []i64) = (histogram 4 xs, map (\s -> area s) [#circle {x = 0, y = 0} 1.0])
