-- | Dense matrix multiplication as map-map-reduce-map2.
--
-- Cost growth for n×n matrices: work Θ(n³), depth Θ(log n); sequential
-- space Θ(n²); parallel space Θ(n³) as written (each of the n² dot
-- products materialises its n products), Θ(n²) once fused.
--
-- cost of main a a
--   where a = map (\i -> map (\j -> i32.i64 (i + j)) (iota n)) (iota n)
--   for n = 2^2..2^5
--   as written: W n^3, D log n, S1 n^2, S∞ n^3
--   fused: W n^3, D log n, S∞ n^2
-- ==
-- input { [[1, 2], [3, 4]] [[5, 6], [7, 8]] }
-- output { [[19, 22], [43, 50]] }
-- input { [[1, 2, 3]] [[1], [2], [3]] }
-- output { [[14]] }

def matmul [n][m][p] (a: [n][m]i32) (b: [m][p]i32) : [n][p]i32 =
  map (\row -> map (\col -> reduce (+) 0 (map2 (*) row col)) (transpose b)) a

entry main [n][m][p] (a: [n][m]i32) (b: [m][p]i32) : [n][p]i32 =
  matmul a b
