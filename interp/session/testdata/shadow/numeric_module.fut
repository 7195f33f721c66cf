-- A module named like a numeric module shadows it: f32.sqrt here adds one,
-- and i32.sum multiplies.
-- ==
-- input { [4f32, 9f32] [2, 3, 4] } output { [5f32, 10f32] 24 }

module f32 = {
  def sqrt (x: f32) : f32 = x + 1
}

module i32 = {
  def sum (xs: []i32) : i32 = reduce (*) 1 xs
}

def main (xs: []f32) (ys: []i32) : ([]f32, i32) = (map f32.sqrt xs, i32.sum ys)

-- ==
-- entry: big
-- input { 100000i64 } output { 150000f32 }

entry big (n: i64) : f32 =
  reduce (+) 0 (map (\i -> f32.sqrt (if i % 2 == 0 then 0 else 1)) (iota n))
