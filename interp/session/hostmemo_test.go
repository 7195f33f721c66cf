package session

import (
	"context"
	"testing"

	"fut/eval/value"
)

// TestHostMemo: a plan's scalar host statements (sizes, conversions,
// checks of its scalar arguments) are taken from the plan's memo only
// where they read the same values: calls of one prepared entry on
// other scalars give the reference path's results, and a size check
// that passed for one argument still fails for another.
func TestHostMemo(t *testing.T) {
	if _, err := OffloadDevice(); err != nil {
		t.Skipf("no OpenCL device (%v): install pocl-opencl-icd", err)
	}
	src := `entry grid (h: i64) (w: i64) : [h][w]f32 =
  map (\y -> map (\x -> f32.i64 x / f32.i64 (w - 1) + f32.i64 y / f32.i64 (h - 1)) (iota w)) (iota h)
`
	s, _ := fileSession(t, "g.fut", src, Options{})
	ctx := context.Background()
	for _, hw := range [][2]int64{{3, 4}, {3, 4}, {5, 2}, {3, 4}, {2, 7}} {
		args := []value.Value{value.I64Val(hw[0]), value.I64Val(hw[1])}
		want, _, err := s.CallEntry(ctx, "grid", args)
		if err != nil {
			t.Fatal(s.FormatError(err))
		}
		off, why, err := s.CallEntryOffload(ctx, BackendOpenCL, "grid", args)
		if err != nil || off == nil {
			t.Fatalf("%v: not offloaded: %s %v", hw, why, err)
		}
		if !value.Equal(off.Values[0], want[0], value.DefaultTolerance) {
			t.Errorf("%v: %s, want %s", hw, value.String(off.Values[0]), value.String(want[0]))
		}
	}
	// one plan, run on other scalars in turn
	call, why := s.PrepareOffload(BackendOpenCL, "grid", []value.Value{value.I64Val(3), value.I64Val(4)})
	if call == nil {
		t.Fatal(why)
	}
	for _, hw := range [][2]int64{{3, 4}, {3, 4}, {5, 2}, {3, 4}, {2, 7}, {3, -1}} {
		call.args = []value.Value{value.I64Val(hw[0]), value.I64Val(hw[1])}
		res, _, why, err := call.Run(ctx, nil, false)
		if hw[1] < 0 {
			if err == nil && res != nil {
				t.Errorf("%v: no failure of the size check (%q)", hw, why)
			}
			continue
		}
		if res == nil || err != nil {
			t.Fatalf("%v: %s %v", hw, why, err)
		}
		got, err := call.Values(res)
		if err != nil {
			t.Fatal(err)
		}
		want, _, err := s.CallEntry(ctx, "grid", call.args)
		if err != nil {
			t.Fatal(s.FormatError(err))
		}
		if !value.Equal(got[0], want[0], value.DefaultTolerance) {
			t.Errorf("one plan, %v: %s, want %s", hw, value.String(got[0]), value.String(want[0]))
		}
	}
}
