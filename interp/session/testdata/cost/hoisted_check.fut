-- The checks of unflatten (n * m is the array's length, n and m are not
-- negative) are made inside the lambda; the simplifier hoists their
-- scalars out of it, and they stay checks, which cost nothing.
-- ==
-- input { 2i64 2i64 }
-- output { [[[1, 0], [0, 0]], [[0, 1], [0, 0]]] }
-- input { 1i64 3i64 }
-- output { [[[1, 0, 0]], [[0, 1, 0]]] }
entry main (n: i64) (m: i64) : [2][n][m]i32 =
  tabulate 2 (\i -> unflatten (replicate (n * m) 0 with [i] = 1))
