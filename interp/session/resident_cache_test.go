package session

import (
	"context"
	goruntime "runtime"
	"strconv"
	"strings"
	"testing"

	"fut/eval/value"
	"fut/gpu"
)

// replDevice is the offload device with its cache of arguments emptied,
// and a session whose expressions run on it; the test skips without one.
func replDevice(t *testing.T) (*gpu.Device, *Session) {
	t.Helper()
	d, err := OffloadDevice()
	if err != nil {
		t.Skipf("no OpenCL device (%v): install pocl-opencl-icd", err)
	}
	residentFor(d).Clear()
	t.Cleanup(func() { residentFor(d).Clear() })
	s, err := NewSession(Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.SetBackend(BackendOpenCL)
	return d, s
}

// onDevice enters an expression, which must run on the device and give
// the reference path's value, and returns what it says of its transfers.
func onDevice(t *testing.T, s *Session, expr string) (value.Value, string) {
	t.Helper()
	ctx := context.Background()
	e, err := s.Enter(ctx, expr)
	if err != nil {
		t.Fatalf("%s: %s", expr, s.FormatError(err))
	}
	if e.Result == nil || !e.Result.Offloaded() {
		t.Fatalf("%s: not offloaded: %s", expr, e.Why)
	}
	want, err := s.EvalExpr(ctx, expr)
	if err != nil {
		t.Fatalf("%s: %s", expr, s.FormatError(err))
	}
	if !value.Equal(e.Result.Value, want.Value, value.DefaultTolerance) {
		t.Errorf("%s: the device gives %s, the reference path %s", expr, short(e.Result.Value), short(want.Value))
	}
	return e.Result.Value, e.Result.Transfers
}

// short is a value's text, cut at 200 characters.
func short(v value.Value) string {
	if s := value.String(v); len(s) > 200 {
		return s[:200] + "…"
	}
	return value.String(v)
}

func wantTransfers(t *testing.T, expr, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if strings.HasPrefix(w, "!") {
			if strings.Contains(got, w[1:]) {
				t.Errorf("%s: %q says %q", expr, got, w[1:])
			}
		} else if !strings.Contains(got, w) {
			t.Errorf("%s: %q does not say %q", expr, got, w)
		}
	}
}

// TestResidentREPL: in the REPL, a value given to the device twice is
// uploaded once, as is one given twice in one call, and the fields of a
// record or an array of tuples made of values there already are found
// there; updates through the evaluator (of a copy; of a zip of the
// value, consumed: the checker lets zip's unique result be, and its
// update wrote into the value's buffer before value.Array.IsFrozen)
// leave the value and its copy on the device as they were; a slice of a value, and a name bound again, are arrays of their
// own; every call gives the reference path's value.
func TestResidentREPL(t *testing.T) {
	d, s := replDevice(t)
	c := residentFor(d)
	enterLine(t, s, "let xs = map i32.i64 (iota 5000)")
	_, tr := onDevice(t, s, "map (*2) xs")
	wantTransfers(t, "first call", tr, "1 argument uploaded to stay there (19.5 KiB)", "!already")
	_, tr = onDevice(t, s, "map (*2) xs")
	wantTransfers(t, "second call", tr, "1 argument on the device already (19.5 KiB)", "!uploaded")
	_, tr = onDevice(t, s, "reduce (+) 0 (map2 (*) xs xs)")
	wantTransfers(t, "xs twice", tr, "on the device already", "!uploaded")
	if n, b := c.Held(); n != 1 || b != 20000 {
		t.Errorf("the cache holds %d arrays of %d bytes, want 1 of 20000", n, b)
	}

	enterLine(t, s, "let ys = (copy xs) with [0] = 100")
	v, tr := onDevice(t, s, "map (*2) xs")
	wantTransfers(t, "xs after ys", tr, "1 argument on the device already")
	if got := v.(*value.Array).Index(0); !value.Equal(got, value.I32Val(0), 0) {
		t.Errorf("xs[0]*2 = %s after an update of a copy, want 0", value.String(got))
	}
	v, tr = onDevice(t, s, "map (*2) ys")
	wantTransfers(t, "ys", tr, "1 argument uploaded to stay there")
	if got := v.(*value.Array).Index(0); !value.Equal(got, value.I32Val(200), 0) {
		t.Errorf("ys[0]*2 = %s, want 200", value.String(got))
	}

	enterLine(t, s, "let zs = (zip xs xs) with [1] = (7, 7)")
	enterLine(t, s, "let w = scatter (zip xs ys) [2, 3] [(8, 8), (9, 9)]")
	v, tr = onDevice(t, s, "map (*2) xs")
	wantTransfers(t, "xs after zs", tr, "1 argument on the device already")
	if got := v.(*value.Array).Index(1); !value.Equal(got, value.I32Val(2), 0) {
		t.Errorf("xs[1]*2 = %s after an update of zip xs xs, want 2", value.String(got))
	}
	if got := v.(*value.Array).Index(3); !value.Equal(got, value.I32Val(6), 0) {
		t.Errorf("xs[3]*2 = %s after a scatter into zip xs ys, want 6", value.String(got))
	}

	enterLine(t, s, "let r = {a = xs, b = ys}")
	enterLine(t, s, "let ps = zip xs ys")
	_, tr = onDevice(t, s, "map2 (+) r.a r.b")
	wantTransfers(t, "record", tr, "2 arguments on the device already", "!uploaded")
	_, tr = onDevice(t, s, "map (\\(x, y) -> x - y) ps")
	wantTransfers(t, "zip", tr, "2 arguments on the device already", "!uploaded")

	enterLine(t, s, "let sl = xs[10:2000]")
	_, tr = onDevice(t, s, "map (*3) sl")
	wantTransfers(t, "slice", tr, "1 argument uploaded to stay there (7.8 KiB)")
	_, tr = onDevice(t, s, "map (*3) sl")
	wantTransfers(t, "slice again", tr, "1 argument on the device already (7.8 KiB)")
	_, tr = onDevice(t, s, "map (*3) xs[10:2000]")
	wantTransfers(t, "slice in the call", tr, "1 argument on the device already (19.5 KiB)")

	enterLine(t, s, "let xs = map (+1) xs")
	v, tr = onDevice(t, s, "map (*2) xs")
	wantTransfers(t, "xs bound again", tr, "1 argument uploaded to stay there")
	if got := v.(*value.Array).Index(0); !value.Equal(got, value.I32Val(2), 0) {
		t.Errorf("the new xs[0]*2 = %s, want 2", value.String(got))
	}
}

