package eval

import "testing"

func TestBasics(t *testing.T) {
	s := newSession(t, true)
	t.Logf("checker in use: %v", s.check != nil)
	cases := []struct{ src, want string }{
		{"1 + 2", "3i32"},
		{"iota 4", "[0i64, 1i64, 2i64, 3i64]"},
		{"map (\\x -> x * 2) (iota 4)", "[0i64, 2i64, 4i64, 6i64]"},
		{"reduce (+) 0 (iota 4)", "6i64"},
		{"let x = 5 in x * x", "25i32"},
		{"-7 / 2", "-4i32"},
		{"-7 % 2", "1i32"},
		{"-7 // 2", "-3i32"},
		{"-7 %% 2", "-1i32"},
		{"if 1 < 2 then true else false", "true"},
		{"(1, 2.5)", "(1i32, 2.5f64)"},
		{"[[1,2],[3,4]]", "[[1i32, 2i32], [3i32, 4i32]]"},
		{"loop acc = 0 for i < 10 do acc + i", "45i32"},
		{"scan (+) 0 [1,2,3,4]", "[1i32, 3i32, 6i32, 10i32]"},
		{"filter (\\x -> x > 2) [1,2,3,4,5]", "[3i32, 4i32, 5i32]"},
		{"f32.sqrt 4f32", "2.0f32"},
		{"i32.f64 3.7", "3i32"},
		{"255u8 + 1u8", "0u8"},
		{"zip [1,2] [3,4]", "[(1i32, 3i32), (2i32, 4i32)]"},
		{"map2 (+) [1,2] [3,4]", "[4i32, 6i32]"},
		{"let a = replicate 3 0 in a with [1] = 5", "[0i32, 5i32, 0i32]"},
		{"(iota 10)[2:8:2]", "[2i64, 4i64, 6i64]"},
		{"transpose [[1,2,3],[4,5,6]]", "[[1i32, 4i32], [2i32, 5i32], [3i32, 6i32]]"},
		{"{a = 1, b = true}.b", "true"},
		{"match (#some 3 : opt) case #some x -> x case #none -> 0", "3i32"},
		{"1..<5", "[1i32, 2i32, 3i32, 4i32]"},
		{"hist (+) 0 3 [0,1,1,2,5] [1,1,1,1,1]", "[1i32, 2i32, 1i32]"},
		{"scatter (replicate 4 0) [0, 2, 9] [5, 6, 7]", "[5i32, 0i32, 6i32, 0i32]"},
	}
	s.run("type opt = #some i32 | #none")
	for _, c := range cases {
		if got := s.val(c.src); got != c.want {
			t.Errorf("%s = %s, want %s", c.src, got, c.want)
		}
	}
}

// TestZipShares: zip's result is unique but holds its arguments'
// buffers, so the checker lets a program consume the result and go on
// using an argument (or a view of one), or the other way round; either
// consumption copies (both are marked shared, and every view is), and
// the other keeps its elements.
func TestZipShares(t *testing.T) {
	s := newSession(t, true)
	for _, c := range []struct{ src, want string }{
		{"let a = iota 3 in let z = zip a a in (z with [0] = (9, 9), a)", "([(9i64, 9i64), (1i64, 1i64), (2i64, 2i64)], [0i64, 1i64, 2i64])"},
		{"let a = iota 3 in let z = zip a a in let a2 = a with [0] = 9 in (z, a2)", "([(0i64, 0i64), (1i64, 1i64), (2i64, 2i64)], [9i64, 1i64, 2i64])"},
		{"let a = iota 3 in let z = zip3 a a a in (scatter z [1] [(7, 7, 7)], a)", "([(0i64, 0i64, 0i64), (7i64, 7i64, 7i64), (2i64, 2i64, 2i64)], [0i64, 1i64, 2i64])"},
		{"let a = iota 3 in let z = zip a a in let h = reduce_by_index a (+) 0 [0] [5] in (z, h)", "([(0i64, 0i64), (1i64, 1i64), (2i64, 2i64)], [5i64, 1i64, 2i64])"},
		{"let a = iota 3 in let z = zip a a in let b = loop b = a for i < 3 do b with [i] = 7 in (z, b)", "([(0i64, 0i64), (1i64, 1i64), (2i64, 2i64)], [7i64, 7i64, 7i64])"},
		// a view of an argument taken before the zip, consumed
		{"let a = iota 3 in let v = a[0:2] in let z = zip a a in let v2 = v with [0] = 7 in (z, v2)", "([(0i64, 0i64), (1i64, 1i64), (2i64, 2i64)], [7i64, 1i64])"},
		{"let m = [[1, 2], [3, 4]] in let r = m[1] in let z = zip m m in let r2 = r with [0] = 9 in (z[1], r2)", "(([3i32, 4i32], [3i32, 4i32]), [9i32, 4i32])"},
		{"let a = iota 4 in let u = unflatten (a :> [2*2]i64) in let z = zip a a in let u2 = u with [0, 0] = 7 in (z[0], u2)", "((0i64, 0i64), [[7i64, 1i64], [2i64, 3i64]])"},
	} {
		if got := s.val(c.src); got != c.want {
			t.Errorf("%s = %s, want %s", c.src, got, c.want)
		}
	}
}
