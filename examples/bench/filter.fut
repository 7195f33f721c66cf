-- | GPU benchmark: keep the elements above 0.5 of f32 values (BENCHMARKS.md:
-- filter, 2^27 elements; random input is uniform in [0, 1], so about half
-- stay, as the peers keep the positive half of normal values).
--
-- cost of main xs
--   where xs = map (\i -> f32.i64 (i % 3) / 2) (iota n)
--   for n = 2^8..2^13
--   as written: W n, D log n
-- ==
-- input { [0.25f32, 0.75f32, 0.5f32, 1f32] }
-- output { [0.75f32, 1f32] }
-- compiled random input { [134217728]f32 }

entry main [n] (xs: [n]f32) : []f32 = filter (> 0.5) xs
