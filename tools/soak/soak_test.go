package soak

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"fut/gpu/cl"
	"fut/interp/session"
	"fut/repl"
	"fut/tools/procmem"
)

// The soak drives one REPL, in this process, through rounds of what a
// long session does: load a file that changes each round and one that
// does not check, run its entry point, define and print large arrays,
// make every kind of error (type, index, division, parse, the memory
// limit), interrupt a long evaluation with SIGINT, and offload to OpenCL
// (when a device is there) kernels that differ each round. After the
// first round, and after every round, it records the live heap (after a
// collection), the resident size (VmRSS, VmHWM, and VmRSS once Go's
// runtime and the C allocator have given free memory back, and how much
// of that is Go's), the number of goroutines and PoCL's kernel libraries. It fails when the live heap, the memory Go holds
// or the goroutines grow: what one round leaves behind must not add up.

// prompt is the REPL's prompt, numbered like its entries (fut 3> ).
var prompt = regexp.MustCompile(`fut \d+> `)

const (
	// the session's memory limit; the memory-limit error of each round
	// makes the session hold about this much before it fails
	maxMemory = 1 << 30
)

func TestSoak(t *testing.T) {
	if os.Getenv("FUT_SOAK") != "1" {
		t.Skip("a soak of ten minutes: FUT_SOAK=1 runs it (FUT_SOAK_DURATION sets how long)")
	}
	duration := 10 * time.Minute
	if s := os.Getenv("FUT_SOAK_DURATION"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatal(err)
		}
		duration = d
	}
	// The REPL listens for SIGINT only while it evaluates; this channel
	// keeps one that comes at another moment from ending the test.
	keep := make(chan os.Signal, 16)
	signal.Notify(keep, os.Interrupt)
	defer signal.Stop(keep)

	sess, err := session.NewSession(session.Options{Cost: true, MaxMemory: maxMemory})
	if err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, sess)
	defer d.close()
	dir := t.TempDir()
	opencl := false
	if os.Getenv("FUT_SOAK_OPENCL") != "0" {
		opencl = strings.Contains(d.send(":backend opencl"), "backend: opencl")
		opened = opencl
		d.send(":backend interp")
	}
	if !opencl {
		t.Log("no OpenCL device (or FUT_SOAK_OPENCL=0): the rounds run without offloads")
	}

	var first, last sample
	start := time.Now()
	round := 0
	for round == 0 || time.Since(start) < duration {
		round++
		d.round(dir, round, opencl)
		last = measure()
		if round == 1 {
			first = last
		}
		t.Logf("round %3d at %6.1fs: %s", round, time.Since(start).Seconds(), last)
	}
	t.Logf("%d rounds in %v, %d entries, %d errors reported", round, time.Since(start).Round(time.Second), d.entries, d.errors)
	t.Logf("after round 1: %s", first)
	t.Logf("at the end:    %s", last)
	if grow := last.live - first.live; grow > 32<<20 {
		t.Errorf("the live heap grew by %d MiB over %d rounds", grow>>20, round-1)
	}
	if last.goroutines > first.goroutines+2 {
		t.Errorf("goroutines: %d after round 1, %d at the end", first.goroutines, last.goroutines)
	}
	// The resident size is reported, not checked: past what Go holds it
	// is OpenCL's. The device keeps at most 128 programs built and has
	// the C allocator give back what released ones freed; PoCL keeps
	// every kernel it built loaded (the kernel libraries counted in each
	// sample, about 50 KiB each), which fut bounds by building at most
	// 2048 programs of distinct sources per process (gpu/runtime's
	// cache.go).
	if grow := last.goMapped - first.goMapped; grow > 64<<20 {
		t.Errorf("the memory Go holds grew by %d MiB over %d rounds", grow>>20, round-1)
	}
}

// round is one round of the session; n makes its file and kernels new.
func (d *driver) round(dir string, n int, opencl bool) {
	prog := filepath.Join(dir, "prog.fut")
	bad := filepath.Join(dir, "bad.fut")
	write(d.t, prog, fmt.Sprintf(`-- round %[1]d
def scale : i64 = %[1]d
def f (x: i64) = x * scale + 1
def table = map (\i -> i * scale) (iota 100000)
entry main (n: i64) = reduce (+) 0 (map f (iota n))
`, n))
	write(d.t, bad, "def oops : i32 = 1.5f32\n")

	d.expect(":load "+prog, "loaded")
	d.expect("main 1000", fmt.Sprint(int64(n)*999*1000/2+1000))
	d.expect(":load "+bad, "error")
	d.expect("main 10", fmt.Sprint(int64(n)*45+10))
	d.expect("table[99999]", fmt.Sprint(99999*int64(n)))
	d.expect(fmt.Sprintf("def big = map (+%d) (iota 5000000)", n), "")
	d.expect("length big", "5000000")
	d.expect("big", "...") // a large value, elided
	d.expect("reduce (+) 0 big", "")
	d.expect(":type f", "i64 -> i64")
	d.expect(":cost main 100", "as written")

	// errors of every kind; each leaves the session as it was
	d.expect("[1, 2][5]", "out of bounds")
	d.expect("1 / 0", "division by zero")
	d.expect("nosuch + 1", "error")
	d.expect("let x = in x", "error")
	d.expect(`length (map (\i -> map (+i) (iota 10000000)) (iota 200))`, "out of memory")
	d.expect("length big", "5000000")

	// a long evaluation, interrupted
	d.interrupt("loop x = 0i64 for i < 4000000000i64 do x + i % 7")
	d.expect("main 10", fmt.Sprint(int64(n)*45+10))

	if opencl {
		d.expect(":backend opencl", "backend: opencl")
		d.expect(fmt.Sprintf("reduce (+) 0 (map (*%d) (iota 1000000))", n), fmt.Sprint(int64(n)*999999*1000000/2))
		d.expect(fmt.Sprintf(`map (\x -> x * x + %d) (iota 5)`, n), fmt.Sprintf("%d", n))
		d.expect("reduce (+) 0 (map f (iota 100000))", "")
		d.expect(":backend interp", "backend: interp")
	}
}

