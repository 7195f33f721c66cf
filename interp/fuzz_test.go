package interp

import (
	"context"
	"errors"
	"fmt"
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

// gen builds well-typed Futhark expressions from a byte string.
type gen struct {
	data []byte
	pos  int
	vars int
}

type gtype int

const (
	tI32 gtype = iota
	tF64
	tBool
	tArrI32
)

func (g *gen) pick(n int) int {
	if g.pos >= len(g.data) {
		return 0
	}
	b := g.data[g.pos]
	g.pos++
	return int(b) % n
}

func (g *gen) fresh() string {
	g.vars++
	return fmt.Sprintf("v%d", g.vars)
}

func (g *gen) expr(t gtype, depth int) string {
	if depth <= 0 {
		return g.leaf(t)
	}
	d := depth - 1
	switch t {
	case tI32:
		switch g.pick(9) {
		case 0:
			return g.leaf(t)
		case 1:
			ops := []string{"+", "-", "*", "/", "%", "//", "%%", "&", "|", "^", "<<", ">>"}
			return fmt.Sprintf("(%s %s %s)", g.expr(tI32, d), ops[g.pick(len(ops))], g.expr(tI32, d))
		case 2:
			return fmt.Sprintf("(if %s then %s else %s)", g.expr(tBool, d), g.expr(tI32, d), g.expr(tI32, d))
		case 3:
			v := g.fresh()
			return fmt.Sprintf("(let %s = %s in %s + %s)", v, g.expr(tI32, d), v, g.expr(tI32, d))
		case 4:
			return fmt.Sprintf("(reduce (+) 0 %s)", g.expr(tArrI32, d))
		case 5:
			return fmt.Sprintf("(i32.f64 %s)", g.expr(tF64, d))
		case 6:
			return fmt.Sprintf("(length %s |> i32.i64)", g.expr(tArrI32, d))
		case 7:
			a := g.expr(tArrI32, d)
			return fmt.Sprintf("(%s)[%s]", a, g.expr(tI32, d))
		default:
			v, i := g.fresh(), g.fresh()
			return fmt.Sprintf("(loop %s = %s for %s < %d do %s + i32.i64 %s)", v, g.expr(tI32, d), i, g.pick(20), v, i)
		}
	case tF64:
		switch g.pick(4) {
		case 0:
			return g.leaf(t)
		case 1:
			ops := []string{"+", "-", "*", "/", "**"}
			return fmt.Sprintf("(%s %s %s)", g.expr(tF64, d), ops[g.pick(len(ops))], g.expr(tF64, d))
		case 2:
			fs := []string{"f64.sqrt", "f64.log", "f64.exp", "f64.sin", "f64.abs"}
			return fmt.Sprintf("(%s %s)", fs[g.pick(len(fs))], g.expr(tF64, d))
		default:
			return fmt.Sprintf("(f64.i32 %s)", g.expr(tI32, d))
		}
	case tBool:
		switch g.pick(4) {
		case 0:
			return g.leaf(t)
		case 1:
			ops := []string{"<", "<=", "==", "!=", ">", ">="}
			return fmt.Sprintf("(%s %s %s)", g.expr(tI32, d), ops[g.pick(len(ops))], g.expr(tI32, d))
		case 2:
			return fmt.Sprintf("(%s && %s)", g.expr(tBool, d), g.expr(tBool, d))
		default:
			return fmt.Sprintf("(any (> %s) %s)", g.expr(tI32, d), g.expr(tArrI32, d))
		}
	default: // tArrI32
		switch g.pick(7) {
		case 0:
			return g.leaf(t)
		case 1:
			v := g.fresh()
			return fmt.Sprintf("(map (\\%s -> %s + %s) %s)", v, v, g.expr(tI32, d), g.expr(tArrI32, d))
		case 2:
			return fmt.Sprintf("(scan (+) 0 %s)", g.expr(tArrI32, d))
		case 3:
			return fmt.Sprintf("(filter (> %s) %s)", g.expr(tI32, d), g.expr(tArrI32, d))
		case 4:
			return fmt.Sprintf("(%s ++ %s)", g.expr(tArrI32, d), g.expr(tArrI32, d))
		case 5:
			return fmt.Sprintf("(reverse %s)", g.expr(tArrI32, d))
		default:
			return fmt.Sprintf("(map i32.i64 (iota (i64.i32 (%s %% 50))))", g.expr(tI32, d))
		}
	}
}

func (g *gen) leaf(t gtype) string {
	switch t {
	case tI32:
		return fmt.Sprintf("(%di32)", g.pick(256)-128)
	case tF64:
		return fmt.Sprintf("(%d.5f64)", g.pick(100)-50)
	case tBool:
		return []string{"true", "false"}[g.pick(2)]
	default:
		n := g.pick(5)
		elems := make([]string, n)
		for i := range elems {
			elems[i] = fmt.Sprintf("%di32", g.pick(100)-50)
		}
		if n == 0 {
			return "([] : []i32)"
		}
		return "[" + strings.Join(elems, ", ") + "]"
	}
}
