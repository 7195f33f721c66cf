package flatten

import (
	"os"
	"time"
)

// Balance by measured speed. A split whose chunks each take less than
// SplitChunkTime ends up with one chunk per device (adapt), and equal
// chunks balance only as far as the devices are equally fast and the
// nest's rows equally costly: mandelbrot's halves mirror each other, but
// the second device's launch is queued 20–60 µs after the first's (two
// H100s, FUT_SPLIT_TRACE), and an uneven nest would not mirror at all.
// So, after each run of one pass, rebalance moves the bounds of the
// devices' chunks towards lengths in proportion to the speeds it
// measured (rows over the time each device's part ended at, averaged
// over runs), where the devices' ends differ by more than balanceSlack.
// Its fixed point is the bounds at which the devices end together.
// Bounds move by whole quanta (a 256th of the rows, and a multiple of
// what views of resident arrays start at), at most maxRebalances times
// a split, and each new length is flattened before the bounds are
// taken, so that a run never meets a chunk without a plan. Its kernels
// are built at the run that first uses them, whose ends are not taken
// for the devices' speeds: taken, a build of 0.1 s made one device look
// a hundred times slower, and the bounds ran off to one side (two
// H200s, mandelbrot 8192²: 1.34–1.52 ms against 0.83–0.85 unbalanced).

// balance is one chunk per device: device k's is rows cuts[k] to
// cuts[k+1], run by plans[k].
type balance struct {
	cuts  []int64
	plans []*Plan
}

// maxRebalances bounds the new lengths (and kernels) a split takes;
// balanceQuanta is the rows' division into the steps bounds move by.
const (
	maxRebalances = 4
	balanceQuanta = 256
	balanceSlack  = 0.02
)

// SplitBalance turns rebalance on (FUT_SPLIT_BALANCE=off: off, to
// compare).
var SplitBalance = os.Getenv("FUT_SPLIT_BALANCE") != "off"

// SplitEnds, where not nil, replaces the ends of the devices' parts
// (of rows each) that a run measured, for rebalance: tests make devices
// of other speeds with it.
var SplitEnds func(rows []int64, ends []time.Duration) []time.Duration

// rebalance sets sp's bounds after a run that went as si says.
func (p *Plan) rebalance(sp *splitting, si SplitInfo) {
	p.chunkMu.Lock()
	defer p.chunkMu.Unlock()
	if !SplitBalance || p.split != sp || sp.runs < 2 || sp.rebalances >= maxRebalances || len(si.Ends) != sp.ndev || len(sp.c.Scans()) > 0 {
		return
	}
	if sp.moved {
		// the first run of new bounds builds their kernels (and makes
		// buffers of their sizes): its ends say nothing of the devices
		sp.moved = false
		return
	}
	n := sp.c.N
	cur := sp.bal.Load()
	var cuts []int64
	if cur != nil {
		cuts = cur.cuts
	} else {
		if sp.length <= 0 || (n+sp.length-1)/sp.length != int64(sp.ndev) {
			return // not one chunk per device
		}
		for k := 0; k <= sp.ndev; k++ {
			cuts = append(cuts, min(int64(k)*sp.length, n))
		}
	}
	if len(sp.rates) != sp.ndev {
		sp.rates = make([]float64, sp.ndev)
	}
	rows := make([]int64, sp.ndev)
	for k := range rows {
		rows[k] = cuts[k+1] - cuts[k]
	}
	ends := si.Ends
	if SplitEnds != nil {
		ends = SplitEnds(rows, ends)
	}
	// devices that end within balanceSlack of each other stay as they are
	var lo, hi time.Duration
	for k, end := range ends {
		if end <= 0 {
			return
		}
		if k == 0 || end < lo {
			lo = end
		}
		hi = max(hi, end)
	}
	if float64(hi-lo) <= balanceSlack*float64(hi) {
		return
	}
	total := 0.0
	for k, end := range ends {
		rate := float64(rows[k]) / float64(end/time.Nanosecond)
		if sp.rates[k] > 0 {
			rate = (sp.rates[k] + rate) / 2
		}
		sp.rates[k] = rate
		total += rate
	}
	q := max(sp.align, (n+balanceQuanta-1)/balanceQuanta)
	q = (q + sp.align - 1) / sp.align * sp.align
	if n < int64(sp.ndev)*q {
		return
	}
	next := make([]int64, sp.ndev+1)
	next[sp.ndev] = n
	acc := 0.0
	moved := false
	for k := 1; k < sp.ndev; k++ {
		acc += sp.rates[k-1]
		c := int64(float64(n)*acc/total/float64(q)+0.5) * q
		hi := (n - int64(sp.ndev-k)*q) / q * q // room for a quantum each after
		c = min(max(c, next[k-1]+q), hi)
		if c <= next[k-1] {
			return
		}
		next[k] = c
		moved = moved || c != cuts[k]
	}
	if !moved {
		return
	}
	b := &balance{cuts: next}
	byLen := map[int64]*Plan{sp.length: sp.full}
	if sp.last != nil {
		byLen[n%sp.length] = sp.last
	}
	if cur != nil {
		for k, q := range cur.plans {
			byLen[cur.cuts[k+1]-cur.cuts[k]] = q
		}
	}
	for k := 0; k < sp.ndev; k++ {
		l := next[k+1] - next[k]
		q := byLen[l]
		if q == nil {
			var err error
			if q, err = Flatten(sp.c.Chunk(l)); err != nil {
				return // keep the bounds as they are
			}
			byLen[l] = q
		}
		b.plans = append(b.plans, q)
	}
	sp.rebalances++
	sp.moved = true
	sp.bal.Store(b)
}
