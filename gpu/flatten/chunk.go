package flatten

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	"fut/eval/value"
	"fut/gpu/runtime"
	"fut/interp/ir"
)

// Runs in chunks (streams beyond device memory). A plan whose arrays do
// not fit the device's memory budget (runtime.Device.Budget) runs its one
// SOAC over chunks of its streamed arguments (ir.Chunks): the chunk
// programs are flattened like any program, the chunk's length chosen so
// that what one chunk holds (its share of every array of the width, twice
// for the streamed inputs, which are double buffered) fits the budget
// with the arrays that do not shrink. A chunk's inputs are uploaded on a
// second queue while the chunk before it computes.

// TooLarge says that a plan needs more device memory than the budget and
// cannot run in chunks.
type TooLarge struct {
	Need, Budget int64
	Why          string
}

func (e *TooLarge) Error() string {
	return fmt.Sprintf("it needs about %s of device memory, more than the budget of %s, and does not run in chunks: %s",
		runtime.FormatBytes(e.Need), runtime.FormatBytes(e.Budget), e.Why)
}

// chunking is a plan's chunked form for one chunk length (made on first
// use, kept while the budget stays the same).
type chunking struct {
	budget     int64
	c          *ir.Chunks
	length     int64
	full, last *Plan // the chunk programs' plans (last: the remainder's, or nil)
	init       *Plan // makes a histogram's or scatter's destination (or nil)
	finish     *ir.Prog
	// the results only indexed after the SOAC (ir.Chunks.Picks): the
	// indices' program and the finish that takes the elements (nil when
	// there are none)
	index, finishPicked *ir.Prog
	perElem             int64 // bytes a chunk holds per element
	// a histogram's or scatter's destination too large to stay whole:
	// destLen of its destM rows at a time, every streamed chunk passing
	// over each part; destPlans[d][s]: d 0 for a part of destLen rows, 1
	// for the last part; s 0 for a streamed chunk of length, 1 for the
	// last (ir.Chunks.ChunkDest)
	destLen, destM int64
	destPlans      [2][2]*Plan
}

// destChunks chooses the rows of a histogram's or scatter's destination
// that a chunk holds, when the destination is what leaves too little room
// for streaming: at most half the budget for the destination's copies
// (the destination and the SOAC's result, as many arrays of its shape as
// the program has), the rest for the streamed chunks. It returns the rows,
// the destination's rows in all and what stays fixed with that many rows;
// no rows when the destination cannot be divided.
func destChunks(p *ir.Prog, c *ir.Chunks, budget, fixed int64) (rows, of, newFixed int64) {
	if c.Dest == "" || c.ChunkDest(1, 1) == nil {
		return 0, 0, fixed
	}
	t := c.DestType()
	if t.Rank() == 0 || !t.Shape[0].IsConst() {
		return 0, 0, fixed
	}
	m := t.Shape[0].Val.AsInt64()
	row := int64(runtime.TypeOf(t.Elem).Size())
	for _, d := range t.Shape[1:] {
		if !d.IsConst() {
			return 0, 0, fixed
		}
		row *= d.Val.AsInt64()
	}
	copies := int64(0)
	count := func(u ir.Type) {
		if u.Rank() == t.Rank() && u.Elem == t.Elem && u.Shape[0].IsConst() && u.Shape[0].Val.AsInt64() == m {
			copies++
		}
	}
	for _, prm := range p.Params {
		count(prm.T)
	}
	for _, st := range p.Body.Stms {
		for _, q := range st.Pat {
			count(q.T)
		}
	}
	copies = max(copies, 2)
	other := fixed - copies*m*row
	rows = (budget/2 - other) / (copies * row)
	if other < 0 || rows < 1 || rows >= m {
		return 0, 0, fixed
	}
	return rows, m, other + copies*rows*row
}

