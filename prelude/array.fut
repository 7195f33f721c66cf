-- | Functions on arrays: sizes, slices, construction and reshaping.
--
-- Slices and reshapes are views (work 1, depth 1, no fresh space);
-- functions that build a new array cost one unit of work per element of
-- the result (COST_MODEL.md).

-- | The number of elements in the outer dimension. Work 1, depth 1.
def length [n] 't (xs: [n]t) : i64 = intrinsics.length xs

-- | Whether the array is empty. Work 2, depth 2.
def null [n] 't (_: [n]t) : bool = n == 0

-- | The first element; an error when the array is empty. Work 2, depth 2.
def head [n] 't (x: [n]t) : t = x[0]

-- | The last element; an error when the array is empty. Work 3, depth 3.
def last [n] 't (x: [n]t) : t = x[n - 1]

-- | Everything but the first element (a view); an error when the array is empty. Work 2, depth 2.
def tail [n] 't (x: [n]t) : [n - 1]t = x[1:]

-- | Everything but the last element (a view); an error when the array is empty. Work 4, depth 4.
def init [n] 't (x: [n]t) : [n - 1]t = x[0:n - 1]

-- | The first i elements (a view); an error when i is out of bounds. Work 2, depth 2.
def take [n] 't (i: i64) (x: [n]t) : [i]t = x[0:i]

-- | All but the first i elements (a view); an error when i is out of bounds. Work 1, depth 1.
def drop [n] 't (i: i64) (x: [n]t) : [n - i]t = x[i:]

-- | The array with its size changed to n; an error when its size is not n. Work 0, depth 0.
def sized [m] 't (n: i64) (xs: [m]t) : [n]t = xs :> [n]t

-- | The first n and the last m elements (two views). Work 3, depth 3.
def split [n] [m] 't (xs: [n + m]t) : ([n]t, [m]t) =
  (xs[0:n] :> [n]t, xs[n:] :> [m]t)

-- | The elements in reverse order (a view). Work 2, depth 2.
def reverse [n] 't (x: [n]t) : [n]t = intrinsics.reverse x

-- | Concatenation of two arrays. Work n + m, depth 1.
def (++) [n] [m] 't (xs: [n]t) (ys: [m]t) : *[n + m]t = intrinsics.concat xs ys

-- | Concatenation of two arrays. Work n + m, depth 1.
def concat [n] [m] 't (xs: [n]t) (ys: [m]t) : *[n + m]t = intrinsics.concat xs ys

-- | Concatenation, with the result's size given as k; an error when n + m is not k. Work n + m, depth 1.
def concat_to [n] [m] 't (k: i64) (xs: [n]t) (ys: [m]t) : *[k]t = intrinsics.concat xs ys :> [k]t

-- | The array 0, 1, …, n-1. Work n, depth 1.
def iota (n: i64) : *[n]i64 = intrinsics.iota n

-- | The valid indices of an array: 0, 1, …, n-1. Work n, depth 1.
def indices [n] 't (_: [n]t) : *[n]i64 = intrinsics.iota n

-- | Rotate left by r places (right when r is negative): element i of the result is a[(i + r) mod n]. Work n, depth 1.
def rotate [n] 't (r: i64) (a: [n]t) : [n]t = intrinsics.rotate r a

-- | An array of n copies of x. Work n · ‖x‖, depth 1.
def replicate 't (n: i64) (x: t) : *[n]t = intrinsics.replicate n x

-- | An array of copies of x, its size taken from the context. Work n · ‖x‖, depth 1.
def rep 't [n] (x: t) : *[n]t = intrinsics.replicate n x

-- | A fresh copy of a value, which may then be consumed. Work ‖a‖, depth 1.
def copy 't (a: t) : *t = intrinsics.copy a

-- | A fresh copy of a value in row-major order. Work ‖a‖, depth 1.
def manifest 't (a: t) : *t = intrinsics.manifest a

-- | Merge the two outer dimensions into one (a view). Work 1, depth 1.
def flatten [n] [m] 't (xs: [n][m]t) : [n * m]t = intrinsics.flatten xs

-- | Merge the three outer dimensions into one (a view). Work 2, depth 2.
def flatten_3d [n] [m] [l] 't (xs: [n][m][l]t) : [n * m * l]t =
  intrinsics.flatten (intrinsics.flatten xs)

-- | Merge the four outer dimensions into one (a view). Work 3, depth 3.
def flatten_4d [n] [m] [l] [k] 't (xs: [n][m][l][k]t) : [n * m * l * k]t =
  intrinsics.flatten (intrinsics.flatten (intrinsics.flatten xs))

-- | Split the outer dimension into two, the sizes taken from the context (a view). Work 1, depth 1.
def unflatten 't [n] [m] (xs: [n * m]t) : [n][m]t = intrinsics.unflatten n m xs

-- | Split the outer dimension into three (a view). Work 3, depth 3.
def unflatten_3d 't [n] [m] [l] (xs: [n * m * l]t) : [n][m][l]t =
  intrinsics.unflatten n m (intrinsics.unflatten (n * m) l xs)

