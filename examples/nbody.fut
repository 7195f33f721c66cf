-- | Accelerations of n bodies under gravity, with softening, by the
-- all-pairs method.
--
-- Cost growth for n bodies: work Θ(n²), depth Θ(log n) (each body's
-- sum of n contributions is a reduction), sequential space Θ(n),
-- parallel space Θ(n²) as written and Θ(n) fused.
--
-- cost of main xs xs xs xs
--   where xs = map f32.i64 (iota n)
--   for n = 2^4..2^8
--   as written: W n^2, D log n, S1 n, S∞ n^2
--   fused: S∞ n
-- ==
-- input { [0f32, 1f32] [0f32, 0f32] [0f32, 0f32] [1f32, 2f32] }
-- output { [1.999997f32, -0.9999985f32] [0f32, 0f32] [0f32, 0f32] }

type vec = {x: f32, y: f32, z: f32}

def vsub (a: vec) (b: vec) : vec = {x = a.x - b.x, y = a.y - b.y, z = a.z - b.z}
def vadd (a: vec) (b: vec) : vec = {x = a.x + b.x, y = a.y + b.y, z = a.z + b.z}
def vscale (s: f32) (a: vec) : vec = {x = s * a.x, y = s * a.y, z = s * a.z}
def vzero : vec = {x = 0, y = 0, z = 0}

def softening : f32 = 1e-3

-- The acceleration that body j (at pj, with mass mj) gives body i at pi.
def accel (pi: vec) (pj: vec) (mj: f32) : vec =
  let d = vsub pj pi
  let r2 = d.x * d.x + d.y * d.y + d.z * d.z + softening * softening
  let inv = 1 / f32.sqrt r2
  in vscale (mj * inv * inv * inv) d

entry main [n] (xs: [n]f32) (ys: [n]f32) (zs: [n]f32) (ms: [n]f32) : ([n]f32, [n]f32, [n]f32) =
  let ps = map3 (\x y z -> {x, y, z}) xs ys zs
  let acc pi = reduce vadd vzero (map2 (accel pi) ps ms)
  let as = map acc ps
  in (map (.x) as, map (.y) as, map (.z) as)