// residentPlan is the plan of map (*2) over n i32s, and arrays for it.
func residentPlan(t *testing.T, s *Session, n int) (*gpu.Plan, func(frozen bool, k int32) *value.Array) {
	t.Helper()
	enterLine(t, s, "let base = replicate "+strconv.Itoa(n)+" 0i32")
	plan, args, _, why, err := s.OffloadPlan("map (*2) base")
	if err != nil || why != "" || len(args) != 1 {
		t.Fatalf("no plan: %v %s (%d arguments)", err, why, len(args))
	}
	return plan, func(frozen bool, k int32) *value.Array {
		d := make([]int32, n)
		for i := range d {
			d[i] = k + int32(i)
		}
		a := value.NewPrimArrayData(value.I32, []int64{int64(n)}, d)
		a.Frozen, a.Bound = frozen, frozen // as a value bound at the top level
		return a
	}
}

// TestResidentEvicts: a cache of room for two arrays keeps the two used
// last, releasing the least recently used first, never one a run holds
// (a run still gets its values right from it); an array that is not
// frozen, or frozen and bound to no name, is not kept; a run that takes nothing from the cache makes it
// give up room only when it needs it (all for a run in chunks); a cache
// of limit 0 keeps nothing.
func TestResidentEvicts(t *testing.T) {
	d, s := replDevice(t)
	const n = 1000 // 4000 bytes
	plan, mk := residentPlan(t, s, n)
	c := gpu.NewResident(d, 2*n*4+100, "")
	defer c.Clear()
	a1, a2, a3 := mk(true, 1), mk(true, 2), mk(true, 3)
	acquire := func(a *value.Array, hits, kept, evicted int) (res []*gpu.Array, done func()) {
		t.Helper()
		res, st, done := c.Acquire(plan, []value.Value{a})
		if st.Hits != hits || st.Kept != kept || st.Evicted != evicted {
			t.Errorf("%d hits, %d kept, %d evicted; want %d, %d, %d", st.Hits, st.Kept, st.Evicted, hits, kept, evicted)
		}
		if held, bytes := c.Held(); held > 2 || bytes > 2*n*4 {
			t.Errorf("the cache holds %d arrays of %d bytes, over its limit", held, bytes)
		}
		return res, done
	}
	run := func(a *value.Array, res []*gpu.Array) {
		t.Helper()
		out, _, err := plan.RunOn(context.Background(), d, []value.Value{a}, res, false)
		if err != nil {
			t.Fatal(err)
		}
		vs, err := out.Download()
		if err != nil {
			t.Fatal(err)
		}
		got := vs[0].(*value.Array).Data.([]int32)
		want := a.Data.([]int32)
		for i := range got {
			if got[i] != 2*want[i] {
				t.Fatalf("element %d: %d, want %d", i, got[i], 2*want[i])
			}
		}
	}
	_, done := acquire(a1, 0, 1, 0)
	done()
	_, done = acquire(a2, 0, 1, 0)
	done()
	_, done = acquire(a1, 1, 0, 0)
	done()
	_, done = acquire(a3, 0, 1, 1) // a2 goes
	done()
	_, done = acquire(a1, 1, 0, 0)
	done()
	_, done = acquire(a2, 0, 1, 1) // a3 goes
	done()
	// held by a run: a1 stays while a2 and a3 come and go
	res1, done1 := acquire(a1, 1, 0, 0)
	_, done = acquire(a3, 0, 1, 1) // a2 goes
	done()
	_, done = acquire(a2, 0, 1, 1) // a3 goes, not a1
	done()
	run(a1, res1)
	done1()
	res, done := acquire(mk(false, 4), 0, 0, 0)
	if res != nil {
		t.Errorf("an array that is not frozen was kept")
	}
	done()
	// frozen but not bound to a name (a view or a zip's argument that an
	// evaluation made, a new header each time)
	view := mk(true, 5)
	view.Bound = false
	if res, done = acquire(view, 0, 0, 0); res != nil {
		t.Errorf("a frozen array bound to no name was kept")
	}
	done()
	// a run that takes nothing from the cache: room for it beside what is
	// kept, none for one in chunks
	if n := c.Yield(plan, []value.Value{a3}); n != 0 {
		t.Errorf("a small run made %d arrays give up their room", n)
	}
	held, _ := c.Held()
	d.SetBudget(6000)
	n1 := c.Yield(plan, []value.Value{a3})
	d.SetBudget(0)
	if held != 2 || n1 != 2 {
		t.Errorf("a run in chunks made %d of %d arrays give up their room, want all", n1, held)
	}
	if held, _ := c.Held(); held != 0 {
		t.Errorf("%d arrays still kept", held)
	}
	off := gpu.NewResident(d, 0, "")
	if res, st, done := off.Acquire(plan, []value.Value{a1}); res != nil || st.Kept+st.Hits != 0 {
		t.Errorf("a cache of limit 0 kept %d", st.Kept)
	} else {
		done()
	}
}