// footprint estimates the device memory p needs at once: its array
// parameters and every array its top level binds (a size known only at
// run time counted as the widest size of the program). fixed is the part
// that does not grow with the width n (arrays of other sizes), perElem
// the bytes per element of the arrays whose outer size is n.
func footprint(p *ir.Prog, args []value.Value, n int64) (total, fixed, perElem, largest int64) {
	scalars := map[string]int64{}
	var widest int64
	for i, prm := range p.Params {
		if prm.T.Rank() == 0 {
			if x, ok := args[i].(value.Prim); ok && x.T.IsInt() {
				scalars[prm.Name] = x.AsInt64()
			}
		}
	}
	dim := func(a ir.Atom) int64 {
		if a.IsConst() {
			return a.Val.AsInt64()
		}
		if x, ok := scalars[a.Name]; ok {
			return x
		}
		return -1
	}
	var ts []ir.Type
	for _, prm := range p.Params {
		ts = append(ts, prm.T)
	}
	for _, st := range p.Body.Stms {
		for _, q := range st.Pat {
			ts = append(ts, q.T)
		}
	}
	for _, t := range ts {
		for _, d := range t.Shape {
			widest = max(widest, dim(d))
		}
	}
	for _, t := range ts {
		if t.Rank() == 0 {
			continue
		}
		row := int64(runtime.TypeOf(t.Elem).Size())
		if t.Elem == value.F16 {
			row = 4
		}
		for _, d := range t.Shape[1:] {
			x := dim(d)
			if x < 0 {
				x = widest
			}
			row *= x
		}
		outer := dim(t.Shape[0])
		if outer < 0 {
			outer = widest
		}
		size := outer * row
		total += size
		largest = max(largest, size)
		if n > 0 && outer == n {
			perElem += row
		} else {
			fixed += size
		}
	}
	return
}

// footprintMemo is the footprint of a plan's last arguments, by the
// integer scalars it depends on (footprint reads nothing else of them):
// a call on the same sizes does not walk the program again (3 µs of
// mandelbrot's call on the H100's host).
type footprintMemo struct {
	mu             sync.Mutex
	key            []int64 // parameter index, value, … of the integer scalars
	total, largest int64
	ok             bool
}

// footprintOf is footprint(p.Prog, args, 0)'s total and largest,
// memoised by the integer scalar arguments.
func (p *Plan) footprintOf(args []value.Value) (total, largest int64) {
	var keyBuf [8]int64
	key := keyBuf[:0]
	for i, prm := range p.Prog.Params {
		if prm.T.Rank() == 0 {
			if x, ok := args[i].(value.Prim); ok && x.T.IsInt() {
				key = append(key, int64(i), x.AsInt64())
			}
		}
	}
	m := &p.fp
	m.mu.Lock()
	if m.ok && slices.Equal(m.key, key) {
		total, largest = m.total, m.largest
		m.mu.Unlock()
		return total, largest
	}
	m.mu.Unlock()
	total, _, _, largest = footprint(p.Prog, args, 0)
	m.mu.Lock()
	m.key, m.total, m.largest, m.ok = slices.Clone(key), total, largest, true
	m.mu.Unlock()
	return total, largest
}

// fits says whether p runs whole on d; if not, the chunking it runs
// with, or a *TooLarge.
func (p *Plan) fits(d *runtime.Device, args []value.Value) (*chunking, error) {
	budget := d.Budget()
	if budget <= 0 {
		return nil, nil
	}
	total, largest := p.footprintOf(args)
	if total <= budget && largest <= d.MaxAlloc() {
		return nil, nil
	}
	p.chunkMu.Lock()
	defer p.chunkMu.Unlock()
	if p.chunks != nil && p.chunks.budget == budget {
		return p.chunks, nil
	}
	src := p.src
	if src == nil {
		src = p.Prog
	}
	c, err := ir.Chunkable(src)
	if err != nil {
		return nil, &TooLarge{Need: total, Budget: budget, Why: err.Error()}
	}
	_, fixed, perElem, _ := footprint(p.Prog, args, c.N)
	// the streamed inputs are double buffered
	for i, prm := range p.Prog.Params {
		if c.Streamed[i] {
			_, _, pe, _ := footprint(&ir.Prog{Params: []ir.Param{prm}, Body: &ir.Body{}}, args[i:i+1], c.N)
			perElem += pe
		}
	}
	room := budget - fixed
	var destLen, destM int64 // the destination's rows a chunk holds, of destM (0: all)
	if perElem > 0 && room < perElem*1024 {
		destLen, destM, fixed = destChunks(p.Prog, c, budget, fixed)
		room = budget - fixed
	}
	if perElem == 0 || room < perElem*1024 {
		return nil, &TooLarge{Need: total, Budget: budget, Why: fmt.Sprintf("what does not shrink with chunks (%s) leaves too little room", runtime.FormatBytes(fixed))}
	}
	length := room / perElem
	length = min(length, d.MaxAlloc()/max(1, perElem/2), c.N)
	if length >= 1<<12 {
		length &^= 1<<10 - 1
	}
	ch := &chunking{budget: budget, c: c, length: length, perElem: perElem, finish: c.Finish(), destLen: destLen, destM: destM}
	if len(c.Picks()) > 0 {
		ch.index, ch.finishPicked = c.IndexProg(), c.FinishPicked()
	}
	if destLen > 0 {
		// the plans for every pair of (streamed, destination) chunk sizes
		for di, dl := range []int64{destLen, destM % destLen} {
			for si, sl := range []int64{length, c.N % length} {
				if dl == 0 || sl == 0 {
					continue
				}
				if ch.destPlans[di][si], err = Flatten(c.ChunkDest(sl, dl)); err != nil {
					return nil, &TooLarge{Need: total, Budget: budget, Why: "its chunk is not flattened: " + err.Error()}
				}
			}
		}
		p.chunks = ch
		return ch, nil
	}
	if ch.full, err = Flatten(c.Chunk(length)); err != nil {
		return nil, &TooLarge{Need: total, Budget: budget, Why: "its chunk is not flattened: " + err.Error()}
	}
	if rest := c.N % length; rest != 0 {
		if ch.last, err = Flatten(c.Chunk(rest)); err != nil {
			return nil, &TooLarge{Need: total, Budget: budget, Why: "its last chunk is not flattened: " + err.Error()}
		}
	}
	if ip := c.Init(); ip != nil {
		if ch.init, err = flattenInit(ip); err != nil {
			return nil, &TooLarge{Need: total, Budget: budget, Why: "its destination is not made on the device: " + err.Error()}
		}
	}
	p.chunks = ch
	return ch, nil
}

