package eval

import (
	"strings"
	"testing"
)

// Run-time errors say what Futhark says, at the user's position.
func TestErrorMessages(t *testing.T) {
	s := newSession(t, false)
	if _, _, err := s.run(`def xs = [1, 2, 3, 4, 5i32]`); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ src, want string }{
		{"let a = 5i32 let b = 1i32 in a...b", "Range 5...1 is invalid."},
		{"let a = 1i64 in a..0...5", "Range 1..0...5 is invalid."},
		{"let a = 5i64 in a..4..<1", "Range 5..4..<1 is invalid."},
		{"let i = 1i64 let j = 0i64 in xs[i:j]", "Index [1:0] out of bounds for array of shape [5]."},
		{"let i = 0i64 in ([] : []i32)[i:1]", "Index [0:1] out of bounds for array of shape [0]."},
		{"let i = 7i64 in xs[i]", "Index [7] out of bounds for array of shape [5]."},
		{"let a = 1i64 let b = 4i64 in [[1,2],[3,4]] :> [a][b]i32", `cannot match shape of type "[1][4]i32"`},
	}
	for _, c := range cases {
		_, _, err := s.run(c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.src, err, c.want)
		}
	}
	for _, ok := range []string{"xs[1:1]", "xs[5:5]", "xs[::-1]", "xs[4:0:-1]", "xs[2:]"} {
		if _, _, err := s.run(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	// an index error is placed at the index, not at the array
	_, _, err := s.run("let i = 9i64 in xs[i]")
	re, ok := err.(*RuntimeError)
	if !ok || s.fset.Position(re.Pos).Col != len("let i = 9i64 in xs[")+1 {
		t.Errorf("index error at %v", err)
	}
}

// TestSliceOrder pins the order in which a slice's parts are evaluated
// (indexParts and evalIndicesBy state it, for every back end): its
// stride, then its start, then its end, dimension by dimension; the
// first part that fails is the one reported. An index reads the order
// from its form (indexParts), an update's path from evalIndicesBy:
// swapping the stride and the start in either fails a case.
func TestSliceOrder(t *testing.T) {
	s := newSession(t, false)
	if _, _, err := s.run(`def xs = [1, 2, 3, 4, 5i32]`); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		src  string
		part string // the part whose failure is reported
	}{
		{"let z = 0i64 in xs[1/z : 5 : 1%z]", "1%z"},
		{"let z = 0i64 in xs[1/z : 5%z]", "1/z"},
		{"let z = 0i64 in xs[0 : 5%z : 1/z]", "1/z"},
		{"let z = 0i64 in xs[0 : 5%z]", "5%z"},
		{"let z = 0i64 in [[1,2],[3,4]][0 : 4/z, 1%z : 2]", "4/z"},
		{"let z = 0i64 in copy xs with [1/z : 5 : 1%z] = [1, 2]", "1%z"},
		{"let z = 0i64 in copy xs with [0 : 5%z : 1/z] = [1, 2]", "1/z"},
	} {
		_, _, err := s.run(c.src)
		re, ok := err.(*RuntimeError)
		if !ok {
			t.Errorf("%s: %v", c.src, err)
			continue
		}
		// a division by zero is placed at its operator
		if col, want := s.fset.Position(re.Pos).Col, strings.Index(c.src, c.part)+2; col != want {
			t.Errorf("%s: the failure reported at column %d, want %s's operator (%d)", c.src, col, c.part, want)
		}
	}
}
