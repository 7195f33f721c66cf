package flatten

import (
	"context"
	"errors"
	"fmt"
	goruntime "runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"fut/eval/value"
	"fut/gpu/runtime"
	"fut/interp/ir"
)

// The split run (split.go says what it does): one worker per device,
// each with its runner and prefetcher, taking chunks from a shared
// counter; the results of the chunks are put together in their order.

// worker is one device's part of a split run.
type worker struct {
	r      *runner
	pf     *prefetcher
	chunks int
	res    []*runtime.Array // the arguments resident on the device (or nil)
	kept   map[*runtime.Array]bool
	marks  []traceMark // FUT_SPLIT_TRACE's
}

// inputs are the streamed arguments of plan's chunk at off of n
// elements on w's device: views of the resident arguments, or those the
// prefetcher uploaded.
func (w *worker) inputs(s *splitRun, plan *Plan, off, n int64) ([]*runtime.Array, error) {
	if w.res == nil {
		return w.pf.wait(off)
	}
	var out []*runtime.Array
	for _, prm := range plan.Prog.Params {
		if i, ok := s.streamed[prm.Name]; ok {
			v, err := w.res[i].Rows(off, off+n)
			if err != nil {
				w.pf.put(out)
				return nil, err
			}
			out = append(out, v)
		}
	}
	return out, nil
}

// prefetch starts the upload of a chunk's arguments (none when they are
// resident).
func (w *worker) prefetch(s *splitRun, plan *Plan, off, n int64) {
	if w.res == nil {
		w.pf.start(off, chunkArgs(plan, off, n, s.streamed, s.args))
	}
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
	// lasts: the chunks run the scan's first pass (sp.lastsFull, lastsLast)
	lasts bool
	// deferred: the kernels' checks are read once per device at the end
	// of each pass (not after each kernel), as in a one-device run; only
	// where every chunk's arguments are views of resident arrays (no
	// uploads on the transfer queue) and nothing is updated in place, so
	// that a failed run can be run again with checks after each kernel,
	// to report the first chunk's error as the one-device run would
	deferred bool
	t0       time.Time // the run's start, for FUT_SPLIT_TRACE
	marks    []traceMark
}

// errDeferred is a failure that a deferred check found.
type errDeferred struct{ err error }

func (e *errDeferred) Error() string { return e.err.Error() }
func (e *errDeferred) Unwrap() error { return e.err }

func (s *splitRun) fail(k int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	// the error of the first chunk in order is the one the one-device run
	// would have met; a chunk stopped by another's failure says nothing
	switch canceled := errors.Is(err, context.Canceled); {
	case s.err == nil:
	case canceled:
		return
	case errors.Is(s.err, context.Canceled):
	case k >= s.errAt:
		return
	}
	s.err, s.errAt = err, k
}

