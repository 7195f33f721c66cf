-- Modules, module types, functors, with, open, local.
module type monoid = {
  type t
  val op : t -> t -> t
  val ne : t
}

module sum_i32 : monoid with t = i32 = {
  type t = i32
  def op (x: i32) (y: i32) = x + y
  def ne = 0i32
}

module fold (M: monoid) = {
  def fold [n] (xs: [n]M.t) : M.t = reduce M.op M.ne xs
  local def twice (x: M.t) = M.op x x
  def double (x: M.t) = twice x
}

module F = fold sum_i32
def six = F.fold [1, 2, 3]
def eight = F.double 4

module type has_size = { val n : i64 }
module sized (S: has_size) = { def zeros : [S.n]f32 = replicate S.n 0 }
module three = sized { def n = 3i64 }
def z = length three.zeros

module nested = { module inner = { def x = 1i32 } }
open nested.inner
def y = x + 1

module pair (A: { type t }) (B: { type t }) = { type t = (A.t, B.t) }
module P = pair { type t = i32 } { type t = bool }
def p : P.t = (1, true)

-- a refinement whose parameter is more lifted than the original's
-- expands the type (it is functional only by what it is given)
module type has_t = { type t 'a }
module type has_t_lifted = has_t with t '^a = a

-- a size named through a module, fixed only by a result type
module dims = { def k = 4i64 }
def fours : [dims.k]i32 = rep 4

-- a lambda that updates a record takes its parameter's type from the
-- array after it
type octnode = {body: i32}
def clear (octree: []octnode) (i: i32) = map (\n -> if n.body != i then n else n with body = 0) octree
