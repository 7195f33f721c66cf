-- ir: step ps cs
-- expect: soacs=7
-- k-means' step from the examples (dist2, nearest and step inlined).
def dist2 [d] (a: [d]f32) (b: [d]f32) : f32 =
  reduce (+) 0 (map2 (\x y -> (x - y) * (x - y)) a b)

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

def ps = [[0f32, 0f32], [10f32, 10f32], [0f32, 1f32], [10f32, 11f32], [1f32, 0f32]]
def cs = [[0f32, 0f32], [10f32, 10f32]]
