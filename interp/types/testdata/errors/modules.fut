-- Modules that do not match their module types.
module type S = { type t val x : t val f : t -> i32 }
module A : S = { type t = i32 def x = 1 } -- ERROR 16 "does not define the value f"
module B : S = { type t = i32 def x = 1 def f (y: f32) = 2 } -- ERROR 16 "the value f has type f32 -> i32 in the module, but the module type requires i32 -> i32"
module C : S = { type t = i32 def x = 1 def f (y: i32) = y }
def c = C.x + 1 -- ERROR 9 "expected C.t|expected t|found t"
module type T = { type t }
module D : T with t = i32 = { type t = f32 } -- ERROR 29 "the type t is f32 in the module, but the module type requires i32"
module F (X: T) = { def id (x: X.t) = x }
module G = F({ type t = bool })
def g = G.id 1 -- ERROR 14 "expected bool"
def h = G.id true
module type U = T with u = i32 -- ERROR 17 "no type u"
