-- Modules through the source stages: a functor applied to two modules
-- ascribed with refined module types, and an opaque module.

module type mono = { type t val op: t -> t -> t val ne: t }
module sum_i32: mono with t = i32 = { type t = i32 def op = (+) def ne = 0i32 }
module max_f32: mono with t = f32 = { type t = f32 def op = f32.max def ne = -f32.inf }
module red (M: mono) = { def red [n] (xs: [n]M.t) = reduce M.op M.ne xs def twice (x: M.t) = M.op x x }
module R1 = red sum_i32
module R2 = red max_f32
module opaque : { type t val mk : i32 -> t val get : t -> i32 } = { type t = {v: i32} def mk x = {v = x * 2} def get (r: t) = r.v }
entry main (xs: []i32) (ys: []f32) =
  (R1.red xs, R2.red ys, R1.twice 5, R2.twice 1.5, opaque.get (opaque.mk 21), map (\x -> opaque.get (opaque.mk x)) xs)
-- ==
-- entry: main
-- input { [1,2,3] [1f32,5f32,2f32] } output { 6i32 5.0f32 10i32 1.5f32 42i32 [2i32, 4i32, 6i32] }
