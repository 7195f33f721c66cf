package interp

import (
	"context"
	"errors"
	"strings"
	"testing"

	"fut/eval"
	"fut/eval/value"
)

// --max-memory bounds what an evaluation holds live: the example
// (there 20 rows of 76 MiB under 500 MiB, here rows of 15 MiB under 100
// MiB) fails at the inner map once the rows held pass the limit, with the
// position and sizes in binary units; the session evaluates what comes
// after.
func TestMaxMemoryIsLive(t *testing.T) {
	s, err := NewSession(Options{MaxMemory: 100 << 20})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := s.Enter(ctx, "def keep = 41i32"); err != nil {
		t.Fatal(s.FormatError(err))
	}
	_, err = s.Enter(ctx, `length (map (\i -> map (+i) (iota 2000000)) (iota 20))`)
	if !errors.Is(err, eval.ErrMemory) {
		t.Fatalf("20 rows of 15 MiB under 100 MiB: %v", err)
	}
	msg := s.FormatError(err)
	for _, want := range []string{"<repl:2>:1:20", "out of memory: an array of 2000000 elements needs 15 MiB more", "the limit is 100 MiB (--max-memory)"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	r, err := s.EvalExpr(ctx, "keep + 1")
	if err != nil {
		t.Fatal(s.FormatError(err))
	}
	if got := value.String(r.Value); got != "42i32" {
		t.Errorf("keep + 1 = %s after the memory error", got)
	}
	// the same rows, summed one at a time, allocate 305 MiB and hold little
	r, err = s.EvalExpr(ctx, `reduce (+) 0 (map (\i -> reduce (+) 0 (map (+i) (iota 2000000))) (iota 20))`)
	if err != nil {
		t.Fatal(s.FormatError(err))
	}
	if got := value.String(r.Value); got != "40000360000000i64" {
		t.Errorf("rows summed one at a time = %s", got)
	}
}
