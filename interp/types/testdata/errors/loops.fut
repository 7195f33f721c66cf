-- Loop parameters: types kept across iterations, declared sizes kept.
def a (n: i64) = loop x = 0i32 for i < n do x + 1.0 -- ERROR 49 "Cannot unify \"i32\" with a floating-point type: it is not one of the types allowed here\."
def b (n: i64) : [n]bool = loop (arr: [n]bool) = replicate n true for i < 10 do replicate 3 true -- ERROR 81 "Sizes \"n\" and \"3\" do not match\."
def c (n: i64) (xs: []i32) = loop (ys: []i32) = xs for i < n do ys ++ ys
def d (x: []i32) = loop (x: *[]i32) for i < 10 do x -- ERROR 25 "Consuming variable \"x\" \(the loop \(whose parameter is declared unique\)\), which is not c"
def e (n: i64) = loop x = 0 while x < n do x + 1
def f (xs: []i32) = loop acc = 0 for x in xs do acc + x
def g (xs: []f32) = loop acc = 0i32 for x in xs do acc + x -- ERROR 58 "f32|i32"
def h (n: i64) = loop (xs: *[]i32, ys: *[]i32) = (replicate n 0, replicate n 0) for i < 3 do (xs, xs) -- ERROR 94 "aliases other consumed loop parameter"
-- What the body returns for a parameter it consumes may not alias what is
-- bound outside the loop, nor what it returns for an earlier parameter.
def lr_outside (n: i64) : i64 =
  let arr = iota 10
  let barr = iota 10
  let arr = loop arr for i < 10 do let arr[i] = n in barr -- ERROR 18 "Return value for consuming loop parameter \"arr\" aliases \"barr\" \(consuming-loop-param-aliases\)"
  in arr[0]
def lr_prev (n: i64) : ([]i64, []i64) =
  loop (acc, arr) = (iota 1, iota n) for i < n do -- ERROR 8 "aliases previously returned value \(aliases-previously-returned\)"
    let arr[i] = 0
    in (arr, arr)
def lr_ok (n: i64) : ([]i64, []i64) =
  loop (acc, arr) = (iota 1, iota n) for i < n do
    let arr[i] = 0
    in (copy arr, arr)
-- Parts of a loop's result that share a value made in the loop still share.
def lr_shared (n: i64) : (*[]i64, *[]i64) =
  let (foo, bar) = -- ERROR 3 "the unique parts of this result are aliased to some other component"
    loop _ = (iota 10, iota 10) for _i < n do
      let arr = iota 10
      in (arr, arr)
  in (foo, bar)
-- A loop parameter whose size changes has a size of the loop's own: the
-- result's size is computed by the loop, the body must return the
-- parameter's type for any such size, and no type outside may depend on it.
def lv_causal (n: i64) : []i64 = (\(p: ([]i64, i64)) -> p.0) <| loop (acc, k) = (iota 1, 0) for i < n do (acc ++ acc, k + 1) -- ERROR 36 "Causality check"
def lv_apply (n: i64) : []i64 = ([0] ++) <| loop acc = iota 1 for i < n do acc ++ [i] -- ERROR 33 "Causality check"
def lv_body [n] (as: [n]f32) (bs: [n]f32) = loop (as, bs) for i < 3 do (as, filter (> 0) (map2 (+) as bs)) -- ERROR 72 "Loop body does not have expected type\."
def count [k] (c: [k]i64) : ?[r].[r]i64 = filter (> 0) c
def lv_inner [n] (fs: [n]f32) = loop (fs, cs) = (fs, [n]) for _i < 2 do let z = zip (count cs) fs in (fs ++ fs, cs ++ cs) -- ERROR 38 "existential size created inside the loop body"
def widen [k] (a: [k]i64) (b: [k + 2]i64) : [k + 2]i64 = map2 (+) (a ++ [0, 0]) b
def lv_escape (xs: []i64) (ys: []i64) = loop xs for i < 2 do widen xs ys -- ERROR 62 "Loop-variant size has escaped"
def lv_self [n] (xs: [n]i32) = loop ys = xs for i < 2 do map2 (+) ys (replicate (length ys) 1) -- ERROR 58 "\"ys\" is not in scope"
def lv_square [n] (xs: [n][n]f32) = loop xs for i < 2 do (map2 (map2 (+)) xs (transpose xs))[1:] -- ERROR 58 "Loop body does not have expected type"
def lv_square_init [n][m] (xs: [n][m]f32) = loop xs for i < 2 do let ys = xs[1:, 1:] in map2 (map2 (+)) ys (transpose ys) -- ERROR 50 "Initial loop values do not have expected type"
