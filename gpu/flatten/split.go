package flatten

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fut/eval/value"
	"fut/gpu/runtime"
	"fut/interp/ir"
)

// Split across devices (--devices). A plan whose top level is one SOAC
// (what ir.ChunkableSplit accepts) runs on several devices by the
// rewrites of Svensson et al. ("Converting data-parallelism to
// task-parallelism by rewrites"), over the chunks of the chunked runner:
// the outer dimension is cut into chunks, many more than devices, and
// each device takes the next chunk when it has finished its last (work
// is not halved in advance, so an uneven nest such as mandelbrot keeps
// every device busy). What a chunk produces is combined as the chunked
// runner combines it, but in the order of the chunks, not of their
// completion:
//
//   - a map's rows go to their place in the results (a range of the
//     outer dimension per chunk); an array the nest also reads whole
//     (an all-pairs nest: n-body's bodies, matmul's other operand) is on
//     every device whole, only the mapped one is cut;
//   - a reduction's partial results (one per chunk) are combined by its
//     operator in chunk order;
//   - a scan runs twice: once per chunk from the neutral element, whose
//     last values, combined in order, are each chunk's carry; then per
//     chunk from its carry (the chunk program applies it);
//   - a filter's kept elements and counts are joined in chunk order
//     (each chunk's offset is the counts before it);
//   - a histogram is made on every device from its chunks, the first
//     device's starting from the destination and the others' from the
//     operator's neutral element, and the partial histograms are combined
//     elementwise by the operator;
//   - a scatter's destination is partitioned by rows: each device takes
//     a part and passes every element over it (ir.Chunks.ChunkDest),
//     so that writes stay in the order of the elements.
//
// Everything else (a plan with no such SOAC, one too small to be worth
// cutting, a histogram whose operator works on arrays) runs on the first
// device, and Stats.Split says why.

// SplitMin is the least outer width a nest is split at (the chunks of a
// narrower one are too small to pay for their launches); FUT_SPLIT_MIN
// sets it (tests split tiny nests with 1).
var SplitMin int64 = 256

// ChunksPerDevice is how many chunks a split cuts per device: enough that
// a device finishing early takes more, few enough that each fills it.
const ChunksPerDevice = 8

func init() {
	if s := os.Getenv("FUT_SPLIT_MIN"); s != "" {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil && n > 0 {
			SplitMin = n
		}
	}
}

// splitting is a plan's split form for a number of devices.
type splitting struct {
	ndev       int
	budget     int64
	c          *ir.Chunks
	length     int64
	full, last *Plan
	init       *Plan
	finish     *ir.Prog
	kind       string
	// a histogram's: the neutral destination of the devices after the
	// first, and the elementwise combination of two partial histograms
	neutral *ir.Prog
	combine *ir.Prog
	// a scatter's: the destination in parts, one per device
	dest *chunking
}

// Split says how a run of the plan on devs would be split, or why it
// would run on the first device alone.
func (p *Plan) Split(devs []*runtime.Device, args []value.Value) string {
	sp, why := p.splitFor(devs, args)
	if sp == nil {
		return "not split (runs on one device): " + why
	}
	return sp.describe()
}

// Splits says whether a run of the plan on devs is split across them
// (its arguments then go to the devices a chunk at a time, and Upload's
// resident copies on the first device are not used).
func (p *Plan) Splits(devs []*runtime.Device, args []value.Value) bool {
	sp, _ := p.splitFor(devs, args)
	return sp != nil
}

