package eval

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"fut/interp/syntax"
)

func TestLimits(t *testing.T) {
	s := newSession(t, false)
	// Recursion is not Futhark, but the evaluator must stop cleanly.
	s.run(`def down (x: i32) : i32 = if x == 0 then 0 else down (x - 1)`)
	if _, _, err := s.run(`down 1000000`); err == nil || !strings.Contains(err.Error(), "too deep") {
		t.Errorf("deep recursion: %v", err)
	}
	if got := s.val(`down 1000`); got != "0i32" {
		t.Errorf("down 1000 = %s", got)
	}

	opts := s.in.Options()
	opts.MaxMemory = 1 << 20
	s.in.SetOptions(opts)
	for _, src := range []string{`iota 10000000`, `replicate 1000000 0f64`, `map (+ 1) (iota 1000000)`} {
		_, _, err := s.run(src)
		if !errors.Is(err, ErrMemory) || !strings.Contains(err.Error(), "the limit is 1 MiB (--max-memory)") {
			t.Errorf("%s under a 1 MiB limit: %v", src, err)
		}
	}
	// the limit counts bytes: a u8 array takes one byte per element
	if got := s.val(`length (replicate 200000 1u8)`); got != "200000i64" {
		t.Errorf("200000 u8 under a 1 MiB limit: %s", got)
	}
	if got := s.val(`length (copy (replicate 300000 true))`); got != "300000i64" {
		t.Errorf("300000 bools under a 1 MiB limit: %s", got)
	}
	opts.MaxMemory = 0
	s.in.SetOptions(opts)
	// sizes whose byte count overflows are refused, not a panic
	for _, src := range []string{`length (replicate 4611686018427387904 (replicate 4 0u8))`, `length (replicate 4611686018427387904 0i64)`} {
		if _, _, err := s.run(src); err == nil || !strings.Contains(err.Error(), "too large") {
			t.Errorf("%s: %v", src, err)
		}
	}

	// Cancellation stops a long loop.
	e, err := syntax.ParseExpr(s.fset, "<t>", []byte(`loop x = 0 for i < 2000000000 do x + 1`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, _, err = s.in.EvalExpr(ctx, e)
	if !errors.Is(err, ErrInterrupted) {
		t.Errorf("cancelled loop: %v", err)
	}
	e, _ = syntax.ParseExpr(s.fset, "<t>", []byte(`reduce (+) 0 (map (\i -> loop x = i for j < 1000 do x + j) (iota 10000000))`))
	ctx2, cancel2 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel2()
	if _, _, err = s.in.EvalExpr(ctx2, e); !errors.Is(err, ErrInterrupted) {
		t.Errorf("cancelled map: %v", err)
	}
	// one element's loop in a flat kernel
	e, _ = syntax.ParseExpr(s.fset, "<t>", []byte(`map (\i -> loop x = i for j < 2000000000 do x + j) [1i64, 2]`))
	ctx3, cancel3 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel3()
	if _, _, err = s.in.EvalExpr(ctx3, e); !errors.Is(err, ErrInterrupted) {
		t.Errorf("cancelled loop in a map: %v", err)
	}
}

func TestHooks(t *testing.T) {
	s := newSession(t, false)
	var traced []string
	var stops int
	opts := s.in.Options()
	opts.Trace = func(pos syntax.Pos, _ string, v Value) {
		traced = append(traced, s.fset.Position(pos).String()+" "+valueString(v))
	}
	opts.Break = func(b BreakInfo) {
		stops++
		if len(b.Locals) == 0 {
			t.Errorf("break without locals")
		}
	}
	s.in.SetOptions(opts)
	s.val(`let x = 41 in #[trace] (x + 1)`)
	s.val(`trace (1, 2)`)
	s.val(`let y = 2 in #[break] (y * 2)`)
	if len(traced) != 2 || !strings.HasSuffix(traced[0], "42i32") || !strings.HasSuffix(traced[1], "(1i32, 2i32)") {
		t.Errorf("traces: %q", traced)
	}
	if !strings.HasPrefix(traced[0], "<test>:1:") {
		t.Errorf("trace position: %q", traced[0])
	}
	if stops != 1 {
		t.Errorf("%d breaks", stops)
	}
}

// The limit bounds what is held live, not one allocation: rows of 8 MiB
// each, kept by the map, pass a 64 MiB limit once there are enough of
// them, and the error names the map and the sizes. The same work that
// drops each row as soon as it is summed allocates ten times the limit
// and passes. The session stays usable after the error.
func TestMemoryLimitLive(t *testing.T) {
	s := newSession(t, false)
	s.run(`def keep = 41`)
	opts := s.in.Options()
	opts.MaxMemory = 64 << 20
	s.in.SetOptions(opts)

	_, _, err := s.run(`length (map (\i -> map (+i) (iota 1000000)) (iota 20))`)
	var re *RuntimeError
	if !errors.As(err, &re) || !errors.Is(err, ErrMemory) {
		t.Fatalf("20 rows of 8 MiB held under a 64 MiB limit: %v", err)
	}
	msg := re.Format(s.fset)
	for _, want := range []string{"Error at ", "map called at <test>:1:20", "out of memory", "the limit is 64 MiB (--max-memory)", "MiB in all"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	// each row is dropped once summed: 160 MiB made, little held
	if got := s.val(`reduce (+) 0 (map (\i -> reduce (+) 0 (map (+i) (iota 1000000))) (iota 20))`); got != "10000180000000i64" {
		t.Errorf("rows summed one at a time = %s", got)
	}
	// many small arrays held at once (8 MiB of data, but a few hundred
	// bytes each as values) are caught by the periodic check
	if _, _, err := s.run(`length (map (\i -> [i]) (iota 1000000))`); !errors.Is(err, ErrMemory) || !strings.Contains(err.Error(), "the values held need") {
		t.Errorf("1,000,000 rows of one element under a 64 MiB limit: %v", err)
	}
	if got := s.val(`keep + 1`); got != "42i32" {
		t.Errorf("after the memory errors, keep + 1 = %s", got)
	}
	if got := s.val(`length (map (\i -> map (+i) (iota 1000000)) (iota 4))`); got != "4i64" {
		t.Errorf("4 rows of 8 MiB under a 64 MiB limit: %s", got)
	}
}

// A definition holds its value against the limit: a second copy of a
// 38 MiB array does not fit a 64 MiB limit, the first alone does.
func TestMemoryLimitCountsDefinitions(t *testing.T) {
	s := newSession(t, false)
	opts := s.in.Options()
	opts.MaxMemory = 64 << 20
	s.in.SetOptions(opts)
	if _, _, err := s.run(`def big = iota 5000000`); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.run(`length (map (*2) big)`); !errors.Is(err, ErrMemory) {
		t.Errorf("a second 38 MiB array beside a defined one under 64 MiB: %v", err)
	}
	if got := s.val(`big[4999999]`); got != "4999999i64" {
		t.Errorf("big[4999999] = %s", got)
	}
}

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 bytes", 1023: "1023 bytes", 1024: "1 KiB", 1536: "1.5 KiB",
		500 << 20: "500 MiB", 800_000_000: "763 MiB", 40_000_000_000: "37 GiB", 10<<30 - 1: "10 GiB", 9_900_000_000: "9.2 GiB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// What the process holds besides an evaluation's values (other sessions,
// plans, caches) does not count against the limit: after 96 MiB more is
// held elsewhere, an evaluation that needs a few MiB under a 64 MiB limit
// runs; a definition's value still counts.
var heldElsewhere [][]byte

func TestMemoryLimitOthersHeld(t *testing.T) {
	s := newSession(t, false)
	opts := s.in.Options()
	opts.MaxMemory = 64 << 20
	s.in.SetOptions(opts)
	if got := s.val(`length (iota 1000)`); got != "1000i64" {
		t.Fatalf("length (iota 1000) = %s", got)
	}
	for range 96 {
		heldElsewhere = append(heldElsewhere, make([]byte, 1<<20))
	}
	defer func() { heldElsewhere = nil }()
	if got := s.val(`i64.sum (map (+1) (iota 500000))`); got != "125000250000i64" {
		t.Fatalf("a small evaluation with 96 MiB held elsewhere: %s", got)
	}
	if _, _, err := s.run(`def big = iota 5000000`); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.run(`length (map (*2) big)`); !errors.Is(err, ErrMemory) {
		t.Errorf("a second 38 MiB array beside a defined one under 64 MiB: %v", err)
	}
}

// TestNodeCachesBounded: the caches keyed by syntax nodes start again
// when full, so that a long session's entries do not pile up in them,
// and evaluation is unchanged.
func TestNodeCachesBounded(t *testing.T) {
	old := nodeCacheLimit
	nodeCacheLimit = 8
	t.Cleanup(func() { nodeCacheLimit = old })
	s := newSession(t, false)
	for i := range 40 {
		src := fmt.Sprintf("%d + %d * 2", i, i+1)
		if got, want := s.val(src), fmt.Sprintf("%di32", i+(i+1)*2); got != want {
			t.Fatalf("%s = %s, want %s", src, got, want)
		}
	}
	if n := len(s.in.lits); n > nodeCacheLimit {
		t.Errorf("the literal cache holds %d nodes, more than its limit %d", n, nodeCacheLimit)
	}
	if n := len(s.in.opCache); n > nodeCacheLimit {
		t.Errorf("the operator cache holds %d nodes, more than its limit %d", n, nodeCacheLimit)
	}
	for i := range 40 {
		src := fmt.Sprintf("map (\\x -> x + %d) [1i64, 2]", i)
		if got, want := s.val(src), fmt.Sprintf("[%di64, %di64]", i+1, i+2); got != want {
			t.Fatalf("%s = %s, want %s", src, got, want)
		}
	}
	if n := len(s.in.flatNodes); n == 0 || n > nodeCacheLimit {
		t.Errorf("the flat kernels' cache holds %d nodes, want 1 to %d", n, nodeCacheLimit)
	}
}
