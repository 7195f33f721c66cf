package eval

import (
	"fmt"
	"testing"

	"fut/eval/value"
)

// flatDecls are programs whose reductions of maps run as flat kernels
// (kernel_flat.go), and some that must not.
var flatDecls = []string{nbodySrc,
	`type v2 = {a: {u: f64, v: f64}, b: f64}`,
	`def add2 (p: v2) (q: v2) : v2 = {a = {u = p.a.u + q.a.u, v = p.a.v - q.a.v}, b = p.b * q.b}`,
	`def mk2 (x: f64) (y: f64) : v2 = let s = x * y in {b = s - 1, a = {v = -x, u = f64.sqrt (s + 1)}}`,
	`def pts = map (\i -> {x = f64.i64 i, y = f64.i64 (i % 3)}) (iota 11)`,
	`def (<+>) (a: vec3) (b: vec3) = V.vadd a b`,
	`def pull (k: i64) (b: body) : {n: i64, m: f32, c: i64} = {n = k * 2 + 1, m = f32.i64 k * b.mass, c = i64.bool (k < 3) + i64.f32 b.pos.x}`,
	`def comb (p: {n: i64, m: f32, c: i64}) (q: {n: i64, m: f32, c: i64}) = {n = p.n + q.n, m = p.m * q.m, c = p.c - q.c}`,
	`def swapper (t: (i32, f32)) (u: (i32, f32)) : (i32, f32) = let (a, b) = t let (c, d) = u in (a * c + 1, (V.vscale b {x = d, y = 1, z = 2}).y)`,
	`def ratio (p: {q: i32, z: i32}) (r: {q: i32, z: i32}) = {q = p.q / r.q, z = p.z + r.z}`,
	`def trig (x: f32) = {s = f32.sin x + f32.exp (-x), c = -(f32.cos x) * 2}`,
	`def add2s = (+ 2f64)`,
	`def plus : f64 -> f64 -> f64 = (+)`,
	`def scale2 = V.vscale 2`,
	`def origin = ({x = 1f32, y = 2f32, z = 3f32}, 4f32)`,
	`def withArr (xs: []f32) (s: f32) = let r = {a = xs, s = s} in map (\x -> x * r.s) xs`,
	`def tab = map (\i -> f32.i64 i * 1.5f32) (iota 7)`,
	`def grid = [[1i64, 2], [3, 4], [5, 6]]`,
	// tree's result tells the shape of the reduction's tree
	`def tree (p: {a: i64, b: i64}) (q: {a: i64, b: i64}) = {a = p.a - q.a, b = p.b * 3 + q.b}`,
	// branches: arms that leave different live space, nested, in lets,
	// in arguments, guarding what would fail
	`def clampy (x: f64) = if x < 0 then 0 else if x > 10 then 10 else x`,
	`def pick (p: {a: i64, b: i64}) (q: {a: i64, b: i64}) = if p.a < q.a || (p.a == q.a && p.b <= q.b) then p else q`,
	`def safe (x: i32) = if x != 0 then 100 / x else -1`,
	`def tabidx (i: i64) = if i >= 0 && i < 7 then tab[i] else 0f32`,
	`def lets (x: f32) = let y = if x > 1 then x * 2 else 3 in y + (let z = (if x < 2 then {u = x, v = 1f32} else {u = 2, v = x}) in z.u * z.v)`,
	`def addc (x: i64) (y: i64) = x + y`,
	// loops: for and while, tuple and record states, a state returned
	// in other places, nested, with branches, none run
	`def mandel (limit: i32) (cx: f32) (cy: f32) : i32 = let (_, _, i) = loop (x, y, i) = (0f32, 0f32, 0) while i < limit && x * x + y * y < 4f32 do (x * x - y * y + cx, 2f32 * x * y + cy, i + 1) in i`,
	`def sumTo (n: i64) = loop s = 0 for i < n do s + i * i`,
	`def fib (n: i32) = let (a, _) = loop (a, b) = (0i32, 1i32) for _i < n do (b, a + b) in a`,
	`def swp (n: i64) (x: f64) (y: f64) = loop (x, y) = (x, y) for i < n do (y, x + f64.i64 i)`,
	`def rec (n: i64) = loop p = {a = 1f64, b = 2f64} for i < n do {a = p.b, b = p.a + p.b * 0.5}`,
	`def nest (n: i64) = loop acc = 0i64 for i < n do loop a = acc for j < i do a + j * (if j % 2 == 0 then 1 else i)`,
	`def collatz (x: i64) = let (_, s) = loop (v, s) = (x, 0i64) while v > 1 do (if v % 2 == 0 then v / 2 else 3 * v + 1, s + 1) in s`,
	// while c1 && c2: lanes whose c1 is false leave before c2 runs
	`def andl (x: i64) = loop (a, b) = (x, 0) while (if a > 2 then a < 100 else b < 2) && b < 7 do (a * 2, b + 1)`,
	`def andorg (x: i64) = loop (a, ok) = (x, true) while (if a > 2 then ok else false) && a < 100 do (a * 2, a % 5 != 0)`,
	`def andloop (x: i64) = loop (a, b) = (x, 0i64) while b < 4 && (loop s = a for i < b do s + i) < 50 do (a + 3, b + 1)`,
	`def and3 (x: i64) = loop (a, b) = (x, 0) while a < 90 && b < 6 && a % 7 != 3 do (loop s = a * 2 for i < b do s + 1, b + 1)`,
	`def andlet (x: i64) = loop (a, b) = (x, 0) while (let c = a * 2 in c < 80) && (let d = b + 1 in d < 9) do (a + 5, b + 1)`,
	`def sumFrom (x: i64) (n: i64) = loop s = x for i < n do s + i`,
	`def fused (a: f64) (b: f64) = f64.atan2 a b + f64.fma a b (f64.ldexp a 2)`,
	`def checked (x: i64) = assert (x != 13) (x - 1)`,
}

