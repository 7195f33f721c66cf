-- Definitions named like prelude functions shadow them: this map applies
-- its function twice, sum is a product, and length is a constant.
-- ==
-- input { [1, 2, 3] } output { [3, 4, 5] 6i32 42i64 }

def prelude_map = map

def map (f: i32 -> i32) (xs: []i32) : []i32 = prelude_map f (prelude_map f xs)

def sum (xs: []i32) : i32 = reduce (*) 1 xs

def length [n] (_: [n]i32) : i64 = 42

def main (xs: []i32) : ([]i32, i32, i64) = (map (+ 1) xs, sum xs, length xs)

-- ==
-- entry: big
-- input { 100000i64 } output { 100004i64 }

entry big (n: i64) : i64 =
  let ys = map (\x -> x + 1) (prelude_map i32.i64 (iota n))
  in i64.i32 ys[n - 1] + 2 + length ys - 42 + i64.i32 (sum [1, 1])