// Bound says how a run of the plan on d with args would use the device's
// memory: whole (Chunks 0) or in chunks, whose arrays bound what is on
// the device at once (the S1 of the streamed nest, bounded by the chunk
// and not by n), or an error (a *TooLarge) when it cannot run.
func (p *Plan) Bound(d *runtime.Device, args []value.Value) (Bound, error) {
	total, _, _, _ := footprint(p.Prog, args, 0)
	b := Bound{Whole: total, Budget: d.Budget()}
	ch, err := p.fits(d, args)
	if err != nil || ch == nil {
		return b, err
	}
	b.N, b.Length = ch.c.N, ch.length
	b.Chunks = int((ch.c.N + ch.length - 1) / ch.length)
	b.ChunkBytes = ch.length * ch.perElem
	return b, nil
}

// Bound is Plan.Bound's answer.
type Bound struct {
	Whole, Budget int64 // bytes the run needs whole; the device's budget
	Chunks        int   // 0: it runs whole
	N, Length     int64 // the streamed width, and a chunk's
	ChunkBytes    int64 // the device memory a chunk's arrays take
}

func (b Bound) String() string {
	if b.Chunks == 0 {
		return fmt.Sprintf("on the device: whole (%s of %s)", runtime.FormatBytes(b.Whole), runtime.FormatBytes(b.Budget))
	}
	return fmt.Sprintf("on the device: streamed in %d chunks of %d of its %d elements; a chunk's arrays take %s at once where the whole needs %s (budget %s): space bounded by the chunk, not by n",
		b.Chunks, b.Length, b.N, runtime.FormatBytes(b.ChunkBytes), runtime.FormatBytes(b.Whole), runtime.FormatBytes(b.Budget))
}

// Streamed says, per argument, whether a run of the plan on d only
// streams it to the device in chunks (it neither changes it nor keeps
// it); nil when the plan runs whole.
func (p *Plan) Streamed(d *runtime.Device, args []value.Value) []bool {
	ch, err := p.fits(d, args)
	if err != nil || ch == nil {
		return nil
	}
	return ch.c.Streamed
}

// flattenInit flattens the program that makes a destination; one without
// a SOAC (a replicate) is flattened too, its statements run as kernels
// where they can.
func flattenInit(p *ir.Prog) (*Plan, error) {
	f := &flattener{types: map[string]ir.Type{}, host: map[string]bool{}, defs: map[string]ir.Exp{}, uses: map[string]int{}}
	var plan *Plan
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				nf, ok := r.(*NotFlattened)
				if !ok {
					nf = &NotFlattened{Reason: fmt.Sprintf("internal error in the flattener: %v", r)}
				}
				err = nf
			}
		}()
		for _, prm := range p.Params {
			f.types[prm.Name] = prm.T
			f.host[prm.Name] = true
		}
		for _, s := range p.Body.Stms {
			ir.Uses(s.E, func(n string) { f.uses[n]++ })
		}
		for _, a := range p.Body.Res {
			f.uses[a.Name]++
		}
		for _, s := range p.Body.Stms {
			f.stm(s)
			for _, prm := range s.Pat {
				f.types[prm.Name] = prm.T
			}
		}
		plan = &Plan{Prog: p, Steps: dropDead(p, f.steps)}
		return nil
	}()
	return plan, err
}

// ChunkInfo says how a run went in chunks (zero Chunks: it ran whole).
type ChunkInfo struct {
	Chunks     int
	ChunkBytes int64 // the device memory one chunk holds
	Queues     int
	Uploaded   int64         // bytes of streamed inputs copied to the device
	Wall       time.Duration // the whole run's
	HostAlloc  time.Duration // of Wall, making host memory for the results
	HostPinned int64         // bytes of it pinned
	Picked     int           // elements read of results that are only indexed (not brought back whole)
	DestParts  int           // parts of a destination too large to stay whole (0: it stayed whole)
}

