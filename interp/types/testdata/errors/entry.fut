-- Entry points are called from outside, with first-order values.
entry a (x: i32) = (x, \(y: i32) -> x + y) -- ERROR 7 "Entry point functions may not be higher-order, but this one returns \"\(i32, i32 -> i32\)"
entry b (f: i32 -> i32) = f 1 -- ERROR 9 "Entry point functions may not be higher-order, but this parameter has type \"i32 -> i32\""
entry c 't (x: t) = x -- ERROR 7 "Entry point functions may not be polymorphic, but \"c\" has type parameters\."
entry d (x: i32) = x + 1
-- A size only in an argument of an abstract type is no array's size.
module phantom : { type c 'a 'b val mk 'a 'b : a -> b -> c a b } = { type c 'a 'b = a def mk x _ = x }
entry ph [n] [m] (_: phantom.c ([n]i64) ([m]i64)) = m -- ERROR "Entry point size parameter \"\[n\]\" is only used non-constructively"
-- A size of the declared result that nothing decides would be the caller's
-- to choose, which an entry point's caller cannot.
def nothing 't (k: i64) : [0]t = [] :> [0]t
entry undecided (k: i64) : [][]f32 = nothing k -- ERROR 7 "must not be size-polymorphic in their return type"
entry hole_ret (b: bool) : []u8 = ??? -- ERROR 7 "must not be size-polymorphic in their return type"
entry decided (k: i64) : [][]f32 = replicate k (replicate 2 0)
entry computed (xs: []i32) : []i32 = filter (> 0) xs
