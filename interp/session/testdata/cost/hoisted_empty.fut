-- A scalar that a SOAC's function computes the same for every element
-- (here from the loop's counter) is hoisted out of the function by the
-- simplifier and computed once per iteration. The source computes it for
-- each element, so over no elements not at all: the plan charges it where
-- an element first needs it, and over no elements not at all either.
-- ==
-- entry: shifted
-- input { [1, 2, 3] 4 }
-- output { [13, 14, 15] }
-- input { empty([0]i32) 4 }
-- output { empty([0]i32) }
entry shifted (xs: []i32) (k: i32) : []i32 =
  loop ys = xs for j < k do
    map (\y -> y + j * 2) ys

-- ==
-- entry: sieved
-- input { [2, 3, 4, 5, 6, 7, 8, 9] 3 }
-- output { [2, 3, 5, 7] }
-- input { empty([0]i32) 3 }
-- output { empty([0]i32) }
entry sieved (xs: []i32) (k: i32) : []i32 =
  loop ys = xs for j < k do
    filter (\y -> y == j + 2 || y % (j + 2) != 0) ys
