-- Type polymorphism through the source stages: functions used at several
-- types, a local polymorphic function, an inferred polymorphic one.

def pair 'a 'b (x: a) (y: b) = (x, y)
def first 't [n] (xs: [n]t) = xs[0]
def swap 'a 'b ((x, y): (a, b)) = (y, x)
def id x = x
entry main (xs: []f32) (ys: []i64) =
  let idf 't (x: t) : t = x
  let p = pair (first xs) (first ys)
  let q = swap p
  in (q, idf 3i32, idf true, id 2.5f64, map (\(a, b) -> pair b a) (zip xs ys))
-- ==
-- entry: main
-- input { [1f32,2f32] [3i64,4i64] } output { (3i64, 1.0f32) 3i32 true 2.5f64 [(3i64, 1.0f32), (4i64, 2.0f32)] }
