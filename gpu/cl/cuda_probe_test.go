package cl

import (
	"fmt"
	"os"
	"sort"
	"testing"
	"time"
	"unsafe"

	"github.com/ebitengine/purego"
)

// TestCUDAProbe measures what the same kernel costs the host when it is
// launched through the CUDA driver API instead of OpenCL (not a test: it
// prints, and runs only with FUT_CUDA_PROBE set, on a machine with an
// NVIDIA GPU). The kernel is built by NVIDIA's OpenCL, whose program
// binary is PTX; libcuda loads that PTX as a module and launches it, so
// no other compiler is involved. Cold launches (after the host slept),
// back-to-back launches and the whole call (launch and wait) are timed
// both ways, in one process.
func TestCUDAProbe(t *testing.T) {
	if os.Getenv("FUT_CUDA_PROBE") == "" {
		t.Skip("probe")
	}
	ds, err := AllDevices()
	if err != nil {
		t.Fatal(err)
	}
	var gpu *Device
	for _, d := range ds {
		if d.Type.String() == "GPU" {
			gpu = d
			break
		}
	}
	if gpu == nil {
		t.Skip("no GPU")
	}
	c, err := NewContext(gpu)
	if err != nil {
		t.Fatal(err)
	}
	src := `
__kernel void spin(__global float *a, long n, int iters) { long i = get_global_id(0); if (i < n) { float x = a[i]; for (int j = 0; j < iters; j++) x = x * 0.999f + 0.5f; a[i] = x; } }
`
	p, err := c.BuildProgram(src, "")
	if err != nil {
		t.Fatal(err)
	}
	ptx, err := p.Binary()
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("PTX from OpenCL: %d bytes\n", len(ptx))
	lib, err := purego.Dlopen("libcuda.so.1", purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		t.Fatal(err)
	}
	var (
		cuInit                    func(flags uint32) int32
		cuDeviceGet               func(dev *int32, ordinal int32) int32
		cuDevicePrimaryCtxRetain  func(ctx *uintptr, dev int32) int32
		cuCtxSetCurrent           func(ctx uintptr) int32
		cuModuleLoadData          func(mod *uintptr, image unsafe.Pointer) int32
		cuModuleGetFunction       func(f *uintptr, mod uintptr, name *byte) int32
		cuMemAlloc                func(p *uintptr, n uintptr) int32
		cuStreamCreate            func(s *uintptr, flags uint32) int32
		cuStreamSynchronize       func(s uintptr) int32
		cuLaunchKernel            func(f uintptr, gx, gy, gz, bx, by, bz, shmem uint32, s uintptr, params *unsafe.Pointer, extra *unsafe.Pointer) int32
		cuEventCreate             func(e *uintptr, flags uint32) int32
		cuEventRecord             func(e uintptr, s uintptr) int32
		cuEventSynchronize        func(e uintptr) int32
		cuCtxSetFlags             func(flags uint32) int32
		cuDevicePrimaryCtxSetFlag func(dev int32, flags uint32) int32
	)
	for _, s := range []struct {
		fp   any
		name string
	}{
		{&cuInit, "cuInit"}, {&cuDeviceGet, "cuDeviceGet"}, {&cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"},
		{&cuCtxSetCurrent, "cuCtxSetCurrent"}, {&cuModuleLoadData, "cuModuleLoadData"}, {&cuModuleGetFunction, "cuModuleGetFunction"},
		{&cuMemAlloc, "cuMemAlloc_v2"}, {&cuStreamCreate, "cuStreamCreate"}, {&cuStreamSynchronize, "cuStreamSynchronize"},
		{&cuLaunchKernel, "cuLaunchKernel"}, {&cuEventCreate, "cuEventCreate"}, {&cuEventRecord, "cuEventRecord"},
		{&cuEventSynchronize, "cuEventSynchronize"}, {&cuCtxSetFlags, "cuCtxSetFlags"}, {&cuDevicePrimaryCtxSetFlag, "cuDevicePrimaryCtxSetFlags_v2"},
	} {
		addr, e := purego.Dlsym(lib, s.name)
		if e != nil {
			t.Fatalf("%s: %v", s.name, e)
		}
		purego.RegisterFunc(s.fp, addr)
	}
	ck := func(what string, code int32) {
		if code != 0 {
			t.Fatalf("%s: CUDA error %d", what, code)
		}
	}
	ck("cuInit", cuInit(0))
	var dev int32
	ck("cuDeviceGet", cuDeviceGet(&dev, 0))
	ck("cuDevicePrimaryCtxSetFlags", cuDevicePrimaryCtxSetFlag(dev, 0)) // CU_CTX_SCHED_AUTO
	var ctx uintptr
	ck("cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain(&ctx, dev))
	ck("cuCtxSetCurrent", cuCtxSetCurrent(ctx))
	img := append(append([]byte{}, ptx...), 0)
	var mod uintptr
	ck("cuModuleLoadData", cuModuleLoadData(&mod, unsafe.Pointer(&img[0])))
	var fn uintptr
	name := []byte("spin\x00")
	ck("cuModuleGetFunction", cuModuleGetFunction(&fn, mod, &name[0]))
	const N = 1 << 22
	var dptr uintptr
	ck("cuMemAlloc", cuMemAlloc(&dptr, 4*N))
	var stream uintptr
	ck("cuStreamCreate", cuStreamCreate(&stream, 1))
	var ev uintptr
	ck("cuEventCreate", cuEventCreate(&ev, 2)) // CU_EVENT_DISABLE_TIMING
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
	med := func(xs []time.Duration) string {
		ys := append([]time.Duration{}, xs...)
		sort.Slice(ys, func(i, j int) bool { return ys[i] < ys[j] })
		return fmt.Sprintf("med %6.1f µs p10 %6.1f p90 %6.1f", us(ys[len(ys)/2]), us(ys[len(ys)/10]), us(ys[len(ys)*9/10]))
	}
	cuLaunch := func(iters int32) {
		n := int64(N)
		args := []unsafe.Pointer{unsafe.Pointer(&dptr), unsafe.Pointer(&n), unsafe.Pointer(&iters)}
		ck("cuLaunchKernel", cuLaunchKernel(fn, N/256, 1, 1, 256, 1, 1, 0, stream, &args[0], nil))
	}
	// OpenCL: the same kernel on a plain queue
	var code int32
	q := clCreateCommandQueue(c.ctx, gpu.ID, 0, &code)
	k, err := p.Kernel("spin")
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.CreateBuffer(MemReadWrite, 4*N)
	if err != nil {
		t.Fatal(err)
	}
	clLaunch := func(iters int32) {
		k.SetArg(0, b)
		k.SetArg(1, int64(N))
		k.SetArg(2, iters)
		g := [3]uintptr{N}
		l := [3]uintptr{256}
		if code := clEnqueueNDRangeKernel(q, k.k, 1, nil, &g[0], &l[0], 0, nil, nil); code != 0 {
			t.Fatal(code)
		}
	}
	for _, iters := range []int32{1, 1500} {
		cuLaunch(iters)
		cuStreamSynchronize(stream)
		clLaunch(iters)
		clFinish(q)
		const R = 80
		var cuCold, cuWhole, cuEvW, clCold, clWhole, cuB2B, clB2B []time.Duration
		for r := 0; r < R; r++ {
			time.Sleep(500 * time.Microsecond)
			t0 := time.Now()
			cuLaunch(iters)
			t1 := time.Now()
			cuStreamSynchronize(stream)
			cuCold, cuWhole = append(cuCold, t1.Sub(t0)), append(cuWhole, time.Since(t0))
			time.Sleep(500 * time.Microsecond)
			t0 = time.Now()
			cuLaunch(iters)
			cuEventRecord(ev, stream)
			cuEventSynchronize(ev)
			cuEvW = append(cuEvW, time.Since(t0))
			time.Sleep(500 * time.Microsecond)
			t0 = time.Now()
			clLaunch(iters)
			t1 = time.Now()
			clFinish(q)
			clCold, clWhole = append(clCold, t1.Sub(t0)), append(clWhole, time.Since(t0))
			t0 = time.Now()
			for i := 0; i < 10; i++ {
				cuLaunch(iters)
			}
			cuB2B = append(cuB2B, time.Since(t0)/10)
			cuStreamSynchronize(stream)
			t0 = time.Now()
			for i := 0; i < 10; i++ {
				clLaunch(iters)
			}
			clB2B = append(clB2B, time.Since(t0)/10)
			clFinish(q)
		}
		fmt.Printf("iters %d: CUDA  cold launch %s | launch+sync %s | launch+event wait %s | back-to-back %s\n", iters, med(cuCold), med(cuWhole), med(cuEvW), med(cuB2B))
		fmt.Printf("iters %d: OpenCL cold launch %s | launch+finish %s | back-to-back %s\n", iters, med(clCold), med(clWhole), med(clB2B))
	}
}
