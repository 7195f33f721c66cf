-- | GPU benchmark: dense f32 matrix product, full f32 (BENCHMARKS.md:
-- matmul, 4096×4096). The nest becomes one tiled kernel (block and
-- register tiling); `transpose b` is read as a view.
--
-- cost of main a a
--   where a = map (\i -> map (\j -> f32.i64 (i + j)) (iota n)) (iota n)
--   for n = 4..32
--   as written: W n^3, D log n
-- ==
-- input { [[1f32, 2f32], [3f32, 4f32]] [[5f32, 6f32], [7f32, 8f32]] }
-- output { [[19f32, 22f32], [43f32, 50f32]] }
-- compiled random input { [4096][4096]f32 [4096][4096]f32 }

entry main [n][m][p] (a: [n][m]f32) (b: [m][p]f32) : [n][p]f32 =
  map (\row -> map (\col -> f32.sum (map2 (*) row col)) (transpose b)) a
