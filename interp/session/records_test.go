package session

import (
	"context"
	"testing"

	"fut/eval/value"
)

// TestRecordArrayResults: entry points and expressions whose results
// are arrays of tuples and records (nested, of rank two, beside another
// result) run as kernels and give the reference path's values, rebuilt
// from the plan's flat results (one array a field).
func TestRecordArrayResults(t *testing.T) {
	if _, err := OffloadDevice(); err != nil {
		t.Skipf("no OpenCL device (%v): install pocl-opencl-icd", err)
	}
	src := `entry pairs (xs: []i32) : [](i32, f32) = map (\x -> (x, f32.i32 x * 2)) xs
entry recs (xs: []i32) : []{a: f32, b: (i32, bool)} = map (\x -> {a = f32.i32 x / 2, b = (x * 3, x > 1)}) xs
entry grid (n: i64) : [][](i64, f32) = map (\i -> map (\j -> (i * j, f32.i64 (i + j))) (iota n)) (iota n)
entry both (xs: []i32) : ([](i32, i32), i32) = (map (\x -> (x, -x)) xs, reduce (+) 0 xs)
`
	s, _ := fileSession(t, "p.fut", src, Options{})
	ctx := context.Background()
	xs, err := value.Read([]byte("[0, 1, 2, 5]"))
	if err != nil {
		t.Fatal(err)
	}
	n, _ := value.Read([]byte("4i64"))
	for _, c := range []struct {
		entry string
		args  []value.Value
	}{{"pairs", xs}, {"recs", xs}, {"grid", n}, {"both", xs}} {
		want, _, err := s.CallEntry(ctx, c.entry, c.args)
		if err != nil {
			t.Fatal(s.FormatError(err))
		}
		call, why := s.PrepareOffload(BackendOpenCL, c.entry, c.args)
		if call == nil {
			t.Fatalf("%s: not offloaded: %s", c.entry, why)
		}
		res, _, why, err := call.Run(ctx, nil, false)
		if res == nil {
			t.Fatalf("%s: %s %v", c.entry, why, err)
		}
		got, err := call.Values(res)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d results, want %d", c.entry, len(got), len(want))
		}
		for i := range want {
			if !value.Equal(got[i], want[i], 0) {
				t.Errorf("%s: result %d is %s, want %s", c.entry, i, value.String(got[i]), value.String(want[i]))
			}
		}
	}
	// an expression of the REPL's
	v, offloaded, why, err := s.EvalOffload(ctx, `map (\x -> {x, y = (x + 1, [x, x * 2])}) [1i32, 2, 3]`)
	if err != nil || !offloaded {
		t.Fatalf("expression not offloaded: %s %v", why, err)
	}
	if got, want := value.String(v), `[{x = 1i32, y = (2i32, [1i32, 2i32])}, {x = 2i32, y = (3i32, [2i32, 4i32])}, {x = 3i32, y = (4i32, [3i32, 6i32])}]`; got != want {
		t.Errorf("expression gives %s, want %s", got, want)
	}
}
