-- Opening a module brings its names into scope over the prelude's: max is
-- a sum and (*) a difference after the open.
-- ==
-- input { [1, 2, 3] } output { 6 [-1, 0, 1] }

module M = {
  def max (a: i32) (b: i32) : i32 = a + b
  def (*) (a: i32) (b: i32) : i32 = a - b
}

open M

def main (xs: []i32) : (i32, []i32) = (reduce max 0 xs, map (\x -> x * 2) xs)

-- ==
-- entry: big
-- input { 100000i64 } output { 150000 }

entry big (n: i64) : i32 = reduce max 0 (map (\i -> i32.i64 (i % 4)) (iota n))
