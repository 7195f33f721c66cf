-- ir: let ps = map3 (\x y z -> {x, y, z}) xs ys zs let acc pi = reduce vadd vzero (map2 (accel pi) ps ms) let as = map acc ps in (map (.x) as, map (.y) as, map (.z) as)
-- expect: soacs=2
type vec = {x: f32, y: f32, z: f32}
def vsub (a: vec) (b: vec) : vec = {x = a.x - b.x, y = a.y - b.y, z = a.z - b.z}
def vadd (a: vec) (b: vec) : vec = {x = a.x + b.x, y = a.y + b.y, z = a.z + b.z}
def vscale (s: f32) (a: vec) : vec = {x = s * a.x, y = s * a.y, z = s * a.z}
def vzero : vec = {x = 0, y = 0, z = 0}
def softening : f32 = 1e-3
def accel (pi: vec) (pj: vec) (mj: f32) : vec =
  let d = vsub pj pi
  let r2 = d.x * d.x + d.y * d.y + d.z * d.z + softening * softening
  let inv = 1 / f32.sqrt r2
  in vscale (mj * inv * inv * inv) d
def xs = [0f32, 1f32, 3f32]
def ys = [0f32, 0f32, 1f32]
def zs = [0f32, 0f32, 2f32]
def ms = [1f32, 2f32, 0.5f32]
