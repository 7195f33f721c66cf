-- Entry points are called from outside, with first-order values.
entry a (x: i32) = (x, \(y: i32) -> x + y) -- ERROR 7 "Entry point functions may not be higher-order, but this one returns \"\(i32, i32 -> i32\)"
entry b (f: i32 -> i32) = f 1 -- ERROR 9 "Entry point functions may not be higher-order, but this parameter has type \"i32 -> i32\""
entry c 't (x: t) = x -- ERROR 7 "Entry point functions may not be polymorphic, but \"c\" has type parameters\."
entry d (x: i32) = x + 1
-- A size only in an argument of an abstract type is no array's size.
module phantom : { type c 'a 'b val mk 'a 'b : a -> b -> c a b } = { type c 'a 'b = a def mk x _ = x }
entry ph [n] [m] (_: phantom.c ([n]i64) ([m]i64)) = m -- ERROR "Entry point size parameter \"\[n\]\" is only used non-constructively"
