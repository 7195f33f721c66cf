-- A match is one step in the source, whatever the number of cases it
-- tries, and == on arrays one step, as on scalars; in the plan the tests
-- of the cases and of the elements are implicit, the later branches of a
-- match too, and the comparison's map and reduction one step.
-- ==
-- entry: pick
-- input { 3 }
-- output { 30 }
-- input { 1 }
-- output { 10 }
-- input { 7 }
-- output { 0 }

entry pick (x: i32) : i32 =
  match x
  case 1 -> 10
  case 2 -> 20
  case 3 -> 30
  case _ -> 0

type shape = #circle f64 | #square f64 | #rect f64 f64

-- ==
-- entry: area
-- input { 2i32 3.0 4.0 }
-- output { 12.0 }
-- input { 0i32 1.0 0.0 }
-- output { 3.0 }

entry area (k: i32) (a: f64) (b: f64) : f64 =
  let s : shape = if k == 0 then #circle a else if k == 1 then #square a else #rect a b
  in match s
     case #circle r -> 3.0 * r * r
     case #square w -> w * w
     case #rect w h -> w * h

-- ==
-- entry: same
-- input { [[1, 2], [3, 4]] [[1, 2], [3, 4]] }
-- output { true false }
-- input { [[1, 2], [3, 4]] [[1, 2], [3, 5]] }
-- output { false true }

entry same [n] [m] (xss: [n][m]i32) (yss: [n][m]i32) : (bool, bool) =
  (xss == yss, xss != yss)
