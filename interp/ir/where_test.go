package ir

import (
	"context"
	"errors"
	"strings"
	"testing"

	"fut/eval/value"
)

// The source positions of statements that can fail, and approximate
// assertions, survive the text form and the passes.
func TestWhereRoundTrip(t *testing.T) {
	src := `prog (xs: [3i64]i32, i: i64, k: i32) : (i32) {
  let (ok: bool) = i < 3i64
  let (c: bool) = assert ok "Index out of bounds" "a.fut:4:1" approx
  let (e: i32) = xs[i] @ "a.fut:2:7"
  let (q: i32) = e / k @ "a.fut:3:9"
  return (q)
}`
	p, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(p.String()); got != src {
		t.Fatalf("printed back as\n%s", got)
	}
	q, _, err := Run(p, "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = EvalAll(context.Background(), q, []value.Value{mustArr(t, "[1, 2, 3]"), value.I64Val(1), value.MkInt(value.I32, 0)})
	var re *RuntimeError
	if !errors.As(err, &re) || re.Where != "a.fut:3:9" || re.Msg != "division by zero" {
		t.Fatalf("division by zero after the passes: %v", err)
	}
	_, err = EvalAll(context.Background(), q, []value.Value{mustArr(t, "[1, 2, 3]"), value.I64Val(3), value.MkInt(value.I32, 1)})
	var ae *AssertError
	if !errors.As(err, &ae) || !ae.Approx {
		t.Fatalf("the approximate check after the passes: %v", err)
	}
	if w, _ := ae.Located(); w != "" {
		t.Fatalf("an approximate check names a position: %q", w)
	}
}

func mustArr(t *testing.T, s string) value.Value {
	t.Helper()
	vs, err := value.Read([]byte(s))
	if err != nil || len(vs) != 1 {
		t.Fatal(err)
	}
	return vs[0]
}
