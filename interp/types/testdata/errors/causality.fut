-- A size computed by an expression may only be needed by what is evaluated after it.
def a (xs: []i32) =
  let e = [] : [][]i32 -- ERROR 11 "Causality check: .*\"filter \(> 0\) xs\""
  let b = [filter (> 0) xs]
  in e[0] == b[0]
def b (xs: []i32) = (\g -> g (filter (> 0) xs)) (\_ -> 0i32) -- ERROR 51 "causality restriction"
def c (xs: []i32) = let ys = filter (> 0) xs in map (+ 1) ys
def d (xs: []i32) = map (+ 1) (filter (> 0) xs)
def e (xs: [][]i32) = map (\r -> r[1:]) xs
def f (b: bool) (xs: []i32) = if b then filter (> 0) xs else xs
-- A local function's size parameter may not leak into an outer type.
def g (ys: []i32) =
  let h [n] (xs: [n]i32) = zip xs ys -- ERROR 35 "\"n\".*scope-violation"
  in h
def h x =
  let k 'b (y: b) = if true then y else x -- ERROR 41 "\"b\".*scope-violation"
  in k
-- An operator section is a function made before its operand is
-- evaluated: the operator's type may not need the operand's size.
def s1 (xs: []i32) (rows: [][]i32) = map (filter (> 0) xs ++) rows -- ERROR 42 "Causality check: the type of the operator of this section"
def s2 (xs: []i32) (rows: [][]i32) = map (++ filter (> 0) xs) rows -- ERROR 42 "Causality check: the type of the operator of this section"
def s3 (xs: []i32) (rows: [][]i32) = let ys = filter (> 0) xs in map (ys ++) rows
def s4 (xs: []i32) (ys: []i32) = filter (> 0) xs ++ ys
def s5 (xs: []i64) = map (length (filter (> 0) xs) +) xs
