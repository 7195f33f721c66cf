package session

import (
	"context"
	"testing"

	"fut/eval/value"
)

// enterLine enters a REPL line (a declaration) and fails on an error.
func enterLine(t *testing.T, s *Session, line string) {
	t.Helper()
	if _, err := s.Enter(context.Background(), line); err != nil {
		t.Fatalf("%s: %s", line, s.FormatError(err))
	}
}

// TestFrozenValuesStay: values bound in the REPL keep their elements
// when an expression consumes an array made of them without copying
// (zip's result is unique, so the checker lets it be updated, scattered
// or histogrammed into): the evaluator copies an array that is frozen
// or has a frozen component (value.Array.IsFrozen), and freezes the
// components of an array of tuples bound at the top level, which unzip
// takes out. The cache of arguments on the device relies on this.
func TestFrozenValuesStay(t *testing.T) {
	s, err := NewSession(Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, line := range []string{"let a = iota 5", "let b = map (*10) (iota 5)", "let ps = zip a b", "let qs = zip (iota 5) (iota 5)"} {
		enterLine(t, s, line)
	}
	for _, c := range []struct{ expr, want string }{
		{"(zip a b) with [1] = (7, 7)", "[(0, 0), (7, 7), (2, 20), (3, 30), (4, 40)] : [](i64, i64)"},
		{"scatter (zip a b) [0, 4] [(8, 8), (9, 9)]", "[(8, 8), (1, 10), (2, 20), (3, 30), (9, 9)] : [](i64, i64)"},
		{"reduce_by_index (zip a b) (\\(x, y) (u, v) -> (x + u, y + v)) (0, 0) [2] [(1, 1)]", "[(0, 0), (1, 10), (3, 21), (3, 30), (4, 40)] : [](i64, i64)"},
		{"(zip (unzip ps).0 (unzip ps).1) with [3] = (6, 6)", "[(0, 0), (1, 10), (2, 20), (6, 6), (4, 40)] : [](i64, i64)"},
		{"(zip (unzip qs).0 (unzip qs).1) with [3] = (6, 6)", "[(0, 0), (1, 1), (2, 2), (6, 6), (4, 4)] : [](i64, i64)"},
		{"qs", "[(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)] : [](i64, i64)"},
		{"a", "[0, 1, 2, 3, 4] : []i64"},
		{"b", "[0, 10, 20, 30, 40] : []i64"},
		{"ps", "[(0, 0), (1, 10), (2, 20), (3, 30), (4, 40)] : [](i64, i64)"},
	} {
		r, err := s.EvalExpr(ctx, c.expr)
		if err != nil {
			t.Fatalf("%s: %s", c.expr, s.FormatError(err))
		}
		want, err := s.EvalExpr(ctx, c.want)
		if err != nil {
			t.Fatalf("%s: %s", c.want, s.FormatError(err))
		}
		if !value.Equal(r.Value, want.Value, 0) {
			t.Errorf("%s = %s, want %s", c.expr, value.String(r.Value), c.want)
		}
	}
}
