package cl

import (
	"fmt"
	"os"
	"sort"
	"sync"
	"testing"
	"time"
	"unsafe"
)

// TestLaunchProbe measures the host's side of a device's commands (not
// a test: it prints, and runs only with FUT_LAUNCH_PROBE set): a launch
// back to back and after the device went idle, a flush, a wait by a
// 4-byte read, by clFinish and by a marker, on the profiling queue and on
// a plain one, and two devices launching at once against one. Run it on a
// GPU machine: FUT_LAUNCH_PROBE=1 go test ./gpu/cl -run LaunchProbe -v
// (or a binary of go test -c).
func TestLaunchProbe(t *testing.T) {
	if os.Getenv("FUT_LAUNCH_PROBE") == "" {
		t.Skip("probe")
	}
	ds, err := AllDevices()
	if err != nil {
		t.Fatal(err)
	}
	devs := probeDevices(t, ds)
	med := func(xs []time.Duration) string {
		sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
		return fmt.Sprintf("med %6.1f µs  p10 %6.1f  p90 %6.1f", float64(xs[len(xs)/2].Nanoseconds())/1e3, float64(xs[len(xs)/10].Nanoseconds())/1e3, float64(xs[len(xs)*9/10].Nanoseconds())/1e3)
	}
	launch := func(q uintptr, k *Kernel, n int) {
		g := [3]uintptr{uintptr(n)}
		l := [3]uintptr{256}
		if code := clEnqueueNDRangeKernel(q, k.k, 1, nil, &g[0], &l[0], 0, nil, nil); code != 0 {
			t.Fatal(code)
		}
	}
	const N = 1 << 22
	for _, d := range devs {
		for _, prof := range []bool{true, false} {
			q := d.qnp
			if prof {
				q = d.c.queue
			}
			name := map[bool]string{true: "profiling queue", false: "plain queue"}[prof]
			// back-to-back launches with args set each time
			var xs []time.Duration
			for i := 0; i < 300; i++ {
				t0 := time.Now()
				d.k.SetArg(0, d.b)
				d.k.SetArg(1, int64(N))
				d.k.SetArg(2, int32(3))
				launch(q, d.k, N)
				xs = append(xs, time.Since(t0))
			}
			clFinish(q)
			fmt.Printf("  %s: setargs+launch back-to-back  %s\n", name, med(xs))
			// a launch after the queue went idle (as a bench's call)
			xs = xs[:0]
			var ys, zs, ws []time.Duration
			var flag [4]byte
			for i := 0; i < 100; i++ {
				time.Sleep(500 * time.Microsecond)
				t0 := time.Now()
				d.k.SetArg(0, d.b)
				d.k.SetArg(1, int64(N))
				d.k.SetArg(2, int32(3))
				launch(q, d.k, N)
				t1 := time.Now()
				clFlush(q)
				t2 := time.Now()
				clEnqueueReadBuffer(q, d.flag.mem, 1, 0, 4, unsafe.Pointer(&flag[0]), 0, nil, nil)
				t3 := time.Now()
				xs = append(xs, t1.Sub(t0))
				ys = append(ys, t2.Sub(t1))
				zs = append(zs, t3.Sub(t2))
				ws = append(ws, t3.Sub(t0))
			}
			fmt.Printf("  %s: cold launch %s\n", name, med(xs))
			fmt.Printf("  %s: flush       %s\n", name, med(ys))
			fmt.Printf("  %s: wait(read4) %s\n", name, med(zs))
			fmt.Printf("  %s: whole call  %s   (kernel %d ints)\n", name, med(ws), N)
			// idle round trip: blocking 4-byte read, clFinish, marker wait
			xs, ys, zs = xs[:0], ys[:0], zs[:0]
			for i := 0; i < 100; i++ {
				t0 := time.Now()
				clEnqueueReadBuffer(q, d.flag.mem, 1, 0, 4, unsafe.Pointer(&flag[0]), 0, nil, nil)
				t1 := time.Now()
				clFinish(q)
				t2 := time.Now()
				var ev uintptr
				clEnqueueMarkerWithWaitList(q, 0, nil, &ev)
				clFlush(q)
				clWaitForEvents(1, &ev)
				clReleaseEvent(ev)
				t3 := time.Now()
				xs = append(xs, t1.Sub(t0))
				ys = append(ys, t2.Sub(t1))
				zs = append(zs, t3.Sub(t2))
			}
			fmt.Printf("  %s: idle read4 %s | finish %s | marker %s\n", name, med(xs), med(ys), med(zs))
		}
	}
	if len(devs) < 2 {
		return
	}
	// two devices launching at once from two goroutines: a spin kernel of
	// about 1 ms each, 50 rounds
	for _, prof := range []bool{true, false} {
		var lx, tot []time.Duration
		var mu sync.Mutex
		for r := 0; r < 50; r++ {
			time.Sleep(300 * time.Microsecond)
			start := time.Now()
			var wg sync.WaitGroup
			for _, d := range devs[:2] {
				wg.Add(1)
				go func() {
					defer wg.Done()
					q := d.qnp
					if prof {
						q = d.c.queue
					}
					t0 := time.Now()
					d.s.SetArg(0, d.b)
					d.s.SetArg(1, int64(N))
					d.s.SetArg(2, int32(2000))
					launch(q, d.s, N)
					clFlush(q)
					t1 := time.Now()
					var flag [4]byte
					clEnqueueReadBuffer(q, d.flag.mem, 1, 0, 4, unsafe.Pointer(&flag[0]), 0, nil, nil)
					mu.Lock()
					lx = append(lx, t1.Sub(t0))
					mu.Unlock()
				}()
			}
			wg.Wait()
			tot = append(tot, time.Since(start))
		}
		fmt.Printf("two devices, %v: launch %s | whole %s\n", prof, med(lx), med(tot))
		// one device alone, same kernel
		tot = tot[:0]
		for r := 0; r < 50; r++ {
			time.Sleep(300 * time.Microsecond)
			start := time.Now()
			d := devs[0]
			q := d.qnp
			if prof {
				q = d.c.queue
			}
			d.s.SetArg(0, d.b)
			d.s.SetArg(1, int64(N))
			d.s.SetArg(2, int32(2000))
			launch(q, d.s, N)
			clFlush(q)
			var flag [4]byte
			clEnqueueReadBuffer(q, d.flag.mem, 1, 0, 4, unsafe.Pointer(&flag[0]), 0, nil, nil)
			tot = append(tot, time.Since(start))
		}
		fmt.Printf("one device, %v: whole %s\n", prof, med(tot))
	}
}

