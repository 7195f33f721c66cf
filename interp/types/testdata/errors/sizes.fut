-- Array sizes that do not agree.
def a [n][m] (xs: [n]i32) (ys: [m]i32) = zip xs ys -- ERROR 49 "Sizes \"n\" and \"m\" do not match\."
def b [n] (xs: [n]i32) : [n]i32 = filter (> 0) xs -- ERROR 35 "do not match"
def c [n] (xs: [n]i32) = zip xs (filter (> 0) xs) -- ERROR 33 "do not match"
def d [n] (xs: [n]i32) = zip xs (filter (> 0) xs :> [n]i32)
def e (n: f64) (xs: [n]i32) = xs -- ERROR 22 "must have type i64"
def f (n: i64) : [n]i32 = replicate 3 0 -- ERROR 27 "Sizes \"n\" and \"3\" do not match\."
def g [n] (xs: [n]i32) : [n]i32 = xs[1:] -- ERROR 35 "do not match"
def h (b: bool) (n: i64) (m: i64) : [n]i64 = if b then iota n else iota m -- ERROR 46 "do not match"
-- A slice or range whose bound is an expression has that expression as its
-- size (when it has no binding in it); other ranges have unknown lengths.
def sl_f [n] (a: [n]bool) (b: [n]f32) = map2 (\x y -> if x then y else 0) a b
def sl_g (m: i32) (xs: []bool) (ys: []f32) = sl_f xs[:i64.i32 m] ys[:i64.i32 m]
def sl_h (i: i64) (j: i64) (xs: []i32) (ys: []i32) = zip xs[i:j] ys[i:j]
def rng_a (n: i64) : [n+1]i64 = 0..<(n+1)
def rng_b (n: i64) : [n]i64 = 0..<(n+1) -- ERROR 31 "Sizes \"n\" and \"n \+ 1\" do not match"
def rng_c (n: i64) : [n]i64 = 1..2..<n -- ERROR 31 "unknown length of range at"
-- Sizes unify without arithmetic: n + m is never 10, whatever n and m are.
def cat_bad (xs: []i32) (ys: []i32) : [10]i32 = xs ++ ys -- ERROR 49 "Sizes \"10\" and \"\? \+ \?\" do not match"
def cat_ok (xs: [4]i32) (ys: [6]i32) : [4+6]i32 = xs ++ ys
def sum_of [n] [m] (_: [n + m]i32) = n + m
def folded = sum_of (iota 2 ++ iota 3 |> map i32.i64)
-- A parameter's size may not be the value of a later parameter.
def later xs n = zip xs (iota n) -- ERROR 11 "refers to the size \"n\", which is not in scope .*\(scope-violation\)"
def later_lam = const 2 (\xs (n: i64) -> zip xs (iota n)) -- ERROR 27 "scope-violation"
def earlier (n: i64) xs = zip xs (iota n)
-- A size in a type may be any pure expression: an application, an index.
def cap (b: i64) (n: i64) : i64 = (n + b - 1) / b
def mk (n: i64) : [cap 8 n]i32 = replicate (cap 8 n) 0
def use_cap [n] (xs: [cap 8 n]i32) = length xs + n
def both (n: i64) = use_cap (mk n)
def mk_bad (n: i64) : [cap 8 n]i32 = replicate (cap 4 n) 0 -- ERROR 38 "Sizes \"cap 8 n\" and \"cap 4 n\" do not match"
def split_at [n] (c: [1]i64) (xs: [n]i32) : ?[k].([k]i32, [n - k]i32) = (xs[0:c[0]], xs[c[0]:n])
def self_size xs = zip xs (iota xs[0]) -- ERROR 15 "refers to the size \"xs\""
def split_at2 [n] (c: [1](i64, i64)) (xs: [n]i32) : ?[k].([k]i32, [n - k]i32) = (xs[0:c[0].0], xs[c[0].0:n])
-- A size that differs between branches is unknown, and says why.
def branch_sizes (b: bool) (n: i64) (m: i64) : [2]i64 = if b then iota n else iota m -- ERROR 57 "unknown due to the conditional, one of whose branches returns an array of type \"\*\[n\]i64\" and the other one of type \"\*\[m\]i64\""
-- A size parameter of a function that nothing at a use decides is
-- ambiguous.
def amb_sum = f32.sum ??? -- ERROR 15 "Ambiguous size \"n\" \(the instantiated size parameter of \"f32.sum\""
def amb_ok = f32.sum (??? : [3]f32)
-- Open sizes in a parameter's size expression become size parameters.
def reshape_twice [n] [m] (a: [n][m]f32) : [n][m]f32 =
  let un xs = unflatten xs
  in un (flatten (un (flatten a)))
