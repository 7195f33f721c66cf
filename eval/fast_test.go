package eval

import (
	"testing"

	"fut/eval/value"
)

// TestKernelsAgree checks that the specialised SOAC paths (typed loops
// and flat kernels) give exactly the values and costs of the general
// tree-walking path.
func TestKernelsAgree(t *testing.T) {
	for _, cost := range []bool{true, false} {
		kernelsAgree(t, cost)
	}
}

func kernelsAgree(t *testing.T, cost bool) {
	fast := newSession(t, cost)
	slow := newSession(t, cost)
	slow.in.noFast = true
	decls := []string{
		`def xs = map f64.i64 (iota 37)`,
		`def ys = map (\i -> i32.i64 (i * 7 % 13) - 6) (iota 41)`,
		`def mandel (limit: i32) (cx: f32) (cy: f32) : i32 =
		   let (_, _, i) = loop (x, y, i) = (0f32, 0f32, 0) while i < limit && x*x + y*y < 4 do
		                     (x*x - y*y + cx, 2*x*y + cy, i + 1)
		   in i`,
		`def sq (x: f64) = x * x`,
		`def zs = map (\i -> [1f64, 1e16, -1e16, 1][i % 4] * f64.i64 (1 + i % 8 / 4 * 2)) (iota 1000)`,
		`def dot k = reduce (+) 0 (map2 (*) (take k zs) (take k (replicate 1000 1)))`,
	}
	for _, d := range decls {
		for _, s := range []*session{fast, slow} {
			if _, _, err := s.run(d); err != nil {
				t.Fatalf("%s: %v", d, err)
			}
		}
	}
	exprs := []string{
		`reduce (+) 0 (map (\x -> x * x) xs)`,
		// dot products, whose rounding depends on the order of the sum
		`map dot [0, 1, 7, 8, 9, 15, 16, 17, 24, 63, 64, 65, 100, 993]`,
		`reduce (+) 0.0 xs`,
		`reduce (*) 1 ys`,
		`reduce i32.max i32.lowest ys`,
		`reduce (\a b -> a + b) 0 ys`,
		`reduce (\a b -> if a > b then a else b) 0 ys`,
		`reduce (\a b -> a * 0.5 + b) 0.0 xs`,
		`scan (+) 0 ys`,
		`scan (+) 0.0 xs`,
		`map (* 2) ys`,
		`map (2 -) ys`,
		`map sq xs`,
		`map (\x -> f64.sqrt x + 1) xs`,
		`map (\x -> if x > 3 then x - 1 else x + 1) ys`,
		`map (\x -> let y = x * 2 in y + y) ys`,
		`map (\x -> (x, x + 1)) ys`,
		`map2 (+) ys ys`,
		`map2 (\a b -> a * b + 1) xs xs`,
		`map (\x -> loop acc = 0 for i < x do acc + i) ys`,
		`map (\x -> loop (a, b) = (0, 1) for i < 10 do (b, a + b + x)) ys`,
		`map (\i -> mandel 50 (f32.i64 i / 20 - 1.5) 0.3) (iota 40)`,
		`map (\i -> ys[i] + ys[40 - i]) (iota 41)`,
		`map (\x -> x / 2 + x % 3) ys`,
		`map (\x -> f32.f64 x) xs`,
		`hist (+) 0 5 (map (\i -> i % 7) (iota 41)) ys`,
		`reduce_by_index (replicate 4 0.0) (+) 0.0 (map (\i -> i % 5) (iota 37)) xs`,
		`map (\x -> x && true) [true, false]`,
		`reduce (&&) true [true, false, true]`,
		`reduce (+) 0 (map (\x -> x * 3) ys)`,
		`reduce (+) 0.0 (map2 (*) xs xs)`,
		`reduce (*) 1 (map2 (\a b -> a - b + 2) ys ys)`,
		`reduce f64.max (-f64.inf) (map f64.sqrt xs)`,
		`let z = 3 in reduce (+) 0 (map (\x -> x + z) (iota 10))`,
		`reduce (+) 0 (map (+ 1) (iota 0))`,
		`map (\x -> 2 * x - x * x + 0.5 * x > x - 1) xs`,
		`map (\x -> f32.f64 x * 2f32 - f32.f64 x * f32.f64 x + 1f32 < 3f32) xs`,
		`map2 (\a b -> (a + b) * (a - b) + 1.5 - a) xs xs`,
		`reduce (\(a, i) (b, j) -> if a < b then (a, i) else (b, j)) (f64.inf, -1) (zip xs (iota 37))`,
		`reduce (\(a, i) (b, j) -> if a >= b then (a, i) else (b, j)) (i32.lowest, -1) (zip ys (iota 41))`,
		`reduce (\(a, b) (c, d) -> (a + c, b * d)) (0.0, 1.0) (zip xs xs)`,
		// loops over scalar state (kernel_flat_loop.go): a && b ending on
		// either side, a single test, no iteration, odd and even counts
		`map (\x -> loop (a, b) = (x, 0) while a < 100 && b < 7 do (a * 2, b + 1)) ys`,
		`map (\x -> loop a = x * x while a < 1000 do a * 3 + 1) ys`,
		`map (\x -> loop (s, t) = (x, 1.0) while s < 50.0 do (s * 1.5 + t, t * 0.5)) xs`,
		`map (\x -> loop (a, b) = (x, x) while a > 1000 && b > 0 do (a - 1, b - 1)) ys`,
		`map (\x -> loop (a, n) = (x, 0i64) while n < x % 5 do (a + n, n + 1)) (iota 12)`,
		`map (\x -> loop a = x while a < 10 || a == 12 do a + 1) ys`,
		`map (\x -> loop (a, b) = (x, 0) while b < 3 do let c = a + 1 in (c * 2, b + 1)) ys`,
		`map (\x -> loop (a, b) = (x, 0) while b < 3 && a != 5 do (if a > 0 then a - 1 else a + 1, b + 1)) ys`,
		`map (\x -> loop (p, q) = (f32.f64 x, 0f32) for i < 5 do (p * 0.5f32 + q, q - p * p)) xs`,
		`map (\x -> loop (p, q) = (x, 1) for i < x do (q * q - p * 2, p * i)) ys`,
		`map (\x -> loop p = x for i < 0 do p * p) xs`,
		// the state's names shadow the index's
		`map (\n -> loop i = 1 for i < n do i * 2 + 1) ys`,
		`map (\n -> loop (i, s) = (1, 0) for i < n do (i + 2, s + i)) ys`,
		`map (\i -> i * i - 3 * i + 7 > i + 2) (iota 20)`,
		`map (\x -> x * x * 2.0 - (x * x + 1.0) / (x + 1.0)) xs`,
		`map (\x -> x * x - x * 3 < x * x + 1 && x * x > 4) ys`,
		`let z = 3 in map (\x -> x * z + z * 2 - (loop a = x while a < z * 4 do a + z)) ys`,
		`map (\i -> f64.i64 i * 0.5 + f64.i32 (i32.i64 i) - f64.f32 (f32.i64 i * 1.5f32)) (iota 20)`,
		`map (\x -> i64.i32 x * 3 + i64.i32 (x + 1) + i64.i32 (i32.i64 (i64.i32 x))) ys`,
		`let z = 7i64 in map (\x -> f32.i64 z * f32.f64 x + f32.f32 (f32.f64 (x * x))) xs`,
		`map (\x -> i32.f64 x + 1) xs`,
		`map (\x -> let y = f32.f64 x in f64.f32 (y * y) + f64.f32 (2f32 * y) + f64.f32 y) xs`,
		`map (\x -> (f64.i32 x, f32.i32 x, i64.i32 x)) ys`,
		// an if whose branches are records or tuples (kernel_flat_branch.go)
		`reduce (\a b -> if a.v < b.v || (a.v == b.v && a.i < b.i) then a else b) {v = f64.inf, i = -1} (map2 (\v i -> {v, i}) xs (iota 37))`,
		`map (\r -> if r.x < r.y then {x = r.y, y = r.x} else r) (map2 (\x y -> {x, y = f64.i32 y}) xs (ys[:37]))`,
		`map (\r -> if r.x > 3 then {x = r.x, y = (r.y, 1i32)} else {x = r.x * 2, y = (r.y + 1.0, 2i32)}) (map2 (\x y -> {x = y, y = x}) xs (ys[:37]))`,
		`map (\r -> let s = if r.x < 0 then {p = -r.x, q = 1f32} else {p = r.x, q = 2f32} in s.p + i32.f32 s.q) (map (\x -> {x}) ys)`,
		`reduce (\(a, i) (b, j) -> let (c, k) = if a < b then (a, i) else (b, j) in (c, k)) (f64.inf, -1) (zip xs (iota 37))`,
		// patterns over records and tuples in flat kernels
		`map (\{x, y} -> let (p, q) = (x + y, x * y) in {s = p, t = if p < q then q else p}) (map2 (\x y -> {x, y = f64.i32 y}) xs (ys[:37]))`,
		`map (\(a, (b, c)) -> let {u, v = _} = {u = a + c, v = b} in if u > 0 then (u, b) else (c, b)) (zip (ys[:37]) (zip xs (ys[:37])))`,
		`map (\r -> let (a, b) = loop (a, b) = (r.x, 0) while a < 100 do (a * 2, b + 1) in {a, b}) (map (\x -> {x = x + 7}) ys)`,
		`map (\(x, y) -> let r = {a = x, b = y} in let (_, q) = loop (p, q) = (r.a, 0) while p < r.b * 3.0 + 1.0 do (p + 1.0, q + 1) in r.a * r.b - r.a * 2.0 + f64.i32 q) (zip xs xs)`,
		// SOACs under a derivative
		`jvp (\(x: f64) -> let (_, _, _, a, _) = flatmap (\(k: i64) -> (replicate k x, x * 2)) [1i64, 2, 3] in f64.sum a) 1.5 1.0`,
		`vjp (\(x: f64) -> let (_, _, _, a, b) = flatmap (\(k: i64) -> (replicate k (x * f64.i64 k), x)) [2i64, 0, 3] in f64.sum a + f64.sum b) 1.5 1.0`,
	}
	// errors inside kernels are the same errors
	agree(t, "fast", fast, "slow", slow, exprs, []string{`map (\i -> ys[i + 1]) (iota 41)`, `map (\x -> 10 / (x - x)) ys`,
		`map (\x -> loop (a, b) = (0, x) while a < 5 && b != 3 do (a + 1, b + i64.i32 ys[x + a])) (iota 41)`,
		`map (\x -> loop a = x while a < 50 do assert (a != 7) (a + 1)) ys`})
}

