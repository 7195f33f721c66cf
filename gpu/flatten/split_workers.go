package flatten

import (
	"os"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Split runs hand each device's part to a worker of its own: the k-th
// device of a run to the k-th worker, a goroutine locked to its thread
// that polls for work for a while (spinFor) after each part before it
// sleeps, while the caller polls for the parts' end (for callerSpin,
// then it waits: a run of seconds does not hold a processor polling).
// Starting a goroutine per part and waking the caller at the end cost
// 5–25 µs and about 25 µs on two H100s, a part of a millisecond's run
// that the two devices save; polling threads also keep the driver's
// state of their thread warm from one call to the next. Alternating runs on two H100s
// (medians of 15, three rounds, one GPU against split on two):
// blackscholes 2^27 1.64× with goroutines against 1.73–1.77× with
// workers, mandelbrot 8192² 1.70–1.91× against 1.83–1.90×, n-body 2^16
// 1.79–1.81× against 1.82–1.84×.
//
// Jobs queue, so split runs from several goroutines at once share the
// workers; a part never waits for another part, so a queued part only
// waits its turn.

// SplitSpin chooses workers that poll (true) over a goroutine per part
// (false): by default where the machine has 8 or more processors, so
// that a poller never holds one that the devices' own threads (an
// OpenCL CPU device's) want; FUT_SPLIT_SPIN=1 or 0 chooses.
var SplitSpin = spinDefault()

func spinDefault() bool {
	switch os.Getenv("FUT_SPLIT_SPIN") {
	case "1":
		return true
	case "0":
		return false
	}
	return goruntime.NumCPU() >= 8
}

// splitCaller makes the caller run the first device's part itself, the
// workers the others' (with SplitSpin; FUT_SPLIT_CALLER=0: a worker
// each). Two H100s, mandelbrot 8192² split against one GPU, five
// alternating rounds in one lease (medians of 15): 0.771–0.785 ms
// (1.88–1.94×) against 0.788–0.815 ms (1.82–1.89×) with a worker for
// each device: the part no longer waits for a worker to see it.
var splitCaller = os.Getenv("FUT_SPLIT_CALLER") != "0"

// spinFor is how long a worker polls for its next part, callerSpin how
// long the caller polls for the end of a run's parts (longer than the
// split runs measured above take, 0.6 to 17 ms).
const (
	spinFor    = 2 * time.Millisecond
	callerSpin = 20 * time.Millisecond
)

type spinWorker struct {
	pending atomic.Int32 // jobs queued
	mu      sync.Mutex
	jobs    []func()
	parked  bool
	wake    chan struct{}
}

var (
	spinMu      sync.Mutex
	spinWorkers []*spinWorker // one per device position of the widest run so far
)

// spinWorkerAt is the worker of the k-th device of a run.
func spinWorkerAt(k int) *spinWorker {
	spinMu.Lock()
	defer spinMu.Unlock()
	for len(spinWorkers) <= k {
		w := &spinWorker{wake: make(chan struct{}, 1)}
		spinWorkers = append(spinWorkers, w)
		go w.loop()
	}
	return spinWorkers[k]
}

func (w *spinWorker) submit(f func()) {
	w.mu.Lock()
	w.jobs = append(w.jobs, f)
	w.pending.Add(1)
	parked := w.parked
	w.mu.Unlock()
	if parked {
		select {
		case w.wake <- struct{}{}:
		default:
		}
	}
}

func (w *spinWorker) loop() {
	goruntime.LockOSThread()
	deadline := time.Now().Add(spinFor)
	for {
		if w.pending.Load() == 0 {
			if time.Now().Before(deadline) {
				continue
			}
			w.mu.Lock()
			if len(w.jobs) == 0 {
				w.parked = true
				w.mu.Unlock()
				<-w.wake
				w.mu.Lock()
				w.parked = false
			}
			w.mu.Unlock()
			deadline = time.Now().Add(spinFor)
			continue
		}
		w.mu.Lock()
		f := w.jobs[0]
		w.jobs[0] = nil
		w.jobs = w.jobs[1:]
		w.pending.Add(-1)
		w.mu.Unlock()
		f()
		deadline = time.Now().Add(spinFor)
	}
}
