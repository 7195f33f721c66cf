-- | Sparse matrix-vector product with the matrix in CSR form: row
-- offsets, column indices and values.
--
-- Cost growth for r rows and z non-zeros: work Θ(r + z), depth
-- Θ(log z) (one segmented reduction per row, done in parallel), space
-- Θ(r + z). The sweep below keeps three non-zeros per row, so there
-- the depth does not grow.
--
-- cost of main offsets cols vals x
--   where offsets = map (\i -> 3 * i) (iota (n + 1)), cols = map (\j -> (j * 7) % n) (iota (3 * n)), vals = replicate (3 * n) 1.0, x = replicate n 2.0
--   for n = 2^6..2^11
--   as written: W n, D 1, S1 n, S∞ n
-- ==
-- input { [0i64, 2i64, 3i64, 5i64] [0i64, 2i64, 1i64, 0i64, 2i64] [1.0, 2.0, 3.0, 4.0, 5.0] [1.0, 2.0, 3.0] }
-- output { [7.0, 6.0, 19.0] }
-- input { [0i64, 0i64] empty([0]i64) empty([0]f64) [1.0] }
-- output { [0.0] }

def row_dot (offsets: []i64) (cols: []i64) (vals: []f64) (x: []f64) (r: i64) : f64 =
  let start = offsets[r]
  let stop = offsets[r + 1]
  in reduce (+) 0 (map (\j -> vals[j] * x[cols[j]]) (start..<stop))

entry main [r1] (offsets: [r1]i64) (cols: []i64) (vals: []f64) (x: []f64) : []f64 =
  map (row_dot offsets cols vals x) (iota (r1 - 1))
