package cl

import (
	"runtime"
	"testing"
	"time"
)

// BenchmarkLaunchFloor measures what one kernel launch costs the host
// on the first GPU, else the first device (an NVIDIA GPU through CUDA
// unless FUT_CUDA=0, else OpenCL; the log names it): "sync" is a launch of one work group of an empty
// kernel and the wait for it, the floor of any offloaded call's wall
// time; "queue" only the launch, the host's time in it (the queue is
// drained every 256 launches, so that it never fills). Compare a call's
// wall time with these, not with zero.
func BenchmarkLaunchFloor(b *testing.B) {
	ds, err := AllDevices()
	if err != nil || len(ds) == 0 {
		b.Skip("no OpenCL device")
	}
	d := ds[0]
	for _, x := range ds {
		if x.Type&TypeGPU != 0 {
			d = x
			break
		}
	}
	b.Logf("%s (%s) %s", d.Name, d.Platform.Name, CUDAStatus(d))
	c, err := NewContext(d)
	if err != nil {
		b.Skip(err)
	}
	defer c.Release()
	p, err := c.BuildProgram(`__kernel void nop(__global int *x, long n) { if (get_global_id(0) >= n) x[0] = 1; }`, "")
	if err != nil {
		b.Fatal(err)
	}
	defer p.Release()
	k, err := p.Kernel("nop")
	if err != nil {
		b.Fatal(err)
	}
	defer k.Release()
	buf, err := c.CreateBuffer(MemReadWrite, 64)
	if err != nil {
		b.Fatal(err)
	}
	defer buf.Release()
	if err := k.SetArg(0, buf); err != nil {
		b.Fatal(err)
	}
	if err := k.SetArg(1, int64(1<<20)); err != nil {
		b.Fatal(err)
	}
	global, local := []int{32}, []int{32}
	// "…-locked": the goroutine keeps one thread throughout, where a
	// launch otherwise takes whichever thread the goroutine is on
	locked := func(f func(*testing.B)) func(*testing.B) {
		return func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			f(b)
		}
	}
	sync := func(b *testing.B) {
		for b.Loop() {
			if err := c.LaunchUntimed(k, global, local); err != nil {
				b.Fatal(err)
			}
			if err := c.Finish(); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("sync", sync)
	b.Run("sync-locked", locked(sync))
	queue := func(b *testing.B) {
		var host time.Duration
		i := 0
		for b.Loop() {
			t0 := time.Now()
			if err := c.LaunchUntimed(k, global, local); err != nil {
				b.Fatal(err)
			}
			host += time.Since(t0)
			if i++; i%256 == 0 {
				if err := c.Finish(); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(host.Nanoseconds())/float64(b.N), "host-ns/launch")
		c.Finish()
	}
	b.Run("queue", queue)
	b.Run("queue-locked", locked(queue))
}
