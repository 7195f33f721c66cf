package cl

import (
	"errors"
	"os"
	"strings"
	"testing"
	"unsafe"
)

func firstDevice(t *testing.T) *Device {
	t.Helper()
	ds, err := AllDevices()
	if err != nil || len(ds) == 0 {
		t.Skipf("no OpenCL platform or device here (%v): install pocl-opencl-icd to run these tests", err)
	}
	return ds[0]
}

func TestDeviceList(t *testing.T) {
	d := firstDevice(t)
	if d.Name == "" || d.Platform == nil || d.Platform.Name == "" {
		t.Fatalf("device without a name or platform: %+v", d)
	}
	if d.ComputeUnits == 0 || d.MaxWorkGroup == 0 || d.GlobalMem == 0 {
		t.Fatalf("device facts missing: %+v", d)
	}
	if d.Type.String() == "" {
		t.Fatal("no type")
	}
}

func TestErrorNames(t *testing.T) {
	for code, want := range map[int32]string{-5: "CL_OUT_OF_RESOURCES", -11: "CL_BUILD_PROGRAM_FAILURE", -54: "CL_INVALID_WORK_GROUP_SIZE", -1001: "CL_PLATFORM_NOT_FOUND_KHR", -999: "CL_UNKNOWN_ERROR(-999)"} {
		if got := ErrorName(code); got != want {
			t.Errorf("ErrorName(%d) = %s, want %s", code, got, want)
		}
	}
	e := &Error{Op: "clFinish", Code: -36}
	if e.Error() != "clFinish: CL_INVALID_COMMAND_QUEUE" {
		t.Errorf("got %q", e.Error())
	}
}

func TestBuildFailureShowsLog(t *testing.T) {
	d := firstDevice(t)
	c, err := NewContext(d)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	_, err = c.BuildProgram("__kernel void f(__global int *x) { x[0] = undefined_name; }", "")
	var ce *Error
	if !errors.As(err, &ce) || ce.Name() != "CL_BUILD_PROGRAM_FAILURE" {
		t.Fatalf("want CL_BUILD_PROGRAM_FAILURE, got %v", err)
	}
	if !strings.Contains(ce.Log, "undefined_name") || !strings.Contains(err.Error(), "undefined_name") {
		t.Fatalf("build log does not name the error: %q", ce.Log)
	}
}

func TestRoundTripAndLaunch(t *testing.T) {
	d := firstDevice(t)
	c, err := NewContext(d)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	src := `__kernel void axpy(__global float *y, __global const float *x, float a, long n, __local float *tmp) {
  long i = get_global_id(0);
  tmp[get_local_id(0)] = x[i < n ? i : 0];
  if (i < n) y[i] = a * tmp[get_local_id(0)] + y[i];
}`
	bx, by, bz, _ := axpyRoundTrip(t, c, src, "CL_INVALID_KERNEL_NAME", LocalMem{64 * 4})
	defer bx.Release()
	defer by.Release()
	defer bz.Release()
	out := make([]float32, 1000)
	if err := c.Read(bz, 0, unsafe.Pointer(&out[0]), 4*1000+4); err == nil {
		t.Fatal("read past the end accepted")
	}
}

// axpyRoundTrip builds the kernel axpy of src (y = 3·x + y over 1000
// elements, its local arrays given by locals), checks that a kernel of
// another name is an error that names noKernel, writes x = 0…999 and
// y = 1, launches it on 1024 work items in groups of 64, checks the
// launch's times, copies y to z and checks z. It returns the buffers and
// the kernel's largest work-group size.
func axpyRoundTrip(t *testing.T, c *Context, src, noKernel string, locals ...LocalMem) (bx, by, bz *Buffer, wg int) {
	t.Helper()
	p, err := c.BuildProgram(src, "")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	k, err := p.Kernel("axpy")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Release()
	wg = k.WorkGroupSize()
	if _, err := p.Kernel("nope"); err == nil || !strings.Contains(err.Error(), noKernel) {
		t.Fatalf("want %s, got %v", noKernel, err)
	}
	const n = 1000
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i), 1
	}
	bx, _ = c.CreateBuffer(MemReadWrite, 4*n)
	by, _ = c.CreateBuffer(MemReadWrite, 4*n)
	bz, _ = c.CreateBuffer(MemReadWrite, 4*n)
	if err := c.Write(bx, 0, unsafe.Pointer(&x[0]), 4*n); err != nil {
		t.Fatal(err)
	}
	if err := c.Write(by, 0, unsafe.Pointer(&y[0]), 4*n); err != nil {
		t.Fatal(err)
	}
	args := []any{by, bx, float32(3), int64(n)}
	for _, l := range locals {
		args = append(args, l)
	}
	for i, a := range args {
		if err := k.SetArg(i, a); err != nil {
			t.Fatal(err)
		}
	}
	ev, err := c.Launch(k, []int{1024}, []int{64})
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.Wait(); err != nil {
		t.Fatal(err)
	}
	if s, e, err := ev.Times(); err != nil || e < s {
		t.Fatalf("profiling times %d %d %v", s, e, err)
	}
	ev.Release()
	if err := c.Copy(bz, 0, by, 0, 4*n); err != nil {
		t.Fatal(err)
	}
	out := make([]float32, n)
	if err := c.Read(bz, 0, unsafe.Pointer(&out[0]), 4*n); err != nil {
		t.Fatal(err)
	}
	for i := range out {
		if out[i] != 3*float32(i)+1 {
			t.Fatalf("out[%d] = %v, want %v", i, out[i], 3*float32(i)+1)
		}
	}
	return bx, by, bz, wg
}

