package runtime

import (
	"errors"
	"math"
	"strings"
	"testing"

	"fut/gpu/cl"
	. "fut/gpu/kernel"
	"fut/gpu/opencl"
)

func TestChoose(t *testing.T) {
	devs := []*cl.Device{
		{Name: "NVIDIA H100", Type: cl.TypeGPU, Platform: &cl.Platform{Name: "NVIDIA CUDA"}},
		{Name: "pthread-skylake", Type: cl.TypeCPU, Platform: &cl.Platform{Name: "Portable Computing Language"}},
	}
	for spec, want := range map[string]int{"": 0, "#1": 1, "h100": 0, "skylake": 1, "portable": 1} {
		if got, err := Choose(devs, spec); err != nil || got != want {
			t.Errorf("Choose(%q) = %d, %v; want %d", spec, got, err, want)
		}
	}
	for _, spec := range []string{"#2", "#x", "amd"} {
		if _, err := Choose(devs, spec); !errors.Is(err, ErrNoDevice) {
			t.Errorf("Choose(%q): want ErrNoDevice, got %v", spec, err)
		}
	}
	c, rest, err := ParseFlags([]string{"--device", "#1", "x.fut", "--no-cache", "--cache-dir=/tmp/k"})
	if err != nil || c.Device != "#1" || !c.NoCache || c.CacheDir != "/tmp/k" || len(rest) != 1 || rest[0] != "x.fut" {
		t.Errorf("ParseFlags: %+v %v %v", c, rest, err)
	}
	for _, s := range []string{"interp", "opencl", "auto"} {
		if p, err := ParsePolicy(s); err != nil || p.String() != s {
			t.Errorf("ParsePolicy(%s) = %v, %v", s, p, err)
		}
	}
}

func TestSaxpy(t *testing.T) {
	d := device(t)
	const n = 100_003
	t.Run("f32", func(t *testing.T) {
		x, y := make([]float32, n), make([]float32, n)
		for i := range x {
			x[i], y[i] = float32(i)*0.5, float32(n-i)
		}
		ax, ay, out := up(t, d, F32, x, n), up(t, d, F32, y, n), alloc(t, d, F32, n)
		if err := d.Run(saxpyKernel(F32), n, float32(2), ax, ay, out); err != nil {
			t.Fatal(err)
		}
		got := down[float32](t, out)
		for i := range got {
			if want := 2*x[i] + y[i]; got[i] != want {
				t.Fatalf("out[%d] = %v, want %v", i, got[i], want)
			}
		}
	})
	t.Run("f64", func(t *testing.T) {
		if !d.Caps.F64 {
			t.Skip("device has no f64")
		}
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], y[i] = math.Sqrt(float64(i)), 1/float64(i+1)
		}
		ax, ay, out := up(t, d, F64, x, n), up(t, d, F64, y, n), alloc(t, d, F64, n)
		if err := d.Run(saxpyKernel(F64), n, 2.5, ax, ay, out); err != nil {
			t.Fatal(err)
		}
		got := down[float64](t, out)
		for i := range got {
			if want := 2.5*x[i] + y[i]; math.Abs(got[i]-want) > 1e-12*math.Abs(want) {
				t.Fatalf("out[%d] = %v, want %v", i, got[i], want)
			}
		}
	})
}

// goDiv etc. are Futhark's integer operators in plain Go.
func goDiv(x, y int32) int32 {
	q := x / y
	if x%y != 0 && (x%y < 0) != (y < 0) {
		q--
	}
	return q
}

func goMod(x, y int32) int32 {
	r := x % y
	if r != 0 && (r < 0) != (y < 0) {
		r += y
	}
	return r
}

