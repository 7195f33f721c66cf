-- The program that the bad inputs of this directory are given to:
-- echo INPUT | fut run prog.fut [-e ENTRY].
def main [n] (xs: [n]i32) (ys: [n]f32) (b: bool) : f32 =
  if b then f32.sum (map2 (\x y -> f32.i32 x * y) xs ys) else 0

entry grid (m: [][]u8) (k: i64) : u8 = m[k, k]

entry slow (n: i64) : i64 = loop acc = 0 for i < n do acc ^ i