// failedBefore reports whether a chunk before k has failed (chunk k need
// not run).
func (s *splitRun) failedBefore(k int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err != nil && s.errAt < k
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
	// each device's first chunk is its own (its index), so that no device
	// takes a second chunk ahead while another has none; the rest go to
	// the devices as they finish
	s.next.Store(int64(len(s.workers)))
	take := func() (int, bool) {
		k := int(s.next.Add(1) - 1)
		return k, k < s.nChunks && ctx.Err() == nil && !s.failedBefore(k)
	}
	full, last := sp.full, sp.last
	if s.lasts {
		full, last = sp.lastsFull, sp.lastsLast
	}
	plans := func(k int) (*Plan, int64, int64) {
		off := int64(k) * sp.length
		if off+sp.length <= c.N {
			return full, off, sp.length
		}
		return last, off, c.N - off
	}
	work := func(i int, w *worker) {
		w.mark(s, "start")
		defer w.mark(s, "done")
		if err := before(w, i); err != nil {
			s.fail(-1, err)
			cancel()
			return
		}
		if s.deferred {
			defer func() {
				w.mark(s, "flush")
				if err := w.r.d.Flush(); err != nil {
					s.fail(-1, &errDeferred{err})
					cancel()
				}
			}()
		}
		k, ok := i, i < s.nChunks && ctx.Err() == nil
		if !ok {
			return
		}
		plan, off, n := plans(k)
		w.prefetch(s, plan, off, n)
		// a chunk's failure stops the chunks after it, not those
		// before, whose error would be the one to report
		var prev *runtime.Marker // the end of the chunk before k
		defer func() {
			if prev != nil {
				prev.Release() // the pass's flush waits for the device
			}
		}()
		for ok && !s.failedBefore(k) {
			inputs, err := w.inputs(s, plan, off, n)
			if err != nil {
				s.fail(k, err)
				return
			}
			if s.deferred {
				// chunk k is queued behind the one before it: the
				// next is taken when that one is done, so that the
				// devices take chunks as they finish them, not as
				// fast as the host queues them, and each has one
				// queued ahead
				if err := s.chunk(ctx, w, k, plan, off, n, inputs, carry, after); err != nil {
					s.fail(k, &errDeferred{err}) // maybe an earlier chunk's check, read now
					return
				}
				w.mark(s, "queued")
				w.chunks++
				if s.next.Load() >= int64(s.nChunks) {
					break // none left to take: the pass's flush waits
				}
				m, err := w.r.d.Marker()
				if err != nil {
					s.fail(k, err)
					return
				}
				if prev != nil {
					if err := prev.Wait(); err != nil {
						prev = m
						s.fail(k, err)
						return
					}
				}
				prev = m
				k, ok = take()
				if ok {
					plan, off, n = plans(k)
				}
				continue
			}
			// the next chunk is taken now, its upload overlapping this one
			nk, nok := take()
			var nplan *Plan
			var noff, nn int64
			if nok {
				nplan, noff, nn = plans(nk)
				w.prefetch(s, nplan, noff, nn)
			}
			if err := s.chunk(ctx, w, k, plan, off, n, inputs, carry, after); err != nil {
				s.fail(k, err)
				return
			}
			w.chunks++
			k, ok, plan, off, n = nk, nok, nplan, noff, nn
		}
	}
	// with polling workers, the caller runs the first device's part
	// itself (splitCaller); with goroutines, every part has one of its
	// own: running the first on the calling goroutine made those split
	// runs slower on two H100s (alternating builds: blackscholes 2^27
	// 0.642–0.650 ms against 0.597–0.608, mandelbrot 8192² 0.995–1.056
	// against 0.973–1.014)
	if SplitSpin {
		// each device's part on its worker's thread (split_workers.go),
		// the caller polling for their end for callerSpin, then waiting
		var left atomic.Int32
		var wg sync.WaitGroup
		left.Store(int32(len(s.workers)))
		wg.Add(len(s.workers))
		for i, w := range s.workers {
			if i == 0 && splitCaller {
				continue
			}
			spinWorkerAt(i).submit(func() {
				defer wg.Done()
				defer left.Add(-1)
				work(i, w)
			})
		}
		s.mark("submitted")
		if splitCaller {
			work(0, s.workers[0])
			left.Add(-1)
			wg.Done()
		}
		for deadline := time.Now().Add(callerSpin); left.Load() > 0 && time.Now().Before(deadline); {
			goruntime.Gosched()
		}
		wg.Wait()
		s.mark("joined")
		return
	}
	var wg sync.WaitGroup
	for i, w := range s.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(i, w)
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
	w.mark(s, "bound")
	if err := r.steps(ctx, plan.Steps); err != nil {
		return err
	}
	w.mark(s, "launched")
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

func (p *Plan) newSplitRun(devs []*runtime.Device, sp *splitting, args []value.Value, resident [][]*runtime.Array) *splitRun {
	s := &splitRun{p: p, sp: sp, args: args, streamed: map[string]int{}}
	if sp.length > 0 {
		s.nChunks = int((sp.c.N + sp.length - 1) / sp.length)
	}
	for i, prm := range p.Prog.Params {
		if sp.c.Streamed[i] {
			s.streamed[prm.Name] = i
		}
	}
	for k, d := range devs {
		var res []*runtime.Array
		if k < len(resident) && len(resident[k]) == len(args) && sp.aligned {
			res = resident[k]
			for i := range args {
				if sp.c.Streamed[i] && res[i] == nil {
					res = nil // chunks from the host
					break
				}
			}
		}
		at := func(i int) *runtime.Array {
			if resident == nil || k >= len(resident) || len(resident[k]) != len(args) {
				return nil
			}
			return resident[k][i]
		}
		r := &runner{d: d, env: map[string]*slot{}, syncChecks: true, wholeMu: &s.mu}
		for i, prm := range p.Prog.Params {
			if !sp.c.Streamed[i] {
				r.env[prm.Name] = &slot{host: args[i], dev: at(i)}
			}
		}
		for _, wa := range sp.c.Whole {
			r.env[wa.Name] = &slot{host: args[wa.Param], dev: at(wa.Param)}
		}
		w := &worker{r: r, pf: newPrefetcher(d), res: res, kept: map[*runtime.Array]bool{}}
		if splitTrace {
			r.mark = func(what string) { w.mark(s, what) }
		}
		s.workers = append(s.workers, w)
	}
	return s
}

// deferChecks makes the run read the kernels' checks at the end of each
// pass where it can (see deferred).
func (s *splitRun) deferChecks() {
	switch s.sp.c.Soac.E.(type) {
	case *ir.ScremaE, *ir.FilterE:
	default:
		return // a histogram or scatter updates its destination in place
	}
	for _, w := range s.workers {
		if w.res == nil {
			return
		}
	}
	s.deferred = true
	for _, w := range s.workers {
		w.r.syncChecks, w.r.unchecked = false, true
	}
}

// release frees what the workers hold, and gathers their stats.
func (s *splitRun) release(st *Stats) {
	for _, w := range s.workers {
		w.pf.close()
		for _, a := range append(w.r.owned, w.r.uploads...) {
			if !w.kept[a] {
				a.Release()
			}
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
func (p *Plan) runSplit(ctx context.Context, devs []*runtime.Device, sp *splitting, args []value.Value, resident [][]*runtime.Array, keep bool) (*Results, Stats, error) {
	res, st, err := p.runSplitOnce(ctx, devs, sp, args, resident, keep, false)
	var de *errDeferred
	if errors.As(err, &de) {
		// a check failed: run again, checking each kernel as it runs, to
		// report the error of the first chunk that has one
		return p.runSplitOnce(ctx, devs, sp, args, resident, keep, true)
	}
	return res, st, err
}

func (p *Plan) runSplitOnce(ctx context.Context, devs []*runtime.Device, sp *splitting, args []value.Value, resident [][]*runtime.Array, keep, checked bool) (res *Results, st Stats, err error) {
	start := time.Now()
	c := sp.c
	s := p.newSplitRun(devs, sp, args, resident)
	s.t0 = start
	if splitTrace {
		defer s.trace()
	}
	if !checked {
		s.deferChecks()
	}
	// a map's results stay on the devices, in parts (ri: parts[ri])
	var onDev atomic.Bool
	onDev.Store(keep && sp.resultOf != nil)
	parts := make([][]part, len(c.Soac.Pat))
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
		// the first pass: each chunk's last values, by its reduction
		// (or its scan from the neutral element, read at its end)
		s.lasts = sp.lastsFull != nil
		first := func(int) []value.Value { return ne }
		if s.lasts {
			first = func(int) []value.Value { return nil }
		}
		s.each(ctx, noBefore, first,
			func(w *worker, k int, plan *Plan, off, n int64, keep map[*runtime.Array]bool) error {
				res := plan.Prog.Body.Res
				for ri := 0; ri < nScan; ri++ {
					var v value.Value
					var err error
					if s.lasts {
						v, err = w.r.hostValue(res[ri].Name)
					} else {
						v, err = w.r.elemAt(res[ri].Name, n-1)
					}
					if err != nil {
						return err
					}
					outs[k].lasts = append(outs[k].lasts, v)
				}
				return nil
			})
		s.lasts = false
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
			d, err := r.runInit(ctx, sp.init, args)
			if err != nil {
				return err
			}
			r.env[c.Dest] = d
			return nil
		}
	}
	s.mark("setup")
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
				if onDev.Load() {
					if d, err := r.slot(res[ri].Name); err == nil && d.host == nil && d.dev != nil && !d.f16 && !d.scalar && !s.isArg(r, d.dev) {
						keep[d.dev] = true
						w.kept[d.dev] = true
						s.mu.Lock()
						parts[ri] = append(parts[ri], part{off: off, a: d.dev})
						s.mu.Unlock()
						continue
					}
					// on the host, or an argument's array: the results
					// come back
					onDev.Store(false)
				}
				if _, err := r.into(&whole[ri], res[ri].Name, off, c.N); err != nil {
					return err
				}
			}
			return nil
		})
	// what stays on the devices is theirs to release unless the results
	// take it
	defer func() {
		if res == nil || res.split == nil {
			for _, w := range s.workers {
				for a := range w.kept {
					a.Release()
				}
			}
		}
	}()
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
	s.mark("flushed")
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
	if onDev.Load() {
		// every row of every result is in a part on some device
		out := &Results{host: make([]value.Value, len(sp.resultOf)), dev: make([]*slot, len(sp.resultOf)), split: make([][]part, len(sp.resultOf))}
		for i, j := range sp.resultOf {
			ps := append([]part{}, parts[j]...)
			sort.Slice(ps, func(a, b int) bool { return ps[a].off < ps[b].off })
			out.split[i] = ps
		}
		out.n = c.N
		st.Split = s.info(start)
		return out, st, nil
	}
	// a part some result left on a device, when another came back: all
	// come back
	for ri, ps := range parts {
		for _, pt := range ps {
			r := &runner{d: pt.a.Device(), env: map[string]*slot{"x": {dev: pt.a}}}
			if _, err := r.into(&whole[ri], "x", pt.off, c.N); err != nil {
				return nil, st, err
			}
		}
	}
	out, err := p.finishSplit(ctx, sp, whole, args)
	if err != nil {
		return nil, st, err
	}
	st.Split = s.info(start)
	return &Results{host: out, dev: make([]*slot, len(out))}, st, nil
}