// probeDev is a device of the launch probes: its context, a plain queue
// (qnp), the probe kernels k (a[i] = a[i]*c + 1) and spin (iters steps a
// work item), a buffer of 2^22 words for them and a small one to read.
type probeDev struct {
	c    *Context
	qnp  uintptr
	k, s *Kernel
	b    *Buffer
	flag *Buffer
}

// probeDevices opens the GPUs among ds (or the one device there is).
func probeDevices(t *testing.T, ds []*Device) []*probeDev {
	src := `
__kernel void k(__global int *a, long n, int c) { long i = get_global_id(0); if (i < n) a[i] = a[i] * c + 1; }
__kernel void spin(__global float *a, long n, int iters) { long i = get_global_id(0); if (i < n) { float x = a[i]; for (int j = 0; j < iters; j++) x = x * 0.999f + 0.5f; a[i] = x; } }
`
	var devs []*probeDev
	for _, d := range ds {
		if d.Type.String() != "GPU" && len(ds) > 1 {
			continue
		}
		c, err := NewContext(d)
		if err != nil {
			t.Fatal(err)
		}
		var code int32
		q := clCreateCommandQueue(c.ctx, d.ID, 0, &code)
		p, err := c.BuildProgram(src, "")
		if err != nil {
			t.Fatal(err)
		}
		k, _ := p.Kernel("k")
		s, _ := p.Kernel("spin")
		b, _ := c.CreateBuffer(MemReadWrite, 4<<22)
		f, _ := c.CreateBuffer(MemReadWrite, 64)
		devs = append(devs, &probeDev{c, q, k, s, b, f})
		fmt.Printf("device %s (%s)\n", d.Name, d.Type)
	}
	return devs
}
