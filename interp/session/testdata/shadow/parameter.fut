-- Parameters and local bindings named like prelude functions, operators
-- and numeric modules mean the local value inside their scope.
-- ==
-- input { [1, 2, 3] 10 } output { [11, 12, 13] 6 [0, 1, 2] 16 }

def f (reduce: i32) (xs: []i32) : []i32 = map (\x -> x + reduce) xs

def g (map: []i32) : i32 = i32.sum map

def h (xs: []i32) : []i32 = let (+) = (-) in map (\x -> x + 1) xs

def k (iota: i32) : i32 = let f32 = iota * 2 in f32 - 4

def main (xs: []i32) (y: i32) : ([]i32, i32, []i32, i32) = (f y xs, g xs, h xs, k y)

-- ==
-- entry: big
-- input { 100000i64 } output { 199998i64 }

entry big (n: i64) : i64 =
  let sqrt = n - 1
  in reduce (\a b -> i64.max a b) 0 (map (\x -> x + sqrt) (iota n))
