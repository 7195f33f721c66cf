-- Point-free entry points: the root takes the arguments its type says.

def f (x: i32) = x * 3 + 1
-- ==
-- entry: main
-- input { [1,2,3] } output { [4i32, 7i32, 10i32] }
entry main = map f
-- ==
-- entry: add
-- input { 1i32 2i32 } output { 3i32 }
entry add = (+)
-- ==
-- entry: sums
-- input { [1,2] [3,4] } output { [4i32, 6i32] }
entry sums = map2 (+)