func TestIntSemantics(t *testing.T) {
	d := device(t)
	n := Scalar("n", I64)
	x, y := Buf("x", I32, n.V()), Buf("y", I32, n.V())
	outs := make([]*Param, 8)
	for k := range outs {
		outs[k] = Buf(string(rune('a'+k)), I32, n.V())
	}
	i := NewVar("i", I64)
	xi, yi := NewVar("xi", I32), NewVar("yi", I32)
	ops := []Exp{Bin("/", xi, yi), Bin("%", xi, yi), Bin("//", xi, yi), Bin("%%", xi, yi),
		Bin("*", xi, yi), Bin("<<", xi, Bin("&", yi, Int(I32, 63))), Bin(">>", xi, Bin("&", yi, Int(I32, 63))),
		Cv(I32, Cv(I8, Bin("+", xi, yi)))}
	body := []Stmt{L(xi, Rd(x, i)), L(yi, Rd(y, i))}
	for k, e := range ops {
		body = append(body, Wr(outs[k], e, i))
	}
	k := &Kernel{Name: "intsem", Params: append([]*Param{n, x, y}, outs...), Shape: &Map{Dims: []Exp{n.V()}, Idx: []Var{i}, Body: body}}
	xs := []int32{7, -7, 7, -7, math.MinInt32, math.MaxInt32, 100, -100, 0, 1 << 30, 5, -1}
	ys := []int32{2, 2, -2, -2, -1, -1, 3, 7, 5, 3, 40, 31}
	m := int64(len(xs))
	args := []any{m, up(t, d, I32, xs, m), up(t, d, I32, ys, m)}
	for range outs {
		args = append(args, alloc(t, d, I32, m))
	}
	if err := d.Run(k, args...); err != nil {
		t.Fatal(err)
	}
	for j := range xs {
		a, b := xs[j], ys[j]
		want := []int32{0, 0, 0, 0, a * b, 0, 0, int32(int8(a + b))}
		if b == -1 {
			want[0], want[1], want[2], want[3] = -a, 0, -a, 0
		} else {
			want[0], want[1], want[2], want[3] = goDiv(a, b), goMod(a, b), a/b, a%b
		}
		if s := uint32(b & 63); s < 32 {
			want[5] = a << s
		}
		want[6] = int32(int64(a) >> min(uint(b&63), 63))
		for o := range outs {
			got := down[int32](t, args[3+o].(*Array))[j]
			if got != want[o] {
				t.Errorf("op %d on (%d, %d): got %d, want %d", o, a, b, got, want[o])
			}
		}
	}
	// division by zero is reported
	zs := up(t, d, I32, []int32{1, 0}, 2)
	args2 := []any{int64(2), zs, zs}
	for range outs {
		args2 = append(args2, alloc(t, d, I32, 2))
	}
	if err := d.Run(k, args2...); err == nil || err.Error() != "division by zero" {
		t.Fatalf("want division by zero, got %v", err)
	}
}

func TestBoundsCheck(t *testing.T) {
	d := device(t)
	n, m := Scalar("n", I64), Scalar("m", I64)
	x := Buf("x", F32, m.V(), Int(I64, 2))
	out := Buf("out", F32, n.V())
	i := NewVar("i", I64)
	k := &Kernel{Name: "gather", Params: []*Param{n, m, x, out}, Shape: &Map{
		Dims: []Exp{n.V()}, Idx: []Var{i},
		Body: []Stmt{Wr(out, Rd(x, i, Int(I64, 1)), i)},
	}}
	xs := up(t, d, F32, []float32{1, 2, 3, 4, 5, 6}, 3, 2)
	o := alloc(t, d, F32, 3)
	if err := d.Run(k, int64(3), int64(3), xs, o); err != nil {
		t.Fatal(err)
	}
	if got := down[float32](t, o); got[0] != 2 || got[1] != 4 || got[2] != 6 {
		t.Fatalf("got %v", got)
	}
	o5 := alloc(t, d, F32, 5)
	err := d.Run(k, int64(5), int64(3), xs, o5)
	var ke *KernelError
	if !errors.As(err, &ke) || !strings.HasPrefix(err.Error(), "Index [") || !strings.HasSuffix(err.Error(), ", 1] out of bounds for array of shape [3][2].") {
		t.Fatalf("want an out-of-bounds error, got %v", err)
	}
	if ke.Indices[0] != 3 && ke.Indices[0] != 4 {
		t.Fatalf("wrong index reported: %v", ke.Indices)
	}
	// the flag is reset: the next run succeeds
	if err := d.Run(k, int64(3), int64(3), xs, o); err != nil {
		t.Fatal(err)
	}
	// an array smaller than the declared shape is refused before launching
	if err := d.Run(k, int64(3), int64(4), xs, o); err == nil {
		t.Fatal("a too small array was accepted")
	}
}

// gatherKernels are out[i] = x[i][1] for i < n, x of m rows: gather
// fails where n > m, gather_ok is the same kernel under another name.
func gatherKernels() (k, good *Kernel) {
	n, m := Scalar("n", I64), Scalar("m", I64)
	x := Buf("x", F32, m.V(), Int(I64, 2))
	out := Buf("out", F32, n.V())
	i := NewVar("i", I64)
	k = &Kernel{Name: "gather", Params: []*Param{n, m, x, out}, Shape: &Map{
		Dims: []Exp{n.V()}, Idx: []Var{i},
		Body: []Stmt{Wr(out, Rd(x, i, Int(I64, 1)), i)},
	}}
	return k, &Kernel{Name: "gather_ok", Params: []*Param{n, m, x, out}, Shape: k.Shape}
}

