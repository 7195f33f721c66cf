package eval

import "testing"

func TestDebugScopes(t *testing.T) {
	s := newSession(t, false)
	n := 0
	for sc := s.in.top; sc != nil; sc = sc.parent {
		n++
	}
	t.Logf("scope levels after prelude: %d", n)
}