var flatExprs = []string{
	`accels (mkbodies 37)`,
	`accels (mkbodies 1)`,
	`accels (mkbodies 2)`,
	`reduce V.vadd V.zero (map (accel (mkbodies 3)[1]) (mkbodies 9))`,
	`reduce (<+>) V.zero (map (\b -> b.pos <+> V.vscale b.mass b.pos) (mkbodies 7))`,
	`reduce add2 {a = {u = 0, v = 0}, b = 1} (map (\p -> mk2 p.x p.y) pts)`,
	`reduce (\(a, b) (c, d) -> (a + c, b * d)) (0f64, 1f64) (map (\x -> (x, x / 2)) [1.0, 2.0, 3.0])`,
	`map (\k -> reduce comb {n = 0, m = 1, c = 0} (map (pull k) (mkbodies 6))) (iota 5)`,
	`reduce swapper (0, 0) (map (\i -> (i32.i64 i, f32.i64 i * 0.5)) (iota 6))`,
	`reduce (\p q -> {s = p.s + q.s, c = p.c + q.c}) {s = 0, c = 0} (map trig [0.5f32, 1, 2, -3])`,
	`reduce (\p q -> {x = p.x + q.x, y = (V.vadd p q).y, z = (V.vsub q p).z}) V.zero (map (\b -> let {pos, mass} = b in V.vscale mass pos) (mkbodies 5))`,
	`reduce ratio {q = 1, z = 0} (map (\i -> {q = 1, z = i32.i64 i}) (iota 4))`,
	`map (\n -> reduce tree {a = 0, b = 0} (map (\i -> {a = i * i + 1, b = i}) (iota n))) (iota 300)`,
	`map (\n -> reduce V.vadd V.zero (map (accel (mkbodies 9)[3]) (mkbodies n))) (iota 150)`,
	// several blocks of foldBlocks, whole and partial
	`map (\n -> reduce tree {a = 0, b = 0} (map (\i -> {a = i * i + 1, b = i}) (iota n))) [1024, 1025, 2047, 2048, 3073, 5000]`,
	`let xs = map (\i -> {a = i * 3, b = i % 5}) (iota 4097) in reduce tree {a = 0, b = 0} xs`,
	// maps and reductions on their own
	`map (accel (mkbodies 3)[0]) (mkbodies 300)`,
	`map (\x -> x * 2.5 + 1) [1f64, 2, 3]`,
	`map (\x -> (x, f32.i64 x, x < 3, {a = f64.i64 x > 2.0, b = -x})) (iota 200)`,
	`map (\x -> f32.i32 (x * 3 + 1)) [1i32, 2, 3]`,
	`map f32.sqrt [1f32, 2, 4]`,
	`map (\x -> x + 1) [1f16, 2]`,
	`map (\x -> x + 1) [1u8, 255]`,
	`let ps = map (\b -> b.pos) (mkbodies 300) in reduce V.vadd V.zero ps`,
	`let ps = map (\b -> b.pos) (mkbodies 1) in reduce V.vadd V.zero ps`,
	`reduce (\a b -> a * 2 - b) 0i64 (iota 300)`,
	`reduce (\a b -> a * 2 - b) 0i64 (iota 1)`,
	`reduce (\(a, b) (c, d) -> (a + c, b - d)) (0, 0) (zip (iota 200) (map (\i -> i * 3) (iota 200)))`,
	`reduce swapper (0, 0) (zip [1i32, 2, 3] [0.5f32, 1, 2])`,
	`map (\x -> plus (add2s x * 3) 1) [1f64, 2]`,
	`map (\b -> let (o, w) = origin in V.vadd (scale2 b.pos) (V.vscale w (V.vadd o V.zero))) (mkbodies 4)`,
	// lambdas made once per outer element, sharing their kernels or not
	`map (\b -> reduce V.vadd V.zero (map (\bj -> accel b bj) (mkbodies 20))) (mkbodies 20)`,
	`map (\k -> let s = f32.i64 k let c = {x = s, y = 1, z = 2} in map (\b -> V.vadd (V.vscale s b.pos) c) (mkbodies 3)) (iota 4)`,
	`map (\k -> let f = V.vscale (f32.i64 k) in reduce V.vadd V.zero (map (\b -> f b.pos) (mkbodies 5))) (iota 5)`,
	`(withArr [1, 2] 3, withArr [1, 2] 4)`,
	// operators and functions that can fail, run flat while they do not
	`map (\i -> (i / 2, i % 3, i32.min (i32.i64 i) 5, i64.abs (i - 3), i64.popc i, i ** 2)) (iota 10)`,
	`reduce (\a b -> a / 2 + b % 7) 1i32 (map (\i -> i32.i64 i * 5 + 1) (iota 300))`,
	// map2 feeding a reduction
	`reduce V.vadd V.zero (map2 (\p m -> V.vscale m p) (map (\b -> b.pos) (mkbodies 40)) (map (\b -> b.mass) (mkbodies 40)))`,
	`reduce tree {a = 0, b = 0} (map2 (\i j -> {a = i * j, b = i - j}) (iota 150) (map (\i -> i * 7 % 11) (iota 150)))`,
	// captured arrays indexed
	`map (\i -> {a = tab[i] * 2, b = f32.i64 grid[i % 3, i32.i64 i % 2] + tab[6 - i]}) (iota 7)`,
	`reduce V.vadd V.zero (map (\b -> V.vscale tab[i64.f32 b.mass] b.pos) (mkbodies 30))`,
	`map (\k -> let ys = map (\x -> x + f32.i64 k) tab in map (\i -> ys[i] - tab[i]) (iota 3)) (iota 3)`,
	// branches
	`map clampy [-1, 5, 12, 3.5, 10, 0]`,
	`reduce pick {a = 1000, b = 0} (map (\i -> {a = (i * 7) % 11, b = i}) (iota 300))`,
	`reduce pick {a = 1000, b = 0} (map (\i -> {a = (i * 7) % 11, b = i}) (iota 3000))`,
	`map safe [1, 0, -3, 7]`,
	`map (\i -> tabidx (i - 2)) (iota 12)`,
	`map lets [0.5, 1.5, 3, 1, 2]`,
	`map (\i -> addc (if i % 2 == 0 then i else 7) i) (iota 9)`,
	`map (\i -> addc (if i % 2 == 0 then i else 7) (let j = if i < 4 then 1 else i * i in j - 1)) (iota 9)`,
	`reduce (\a b -> if a > b then a else b) 0i64 (map (\i -> (i * 37) % 101) (iota 500))`,
	`reduce (+) 0 (map (\x -> if x % 3 == 0 then x * 2 else 1) (iota 1000))`,
	`reduce (\a b -> if a < b then b - a else a + b) 0 (map (\x -> if x % 3 == 0 then x * 2 else if x % 3 == 1 then 1 else x) (iota 3000))`,
	`map (\x -> x > 2 && x < 5 || x == 9) (iota 12)`,
	`map (\x -> if x % 2 == 0 then (x, 1f64) else (x * 3, 0.5)) (iota 10)`,
	`map (\x -> if x % 2 == 0 then true else false) (iota 1)`,
	`map (\b -> if b.mass > 1 then V.vscale b.mass b.pos else b.pos) (mkbodies 200)`,
	// loops
	`map (\j -> map (\i -> mandel 50 (f32.i64 i * 3 / 24 - 2) (f32.i64 j * 2 / 20 - 1)) (iota 24)) (iota 20)`,
	`map sumTo [0, 1, 5, 300]`,
	`map fib (map i32.i64 (iota 40))`,
	`map (\i -> swp (i % 5) 1 2) (iota 12)`,
	`map rec [0, 1, 2, 7]`,
	`map nest (iota 20)`,
	`map collatz (iota 200)`,
	`map (\n -> sumFrom 3 n) [0, 2, 0, 4]`,
	`map (\x -> loop y = x while y < 0 do y + 1) [-3, 0, 5, -1]`,
	`map (\x -> if x > 3 then sumTo x else sumFrom x 2 + 1) (iota 9)`,
	`reduce (\a b -> loop s = a for i < b % 4 do s + 1) 0 (iota 100)`,
	`reduce (+) 0 (map (\x -> (loop (s, t) = (x, 0) while s > 0 do (s / 2, t + 1)).1) (iota 1000))`,
	`map (\x -> loop (p: {u: i64, v: f32}) = {u = x, v = 1} for i < 3 do {u = p.u + i, v = p.v * 2}) (iota 5)`,
	`map (\n -> loop (x, y, z) = (1i64, 2i64, 3i64) for i < n do (z, x, y)) (iota 5)`,
	`map (\n -> (loop s = n for i < n do s + i) * 2) [0, 2, 0, 4]`,
	`map (\n -> loop i = 1 for i < n do i * 2 + 1) [0i64, 3, 5, 1]`,
	`map andl (iota 9)`,
	`map andorg (iota 12)`,
	`map andloop (iota 30)`,
	`map and3 (iota 20)`,
	`map andlet (iota 20)`,
	`map (\x -> loop a = x while a < 0 && a > 5 do a + 1) (iota 4)`,
	`map (\x -> loop (a, b) = (x, 0) while b < 3 do (loop c = a while c < a + 9 && c % 4 != 0 do c + 1, b + 1)) (iota 10)`,
	// scalar intrinsics of two and three arguments that are no operators
	`map2 f64.atan2 [1, -1, 0, 2] [2, 3, -1, 0]`,
	`map3 f32.fma [1, 2, -0.5] [3, 4, 8] [5, 6, 1]`,
	`map2 f64.ldexp [1.5, 2, -3] [3i32, -2, 0]`,
	`map2 i8.mul_hi [100i8, -128, 7] [100, 127, -3]`,
	`map3 u16.mad_hi [60000u16, 3] [60000, 5] [1, 2]`,
	`reduce (\a b -> f64.atan2 a b + f64.fma a b 1) 0 (map f64.i64 (iota 100))`,
	`reduce fused 0 (map f64.i64 (iota 100))`,
	`map checked (iota 13)`,
	`map (\x -> if x > 2 then f32.atan2 x 1 else f32.fma x x x) [1f32, 2, 3, 4]`,
	// assertions that hold
	`map (\x -> assert (x >= 0) (x * 2) + assert (x < 100) 1) (iota 50)`,
	`map (\x -> loop a = x while a < 50 do assert (a >= x && a < 60) (a + 3)) (iota 12)`,
}

