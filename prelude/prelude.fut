-- | The last of the prelude: conversion shorthands, `not`, debugging
-- helpers and automatic differentiation.

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

-- | f x and its forward-mode derivative (Jacobian-vector product) at x along the tangent x'. Cost: that of f and of its tangent.
def jvp2 'a 'b (f: a -> b) (x: a) (x': a) : (b, b) = intrinsics.jvp2 f x x'

-- | f x and its reverse-mode derivative (vector-Jacobian product) at x for the adjoint y'. Cost: that of f and of its adjoint.
def vjp2 'a 'b (f: a -> b) (x: a) (y': b) : (b, a) = intrinsics.vjp2 f x y'

-- | The forward-mode derivative of f at x along the tangent x'. Cost: as `jvp2`.
def jvp 'a 'b (f: a -> b) (x: a) (x': a) : b = (intrinsics.jvp2 f x x').1

-- | The reverse-mode derivative of f at x for the adjoint y'. Cost: as `vjp2`.
def vjp 'a 'b (f: a -> b) (x: a) (y': b) : a = (intrinsics.vjp2 f x y').1
