package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fut/eval"
	"fut/eval/value"
	"fut/interp/syntax"
)

// The fuzz targets of the whole front end and evaluator. A failure is a
// panic, a hang, an internal error or an error without a position; a clean
// error with a position is the right answer to bad input. In CI they run
// on their seed corpora (plain `go test`); `go test -fuzz=FuzzX ./interp`
// explores.

var fuzzSession *Session

func fuzzSess(t testing.TB) *Session {
	if fuzzSession == nil {
		s, err := NewSession(Options{Cost: true, MaxMemory: 64 << 20})
		if err != nil {
			t.Fatal(err)
		}
		fuzzSession = s
	}
	return fuzzSession
}

// checkUserError fails the test unless err is a user's error with a
// position, or a clean limit (timeout, memory).
func checkUserError(t *testing.T, s *Session, src string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var ie *eval.InternalError
	if errors.As(err, &ie) {
		t.Fatalf("internal error on %q: %v\n%s", src, ie, ie.Trace)
	}
	var el syntax.ErrorList
	if errors.As(err, &el) {
		for _, e := range el {
			if !e.Span.Start.IsValid() {
				t.Fatalf("error without a position on %q: %s", src, e.Msg)
			}
		}
		return
	}
	var re *eval.RuntimeError
	if errors.As(err, &re) {
		if !re.Pos.IsValid() && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(re.Err, eval.ErrInterrupted) {
			t.Fatalf("run-time error without a position on %q: %s", src, re.Msg)
		}
		return
	}
	var se *syntax.Error
	if errors.As(err, &se) {
		if !se.Span.Start.IsValid() {
			t.Fatalf("error without a position on %q: %s", src, se.Msg)
		}
		return
	}
	t.Fatalf("unclassified error on %q: %T %v", src, err, err)
}

// FuzzCheck parses and type-checks arbitrary text as a REPL entry.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		"1 + 2", "def f x = x + 1", "let x = 1 in x", "map (+1) [1,2,3]",
		"def f [n] (xs: [n]i32): [n]i32 = xs", "type t = {a: i32}",
		"module M = { def x = 1 }", "\\x -> x", "(1, 2.0, true)",
		"loop x = 0 for i < 10 do x + i", "match 1 case 1 -> 2 case _ -> 3",
		"let a = [1,2] with [0] = 3 in a", "#foo 1 : #foo i32 | #bar",
	} {
		f.Add(s)
	}
	// The small programs of the bad-program corpus are seeds too.
	bad, _ := filepath.Glob("testdata/bad/*.fut")
	for _, file := range bad {
		if data, err := os.ReadFile(file); err == nil && len(data) < 2000 {
			f.Add(string(data))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		s := fuzzSess(t)
		decls, e, err := syntax.ParseEntry(s.Fset, "<fuzz>", []byte(src))
		if err != nil {
			checkUserError(t, s, src, err)
			return
		}
		if e != nil {
			_, err = s.checker.CheckExpr(e)
		} else {
			err = s.checker.CheckDecls(decls)
		}
		checkUserError(t, s, src, err)
	})
}

// FuzzReadData reads arbitrary bytes as Futhark values, text or binary.
func FuzzReadData(f *testing.F) {
	for _, s := range []string{
		"1i32", "[1, 2, 3]", "[[1.0f32], [2.0f32]]", "empty([0][3]i64)", "true (1u8, 2i16)",
		"f32.nan -f64.inf", "b\x02\x01 i32\x03\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x02\x00\x00\x00\x03\x00\x00\x00",
		"[1, [2]]", "[", "0x1p3f64", "'a'",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		vs, err := value.Read(data)
		if err != nil {
			var de *value.DataError
			if !errors.As(err, &de) {
				t.Fatalf("unexpected error type %T: %v", err, err)
			}
			return
		}
		// What was read prints and reads back as the same values.
		var b strings.Builder
		for _, v := range vs {
			value.Write(&b, v)
			b.WriteByte(' ')
		}
		again, err := value.Read([]byte(b.String()))
		if err != nil {
			t.Fatalf("printed values %q do not read back: %v", b.String(), err)
		}
		if len(again) != len(vs) {
			t.Fatalf("printed %d values, read back %d", len(vs), len(again))
		}
		for i := range vs {
			if !value.Equal(vs[i], again[i], 0) {
				t.Fatalf("value %d changed on a round trip: %q", i, b.String())
			}
		}
	})
}

// FuzzEval evaluates generated well-typed programs: the fuzzer's bytes
// steer a generator that only builds programs the checker must accept, so
// a type error is a bug too.
func FuzzEval(f *testing.F) {
	for i := 0; i < 16; i++ {
		f.Add([]byte(fmt.Sprintf("seed-%d-%s", i, strings.Repeat("\x07\x13\x2a", i))))
	}
	// One seed per top-level construct of an i32 expression, so that the
	// seed corpus alone reaches every case of the generator.
	for c := 0; c < 24; c++ {
		f.Add([]byte{byte(c), 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5})
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &gen{data: data}
		src := g.expr(tI32, 4)
		s := fuzzSess(t)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		r, err := s.EvalExpr(ctx, src)
		if err != nil {
			var el syntax.ErrorList
			if errors.As(err, &el) {
				t.Fatalf("generated program does not check: %s\n%s", src, s.FormatError(err))
			}
			checkUserError(t, s, src, err)
			return
		}
		if r.Type != "i32" {
			t.Fatalf("generated an i32 expression, got type %s: %s", r.Type, src)
		}
		c := r.Cost
		if c.Depth > c.Work || c.SpaceSeq > c.SpacePar || c.Work < 0 || c.Depth < 0 {
			t.Fatalf("cost invariants broken (W=%d D=%d S1=%d S∞=%d) for %s", c.Work, c.Depth, c.SpaceSeq, c.SpacePar, src)
		}
	})
}
