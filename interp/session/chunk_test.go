package session

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"fut/eval/value"
)

// TestChunkedRuns: with a device-memory budget smaller than their data,
// calls of every chunked kind (map, reduce, scan, filter, hist,
// reduce_by_index, scatter, with the element's index, with arguments that
// are not streamed, with work after the SOAC) run on the device in chunks
// and give the reference path's results; a call that cannot run in chunks
// says so and stays on the reference path.
func TestChunkedRuns(t *testing.T) {
	d, err := OffloadDevice()
	if err != nil {
		t.Skipf("no OpenCL device (%v): install pocl-opencl-icd", err)
	}
	d.SetBudget(256 << 10)
	defer d.SetBudget(0)
	src := `entry dot [n] (xs: [n]f32) (ys: [n]f32) = reduce (+) 0 (map2 (*) xs ys)
entry scale [n] (xs: [n]f32) (k: f32) = map (*k) xs
entry idx [n] (xs: [n]f32) = map2 (\i x -> x + f32.i64 (i % 7)) (iota n) xs
entry sc [n] (is: [n]i32) = scan (+) 0 is
entry sc2 [n] (is: [n]i32) = unzip (scan (\(a, b) (c, d) -> (a + c, i32.max b d)) (0, i32.lowest) (zip is is))
entry fi [n] (xs: [n]f32) = filter (> 0.25) xs
entry fidx [n] (xs: [n]f32) = filter (\(i, _) -> i % 3 == 0) (zip (iota n) xs) |> unzip
entry hi [n] (is: [n]i32) (xs: [n]f32) = hist (+) 0 256 (map (\i -> i64.i32 (i % 256)) is) xs
entry rbi [n] (dest: [1000]f32) (is: [n]i32) (xs: [n]f32) = reduce_by_index (copy dest) f32.max (-f32.inf) (map (\i -> i64.i32 (i % 1000)) is) xs
entry sca [n] (d: *[1000]i32) (is: [n]i32) = scatter d (map (\i -> i64.i32 (i % 1000)) is) (map (\i -> i % 1000) is)
entry mean [n] (xs: [n]f32) = reduce (+) 0 xs / f32.i64 n
entry minmax [n] (xs: [n]f32) = (reduce f32.min f32.inf xs, reduce f32.max (-f32.inf) xs)
entry two [n] (xs: [n]f32) = let ys = map (+1) xs in (reduce (+) 0 ys, scan (+) 0 ys)
entry scix [n] (is: [n]i32) = let s = scan (+) 0 is in (s[n/2], s[n-1], s[0], s[n/2])
entry mapix [n] (xs: [n]f32) (k: i64) = let ys = map (*2) xs in ys[k] + ys[n-1-k]
entry mixed [n] (is: [n]i32) = let (s, m) = unzip (scan (\(a, b) (c, d) -> (a + c, i32.max b d)) (0, i32.lowest) (zip is is)) in (s[n-1], m)
entry scoob [n] (is: [n]i32) = let s = scan (+) 0 is in s[n]
entry hib [n] (is: [n]i32) (xs: [n]f32) = hist (+) 0 100000 (map (\i -> i64.i32 (i % 100000)) is) xs
entry scb [n] (d: *[200000]i32) (is: [n]i32) = scatter d (map (\i -> i64.i32 (i % 200000)) is) (map (% 200000) is)
entry rbib [n] (is: [n]i32) (xs: [n]f32) = reduce_by_index (replicate 150000 0) f32.max 0 (map (\i -> i64.i32 (i % 150001)) is) xs
entry allpairs [n] (xs: [n]f32) = map (\x -> reduce (+) 0 (map (\y -> x * y) xs[n/2:n/2+10])) xs
entry rs [n] (xs: [n]f32) = reduce_stream (+) (\_ (c: []f32) -> f32.sum (map (\x -> x * x) c)) xs
entry ms [n] (xs: [n]f32) = map_stream (\k (c: [k]f32) -> map (+ 1) c) xs
entry rsh [n] (is: [n]i32) = reduce_stream (map2 (+)) (\_ (c: []i32) -> hist (+) 0 16 (map (\i -> i64.i32 (i % 16)) c) (map (const 1) c)) is
`
	s, _ := fileSession(t, "p.fut", src, Options{})
	ctx := context.Background()
	const n = 100_003
	rng := rand.New(rand.NewPCG(1, 2))
	xs, ys, is := randomVectors(rng, n)
	dest := make([]float32, 1000)
	idest := make([]int32, 1000)
	for i := range dest {
		dest[i] = float32(i)
		idest[i] = -1
	}
	// Then again with inputs and results in pinned host memory (as fut
	// run reads large inputs), copied directly to and from the device.
	for _, pinned := range []bool{false, true} {
		args := copyArrays
		if pinned {
			d.AllowPinnedHost(1)
			defer d.AllowPinnedHost(0)
			args = func(vs []value.Value) []value.Value {
				out := copyArrays(vs)
				for i, v := range out {
					if a, ok := v.(*value.Array); ok && a.Kind == value.KPrim {
						p := d.NewHostArray(a.T, a.Shape)
						value.DataCopy(p.Data, 0, a.Data)
						out[i] = p
					}
				}
				return out
			}
		}
		for _, c := range []struct {
			entry string
			args  []value.Value
			whole string // the call does not run in chunks, for this reason
		}{
			{"dot", []value.Value{f32s(xs), f32s(ys)}, ""},
			{"scale", []value.Value{f32s(xs), value.MkFloat(value.F32, 2.5)}, ""},
			{"idx", []value.Value{f32s(xs)}, ""},
			{"sc", []value.Value{i32s(is)}, ""},
			{"sc2", []value.Value{i32s(is)}, ""},
			{"fi", []value.Value{f32s(xs)}, ""},
			{"fidx", []value.Value{f32s(xs)}, ""},
			{"hi", []value.Value{i32s(is), f32s(xs)}, ""},
			{"rbi", []value.Value{f32s(dest), i32s(is), f32s(xs)}, ""},
			{"sca", []value.Value{i32s(idest), i32s(is)}, ""},
			{"mean", []value.Value{f32s(xs)}, ""},
			{"minmax", []value.Value{f32s(xs)}, ""},
			{"two", []value.Value{f32s(xs)}, "more than one SOAC"},
			// results only indexed: their elements are read, not the arrays
			{"scix", []value.Value{i32s(is)}, ""},
			{"mapix", []value.Value{f32s(xs), value.I64Val(12345)}, ""},
			{"mixed", []value.Value{i32s(is)}, ""},
			{"allpairs", []value.Value{f32s(xs)}, "read whole inside the SOAC"},
			// destinations larger than the budget: in parts
			{"hib", []value.Value{i32s(is), f32s(xs)}, ""},
			{"scb", []value.Value{i32s(make([]int32, 200000)), i32s(is)}, ""},
			{"rbib", []value.Value{i32s(is), f32s(xs)}, ""},
			// streams: the chunks are the stream's own
			{"rs", []value.Value{f32s(xs)}, ""},
			{"ms", []value.Value{f32s(xs)}, ""},
			{"rsh", []value.Value{i32s(is)}, ""},
		} {
			want, _, err := s.CallEntry(ctx, c.entry, copyArrays(c.args))
			if err != nil {
				t.Fatalf("%s: %s", c.entry, s.FormatError(err))
			}
			off, why, err := s.CallEntryOffload(ctx, BackendOpenCL, c.entry, args(c.args))
			if err != nil {
				t.Fatalf("%s: %s", c.entry, s.FormatError(err))
			}
			if c.whole != "" {
				if off != nil || !strings.Contains(why, "does not run in chunks") || !strings.Contains(why, c.whole) {
					t.Errorf("%s: offloaded %v, why %q; want the reference path because %s", c.entry, off != nil, why, c.whole)
				}
				continue
			}
			if off == nil {
				t.Errorf("%s: not offloaded: %s", c.entry, why)
				continue
			}
			if !strings.Contains(off.Chunks, "chunks of") {
				t.Errorf("%s: ran whole (%q), not in chunks", c.entry, off.Chunks)
			}
			if parts := strings.HasSuffix(c.entry, "b") && c.entry != "rsh"; parts != strings.Contains(off.Chunks, "the destination in") {
				t.Errorf("%s: %q; want the destination in parts: %v", c.entry, off.Chunks, parts)
			}
			if indexed := strings.HasSuffix(c.entry, "ix") || c.entry == "mixed"; indexed != strings.Contains(off.Chunks, "read of results only indexed") {
				t.Errorf("%s: %q; want the elements of results only indexed read (not the whole arrays): %v", c.entry, off.Chunks, indexed)
			}
			for j := range want {
				if !value.Equal(off.Values[j], want[j], value.DefaultTolerance) {
					t.Errorf("%s (pinned %v): result %d differs from the reference path's", c.entry, pinned, j)
				}
			}
		}
	}
	if d.PinnedBytes() == 0 {
		t.Log("the device gave no pinned memory")
	}
	// an index out of bounds of a result only indexed: the reference
	// path's error, found when the results come back whole
	_, _, rerr := s.CallEntry(ctx, "scoob", []value.Value{i32s(is)})
	_, _, oerr := s.CallEntryOffload(ctx, BackendOpenCL, "scoob", []value.Value{i32s(is)})
	if rerr == nil || oerr == nil || s.FormatError(rerr) != s.FormatError(oerr) {
		t.Errorf("an index out of bounds: the device says %v, the reference path %v", oerr, rerr)
	}
}
