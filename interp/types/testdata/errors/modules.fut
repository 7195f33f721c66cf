-- Modules that do not match their module types.
module type S = { type t val x : t val f : t -> i32 }
module A : S = { type t = i32 def x = 1 } -- ERROR 16 "Module does not define the value \"f\" that the module type requires\." -- WARNING 35 "Defaulting ambiguous type to i32"
module B : S = { type t = i32 def x = 1 def f (y: f32) = 2 } -- ERROR 16 "Module type mismatch: the module type requires \"val f : i32 -> i32\", but the module defines \"val f : f32 -> i3" -- WARNING 35 "Defaulting ambiguous type to i32" -- WARNING 45 "Defaulting ambiguous type to i32"
module C : S = { type t = i32 def x = 1 def f (y: i32) = y } -- WARNING 35 "Defaulting ambiguous type to i32"
def c = C.x + 1 -- ERROR 9 "Cannot unify \"t\" with a numeric type: it is not one of the types allowed here\."
module type T = { type t }
module D : T with t = i32 = { type t = f32 } -- ERROR 29 "Module type mismatch: the module type requires \"type t = i32\", but the module defines it as \"f32\"\."
module F (X: T) = { def id (x: X.t) = x }
module G = F({ type t = bool })
def g = G.id 1 -- ERROR 14 "Cannot unify \"bool\" with a numeric type: it is not one of the types allowed here\."
def h = G.id true
module type U = T with u = i32 -- ERROR 17 "Cannot refine a type: the module type has no type \"u\"\."
-- A refinement may give an abstract type a type with anonymous sizes.
module type enc = { type t val num : t -> i64 }
module enc_arr : enc with t = []i32 = { type~ t = ?[n].[n]i32 def num (x: t) = length x }
-- A parametric module ascribed a parametric module type must accept every
-- argument that the module type accepts.
module op_bad = (\(X: {type t = i64 val x : i64}) -> {def x = X.x}) : (X: {type t val x : i64}) -> {val x : i64} -- ERROR "the module type requires \"type t = i64\", but the module defines it as \"t\""
module op_ok = (\(X: {type t val x : t}) -> {def x = X.x}) : (X: {type t val x : t}) -> {val x : X.t}
-- An abstract type's size parameters must be sizes of arrays in its
-- definition; an abbreviation holding a size-lifted type must be type~.
module abs_sum : { type sum [n] [m] } = { type sum [n] [m] = [n + m]bool } -- ERROR "size parameter \"n\" is not used constructively"
module abs_ok : { type pair [n] [m] } = { type pair [n] [m] = ([n]bool, [m]bool) }
module type has_ctx = { type~ pctx }
module wrap (K: has_ctx) = {
  type inner 'c = {ctx: c}
  type bad = inner K.pctx -- ERROR "Non-size-lifted type abbreviations may not contain size-lifted types"
  type~ good = inner K.pctx
}
-- A refined abstract type keeps the liftedness its module type declares.
module type hk = { type~ ctx }
module type arr = { type ctx }
module mk_arr (K: hk) : arr with ctx = K.ctx = { type~ ctx = K.ctx }
module use_arr (K: hk) = { module m = mk_arr K type c = m.ctx }
-- Two abstract types of one name are told apart by their modules.
module type has_t = { module M: {type t val x : t val f : t -> t} }
module Q0 : has_t = { module M = { type t = i32 def x = 0i32 def f (y: t) = y + 1 } }
module Q1 : has_t = Q0
def mixed () = Q1.M.f Q0.M.x -- ERROR "Expected: Q1.M.t\nActual:   Q0.M.t"
-- A value whose abstract type the module defines with a size of its own.
module type bag = { type~ bag val none : bag val put : i32 -> bag -> bag }
module list_bag : bag = { type~ bag = []i32 def none : bag = [] def put (x: i32) (b: bag) : bag = b ++ [x] } -- ERROR 25 "Type substitution in \"none\" results in a top-level size"
module type bag2 = { type~ bag val mk : i64 -> bag val put : i32 -> bag -> bag }
module list_bag2 : bag2 = { type~ bag = []i32 def mk (n: i64) : bag = replicate n 0 def put (x: i32) (b: bag) : bag = b ++ [x] }