// TestBuiltinOf checks which functions the typed loops take for a
// built-in operator: the operator itself, the prelude's wrappers of an
// intrinsic, and a lambda that applies one to its parameters in order,
// whose names and operator the closure compiler resolved.
func TestBuiltinOf(t *testing.T) {
	s := newSession(t, true)
	th := s.in.newThread(nil)
	for _, c := range []struct {
		src string
		op  value.BinOp
		ok  bool
	}{
		{`(+)`, value.OpAdd, true},
		{`(i32.+)`, value.OpAdd, true},
		{`f64.max`, value.OpMax, true},
		{`(i32./)`, value.OpDiv, true}, // the callers take only the operators that cannot fail
		{`(i32.-)`, value.OpSub, true},
		{`\(a: i32) (b: i32) -> a * b`, value.OpMul, true},
		{`\(a: i32) (b: i32) -> (a - b)`, value.OpSub, true},
		{`\(a: i32) (b: i32) -> i32.min a b`, 0, false}, // a prelude function, not an intrinsic
		{`\(a: i32) (b: i32) -> b - a`, 0, false},
		{`\(a: i32) (b: i32) -> a - a`, 0, false},
		{`\(a: i32) (a: i32) -> a + a`, 0, false},
		{`\(a: i32) (_: i32) -> a + a`, 0, false},
		{`\(a: i32) (b: i32) -> let c = a in c + b`, 0, false},
		{`\(a: i32) (b: i32) -> a + b + 0`, 0, false},
	} {
		v, _, err := s.run(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		op, ok := th.builtinOf(v)
		if ok != c.ok || op != c.op {
			t.Errorf("builtinOf(%s) = %v, %v; want %v, %v", c.src, op, ok, c.op, c.ok)
		}
	}
}