func (ci ChunkInfo) String() string {
	if ci.Chunks == 0 {
		return ""
	}
	s := fmt.Sprintf("in %d chunks of %s, %d queues", ci.Chunks, runtime.FormatBytes(ci.ChunkBytes), ci.Queues)
	if ci.DestParts > 0 {
		s += fmt.Sprintf(", the destination in %d parts (each chunk passing over every part)", ci.DestParts)
	}
	if ci.Picked > 0 {
		s += fmt.Sprintf(", %d element%s read of results only indexed", ci.Picked, map[bool]string{true: "s"}[ci.Picked != 1])
	}
	if w := ci.Wall - ci.HostAlloc; w > 0 && ci.Uploaded > 0 {
		s += fmt.Sprintf(" (%s streamed in over %.3f s: %.1f GB/s", runtime.FormatBytes(ci.Uploaded), w.Seconds(), float64(ci.Uploaded)/w.Seconds()/1e9)
		if ci.HostPinned > 0 {
			s += fmt.Sprintf(", besides %.3f s making %s of pinned memory for the results", ci.HostAlloc.Seconds(), runtime.FormatBytes(ci.HostPinned))
		}
		s += ")"
	}
	return s
}

// runChunked runs the plan's chunks on d, one runner holding what lives
// across them (the arguments that are not streamed, a destination).
func (p *Plan) runChunked(ctx context.Context, d *runtime.Device, ch *chunking, args []value.Value) (*Results, Stats, error) {
	start := time.Now()
	c := ch.c
	if os.Getenv("FUT_CHUNK_POOL") != "off" { // off: to compare
		defer d.PoolUpTo(ch.budget)()
	}
	r := &runner{d: d, env: map[string]*slot{}, syncChecks: true}
	defer func() {
		for _, a := range append(r.owned, r.uploads...) {
			a.Release()
		}
	}()
	for i, prm := range p.Prog.Params {
		if !c.Streamed[i] {
			r.env[prm.Name] = &slot{host: args[i]}
		}
	}
	destName := c.Dest
	if ch.init != nil {
		s, err := r.runInit(ctx, ch.init, args)
		if err != nil {
			return nil, r.stats, err
		}
		r.env[destName] = s
	}
	scans, reds := c.Scans(), c.Reds()
	nScan := 0
	for _, op := range scans {
		nScan += len(op.Nes)
	}
	var carry []value.Value
	for _, op := range scans {
		for _, ne := range op.Nes {
			carry = append(carry, ne.Val)
		}
	}
	var acc [][]value.Value // per reduction
	pat := c.Soac.Pat
	pieces := make([][]*value.Array, len(pat)) // a filter's arrays
	whole := make([]value.Value, len(pat))     // the SOAC's results
	var count int64
	streamed := map[string]int{}
	for i, prm := range p.Prog.Params {
		if c.Streamed[i] {
			streamed[prm.Name] = i
		}
	}
	// the elements read of results only indexed, when every index is in
	// bounds (else the results come back whole, and the finish reports
	// the index as the reference path does)
	var picks []ir.Pick
	var pickAt []int64
	var pickVals []value.Value
	if ch.index != nil {
		var iargs []value.Value
		for i := range p.Prog.Params {
			if !c.Streamed[i] {
				iargs = append(iargs, args[i])
			}
		}
		idx, err := ir.EvalAll(ctx, ch.index, iargs)
		if err == nil {
			picks = c.Picks()
			for _, v := range idx {
				i := v.(value.Prim).AsInt64()
				if i < 0 || i >= c.N {
					picks = nil
					break
				}
				pickAt = append(pickAt, i)
			}
			pickVals = make([]value.Value, len(picks))
		}
	}
	picked := func(ri int) bool {
		for _, pk := range picks {
			if pk.Res == ri {
				return true
			}
		}
		return false
	}
	// pick reads the picks of result ri (the chunk's variable name) that
	// lie in the chunk at off of n elements; last also reads the chunk's
	// last element (a scan's carry)
	pick := func(name string, ri int, off, n int64, last bool) (value.Value, error) {
		s, err := r.slot(name)
		if err != nil {
			return nil, err
		}
		read := func(i int64) (value.Value, error) {
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
		for k, pk := range picks {
			if pk.Res == ri && pickAt[k] >= off && pickAt[k] < off+n {
				if pickVals[k], err = read(pickAt[k] - off); err != nil {
					return nil, err
				}
			}
		}
		if last {
			return read(n - 1)
		}
		return nil, nil
	}
	pf := newPrefetcher(d)
	defer pf.close()
	plans := func(off int64) (*Plan, int64) {
		if off+ch.length <= c.N {
			return ch.full, ch.length
		}
		return ch.last, c.N - off
	}
	upload := func(off int64) {
		plan, n := plans(off)
		pf.start(off, chunkArgs(plan, off, n, streamed, args))
	}
	upload(0)
	chunks := 0
	for off := int64(0); off < c.N; {
		if err := ctx.Err(); err != nil {
			return nil, r.stats, err
		}
		plan, n := plans(off)
		inputs, err := pf.wait(off)
		if err != nil {
			return nil, r.stats, err
		}
		if off+n < c.N {
			upload(off + n)
		}
		nOwned, nUploads := len(r.owned), len(r.uploads)
		chunkSlots, extra := r.bindChunk(c, plan, len(p.Prog.Params), off, n, streamed, args, inputs)
		for j, prm := range extra {
			r.env[prm.Name] = &slot{host: carry[j]}
		}
		if err := r.steps(ctx, plan.Steps); err != nil {
			pf.put(inputs)
			return nil, r.stats, err
		}
		// the chunk's results
		keep := map[*runtime.Array]bool{}
		res := plan.Prog.Body.Res
		ri := 0
		for _, op := range scans {
			for range op.Nes {
				if picked(ri) {
					if carry[ri], err = pick(res[ri].Name, ri, off, n, true); err != nil {
						return nil, r.stats, err
					}
					ri++
					continue
				}
				a, err := r.into(&whole[ri], res[ri].Name, off, c.N)
				if err != nil {
					return nil, r.stats, err
				}
				carry[ri] = a.Index(off + n - 1)
				ri++
			}
		}
		for j, op := range reds {
			var xs []value.Value
			for range op.Nes {
				v, err := r.hostValue(res[ri].Name)
				if err != nil {
					return nil, r.stats, err
				}
				xs = append(xs, v)
				ri++
			}
			if chunks == 0 {
				acc = append(acc, xs)
			} else if acc[j], err = ir.Combine(op, acc[j], xs); err != nil {
				return nil, r.stats, err
			}
		}
		switch c.Soac.E.(type) {
		case *ir.FilterE:
			v, err := r.hostValue(res[0].Name)
			if err != nil {
				return nil, r.stats, err
			}
			count += v.(value.Prim).AsInt64()
			for ri = 1; ri < len(res); ri++ {
				v, err := r.hostValue(res[ri].Name)
				if err != nil {
					return nil, r.stats, err
				}
				pieces[ri] = append(pieces[ri], v.(*value.Array))
			}
			ri = len(res)
		case *ir.HistE, *ir.ScatterE:
			s, err := r.slot(res[0].Name)
			if err != nil {
				return nil, r.stats, err
			}
			r.env[destName] = s
			if s.dev != nil {
				keep[s.dev] = true
			}
			ri = len(res)
		}
		for ; ri < len(res); ri++ { // a map's arrays
			if picked(ri) {
				if _, err := pick(res[ri].Name, ri, off, n, false); err != nil {
					return nil, r.stats, err
				}
				continue
			}
			if _, err := r.into(&whole[ri], res[ri].Name, off, c.N); err != nil {
				return nil, r.stats, err
			}
		}
		// free what the chunk made, but what carries on: the destination
		// and the arguments that are not streamed
		r.endChunk(p.Prog.Params, c.Streamed, keep, nOwned, nUploads, chunkSlots)
		pf.put(inputs)
		chunks++
		off += n
	}
	// the whole results, then what comes after the SOAC
	ri := nScan
	for _, xs := range acc {
		for _, x := range xs {
			whole[ri] = x
			ri++
		}
	}
	switch c.Soac.E.(type) {
	case *ir.FilterE:
		whole[0] = value.I64Val(count)
		for ri = 1; ri < len(pat); ri++ {
			a, err := value.Concat(pieces[ri])
			if err != nil {
				return nil, r.stats, err
			}
			whole[ri] = a
		}
	case *ir.HistE, *ir.ScatterE:
		v, err := r.hostValue(destName)
		if err != nil {
			return nil, r.stats, err
		}
		if a, ok := v.(*value.Array); ok {
			v = a.Copy()
		}
		whole[0] = v
	}
	finish, fargs := ch.finish, whole
	if picks != nil {
		finish, fargs = ch.finishPicked, nil
		for ri, v := range whole {
			if !picked(ri) {
				fargs = append(fargs, v)
			}
		}
		fargs = append(fargs, pickVals...)
	}
	for i := range p.Prog.Params {
		if !c.Streamed[i] {
			fargs = append(fargs, args[i])
		}
	}
	if err := d.Flush(); err != nil { // the kernels' checks
		return nil, r.stats, err
	}
	out, err := ir.EvalAll(ctx, finish, fargs)
	if err != nil {
		return nil, r.stats, err
	}
	r.stats.Chunks = ChunkInfo{Chunks: chunks, ChunkBytes: ch.length * ch.perElem, Queues: pf.queues(),
		Uploaded: pf.bytes, Wall: time.Since(start), HostAlloc: r.hostAlloc, HostPinned: r.hostPinned, Picked: len(picks)}
	return &Results{host: out, dev: make([]*slot, len(out))}, r.stats, nil
}

// into puts the chunk at off of the variable name (an array whose outer
// size is the chunk's) into *whole, made on the first chunk with outer
// size n: read from the device straight into its place where it can.
func (r *runner) into(whole *value.Value, name string, off, n int64) (*value.Array, error) {
	s, err := r.slot(name)
	if err != nil {
		return nil, err
	}
	// runs on other devices may fill *whole too (split.go): it is made
	// under wholeMu, and each fills rows of its own
	lock := func() func() {
		if r.wholeMu == nil {
			return func() {}
		}
		r.wholeMu.Lock()
		return r.wholeMu.Unlock
	}
	if s.host == nil && !s.f16 && !s.scalar && s.dev != nil {
		unlock := lock()
		if *whole == nil {
			shape := append([]int64{n}, s.dev.Shape[1:]...)
			t0, p0 := time.Now(), r.d.PinnedBytes()
			*whole = r.d.NewHostArray(runtime.PrimOf(s.dev.T), shape)
			r.hostAlloc += time.Since(t0)
			r.hostPinned += r.d.PinnedBytes() - p0
		}
		w := (*whole).(*value.Array)
		unlock()
		row := w.NumElems() / n
		if err := s.dev.ReadInto(value.DataSlice(w.Data, int(off*row), int((off+s.dev.Shape[0])*row))); err != nil {
			return nil, err
		}
		r.stats.Downloads++
		return w, nil
	}
	v, err := r.hostValue(name)
	if err != nil {
		return nil, err
	}
	a, ok := v.(*value.Array)
	if !ok || a.Kind != value.KPrim {
		return nil, fmt.Errorf("flatten: a chunk's %s is not an array of a primitive type", name)
	}
	unlock := lock()
	if *whole == nil {
		*whole = value.NewPrimArray(a.T, append([]int64{n}, a.Shape[1:]...))
	}
	w := (*whole).(*value.Array)
	unlock()
	row := w.NumElems() / n
	value.DataCopy(w.Data, int(off*row), a.Data)
	return w, nil
}

// prefetcher uploads a chunk's streamed inputs while the chunk before it
// computes.
type prefetcher struct {
	bytes int64 // uploaded so far
	d     *runtime.Device
	mu    sync.Mutex
	off   int64
	done  chan struct{}
	arrs  []*runtime.Array
	err   error
}

func newPrefetcher(d *runtime.Device) *prefetcher { return &prefetcher{d: d} }

func (pf *prefetcher) queues() int { return pf.d.TransferQueues() + 1 }

// start begins the upload of the chunk at off.
func (pf *prefetcher) start(off int64, arrs []*value.Array) {
	done := make(chan struct{})
	pf.off, pf.done, pf.arrs, pf.err = off, done, nil, nil
	if len(arrs) == 0 { // nothing streamed: no goroutine to wake
		close(done)
		return
	}
	go func() {
		defer close(done)
		var out []*runtime.Array
		for _, a := range arrs {
			if a.T == value.F16 {
				f32 := *a
				f32.T = value.F32
				a = &f32
			}
			da, err := pf.d.UploadAsync(a)
			if err != nil {
				for _, x := range out {
					x.Release()
				}
				pf.err = err
				return
			}
			out = append(out, da)
			pf.bytes += int64(da.Bytes())
		}
		pf.arrs = out
	}()
}

// wait returns the uploaded inputs of the chunk at off.
func (pf *prefetcher) wait(off int64) ([]*runtime.Array, error) {
	<-pf.done
	if pf.off != off {
		return nil, fmt.Errorf("flatten: chunk at %d prefetched, %d wanted (a bug)", pf.off, off)
	}
	arrs, err := pf.arrs, pf.err
	pf.arrs, pf.done = nil, nil
	return arrs, err
}

// put releases a chunk's inputs.
func (pf *prefetcher) put(arrs []*runtime.Array) {
	for _, a := range arrs {
		a.Release()
	}
}

// close waits for an upload under way and frees it.
func (pf *prefetcher) close() {
	if pf.done != nil {
		<-pf.done
		pf.put(pf.arrs)
	}
}

// runDestChunked runs a histogram or a scatter whose destination does not
// fit with the streamed chunks: the destination is divided into parts of
// destLen rows, and for each part every streamed chunk passes over it
// (an element whose index is outside the part is skipped, ChunkDest);
// each part comes back into the whole destination on the host.
func (p *Plan) runDestChunked(ctx context.Context, d *runtime.Device, ch *chunking, args []value.Value) (*Results, Stats, error) {
	start := time.Now()
	c := ch.c
	r := &runner{d: d, env: map[string]*slot{}, syncChecks: true}
	defer func() {
		for _, a := range append(r.owned, r.uploads...) {
			a.Release()
		}
	}()
	var dest *value.Array
	for i, prm := range p.Prog.Params {
		switch {
		case c.Streamed[i]:
		case prm.Name == c.Dest:
			a, ok := args[i].(*value.Array)
			if !ok {
				return nil, r.stats, fmt.Errorf("flatten: the destination %s is not an array", prm.Name)
			}
			dest = a.Copy()
		default:
			r.env[prm.Name] = &slot{host: args[i]}
		}
	}
	if dest == nil { // made by the statements before the SOAC: on the host
		vs, err := ir.EvalAll(ctx, c.Init(), args)
		if err != nil {
			return nil, r.stats, err
		}
		a, ok := vs[0].(*value.Array)
		if !ok {
			return nil, r.stats, fmt.Errorf("flatten: the destination %s is not an array", c.Dest)
		}
		dest = a
	}
	pf := newPrefetcher(d)
	defer pf.close()
	chunks, parts := 0, 0
	for at := int64(0); at < ch.destM; at += ch.destLen {
		n, err := p.destPart(ctx, r, pf, ch, dest, at, args)
		chunks += n
		if err != nil {
			return nil, r.stats, err
		}
		parts++
	}
	fargs := []value.Value{dest}
	for i := range p.Prog.Params {
		if !c.Streamed[i] {
			fargs = append(fargs, args[i])
		}
	}
	out, err := ir.EvalAll(ctx, ch.finish, fargs)
	if err != nil {
		return nil, r.stats, err
	}
	r.stats.Chunks = ChunkInfo{Chunks: chunks, ChunkBytes: ch.length * ch.perElem, Queues: pf.queues(),
		Uploaded: pf.bytes, Wall: time.Since(start), DestParts: parts}
	return &Results{host: out, dev: make([]*slot, len(out))}, r.stats, nil
}

// destPart runs every streamed chunk over the part of the destination
// whose rows start at at (ch.destLen of them, fewer for the last part),
// on r's device, and copies the part back into dest (on the host, rows
// no other part holds). It returns the chunks it ran.
func (p *Plan) destPart(ctx context.Context, r *runner, pf *prefetcher, ch *chunking, dest *value.Array, at int64, args []value.Value) (int, error) {
	c := ch.c
	streamed := map[string]int{}
	for i, prm := range p.Prog.Params {
		if c.Streamed[i] {
			streamed[prm.Name] = i
		}
	}
	row := dest.NumElems() / max(1, ch.destM)
	dl := min(ch.destLen, ch.destM-at)
	di := 0
	if dl != ch.destLen {
		di = 1
	}
	plans := func(off int64) (*Plan, int64) {
		if off+ch.length <= c.N {
			return ch.destPlans[di][0], ch.length
		}
		return ch.destPlans[di][1], c.N - off
	}
	upload := func(off int64) {
		plan, n := plans(off)
		pf.start(off, chunkArgs(plan, off, n, streamed, args))
	}
	r.env[c.Dest] = &slot{host: dest.Slice(at, at+dl).Copy()}
	upload(0)
	chunks := 0
	for off := int64(0); off < c.N; {
		if err := ctx.Err(); err != nil {
			return chunks, err
		}
		plan, n := plans(off)
		inputs, err := pf.wait(off)
		if err != nil {
			return chunks, err
		}
		if off+n < c.N {
			upload(off + n)
		}
		nOwned, nUploads := len(r.owned), len(r.uploads)
		chunkSlots, extra := r.bindChunk(c, plan, len(p.Prog.Params), off, n, streamed, args, inputs)
		r.env[extra[len(extra)-1].Name] = &slot{host: value.I64Val(at)} // the part's first row
		if err := r.steps(ctx, plan.Steps); err != nil {
			pf.put(inputs)
			return chunks, err
		}
		s, err := r.slot(plan.Prog.Body.Res[0].Name)
		if err != nil {
			pf.put(inputs)
			return chunks, err
		}
		r.env[c.Dest] = s
		keep := map[*runtime.Array]bool{}
		if s.dev != nil {
			keep[s.dev] = true
		}
		r.endChunk(p.Prog.Params, c.Streamed, keep, nOwned, nUploads, chunkSlots)
		pf.put(inputs)
		chunks++
		off += n
	}
	// the part back into the whole, and its device memory freed
	v, err := r.hostValue(c.Dest)
	if err != nil {
		return chunks, err
	}
	part, ok := v.(*value.Array)
	if !ok {
		return chunks, fmt.Errorf("flatten: a part of the destination is not an array")
	}
	value.DataCopy(dest.Data, int(at*row), part.Data)
	if s := r.env[c.Dest]; s.dev != nil {
		for i, a := range r.owned {
			if a == s.dev {
				r.owned = append(r.owned[:i], r.owned[i+1:]...)
				break
			}
		}
		s.dev.Release()
	}
	delete(r.env, c.Dest)
	return chunks, nil
}

// endChunk frees what a chunk made (the arrays owned or uploaded since
// nOwned and nUploads), but the arrays in keep and those of the
// parameters that are not streamed, and forgets the chunk's slots.
func (r *runner) endChunk(params []ir.Param, streamed []bool, keep map[*runtime.Array]bool, nOwned, nUploads int, chunkSlots []string) {
	for i, prm := range params {
		if sl := r.env[prm.Name]; !streamed[i] && sl != nil && sl.dev != nil {
			keep[sl.dev] = true
		}
	}
	freed := map[*runtime.Array]bool{}
	var owned []*runtime.Array
	for _, a := range append(r.owned[nOwned:], r.uploads[nUploads:]...) {
		if keep[a] {
			owned = append(owned, a)
		} else {
			freed[a] = true
			a.Release()
		}
	}
	r.owned = append(r.owned[:nOwned], owned...)
	r.uploads = r.uploads[:nUploads]
	for name, sl := range r.env {
		if sl.dev != nil && freed[sl.dev] {
			if sl.host == nil {
				delete(r.env, name)
			} else {
				sl.dev = nil
			}
		}
	}
	for _, name := range chunkSlots {
		delete(r.env, name)
	}
}

// chunkArgs are the streamed arguments of plan's chunk at off of n
// elements, in the order of its parameters.
func chunkArgs(plan *Plan, off, n int64, streamed map[string]int, args []value.Value) []*value.Array {
	var arrs []*value.Array
	for _, prm := range plan.Prog.Params {
		if i, ok := streamed[prm.Name]; ok {
			arrs = append(arrs, args[i].(*value.Array).Slice(off, off+n))
		}
	}
	return arrs
}

// bindChunk binds the streamed parameters of plan's chunk at off of n
// elements (the first nParams of its parameters are the program's) to
// their uploaded inputs, and its offset when the SOAC uses the index. It
// returns the chunk's slots and the parameters after those (and after a
// destination made by Init, bound by name).
func (r *runner) bindChunk(c *ir.Chunks, plan *Plan, nParams int, off, n int64, streamed map[string]int, args []value.Value, inputs []*runtime.Array) (chunkSlots []string, extra []ir.Param) {
	k := 0
	for _, prm := range plan.Prog.Params[:nParams] {
		if i, ok := streamed[prm.Name]; ok {
			r.env[prm.Name] = &slot{host: args[i].(*value.Array).Slice(off, off+n), dev: inputs[k]}
			k++
			chunkSlots = append(chunkSlots, prm.Name)
		}
	}
	extra = plan.Prog.Params[nParams:]
	if c.HasIndex() {
		r.env[extra[0].Name] = &slot{host: value.I64Val(off)}
		extra = extra[1:]
	}
	if c.Dest != "" && !c.DestParam {
		extra = extra[1:]
	}
	return chunkSlots, extra
}

// runInit runs init, the plan that makes a histogram's destination, on
// r's device with r's variables (the program's arguments args where r
// has none), r keeping what it made, and returns its result's slot.
func (r *runner) runInit(ctx context.Context, init *Plan, args []value.Value) (*slot, error) {
	ini := &runner{d: r.d, env: map[string]*slot{}, syncChecks: true}
	for i, prm := range init.Prog.Params {
		ini.env[prm.Name] = r.env[prm.Name]
		if ini.env[prm.Name] == nil {
			ini.env[prm.Name] = &slot{host: args[i]}
		}
	}
	err := ini.steps(ctx, init.Steps)
	r.owned = append(r.owned, ini.owned...)
	r.uploads = append(r.uploads, ini.uploads...)
	r.stats.Launches = append(r.stats.Launches, ini.stats.Launches...)
	if err != nil {
		return nil, err
	}
	return ini.slot(init.Prog.Body.Res[0].Name)
}
