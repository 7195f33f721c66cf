-- | Combinators for functions: application, composition and iteration.
--
-- Each is free under the cost model beyond what the functions it applies
-- cost: lambdas and calls cost nothing.

-- | Pipe forward: `x |> f` is `f x`. Work and depth of `f x`.
def (|>) '^a '^b (x: a) (f: a -> b) : b = f x

-- | Pipe backward: `f <| x` is `f x`. Work and depth of `f x`.
def (<|) '^a '^b (f: a -> b) (x: a) : b = f x

-- | Forward composition: `(f >-> g) x` is `g (f x)`. Work and depth of both calls.
def (>->) '^a '^b '^c (f: a -> b) (g: b -> c) (x: a) : c = g (f x)

-- | Backward composition: `(g <-< f) x` is `g (f x)`. Work and depth of both calls.
def (<-<) '^a '^b '^c (g: b -> c) (f: a -> b) (x: a) : c = g (f x)

-- | Swap the two arguments of a function. Work and depth of `f a b`.
def flip '^a '^b '^c (f: a -> b -> c) (b: b) (a: a) : c = f a b

-- | Turn a function on pairs into a function of two arguments. Work and depth of `f (a, b)`.
def curry '^a '^b '^c (f: (a, b) -> c) (a: a) (b: b) : c = f (a, b)

-- | Turn a function of two arguments into a function on pairs. Work and depth of `f a b`.
def uncurry '^a '^b '^c (f: a -> b -> c) ((a, b): (a, b)) : c = f a b

-- | The function that ignores its argument and returns x. Work 0, depth 0.
def const '^a '^b (x: a) (_: b) : a = x

-- | The identity function. Work 0, depth 0.
def id '^a (x: a) : a = x

-- | Apply f to x n times in sequence. Work Σ (W(f) + 1), depth Σ (D(f) + 1) over the n iterations.
def iterate 'a (n: i32) (f: a -> a) (x: a) : a =
  loop x for _i < n do f x

-- | Apply f to x until p holds (possibly zero times). Work and depth: the sum over the iterations of p and f.
def iterate_until 'a (p: a -> bool) (f: a -> a) (x: a) : a =
  loop x while !(p x) do f x

-- | Apply f to x while p holds (possibly zero times). Work and depth: the sum over the iterations of p and f.
def iterate_while 'a (p: a -> bool) (f: a -> a) (x: a) : a =
  loop x while p x do f x
