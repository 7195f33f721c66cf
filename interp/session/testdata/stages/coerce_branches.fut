-- A size coercion to a type with anonymous sizes takes the value's sizes
-- at run time but states none: as a branch of an if whose other branch
-- has another size, the if's result has a size of its own (it was taken
-- to be the coerced value's, [1], and a call with the other branch
-- failed its result's type check).
-- ==
-- input { true 3i64 } output { [0i64, 1i64, 2i64] }
-- input { false 3i64 } output { [7i64] }
-- input { true 0i64 } output { empty([0]i64) }

type maybe 't = #just t | #nothing

def pick (b: bool) (n: i64) =
  if b then #just (iota n)
  else (#just [7i64] : maybe ([1]i64)) :> maybe ([]i64)

def main (b: bool) (n: i64) =
  match pick b n
  case #just xs -> xs
  case #nothing -> [0]
