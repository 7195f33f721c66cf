-- A function without a declared result type returns a unique value where
-- its body's value is fresh (as Futhark infers it), part by part.
def sr (xs: []i32) = map (\x -> x) xs
def er (xs: []i32) : *[]i32 = sr xs
def same (xs: []i32) = xs
def er2 (xs: []i32) : *[]i32 = same xs -- ERROR 32 "Unique-typed return value of \"er2\" is aliased to \"xs\""
def pair (xs: []i32) = (copy xs, xs)
def first (xs: []i32) : *[]i32 = (pair xs).0
def second (xs: []i32) : *[]i32 = (pair xs).1 -- ERROR 35 "aliased to \"xs\""
def twice (xs: []i32) = let ys = copy xs in (ys, ys)
def twice1 (xs: []i32) : *[]i32 = (twice xs).0 -- ERROR 35 "aliased to \"xs\""

-- The inferred uniqueness satisfies a module type's unique result.
module type mt = { val f [n] : [n]i32 -> *[n]i32 }
module m : mt = { def f [n] (xs: [n]i32) = map (+1) xs }

-- A top-level function passed as an argument aliases nothing.
def step (xs: []i32) = map (+1) xs
def consume (xs: *[]i32) = xs with [0] = 2
def iter (n: i32) (xs: []i32) = consume (iterate n step (copy xs))

-- The unique parts of a result do not alias its other parts or each other.
def g [n] (xs: [n]i32) : (*[n]i32, *[n]bool) = (copy xs, map (> 0) xs)
def h [n] (xs: [n]i32) : (*[n]i32, *[n]bool) = let (a, b) = g xs in (a, b)
def k [n] (xs: [n]i32) : (*[n]i32, [n]i32) = (copy xs, xs)
def kk [n] (xs: [n]i32) : (*[n]i32, [n]i32) = let (a, b) = k xs in (a, b)
def kb [n] (xs: [n]i32) : *[n]i32 = let (_, b) = k xs in b -- ERROR "aliased to \"xs\""

-- The result of a function parameter may alias it.
def fp (f: i32 -> []i32) : *[]i32 = f 1 -- ERROR "aliased to \"f\""

-- The result of applying a section or lambda aliases what it captured.
def app 'a 'b (g: a -> b) (xs: a) = g xs
def sec (xs: []i32) : *[]i32 = (`app` xs) id -- ERROR "aliased to \"xs\""
def lam (xs: []i32) : *[]i32 = (\_ -> xs) 0i32 -- ERROR "aliased to \"xs\""
