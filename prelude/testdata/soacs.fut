-- The SOACs of fut's prelude, one entry point each.

-- ==
-- entry: test_map2
-- input { [1, 2, 3] [10, 20, 30] } output { [11, 22, 33] }
-- input { empty([0]i32) empty([0]i32) } output { empty([0]i32) }
entry test_map2 [n] (xs: [n]i32) (ys: [n]i32) : [n]i32 = map2 (+) xs ys

-- ==
-- entry: test_map3
-- input { [1, 2, 3] [4, 5, 6] [7, 8, 9] } output { [29, 42, 57] }
entry test_map3 [n] (as: [n]i32) (bs: [n]i32) (cs: [n]i32) : [n]i32 =
  map3 (\a b c -> a + b * c) as bs cs

-- ==
-- entry: test_map5
-- input { [1, 2] [3, 4] [5, 6] [7, 8] [9, 10] } output { [25, 30] }
entry test_map5 [n] (as: [n]i32) (bs: [n]i32) (cs: [n]i32) (ds: [n]i32) (es: [n]i32) : [n]i32 =
  map5 (\a b c d e -> a + b + c + d + e) as bs cs ds es

-- ==
-- entry: test_reduce
-- input { [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] } output { 55 3628800 }
-- input { empty([0]i32) } output { 0 1 }
entry test_reduce (xs: []i32) : (i32, i32) =
  (reduce (+) 0 xs, reduce_comm (*) 1 xs)

-- ==
-- entry: test_scan
-- input { [1, 2, 3, 4] } output { [1, 3, 6, 10] [0, 1, 3, 6] }
-- input { empty([0]i32) } output { empty([0]i32) empty([0]i32) }
entry test_scan [n] (xs: [n]i32) : ([n]i32, [n]i32) =
  (scan (+) 0 xs, exscan (+) 0 xs)

-- ==
-- entry: test_filter
-- input { [1, 2, 3, 4, 5, 6] } output { [2, 4, 6] }
-- input { [1, 3] } output { empty([0]i32) }
entry test_filter (xs: []i32) : []i32 = filter (\x -> x % 2 == 0) xs

-- ==
-- entry: test_partition
-- input { [5, 1, 4, 2, 3] } output { [1, 2] [5, 4, 3] }
entry test_partition (xs: []i32) : ([]i32, []i32) = partition (< 3) xs

-- ==
-- entry: test_partition2
-- input { [5, 1, 4, 2, 3, 0] } output { [1, 0] [2, 3] [5, 4] }
entry test_partition2 (xs: []i32) : ([]i32, []i32, []i32) = partition2 (< 2) (< 4) xs

-- ==
-- entry: test_hist
-- input { [0i64, 1i64, 0i64, 2i64, 5i64, -1i64] [1, 2, 3, 4, 5, 6] } output { [4, 2, 4] }
entry test_hist [n] (is: [n]i64) (vs: [n]i32) : []i32 = hist (+) 0 3 is vs

-- ==
-- entry: test_reduce_by_index
-- input { [10, 10] [0i64, 1i64, 1i64, -1i64] [3, 20, 5, 100] } output { [10, 20] }
entry test_reduce_by_index [k] [n] (dest: *[k]i32) (is: [n]i64) (vs: [n]i32) : [k]i32 =
  reduce_by_index dest i32.max i32.lowest is vs

-- ==
-- entry: test_reduce_by_index_2d
-- input { [1i64, 0i64, 1i64] [1i64, 1i64, 1i64] [1, 2, 3] } output { [[0, 2], [0, 4]] }
entry test_reduce_by_index_2d [n] (is: [n]i64) (js: [n]i64) (vs: [n]i32) : [2][2]i32 =
  reduce_by_index_2d (replicate 2 (replicate 2 0)) (+) 0 (zip is js) vs

-- ==
-- entry: test_scatter
-- input { [0, 0, 0, 0] [1i64, 3i64, -1i64, 4i64] [5, 6, 7, 8] } output { [0, 5, 0, 6] }
entry test_scatter [k] [n] (dest: *[k]i32) (is: [n]i64) (vs: [n]i32) : [k]i32 =
  scatter dest is vs

-- ==
-- entry: test_scatter_2d
-- input { } output { [[0, 5], [6, 0]] }
entry test_scatter_2d : [2][2]i32 =
  scatter_2d (replicate 2 (replicate 2 0)) [(0, 1), (1, 0)] [5, 6]

-- ==
-- entry: test_spread
-- input { } output { [1, 9, 2, 9] }
entry test_spread : []i32 = spread 4 9 [0, 2] [1, 2]

-- ==
-- entry: test_all_any
-- input { [1, 2, 3] } output { true false true }
-- input { empty([0]i32) } output { true false false }
entry test_all_any (xs: []i32) : (bool, bool, bool) =
  (all (> 0) xs, any (> 5) xs, any (== 2) xs)

-- ==
-- entry: test_streams
-- input { [1, 2, 3, 4, 5] } output { 15 [2, 4, 6, 8, 10] }
entry test_streams [n] (xs: [n]i32) : (i32, [n]i32) =
  ( reduce_stream (+) (\_ c -> i32.sum c) xs
  , map_stream (\_ c -> map (* 2) c) xs
  )