-- | Split the outer dimension into four (a view). Work 6, depth 6.
def unflatten_4d 't [n] [m] [l] [k] (xs: [n * m * l * k]t) : [n][m][l][k]t =
  intrinsics.unflatten n m (intrinsics.unflatten (n * m) l (intrinsics.unflatten (n * m * l) k xs))

-- | Swap the two outer dimensions. Work n · m · ‖element‖, depth 1.
def transpose [n] [m] 't (a: [n][m]t) : [m][n]t = intrinsics.transpose a

-- | Whether every element is true (true when empty). Work 2n, depth 2 + lg n.
def and [n] (xs: [n]bool) : bool = intrinsics.reduce (\x y -> x && y) true xs

-- | Whether some element is true (false when empty). Work 2n, depth 2 + lg n.
def or [n] (xs: [n]bool) : bool = intrinsics.reduce (\x y -> x || y) false xs

-- | Left fold, in sequence: f (… (f (f acc b0) b1) …) bn-1. Work n + Σ W(f), depth n + Σ D(f).
def foldl [n] 'a 'b (f: a -> b -> a) (acc: a) (bs: [n]b) : a =
  loop acc for b in bs do f acc b

-- | Right fold, in sequence: f b0 (f b1 (… (f bn-1 acc))). Work n + 2 + Σ W(f), depth n + 2 + Σ D(f).
def foldr [n] 'a 'b (f: b -> a -> a) (acc: a) (bs: [n]b) : a =
  loop acc for b in bs[::-1] do f b acc

-- | The array whose element i is f i. Work 2n + Σ W(f), depth 2 + max D(f).
def tabulate 'a (n: i64) (f: i64 -> a) : *[n]a =
  intrinsics.map f (intrinsics.iota n)

-- | The n by m array whose element (i, j) is f i j. Work about n·m + Σ W(f), depth about 4 + max D(f).
def tabulate_2d 'a (n: i64) (m: i64) (f: i64 -> i64 -> a) : *[n][m]a =
  intrinsics.map (\i -> intrinsics.map (f i) (intrinsics.iota m)) (intrinsics.iota n)

-- | The n by m by o array whose element (i, j, k) is f i j k. Work about n·m·o + Σ W(f), depth about 6 + max D(f).
def tabulate_3d 'a (n: i64) (m: i64) (o: i64) (f: i64 -> i64 -> i64 -> a) : *[n][m][o]a =
  intrinsics.map (\i -> intrinsics.map (\j -> intrinsics.map (f i j) (intrinsics.iota o)) (intrinsics.iota m)) (intrinsics.iota n)

-- The flags and offsets that `flatmap` returns, from the sizes of the segments.
local def flatmap_meta [n] [m] 'b 'c (sizes: [n]i64) (data: [m]b) (cs: [n]c) : ([n]i64, [m]bool, [n]i64, [m]b, [n]c) =
  let offsets = exscan (+) 0 sizes
  let starts = map2 (\s o -> if s > 0 then o else -1) sizes offsets
  let flags = scatter (replicate m false) starts (replicate n true)
  in (sizes, flags, offsets, data, cs)

-- | An irregular map: f gives each element a segment of any size k, and a value. The result is the segments' sizes, a flag array (true where a non-empty segment starts), their offsets, their concatenation (m elements in all), and the values. Built from regular SOACs: the segments are padded to the longest, K, and compacted, and f is applied about twice per element. Work O(n · K) + about 2 · Σ W(f), depth O(lg (n · K)) + about 2 · max D(f).
def flatmap [n] 'a 'b 'c (f: a -> ?[k].([k]b, c)) (as: [n]a) : ?[m].([n]i64, [m]bool, [n]i64, [m]b, [n]c) =
  let (sizes, cs) = unzip (map (\x -> let (seg, c) = f x in (length seg, c)) as)
  let longest = reduce i64.max 0 sizes
  -- A row whose segment is empty is padded with elements of the first non-empty segment.
  let first = reduce i64.min n (map2 (\i s -> if s > 0 then i else n) (iota n) sizes)
  let rows =
    map (\x ->
           let (seg, _) = f x
           let src = if length seg > 0 || longest == 0 then seg else (f as[first]).0
           in tabulate longest (\j -> src[i64.min j (length src - 1)]))
        as
  let keep = map (\s -> tabulate longest (\j -> j < s)) sizes
  let (data, _) = unzip (filter (\(_, k) -> k) (zip (flatten rows) (flatten keep)))
  in flatmap_meta sizes data cs

-- | As `flatmap`, for an f that gives only a segment. Work and depth as `flatmap`.
def flatmap' [n] 'a 'b (f: a -> ?[k].[k]b) (as: [n]a) : ?[m].([n]i64, [m]bool, [n]i64, [m]b) =
  let (sizes, flags, offsets, data, _) = flatmap (\x -> (f x, ())) as
  in (sizes, flags, offsets, data)
