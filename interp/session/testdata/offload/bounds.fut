-- Reads past the end of an array in map kernels that move their
-- arrays 16 bytes at a time (opencl.MapVec): the index out of bounds is
-- the answer, never the values past the end. The vector paths once
-- skipped the check and gave 0s there.
-- ==
-- entry: gather
-- input { [1f32, 2f32, 3f32, 4f32, 5f32, 6f32, 7f32, 8f32] 8i64 }
-- output { [2f32, 4f32, 6f32, 8f32, 10f32, 12f32, 14f32, 16f32] }
-- input { [1f32, 2f32, 3f32, 4f32, 5f32, 6f32, 7f32, 8f32] 12i64 }
-- error: out of bounds

entry gather (xs: []f32) (n: i64) : []f32 =
  map (\i -> xs[i] * 2) (iota n)

-- ==
-- entry: add
-- input { [1f32, 2f32, 3f32, 4f32] [10f32, 20f32, 30f32, 40f32, 50f32, 60f32, 70f32, 80f32] }
-- error: out of bounds
-- input { [1f32, 2f32, 3f32, 4f32, 5f32, 6f32, 7f32, 8f32] [10f32, 20f32, 30f32, 40f32, 50f32, 60f32, 70f32, 80f32] }
-- output { [11f32, 22f32, 33f32, 44f32, 55f32, 66f32, 77f32, 88f32] }

entry add [n] (xs: []f32) (ys: [n]f32) : [n]f32 =
  map (\i -> xs[i] + ys[i]) (iota n)
