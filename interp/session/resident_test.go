package session

import (
	"context"
	"testing"

	"fut/eval/value"
)

// TestResidentArguments: a call run several times on arguments kept on
// the device gives the same results each time, also when it updates an
// argument in place (that argument is then uploaded each run, not kept),
// and when its results, a reduction's scalar among them, are left on
// the device until Values.
func TestResidentArguments(t *testing.T) {
	if _, err := OffloadDevice(); err != nil {
		t.Skipf("no OpenCL device (%v): install pocl-opencl-icd", err)
	}
	src := `entry upd [n] (xs: *[n]i32) (is: [n]i64) : [n]i32 = let ys = map (+1) xs in scatter xs is ys
entry dbl [n] (xs: [n]i32) : [n]i32 = map (*2) xs
entry sum [n] (xs: [n]i32) : i32 = reduce (+) 0 xs
entry both [n] (xs: [n]i32) : (i32, [n]i32) = (reduce (+) 0 (map (*3) xs), map (*2) xs)
`
	s, _ := fileSession(t, "p.fut", src, Options{})
	ctx := context.Background()
	vs, err := value.Read([]byte("[0, 10, 20, 30, 40] [1i64, 2i64, 3i64, 4i64, 0i64]"))
	if err != nil {
		t.Fatal(err)
	}
	xs, is := vs[0].(*value.Array), vs[1]
	for _, c := range []struct {
		entry    string
		args     []value.Value
		resident bool
	}{
		{"upd", []value.Value{xs, is}, false},
		{"dbl", []value.Value{xs}, true},
		{"sum", []value.Value{xs}, true},
		{"both", []value.Value{xs}, true},
	} {
		want, _, err := s.CallEntry(ctx, c.entry, []value.Value{xs.Copy(), is}[:len(c.args)])
		if err != nil {
			t.Fatal(s.FormatError(err))
		}
		call, why := s.PrepareOffload(BackendOpenCL, c.entry, c.args)
		if call == nil {
			t.Fatalf("%s: not offloaded: %s", c.entry, why)
		}
		resident, err := call.Upload()
		if err != nil {
			t.Fatal(err)
		}
		if got := resident[0] != nil; got != c.resident {
			t.Errorf("%s: the first argument kept on the device: %v, want %v", c.entry, got, c.resident)
		}
		for run := 0; run < 3; run++ {
			res, _, why, err := call.Run(ctx, resident, true)
			if res == nil {
				t.Fatalf("%s: run %d: %s %v", c.entry, run, why, err)
			}
			got, err := call.Values(res)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%s: run %d gives %d results, want %d", c.entry, run, len(got), len(want))
			}
			for i := range want {
				if !value.Equal(got[i], want[i], 0) {
					t.Errorf("%s: run %d gives %s, want %s", c.entry, run, value.String(got[i]), value.String(want[i]))
				}
			}
		}
		for _, a := range resident {
			if a != nil {
				a.Release()
			}
		}
	}
}
