package cl

import (
	"fmt"
	"os"
	goruntime "runtime"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/ebitengine/purego"
)

// TestLaunchProbe2 measures what a launch to an idle queue costs on the
// host and how two devices' launches interfere (not a test: it prints,
// and runs only with FUT_LAUNCH_PROBE2 set): a cold launch, a cold launch
// after a tiny one, a launch behind a user event that is then completed
// (the queue held busy between calls), and two devices launching at once
// from two threads against one after the other from one thread.
func TestLaunchProbe2(t *testing.T) {
	if os.Getenv("FUT_LAUNCH_PROBE2") == "" {
		t.Skip("probe")
	}
	ds, err := AllDevices()
	if err != nil {
		t.Fatal(err)
	}
	lib, err := purego.Dlopen("libOpenCL.so.1", purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		t.Fatal(err)
	}
	var createUser func(c uintptr, err *int32) uintptr
	var setUser func(ev uintptr, status int32) int32
	var barrier func(q uintptr, nw uint32, wait *uintptr, ev *uintptr) int32
	for _, s := range []struct {
		fp   any
		name string
	}{{&createUser, "clCreateUserEvent"}, {&setUser, "clSetUserEventStatus"}, {&barrier, "clEnqueueBarrierWithWaitList"}} {
		addr, e := purego.Dlsym(lib, s.name)
		if e != nil {
			t.Fatal(e)
		}
		purego.RegisterFunc(s.fp, addr)
	}
	devs := probeDevices(t, ds)
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
	med := func(xs []time.Duration) string {
		if len(xs) == 0 {
			return "-"
		}
		ys := append([]time.Duration{}, xs...)
		sort.Slice(ys, func(i, j int) bool { return ys[i] < ys[j] })
		return fmt.Sprintf("med %6.1f µs p10 %6.1f p90 %6.1f", us(ys[len(ys)/2]), us(ys[len(ys)/10]), us(ys[len(ys)*9/10]))
	}
	const N = 1 << 22
	const iters = 1500
	launch := func(d *probeDev, k *Kernel, n int, it int32) {
		k.SetArg(0, d.b)
		k.SetArg(1, int64(n))
		k.SetArg(2, it)
		g := [3]uintptr{uintptr((n + 255) / 256 * 256)}
		l := [3]uintptr{256}
		if code := clEnqueueNDRangeKernel(d.qnp, k.k, 1, nil, &g[0], &l[0], 0, nil, nil); code != 0 {
			t.Fatal(code)
		}
	}
	read4 := func(d *probeDev) {
		var flag [4]byte
		clEnqueueReadBuffer(d.qnp, d.flag.mem, 1, 0, 4, unsafe.Pointer(&flag[0]), 0, nil, nil)
	}
	const R = 60
	for i, d := range devs {
		var cold, whole, tiny, after, plugL, plugS, plugW []time.Duration
		for r := 0; r < R; r++ {
			time.Sleep(500 * time.Microsecond)
			t0 := time.Now()
			launch(d, d.s, N, iters)
			t1 := time.Now()
			read4(d)
			cold, whole = append(cold, t1.Sub(t0)), append(whole, time.Since(t0))
			time.Sleep(500 * time.Microsecond)
			t0 = time.Now()
			launch(d, d.k, 256, 1)
			t1 = time.Now()
			launch(d, d.s, N, iters)
			t2 := time.Now()
			read4(d)
			tiny, after = append(tiny, t1.Sub(t0)), append(after, t2.Sub(t1))
			// the queue held by a barrier on a user event
			var code int32
			u := createUser(d.c.ctx, &code)
			barrier(d.qnp, 1, &u, nil)
			clFlush(d.qnp)
			time.Sleep(500 * time.Microsecond)
			t0 = time.Now()
			launch(d, d.s, N, iters)
			t1 = time.Now()
			setUser(u, 0)
			t2 = time.Now()
			read4(d)
			plugL, plugS, plugW = append(plugL, t1.Sub(t0)), append(plugS, t2.Sub(t1)), append(plugW, time.Since(t0))
			clReleaseEvent(u)
		}
		fmt.Printf("device %d: cold launch %s | whole %s\n", i, med(cold), med(whole))
		fmt.Printf("device %d: tiny first %s | then launch %s\n", i, med(tiny), med(after))
		fmt.Printf("device %d: plugged launch %s | unplug %s | whole %s\n", i, med(plugL), med(plugS), med(plugW))
	}
	// what keeps a thread warm: 500 µs spent sleeping, spinning, or
	// spinning with a clFlush of the idle queue every 50 µs, then a
	// launch; and a launch right after one flush
	{
		d := devs[0]
		goruntime.LockOSThread()
		var slept, spun, warmed, fl, afterFl []time.Duration
		for r := 0; r < R; r++ {
			time.Sleep(500 * time.Microsecond)
			t0 := time.Now()
			launch(d, d.s, N, iters)
			slept = append(slept, time.Since(t0))
			read4(d)
			for t1 := time.Now(); time.Since(t1) < 500*time.Microsecond; {
			}
			t0 = time.Now()
			launch(d, d.s, N, iters)
			spun = append(spun, time.Since(t0))
			read4(d)
			last := time.Now()
			for t1 := time.Now(); time.Since(t1) < 500*time.Microsecond; {
				if time.Since(last) > 50*time.Microsecond {
					clFlush(d.qnp)
					last = time.Now()
				}
			}
			t0 = time.Now()
			launch(d, d.s, N, iters)
			warmed = append(warmed, time.Since(t0))
			read4(d)
			time.Sleep(500 * time.Microsecond)
			t0 = time.Now()
			clFlush(d.qnp)
			t1 := time.Now()
			launch(d, d.s, N, iters)
			fl, afterFl = append(fl, t1.Sub(t0)), append(afterFl, time.Since(t1))
			read4(d)
		}
		goruntime.UnlockOSThread()
		fmt.Printf("after a sleep: launch %s | after spinning: %s | spinning with flushes: %s | a flush %s then launch %s\n", med(slept), med(spun), med(warmed), med(fl), med(afterFl))
	}
	if len(devs) < 2 {
		return
	}
	// two devices: at once from two locked threads, or one after the
	// other from one
	var par0, par1, parW, seq0, seq1, seqW []time.Duration
	for r := 0; r < R; r++ {
		time.Sleep(500 * time.Microsecond)
		var ready, gate atomic.Int32
		var wg sync.WaitGroup
		var l [2]time.Duration
		var t0 time.Time
		for i, d := range devs[:2] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				goruntime.LockOSThread()
				defer goruntime.UnlockOSThread()
				ready.Add(1)
				for gate.Load() == 0 {
				}
				s := time.Now()
				launch(d, d.s, N, iters)
				l[i] = time.Since(s)
				read4(d)
			}()
		}
		for ready.Load() < 2 {
		}
		t0 = time.Now()
		gate.Store(1)
		wg.Wait()
		par0, par1, parW = append(par0, l[0]), append(par1, l[1]), append(parW, time.Since(t0))
		time.Sleep(500 * time.Microsecond)
		t0 = time.Now()
		launch(devs[0], devs[0].s, N, iters)
		t1 := time.Now()
		launch(devs[1], devs[1].s, N, iters)
		t2 := time.Now()
		read4(devs[0])
		read4(devs[1])
		seq0, seq1, seqW = append(seq0, t1.Sub(t0)), append(seq1, t2.Sub(t1)), append(seqW, time.Since(t0))
	}
	fmt.Printf("two at once: launch dev0 %s | dev1 %s | whole %s\n", med(par0), med(par1), med(parW))
	// two threads, the second launching when the first's launch returned
	var bat0, bat1, batW []time.Duration
	for r := 0; r < R; r++ {
		time.Sleep(500 * time.Microsecond)
		var ready, gate, baton atomic.Int32
		var wg sync.WaitGroup
		var l [2]time.Duration
		for i, d := range devs[:2] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				goruntime.LockOSThread()
				defer goruntime.UnlockOSThread()
				ready.Add(1)
				for gate.Load() == 0 {
				}
				for i == 1 && baton.Load() == 0 {
				}
				s := time.Now()
				launch(d, d.s, N, iters)
				l[i] = time.Since(s)
				baton.Store(1)
				read4(d)
			}()
		}
		for ready.Load() < 2 {
		}
		t0 := time.Now()
		gate.Store(1)
		wg.Wait()
		bat0, bat1, batW = append(bat0, l[0]), append(bat1, l[1]), append(batW, time.Since(t0))
	}
	fmt.Printf("two threads in turn: launch dev0 %s | dev1 %s | whole %s\n", med(bat0), med(bat1), med(batW))
	// finish instead of a read to wait
	var fw, rw []time.Duration
	for r := 0; r < R; r++ {
		time.Sleep(500 * time.Microsecond)
		t0 := time.Now()
		launch(devs[0], devs[0].s, N, iters)
		clFinish(devs[0].qnp)
		fw = append(fw, time.Since(t0))
		time.Sleep(500 * time.Microsecond)
		t0 = time.Now()
		launch(devs[0], devs[0].s, N, iters)
		read4(devs[0])
		rw = append(rw, time.Since(t0))
	}
	fmt.Printf("one device: launch+finish %s | launch+read4 %s\n", med(fw), med(rw))
	fmt.Printf("one after the other: launch dev0 %s | dev1 %s | whole %s\n", med(seq0), med(seq1), med(seqW))
	// both plugged, unplugged at once from one thread
	var pl, un, pw []time.Duration
	for r := 0; r < R; r++ {
		var us [2]uintptr
		for i, d := range devs[:2] {
			var code int32
			us[i] = createUser(d.c.ctx, &code)
			barrier(d.qnp, 1, &us[i], nil)
			clFlush(d.qnp)
		}
		time.Sleep(500 * time.Microsecond)
		t0 := time.Now()
		launch(devs[0], devs[0].s, N, iters)
		launch(devs[1], devs[1].s, N, iters)
		t1 := time.Now()
		setUser(us[0], 0)
		setUser(us[1], 0)
		t2 := time.Now()
		read4(devs[0])
		read4(devs[1])
		pl, un, pw = append(pl, t1.Sub(t0)), append(un, t2.Sub(t1)), append(pw, time.Since(t0))
		clReleaseEvent(us[0])
		clReleaseEvent(us[1])
	}
	fmt.Printf("both plugged: launches %s | unplug both %s | whole %s\n", med(pl), med(un), med(pw))
}
