-- Higher-order functions through the source stages: closures passed to
-- functions of the user's, composition, partial application, sections,
-- tuples and records of functions.

def twice 'a (f: a -> a) (x: a) = f (f x)
def compose 'a 'b 'c (f: b -> c) (g: a -> b) (x: a) = f (g x)
def add (x: i32) (y: i32) = x + y
def inc = add 1
def apply_pair (p: (i32 -> i32, i32 -> i32)) (x: i32) = (p.0 x, p.1 x)
def pick (r: {f: i32 -> i32, k: i32}) = r.f r.k
entry main (xs: []i32) (k: i32) =
  let f = \x -> x * k
  let g = add k
  let h = compose f g
  let ys = map (twice h) xs
  let zs = map (compose inc (*2)) ys
  let (a, b) = apply_pair (f, (+ 1)) k
  let c = pick {f = add 3, k = k}
  in (zs, a, b, c, map (.0) (zip xs ys), reduce (+) 0 (map (\y -> y * k) xs))
-- ==
-- entry: main
-- input { [1,2,3] 2i32 } output { [33i32, 41i32, 49i32] 4i32 3i32 5i32 [1i32, 2i32, 3i32] 12i32 }