func (sp *splitting) describe() string {
	if sp.dest != nil {
		return fmt.Sprintf("split across %d devices: a scatter's destination in %d parts of %d rows, each device passing all %d elements over its part",
			sp.ndev, (sp.dest.destM+sp.dest.destLen-1)/sp.dest.destLen, sp.dest.destLen, sp.c.N)
	}
	n := (sp.c.N + sp.length - 1) / sp.length
	s := fmt.Sprintf("split across %d devices: %s by ranges of the outer dimension, %d chunks of %d of its %d, taken by the devices as they finish",
		sp.ndev, sp.kind, n, sp.length, sp.c.N)
	if len(sp.c.Whole) > 0 {
		var names []string
		for _, w := range sp.c.Whole {
			names = append(names, sp.c.Prog.Params[w.Param].Name)
		}
		s += "; " + strings.Join(names, ", ") + " whole on every device"
	}
	return s
}

// splitFor makes (once per number of devices and budget) the split form
// of the plan, or says why there is none.
func (p *Plan) splitFor(devs []*runtime.Device, args []value.Value) (*splitting, string) {
	if len(devs) < 2 {
		return nil, "one device"
	}
	budget := devs[0].Budget()
	for _, d := range devs[1:] {
		budget = min(budget, d.Budget())
	}
	// the scalar parameters' values (a width may be one), which the
	// split is made for
	sizes := map[string]int64{}
	key := fmt.Sprintf("%d %d", len(devs), budget)
	for i, prm := range p.Prog.Params {
		if x, ok := args[i].(value.Prim); ok && prm.T.Rank() == 0 && x.T.IsInt() {
			sizes[prm.Name] = x.AsInt64()
			key += fmt.Sprintf(" %d", x.AsInt64())
		}
	}
	p.chunkMu.Lock()
	defer p.chunkMu.Unlock()
	if p.splitKey == key {
		return p.split, p.splitWhy
	}
	sp, why := p.makeSplit(len(devs), budget, devs[0].MaxAlloc(), args, sizes)
	p.split, p.splitWhy, p.splitKey = sp, why, key
	return sp, why
}

