-- A functor applied twice, an abstract type, and a type abbreviation.
-- ir: both [1, 2, 3]

module type monoid = { type t val op : t -> t -> t val ne : t }
module sum (M: monoid) = { def total [n] (xs: [n]M.t) : M.t = reduce M.op M.ne xs }
module add_i32 : monoid with t = i32 = { type t = i32 def op (a: t) (b: t) = a + b def ne : t = 0 }
module max_i32 : monoid with t = i32 = { type t = i32 def op = i32.max def ne = i32.lowest }
module S = sum add_i32
module X = sum max_i32
type pair = (i32, i32)

def both (xs: []i32) : pair = (S.total xs, X.total xs)
