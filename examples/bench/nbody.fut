-- | GPU benchmark: accelerations of n bodies, all pairs, softening 1e-3,
-- with masses (BENCHMARKS.md: nbody, 2^15 bodies, f32). Written with a
-- record vector type as examples/nbody.fut is; the map over bodies of a
-- reduction over bodies becomes one tiled kernel.
--
-- cost of main xs xs xs xs
--   where xs = map (\i -> f32.i64 i) (iota n)
--   for n = 16..256
--   as written: W n^2, D log n
-- ==
-- input { [0f32, 1f32] [0f32, 0f32] [0f32, 0f32] [1f32, 2f32] }
-- output { [1.999997f32, -0.9999985f32] [0f32, 0f32] [0f32, 0f32] }
-- compiled random input { [32768]f32 [32768]f32 [32768]f32 [32768]f32 }

type vec = {x: f32, y: f32, z: f32}

def vsub (a: vec) (b: vec) : vec = {x = a.x - b.x, y = a.y - b.y, z = a.z - b.z}
def vadd (a: vec) (b: vec) : vec = {x = a.x + b.x, y = a.y + b.y, z = a.z + b.z}
def vscale (s: f32) (a: vec) : vec = {x = s * a.x, y = s * a.y, z = s * a.z}

def accel (pi: vec) (pj: vec) (mj: f32) : vec =
  let d = vsub pj pi
  let r2 = d.x * d.x + d.y * d.y + d.z * d.z + 1e-3 * 1e-3
  let inv = 1 / f32.sqrt r2
  in vscale (mj * inv * inv * inv) d

entry main [n] (xs: [n]f32) (ys: [n]f32) (zs: [n]f32) (ms: [n]f32) : ([n]f32, [n]f32, [n]f32) =
  let ps = map3 (\x y z -> {x, y, z}) xs ys zs
  let as = map (\pi -> reduce vadd {x = 0, y = 0, z = 0} (map2 (accel pi) ps ms)) ps
  in (map (.x) as, map (.y) as, map (.z) as)
