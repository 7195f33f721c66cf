-- A user's definition of an operator shadows the built-in one everywhere
-- after it: in a binary expression, as a section and as an argument of a
-- SOAC. Here (+) is the maximum and (*) the difference.
-- ==
-- input { [1, 5, 3] } output { 5 [2, 6, 4] -5 }
-- input { [6, 1, 2, 3] } output { 6 [7, 2, 3, 4] -1 }

def (+) (a: i32) (b: i32) : i32 = i32.max a b

def (*) (a: i32) (b: i32) : i32 = a - b

def main (xs: []i32) : (i32, []i32, i32) =
  (reduce (+) 0 xs, map (\x -> x + 0 + (x * -1)) xs, xs[0] * xs[1] * xs[0])

-- Large enough to be offloaded by the default backend.
-- ==
-- entry: big
-- input { 200000i64 } output { 6 }
-- input { 3i64 } output { 2 }

entry big (n: i64) : i32 = reduce (+) 0 (map (\i -> i32.i64 (i % 7)) (iota n))
