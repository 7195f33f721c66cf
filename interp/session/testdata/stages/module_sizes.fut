-- A size named through a module (Size.n, a functor's parameter or a
-- plain module's member) that only a result type fixes: rep's [n] is
-- inferred from the ascription, and the evaluator finds it by the name
-- as written, in scope where the type was written.

module vectors (Size: {val n: i64}) = {
  type vector = [Size.n]f32
  def zero : vector = rep 0
  def fill (x: f32) : vector = rep x
  def axpy (a: f32) (x: vector) (y: vector) : vector = map2 (\p q -> a * p + q) x y
}

module v3 = vectors { def n = 3i64 }

module Dims = { def k = 4i64 }
def ones : [Dims.k]i32 = rep 1

-- ==
-- entry: main
-- input { 2f32 } output { [2f32, 2f32, 2f32] [5f32, 5f32, 5f32] [1i32, 1i32, 1i32, 1i32] }
entry main (x: f32) = (copy v3.zero |> map (+ x), v3.axpy x (v3.fill 2) (v3.fill 1), copy ones)
