-- | Escape counts of the Mandelbrot set over [-2,1]×[-1.5,1.5], with an
-- iteration limit.
--
-- Cost growth for an h×w image and limit k: work Θ(h·w·k) at worst,
-- depth Θ(k) (each pixel's loop is sequential, the pixels parallel),
-- space Θ(h·w).
--
-- cost of main n n 32
--   for n = 2^2..2^6
--   as written: W n^2, D 1, S1 n^2, S∞ n^2
-- ==
-- input { 4i64 4i64 16i32 }
-- output { [[1i32, 2i32, 2i32, 2i32], [1i32, 3i32, 6i32, 5i32], [16i32, 16i32, 16i32, 16i32], [1i32, 3i32, 6i32, 5i32]] }

def escape (limit: i32) (cr: f32) (ci: f32) : i32 =
  let (_, _, k) =
    loop (zr, zi, k) = (0f32, 0f32, 0i32)
    while k < limit && zr * zr + zi * zi <= 4 do
      (zr * zr - zi * zi + cr, 2 * zr * zi + ci, k + 1)
  in k

entry main (h: i64) (w: i64) (limit: i32) : [h][w]i32 =
  map (\y ->
         map (\x ->
                let cr = -2 + 3 * f32.i64 x / f32.i64 w
                let ci = -1.5 + 3 * f32.i64 y / f32.i64 h
                in escape limit cr ci)
             (iota w))
      (iota h)
