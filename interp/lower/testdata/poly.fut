-- A polymorphic function used at two types, and a local one.
-- ir: swaps (1, true) [1.5f32]

def swap 'a 'b ((x, y): (a, b)) : (b, a) = (y, x)

def swaps (p: (i32, bool)) (xs: []f32) =
  let dup 't (x: t) : (t, t) = (x, x)
  in (swap p, swap (dup xs[0]), dup 7i64)
