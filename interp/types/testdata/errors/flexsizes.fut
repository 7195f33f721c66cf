-- The sizes of a binding's annotation and of a coercion are the value's:
-- where the value's type has no array to give one, it is ambiguous.
type~ either = #left ([]i32) | #right ([]f32)
type~ two = ([]i32, []i32)
type maybe 't = #just t | #nothing
def l1 (xs: []i32) = let v: either = #left xs in match v case #left a -> length a case #right b -> length b -- ERROR 29 "Ambiguous size arising from explicit type ascription: an anonymous size of \"either\" that the value does not decide"
def l2 (xs: []i32) (ys: []i32) = let (a, b): two = (xs, ys) in length a + length b
def l3 (xs: []i32) = let v: either = #left xs in length xs -- ERROR 29 "Ambiguous size arising from explicit type ascription"
def a1 (xs: []i32) = length xs + (match (#left xs : either) case #left _ -> 0 case #right _ -> 1) -- ERROR 53 "Ambiguous size arising from explicit type ascription"
def c1 (n: i64) = #nothing :> maybe ([3]i64) -- ERROR 19 "Ambiguous size arising from a size coercion where the underlying expression size cannot be determined"
def c2 (n: i64) = #just (iota n) :> maybe ([3]i64)
def c3 (xs: [][]i32) = (xs :> [1][]i32)[0]
def c4 (n: i64) (b: bool) : maybe ([3]i64) = if b then #just (iota n :> [3]i64) else #nothing
-- A declared result of a type with an existential size: the body decides
-- it once, for every place the type uses it (a function in it too).
type^ sized = ?[k].([k]i32, i32 -> [k]i32)
def r1 (n: i64) : sized = let m = n * 2 in (replicate m 0, \v -> replicate m v)
def r2 (n: i64) : sized = let m = n * 2 in (replicate m 0, \v -> replicate n v) -- ERROR 27 "Sizes .* and \"n\" do not match"
def r3 (n: i64) = let (a, f) = r1 n in zip a (f 1)
-- An anonymous size of a declared type is introduced with the definition:
-- it cannot be given by the parameter of a function inside that type.
def d1 : i64 -> [][]i64 = \n -> replicate n (replicate n 0) -- ERROR 27 "Cannot link an anonymous size of the declared type to \"n\" \(scope-violation\)"
def d2 : i64 -> []i64 = \k -> iota (k + 1) -- ERROR 25 "to \"k \+ 1\" \(scope-violation\)"
def d3 : (n: i64) -> [n][n]i64 = \n -> replicate n (replicate n 0)
def d4 : i64 -> []i64 = \_ -> iota 3
