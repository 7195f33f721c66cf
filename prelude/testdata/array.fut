-- The array functions of fut's prelude.

-- ==
-- entry: test_ends
-- input { [5, 6, 7] } output { 3i64 false 5 7 [6, 7] [5, 6] }
entry test_ends (xs: []i32) : (i64, bool, i32, i32, []i32, []i32) =
  (length xs, null xs, head xs, last xs, tail xs, init xs)

-- ==
-- entry: test_null
-- input { empty([0]i32) } output { true 0i64 }
entry test_null (xs: []i32) : (bool, i64) = (null xs, length xs)

-- ==
-- entry: test_take_drop
-- input { [1, 2, 3, 4] } output { [1, 2] [3, 4] [4, 3, 2, 1] }
entry test_take_drop (xs: []i32) : ([]i32, []i32, []i32) =
  (take 2 xs, drop 2 xs, reverse xs)

-- ==
-- entry: test_split
-- input { [1, 2, 3, 4] } output { [1] [2, 3, 4] }
entry test_split (xs: [4]i32) : ([1]i32, [3]i32) = split (xs :> [1 + 3]i32)

-- ==
-- entry: test_concat
-- input { [1, 2] [3] } output { [1, 2, 3] [3, 1, 2] }
entry test_concat (xs: []i32) (ys: []i32) : ([]i32, []i32) = (xs ++ ys, concat ys xs)

-- ==
-- entry: test_iota
-- input { 4i64 } output { [0i64, 1i64, 2i64, 3i64] [7, 7, 7, 7] [0i64, 1i64, 2i64, 3i64] }
-- input { 0i64 } output { empty([0]i64) empty([0]i32) empty([0]i64) }
entry test_iota (n: i64) : ([]i64, []i32, []i64) =
  let xs = replicate n 7i32
  in (iota n, xs, indices xs)

-- ==
-- entry: test_rotate
-- input { [1, 2, 3] } output { [2, 3, 1] [3, 1, 2] [1, 2, 3] }
entry test_rotate (xs: []i32) : ([]i32, []i32, []i32) =
  (rotate 1 xs, rotate (-1) xs, rotate 3 xs)

-- ==
-- entry: test_reshape
-- input { [[1, 2], [3, 4]] } output { [1, 2, 3, 4] [[1, 3], [2, 4]] }
entry test_reshape (xss: [][]i32) : ([]i32, [][]i32) = (flatten xss, transpose xss)

-- ==
-- entry: test_unflatten
-- input { [1, 2, 3, 4, 5, 6] } output { [[1, 2, 3], [4, 5, 6]] }
entry test_unflatten (xs: [6]i32) : [2][3]i32 = unflatten (xs :> [2 * 3]i32)

-- ==
-- entry: test_unflatten_3d
-- input { [1, 2, 3, 4, 5, 6, 7, 8] } output { [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] [1, 2, 3, 4, 5, 6, 7, 8] }
entry test_unflatten_3d (xs: [8]i32) : ([2][2][2]i32, []i32) =
  let ys = unflatten_3d (xs :> [2 * 2 * 2]i32)
  in (ys, flatten_3d ys)

-- ==
-- entry: test_transpose_rect
-- input { [[1, 2], [3, 4], [5, 6]] } output { [[1, 3, 5], [2, 4, 6]] }
entry test_transpose_rect (xss: [][]i32) : [][]i32 = transpose xss

-- ==
-- entry: test_folds
-- input { [1, 2, 3] } output { -6 2 }
entry test_folds (xs: []i32) : (i32, i32) = (foldl (-) 0 xs, foldr (-) 0 xs)

-- ==
-- entry: test_tabulate
-- input { } output { [0i64, 1i64, 4i64] [[0i64, 1i64, 2i64], [3i64, 4i64, 5i64]] }
entry test_tabulate : ([]i64, [][]i64) =
  (tabulate 3 (\i -> i * i), tabulate_2d 2 3 (\i j -> i * 3 + j))

-- ==
-- entry: test_zip
-- input { [1, 2] [true, false] [1.5, 2.5] } output { [1.5, 3.5] [1, 2] [true, false] }
entry test_zip [n] (xs: [n]i32) (bs: [n]bool) (fs: [n]f64) : ([n]f64, [n]i32, [n]bool) =
  let (xs', bs', fs') = unzip3 (zip3 xs bs fs)
  in (map2 (\x f -> f64.i32 x + f - 1) xs' fs', xs', bs')

-- ==
-- entry: test_and_or
-- input { [true, false] } output { false true }
-- input { empty([0]bool) } output { true false }
entry test_and_or (bs: []bool) : (bool, bool) = (and bs, or bs)

-- ==
-- entry: test_copy
-- input { [1, 2, 3] } output { [1, 9, 3] [1, 2, 3] }
entry test_copy (xs: []i32) : ([]i32, []i32) =
  let ys = copy xs
  in (ys with [1] = 9, xs)

-- ==
-- entry: test_flatmap
-- input { [2i64, 0i64, 3i64] }
-- output { [2i64, 0i64, 3i64] [true, false, true, false, false] [0i64, 2i64, 2i64] [2i64, 2i64, 3i64, 3i64, 3i64] [4i64, 0i64, 6i64] }
-- input { [0i64, 0i64] }
-- output { [0i64, 0i64] empty([0]bool) [0i64, 0i64] empty([0]i64) [0i64, 0i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) empty([0]bool) empty([0]i64) empty([0]i64) empty([0]i64) }
entry test_flatmap (xs: []i64) = flatmap (\x -> (replicate x x, x * 2)) xs

-- ==
-- entry: test_flatmap'
-- input { [1i64, 2i64] } output { [1i64, 2i64] [true, true, false] [0i64, 1i64] [0i64, 0i64, 1i64] }
entry test_flatmap' (xs: []i64) = flatmap' iota xs