func (p *Plan) makeSplit(ndev int, budget, maxAlloc int64, args []value.Value, sizes map[string]int64) (*splitting, string) {
	src := p.src
	if src == nil {
		src = p.Prog
	}
	c, err := ir.ChunkableSplit(src, sizes)
	if err != nil {
		return nil, "the nest is not cut by its outer dimension: " + err.Error()
	}
	if c.N < SplitMin {
		return nil, fmt.Sprintf("its outer width %d is below the split threshold %d", c.N, SplitMin)
	}
	_, fixed, perElem, _ := footprint(p.Prog, args, c.N)
	for i, prm := range p.Prog.Params {
		if c.Streamed[i] {
			_, _, pe, _ := footprint(&ir.Prog{Params: []ir.Param{prm}, Body: &ir.Body{}}, args[i:i+1], c.N)
			perElem += pe // double buffered
		}
	}
	for _, w := range c.Whole {
		_, _, pe, _ := footprint(&ir.Prog{Params: []ir.Param{p.Prog.Params[w.Param]}, Body: &ir.Body{}}, args[w.Param:w.Param+1], c.N)
		fixed += pe * c.N
	}
	room := budget - fixed
	if room <= 0 || (perElem > 0 && room < perElem) {
		return nil, fmt.Sprintf("what every device holds whole (%s) leaves no room in the budget (%s)", runtime.FormatBytes(fixed), runtime.FormatBytes(budget))
	}
	length := (c.N + int64(ndev*ChunksPerDevice) - 1) / int64(ndev*ChunksPerDevice)
	if perElem > 0 {
		length = min(length, room/perElem, maxAlloc/max(1, perElem/2))
	}
	length = max(length, 1)
	sp := &splitting{ndev: ndev, budget: budget, c: c, length: length, finish: c.Finish()}
	switch e := c.Soac.E.(type) {
	case *ir.ScatterE:
		// the destination in one part per device, every element passing
		// over each part
		sp.kind = "scatter"
		if len(c.Whole) > 0 {
			return nil, "a scatter that reads its input whole"
		}
		t := c.DestType()
		if t.Rank() == 0 || !t.Shape[0].IsConst() {
			return nil, "the scatter's destination has no known size"
		}
		m := t.Shape[0].Val.AsInt64()
		if m < int64(ndev) {
			return nil, "the scatter's destination has fewer rows than devices"
		}
		ch := &chunking{c: c, length: min(c.N, max(1, room/max(1, perElem))), destM: m, destLen: (m + int64(ndev) - 1) / int64(ndev), finish: sp.finish}
		for di, dl := range []int64{ch.destLen, m % ch.destLen} {
			for si, sl := range []int64{ch.length, c.N % ch.length} {
				if dl == 0 || sl == 0 {
					continue
				}
				q := c.ChunkDest(sl, dl)
				if q == nil {
					return nil, "the scatter's indices are not i64"
				}
				if ch.destPlans[di][si], err = Flatten(q); err != nil {
					return nil, "its chunk is not flattened: " + err.Error()
				}
			}
		}
		sp.dest = ch
		return sp, ""
	case *ir.HistE:
		sp.kind = "histogram"
		t := c.DestType()
		lam := e.Op.Lam
		if len(e.Op.Nes) != 1 || len(lam.Params) != 2 || lam.Params[0].T.Rank() != 0 || t.Rank() == 0 || !e.Op.Nes[0].IsConst() {
			return nil, "the histogram's operator is not on scalars with a constant neutral element"
		}
		for _, d := range t.Shape {
			if !d.IsConst() {
				return nil, "the histogram's destination has no known size"
			}
		}
		sp.neutral, sp.combine = histNeutral(t, e.Op.Nes[0]), histCombine(t, lam)
	case *ir.FilterE:
		sp.kind = "filter"
	case *ir.StreamE:
		sp.kind = "stream"
	case *ir.ScremaE:
		var parts []string
		if len(e.Scans) > 0 {
			parts = append(parts, "scan")
		}
		if len(e.Reds) > 0 {
			parts = append(parts, "reduce")
		}
		if len(parts) == 0 || len(c.Soac.Pat) > len(c.Scans())+len(c.Reds()) {
			parts = append(parts, "map")
		}
		sp.kind = strings.Join(parts, "+")
	}
	if sp.full, err = Flatten(c.Chunk(length)); err != nil {
		return nil, "its chunk is not flattened: " + err.Error()
	}
	if rest := c.N % length; rest != 0 {
		if sp.last, err = Flatten(c.Chunk(rest)); err != nil {
			return nil, "its last chunk is not flattened: " + err.Error()
		}
	}
	if ip := c.Init(); ip != nil {
		if sp.init, err = flattenInit(ip); err != nil {
			return nil, "its destination is not made on the device: " + err.Error()
		}
	}
	return sp, ""
}

// histNeutral is the program that makes a destination of type t filled
// with ne.
func histNeutral(t ir.Type, ne ir.Atom) *ir.Prog {
	var stms []*ir.Stm
	x := ne
	for i := t.Rank() - 1; i >= 0; i-- {
		u := ir.Type{Elem: t.Elem, Shape: t.Shape[i:]}
		name := "neutral_" + strconv.Itoa(i)
		stms = append(stms, &ir.Stm{Pat: []ir.Param{{Name: name, T: u}}, E: &ir.ReplicateE{N: t.Shape[i], X: x}})
		x = ir.V(name)
	}
	return &ir.Prog{Ret: []ir.Type{t}, Body: &ir.Body{Stms: stms, Res: []ir.Atom{x}}}
}

