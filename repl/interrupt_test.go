package repl

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"fut/interp/session"
)

// Ctrl-C while a kernel runs on the OpenCL device: the kernel cannot be
// stopped, so the REPL says at once that it saw the interrupt and waits
// for the kernel (again at a second Ctrl-C), then that the evaluation was
// interrupted; the session goes on. Needs an OpenCL device (PoCL on the
// CPU will do); the kernel's length is fitted to the device's speed.
func TestInterruptOnDevice(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a kernel for seconds")
	}
	if _, err := session.OffloadDevice(); err != nil {
		t.Skipf("no OpenCL device: %v", err)
	}
	guard := make(chan os.Signal, 16)
	signal.Notify(guard, os.Interrupt)
	defer signal.Stop(guard)

	sess, err := session.NewSession(session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sess.SetBackend(session.BackendOpenCL)
	// One kernel: a thread per element, each a sequential loop of n steps.
	long := func(n int) string {
		return fmt.Sprintf(`reduce (+) 0 (map (\i -> loop x = i for j < %d do (x * 3 + j) %% 1000003) (iota 1000))`, n)
	}
	const probe = 100000
	// the probe's least time of two runs after the first (which builds
	// the kernels): a run slowed by a load that then goes away would make
	// the long kernel too short to see both messages
	var took, first time.Duration
	for i := 0; i < 3; i++ {
		start := time.Now()
		res, why, err := sess.EvalOn(context.Background(), session.BackendOpenCL, long(probe))
		if err != nil || why != "" {
			t.Fatalf("the probe did not run on the device: %v %s", err, why)
		}
		if !strings.HasPrefix(res.RanOn, "opencl") {
			t.Fatalf("the probe ran on %s", res.RanOn)
		}
		if d := time.Since(start); i == 0 {
			first = d
		} else if i == 1 || d < took {
			took = d
		}
	}
	// about 10 s of kernel (the probe's time varies with the load of the
	// machine: a margin), at most 250 times the probe
	n := int(float64(probe) * min(250, max(1, (10*time.Second).Seconds()/took.Seconds())))

	in, feed := io.Pipe()
	var out syncBuffer
	r, err := New(sess, Config{In: in, Out: &out, Echo: true, Signals: true})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Run(context.Background())
	}()
	io.WriteString(feed, "def keep = 41\n"+long(n)+"\n")
	waitUntil := func(what string, d time.Duration, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(d)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s:\n%s", what, out.String())
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitUntil("the kernel", 60*time.Second, sess.OnDevice)
	// the session is on the device while it builds the kernel (n is a
	// constant of its source, so it is built anew), and a build is
	// interrupted at once: wait as long as the probe's first run took,
	// which built its kernel, twice over (the kernel runs 10 s)
	time.Sleep(max(50*time.Millisecond, min(4*time.Second, 2*first)))
	sent := time.Now()
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	waitUntil("the message that fut waits", 2*time.Second, func() bool {
		return strings.Contains(out.String(), "interrupt seen: waiting for the OpenCL kernel")
	})
	if d := time.Since(sent); d > time.Second {
		t.Errorf("the interrupt was acknowledged after %v", d)
	}
	if strings.Contains(out.String(), "interrupted") {
		t.Fatalf("the kernel was over before the test could see fut wait; make it longer:\n%s", out.String())
	}
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	waitUntil("the second message", 2*time.Second, func() bool {
		return strings.Contains(out.String(), "still waiting for the kernel to finish")
	})
	waitUntil("the interrupt", 120*time.Second, func() bool { return strings.Contains(out.String(), "\ninterrupted") })
	io.WriteString(feed, "keep + 1\n")
	feed.Close()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatalf("the REPL did not finish:\n%s", out.String())
	}
	r.Close()
	wantAfter(t, out.String(), "keep + 1", "42")
	t.Logf("%d steps a thread, the probe took %v:\n%s", n, took, out.String())
}