// Deferred checks: a failing kernel launched without waiting is reported
// by the next read of the device (or Flush), as the kernel that failed
// even when good kernels ran after it; then the flag is clear again.
func TestDeferredChecks(t *testing.T) {
	d := device(t)
	k, good := gatherKernels()
	xs := up(t, d, F32, []float32{1, 2, 3, 4, 5, 6}, 3, 2)
	o := alloc(t, d, F32, 3)
	o5 := alloc(t, d, F32, 5)
	for range 3 {
		if err := d.RunDeferred(good, int64(3), int64(3), xs, o); err != nil {
			t.Fatal(err)
		}
	}
	if got := down[float32](t, o); got[0] != 2 || got[1] != 4 || got[2] != 6 {
		t.Fatalf("got %v", got)
	}
	if err := d.RunDeferred(k, int64(5), int64(3), xs, o5); err != nil {
		t.Fatalf("a deferred launch reported at once: %v", err)
	}
	_, err := o.Download()
	var ke *KernelError
	if !errors.As(err, &ke) || ke.Kernel != "gather" || !strings.HasSuffix(err.Error(), ", 1] out of bounds for array of shape [3][2].") {
		t.Fatalf("want gather's out-of-bounds error from the download, got %v", err)
	}
	if err := d.Flush(); err != nil {
		t.Fatalf("the error was reported twice: %v", err)
	}
	// a launch after a failed one does not wait for it: the next flush
	// reports the failure, the first in the queue's order
	if err := d.RunDeferred(k, int64(5), int64(3), xs, o5); err != nil {
		t.Fatal(err)
	}
	if err := d.RunDeferred(good, int64(3), int64(3), xs, o); err != nil {
		t.Fatalf("the launch after a failed one waited for it: %v", err)
	}
	if err := d.Flush(); !errors.As(err, &ke) || ke.Kernel != "gather" {
		t.Fatalf("after a failed launch and a good one: want gather's error, got %v", err)
	}
	if err := d.Flush(); err != nil {
		t.Fatalf("the error was reported twice: %v", err)
	}
	if err := d.RunDeferred(k, int64(5), int64(3), xs, o5); err != nil {
		t.Fatal(err)
	}
	if err := d.Flush(); !errors.As(err, &ke) {
		t.Fatalf("Flush: want the kernel's error, got %v", err)
	}
	if err := d.RunDeferred(good, int64(3), int64(3), xs, o); err != nil {
		t.Fatal(err)
	}
	if err := d.Flush(); err != nil {
		t.Fatalf("the flag was not reset: %v", err)
	}
	// unchecked launches: one read of the flag at the flush, for them all
	for range 3 {
		if err := d.RunUnchecked(good, int64(3), int64(3), xs, o); err != nil {
			t.Fatal(err)
		}
	}
	mk, err := d.Marker()
	if err != nil {
		t.Fatal(err)
	}
	if err := mk.Wait(); err != nil {
		t.Fatal(err)
	}
	if err := d.Flush(); err != nil {
		t.Fatalf("good unchecked launches: %v", err)
	}
	if err := d.RunUnchecked(k, int64(5), int64(3), xs, o5); err != nil {
		t.Fatal(err)
	}
	if err := d.RunUnchecked(good, int64(3), int64(3), xs, o); err != nil {
		t.Fatal(err)
	}
	if err := d.Flush(); !errors.Is(err, ErrUnchecked) {
		t.Fatalf("a failed unchecked launch: want ErrUnchecked, got %v", err)
	}
	if err := d.Flush(); err != nil {
		t.Fatalf("the error was reported twice: %v", err)
	}
	// a checked launch before unchecked ones keeps its own error; one
	// after them does not take their failure as its own
	if err := d.RunDeferred(k, int64(5), int64(3), xs, o5); err != nil {
		t.Fatal(err)
	}
	if err := d.RunUnchecked(good, int64(3), int64(3), xs, o); err != nil {
		t.Fatal(err)
	}
	if err := d.Flush(); !errors.As(err, &ke) || ke.Kernel != "gather" {
		t.Fatalf("a failed checked launch before an unchecked one: want gather's error, got %v", err)
	}
	if err := d.RunUnchecked(k, int64(5), int64(3), xs, o5); err != nil {
		t.Fatal(err)
	}
	if err := d.RunDeferred(good, int64(3), int64(3), xs, o); !errors.Is(err, ErrUnchecked) {
		t.Fatalf("a checked launch after a failed unchecked one: want ErrUnchecked, got %v", err)
	}
	if err := d.Flush(); err != nil {
		t.Fatalf("the flag was not reset: %v", err)
	}
	// untimed launches are checked as timed ones are, and add no time
	d.SetKernelTiming(false)
	defer d.SetKernelTiming(true)
	calls := func() (n int64) {
		for _, e := range d.Profile.Entries() {
			n += int64(e.Calls)
		}
		return n
	}
	before := calls()
	if err := d.Run(good, int64(3), int64(3), xs, o); err != nil {
		t.Fatal(err)
	}
	if err := d.RunDeferred(k, int64(5), int64(3), xs, o5); err != nil {
		t.Fatal(err)
	}
	if err := d.Flush(); !errors.As(err, &ke) || ke.Kernel != "gather" {
		t.Fatalf("an untimed failed launch: want gather's error, got %v", err)
	}
	if err := d.Run(k, int64(5), int64(3), xs, o5); !errors.As(err, &ke) || ke.Kernel != "gather" {
		t.Fatalf("an untimed failed launch, checked at once: want gather's error, got %v", err)
	}
	if got := down[float32](t, o); got[0] != 2 || got[1] != 4 || got[2] != 6 {
		t.Fatalf("untimed: got %v", got)
	}
	if n := calls(); n != before {
		t.Errorf("untimed launches were profiled: %d calls before, %d after", before, n)
	}
}