// flatErrors fail inside the operator or the mapped function.
var flatErrors = []string{
	`map (\i -> tab[i]) (iota 9)`,
	`reduce (\a b -> a + b) 0 (map (\i -> grid[i, 2]) (iota 2))`,
	`map (\i -> {a = tab[i - 1], b = 0f32}) (iota 2)`,
	`map (\x -> 10 / x) [1i32, 0, 2]`,
	`reduce (\a b -> a / b) 1i32 (map (\i -> i32.i64 i - 200) (iota 300))`,
	`map (\k -> reduce ratio {q = 1, z = 0} (map (\i -> {q = i32.i64 (i - k), z = 1}) (iota 5))) (iota 3)`,
	`map (\i -> {q = 1 / i, z = 1}) (iota 3)`,
	`let rs = map (\i -> {q = i32.i64 i, z = 1}) (iota 4) in reduce ratio {q = 1, z = 0} rs`,
	`reduce ratio {q = 1, z = 0} (map (\i -> {q = i32.i64 i, z = 1}) (iota 4))`,
	`reduce comb {n = 0, m = 1, c = 0} (map (\b -> {n = 1 / i64.f32 (b.mass - b.mass), m = 1, c = 0}) (mkbodies 3))`,
	`map (\x -> if x > 1 then 10 / (x - 2) else 0) [1i32, 2, 3]`,
	`map (\i -> if i > 2 then tab[i + 4] else 0) (iota 7)`,
	`reduce (\a b -> if a > 5 then a / (b - 7) else a + b) 0 (iota 40)`,
	`map (\x -> loop s = 0i32 for i < x do s + 10 / (i - 2)) [1, 5]`,
	`map (\x -> loop s = x while s != 7 do s + i64.f32 tab[s]) [1i64, 7]`,
	`map (\x -> assert (x < 3) (x * 2)) (iota 5)`,
}

