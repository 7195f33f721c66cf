package session

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"fut/eval/value"
	"fut/gpu/flatten"
	"fut/gpu/runtime"
)

// TestSplitRuns: with --devices 2 (two logical devices of the one there
// is), calls of every kind the split handles (a map with the element's
// index, one over rows given by a scalar, an all-pairs map, matmul, a
// reduction, scans (of a tuple, of floats with the element's index, one
// beside a map, one of affine maps, whose composition is not
// commutative), a filter, a histogram made inside and one given, a
// scatter (whose duplicate indices write one value: which of several
// wins is unspecified), a reduce_stream) run split across the two and
// give the reference path's results; a call the split does not handle says why
// and runs on one device. Both ways of running the devices' parts: on
// polling workers and on a goroutine each (flatten.SplitSpin).
func TestSplitRuns(t *testing.T) {
	old := flatten.SplitSpin
	t.Cleanup(func() { flatten.SplitSpin = old })
	for _, spin := range []bool{true, false} {
		flatten.SplitSpin = spin
		t.Run(map[bool]string{true: "workers", false: "goroutines"}[spin], splitRuns)
	}
}

func splitRuns(t *testing.T) {
	src := `entry idx [n] (xs: [n]f32) = map2 (\i x -> x + f32.i64 (i % 7)) (iota n) xs
entry mandel (h: i64) (w: i64) : [h][w]i32 =
  map (\y -> map (\x -> let (_, _, k) = loop (zr, zi, k) = (0f32, 0f32, 0i32)
                                         while k < 60 && zr * zr + zi * zi <= 4 do
                                           (zr * zr - zi * zi + (-2 + 3 * f32.i64 x / f32.i64 w), 2 * zr * zi + (-1.5 + 3 * f32.i64 y / f32.i64 h), k + 1)
                        in k) (iota w)) (iota h)
entry nbody [n] (xs: [n]f32) (ms: [n]f32) = map (\x -> reduce (+) 0 (map2 (\y m -> m * (x - y) / (1 + (x - y) * (x - y))) xs ms)) xs
entry mm [n][m][p] (a: [n][m]i32) (b: [m][p]i32) : [n][p]i32 = map (\row -> map (\col -> reduce (+) 0 (map2 (*) row col)) (transpose b)) a
entry dot [n] (xs: [n]f32) (ys: [n]f32) = reduce (+) 0 (map2 (*) xs ys)
entry sc [n] (is: [n]i32) = scan (+) 0 is
entry sc2 [n] (is: [n]i32) = unzip (scan (\(a, b) (c, d) -> (a + c, i32.max b d)) (0, i32.lowest) (zip is is))
entry scf [n] (xs: [n]f32) = scan (+) 0 (map2 (\i x -> x * 2 + f32.i64 (i % 5)) (iota n) xs)
entry scl [n] (is: [n]i32) = unzip (scan (\(a, b) (c, d) -> (a * c, b * c + d)) (1, 0) (map (\i -> (i % 3 - 1, i)) is))
entry scm [n] (xs: [n]f32) = let ys = scan (*) 1 (map (\x -> 1 + x / 100) xs) in (ys, map (* 3) xs)
entry fi [n] (xs: [n]f32) = filter (> 0.25) xs
entry hi [n] (is: [n]i32) (xs: [n]f32) = hist (+) 0 256 (map (\i -> i64.i32 (i % 256)) is) xs
entry rbi [n] (dest: [100]i32) (is: [n]i32) = reduce_by_index (copy dest) i32.max i32.lowest (map (\i -> i64.i32 (i % 100)) is) is
entry hd [n] (d: *[10]i32) (is: [n]i32) = reduce_by_index d (+) 0 (map (\i -> i64.i32 (i % 10)) is) (map (% 100) is)
entry sca [n] (d: *[1000]i32) (is: [n]i32) = scatter d (map (\i -> i64.i32 (i % 1000)) is) (map (\i -> i % 1000 + 7) is)
entry rs [n] (xs: [n]f32) = reduce_stream (+) (\_ (c: []f32) -> f32.sum (map (\x -> x * x) c)) xs
entry two [n] (xs: [n]f32) = let ys = map (+1) xs in (reduce (+) 0 ys, scan (+) 0 ys)
`
	s := splitSession(t, src)
	ctx := context.Background()
	// :ir and fut ir show the split plan and a chunk's kernels
	text, err := s.KernelIR("mandel 64 16")
	if err != nil || !strings.Contains(text, "-- split across 2 devices: map by ranges of the outer dimension, 8 chunks of 8 of its 64") || !strings.Contains(text, "-- each chunk of 8:\nkernel") {
		t.Errorf("the kernel IR does not show the split plan (%v):\n%s", err, text)
	}
	const n = 1001
	rng := rand.New(rand.NewPCG(3, 4))
	xs, ys, is := randomVectors(rng, n)
	mat := func(r, c int64) value.Value {
		d := make([]int32, r*c)
		for i := range d {
			d[i] = int32(rng.IntN(19)) - 9
		}
		return value.NewPrimArrayData(value.I32, []int64{r, c}, d)
	}
	dest := make([]int32, 100)
	for i := range dest {
		dest[i] = int32(i * 1000)
	}
	for _, c := range []struct {
		entry string
		args  []value.Value
		kind  string // what the split says it is; "" not split
	}{
		{"idx", []value.Value{f32s(xs)}, "map"},
		{"mandel", []value.Value{value.I64Val(37), value.I64Val(23)}, "map"},
		{"nbody", []value.Value{f32s(xs), f32s(ys)}, "whole on every device"},
		{"mm", []value.Value{mat(45, 17), mat(17, 29)}, "map"},
		{"dot", []value.Value{f32s(xs), f32s(ys)}, "reduce"},
		{"sc", []value.Value{i32s(is)}, "scan"},
		{"sc2", []value.Value{i32s(is)}, "scan"},
		{"scf", []value.Value{f32s(xs)}, "scan"},
		{"scm", []value.Value{f32s(xs)}, "scan"},
		{"scl", []value.Value{i32s(is)}, "scan"},
		{"fi", []value.Value{f32s(xs)}, "filter"},
		{"hi", []value.Value{i32s(is), f32s(xs)}, "histogram"},
		{"rbi", []value.Value{i32s(dest), i32s(is)}, "histogram"},
		{"hd", []value.Value{i32s(dest[:10]), i32s(is)}, "histogram"},
		{"sca", []value.Value{i32s(make([]int32, 1000)), i32s(is)}, "scatter"},
		{"rs", []value.Value{f32s(xs)}, "stream"},
		{"two", []value.Value{f32s(xs)}, ""},
	} {
		want, _, err := s.CallEntry(ctx, c.entry, copyArrays(c.args))
		if err != nil {
			t.Fatalf("%s: %s", c.entry, s.FormatError(err))
		}
		off, why, err := s.CallEntryOffload(ctx, BackendOpenCL, c.entry, copyArrays(c.args))
		if err != nil {
			t.Fatalf("%s: %s", c.entry, s.FormatError(err))
		}
		if off == nil {
			t.Errorf("%s: not offloaded: %s", c.entry, why)
			continue
		}
		if c.kind == "" {
			if !strings.HasPrefix(off.Split, "not split (ran on one device): ") {
				t.Errorf("%s: %q; want it not split, and why", c.entry, off.Split)
			}
		} else if !strings.HasPrefix(off.Split, "split across 2 devices") || !strings.Contains(off.Split, c.kind) {
			t.Errorf("%s: %q; want it split across 2 devices as a %s", c.entry, off.Split, c.kind)
		}
		for j := range want {
			if !value.Equal(off.Values[j], want[j], value.DefaultTolerance) {
				t.Errorf("%s: result %d differs from the reference path's:\n%s\n%s", c.entry, j, value.String(off.Values[j]), value.String(want[j]))
			}
		}
		if c.kind != "map" && c.kind != "whole on every device" {
			continue
		}
		// as fut bench runs a map: the arguments resident on both
		// devices (chunks are views of them), the results left in parts
		// on the devices that made them, then joined
		call, why := s.PrepareOffload(BackendOpenCL, c.entry, copyArrays(c.args))
		if call == nil {
			t.Fatalf("%s: %s", c.entry, why)
		}
		resident, err := call.Upload()
		if err != nil {
			t.Fatalf("%s: upload: %v", c.entry, err)
		}
		if n := countNonNil(resident); n == 0 && c.entry != "mandel" && viewsFit(t, c.args) {
			t.Errorf("%s: no argument resident on the devices", c.entry)
		}
		for range 2 {
			res, _, why, err := call.Run(ctx, resident, true)
			if res == nil || err != nil {
				t.Fatalf("%s: %s %v", c.entry, why, err)
			}
			got, err := call.Values(res)
			if err != nil {
				t.Fatalf("%s: %v", c.entry, err)
			}
			for j := range want {
				if !value.Equal(got[j], want[j], value.DefaultTolerance) {
					t.Errorf("%s, resident: result %d differs from the reference path's", c.entry, j)
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

// viewsFit says whether the split's chunks of the arrays args can be
// views of them on the offload device: the rows at which a view can
// start (runtime.Device.RowAlign, from the device's base address
// alignment: 128 rows of 4 bytes on an H100) are within each array.
func viewsFit(t *testing.T, args []value.Value) bool {
	d, err := OffloadDevice()
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range args {
		a, ok := v.(*value.Array)
		if !ok || len(a.Shape) == 0 || a.Shape[0] == 0 {
			continue
		}
		row := int64(runtime.TypeOf(a.T).Size()) * a.NumElems() / a.Shape[0]
		if d.RowAlign(row) > a.Shape[0] {
			return false
		}
	}
	return true
}

func countNonNil[T any](xs []*T) int {
	n := 0
	for _, x := range xs {
		if x != nil {
			n++
		}
	}
	return n
}

// TestSplitFirstError: a split map whose chunks on both devices fail
// (indices out of bounds at elements 700 and 300) reports the reference
// path's error, the first element's, also when its arguments are
// resident and the checks are read at the end of the run (which then
// runs again checking each kernel, to find the first chunk's error).
func TestSplitFirstError(t *testing.T) {
	s := splitSession(t, "entry bad [n] (xs: [n]f32) (is: [n]i64) = map (\\i -> xs[i] * 2) is\n")
	ctx := context.Background()
	const n = 1000
	xs := make([]float32, n)
	is := make([]int64, n)
	for i := range is {
		is[i] = int64(i)
	}
	is[700], is[300] = n+7, n+3
	args := []value.Value{value.NewPrimArrayData(value.F32, []int64{n}, xs), value.NewPrimArrayData(value.I64, []int64{n}, is)}
	_, _, rerr := s.CallEntry(ctx, "bad", copyArrays(args))
	if rerr == nil || !strings.Contains(s.FormatError(rerr), "1003") {
		t.Fatalf("the reference path: %v", rerr)
	}
	want := strings.SplitN(s.FormatError(rerr), "\n", 3)[:2]
	call, why := s.PrepareOffload(BackendOpenCL, "bad", copyArrays(args))
	if call == nil {
		t.Fatalf("not offloaded: %s", why)
	}
	resident, err := call.Upload()
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, a := range resident {
			if a != nil {
				a.Release()
			}
		}
	}()
	for it := range 2 {
		res, _, why, err := call.Run(ctx, resident, true)
		if err == nil {
			t.Fatalf("run %d: the split run did not fail (%v, %s)", it, res, why)
		}
		got := s.FormatError(err)
		for _, w := range want {
			if !strings.Contains(got, strings.TrimSpace(w)) {
				t.Errorf("the split run's error\n%s\ndoes not say %q (the reference path's)", got, w)
			}
		}
	}
}

// splitSession is a session with src loaded, offloading across two
// (logical) devices for the rest of the test, tiny nests split into many
// chunks (flatten.ChunksPerDevice each); a skip without a device.
func splitSession(t *testing.T, src string) *Session {
	t.Helper()
	if _, err := OffloadDevice(); err != nil {
		t.Skipf("no OpenCL device (%v): install pocl-opencl-icd", err)
	}
	if err := SetDevices("2"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { SetDevices("") })
	oldMin, oldFill, oldProbe := flatten.SplitMin, flatten.ThreadsPerUnit, flatten.SplitProbe
	// tiny nests, split on purpose: one device would be measured faster
	flatten.SplitMin, flatten.ThreadsPerUnit, flatten.SplitProbe = 1, 0, false
	t.Cleanup(func() { flatten.SplitMin, flatten.ThreadsPerUnit, flatten.SplitProbe = oldMin, oldFill, oldProbe })
	s, _ := fileSession(t, "p.fut", src, Options{})
	return s
}

// TestSplitAdapts: a plan whose chunks took less than
// flatten.SplitChunkTime each cuts fewer, longer chunks in its later runs
// (one per device here, where every chunk is short), with the same
// results; the first run, which builds the kernels, teaches nothing.
func TestSplitAdapts(t *testing.T) {
	s := splitSession(t, "entry idx [n] (xs: [n]f32) = map2 (\\i x -> x + f32.i64 (i % 7)) (iota n) xs\n")
	old := flatten.SplitChunkTime
	flatten.SplitChunkTime = time.Hour
	t.Cleanup(func() { flatten.SplitChunkTime = old })
	var launches []int
	for _, out := range offloadRuns(t, s, "idx", 8, 4) {
		launches = append(launches, out.Launches)
	}
	if launches[0] != 2*flatten.ChunksPerDevice || launches[1] != launches[0] || launches[2] != 2 || launches[3] != 2 {
		t.Errorf("kernels launched by run: %v, want %d, %d, then one per device", launches, 2*flatten.ChunksPerDevice, 2*flatten.ChunksPerDevice)
	}
}

// TestSplitProbeRuns: with the measurement of a split against one device
// on, runs 3 and 4 of a split plan take one device (-v says so) and give
// the reference path's results, as does every later run, whichever way
// the measurement went.
func TestSplitProbeRuns(t *testing.T) {
	s := splitSession(t, "entry idx [n] (xs: [n]f32) = map2 (\\i x -> x * 3 + f32.i64 (i % 5)) (iota n) xs\n")
	oldProbe, oldAfter := flatten.SplitProbe, flatten.SplitProbeAfter
	flatten.SplitProbe, flatten.SplitProbeAfter = true, 1
	t.Cleanup(func() { flatten.SplitProbe, flatten.SplitProbeAfter = oldProbe, oldAfter })
	var said []string
	for _, out := range offloadRuns(t, s, "idx", 4, 6) {
		said = append(said, out.Split)
	}
	for i, s := range said {
		probe := strings.Contains(s, "measuring one device against the split")
		if probe != (i == 2 || i == 3) {
			t.Errorf("run %d: %q", i+1, s)
		}
	}
	t.Logf("after the measurement: %s", said[5])
	if last := said[5]; !strings.HasPrefix(last, "split across 2 devices") && !strings.Contains(last, "the split") {
		t.Errorf("after the measurement: %q", last)
	}
}

// offloadRuns runs entry (of one [1000]f32 parameter, element i being
// i/div) offloaded runs times, each result checked against the reference
// path's, and gives what each run said.
func offloadRuns(t *testing.T, s *Session, entry string, div float32, runs int) []*Offloaded {
	t.Helper()
	ctx := context.Background()
	const n = 1000
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = float32(i) / div
	}
	args := []value.Value{value.NewPrimArrayData(value.F32, []int64{n}, xs)}
	want, _, err := s.CallEntry(ctx, entry, copyArrays(args))
	if err != nil {
		t.Fatal(err)
	}
	call, why := s.PrepareOffload(BackendOpenCL, entry, copyArrays(args))
	if call == nil {
		t.Fatalf("not offloaded: %s", why)
	}
	var outs []*Offloaded
	for run := 1; run <= runs; run++ {
		res, out, why, err := call.Run(ctx, nil, false)
		if err != nil || out == nil {
			t.Fatalf("run %d: %v %s", run, err, why)
		}
		vs, err := call.Values(res)
		res.Release()
		if err != nil {
			t.Fatal(err)
		}
		if !value.Equal(want[0], vs[0], 0) {
			t.Fatalf("run %d: the split run differs from the reference path", run)
		}
		outs = append(outs, out)
	}
	return outs
}
