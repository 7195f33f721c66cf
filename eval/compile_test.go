package eval

import (
	"fmt"
	"strings"
	"testing"

	"fut/eval/value"
)

// TestCompiledAgrees checks that compiled function bodies (compile.go)
// give exactly the values, costs and errors that the tree walker gave
// (recorded in testdata/walker, golden_test.go), on
// programs that use what the compiler handles (records, tuples, modules,
// lets, lambdas, partial application, local functions, indexing, loops
// of every form, in-place updates, assertions, operator sections,
// matches, loops that bind sizes, sections of local functions).
func TestCompiledAgrees(t *testing.T) {
	g := loadGolden(t)
	for _, cost := range []bool{true, false} {
		s := g.session(cost)
		decls := []string{nbodySrc,
			`def swap (a: i32, b: i32) = (b, a)`,
			`def sumr ({x, y}: {x: f64, y: f64}) = x + y`,
			`def twice (f: i32 -> i32) (x: i32) = f (f x)`,
			`def loc (x: i32) = let sq (y: i32) = y * y in sq x + sq (x + 1)`,
			`def idx (xs: []i32) (i: i64) = if i < length xs then xs[i] else -1`,
			`def at (xs: []i32) (i: i64) = xs[i]`,
			`def lp (n: i32) = loop (a, b) = (0, 1) for _i < n do (b, a + b)`,
			`def opt (x: i32) = match x case 0 -> "zero" case _ -> "other"`,
			`def neg (x: f32) = -x + -(1f32) - (- x)`,
			`def logic (a: bool) (b: bool) = !a || (a && b)`,
			`def div (a: i32) (b: i32) = a / b`,
			`def rec (r: {a: i32, b: (i32, i32)}) = r.b.1 + r.a`,
			`def mkrec (x: i32) = {b = (x, x + 1), a = x * 2}`,
			`def pair (x: f64) = {0 = x, 1 = x + 1}`,
			`def sl (xs: []i32) (i: i64) = (xs[i:], xs[::-1], xs[1:i:2], [xs[i], xs[0] + 1], [[i, 1], [2, i]])`,
			`def bad (xs: []i32) (i: i64) = xs[i:0]`,
			`def at2 (xs: []i32) (i: i64) = xs[i] + (xs[i - 1] + (xs[i + 1] + 1))`,
			`def wl (n: i32) = loop (a, i) = (1, 0) while i < n do (a * 2, i + 1)`,
			`def fin (xs: []i32) = loop s = 0 for x in xs do s + x`,
			`def fin2 (xs: [](i32, i32)) = loop s = 0 for (a, b) in xs do s + a * b`,
			`def recl (n: i64) = loop r = {x = 0i64, y = 1i64} for i < n do {x = r.y, y = r.x + r.y + i}`,
			`def arrl (n: i64) = loop a = replicate n 0 for i < n do a with [i] = i * 2`,
			`def nest (n: i64) = loop s = 0 for i < n do s + (loop t = 0 for j < i do t + j)`,
			`def wdiv (n: i32) = loop (a, i) = (10, n) while i >= 0 do (a / i, i - 1)`,
			`def grow (n: i64) = loop (xs: []i64) = [0] for i < n do concat xs [i]`,
			`def sized (n: i64) = loop [m] (xs: [m]i64) = iota 3 for i < n do map (\x -> x + m * i) xs`,
			`def asl (n: i32) = loop s = 0 for i < n do assert (s < 10) (s + i)`,
			`def early (xs: []i32) = loop (i, found) = (0, false) while i < length xs && !found do (i + 1, xs[i] == 3)`,
			`def noinit (n: i32) = let x = 1 in loop x for _i < n do x * 2`,
			`def upd2 (n: i64) = loop a = replicate n (replicate n 0i64) for i < n do a with [i, i] = i + a[i, 0]`,
			`def lam (n: i64) = loop s = 0i64 for i < n do s + reduce (+) 0 (map (\j -> j * i + s) (iota 3))`,
			`def finr (xs: []{a: i32, b: i32}) = loop s = 0 for {a, b} in xs do s + a - b`,
			`def oob (xs: []i32) = loop s = 0 for i < 5 do s + xs[i]`,
			`def wfor (n: i32) = loop (s, k) = (0, 0) for i < n do loop (s, k) = (s, k) while k < i do (s + k * i, k + 1)`,
			`def rows (xs: [][]f64) = loop acc = xs[0] for r in xs[1:] do map2 (+) acc r`,
			`def shadow (n: i32) = loop i = 1 for i < n do i * 2 + 1`,
			`def ifl (n: i32) = loop (a, b) = (0, 1) for i < n do if i % 2 == 0 then (a + b, b) else let c = a * 2 in (c, b + c)`,
			`def ifw (n: i32) = loop (a, (b, c)) = (n, (0, 0.0)) while a > 0 do if a % 3 == 0 then (a - 1, (b + 1, c)) else (a - 2, (b, c + 1.5))`,
			`def ifd (xs: []i32) = loop (s, m) = (0, 1) for x in xs do let q = 10 / x in if q > 2 then (s + q, m) else (s, m * q)`,
			`def rupd (n: i64) = loop r = {a = 0i64, b = replicate 3 0i64} for i < n do r with b = (copy r.b with [i % 3] = i + r.a) with a = i`,
			`def lw (n: i64) = loop a = replicate n 0 for i < n do let a[i] = i + 1 in a`,
			`def uoob (n: i64) = loop a = replicate 3 0 for i < n do a with [i] = 1`,
			`def sliceu (n: i64) = loop a = iota 6 for i < n do a with [1:3] = [a[i], i]`,
			`def tupu (n: i64) = loop (a, s) = (replicate 4 0.0, 0.0) for i < n do (a with [i % 4] = s, s + f64.i64 i)`,
			"def secs (k: i32) (xs: []i32) = (map (+ k) xs, map (k -) xs, map (`i32.max` k) xs, map (2 *) xs, map (+ (k * 2)) xs)",
			`def (<+>) (a: i32) (b: i32) = a * 10 + b`,
			`def usec (k: i32) (xs: []i32) = (map (<+> k) xs, map (k <+>) xs)`,
			"def lsec (k: i32) = let f (a: i32) (b: i32) = a - b in (map (`f` k) [1, 2], map (k `f`) [1, 2])",
			`def esec (k: i32) = map (+ (10 / k)) [1]`,
			`type shape = #circle f64 | #rect f64 f64 | #pt`,
			`def area (s: shape) = match s case #circle r -> 3.0 * r * r case #rect w h -> w * h case #pt -> 0.0`,
			`def cls (p: (i32, bool)) = match p case (0, _) -> 0 case (_, true) -> 1 case (x, false) -> x * 2`,
			`def rm (r: {a: i32, b: i32}) = match r case {a = 0, b} -> b case {a, b = _} -> a`,
			`def mloop (n: i32) = loop s = 0 for i < n do match i % 3 case 0 -> s + 1 case 1 -> s * 2 case _ -> s - 1`,
			`def neglit (x: i32) = match x case -1 -> 1 case _ -> 10 / x`,
			`def szf [n] (xs: [n]i32) : i64 = n + length xs`,
			`type vec [d] = [d]f64`,
			`def vlen [d] (v: vec [d]) (w: vec [d]) = (d, map2 (+) v w)`,
			`def solve [n] [m] (xs: [n]i32) (ys: [n + m]i32) = (n, m, xs[0] + ys[m])`,
			`def ctx [n] [m] (xs: [n * m]i32) : [n][m]i32 = unflatten xs`,
			`def szloop [n] (xs: [n]i64) = loop acc = 0 for i < n do acc + xs[i] * n`,
			`def szlam [n] (xs: [n]i32) = map (\x -> x + i32.i64 n) xs`,
			`def szrep [n] (x: i32) : [n]i32 = replicate n x`,
			`def szpair [n] ((a, b): ([n]i32, [n]i32)) {c: [n]i32} = (n, a[0] + b[n - 1] + c[0])`,
			`def szdiv [n] (xs: [n]i32) = xs[0] / i32.i64 (n - 2)`,
			`type opt = #some i32`,
			`def unwrap (#some x: opt) = x + 1`,
			`def letc (o: opt) = let (#some y) = o in let #some z = o in y * z`,
			`def ops (a: i32) (b: i32) = let (%%) = \(x: i32) (y: i32) -> x * 100 + y in (a <+> b, a %% b, (a %%) b, (%% b) a, (%%) a b, a ` + "`" + `i32.max` + "`" + ` b)`,
			`module Mo = { def (+) (a: i32) (b: i32) = a - b  def k = 7i32  def red (xs: []i32) = reduce (+) 0 xs }`,
			`def parop ((%%): i32 -> i32 -> i32) (a: i32) = (a %% 1, (%% a) 2, (a %%) 3, (%%) a 4)`,
			`def qual (x: i32) = let k = 1i32 in (Mo.(k + x), Mo.red [x, 1, 2], k)`,
			`def rng (a: i64) (b: i64) = (a..<b, a...b, b..>a, a..(a + 2)...b, length (a..<b))`,
			`def coer (xs: []i32) (n: i64) = (xs :> [n]i32)`,
			`def coer2 (xs: []i32) (ys: []i32) = (xs :> [length ys]i32, map (.[length ys - 1]) [xs, xs])`,
			`def tr (x: i32) = #[trace] (x + 1) * #[unsafe] (x - 1)`,
			`def cons (x: i32) : (opt, opt) = (#some x, #some (x + 1))`,
			`def strs (x: i32) = ("ab", length "hello" + i64.i32 x, "")`,
			`def projs (r: {a: i32, b: (i32, i32)}) (xs: [][]i32) (i: i64) = ((.a) r, (.b.1) r, map (.[i]) xs, map (.[1:]) xs)`,
			`def hole (x: i32) : i32 = if x > 0 then x else ???`,
			`def empt (n: i64) = ([] : []f64, (replicate n [] : [][]i32), concat [] [n])`,
			`def letsz (xs: []i32) = let [m] (ys: [m]i32) = filter (> 0) xs in (m, ys, length ys + m)`,
			`def letsz2 (n: i64) = let [k] (zs: [k][2]i64) = unflatten (iota (2 * n) :> [n * 2]i64) in (k, zs[k - 1])`,
		}
		for _, d := range decls {
			if _, _, err := s.run(d); err != nil {
				t.Fatalf("%.40s: %v", d, err)
			}
		}
		exprs := []string{
			`accels (mkbodies 20)`,
			`reduce V.vadd V.zero (map (accel (mkbodies 3)[1]) (mkbodies 9))`,
			`map (\i -> swap (i32.i64 i, 3)) (iota 5)`,
			`sumr {x = 1, y = 2}`,
			`twice (+ 3) 4`,
			`map (twice (\x -> x * 2)) [1, 2, 3]`,
			`loc 7`,
			`map (idx [1, 2, 3]) (iota 5)`,
			`lp 10`,
			`opt 0`,
			`neg 2.5`,
			`logic true false`,
			`map (\x -> rec (mkrec x)) [1, 2]`,
			`pair 2.0`,
			`map (\x -> let (a, b) = (x, x * 2) in a + b) [1i32, 2]`,
			`map (\(x: i32) -> let f = \y -> x + y in f 1 + f 2) [3, 4]`,
			`jvp (\x -> if x > 0 then x * 2 - x * x else -x) 1.5 1.0`,
			`vjp (\(x, y) -> let z = x * y in (z + x) / y) (2.0, 3.0) 1.0`,
			`map (\b -> V.dot b.pos b.pos) (mkbodies 4)`,
			`map (\r -> {a = r.b.1, b = (r.a, r.a + 1)}) (map mkrec [1, 2, 3])`,
			`reduce (\p q -> {x = p.x + q.x, y = p.y * q.y}) {x = 0, y = 1} (map (\i -> {x = i, y = i % 3 + 1}) (iota 10))`,
			`reduce (\(a, b) (c, d) -> (a + c, b * d)) (0, 1) (map (\i -> (i, i % 2 + 1)) (iota 9))`,
			`map (\b -> let p = b.pos in V.vadd p (V.vscale b.mass p)) (mkbodies 5)`,
			`map (\r -> (r.a, r.b)) (map mkrec [4, 5])`,
			`(wl 10, wl 0, fin [1, 2, 3], fin [], fin2 [(1, 2), (3, 4)])`,
			`(recl 10, recl 0, arrl 5, nest 6)`,
			`let z = wl 0 in z.0 + (1 + (2 + (3 + 4)))`,
			`sl [1, 2, 3, 4, 5, 6] 3`,
			`at2 [1, 2, 3] 1`,
			`let (a, b, _, c, d) = sl [5, 6, 7] 2 in (a[0] + b[1] + c[0] + i32.i64 d[1][0] + (1 + (2 + 3)), a, b, d)`,
			`let r = recl 0 in r.x + (1 + (2 + (3 + 4)))`,
			`map (\i -> wl (i32.i64 i)) (iota 4)`,
			`map (\b -> V.vadd (let p = V.vsub b.pos V.zero in V.vscale 2 p) (V.vscale (let m = b.mass in m * m) b.pos)) (mkbodies 5)`,
			`(grow 3, grow 0, sized 4, asl 4, early [1, 2, 3, 4], early [], noinit 5, noinit 0)`,
			`(upd2 3, lam 4, finr [{a = 1, b = 2}, {a = 5, b = 1}], wfor 5, rows [[1, 2], [3, 4], [5, 6]], shadow 4)`,
			`map (\n -> (wfor n, asl n, shadow n)) [0, 1, 3]`,
			`(ifl 0, ifl 7, ifw 0, ifw 10, ifd [1, 2, 5, 3], ifd [])`,
			`(rupd 5, lw 4, uoob 3, sliceu 4, tupu 9)`,
			`(secs 3 [1, 5, 2], usec 4 [1, 2], lsec 5, esec 2)`,
			`(map area [#circle 1.0, #rect 2.0 3.0, #pt], map cls [(0, true), (3, true), (4, false)], rm {a = 0, b = 5}, rm {a = 2, b = 7}, mloop 7, neglit (-1), neglit 5)`,
			`(szf [1, 2, 3], vlen [1.0, 2.0] [3.0, 4.0], solve [1, 2] ([3, 4, 5, 6, 7] :> [2 + 3]i32), (ctx ([1, 2, 3, 4, 5, 6] :> [2 * 3]i32) : [2][3]i32), szloop [3, 4, 5])`,
			`(szlam [1, 2], (szrep 7 : [3]i32), szpair ([1, 2], [3, 4]) {c = [5, 6]}, szdiv [4, 5, 6], map szf [[1], [2]], unwrap (#some 4), letc (#some 3))`,
			`map (\i -> szloop (iota i)) (iota 4)`,
			`(ops 3 4, map (\x -> ops x 1) [1, 2], parop (-) 9, parop (<+>) 2, qual 5, Mo.(3 + 4), rng 2 9, coer [1, 2, 3] 3, coer2 [1, 2] [3, 4], tr 4, cons 2, strs 1)`,
			`(projs {a = 1, b = (2, 3)} [[1, 2], [3, 4]] 1, hole 3, empt 2, letsz [1, -2, 3], letsz2 3)`,
		}
		g.check(fmt.Sprintf("cost=%v", cost), s, exprs, []string{`map (\r -> {q = r.a / (r.a - r.a), z = 1}) (map mkrec [1])`, `wdiv 3`, `bad [1, 2] 1`, `sl [1] 4`, `div 1 0`, `map (div 3) [1, 0]`, `at [1] 5`, `rec (mkrec 1) + div 2 0`, `asl 10`, `oob [1, 2, 3]`, `map asl [3, 8]`, `ifd [4, 0, 2]`, `uoob 5`, `sliceu 9`, `esec 0`, `neglit 0`, `szdiv [1, 2]`, `i32.i64 (szloop [1, 2]) + szdiv [3, 4]`, `map szdiv [[1, 2], [4, 5]]`, `hole 0`, `coer [1, 2] 3`, `coer2 [1, 2] [3]`, `coer2 [1] [2, 3]`, `rng 5 2`, `projs {a = 1, b = (2, 3)} [[1, 2], [3, 4]] 2`, `letsz2 0`, `map letsz [[1, 2], [-1, 0]]`})
	}
}

