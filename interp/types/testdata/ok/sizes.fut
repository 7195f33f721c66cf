-- Sizes that must be accepted.
def dot [n] (xs: [n]f32) (ys: [n]f32) : f32 = f32.sum (map2 (*) xs ys)
def mat [n][m] (a: [n][m]f32) (v: [m]f32) : [n]f32 = map (\row -> dot row v) a
def pairs (xs: []i32) = zip xs (map (+1) xs)
def pos [n] (xs: [n]i32) : [n]i32 = let ys = filter (> 0) xs in (ys ++ replicate (n - length ys) 0) :> [n]i32
def grow (n: i64) = loop xs = [0] for i < n do xs ++ xs
def split2 [n] (xs: [2 * n]i32) : ([n]i32, [n]i32) = (xs[:n], xs[n:] :> [n]i32)
def tail2 [n] (xs: [n]i32) : [n - 1]i32 = xs[1:]
def tab (n: i64) : [n][n]i64 = tabulate_2d n n (\i j -> i + j)
def same_branch (b: bool) (n: i64) : [n]i64 = if b then iota n else replicate n 0
def flat [n][m] (xss: [n][m]i32) : [n * m]i32 = flatten xss
def unflat [n][m] (xs: [n * m]i32) : [n][m]i32 = unflatten xs
-- Slice bounds of unknown type are i64, so a slicing function can be
-- given the type a module type asks for.
module slicer : { val part [n] : [n]u8 -> (i64, i64) -> []u8 } = {
  def part [n] (s: [n]u8) = \(i, k) -> s[i:i + k]
}
-- Sizes computed in order: a filter's size, then a map over it.
def pos_plus (xs: []i32) = map (+ 1) (filter (> 0) xs)
def rows (xss: [][]i32) = map (\r -> r[1:]) xss
-- Loop parameters that keep their size keep it outside the loop: swapped,
-- mapped or updated in place; one that changes has a size of its own.
def lv_swap [n] (xs: [n]i32) (ys: [n]i32) : ([n]i32, [n]i32) = loop (xs, ys) for i < 3 do (ys, xs)
def lv_map [n] (xs: [n]i32) : [n]i32 = loop xs for i < 3 do map (+ 1) xs
def lv_upd [n] (xs: *[n]i32) : [n]i32 = loop xs for i < n do xs with [i] = 0
def lv_grow (n: i64) : []i64 = let ys = loop acc = iota 1 for i < n do acc ++ [i] in [0] ++ ys
def lv_both [n] (xs: [n]i32) : ([n]i32, []i32) = loop (a, b) = (xs, xs) for i < 2 do (a, b ++ b)
def lv_shrink [n] (xs: [n][n]f32) = loop xs for i < 2 do transpose xs[1:, 1:]
