package session

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

// --max-memory bounds the fused IR's evaluator as it bounds the reference
// path: an entry point whose rows pass the limit fails at the statement
// that allocates, with its position and sizes in binary units, on the
// fused path itself (not by running the reference path); the fused plan's
// cost (:cost's fused row) fails alike; the session goes on after both.
func TestMaxMemoryFused(t *testing.T) {
	src := "entry rows (n: i64) : [20][n]i64 =\n  map (\\i -> map (+i) (iota n)) (iota 20)\n"
	s, file := fileSession(t, "rows.fut", src, Options{MaxMemory: 32 << 20})
	ctx := context.Background()
	// 20 rows of 3.8 MiB: the reference path fails, and so must the fused one
	big := []value.Value{value.I64Val(500000)}
	_, lowered, why, err := s.CallEntryFused(ctx, "rows", big)
	if !lowered {
		t.Fatalf("not lowered: %s", why)
	}
	if !errors.Is(err, eval.ErrMemory) {
		t.Fatalf("20 rows of 3.8 MiB under 32 MiB on the fused path: %v", err)
	}
	var re *eval.RuntimeError
	if errors.As(err, &re) {
		t.Fatalf("the error came from running the reference path: %s", s.FormatError(err))
	}
	msg := s.FormatError(err)
	for _, want := range []string{"Error at " + file + ":1:1:", "out of memory:", "MiB", "the limit is 32 MiB (--max-memory)"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	// the fused plan's cost runs the plan: bounded too
	_, err = s.FusedCost(ctx, `map (\i -> map (+i) (iota 500000)) (iota 20)`)
	if !errors.Is(err, eval.ErrMemory) {
		t.Fatalf("the fused cost of 20 rows of 3.8 MiB under 32 MiB: %v", err)
	}
	if msg := s.FormatError(err); !strings.Contains(msg, "Error at <repl:1>:1:1:") || !strings.Contains(msg, "(--max-memory)") {
		t.Errorf("the fused cost's memory error:\n%s", msg)
	}
	// what fits still runs, on both paths, and the session goes on
	out, _, _, err := s.CallEntryFused(ctx, "rows", []value.Value{value.I64Val(1000)})
	if err != nil || len(out) != 1 || value.String(out[0].(*value.Array).Index(19).(*value.Array).Index(999)) != "1018i64" {
		t.Fatalf("rows 1000 on the fused path after the memory error: %v", err)
	}
	r, err := s.EvalExpr(ctx, "(rows 1000)[19, 999] + 1")
	if err != nil {
		t.Fatal(s.FormatError(err))
	}
	if got := value.String(r.Value); got != "1019i64" {
		t.Errorf("(rows 1000)[19, 999] + 1 = %s after the memory error", got)
	}
	// without a limit the check is off and the same plan runs
	s2, err := NewSession(Options{MaxMemory: -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := s2.LoadFile(ctx, file); err != nil {
		t.Fatal(s2.FormatError(err))
	}
	if out, _, _, err := s2.CallEntryFused(ctx, "rows", []value.Value{value.I64Val(100000)}); err != nil || out[0].(*value.Array).Len() != 20 {
		t.Fatalf("rows 100000 without a limit: %v %v", out, err)
	}
}
