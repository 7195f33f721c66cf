package eval

import "testing"

// lambdaDecls are the declarations lambdaCases use.
var lambdaDecls = []string{
	`def addc (x: i64) (y: i64) = x + y`,
	`def scaleBy (k: f32) (xs: []f32) = map (\x -> x * k) xs`,
	`def sqAll (xs: []i64) = map (\x -> x * x) xs`,
	`def pts = map (\i -> {x = f64.i64 i, y = f64.i64 (i % 3)}) (iota 9)`,
	`def prs = zip (iota 9) (map (\i -> f32.i64 i * 0.5) (iota 9))`,
}

// lambdaCases are SOACs whose functions are lambdas, sections, operators
// and partial applications, with the number of SOACs among them whose
// function must run as a flat kernel (a fused map and reduction count
// one each).
var lambdaCases = []struct {
	src  string
	flat int64
}{
	// lambdas over scalars: operators, literals, intrinsics
	{`map (\x -> x * 2 + 1) (iota 10)`, 1},
	{`map (\x -> -1f32 * x + 0.5) [1f32, 2, 3]`, 1},
	{`map (\x -> x - -2.5f64 * 1e3) [1f64, -2]`, 1},
	{`map (\x -> (x + 255u8, x ^ 0x0f, -2i8, true, 'a')) [0u8, 7, 200]`, 1},
	{`map (\x -> if x < -1f32 then 0f32 else f32.sqrt x) [-2f32, 4, 9]`, 1},
	{`map (\x -> f32.sqrt x + f32.i64 (i64.f32 x) + f32.abs (-x)) [1f32, 4, 9]`, 1},
	{`map (\x -> i64.f32 (f32.sqrt (f32.i64 x))) (iota 10)`, 1},
	{`map (\x -> f64.max (f64.exp x) 2 + f64.pi) [0.5f64, 1]`, 1},
	{`map (\(x: i32) : i32 -> x * 2) [1, 2, 3]`, 1},
	{`map (\x -> !(x > 3) || x == 7) (iota 9)`, 1},
	{`map (\x -> x + 1) [1f16, 2]`, 1},
	// intrinsics, sections and operators as the function
	{`map f32.sqrt [1f32, 4]`, 1},
	{`map i64.f32 [1.5f32, -2.5]`, 1},
	{`map f64.i64 (iota 4)`, 1},
	{`map (+1) (iota 5)`, 1},
	{`map (*2f64) [1, 2.5]`, 1},
	{`map (2-) (iota 5)`, 1},
	{`map (i64.+ 1) (iota 5)`, 1},
	{`map (f32.** 2) [1f32, 3]`, 1},
	{`map2 (+) (iota 5) (iota 5)`, 1},
	{`map2 (*) [1f32, 2] [3f32, 4]`, 1},
	{`map2 f64.max [1f64, 5] [3, 4]`, 1},
	{`map3 (\a b c -> a * b + c) [1i32, 2] [3, 4] [5, 6]`, 1},
	// reduce with operators and lambdas (a built-in operator that
	// reduces in Go's own loop is no flat kernel: see below)
	{`reduce (-) 0 (iota 10)`, 1},
	{`reduce (\a b -> a * 2 - b) 0i64 (iota 50)`, 1},
	{`reduce (\a b -> f32.max a b + 0) (-1f32) [3f32, 1, 2]`, 1},
	{`reduce (\(a, b) (c, d) -> (a + c, b * d)) (0, 1) (zip (iota 5) (map (+1) (iota 5)))`, 2},
	{`reduce (\p q -> {x = p.x + q.x, y = f64.max p.y q.y}) {x = 0, y = -f64.inf} pts`, 1},
	{`reduce (\{x = a, y = b} {x = c, y = d} -> {x = a - c, y = b + d}) {x = 0, y = 0} pts`, 1},
	// captured locals
	{`let k = 3i64 in map (\x -> x * k) (iota 5)`, 1},
	{`let k = 3i64 let p = {a = 2f32, b = (1f32, 2i64)} in map (\x -> f32.i64 (x * k + p.b.1) * p.a + p.b.0) (iota 5)`, 1},
	{`scaleBy 2 [1, 2, 3]`, 1},
	{`sqAll (iota 6)`, 1},
	{`map (\k -> map (\x -> x + k) (iota 3)) (iota 4)`, 4},
	{`map (\k -> reduce (\a b -> a + b * k) 0 (iota 5)) (iota 4)`, 4},
	// tuple and record patterns
	{`map (\(a, b) -> a * 2 + i64.f32 b) prs`, 1},
	{`map (\(_, b) -> b) prs`, 1},
	{`map (\((a, b), c) -> a + b * c) (zip (zip (iota 4) (iota 4)) (iota 4))`, 1},
	{`map (\{x, y} -> x * y) pts`, 1},
	{`map (\{x = a, y = _} -> a * 2) pts`, 1},
	{`map (\(p: {x: f64, y: f64}) -> {x = p.y, y = p.x}) pts`, 1},
	{`map (\p -> let {x, y = yy} = p let (u, v) = (x + yy, x - yy) in u * v) pts`, 1},
	{`map (\p -> (p.x, {z = p.y})) pts`, 1},
	{`map (\(i, x) -> {i, x}) prs`, 1},
	{`map (\{x = (a, b), y} -> a + b + y) (map (\i -> {x = (i, i), y = i}) (iota 3))`, 2},
	{`map (\(x: i64, y: i64) -> x - y) (zip (iota 3) (iota 3))`, 1},
	{`map (\x -> x.0 + x.1) (zip (iota 3) (iota 3))`, 1},
	{`map2 (\x (y, z) -> x + y * z) (iota 3) (zip (iota 3) (iota 3))`, 1},
	{`reduce (\(a, b) (c, d) -> if a < c then (a, b) else (c, d)) (i64.highest, 0f32) prs`, 1},
	// projection sections
	{`map (.x) pts`, 1},
	{`map (.1) prs`, 1},
	{`map (.a.1) (map (\i -> {a = (i, f32.i64 i), b = i}) (iota 4))`, 2},
	{`map (.a) (map (\i -> {a = (i, f32.i64 i), b = i}) (iota 4))`, 2},
	{`reduce (+) 0 (map (.y) pts)`, 2},
	// partial applications
	{`map (addc 3) (iota 5)`, 1},
	{`let f = \a b -> a * b + 1 in map (f 2) (iota 5)`, 1},
	{`let g = \x -> x + 1 in map (\x -> g (g x)) (iota 5)`, 1},
	{`map2 addc (iota 5) (iota 5)`, 1},
	// map and reduction fused
	{`reduce (\a b -> a + b * 2) 0 (map (\x -> x * 3) (iota 100))`, 2},
	{`reduce (+) 0 (map (\x -> x * 3) (iota 100))`, 2},
	{`reduce (\(a, b) (c, d) -> (a + c, f32.max b d)) (0, -f32.inf) (map2 (\i x -> (i * 2, x)) (iota 9) (map f32.i64 (iota 9)))`, 3},
	// no flat kernel: a function that calls a SOAC, returns or takes an
	// array, or runs under a derivative; a built-in operator that
	// reduces or scans in a Go loop
	{`map (\i -> reduce (+) 0 (iota i)) (iota 5)`, 0},
	{`map (\i -> [i, i + 1]) (iota 4)`, 0},
	{`map (\i -> (i, iota 2)) (iota 4)`, 0},
	{`map (\r -> r[0] + r[1]) [[1, 2], [3, 4]]`, 0},
	{`map (\i -> let xs = [i, 2] in xs[1]) (iota 3)`, 0},
	{`jvp (\x -> (map (\y -> y * x) [1f64, 2])[1]) 1 1`, 0},
	{`reduce (+) 0 (iota 10)`, 0},
	{`reduce i32.max 0 [1, 5, 2]`, 0},
	{`reduce f32.min f32.inf [3f32, 1, 2]`, 0},
	{`reduce (\a b -> a + b) 0f32 [1f32, 2]`, 0},
	{`map (.[1]) [[1, 2], [3, 4]]`, 0},
	{`scan (+) 0 (iota 10)`, 0},
	// a coercion of scalars, which has no shape to check
	{`map (\x -> x :> i64) (iota 3)`, 1},
	{`map (\(x: i64) -> (x + 1, f64.i64 x) :> (i64, f64)) (iota 3)`, 1},
	{`map (\p -> (p :> {x: f64, y: f64}).y * 2) pts`, 1},
	// updates of a record's fields
	{`map (\p -> p with x = 1) pts`, 1},
	{`map (\p -> (p with y = p.x * 2).y + 1) pts`, 1},
	{`map (\p -> let q = {a = p, b = 1f64} in (q with a.x = q.b + 3).a.x + q.a.x) pts`, 1},
	// outside the kernels' subset today (kernel_flat.go): a local or
	// immediately applied lambda, a function passed to a function (|>),
	// an application of an application; and scan, filter and hist, which
	// have no flat path. A change that makes one of these run flat
	// updates its count.
	{`map (\x -> let g = \y -> y * 2 in g x + 1) (iota 5)`, 0},
	{`map (\x -> (\y -> y + 1) x) (iota 3)`, 0},
	{`map (\x -> f32.i64 x |> f32.sqrt) (iota 3)`, 0},
	{`map (\x -> (addc 1) x) (iota 5)`, 0},
	{`scan (\a b -> a * 2 + b) 0 (iota 10)`, 0},
	{`filter (\x -> x % 3 == 1) (iota 10)`, 0},
	{`hist (\a b -> a * b + 1) 0 3 [0, 1, 1] [1i32, 2, 3]`, 0},
}

// TestFlatLambdas checks that the SOACs of lambdaCases run as flat
// kernels as many times as each case says (Interp.flatRuns counts them),
// no more and no fewer, and that each gives the value and the four cost
// figures of the general path (noFast).
func TestFlatLambdas(t *testing.T) {
	for _, cost := range []bool{true, false} {
		fast := newSession(t, cost)
		slow := newSession(t, cost)
		slow.in.noFast = true
		for _, d := range lambdaDecls {
			for _, s := range []*session{fast, slow} {
				if _, _, err := s.run(d); err != nil {
					t.Fatalf("%s: %v", d, err)
				}
			}
		}
		agree(t, "flat", fast, "general", slow, []string{`(pts, prs)`}, nil) // constants made before counting
		for _, c := range lambdaCases {
			before := fast.in.flatRuns
			agree(t, "flat", fast, "general", slow, []string{c.src}, nil)
			if got := fast.in.flatRuns - before; got != c.flat {
				t.Errorf("cost=%v: %s: %d SOACs ran flat, want %d", cost, c.src, got, c.flat)
			}
			if slow.in.flatRuns != 0 {
				t.Fatalf("%s: a flat kernel ran with noFast", c.src)
			}
		}
	}
}