// isArg says whether a is the device array of an argument of r's chunk
// (a chunk's input, a resident or uploaded argument), which the result
// of an identity map may be, and which is not the result's to keep.
func (s *splitRun) isArg(r *runner, a *runtime.Array) bool {
	for _, prm := range s.p.Prog.Params {
		if sl := r.env[prm.Name]; sl != nil && sl.dev == a {
			return true
		}
	}
	for _, w := range s.sp.c.Whole {
		if sl := r.env[w.Name]; sl != nil && sl.dev == a {
			return true
		}
	}
	return false
}

// part is the rows from off of a result that one device made and keeps.
type part struct {
	off int64
	a   *runtime.Array
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
	if v, ok, err := s.combineHistsOnDevice(ctx, dests); ok || err != nil {
		return v, err
	}
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
	plan, ferr := s.sp.combinePlan()
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

// combineHistsOnDevice combines the devices' partial histograms on the
// first device, the others' copied to it without the host where the
// platform allows (runtime.CopyTo), and reads the whole back once; ok is
// false, with nothing done, where a partial is not a plain array on its
// device or the combination does not flatten.
func (s *splitRun) combineHistsOnDevice(ctx context.Context, dests []*slot) (v value.Value, ok bool, err error) {
	for _, d := range dests {
		if d == nil || d.host != nil || d.dev == nil || d.f16 || d.scalar {
			return nil, false, nil
		}
	}
	plan, err := s.sp.combinePlan()
	if err != nil || len(plan.Prog.Params) != 2 || len(plan.Prog.Body.Res) != 1 {
		return nil, false, nil
	}
	dev := dests[0].dev.Device()
	acc := dests[0].dev       // the first device's worker releases it
	var mine []*runtime.Array // what this combination made, released at the end
	defer func() {
		for _, a := range mine {
			a.Release()
		}
	}()
	peer := true
	for _, d := range dests[1:] {
		x, direct, err := d.dev.CopyTo(dev)
		if err != nil {
			return nil, true, err
		}
		mine = append(mine, x)
		peer = peer && direct
		r := &runner{d: dev, env: map[string]*slot{
			plan.Prog.Params[0].Name: {dev: acc},
			plan.Prog.Params[1].Name: {dev: x},
		}}
		err = r.steps(ctx, plan.Steps)
		mine = append(mine, r.owned...)
		mine = append(mine, r.uploads...)
		if err != nil {
			return nil, true, err
		}
		res := plan.Prog.Body.Res[0]
		if res.IsConst() {
			return nil, true, fmt.Errorf("flatten: a histogram's combination gave a constant")
		}
		sl, err := r.slot(res.Name)
		if err != nil {
			return nil, true, err
		}
		if sl.dev == nil || sl.host != nil {
			return nil, true, fmt.Errorf("flatten: a histogram's combination left no device array")
		}
		acc = sl.dev
	}
	if err := dev.Flush(); err != nil { // the combination's checks
		return nil, true, err
	}
	r := &runner{d: dev, env: map[string]*slot{"h": {dev: acc}}}
	if v, err = r.hostValue("h"); err != nil {
		return nil, true, err
	}
	if peer {
		s.mark("hists combined on device 0, copied peer to peer")
	} else {
		s.mark("hists combined on device 0, copied through the host")
	}
	return v, true, nil
}

// runSplitScatter runs a scatter split across devs: its destination in
// parts, each device taking a part as it finishes the last and passing
// every element over it.
func (p *Plan) runSplitScatter(ctx context.Context, devs []*runtime.Device, sp *splitting, args []value.Value) (res *Results, st Stats, err error) {
	start := time.Now()
	c, ch := sp.c, sp.dest
	s := p.newSplitRun(devs, sp, args, nil)
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
	out, err := p.finishSplit(ctx, sp, []value.Value{dest}, args)
	if err != nil {
		return nil, st, err
	}
	st.Split = s.info(start)
	return &Results{host: out, dev: make([]*slot, len(out))}, st, nil
}

// finishSplit runs the split's last step on the host: sp.finish of the
// put-together values, then the arguments that were not streamed.
func (p *Plan) finishSplit(ctx context.Context, sp *splitting, whole, args []value.Value) ([]value.Value, error) {
	fargs := whole
	for i := range p.Prog.Params {
		if !sp.c.Streamed[i] {
			fargs = append(fargs, args[i])
		}
	}
	return ir.EvalAll(ctx, sp.finish, fargs)
}
