package eval

import (
	"context"
	"errors"
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
		if err == nil || !strings.Contains(err.Error(), "memory limit") {
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