// TestFlatAgrees checks flat kernels against what the tree walker gave
// (testdata/walker): values, the four cost figures, errors.
func TestFlatAgrees(t *testing.T) {
	g := loadGolden(t)
	for _, cost := range []bool{true, false} {
		comp := g.session(cost)
		for _, d := range flatDecls {
			if _, _, err := comp.run(d); err != nil {
				t.Fatalf("%.40s: %v", d, err)
			}
		}
		g.check(fmt.Sprintf("cost=%v", cost), comp, flatExprs, flatErrors)
		// the functions that should have run flat did, once per layout
		for _, name := range []string{"accel", "V.vadd", "add2", "comb", "pull", "swapper", "trig", "(<+>)", "tree", "ratio", "clampy", "pick", "safe", "lets", "sumTo", "fib", "rec", "nest", "collatz", "fused", "checked", "andl", "andorg", "andloop", "and3", "andlet"} {
			v, _, err := comp.run(name)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			c, ok := v.(*value.Fun).Impl.(*closure)
			if !ok {
				t.Fatalf("%s is not a closure", name)
			}
			compiled := 0
			for _, en := range c.flat {
				if en.k != nil {
					compiled++
				}
			}
			if compiled != 1 {
				t.Errorf("%s: %d flat kernels, want 1 (%d entries)", name, compiled, len(c.flat))
			}
		}
		// the lambda over bj is compiled once, with b a parameter
		shared := 0
		for _, list := range comp.in.flatNodes {
			for _, sh := range list {
				if sh.k != nil && len(sh.caps) == 1 && sh.caps[0] == "b" {
					shared++
				}
			}
		}
		if shared != 1 {
			t.Errorf("%d shared kernels capture b, want 1", shared)
		}
	}
}

