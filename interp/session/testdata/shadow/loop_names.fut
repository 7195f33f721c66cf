-- A loop's variables shadow its index and its element pattern when they
-- share a name (the checker binds the loop's pattern inside the form's
-- names), on every path.
-- ==
-- entry: by_index
-- input { [0, 1, 2, 3, 4] }
-- output { [1, 3, 7, 15, 31] }

-- ==
-- entry: by_element
-- input { [[1, 2, 3], [4, 5, 6]] }
-- output { [7, 7] }

-- ==
-- entry: by_tuple
-- input { [3i64, 5i64] }
-- output { [3i64, 5i64] [1i64, 2i64] }

entry by_index (ns: []i32) : []i32 =
  map (\n -> loop i = 1 for i < n do i * 2 + 1) ns

entry by_element [m][k] (xss: [m][k]i32) : [m]i32 =
  map (\xs -> loop x = 0 for x in xs do x * 2 + 1) xss

entry by_tuple (ns: []i64) : ([]i64, []i64) =
  unzip (map (\n -> loop (i, s) = (0, 0) for i < n do (i + 1, s + i % 2)) ns)

-- Large enough to be offloaded by the default backend: the sum over
-- k < n of loop i = 1 for i < k % 8 do i * 2 + 1, that is of
-- 2^(k % 8 + 1) - 1 (502 for each eight).
-- ==
-- entry: big
-- input { 200000i64 } output { 12550000i64 }
-- input { 3i64 } output { 11i64 }

entry big (n: i64) : i64 =
  i64.sum (map (\k -> loop i = 1 for i < k % 8 do i * 2 + 1) (iota n))
