-- Top-level constants that the program cannot take as plain data: a
-- record holding a function, a function whose closure holds a value, a
-- value of a sum type. The reference path computes each once, when it
-- loads the program, and charges its uses nothing; the plan takes the
-- data they hold (arrays, a closure's environment, a constructor's tag
-- and payload) computed once too, not recomputed on every call.
-- ==
-- entry: scaled
-- input { 2 }
-- output { [90, 91, 92, 93] }

type^ scaler = {offsets: []i32, apply: i32 -> i32}

def sc : scaler =
  let base = i32.sum (map i32.i64 (iota 10))
  in {offsets = map i32.i64 (iota 4), apply = \x -> x * base}

def shift : i32 -> i32 =
  let s = i32.sum (map (\i -> i32.i64 (i * i)) (iota 100))
  in \x -> x + s

type~ shape = #circle f64 | #poly ([]f64)

def unit : shape = #poly (map f64.i64 (iota 5))

entry scaled (x: i32) = map (+ sc.apply x) sc.offsets

-- ==
-- entry: shifted
-- input { [1, 2] }
-- output { [328351, 328352] }
entry shifted (xs: []i32) = map shift xs

-- ==
-- entry: perimeter
-- input { 2.0 }
-- output { 20.0 }
entry perimeter (k: f64) =
  match unit
  case #circle r -> k * r
  case #poly ps -> k * f64.sum ps