// histCombine is the program that combines two partial histograms of
// type t elementwise by the operator lam (of two scalars).
func histCombine(t ir.Type, lam *ir.Lambda) *ir.Prog {
	a, b := ir.Param{Name: "hist_a", T: t}, ir.Param{Name: "hist_b", T: t}
	flat := int64(1)
	for _, d := range t.Shape {
		flat *= d.Val.AsInt64()
	}
	ft := ir.Type{Elem: t.Elem, Shape: []ir.Atom{ir.I64(flat)}}
	fa, fb, out := ir.Param{Name: "hist_fa", T: ft}, ir.Param{Name: "hist_fb", T: ft}, ir.Param{Name: "hist_out", T: ft}
	res := ir.Param{Name: "hist_res", T: t}
	stms := []*ir.Stm{
		{Pat: []ir.Param{fa}, E: &ir.ReshapeE{Arr: a.Name, Shape: ft.Shape}},
		{Pat: []ir.Param{fb}, E: &ir.ReshapeE{Arr: b.Name, Shape: ft.Shape}},
		{Pat: []ir.Param{out}, E: &ir.ScremaE{W: ir.I64(flat), Arrs: []string{fa.Name, fb.Name}, Map: lam}},
		{Pat: []ir.Param{res}, E: &ir.ReshapeE{Arr: out.Name, Shape: t.Shape}},
	}
	return &ir.Prog{Params: []ir.Param{a, b}, Ret: []ir.Type{t}, Body: &ir.Body{Stms: stms, Res: []ir.Atom{ir.V(res.Name)}}}
}

// SplitInfo says how a run went across devices (zero Devices: it did
// not split; Why says why, when several were given).
type SplitInfo struct {
	Devices int
	Plan    string // the split's description
	Chunks  []int  // chunks (or a scatter's parts) each device took
	Why     string
	Wall    time.Duration
}

func (si SplitInfo) String() string {
	if si.Devices == 0 {
		if si.Why == "" {
			return ""
		}
		return "not split (ran on one device): " + si.Why
	}
	var per []string
	for i, n := range si.Chunks {
		per = append(per, fmt.Sprintf("device %d: %d", i, n))
	}
	return fmt.Sprintf("%s (%s) in %.3f s", si.Plan, strings.Join(per, ", "), si.Wall.Seconds())
}

// RunSplit is RunOn on a set of devices: the plan is split across them
// where it can be (Stats.Split says how), and runs on the first with the
// resident arguments where it cannot. Results split across devices come
// back to the host.
func (p *Plan) RunSplit(ctx context.Context, devs []*runtime.Device, args []value.Value, resident []*runtime.Array, keep bool) (*Results, Stats, error) {
	if len(devs) == 0 {
		return nil, Stats{}, fmt.Errorf("flatten: no device")
	}
	if len(args) != len(p.Prog.Params) {
		return nil, Stats{}, fmt.Errorf("flatten: %d arguments for %d parameters", len(args), len(p.Prog.Params))
	}
	sp, why := p.splitFor(devs, args)
	if sp == nil {
		res, st, err := p.RunOn(ctx, devs[0], args, resident, keep)
		if len(devs) > 1 {
			st.Split.Why = why
		}
		return res, st, err
	}
	if sp.dest != nil {
		return p.runSplitScatter(ctx, devs, sp, args)
	}
	return p.runSplit(ctx, devs, sp, args)
}

// worker is one device's part of a split run.
type worker struct {
	r      *runner
	pf     *prefetcher
	chunks int
}

// splitRun is the state of a split run that its devices share.
type splitRun struct {
	p        *Plan
	sp       *splitting
	args     []value.Value
	streamed map[string]int
	nChunks  int
	next     atomic.Int64
	mu       sync.Mutex // errs, whole's allocation
	errAt    int
	err      error
	workers  []*worker
}

func (s *splitRun) fail(k int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	// the error of the first chunk in order is the one the one-device run
	// would have met
	if s.err == nil || k < s.errAt {
		s.err, s.errAt = err, k
	}
}