// TestResidentDropped: an array that nothing refers to any more gives
// its place in the cache up, its device buffer released.
func TestResidentDropped(t *testing.T) {
	d, s := replDevice(t)
	plan, mk := residentPlan(t, s, 1000)
	c := gpu.NewResident(d, 1<<20, "")
	defer c.Clear()
	keep := mk(true, 1)
	func() {
		for k := range int32(3) {
			_, st, done := c.Acquire(plan, []value.Value{mk(true, 10+k)})
			done()
			if st.Kept != 1 {
				t.Fatalf("not kept: %+v", st)
			}
		}
		_, _, done := c.Acquire(plan, []value.Value{keep})
		done()
	}()
	if n, _ := c.Held(); n != 4 {
		t.Fatalf("the cache holds %d arrays, want 4", n)
	}
	for try := 0; try < 20; try++ {
		goruntime.GC()
		if n, _ := c.Held(); n == 1 {
			break
		}
	}
	if n, b := c.Held(); n != 1 || b != 4000 {
		t.Errorf("after the collection the cache holds %d arrays of %d bytes, want 1 of 4000", n, b)
	}
	_, st, done := c.Acquire(plan, []value.Value{keep})
	done()
	if st.Hits != 1 {
		t.Errorf("the array still referred to is not found: %+v", st)
	}
	goruntime.KeepAlive(keep)
}

// TestResidentSplitAndChunks: a call split across two devices keeps
// nothing on them, and one that is not split keeps its arguments on the
// first; a call that runs in chunks keeps nothing and makes the device
// give up what it kept; each gives the reference path's values.
func TestResidentSplitAndChunks(t *testing.T) {
	t.Run("split", func(t *testing.T) {
		d, _ := replDevice(t)
		s := splitSession(t, "entry unused (x: i32) = x\n")
		s.SetBackend(BackendOpenCL)
		enterLine(t, s, "let xs = map f32.i64 (iota 3000)")
		for run := 0; run < 2; run++ {
			_, tr := onDevice(t, s, "map (*2) xs")
			wantTransfers(t, "split", tr, "!already", "!to stay")
		}
		if n, _ := residentFor(d).Held(); n != 0 {
			t.Errorf("a split call kept %d arrays on the first device", n)
		}
		_, tr := onDevice(t, s, "let ys = map (+1) xs in (reduce (+) 0 ys, scan (+) 0 ys)")
		wantTransfers(t, "not split", tr, "1 argument uploaded to stay there")
		_, tr = onDevice(t, s, "let ys = map (+1) xs in (reduce (+) 0 ys, scan (+) 0 ys)")
		wantTransfers(t, "not split", tr, "1 argument on the device already")
		_, tr = onDevice(t, s, "map (*2) xs")
		wantTransfers(t, "split after", tr, "!already")
		if n, _ := residentFor(d).Held(); n != 0 {
			t.Errorf("a split call left %d arrays kept on the first device", n)
		}
	})
	t.Run("chunks", func(t *testing.T) {
		d, s := replDevice(t)
		enterLine(t, s, "let xs = map f32.i64 (iota 100000)")
		enterLine(t, s, "let small = map f32.i64 (iota 1000)")
		_, tr := onDevice(t, s, "map (*2) small")
		wantTransfers(t, "small", tr, "1 argument uploaded to stay there")
		d.SetBudget(256 << 10)
		defer d.SetBudget(0)
		for run := 0; run < 2; run++ {
			_, tr = onDevice(t, s, "reduce (+) 0 (map (*2) xs)")
			wantTransfers(t, "chunked", tr, "!already", "!to stay")
			if n, _ := residentFor(d).Held(); n != 0 {
				t.Errorf("a call in chunks left %d arrays kept", n)
			}
		}
		_, tr = onDevice(t, s, "map (*2) small")
		wantTransfers(t, "small after", tr, "1 argument uploaded to stay there")
	})
}