// TestTransposeRemembered checks that the transpose a thread remembers
// for a frozen array is never updated in place under another use. The
// checker rejects these programs (a transpose aliases its argument); the
// evaluator must be right without it.
func TestTransposeRemembered(t *testing.T) {
	s := newSession(t, true)
	s.illTyped = true
	s.run(`def m = [[1, 2], [3, 4]]`)
	_, c1, _ := s.run(`transpose m`)
	if got := s.val(`let a = transpose m let b = transpose m in (a with [0, 0] = 9, b)`); got != "([[9i32, 3i32], [2i32, 4i32]], [[1i32, 3i32], [2i32, 4i32]])" {
		t.Errorf("two transposes of m: %s", got)
	}
	if got := s.val(`map (\i -> (transpose m)[i, 0] + (transpose m with [i, 0] = 0)[i, 0]) (iota 2)`); got != "[1i32, 2i32]" {
		t.Errorf("updating transposes of m: %s", got)
	}
	if _, c2, _ := s.run(`transpose m`); c1 != c2 {
		t.Errorf("a remembered transpose costs %v, the first %v", c2, c1)
	}
}

// TestBreakLocalsAgree checks that a #[break] in compiled code reports
// the locals the walker reported (testdata/walker), in its order (the
// REPL lists them so): sizes bound by parameters, lets and loops, and
// captured locals.
func TestBreakLocalsAgree(t *testing.T) {
	decls := []string{
		`def two [n] (xs: [n]i32) (ys: [n]i32) = #[break] (xs[0] + ys[0] + i32.i64 n)`,
		`def one [n] (k: i32) (xs: [n]i32) = let m = n + 1 in #[break] (k + i32.i64 m)`,
		`def lt (xs: []i32) = let [m] (ys: [m]i32) = filter (> 0) xs in #[break] (length ys + m)`,
		`def lam (a: i32) = map (\b -> #[break] (a + b)) [1, 2]`,
		`def ab [d] (v: [d]f64) (w: [d * 2]f64) = #[break] (v[0] + w[0])`,
	}
	exprs := []string{`two [1, 2] [3, 4]`, `one 5 [1, 2, 3]`, `lt [1, -2, 3]`, `lam 7`, `ab [1.0] [2.0, 3.0]`}
	g := loadGolden(t)
	s := g.session(true)
	var breaks []string
	opts := s.in.Options()
	opts.Break = func(b BreakInfo) {
		var parts []string
		for _, l := range b.Locals {
			parts = append(parts, l.Name+"="+value.String(l.Value))
		}
		breaks = append(breaks, strings.Join(parts, " "))
	}
	s.in.SetOptions(opts)
	for _, d := range decls {
		if _, _, err := s.run(d); err != nil {
			t.Fatalf("%.40s: %v", d, err)
		}
	}
	var got []outcome
	for _, x := range exprs {
		breaks = nil
		o := outcomeOf(s, x)
		if o.Err != "" {
			t.Fatalf("%s: %s", x, o.Err)
		}
		if len(breaks) == 0 {
			t.Errorf("%s: no break", x)
		}
		// the locals of each break, in the value's place
		o.Value = strings.Join(breaks, "; ")
		got = append(got, o)
	}
	g.compare("breaks", got)
}
