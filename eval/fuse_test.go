package eval

import (
	"testing"

	"fut/interp/syntax"
)

// TestFusedPathByResolution checks that the map-reduce fast path finds
// the prelude's reduce and map by what the checker resolved their bodies'
// names to, and that a user's definitions of the same names do not fool
// it: a shadowing map that is not the prelude's wrapper takes the general
// path (and gives its own answer).
func TestFusedPathByResolution(t *testing.T) {
	s := newSession(t, true)
	if s.check == nil {
		t.Skip("no checker in this session")
	}
	fused := func(src string) bool {
		t.Helper()
		_, e, err := syntax.ParseEntry(s.fset, "<test>", []byte(src))
		if err != nil || e == nil {
			t.Fatalf("parse %q: %v", src, err)
		}
		if _, err := s.check.CheckExpr(e); err != nil {
			t.Fatalf("check %q: %v", src, s.fset.FormatAll(err))
		}
		th := s.in.newThread(t.Context())
		_, ok, err := th.fusedMapReduce(unparen(e).(*syntax.Apply), rootEnv(s.in.top))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		return ok
	}
	if !fused(`reduce (+) 0 (map (\x -> x * 2) (iota 10))`) {
		t.Error("reduce of a map does not take the fused path")
	}
	if _, _, err := s.run(`def map (f: i64 -> i64) (xs: []i64) : []i64 = reverse xs`); err != nil {
		t.Fatal(err)
	}
	if fused(`reduce (+) 0 (map (\x -> x * 2) (iota 10))`) {
		t.Error("a user's map shadowing the prelude's takes the fused path")
	}
	if got := s.val(`reduce (+) 0 (map (\x -> x * 2) (iota 10))`); got != "45i64" {
		t.Errorf("with the user's map: got %s, want 45i64", got)
	}
}
