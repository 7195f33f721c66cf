-- The combinators and the last definitions of fut's prelude.

-- ==
-- entry: test_pipes
-- input { 3 } output { 8 10 8 7 }
entry test_pipes (x: i32) : (i32, i32, i32, i32) =
  (x |> (+ 1) |> (* 2), (* 2) <| 5, ((+ 1) >-> (* 2)) x, ((+ 1) <-< (* 2)) x)

-- ==
-- entry: test_combinators
-- input { } output { 9 2 2 1 4 }
entry test_combinators : (i32, i32, i32, i32, i32) =
  (flip (-) 1 10, curry (\(a, b) -> a - b) 5 3, uncurry (-) (5, 3), const 1 2i32, id 4)

-- ==
-- entry: test_iterate
-- input { 1 } output { 8 128 128 1 }
entry test_iterate (x: i32) : (i32, i32, i32, i32) =
  (iterate 3 (* 2) x, iterate_while (< 100) (* 2) x, iterate_until (> 100) (* 2) x, iterate_while (> 100) (* 2) x)

-- ==
-- entry: test_shorthands
-- input { } output { 3.0f32 3 2.0 -2 false 5 6 }
entry test_shorthands : (f32, i32, f64, i32, bool, i32, i32) =
  (r32 3, t32 3.7f32, r64 2, t64 (-2.5), not true, opaque 5, trace 6)

-- ==
-- entry: test_ad
-- input { 3.0 } output { 6.0 6.0 9.0 6.0 }
entry test_ad (x: f64) : (f64, f64, f64, f64) =
  let (y, dy) = jvp2 (\x -> x * x) x 1
  in (jvp (\x -> x * x) x 1, vjp (\x -> x * x) x 1, y, dy)
