package testrun

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"fut/eval/value"
	"fut/interp/session"
)

// TestRecordCost: under RecordCost each case that the reference path runs
// carries the four figures that the session reports for the same call
// (a failing case too, so that two builds compare on it); a constant
// entry point, an expected error and a run without RecordCost carry none.
func TestRecordCost(t *testing.T) {
	const src = `
-- ==
-- entry: sum
-- input { 4i64 } output { 6i64 }
-- input { 10i64 } output { 0i64 }
-- input { -1i64 } error: .
entry sum (n: i64) = if n < 0 then assert false 0 else reduce (+) 0 (map (*2) (iota n)) / 2

-- ==
-- entry: konst
-- input { } output { 3i64 }
entry konst : i64 = 3
`
	file := filepath.Join(t.TempDir(), "rec.fut")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := session.NewSession(session.Options{Cost: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.LoadFile(context.Background(), file); err != nil {
		t.Fatal(err)
	}
	want := func(n int64) value.Value { return value.I64Val(n) }
	r := RunFile(context.Background(), file, Options{RecordCost: true})
	if len(r.Cases) != 4 {
		t.Fatalf("%d cases, want 4: %+v", len(r.Cases), r)
	}
	for i, n := range []int64{4, 10} {
		c := r.Cases[i]
		if c.Cost == nil {
			t.Fatalf("case %d (%s %s): no cost recorded", i, c.Status, c.Msg)
		}
		_, cost, err := s.CallEntry(context.Background(), "sum", []value.Value{want(n)})
		if err != nil {
			t.Fatal(err)
		}
		if *c.Cost != cost || cost.Work == 0 || cost.SpacePar == 0 {
			t.Errorf("case %d: recorded %v, the session reports %v", i, *c.Cost, cost)
		}
	}
	if r.Cases[0].Status != Passed || r.Cases[1].Status != Failed {
		t.Errorf("statuses %s %s, want passed failed", r.Cases[0].Status, r.Cases[1].Status)
	}
	if r.Cases[0].Cost.Work >= r.Cases[1].Cost.Work {
		t.Errorf("n=4 costs %v, n=10 %v: work should grow", *r.Cases[0].Cost, *r.Cases[1].Cost)
	}
	for _, c := range r.Cases[2:] {
		if c.Status != Passed || c.Cost != nil {
			t.Errorf("%s case %s: %s, cost %v; want passed without a cost", c.Entry, c.Name, c.Status, c.Cost)
		}
	}
	r = RunFile(context.Background(), file, Options{})
	for _, c := range r.Cases {
		if c.Cost != nil {
			t.Errorf("%s case %s: a cost without RecordCost", c.Entry, c.Name)
		}
	}
}
