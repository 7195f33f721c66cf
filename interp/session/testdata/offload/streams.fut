-- Streams on the device: the flattener writes a stream as its fold over
-- the whole arrays (one chunk), so what the fold does runs as kernels.
-- TestOffloadedPrograms checks that every case ran on OpenCL (msid, a
-- copy, has no SOAC: it stays on the reference path).
-- ==
-- entry: sum_sq
-- input { [1f32, 2f32, 3f32, -4f32] } output { 30f32 }
-- entry: hist_s
-- input { [1i64, 2i64, 3i64, 1i64, 7i64] } output { [0i64, 2i64, 1i64, 1i64] }
-- entry: ms
-- input { [1i32, 2i32, 3i32] } output { [2i32, 4i32, 6i32] }
-- entry: msid
-- input { [1i32, 2i32, 3i32] } output { [1i32, 2i32, 3i32] }
-- entry: nested
-- input { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] } output { [3i32, 7i32, 11i32] }
-- entry: count
-- input { [1i32, -2i32, 3i32, -4i32, 5i32] } output { 3i64 }

entry sum_sq (xs: []f32) : f32 =
  reduce_stream (+) (\_ (c: []f32) -> f32.sum (map (\x -> x * x) c)) xs

entry hist_s (is: []i64) : []i64 =
  reduce_stream (map2 (+)) (\_ (c: []i64) -> hist (+) 0 4 c (map (const 1) c)) is

entry ms (xs: []i32) : []i32 =
  map_stream (\k (c: [k]i32) -> map (* 2) c) xs

entry msid (xs: []i32) : []i32 =
  map_stream (\_ c -> c) xs

entry nested (xss: [][]i32) : []i32 =
  map (\xs -> reduce_stream (+) (\_ (c: []i32) -> i32.sum c) xs) xss

entry count (xs: []i32) : i64 =
  reduce_stream_per (+) (\_ (c: []i32) -> length (filter (> 0) c)) xs