// TestFlatPatterns checks that functions whose parameters, lets and loops
// destructure records and tuples (puns, wildcards, ascriptions,
// parentheses, nesting) run as flat kernels, binding as ccomp compiled
// their patterns (pshape), with the general path's values and costs.
func TestFlatPatterns(t *testing.T) {
	for _, cost := range []bool{true, false} {
		fast := newSession(t, cost)
		slow := newSession(t, cost)
		slow.in.noFast = true
		decls := []string{
			`def pr ({x, y = (a, _)}: {x: f64, y: (f64, i64)}) (((b): f64), _: i64) : f64 =
			   let {u, v = (w: f64)} = {u = x * b, v = a}
			   let ((p), _, {r}) = (u - w, 0i32, {r = u + w})
			   in p * r`,
			`def lp (n: i64) (z: f64) = let ((s: f64), {k}) = loop ((a), {k}) = (z, {k = 0i64}) for i < n do (a * 0.5 + f64.i64 i, {k = k + i}) in s + f64.i64 k`,
		}
		for _, d := range decls {
			for _, s := range []*session{fast, slow} {
				if _, _, err := s.run(d); err != nil {
					t.Fatalf("%s: %v", d, err)
				}
			}
		}
		agree(t, "fast", fast, "slow", slow, []string{
			`map (pr {x = 1.5, y = (2.5, 3)}) (map (\i -> (f64.i64 i + 1, i)) (iota 9))`,
			`map (lp 5) (map f64.i64 (iota 7))`,
		}, nil)
		for _, name := range []string{"pr", "lp"} {
			v, _, err := fast.run(name)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			compiled := 0
			for _, en := range v.(*value.Fun).Impl.(*closure).flat {
				if en.k != nil {
					compiled++
				}
			}
			if compiled != 1 {
				t.Errorf("cost=%v: %s: %d flat kernels, want 1", cost, name, compiled)
			}
		}
	}
}