// each runs the chunk programs on every device, the devices taking
// chunks as they finish: before(w, i) binds what device i's runner holds
// across chunks, carry(k) is chunk k's scan carries, after(w, k, plan,
// off, n) takes chunk k's results before its arrays are freed (and names
// the device arrays that carry on in keep).
func (s *splitRun) each(ctx context.Context,
	before func(w *worker, i int) error,
	carry func(k int) []value.Value,
	after func(w *worker, k int, plan *Plan, off, n int64, keep map[*runtime.Array]bool) error) {
	c, sp := s.sp.c, s.sp
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.next.Store(0)
	take := func() (int, bool) {
		k := int(s.next.Add(1) - 1)
		return k, k < s.nChunks && ctx.Err() == nil
	}
	plans := func(k int) (*Plan, int64, int64) {
		off := int64(k) * sp.length
		if off+sp.length <= c.N {
			return sp.full, off, sp.length
		}
		return sp.last, off, c.N - off
	}
	var wg sync.WaitGroup
	for i, w := range s.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := before(w, i); err != nil {
				s.fail(-1, err)
				cancel()
				return
			}
			k, ok := take()
			if !ok {
				return
			}
			plan, off, n := plans(k)
			w.pf.start(off, chunkArgs(plan, off, n, s.streamed, s.args))
			for ok {
				inputs, err := w.pf.wait(off)
				if err != nil {
					s.fail(k, err)
					cancel()
					return
				}
				// the next chunk is taken now, its upload overlapping this one
				nk, nok := take()
				var nplan *Plan
				var noff, nn int64
				if nok {
					nplan, noff, nn = plans(nk)
					w.pf.start(noff, chunkArgs(nplan, noff, nn, s.streamed, s.args))
				}
				if err := s.chunk(ctx, w, k, plan, off, n, inputs, carry, after); err != nil {
					s.fail(k, err)
					cancel()
					return
				}
				w.chunks++
				k, ok, plan, off, n = nk, nok, nplan, noff, nn
			}
		}()
	}
	wg.Wait()
}

// chunk runs chunk k on w's device.
func (s *splitRun) chunk(ctx context.Context, w *worker, k int, plan *Plan, off, n int64, inputs []*runtime.Array,
	carry func(k int) []value.Value,
	after func(w *worker, k int, plan *Plan, off, n int64, keep map[*runtime.Array]bool) error) error {
	r, c := w.r, s.sp.c
	defer w.pf.put(inputs)
	nOwned, nUploads := len(r.owned), len(r.uploads)
	chunkSlots, extra := r.bindChunk(c, plan, len(s.p.Prog.Params), off, n, s.streamed, s.args, inputs)
	if cs := carry(k); len(cs) > 0 {
		for j, prm := range extra[:len(cs)] {
			r.env[prm.Name] = &slot{host: cs[j]}
		}
	}
	if err := r.steps(ctx, plan.Steps); err != nil {
		return err
	}
	keep := map[*runtime.Array]bool{}
	for _, wa := range c.Whole {
		if sl := r.env[wa.Name]; sl != nil && sl.dev != nil {
			keep[sl.dev] = true
		}
	}
	if err := after(w, k, plan, off, n, keep); err != nil {
		return err
	}
	r.endChunk(s.p.Prog.Params, c.Streamed, keep, nOwned, nUploads, chunkSlots)
	return nil
}

func (p *Plan) newSplitRun(devs []*runtime.Device, sp *splitting, args []value.Value) *splitRun {
	s := &splitRun{p: p, sp: sp, args: args, streamed: map[string]int{}}
	if sp.length > 0 {
		s.nChunks = int((sp.c.N + sp.length - 1) / sp.length)
	}
	for i, prm := range p.Prog.Params {
		if sp.c.Streamed[i] {
			s.streamed[prm.Name] = i
		}
	}
	for _, d := range devs {
		r := &runner{d: d, env: map[string]*slot{}, syncChecks: true, wholeMu: &s.mu}
		for i, prm := range p.Prog.Params {
			if !sp.c.Streamed[i] {
				r.env[prm.Name] = &slot{host: args[i]}
			}
		}
		for _, wa := range sp.c.Whole {
			r.env[wa.Name] = &slot{host: args[wa.Param]}
		}
		s.workers = append(s.workers, &worker{r: r, pf: newPrefetcher(d)})
	}
	return s
}

