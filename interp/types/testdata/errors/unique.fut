-- Consumption and aliasing.
def a (xs: *[]i32) =
  let ys = xs with [0] = 1
  in xs[0] + ys[0] -- ERROR 6 "Using \"xs\", but this was consumed at .*\."
def b (xs: []i32) = xs with [0] = 1 -- ERROR 21 "Consuming variable \"xs\" \(this in-place update\), which is not consumable: it is a parame"
def consume (xs: *[]i32) : i32 = xs[0]
def c (xs: *[]i32) = consume xs + xs[1] -- ERROR 35 "Using \"xs\", but this was consumed at .*\."
def d (xs: *[]i32) = map (\i -> consume xs + i) [1, 2] -- ERROR 41 "bound outside this lambda"
def e (xs: []i32) : *[]i32 = xs -- ERROR 30 "Unique-typed return value of \"e\" is aliased to \"xs\", which is not consumable: it is a par"
def f (n: i64) =
  let xs = iota n
  let ys = xs
  let ys[0] = 2
  in xs -- ERROR 6 "Using \"xs\", but this was consumed at .*\."
def g (n: i64) =
  let xs = iota n
  let ys = copy xs
  let ys[0] = 2
  in (xs, ys)
def h (xs: *[]i32) = scatter xs [0] xs -- ERROR 30 "Argument is consumed, but aliases \"xs\", which is also aliased by the argument at .*:20:37\."
def i (xs: []i32) = (\(ys: []i32) : *[]i32 -> ys) xs -- ERROR 47 "aliased to \"ys\""
-- transpose and rotate return views of their argument, as in Futhark: not
-- unique, and aliased to it.
def consume2 (xs: *[][]i64) : i64 = xs[0, 0]
def tr (n: i64) =
  let a = replicate n (iota n)
  let c = transpose a
  in consume2 a + c[0, 0] -- ERROR 19 "Using \"c\", which aliases \"a\", but this was consumed"
def tr_u (a: [][]i32) : *[][]i32 = transpose a -- ERROR 36 "Unique-typed return value of \"tr_u\" is aliased to \"a\""
-- A loop whose body consumes its parameter consumes the initial value as
-- it starts: what aliases that value may not be used in the loop.
def lp [n] (xs: *[n]i32) =
  let f i = xs[i]
  in loop ys = xs for i < n do ys with [i] = f i -- ERROR 46 "Using \"f\", which aliases \"xs\", but this was consumed at .*by the loop"
def lp_ok [n] (xs: *[n]i32) =
  let f i = i + 1
  in loop ys = xs for i < n do ys with [i] = f ys[i]
def lp_while [n] (xs: [n]i32) =
  let a = copy xs
  in loop (b, j) = (a, 0) while j < n && a[j] > 0 do (b with [j] = 0, j + 1) -- ERROR 42 "Using \"a\", but this was consumed"
-- Arguments are evaluated from right to left: a later argument may read
-- what an earlier one consumes, an earlier one may not.
def rl (xs: *[]i32) = scatter xs [0] (map (\i -> xs[i] + 1) [0])
def consume_second (_: i32) (xs: *[]i32) = xs
def rl_bad (xs: *[]i32) = consume_second xs[0] xs -- ERROR 42 "Using \"xs\""
-- A loop's result keeps its parts apart: the unique part below aliases
-- nothing that the other part aliases.
def lpair [n] (ps: *[n]i64) (is: []i64) : (*[n]i64, []i64) =
  loop (ps, js) = (ps, is) for _i < 2 do (ps with [0] = 1, js)
def lpair_bad [n] (ps: *[n]i64) : (*[n]i64, [n]i64) =
  let (a, _) = loop (ps, js) = (ps, copy ps) for _i < 2 do (ps, js) -- ERROR 3 "the unique parts of this result are aliased to some other component \(both alias \"ps\"\)"
  in (a, a)
-- A size expression in a parameter's type may not consume.
def eat (xs: *[]i64) : i64 = xs[0]
def size_eats [n] (ns: *[n]i64) (xs: [eat ns]f32) = xs[0] -- ERROR 43 "Consuming variable \"ns\" .*a size expression may not consume"
-- A function whose result is not unique cannot be passed where a unique
-- result is required.
def cons_fn (f: () -> *[2]i32) : *[2]i32 = f () with [0] = 1
def pass_weak (x: [2]i32) : *[2]i32 =
  let f () : [2]i32 = x
  in cons_fn f -- ERROR 14 "Cannot pass \"f\", whose result is not unique"
def pass_ok (x: [2]i32) : *[2]i32 =
  let f () : *[2]i32 = copy x
  in cons_fn f
-- A let-bound value holding a function may not stand for a consumption of
-- what is outside it; consuming its own parameters, or a value consumed
-- before it, is fine.
def lc1 (xs: *[]i32) = let (ys, g) = (xs with [0] = 1, \(i: i64) -> i + 1) in ys[g 0] -- ERROR 38 "Let-bound expression of higher-order type .* consumes \"xs\""
def lc2 (xs: *[]i32) = let f = \(ys: *[]i32) -> ys with [0] = 1 in f xs
def lc3 (xs: *[]i32) = let ys = xs with [0] = 1 in let f = \(i: i64) -> ys[i] in f 0
