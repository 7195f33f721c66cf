-- | k-means clustering of points in d dimensions, a fixed number of
-- iterations, starting from the first k points as centres.
--
-- Cost growth for n points, k centres, d dimensions, t iterations:
-- work Θ(t·n·k·d), depth Θ(t·(log k + log n)), space Θ(n + k·d).
--
-- cost of main 4 3 ps
--   where ps = map (\i -> [f32.i64 (i % 7), f32.i64 (i % 5)]) (iota n)
--   for n = 2^6..2^10
--   as written: W n, D log n, S1 n, S∞ n
-- ==
-- input { 2i64 5i32 [[0f32, 0f32], [10f32, 10f32], [0f32, 1f32], [10f32, 11f32], [1f32, 0f32]] }
-- output { [[0.33333334f32, 0.33333334f32], [10f32, 10.5f32]] }

def dist2 [d] (a: [d]f32) (b: [d]f32) : f32 =
  reduce (+) 0 (map2 (\x y -> (x - y) * (x - y)) a b)

-- The index of the centre nearest to p (the first of equals).
def nearest [k][d] (cs: [k][d]f32) (p: [d]f32) : i64 =
  let (_, i) =
    reduce (\(da, ia) (db, ib) -> if db < da || (db == da && ib < ia) then (db, ib) else (da, ia))
           (f32.inf, -1)
           (map2 (\c i -> (dist2 c p, i)) cs (iota k))
  in i

def step [n][k][d] (ps: [n][d]f32) (cs: [k][d]f32) : [k][d]f32 =
  let owner = map (nearest cs) ps
  let counts = hist (+) 0 k owner (replicate n 1i32)
  let sums = reduce_by_index (replicate k (replicate d 0f32))
                             (map2 (+)) (replicate d 0f32) owner ps
  in map3 (\s c old -> if c == 0 then old else map (/ f32.i32 c) s) sums counts cs

entry main [n][d] (k: i64) (iters: i32) (ps: [n][d]f32) : [k][d]f32 =
  let cs = take k ps
  in loop cs for _i < iters do step ps cs