// release frees what the workers hold, and gathers their stats.
func (s *splitRun) release(st *Stats) {
	for _, w := range s.workers {
		w.pf.close()
		for _, a := range append(w.r.owned, w.r.uploads...) {
			a.Release()
		}
		w.r.owned, w.r.uploads = nil, nil
		st.Launches = append(st.Launches, w.r.stats.Launches...)
		st.Uploads += w.r.stats.Uploads
		st.Downloads += w.r.stats.Downloads
	}
}

func (s *splitRun) info(start time.Time) SplitInfo {
	si := SplitInfo{Devices: len(s.workers), Plan: s.sp.describe(), Wall: time.Since(start)}
	for _, w := range s.workers {
		si.Chunks = append(si.Chunks, w.chunks)
	}
	return si
}

// runSplit runs a map, reduction, scan, filter, stream or histogram
// split across devs.
func (p *Plan) runSplit(ctx context.Context, devs []*runtime.Device, sp *splitting, args []value.Value) (res *Results, st Stats, err error) {
	start := time.Now()
	c := sp.c
	s := p.newSplitRun(devs, sp, args)
	defer s.release(&st)
	scans, reds := c.Scans(), c.Reds()
	nScan := 0
	for _, op := range scans {
		nScan += len(op.Nes)
	}
	pat := c.Soac.Pat
	whole := make([]value.Value, len(pat))
	type chunkOut struct {
		reds   [][]value.Value
		lasts  []value.Value // a scan's last values
		count  int64
		pieces []*value.Array // a filter's arrays
	}
	outs := make([]chunkOut, s.nChunks)
	noBefore := func(*worker, int) error { return nil }
	// a scan's carries: its chunks run from the neutral element first, and
	// the last values of those before each chunk, combined in order, are
	// its carry
	carries := make([][]value.Value, s.nChunks)
	if nScan > 0 {
		var ne []value.Value
		for _, op := range scans {
			for _, a := range op.Nes {
				ne = append(ne, a.Val)
			}
		}
		s.each(ctx, noBefore, func(int) []value.Value { return ne },
			func(w *worker, k int, plan *Plan, off, n int64, keep map[*runtime.Array]bool) error {
				res := plan.Prog.Body.Res
				for ri := 0; ri < nScan; ri++ {
					v, err := w.r.elemAt(res[ri].Name, n-1)
					if err != nil {
						return err
					}
					outs[k].lasts = append(outs[k].lasts, v)
				}
				return nil
			})
		if s.err != nil {
			return nil, st, s.err
		}
		carries[0] = ne
		for k := 1; k < s.nChunks; k++ {
			var next []value.Value
			at := 0
			for _, op := range scans {
				m := len(op.Nes)
				xs, err := ir.Combine(op, carries[k-1][at:at+m], outs[k-1].lasts[at:at+m])
				if err != nil {
					return nil, st, err
				}
				next = append(next, xs...)
				at += m
			}
			carries[k] = next
		}
	}
	// a histogram: the first device's destination is the real one, the
	// others' start from the neutral element
	dests := make([]*slot, len(devs))
	before := noBefore
	if _, ok := c.Soac.E.(*ir.HistE); ok {
		before = func(w *worker, i int) error {
			r := w.r
			if i > 0 {
				vs, err := ir.EvalAll(ctx, sp.neutral, nil)
				if err != nil {
					return err
				}
				r.env[c.Dest] = &slot{host: vs[0]}
				return nil
			}
			if sp.init == nil {
				return nil
			}
			ini := &runner{d: r.d, env: map[string]*slot{}, syncChecks: true}
			for j, prm := range sp.init.Prog.Params {
				ini.env[prm.Name] = r.env[prm.Name]
				if ini.env[prm.Name] == nil {
					ini.env[prm.Name] = &slot{host: args[j]}
				}
			}
			err := ini.steps(ctx, sp.init.Steps)
			r.owned = append(r.owned, ini.owned...)
			r.uploads = append(r.uploads, ini.uploads...)
			r.stats.Launches = append(r.stats.Launches, ini.stats.Launches...)
			if err != nil {
				return err
			}
			d, err := ini.slot(sp.init.Prog.Body.Res[0].Name)
			if err != nil {
				return err
			}
			r.env[c.Dest] = d
			return nil
		}
	}
	s.each(ctx, before, func(k int) []value.Value { return carries[k] },
		func(w *worker, k int, plan *Plan, off, n int64, keep map[*runtime.Array]bool) error {
			r := w.r
			res := plan.Prog.Body.Res
			ri := 0
			for ; ri < nScan; ri++ {
				if _, err := r.into(&whole[ri], res[ri].Name, off, c.N); err != nil {
					return err
				}
			}
			for _, op := range reds {
				var xs []value.Value
				for range op.Nes {
					v, err := r.hostValue(res[ri].Name)
					if err != nil {
						return err
					}
					xs = append(xs, v)
					ri++
				}
				outs[k].reds = append(outs[k].reds, xs)
			}
			switch c.Soac.E.(type) {
			case *ir.FilterE:
				v, err := r.hostValue(res[0].Name)
				if err != nil {
					return err
				}
				outs[k].count = v.(value.Prim).AsInt64()
				for ri = 1; ri < len(res); ri++ {
					v, err := r.hostValue(res[ri].Name)
					if err != nil {
						return err
					}
					outs[k].pieces = append(outs[k].pieces, v.(*value.Array))
				}
				return nil
			case *ir.HistE:
				d, err := r.slot(res[0].Name)
				if err != nil {
					return err
				}
				r.env[c.Dest] = d
				if d.dev != nil {
					keep[d.dev] = true
				}
				return nil
			}
			for ; ri < len(res); ri++ { // a map's arrays
				if _, err := r.into(&whole[ri], res[ri].Name, off, c.N); err != nil {
					return err
				}
			}
			return nil
		})
	if s.err != nil {
		return nil, st, s.err
	}
	for i, w := range s.workers {
		if err := w.r.d.Flush(); err != nil { // the kernels' checks
			return nil, st, err
		}
		if _, ok := c.Soac.E.(*ir.HistE); ok {
			dests[i] = w.r.env[c.Dest]
		}
	}
	// the whole results, in the order of the chunks
	ri := nScan
	for j, op := range reds {
		acc := outs[0].reds[j]
		for k := 1; k < s.nChunks; k++ {
			if acc, err = ir.Combine(op, acc, outs[k].reds[j]); err != nil {
				return nil, st, err
			}
		}
		for _, x := range acc {
			whole[ri] = x
			ri++
		}
	}
	switch c.Soac.E.(type) {
	case *ir.FilterE:
		var count int64
		for k := range outs {
			count += outs[k].count
		}
		whole[0] = value.I64Val(count)
		for ri = 1; ri < len(pat); ri++ {
			var ps []*value.Array
			for k := range outs {
				ps = append(ps, outs[k].pieces[ri-1])
			}
			a, err := value.Concat(ps)
			if err != nil {
				return nil, st, err
			}
			whole[ri] = a
		}
	case *ir.HistE:
		if whole[0], err = s.combineHists(ctx, devs[0], dests); err != nil {
			return nil, st, err
		}
	}
	fargs := whole
	for i := range p.Prog.Params {
		if !c.Streamed[i] {
			fargs = append(fargs, args[i])
		}
	}
	out, err := ir.EvalAll(ctx, sp.finish, fargs)
	if err != nil {
		return nil, st, err
	}
	st.Split = s.info(start)
	return &Results{host: out, dev: make([]*slot, len(out))}, st, nil
}

