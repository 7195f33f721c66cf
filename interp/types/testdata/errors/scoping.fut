-- A file may redefine what an import or an open brought into scope; only
-- two definitions in the same list of declarations clash.
import "../imports/defs"
def main (x: i32) = x + 2
type t = f32
def uses_t (x: t) = x + 1f32
module m = { def v = 1i32 type u = i32 }
open m
def v = 2i32
type u = bool
def w = 1i32
def w = 2i32 -- ERROR 5 "Duplicate definition of \"w\" in this scope \(it is also defined at .*scoping.fut:11:5\)\."
type t2 = i32
type t2 = f32 -- ERROR 1 "Duplicate definition of type \"t2\""
module t2 = { } -- a module and a type may share a name
module w = { } -- ERROR 1 "Duplicate definition of \"w\""
module n = {
  def a = 1i32
  local def b = 2i32
  def b = 3i32
  def a = 4i32 -- ERROR 7 "Duplicate definition of \"a\""
}
-- What defs.fut imports it does not export.
def z = hidden -- ERROR "hidden"
