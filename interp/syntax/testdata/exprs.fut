-- | Expressions of every form.

-- | Literals.
def lits = (1, 1i8, 2u16, 0xffu8, 0b1010, 1_000_000i64, 2.5, 2.5f16, 1e-3f32, 0x1.8p1, 'a', '\n', "a\"b\\c", true, false)

def arith x y = -x + y * 2 - x / y % 3 ** 2 // 4 %% 5
def logic a b = !a && b || a == b && a != b
def cmp (x: i32) y = x < y || x <= y || x > y || x >= y
def bits x y = x & y | x ^ y << 2 >> 1 >>> 3
def pipes xs = xs |> map (+1) |> reduce (+) 0
def back f x = f <| x <| 1
def user (+^) a b = a +^ b *^ 2
def bt x y = x `max` y `i32.min` 3

def arrays n xs = ([1, 2, 3,], [], xs[0], xs[1:n], xs[::-1], xs[:n:2], xs[n:], xs[i, j], (xs)[0], f [1])
def ranges n = (0..<n, 1..2...n, n..>0, 0...n, 1..3..<10)
def tuples r = ((), (1, 2), r.0, r.1.0, (r).x, r.x.y)
def records r = ({a = 1, b = 2,}, {}, {a, b = a}, r with a = 1, r with x.y = 2)
def updates xs = xs with [0] = 1 with [1, 2] = 3
def sections = (map (+ 1), (2 -), (-), (.x), (.x.y), (.[0]), (.x[1].y), (`max` 1), (1 `max`), (`f`), (M.+), (!=))
def quals = (M.x, M.N.f 1, M.(a + b), i32.(x * y), r.x.0)
def lambdas = (\x -> x, \(x: i32) (y: i32) : i32 -> x + y, \{a, b} -> a, map (\x -> x) xs, f xs \x -> x + 1)
def iff c = if c then 1 else if !c then 2 else 3
def lets =
  let x = 1
  let (a, b) = (2, 3)
  let [n] (ys: [n]i32) = zs
  let f 't (v: t) : t = v
  let g [m] (v: [m]i32) = v
  let ys[0] = 1
  let r.x = 2
  let {a, b = c} = r
  in x + a + c
def loops n =
  let a = loop acc = 0 for i < n do acc + i
  let b = loop (x, y) = (0, 1) while x < 10 do (y, x + y)
  let c = loop s = 0 for v in [1, 2, 3] do s + v
  let d = loop x for i < 3 do x * 2
  let e = loop [m] (ys: [m]i32) = xs for i < 3 do ys
  in (a, b, c, d)
def matches x =
  match x
  case #some 1 -> 0
  case #some (-2) -> 1
  case #some y -> y
  case #none -> match y case 'a' -> 1 case _ -> 2
def misc x = (assert (x > 0) x, x : i32, x :> [n]i32, ???, #[trace] x + 1, #[unroll] loop y = x for i < 2 do y, #c 1 2, #d)
def negs = (-1, - -1, -(-x), !(!x), f (-1) (-x))
