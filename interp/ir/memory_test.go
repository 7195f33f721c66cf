package ir_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"fut/eval/value"
	"fut/interp/ir"
)

var errOver = errors.New("over")

// TestEvalMemoryHook: the evaluator asks EvalOptions.Memory before its
// allocations, with their sizes, and every 1024 steps; a failure is a
// *RuntimeError at the failing statement's position, else at
// EvalOptions.Where, that unwraps to the hook's error; without a hook the
// same program runs.
func TestEvalMemoryHook(t *testing.T) {
	p, err := ir.Parse(`prog (n: i64) : ([n][1000i64]i64) {
  let (xs: [n][1000i64]i64) = screma n () index i gens 1 {
    map \() : ([1000i64]i64) {
      let (row: [1000i64]i64) = iota 1000i64
      return (row)
    }
  }
  return (xs)
}
`)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	args := []value.Value{value.I64Val(3000)}
	var asked, periodic int64
	var largest int64
	hook := func(limit int64) func(request, elems int64) error {
		return func(request, elems int64) error {
			if elems < 0 {
				periodic++
				return nil
			}
			asked += request
			largest = max(largest, request)
			if asked > limit {
				return errOver
			}
			return nil
		}
	}
	// the rows (3000 of 8000 bytes) and their stacking (24 MB) are asked
	// for, and the 3000 steps make periodic checks
	out, err := ir.EvalAllWith(ctx, p, args, ir.EvalOptions{Memory: hook(1 << 30)})
	if err != nil {
		t.Fatal(err)
	}
	if out[0].(*value.Array).Len() != 3000 {
		t.Fatalf("got %d rows", out[0].(*value.Array).Len())
	}
	if largest != 3000*1000*8 || asked != 2*3000*1000*8 || periodic == 0 {
		t.Fatalf("asked %d bytes in all, %d at most, %d periodic checks; want %d, %d and some", asked, largest, periodic, 2*3000*1000*8, 3000*1000*8)
	}
	// a limit of 100 rows fails at the 101st, at the fallback position
	asked, periodic = 0, 0
	_, err = ir.EvalAllWith(ctx, p, args, ir.EvalOptions{Memory: hook(100 * 8000), Where: "f.fut:1:1"})
	var re *ir.RuntimeError
	if !errors.As(err, &re) || !errors.Is(err, errOver) || re.Where != "f.fut:1:1" || !strings.HasPrefix(err.Error(), "f.fut:1:1: over") {
		t.Fatalf("a failed memory check: %#v", err)
	}
	if asked != 101*8000 {
		t.Fatalf("failed after asking %d bytes, want %d", asked, 101*8000)
	}
	// no hook: no limit
	if _, err := ir.EvalAll(ctx, p, args); err != nil {
		t.Fatal(err)
	}
}
