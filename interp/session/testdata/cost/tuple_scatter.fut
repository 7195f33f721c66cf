-- A scatter and a copy of an array of pairs are one step each in the
-- source's rules; the plan makes one per field, the later ones marked as
-- parts of the first (scatter_part, copy_part: no work or depth of their
-- own beyond the copy's words), so that the plan costs no more.
-- ==
-- entry: pairs
-- input { [0, 2] [7, 8] [1, 2, 3] [4, 5, 6] }
-- output { [7, 2, 8] [7, 5, 8] }
-- entry: triples
-- input { [3, 1] [1.5f32, 2.5f32] [1f32, 2f32, 3f32, 4f32] }
-- output { [1f32, 2.5f32, 3f32, 1.5f32] [1f32, 5f32, 3f32, 3f32] [1f32, 4f32, 3f32, 4f32] }

entry pairs [k] [n] (is: [k]i32) (vs: [k]i32) (xs: *[n]i32) (ys: *[n]i32) : ([n]i32, [n]i32) =
  unzip (scatter (copy (zip xs ys)) (map i64.i32 is) (zip vs vs))

entry triples [k] [n] (is: [k]i32) (vs: [k]f32) (xs: [n]f32) =
  let d = copy (zip3 xs xs xs)
  in unzip3 (scatter d (map i64.i32 is) (map (\v -> (v, v * 2, 4)) vs))
