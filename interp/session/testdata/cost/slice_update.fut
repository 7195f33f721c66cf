-- An update of a slice is one step in the source, however many elements
-- it writes (a view of the array, reused in place); the plan writes them
-- with a scatter whose own step follows that rule, and whose index
-- arithmetic, like the slice's length and checks, is implicit.
-- ==
-- entry: upd1
-- input { [1, 2, 3, 4, 5, 6] [8, 9, 10] 2i64 }
-- output { [1, 2, 8, 9, 10, 6] }
-- input { [1, 2, 3] empty([0]i32) 3i64 }
-- output { [1, 2, 3] }
-- input { [1, 2, 3] [7, 7] 2i64 }
-- error: out of bounds

entry upd1 [n] [m] (xs: *[n]i32) (ys: [m]i32) (i: i64) : [n]i32 =
  xs with [i:i + m] = ys

-- ==
-- entry: upd2
-- input { [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]] [[1, 2], [3, 4]] 1i64 3i64 }
-- output { [[0, 0, 0, 0], [0, 1, 2, 0], [0, 3, 4, 0]] }

entry upd2 [n] [m] (xss: *[n][m]i32) (vs: [][]i32) (i: i64) (j: i64) : [n][m]i32 =
  xss with [i:j, i:j] = vs

-- ==
-- entry: len
-- input { [1, 2, 3, 4, 5] 1i64 4i64 }
-- output { 3i64 }

entry len (xs: []i32) (i: i64) (j: i64) : i64 =
  length xs[i:j]
