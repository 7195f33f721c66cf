-- rotate makes a new array, one step per element, as concat and transpose
-- do; the plan gathers the elements with a map whose offset, positions
-- and reads are implicit, so it costs those steps too.
-- ==
-- input { 1i64 [1, 2, 3, 4] }
-- output { [2, 3, 4, 1] }
-- input { -5i64 [1, 2, 3, 4] }
-- output { [4, 1, 2, 3] }
-- input { 3i64 empty([0]i32) }
-- output { empty([0]i32) }

entry main (k: i64) (xs: []i32) : []i32 =
  rotate k xs
