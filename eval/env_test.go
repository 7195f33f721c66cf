package eval

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// Redefinitions see what they replace when they name it, and functions
// made before a redefinition keep the old value.
func TestRedefinitionScoping(t *testing.T) {
	s := newSession(t, false)
	for _, c := range []struct{ src, want string }{
		{"def f (x: i32) = x + 1", ""},
		{"def f (x: i32) = f x * 2", ""}, // the old f
		{"f 3", "8i32"},
		{"def a = 1i32", ""},
		{"def g (x: i32) = x + a", ""},
		{"def a = a + 100", ""},
		{"g 1", "2i32"},
		{"a", "101i32"},
		{"def (+^) (x: i32) (y: i32) = x - y", ""},
		{"def (+^) (x: i32) (y: i32) = x +^ y +^ 1", ""},
		{"5 +^ 2", "2i32"},
		{"def h' (x: i32) = x", ""},
		{"def h' (x: i32) = h' x + 10", ""},
		{"h' 1", "11i32"},
	} {
		if c.want == "" {
			if _, _, err := s.run(c.src); err != nil {
				t.Fatalf("%s: %v", c.src, err)
			}
			continue
		}
		if got := s.val(c.src); got != c.want {
			t.Errorf("%s = %s, want %s", c.src, got, c.want)
		}
	}
}

// A closure holds the names its text uses, and what those need: the
// sizes of a type abbreviation it names are still checked.
func TestClosureScopeSizes(t *testing.T) {
	s := newSession(t, false)
	for _, src := range []string{
		"def n : i64 = 3",
		"type vec = [n]i64",
		"type mat [k] = [k]vec",
		"def h (y: i64) : vec = (replicate 2 y) :> vec",
		"def h3 (y: i64) : vec = (replicate 3 y) :> vec",
		"def z (m: mat [2]) : i64 = m[1][2]",
	} {
		if _, _, err := s.run(src); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
	}
	if _, _, err := s.run("h 5"); err == nil || !strings.Contains(err.Error(), "cannot match shape") {
		t.Errorf("h 5: the coercion to [n]i64 was not checked: %v", err)
	}
	if got := s.val("z [h3 1, h3 2]"); got != "2i64" {
		t.Errorf("z [h3 1, h3 2] = %s", got)
	}
}

// A REPL that redefines a large array, with functions defined between,
// holds one of them, not one per redefinition: the levels of a session
// kept every shadowed value (a new level stacked on the old ones, and
// each function's closure held the level that held the previous one).
func TestRedefinitionsAreFreed(t *testing.T) {
	s := newSession(t, false)
	var first int64
	for r := range 8 {
		for _, src := range []string{
			fmt.Sprintf("def big = map (+%d) (iota 2000000)", r), // 15 MiB
			fmt.Sprintf("def f (x: i64) = x + big[%d]", r),
			"def g (x: i64) = f x + 1",
			fmt.Sprintf("module M = { def c = replicate 1000000 %di64 }", r),
			"open M",
		} {
			if _, _, err := s.run(src); err != nil {
				t.Fatalf("%s: %v", src, err)
			}
		}
		if got, want := s.val("g 1"), fmt.Sprintf("%di64", 2*r+2); got != want {
			t.Fatalf("round %d: g 1 = %s, want %s", r, got, want)
		}
		if r == 1 {
			first = liveHeap()
		}
	}
	last := liveHeap()
	runtime.KeepAlive(s) // the session is what is measured
	if grow := last - first; grow > 16<<20 {
		t.Errorf("the live heap grew by %d MiB over 6 redefinitions of 23 MiB", grow>>20)
	}
}