// elemAt reads element i of the array name (on the device or the host).
func (r *runner) elemAt(name string, i int64) (value.Value, error) {
	s, err := r.slot(name)
	if err != nil {
		return nil, err
	}
	if s.host != nil {
		return s.host.(*value.Array).Index(i), nil
	}
	t := runtime.PrimOf(s.dev.T)
	d := value.MakeData(t, 1)
	if err := s.dev.ReadAt(i, d); err != nil {
		return nil, err
	}
	return value.DataGet(t, d, 0), nil
}

// combineHists combines the devices' partial histograms by the operator,
// on dev (on the host if the combination does not run there).
func (s *splitRun) combineHists(ctx context.Context, dev *runtime.Device, dests []*slot) (value.Value, error) {
	var parts []value.Value
	for i, d := range dests {
		if d == nil {
			return nil, fmt.Errorf("flatten: device %d left no histogram", i)
		}
		r := &runner{d: s.workers[i].r.d, env: map[string]*slot{"h": d}}
		v, err := r.hostValue("h")
		if err != nil {
			return nil, err
		}
		parts = append(parts, v)
	}
	acc := parts[0]
	plan, ferr := Flatten(s.sp.combine)
	for _, x := range parts[1:] {
		var vs []value.Value
		err := ferr
		if err == nil {
			vs, _, err = plan.Run(ctx, dev, []value.Value{acc, x})
		}
		if err != nil {
			var err2 error
			if vs, err2 = ir.EvalAll(ctx, s.sp.combine, []value.Value{acc, x}); err2 != nil {
				return nil, errors.Join(err, err2)
			}
		}
		acc = vs[0]
	}
	if a, ok := acc.(*value.Array); ok {
		acc = a.Copy()
	}
	return acc, nil
}

