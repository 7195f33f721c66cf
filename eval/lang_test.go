package eval

import (
	"strings"
	"testing"
)

// Programs in fut's language: each entry is declarations to load, then an
// expression and its printed value.
func TestLanguage(t *testing.T) {
	s := newSession(t, true)
	decls := []string{
		`def sq (x: i32) = x * x`,
		`def len [n] (xs: [n]i32) = n`,
		`def twice 'a (f: a -> a) (x: a) = f (f x)`,
		`module M = { def x = 10i32 def f (y: i32) = y + x }`,
		`module type num = { type t val add: t -> t -> t val zero: t }`,
		`module i32num : num with t = i32 = { type t = i32 def add (a: i32) (b: i32) = a + b def zero = 0i32 }`,
		`module Sum (N: num) = { def sum (xs: []N.t) = reduce N.add N.zero xs }`,
		`module S = Sum i32num`,
		`type shape = #circle f64 | #rect f64 f64`,
		`def area (s: shape) = match s case #circle r -> 3.0 * r * r case #rect w h -> w * h`,
		`def (+^) (a: i32) (b: i32) = a * 10 + b`,
		`local def hidden = 3i32`,
		`def pair = (1i32, 2i32)`,
		`def inplace (n: i64) = loop a = replicate n 0i64 for i < n do a with [i] = i * 2`,
		`def rec = {x = 1i32, y = {z = 2i32}}`,
	}
	for _, d := range decls {
		if _, _, err := s.run(d); err != nil {
			t.Fatalf("%s: %v", d, err)
		}
	}
	cases := []struct{ src, want string }{
		{"sq 7", "49i32"},
		{"len [1, 2, 3]", "3i64"},
		{"twice sq 3", "81i32"},
		{"twice (\\x -> x + 1) 3", "5i32"},
		{"M.f 5", "15i32"},
		{"M.x", "10i32"},
		{"S.sum [1, 2, 3]", "6i32"},
		{"area (#rect 2.0 3.0)", "6.0f64"},
		{"area (#circle 1.0)", "3.0f64"},
		{"1 +^ 2", "12i32"},
		{"hidden", "3i32"},
		{"pair.1", "2i32"},
		{"let (a, b) = pair in a + b", "3i32"},
		{"inplace 4", "[0i64, 2i64, 4i64, 6i64]"},
		{"rec.y.z", "2i32"},
		{"rec with y.z = 5", "{x = 1i32, y = {z = 5i32}}"},
		{"let {x, y} = rec in x + y.z", "3i32"},
		{"(.1) (1, 2)", "2i32"},
		{"map (.x) [{x = 1, y = 2}, {x = 3, y = 4}]", "[1i32, 3i32]"},
		{"(+ 1) 5", "6i32"},
		{"(10 -) 3", "7i32"},
		{"map (2 *) [1, 2]", "[2i32, 4i32]"},
		{"[1, 2, 3] |> map (* 2) |> reduce (+) 0", "12i32"},
		{"let xs = [[1, 2], [3, 4]] in xs[1, 0]", "3i32"},
		{"let xs = [[1, 2], [3, 4]] in xs[:, 1]", "[2i32, 4i32]"},
		{"(iota 5)[::-1]", "[4i64, 3i64, 2i64, 1i64, 0i64]"},
		{"(iota 5)[3:]", "[3i64, 4i64]"},
		{"let a = [[0, 0], [0, 0]] in a with [1] = [7, 8]", "[[0i32, 0i32], [7i32, 8i32]]"},
		{"let a = [1, 2, 3, 4] in a with [1:3] = [8, 9]", "[1i32, 8i32, 9i32, 4i32]"},
		{"let a = [[1, 2], [3, 4]] let a[0, 1] = 9 in a", "[[1i32, 9i32], [3i32, 4i32]]"},
		{"loop (x, y) = (0, 1) for i < 5 do (y, x + y)", "(5i32, 8i32)"},
		{"loop x = 1 while x < 100 do x * 2", "128i32"},
		{"loop s = 0 for x in [1, 2, 3] do s + x", "6i32"},
		{"unzip [(1, true), (2, false)]", "([1i32, 2i32], [true, false])"},
		{"let (a, b) = partition (\\x -> x % 2 == 0) (iota 6) in (a, b)", "([0i64, 2i64, 4i64], [1i64, 3i64, 5i64])"},
		{"flatten [[1, 2], [3, 4]]", "[1i32, 2i32, 3i32, 4i32]"},
		{"rotate 1 [1, 2, 3]", "[2i32, 3i32, 1i32]"},
		{"concat [1, 2] [3]", "[1i32, 2i32, 3i32]"},
		{"[1, 2] ++ [3]", "[1i32, 2i32, 3i32]"},
		{"reduce_by_index (replicate 3 0) (+) 0 [0, 0, 2, 7] [1, 2, 3, 4]", "[3i32, 0i32, 3i32]"},
		{"reduce_stream (+) (\\_ xs -> reduce (+) 0 xs) (iota 3000)", "4498500i64"},
		{"map_stream (\\_ xs -> map (+ 1) xs) (iota 3)", "[1i64, 2i64, 3i64]"},
		{"f64.sqrt 2.0 * f64.sqrt 2.0 > 1.99", "true"},
		{"f32.inf", "f32.inf"},
		{"f64.nan == f64.nan", "false"},
		{"f32.isnan (f32.sqrt (-1f32))", "true"},
		{"i32.popc 255", "8i32"},
		{"u8.i32 300", "44u8"},
		{"i64.u8 200u8", "200i64"},
		{"f32.to_bits 1.0f32", "1065353216u32"},
		{"f16.f32 0.1f32", "0.1f16"},
		{"(-5) >> 1", "-3i32"},
		{"'a'", "97i32"},
		{"\"hi\"", "[104u8, 105u8]"},
		{"#[trace] (1 + 1)", "2i32"},
		{"i32.max 3 9", "9i32"},
		{"all (> 0) [1, 2]", "true"},
		{"any (> 5) [1, 2]", "false"},
		{"copy [1, 2]", "[1i32, 2i32]"},
		{"length [1, 2, 3]", "3i64"},
		{"tabulate 3 (\\i -> i * i)", "[0i64, 1i64, 4i64]"},
		{"foldl (+) 0 [1, 2, 3]", "6i32"},
		{"let xs = [3, 1, 2] in xs :> [3]i32", "[3i32, 1i32, 2i32]"},
		{"scatter_2d (replicate 2 (replicate 2 0)) [(0, 1), (1, 0)] [5, 6]", "[[0i32, 5i32], [6i32, 0i32]]"},
		{"[(1, 2.0), (3, 4.0)][1]", "(3i32, 4.0f64)"},
		{"reduce_by_index_2d (replicate 2 (replicate 2 0)) (+) 0 [(0, 0), (1, 1), (0, 0), (5, 0)] [1, 2, 3, 4]", "[[4i32, 0i32], [0i32, 2i32]]"},
		{"scatter_3d (replicate 2 (replicate 1 (replicate 2 0))) [(1, 0, 1), (0, 0, 0)] [7, 8]", "[[[8i32, 0i32]], [[0i32, 7i32]]]"},
		{"hist i32.max 0 2 [1, 1, 0] [5, 9, 3]", "[3i32, 9i32]"},
		{"map_stream_per (\\_ xs -> map (* 2) xs) [1, 2, 3]", "[2i32, 4i32, 6i32]"},
		{"reduce_stream_per (+) (\\_ xs -> length xs) [1, 2, 3]", "3i64"},
		{"reduce_comm (+) 0 [1, 2, 3]", "6i32"},
		{"scan (\\(a, b) (c, d) -> (a + c, b * d)) (0, 1) (zip [1, 2, 3] [2, 3, 4])", "[(1i32, 2i32), (3i32, 6i32), (6i32, 24i32)]"},
		{"filter (\\(a, _) -> a > 1) (zip [1, 2, 3] [true, false, true])", "[(2i32, false), (3i32, true)]"},
		{"map (\\r -> r.a) [{a = 1, b = 2}]", "[1i32]"},
		{"let xs = [#foo 1, #bar] : [](#foo i32 | #bar) in map (\\x -> match x case #foo n -> n case #bar -> 0) xs", "[1i32, 0i32]"},
		{"(zip [1, 2] [3, 4])[1:]", "[(2i32, 4i32)]"},
		{"f16.sqrt 2f16", "1.414f16"},
		{"[] : [0]f32", "empty([0]f32)"},
		{"concat [] [1i64]", "[1i64]"},
		{"i64.clz 1", "63i32"},
		{"u32.mul_hi 4294967295 2", "1u32"},
		{"f32.from_bits 0x3f800000", "1.0f32"},
		{"zip3 [1] [2] [3]", "[(1i32, 2i32, 3i32)]"},
		{"replicate 2 (1, [3])", "[(1i32, [3i32]), (1i32, [3i32])]"},
		{"map (\\(a, b) -> a + b) (zip [1, 2] [3, 4])", "[4i32, 6i32]"},
		{"let f = \\x y -> x - y in f 10 3", "7i32"},
		{"let g = (-) in g 10 3", "7i32"},
		{"let [n] (xs: [n]i64) = iota 3 in n", "3i64"},
		{"assert (1 < 2) 5", "5i32"},
		{"match 3 case 1 -> 10 case 3 -> 30 case _ -> 0", "30i32"},
		{"match (1, 2) case (1, x) -> x case _ -> 0", "2i32"},
		{"0x10 + 0b11", "19i32"},
		{"1_000i64", "1000i64"},
		{"-(1 + 2)", "-3i32"},
		{"!true", "false"},
		{"!0u8", "255u8"},
		{"2 ** 10", "1024i32"},
		{"2.0 ** 0.5 > 1.41", "true"},
	}
	for _, c := range cases {
		if got := s.val(c.src); got != c.want {
			t.Errorf("%s = %s, want %s", c.src, got, c.want)
		}
	}
}

