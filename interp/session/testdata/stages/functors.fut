-- Modules through the source stages: a functor applied inside another, a
-- module type with a size, abstract types and type abbreviations.

module type vecspace = {
  type t
  val zero : t
  val add : t -> t -> t
  val scale : f32 -> t -> t
}

module v2 : vecspace with t = {x: f32, y: f32} = {
  type t = {x: f32, y: f32}
  def zero : t = {x = 0, y = 0}
  def add (a: t) (b: t) = {x = a.x + b.x, y = a.y + b.y}
  def scale (k: f32) (a: t) = {x = k * a.x, y = k * a.y}
}

module mean (V: vecspace) = {
  def sum [n] (xs: [n]V.t) : V.t = reduce V.add V.zero xs
  def mean [n] (xs: [n]V.t) : V.t = V.scale (1 / f32.i64 n) (sum xs)
}

module twice (V: vecspace) = {
  module M = mean V
  def twice_mean [n] (xs: [n]V.t) = V.add (M.mean xs) (M.mean xs)
}

module type sized = { val n : i64 val fill : i32 -> [n]i32 }
module three : sized = { def n = 3i64 def fill (x: i32) : [n]i32 = replicate n x }

module counter : { type c val new : i32 -> c val bump : c -> c val get : c -> i32 } = {
  type c = (i32, i32)
  def new (x: i32) = (x, 0)
  def bump ((x, k): c) = (x, k + 1)
  def get ((x, k): c) = x * 100 + k
}

module T = twice v2

entry main (xs: []f32) (ys: []f32) =
  let vs = map2 (\x y -> {x, y}) xs ys
  let m = T.twice_mean vs
  in (m.x, m.y, three.fill 7, counter.get (counter.bump (counter.bump (counter.new 5))))

-- ==
-- entry: main
-- input { [1f32, 2f32, 3f32] [4f32, 5f32, 6f32] }
-- output { 4.0f32 10.0f32 [7i32, 7i32, 7i32] 502i32 }
