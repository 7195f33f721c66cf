-- Escape counts of a loop whose state starts at a value its body also
-- reads (loop (c, i) = (c0, 0) … c0 + c²): on an H100 such a loop once
-- came out adding c² to the current c instead of c0 (gpu/kernel's
-- isConst says how). The counts here are the reference path's.
-- ==
-- input { 10i64 10i64 100 0f32 0f32 1f32 1f32 }
-- output {
--   [[100, 100, 100, 100, 100, 100, 100, 12, 17, 7],
--    [100, 100, 100, 100, 100, 100, 100, 8, 5, 4],
--    [100, 100, 100, 100, 100, 100, 11, 5, 4, 3],
--    [11, 100, 100, 100, 100, 100, 14, 5, 4, 3],
--    [6, 7, 30, 14, 8, 6, 14, 4, 3, 2],
--    [4, 4, 4, 5, 4, 4, 3, 3, 2, 2],
--    [3, 3, 3, 3, 3, 2, 2, 2, 2, 2],
--    [2, 2, 2, 2, 2, 2, 2, 2, 2, 1],
--    [2, 2, 2, 2, 2, 2, 2, 1, 1, 1],
--    [2, 2, 2, 2, 2, 1, 1, 1, 1, 1]]
-- }

def escape (depth: i32) (c0r: f32) (c0i: f32) : i32 =
  let (_, _, i) =
    loop (cr, ci, i) = (c0r, c0i, 0)
    while i < depth && cr * cr + ci * ci < 4 do
      (c0r + (cr * cr - ci * ci), c0i + (cr * ci + ci * cr), i + 1)
  in i

entry main (w: i64) (h: i64) (depth: i32) (xmin: f32) (ymin: f32) (xmax: f32) (ymax: f32) : [w][h]i32 =
  map (\x -> map (\y -> escape depth (xmin + f32.i64 x * (xmax - xmin) / f32.i64 w)
                                     (ymin + f32.i64 y * (ymax - ymin) / f32.i64 h))
                 (iota h))
      (iota w)
