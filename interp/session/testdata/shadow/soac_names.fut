-- A program's own reduce and map2 are its own functions wherever they are
-- used, also in reduce op ne (map f xs), the shape that the reference
-- evaluator runs as one loop for the prelude's functions: this reduce
-- counts its result twice, and this map2 swaps its arrays. The prelude's
-- functions under other names are still the prelude's.
-- ==
-- input { [1i64, 2i64, 3i64] [10i64, 20i64, 30i64] } output { 24i64 54i64 -54i64 }

def prelude_reduce = reduce
def prelude_map2 = map2

def reduce 'a (op: a -> a -> a) (ne: a) (as: []a) : a =
  let r = prelude_reduce op ne as in op r r

def map2 [n] 'a 'b 'x (f: a -> a -> x) (as: [n]a) (bs: [n]a) : *[n]x = prelude_map2 f bs as

def main [n] (xs: [n]i64) (ys: [n]i64) : (i64, i64, i64) =
  (reduce (+) 0 (map (* 2) xs),
   prelude_reduce (+) 0 (map2 (-) xs ys),
   prelude_reduce (+) 0 (prelude_map2 (-) xs ys))

-- Large enough to be offloaded by the default backend: with s the sum of
-- iota n, 4s, 9s and -9s.
-- ==
-- entry: big
-- input { 100000i64 } output { 19999800000i64 44999550000i64 -44999550000i64 }

entry big (n: i64) : (i64, i64, i64) = main (iota n) (map (* 10) (iota n))
