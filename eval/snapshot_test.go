package eval

import "testing"

func TestSnapshotRestore(t *testing.T) {
	s := newSession(t, false)
	if _, _, err := s.run(`def a = 1i32`); err != nil {
		t.Fatal(err)
	}
	snap := s.in.Snapshot()
	if got := s.val(`a + 1`); got != "2i32" {
		t.Fatalf("after Snapshot: a + 1 = %s", got)
	}
	if _, _, err := s.run(`def a = 10i32`); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.run(`def b = 5i32`); err != nil {
		t.Fatal(err)
	}
	if got := s.val(`a`); got != "10i32" {
		t.Fatalf("a = %s before Restore", got)
	}
	s.in.Restore(snap)
	if v, ok := s.in.Lookup("a"); !ok || valueString(v) != "1i32" {
		t.Errorf("after Restore: a = %v, %v", v, ok)
	}
	if _, ok := s.in.Lookup("b"); ok {
		t.Errorf("after Restore: b is still bound")
	}
	// the session goes on from the restored state, and may restore again
	snap2 := s.in.Snapshot()
	s.in.Bind("c", s.in.mustLookup(t, "a"))
	if v, ok := s.in.Lookup("c"); !ok || valueString(v) != "1i32" {
		t.Errorf("c = %v, %v", v, ok)
	}
	s.in.Restore(snap2)
	if _, ok := s.in.Lookup("c"); ok {
		t.Errorf("c survived the second Restore")
	}
	s.in.Restore(Snapshot{}) // ignored
	if _, ok := s.in.Lookup("a"); !ok {
		t.Errorf("a lost by an empty Restore")
	}
}

func (in *Interp) mustLookup(t *testing.T, name string) Value {
	t.Helper()
	v, ok := in.Lookup(name)
	if !ok {
		t.Fatalf("%s unbound", name)
	}
	return v
}