// runSplitScatter runs a scatter split across devs: its destination in
// parts, each device taking a part as it finishes the last and passing
// every element over it.
func (p *Plan) runSplitScatter(ctx context.Context, devs []*runtime.Device, sp *splitting, args []value.Value) (res *Results, st Stats, err error) {
	start := time.Now()
	c, ch := sp.c, sp.dest
	s := p.newSplitRun(devs, sp, args)
	defer s.release(&st)
	var dest *value.Array
	for i, prm := range p.Prog.Params {
		if prm.Name == c.Dest && !c.Streamed[i] {
			a, ok := args[i].(*value.Array)
			if !ok {
				return nil, st, fmt.Errorf("flatten: the destination %s is not an array", prm.Name)
			}
			dest = a.Copy()
			for _, w := range s.workers {
				delete(w.r.env, prm.Name)
			}
		}
	}
	if dest == nil { // made by the statements before the SOAC: on the host
		vs, err := ir.EvalAll(ctx, c.Init(), args)
		if err != nil {
			return nil, st, err
		}
		a, ok := vs[0].(*value.Array)
		if !ok {
			return nil, st, fmt.Errorf("flatten: the destination %s is not an array", c.Dest)
		}
		dest = a
	}
	nParts := int((ch.destM + ch.destLen - 1) / ch.destLen)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for _, w := range s.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				k := int(s.next.Add(1) - 1)
				if k >= nParts {
					return
				}
				if _, err := p.destPart(ctx, w.r, w.pf, ch, dest, int64(k)*ch.destLen, args); err != nil {
					s.fail(k, err)
					cancel()
					return
				}
				w.chunks++
			}
		}()
	}
	wg.Wait()
	if s.err != nil {
		return nil, st, s.err
	}
	fargs := []value.Value{dest}
	for i := range p.Prog.Params {
		if !c.Streamed[i] {
			fargs = append(fargs, args[i])
		}
	}
	out, err := ir.EvalAll(ctx, sp.finish, fargs)
	if err != nil {
		return nil, st, err
	}
	st.Split = s.info(start)
	return &Results{host: out, dev: make([]*slot, len(out))}, st, nil
}