-- A result's size may not be a variable bound inside a parameter's pattern.
def tuple_size (x: i64, _: bool) : [0][x]i32 = [] -- ERROR 36 "The result type refers to the size \"x\", which is bound inside the pattern of a parameter"
def plain_size (x: i64) (_: bool) : [0][x]i32 = []
-- A size bound by a let pattern must be the size of an array it binds.
def bind_fn = let [n] (f: [n]bool -> [n]bool) = (\(xs: [10]bool) -> xs) in n -- ERROR 19 "Cannot bind \[n\]: the pattern uses it only in a function type"
def bind_arr [m] (xs: [m]bool) = let [n] (ys: [n]bool) = xs in n
-- A function whose result size depends on its argument, passed where its
-- result type becomes a parameter type of the result, cannot be used.
def compose2 '^a '^b '^c (f: a -> b) (g: b -> c) (x: a) : c = g (f x)
def comp_bad = compose2 iota -- ERROR 25 "Existential size would appear in function parameter of return type .*, applying \"compose2\" to \"iota\".*\(existential-param-ret\)"
def comp_ok = compose2 (\(x: i64) -> x + 1) (\y -> y * 2)
-- A size whose name goes out of scope is the expression the name stood
-- for, if it has one; otherwise a size of its own.
def let_size (n: i64) : [n + 1]i64 = let m = n + 1 in iota m
def hide (x: i64) = let (y, _) = (x + 1, true) in iota y
def two_hidden (a: i64) (b: i64) = zip (hide a) (hide b) -- ERROR 49 "Cannot apply \"zip\" to \"hide b\""
-- A function in a result may not take an argument whose size only the
-- definition knows.
def ret_fns (n: i64) = let (m, _) = (n + 1, true) in (iota m, zip (iota (m + 1))) -- ERROR 24 "Cannot generalise the result type .* of \"ret_fns\". Unknown size \"m\" in parameter of a function in it"
def ret_fn_ok (n: i64) = {h = \(m: i64) (g: f64 -> [m * n]f64) -> g 0}
-- A size may not hide inside a type argument of a function's result.
type box 't = #box t
def gen_box 'e (g: i64 -> box e) (k: i64) : box ([k](box e)) = #box (tabulate k g)
def box_i64 (k: i64) : box i64 = #box k
def boxes = gen_box (gen_box box_i64) 1 -- ERROR 21 "Cannot apply \"gen_box\" to \"gen_box box_i64\", a function whose result size depends on its own argument"
def flat_ok = flatmap (\x -> (replicate x x, x * 2)) [1i64, 2]
-- A function whose sizes depend on its named parameter cannot stand where
-- that size is fixed.
def ap_fixed (f: i64 -> []i32 -> i32) (k: i32) : i32 = f 0 [k]
def dep_g (n: i64) (xs: [n]i32) : i32 = xs[n - 1]
def ap_bad (k: i32) = ap_fixed dep_g k -- ERROR 32 "Sizes \"n\" and \"1\" do not match: the size is the value of the parameter \"n\""
-- A size used only in a function parameter's parameter is decided by
-- nothing.
def neg_pos [n] (g: [n]i64 -> i64) : i64 = n
def neg_use = neg_pos (\xs -> xs[0]) -- ERROR 15 "Ambiguous size \"n\" \(the instantiated size parameter of \"neg_pos\""
def neg_ok = neg_pos (\(xs: [3]i64) -> xs[0])
-- A function that does not name the parameter its expected type names
-- cannot give its sizes.
type^ dep_len = (k: i64) -> [k]i32 -> i64
def unnamed_k : dep_len = \_ xs -> length xs -- ERROR 36 "it is the parameter \"k\" of a function type, which the function here does not name"
def named_k : dep_len = \k (xs: [k]i32) -> length xs
-- A type parameter that is not size-lifted stands for one type, sizes
-- included: a -> a keeps the size; '~a may change it.
def twice_same 'a (g: a -> a) (x: a) = g (g x)
def doubles [n] (xs: [n]f32) = twice_same (\ys -> ys ++ ys) xs -- ERROR 43 "Occurs check: cannot instantiate"
def twice_any '~a (g: (() -> a) -> a) (x: a) = g (\() -> g (\() -> x))
def doubles_ok [n] (xs: [n]f32) = twice_any (\(p: () -> []f32) -> p () ++ p ()) xs
def twice_keep [n] (xs: [n]f32) = twice_same (\ys -> map (* 2) ys) xs
-- Composing with a function whose result size is existential gives a
-- function that no size could be given to; pipelining is fine.
def comp1 (xs: []i32) = (filter (> 0) >-> length) xs -- ERROR 26 "existential-param-ret"
def comp2 (xs: []i32) = xs |> filter (> 0) |> length
def comp3 (xs: []i32) = ((\(ys: []i32) -> map (+ 1) ys) >-> length) xs
-- A record update gives the field the new value's type, sizes included;
-- an in-place update keeps the array's.
def ru1 (r: {a: []i32, b: bool}) (m: i64) : {a: [m]i32, b: bool} = r with a = sized m r.a
def ru2 [k] (r: {a: [k]i32, b: [k]i32}) (m: i64) : {a: [m]i32, b: [m]i32} = r with a = sized m r.a with b = sized m r.b
def ru3 [k] (r: {a: [k]i32, b: [k]i32}) (m: i64) : {a: [m]i32, b: [k]i32} = r with a = sized m r.a with b = sized m r.b -- ERROR 77 "Sizes \"k\" and \"m\" do not match"
def ru4 [k] (xs: *[k]i32) (m: i64) : [k]i32 = xs with [0:m] = replicate m 1
-- A size the result has in several places is one existential.
def ex1 [u] (xs: [u]i32) : ?[n].{a: [n]i32, b: [n]i32} = let ys = filter (> 0) xs let s = length ys in {a = sized s ys, b = replicate s 0}
def ex2 (xs: []i32) = let r = ex1 xs in zip r.a r.b
