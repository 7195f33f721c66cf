-- | Module-level declarations.

-- | A module type.
module type monoid = {
  -- | The carrier.
  type t
  type^ fn 'a = a -> a
  type~ ex [n] = ?[m].[m]t
  val zero: t
  val (+): t -> t -> t
  val sum [n]: [n]t -> t
  module inner: { val x: i32 }
  include {}
}

module type endo = (m: monoid) -> monoid with t = m.t
module type two = monoid -> monoid
module type paren = (monoid) -> (two)

module i32m : monoid with t = i32 = {
  type t = i32
  type^ fn 'a = a -> a
  type~ ex [n] = ?[m].[m]t
  def zero = 0
  def (+) (x: i32) (y: i32) = x i32.+ y
  def sum [n] (xs: [n]t) = reduce (+) zero xs
  module inner = { def x = 1 }
}

module mk (m: monoid) (n: monoid) : monoid = m
module app = mk i32m (mk i32m i32m)
module lam = \(m: monoid) : monoid -> m
module imp = import "lib/foo"
module asc = (i32m : monoid)
open i32m
local open import "bar"
import "baz"
local def hidden = 1
#[noinline] entry main (xs: []i32) : i32 = sum xs
def (x: i32) <+> (y: i32) : i32 = x + y
let old_style = 1
type pair 'a 'b = (a, b)
type vec [n] 't = [n]t
type maybe 'a = #some a | #none
type rec = {x: i32, y: [3]f32, 0: bool}
type fn = (n: i64) -> [n]i32 -> *[n]i32
type app = vec [3] (pair i32 f32)
type uniq = *[]i32
