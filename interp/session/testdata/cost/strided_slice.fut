-- A slice with a stride, or of an inner dimension, is a view in the
-- source (one step); the plan gathers its elements with maps marked as
-- that view, whose reads and positions are implicit, also where a
-- consumer fuses them.
-- ==
-- entry: stride
-- input { [1, 2, 3, 4, 5, 6, 7] 1i64 6i64 2i64 }
-- output { [2, 4, 6] }
-- input { [1, 2, 3, 4, 5, 6, 7] 6i64 0i64 -3i64 }
-- output { [7, 4] }

entry stride (xs: []i32) (i: i64) (j: i64) (s: i64) : []i32 =
  xs[i:j:s]

-- ==
-- entry: inner
-- input { [[1, 2, 3], [4, 5, 6]] 1i64 3i64 }
-- output { [[2, 3], [5, 6]] }

entry inner [n] [m] (xss: [n][m]i32) (i: i64) (j: i64) : [n][]i32 =
  xss[0:n, i:j]

-- ==
-- entry: backwards
-- input { [[1, 2, 3], [4, 5, 6]] }
-- output { [[3, 2, 1], [6, 5, 4]] }

entry backwards (xss: [][]i32) : [][]i32 =
  xss[:, ::-1]

-- ==
-- entry: summed
-- input { [1, 2, 3, 4, 5, 6, 7] }
-- output { 24 }

entry summed (xs: []i32) : i32 =
  reduce (+) 0 (map (\x -> x * 2) xs[::3])