// TestLexicalScope checks that later declarations never change what
// earlier code means.
func TestLexicalScope(t *testing.T) {
	s := newSession(t, false)
	for _, d := range []string{`def f (x: i32) = x + 1`, `def g (x: i32) = f x * 10`, `def f (x: i32) = x - 1`, `def (+) (a: i32) (b: i32) = a * b`} {
		if _, _, err := s.run(d); err != nil {
			t.Fatal(err)
		}
	}
	for src, want := range map[string]string{"g 2": "30i32", "f 2": "1i32", "2 + 5": "10i32"} {
		if got := s.val(src); got != want {
			t.Errorf("%s = %s, want %s", src, got, want)
		}
	}
}

func TestRuntimeErrors(t *testing.T) {
	s := newSession(t, false)
	s.run("def get (xs: []i32) (i: i64) = xs[i]")
	cases := []struct{ src, want string }{
		{"[1, 2, 3][5]", "Index [5] out of bounds for array of shape [3]."},
		{"let xs = [[1, 2], [3, 4]] in xs[1, 2]", "Index [1, 2] out of bounds for array of shape [2][2]."},
		{"(iota 5)[2:7]", "Index [2:7] out of bounds for array of shape [5]."},
		{"get [1, 2] 2", "Index [2] out of bounds"},
		{"1 / 0", "division by zero"},
		{"5 % 0", "division by zero"},
		{"assert (1 > 2) 0", "Assertion is false: 1 > 2"},
		{"iota (-1)", "Range 0..1..<-1 is invalid."},
		{"replicate (-2) 0", "negative"},
		{"let xs = [1, 2, 3] in xs :> [2]i32", "cannot match shape"},
		{"???", "Hole"},
		{"1..<0", ""},
	}
	for _, c := range cases {
		_, _, err := s.run(c.src)
		if c.want == "" {
			continue
		}
		if err == nil {
			t.Errorf("%s: no error, want %q", c.src, c.want)
			continue
		}
		if _, ok := err.(*RuntimeError); !ok {
			t.Errorf("%s: error %T %v is not a RuntimeError", c.src, err, err)
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q, want %q", c.src, err.Error(), c.want)
		}
	}
	_, _, err := s.run("get [1, 2] 7")
	re := err.(*RuntimeError)
	if len(re.Stack) == 0 || re.Stack[0].Name != "get" {
		t.Errorf("stack of error in get: %+v", re.Stack)
	}
	if msg := re.Format(s.fset); !strings.Contains(msg, "<test>:1:") {
		t.Errorf("formatted error lacks a position: %s", msg)
	}
}
