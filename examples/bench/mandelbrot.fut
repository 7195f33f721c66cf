-- | GPU benchmark: escape counts over [-2,1]×[-1.5,1.5] with limit 255
-- (BENCHMARKS.md: mandelbrot, 4096×4096, f32). The grid is linspace as
-- in the peers' script: pixel x of w is at -2 + 3x/(w-1).
--
-- cost of main n n
--   for n = 2^3..2^6
--   as written: W n^2, S1 n^2, S∞ n^2
-- ==
-- input { 3i64 3i64 }
-- output { [[1i32, 2i32, 2i32], [255i32, 255i32, 3i32], [1i32, 2i32, 2i32]] }
-- compiled input { 4096i64 4096i64 }

def escape (cr: f32) (ci: f32) : i32 =
  let (_, _, k) =
    loop (zr, zi, k) = (0f32, 0f32, 0i32)
    while k < 255 && zr * zr + zi * zi <= 4 do
      (zr * zr - zi * zi + cr, 2 * zr * zi + ci, k + 1)
  in k

entry main (h: i64) (w: i64) : [h][w]i32 =
  map (\y ->
         map (\x -> escape (-2 + 3 * f32.i64 x / f32.i64 (w - 1))
                           (-1.5 + 3 * f32.i64 y / f32.i64 (h - 1)))
             (iota w))
      (iota h)