// driver feeds lines to a REPL running in a goroutine and reads what it
// prints up to its next prompt.
type driver struct {
	t       *testing.T
	w       *io.PipeWriter
	out     *watch
	done    chan struct{}
	entries int
	errors  int
}

func newDriver(t *testing.T, sess *session.Session) *driver {
	pr, pw := io.Pipe()
	out := newWatch()
	r, err := repl.New(sess, repl.Config{In: pr, Out: out, Prompts: true, Signals: true})
	if err != nil {
		t.Fatal(err)
	}
	d := &driver{t: t, w: pw, out: out, done: make(chan struct{})}
	go func() {
		defer close(d.done)
		r.Run(context.Background())
		r.Close()
	}()
	out.next(0) // the first prompt
	return d
}

func (d *driver) close() {
	d.w.Close()
	<-d.done
}

// send writes line and returns what the REPL printed for it.
func (d *driver) send(line string) string {
	d.t.Helper()
	n := d.out.prompts()
	if _, err := io.WriteString(d.w, line+"\n"); err != nil {
		d.t.Fatal(err)
	}
	d.entries++
	got := d.out.next(n)
	if strings.Contains(got, "error") {
		d.errors++
	}
	return got
}

// expect sends line and checks that the answer holds want.
func (d *driver) expect(line, want string) {
	d.t.Helper()
	got := d.send(line)
	if !strings.Contains(got, want) {
		d.t.Fatalf("after %q: want %q in\n%s", line, want, got)
	}
	if want != "error" && want != "out of bounds" && want != "division by zero" && want != "out of memory" && strings.Contains(got, "error") {
		d.t.Fatalf("after %q: an error:\n%s", line, got)
	}
	if strings.Contains(got, "internal error") {
		d.t.Fatalf("after %q: %s", line, got)
	}
}

// interrupt sends a line that runs for long and interrupts it as Ctrl-C
// does on a terminal.
func (d *driver) interrupt(line string) {
	d.t.Helper()
	n := d.out.prompts()
	if _, err := io.WriteString(d.w, line+"\n"); err != nil {
		d.t.Fatal(err)
	}
	d.entries++
	time.Sleep(300 * time.Millisecond) // checked and running by now
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	got := d.out.next(n)
	if !strings.Contains(got, "interrupted") {
		d.t.Fatalf("after interrupting %q: %s", line, got)
	}
	d.errors++
}

// watch is the REPL's output, with a count of the prompts printed.
type watch struct {
	mu   sync.Mutex
	cond *sync.Cond
	buf  strings.Builder
	n    int
}

func newWatch() *watch {
	w := &watch{}
	w.cond = sync.NewCond(&w.mu)
	return w
}

func (w *watch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	w.n += len(prompt.FindAllIndex(p, -1))
	w.cond.Broadcast()
	return len(p), nil
}

func (w *watch) prompts() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n
}

// next waits for the prompt after the n'th and returns (and forgets) what
// was printed before it.
func (w *watch) next(n int) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.n <= n {
		w.cond.Wait()
	}
	s := w.buf.String()
	w.buf.Reset()
	if ms := prompt.FindAllStringIndex(s, -1); len(ms) > 0 && ms[len(ms)-1][1] == len(s) {
		s = s[:ms[len(ms)-1][0]]
	}
	return s
}

func write(t *testing.T, path, src string) {
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sample is the process's memory and goroutines at one moment.
type sample struct {
	live       int64 // heap bytes after a collection
	rss, hwm   int64 // VmRSS, VmHWM
	rssFreed   int64 // VmRSS after the runtime gave free memory back
	goMapped   int64 // memory the Go runtime holds from the OS (the rest of VmRSS is C: OpenCL)
	goroutines int
	libs       int   // PoCL's kernel libraries mapped in the process
	pooled     int64 // bytes of released device buffers the device keeps (host memory on a CPU device)
}

func (s sample) String() string {
	return fmt.Sprintf("live heap %4d MiB, VmRSS %5d MiB (%4d MiB after freeing, %4d MiB of it Go's), VmHWM %5d MiB, %d goroutines, %d kernel libraries, %d MiB pooled",
		s.live>>20, s.rss>>20, s.rssFreed>>20, s.goMapped>>20, s.hwm>>20, s.goroutines, s.libs, s.pooled>>20)
}

// opened: the session has opened the OpenCL device (measure asks it
// what it keeps only then, never opening it itself)
var opened bool

func measure() sample {
	runtime.GC()
	var s sample
	m := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(m)
	s.live = int64(m[0].Value.Uint64())
	s.rss, s.hwm = procmem.Status("VmRSS:"), procmem.Status("VmHWM:")
	debug.FreeOSMemory()
	cl.TrimHostMemory() // what OpenCL freed, in the C allocator's heaps
	s.rssFreed = procmem.Status("VmRSS:")
	m = []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(m)
	s.goMapped = int64(m[0].Value.Uint64() - m[1].Value.Uint64())
	s.goroutines = runtime.NumGoroutine()
	s.libs = procmem.KernelLibraries()
	if opened {
		if d, err := session.OffloadDevice(); err == nil {
			_, s.pooled = d.Pooled()
		}
	}
	return s
}
