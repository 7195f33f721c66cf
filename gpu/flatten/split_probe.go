package flatten

import (
	"fmt"
	"os"
	"time"
)

// Whether a split pays. Splitting has costs of its own (chunks handed to
// the devices, partial results combined, more launches), which a short
// nest does not repay: on two H100s a histogram of 2^27 i32 took 0.630
// ms split and 0.233 ms on one device, where blackscholes of 2^27 took
// 0.551 ms split and 1.040 on one. So a plan's split is measured against
// one device, once per split form (splitKey): after SplitProbeAfter
// split runs (the first, which builds the kernels, not counted), the
// next two runs take the first device alone (the first of them builds
// its kernels); if the second took less than SplitProbeMargin of the
// fastest split run, later runs stay on one device, and -v says why.

// SplitProbe turns the measurement on (FUT_SPLIT_PROBE=0 turns it
// off). Two H100s, fut bench, medians of 15 runs (matmul 7), two rounds,
// one device / split / split with the probe, ms: mandelbrot 8192² 1.463
// / 0.789 / 0.783 and 1.490 / 0.765 / 0.795; n-body 2^16 8.769 / 4.531
// / 4.534 and 8.824 / 4.513 / 4.533; matmul 8192² 26.178 / 13.329 /
// 13.548 and 26.207 / 13.404 / 13.430; blackscholes 2^27 1.053 / 0.554
// / 0.558 and 1.041 / 0.551 / 0.575 (all four kept the split); a
// histogram of 2^27 i32 0.212 / 0.251 / 0.205 and 0.201 / 0.236 / 0.211
// (back on one device). Its two runs on one device are among a
// benchmark's timed runs. The tests of split plans on tiny nests keep
// it off: one device wins there.
var SplitProbe = os.Getenv("FUT_SPLIT_PROBE") != "0"

// SplitProbeAfter is how many measured split runs come before the probe.
var SplitProbeAfter = 3

// SplitProbeMargin: one device is chosen only when it took less than
// this share of the split's time (noise must not move a nest that the
// split serves to one device).
const SplitProbeMargin = 0.9

type splitProbe struct {
	splitRuns int           // split runs, the first included
	best      time.Duration // the fastest split run after the first
	oneRuns   int           // probe runs on one device
	done      bool          // decided (or given up: a probe run failed)
	single    bool          // decided for one device
	why       string
}

// probeSingle says whether this run takes one device, and why: the
// split was measured not to pay, or this run is a probe.
func (p *Plan) probeSingle() (bool, string) {
	p.chunkMu.Lock()
	defer p.chunkMu.Unlock()
	pr := &p.probe
	switch {
	case pr.single:
		return true, pr.why
	case !SplitProbe || pr.done || pr.splitRuns <= SplitProbeAfter:
		return false, ""
	}
	return true, fmt.Sprintf("measuring one device against the split (run %d of 2)", pr.oneRuns+1)
}

// noteSplit counts a split run that took wall.
func (p *Plan) noteSplit(wall time.Duration) {
	p.chunkMu.Lock()
	defer p.chunkMu.Unlock()
	pr := &p.probe
	pr.splitRuns++
	if pr.splitRuns > 1 && (pr.best == 0 || wall < pr.best) {
		pr.best = wall
	}
}

// noteOne counts a run on one device that took wall (err: it failed),
// and decides after the second.
func (p *Plan) noteOne(wall time.Duration, err error) {
	p.chunkMu.Lock()
	defer p.chunkMu.Unlock()
	pr := &p.probe
	if pr.single || pr.done {
		return
	}
	if err != nil {
		pr.done = true // split, as before
		return
	}
	pr.oneRuns++
	if pr.oneRuns < 2 {
		return
	}
	pr.done = true
	if float64(wall) < SplitProbeMargin*float64(pr.best) {
		pr.single = true
		pr.why = fmt.Sprintf("one device took %.3f ms, the split %.3f ms (measured)", ms(wall), ms(pr.best))
	}
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