func TestMissingLibraryIsAnError(t *testing.T) {
	// A fresh load with a library name that does not exist.
	old := LibraryNames
	defer func() { LibraryNames = old }()
	LibraryNames = []string{"libOpenCL-does-not-exist.so.9"}
	if err := load(); err == nil || !errors.Is(err, ErrNoLibrary) {
		t.Fatalf("want ErrNoLibrary, got %v", err)
	}
}

// TestTrimHostMemory: with glibc (the development and CI machines) the
// allocator is found and asked.
func TestTrimHostMemory(t *testing.T) {
	firstDevice(t)
	maps, _ := os.ReadFile("/proc/self/maps")
	if !strings.Contains(string(maps), "/libc.so.6") {
		t.Skip("not glibc: no malloc_trim to find")
	}
	if !TrimHostMemory() {
		t.Fatal("malloc_trim not found in the process (glibc is expected here)")
	}
	if !TrimHostMemory() {
		t.Fatal("a second call failed")
	}
}

// A switch between the profiling and the plain queue keeps the order of
// the commands: each launch adds to what the one before wrote, whichever
// queue either went to, and the context's Queue follows the switch.
func TestProfilingSwitchKeepsOrder(t *testing.T) {
	d := firstDevice(t)
	c, err := NewContext(d)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	p, err := c.BuildProgram(`__kernel void inc(__global int *a, long n) { long i = get_global_id(0); if (i < n) a[i] = a[i] * 2 + 1; }`, "")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	k, err := p.Kernel("inc")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Release()
	const n = 1 << 16
	b, err := c.CreateBuffer(MemReadWrite, 4*n)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	zero := make([]int32, n)
	if err := c.Write(b, 0, unsafe.Pointer(&zero[0]), 4*n); err != nil {
		t.Fatal(err)
	}
	k.SetArg(0, b)
	k.SetArg(1, int64(n))
	q := c.Queue()
	want := int32(0)
	for i, prof := range []bool{true, false, false, true, false, true} {
		if err := c.SetProfiling(prof); err != nil {
			t.Fatal(err)
		}
		for j := 0; j < 3; j++ {
			if err := c.LaunchUntimed(k, []int{n}, []int{64}); err != nil {
				t.Fatal(err)
			}
			want = want*2 + 1
		}
		ev, err := c.Launch(k, []int{n}, []int{64})
		if err != nil {
			t.Fatal(err)
		}
		want = want*2 + 1
		if i%2 == 1 {
			// a read through the context's Queue, on the queue now chosen
			var got int32
			if err := q.Read(b, 4*(n-1), unsafe.Pointer(&got), 4); err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("switch %d: a[n-1] = %d, want %d", i, got, want)
			}
		}
		if err := ev.Wait(); err != nil {
			t.Fatal(err)
		}
		if _, _, err := ev.Times(); prof && err != nil {
			t.Fatalf("switch %d: no times on the profiling queue: %v", i, err)
		}
		ev.Release()
	}
	out := make([]int32, n)
	if err := c.Read(b, 0, unsafe.Pointer(&out[0]), 4*n); err != nil {
		t.Fatal(err)
	}
	for i := range out {
		if out[i] != want {
			t.Fatalf("a[%d] = %d, want %d", i, out[i], want)
		}
	}
}

// SetArg skips an argument already set to the same value, and sets it
// again for another buffer, even one that reuses a released buffer's
// handle.
func TestSetArgRemembers(t *testing.T) {
	d := firstDevice(t)
	c, err := NewContext(d)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	p, err := c.BuildProgram(`__kernel void put(__global int *a, int v) { a[get_global_id(0)] = v; }`, "")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	k, err := p.Kernel("put")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Release()
	read := func(b *Buffer) int32 {
		var x int32
		if err := c.Read(b, 0, unsafe.Pointer(&x), 4); err != nil {
			t.Fatal(err)
		}
		return x
	}
	for round := 0; round < 20; round++ {
		// a new buffer each round: the driver may hand out the handle of
		// the one released before
		b, err := c.CreateBuffer(MemReadWrite, 16)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []int32{int32(round), int32(round), int32(round + 100)} {
			k.SetArg(0, b)
			k.SetArg(1, v)
			if _, err := c.Launch(k, []int{4}, nil); err != nil {
				t.Fatal(err)
			}
			if got := read(b); got != v {
				t.Fatalf("round %d: a[0] = %d, want %d", round, got, v)
			}
		}
		b.Release()
	}
}
