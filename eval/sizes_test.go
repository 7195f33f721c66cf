package eval

import (
	"strings"
	"testing"
)

// Size parameters that only the use fixes (by an ascription, a later
// unification, or a size in scope) are passed by the checker's
// instantiation; empty arrays keep their inner dimensions.
func TestContextSizes(t *testing.T) {
	s := newSession(t, false)
	for _, d := range []string{
		`def fill [n] (x: i32) : [n]i32 = replicate n x`,
		`def fillk (k: i64) : [k]i32 = fill 7`,
		`def grid (n: i64) (m: i64) = unflatten (iota (n*m) :> [n*m]i64)`,
		`def wrap 'a (x: i64) = (x, [] : [0]a)`,
		`def wrapped (x: i64) : (i64, [][x]i32) = wrap x`,
	} {
		if _, _, err := s.run(d); err != nil {
			t.Fatalf("%s: %v", d, err)
		}
	}
	cases := []struct{ src, want string }{
		{"fill 3 : [4]i32", "[3i32, 3i32, 3i32, 3i32]"},
		{"let ys : [2]i32 = fill 1 in ys", "[1i32, 1i32]"},
		{"fillk 3", "[7i32, 7i32, 7i32]"},
		{"grid 2 3", "[[0i64, 1i64, 2i64], [3i64, 4i64, 5i64]]"},
		{"let n = 2 let m = 2 in unflatten ([1,2,3,4] :> [n*m]i32)", "[[1i32, 2i32], [3i32, 4i32]]"},
		{"rep 1u8 : [2]u8", "[1u8, 1u8]"},
		{"[] : [0][3]i32", "empty([0][3]i32)"},
		{"let n = 4 in ([] : [0][n]f32)", "empty([0][4]f32)"},
		{"(wrapped 2).1", "empty([0][2]i32)"},
		// empty arrays of tuples, records and () keep their inner sizes
		{"length (transpose ([] : [0][3](i32, f32)))", "3i64"},
		{"let x = ([] : [0][2][3]()) in (length (transpose x), length (transpose x)[0])", "(2i64, 0i64)"},
		{"[] : [0]{a: i32, b: bool}", "empty([0]{a: i32, b: bool})"},
		// sizes that are fields of a tuple or record variable
		{"let s = (2i64, 3i64) in length (transpose ([] : [0][s.1]i32))", "3i64"},
		{"let s = {a = 2i64, b = 4i64} in length (transpose ([] : [0][s.b]i32))", "4i64"},
	}
	for _, c := range cases {
		if got := s.val(c.src); got != c.want {
			t.Errorf("%s = %s, want %s", c.src, got, c.want)
		}
	}
	// a coercion that does not hold fails at the coercion, naming the
	// type with its sizes evaluated
	_, _, err := s.run("let n = 2 let m = 3 in unflatten ([1, 2] :> [n*m]i32)")
	if err == nil || !strings.Contains(err.Error(), `cannot match shape of type "[6]i32"`) {
		t.Errorf("bad coercion: got %v", err)
	}
}

// A module ascribed a module type hides what the type does not name: a
// local open of it sees the enclosing definitions instead.
func TestAscriptionHides(t *testing.T) {
	s := newSession(t, false)
	for _, d := range []string{
		`module type MT = { val ne : i64 }`,
		`module F (P: {}) : MT = { def ne = 5i64 def hidden = 1i64 }`,
		`module A = F {}`,
		`module B : MT = { def ne = 7i64 def hidden = 2i64 }`,
		`def hidden = 100i64`,
		`type ints [n] = [n]i32`,
		"module K = { def k = 2i64 type kints = ints [k] }",
	} {
		if _, _, err := s.run(d); err != nil {
			t.Fatalf("%s: %v", d, err)
		}
	}
	cases := []struct{ src, want string }{
		{"A.(ne + hidden)", "105i64"},
		{"B.(ne + hidden)", "107i64"},
		{"([1, 2] :> ints [2])", "[1i32, 2i32]"},
	}
	for _, c := range cases {
		if got := s.val(c.src); got != c.want {
			t.Errorf("%s = %s, want %s", c.src, got, c.want)
		}
	}
	for _, src := range []string{"[1, 2, 3] :> ints [2]", "[1, 2, 3] :> K.kints"} {
		if _, _, err := s.run(src); err == nil || !strings.Contains(err.Error(), "cannot match shape") {
			t.Errorf("%s: coercion to an abbreviation of the wrong size: %v", src, err)
		}
	}
	if got := s.val("[1, 2] :> K.kints"); got != "[1i32, 2i32]" {
		t.Errorf("[1, 2] :> K.kints = %s", got)
	}
}
