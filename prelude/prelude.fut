-- | The last of the prelude: conversion shorthands, `not`, debugging
-- helpers and automatic differentiation (over the intrinsics jvp2 and vjp2).

-- | Convert an i32 to f32. Work 1, depth 1.
def r32 (x: i32) : f32 = intrinsics.to_f32 x

-- | Convert an f32 to i32, truncating towards zero. Work 1, depth 1.
def t32 (x: f32) : i32 = intrinsics.to_i32 x

-- | Convert an i32 to f64. Work 1, depth 1.
def r64 (x: i32) : f64 = intrinsics.to_f64 x

-- | Convert an f64 to i32, truncating towards zero. Work 1, depth 1.
def t64 (x: f64) : i32 = intrinsics.to_i32 x

-- | Logical negation. Work 1, depth 1.
def not (x: bool) : bool = !x

-- | The identity, hidden from the optimiser (the `#[opaque]` attribute does the same). Work 0, depth 0.
def opaque 't (x: t) : t = intrinsics.opaque x

-- | The identity, and the evaluator prints x as a trace event (as the `#[trace]` attribute). Work 0, depth 0.
def trace 't (x: t) : t = intrinsics.trace x

-- | The identity, and a break point in the REPL (as the `#[break]` attribute). Work 0, depth 0.
def break 't (x: t) : t = intrinsics.break x

-- | f x and its forward-mode derivative (Jacobian-vector product) at x along the tangent x'. Cost: that of f with every step charged twice (values and tangents), except a scalar operation on duals, charged 1 + its chain rule's steps (docs/cost.md, "Derivatives").
def jvp2 'a 'b (f: a -> b) (x: a) (x': a) : (b, b) = intrinsics.jvp2 f x x'

-- | f x and its reverse-mode derivative (vector-Jacobian product) at x for the adjoint y'. Cost: f x once, then for each of the n scalars of x in turn its unit vector, a jvp along it and the dot product of the tangent with y' (docs/cost.md, "Derivatives").
def vjp2 'a 'b (f: a -> b) (x: a) (y': b) : (b, a) = intrinsics.vjp2 f x y'

-- | The forward-mode derivative of f at x along the tangent x'. Cost: as `jvp2`.
def jvp 'a 'b (f: a -> b) (x: a) (x': a) : b = (intrinsics.jvp2 f x x').1

-- | The reverse-mode derivative of f at x for the adjoint y'. Cost: as `vjp2`.
def vjp 'a 'b (f: a -> b) (x: a) (y': b) : a = (intrinsics.vjp2 f x y').1

-- | f x and its forward-mode derivatives along each of the tangents x' (a Jacobian-matrix product). Cost: that of f, and of n tangents.
def jmp2 'a 'b [n] (f: a -> b) (x: a) (x': [n]a) : (b, [n]b) =
  (f x, map (\t -> (intrinsics.jvp2 f x t).1) x')

-- | f x and its reverse-mode derivatives for each of the adjoints y' (a matrix-Jacobian product). Cost: that of f, and of n adjoints.
def mjp2 'a 'b [n] (f: a -> b) (x: a) (y': [n]b) : (b, [n]a) =
  (f x, map (\a -> (intrinsics.vjp2 f x a).1) y')

-- | The forward-mode derivatives of f at x along each of the tangents x'. Cost: as `jmp2`.
def jmp 'a 'b [n] (f: a -> b) (x: a) (x': [n]a) : [n]b =
  map (\t -> (intrinsics.jvp2 f x t).1) x'

-- | The reverse-mode derivatives of f at x for each of the adjoints y'. Cost: as `mjp2`.
def mjp 'a 'b [n] (f: a -> b) (x: a) (y': [n]b) : [n]a =
  map (\a -> (intrinsics.vjp2 f x a).1) y'

-- | f x, with f' as the adjoint of f for reverse mode: f' gets f's result and its adjoint, and gives x's adjoint. fut evaluates f x; it does not yet use f' (vjp differentiates f itself). Cost: that of f.
def with_vjp 'a 'b (f: a -> b) (f': (res: b) -> (b_adj: b) -> a) (x: a) : b =
  f x

-- | As `with_vjp`, with the part of f's result that only the adjoint needs (the tape, c) kept apart. Cost: that of f.
def with_vjp_tape 'a 'b 'c (f: a -> (c, b)) (f': (c, b) -> a) (x: a) : b =
  (with_vjp f (\(tape, _) (_, adj) -> f' (tape, adj)) x).1