// A kernel that cannot record an error (opencl.Program.MayFail false:
// its only index is its thread's, into an array of its own width) is
// waited for, never checked, whatever it is queued beside: it neither
// hides nor takes over the failure of a launch before it, and it does
// not make a checked launch after an unchecked one skip the flush that
// keeps their flags apart.
func TestSafeLaunches(t *testing.T) {
	d := device(t)
	k, good := gatherKernels()
	n, out, i := k.Params[0], k.Params[3], NewVar("i", I64)
	safe := &Kernel{Name: "fill", Params: []*Param{n, out}, Shape: &Map{
		Dims: []Exp{n.V()}, Idx: []Var{i},
		Body: []Stmt{Wr(out, Conv{To: F32, X: i}, i)},
	}}
	if g, err := opencl.Generate(safe, opencl.Caps{}); err != nil || g.MayFail {
		t.Fatalf("fill may fail (%v):\n%s", err, g.Source)
	}
	xs := up(t, d, F32, []float32{1, 2, 3, 4, 5, 6}, 3, 2)
	o := alloc(t, d, F32, 3)
	o5 := alloc(t, d, F32, 5)
	var ke *KernelError
	for _, run := range []func(*Kernel, ...any) error{d.Run, d.RunDeferred, d.RunUnchecked} {
		if err := run(safe, int64(3), o); err != nil {
			t.Fatal(err)
		}
		if err := d.Flush(); err != nil {
			t.Fatal(err)
		}
		if got := down[float32](t, o); got[0] != 0 || got[1] != 1 || got[2] != 2 {
			t.Fatalf("got %v", got)
		}
	}
	// after a failed checked launch
	if err := d.RunDeferred(k, int64(5), int64(3), xs, o5); err != nil {
		t.Fatal(err)
	}
	if err := d.RunDeferred(safe, int64(3), o); err != nil {
		t.Fatalf("a safe launch waited for the failed one before it: %v", err)
	}
	if err := d.Flush(); !errors.As(err, &ke) || ke.Kernel != "gather" {
		t.Fatalf("want gather's error, got %v", err)
	}
	// after a failed unchecked launch
	if err := d.RunUnchecked(k, int64(5), int64(3), xs, o5); err != nil {
		t.Fatal(err)
	}
	if err := d.RunDeferred(safe, int64(3), o); err != nil {
		t.Fatalf("a safe launch waited for the unchecked one before it: %v", err)
	}
	if err := d.Flush(); !errors.Is(err, ErrUnchecked) {
		t.Fatalf("want ErrUnchecked, got %v", err)
	}
	// a checked launch after an unchecked one and a safe one still
	// flushes first, and does not take the unchecked failure as its own
	if err := d.RunUnchecked(k, int64(5), int64(3), xs, o5); err != nil {
		t.Fatal(err)
	}
	if err := d.RunDeferred(safe, int64(3), o); err != nil {
		t.Fatal(err)
	}
	if err := d.RunDeferred(good, int64(3), int64(3), xs, o); !errors.Is(err, ErrUnchecked) {
		t.Fatalf("a checked launch after a failed unchecked one and a safe one: want ErrUnchecked, got %v", err)
	}
	if err := d.Flush(); err != nil {
		t.Fatalf("the flag was not reset: %v", err)
	}
	// Run of a safe kernel after a failed deferred launch reports it
	if err := d.RunDeferred(k, int64(5), int64(3), xs, o5); err != nil {
		t.Fatal(err)
	}
	if err := d.Run(safe, int64(3), o); !errors.As(err, &ke) || ke.Kernel != "gather" {
		t.Fatalf("Run after a failed deferred launch: want gather's error, got %v", err)
	}
}
