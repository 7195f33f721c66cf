package flatten

import (
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
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
//   - a scan runs in two passes: first each chunk's reduction by the
//     scan's operator (its last values: ir.Chunks.ChunkLasts, no array
//     written), combined in order into each chunk's carry; then per
//     chunk its scan from its carry (the chunk program combines the
//     carry with the chunk's first element: ir.Chunks.Chunk);
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
// a device finishing early takes more, few enough that each fills it and
// that the chunks' own costs (a launch, views, a result's buffer, about
// 0.05 ms each on an H100) stay small. Two H100s, fut bench, 1/2/4/8
// chunks per device: blackscholes 2^27 0.677/0.708/0.767/0.969 ms
// (1.081 on one), mandelbrot 8192² 1.067/1.732/1.177/1.477 ms (1.851 on
// one: one chunk each is balanced only because its halves mirror each
// other). FUT_SPLIT_CHUNKS sets it. Later runs of a plan cut fewer
// chunks where these took less than SplitChunkTime each.
var ChunksPerDevice = 4

func init() {
	if s := os.Getenv("FUT_SPLIT_CHUNKS"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			ChunksPerDevice = n
		}
	}
	if s := os.Getenv("FUT_SPLIT_MIN"); s != "" {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil && n > 0 {
			SplitMin = n
		}
	}
}

// combinePlan is the flattened plan of sp.combine, made on first use.
func (sp *splitting) combinePlan() (*Plan, error) {
	sp.combineOnce.Do(func() { sp.combined, sp.combineErr = Flatten(sp.combine) })
	return sp.combined, sp.combineErr
}

// splitting is a plan's split form for a number of devices.
type splitting struct {
	ndev       int
	budget     int64
	c          *ir.Chunks
	length     int64
	full, last *Plan
	// a scan's first pass: its chunks' last values (nil: the scan's
	// chunks from the neutral element, their last elements read)
	lastsFull, lastsLast *Plan
	init                 *Plan
	finish               *ir.Prog
	kind                 string
	// a histogram's: the neutral destination of the devices after the
	// first, and the elementwise combination of two partial histograms
	neutral *ir.Prog
	combine *ir.Prog
	// the combination's plan, flattened once (combinePlan): flattened on
	// every run, its kernels were new values each time, and found again
	// only by their sources' hash
	combineOnce sync.Once
	combined    *Plan
	combineErr  error
	// a scatter's: the destination in parts, one per device
	dest *chunking
	// aligned: every chunk starts at rows that a view of a resident
	// array can start at (runtime.Array.Rows), so chunks of arguments
	// uploaded whole to each device (UploadSplit) are views, not copies
	aligned bool
	// resultOf: for a map whose results are the program's, the SOAC
	// result each program result is (results can then stay on the
	// devices that made them); nil otherwise
	resultOf []int
	// runs: how many runs of it adapt has seen; minLen: the least
	// length it was asked for
	runs   int
	minLen int64
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

// SplitText is the split plan for fut ir and :ir: how a run on devs
// is split (or why not), then the kernels of a chunk.
func (p *Plan) SplitText(devs []*runtime.Device, args []value.Value) string {
	sp, why := p.splitFor(devs, args)
	if sp == nil {
		return "-- not split (runs on one device): " + why + "\n"
	}
	text := "-- " + sp.describe() + "\n"
	if sp.full != nil {
		text += fmt.Sprintf("-- each chunk of %d:\n%s", sp.length, sp.full.String())
	} else if q := sp.dest.destPlans[0][0]; q != nil {
		text += fmt.Sprintf("-- each part of %d rows, for each chunk of %d:\n%s", sp.dest.destLen, sp.dest.length, q.String())
	}
	return text
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
	if len(sp.c.Scans()) > 0 {
		if sp.lastsFull != nil {
			s += "; a scan's chunks run twice, reduced for their totals, then scanned from their carries"
		} else {
			s += "; a scan's chunks run twice, for their totals, then from their carries"
		}
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
	if p.splitKey == key && (p.split == nil || p.split.minLen >= p.splitLen) {
		return p.split, p.splitWhy
	}
	if p.splitKey != key {
		p.splitLen = 0
		p.probe = splitProbe{}
	}
	sp, why := p.makeSplit(devs, budget, args, sizes, p.splitLen)
	p.split, p.splitWhy, p.splitKey = sp, why, key
	return sp, why
}

// SplitChunkTime is the least time a chunk of a split run should take:
// its own costs (a launch, views, a marker and the host's work for it,
// about 0.03 ms on an H100) then stay under a few percent. A run that
// took less per chunk makes the plan's next runs cut fewer, longer
// chunks (at least one per device); a nest that takes less than this
// per device is cut in halves, and balances only as far as its halves
// do (two H100s, chunks of mandelbrot 8192² each 0.9 ms: one per device
// 1.055 ms, four 1.138).
var SplitChunkTime = time.Millisecond

// adapt sets, after a run of the split sp that took wall, the least
// length of the plan's chunks for its next runs: chunks of about
// SplitChunkTime, by the time each chunk took (wall·devices/chunks). A
// first run (which builds the kernels) teaches nothing, and the length
// only ever grows, so a plan settles after a few runs.
func (p *Plan) adapt(sp *splitting, wall time.Duration) {
	p.chunkMu.Lock()
	defer p.chunkMu.Unlock()
	if p.split != sp || sp.length <= 0 {
		return
	}
	sp.runs++
	nChunks := (sp.c.N + sp.length - 1) / sp.length
	if sp.runs < 2 || nChunks <= int64(sp.ndev) {
		return
	}
	per := wall * time.Duration(sp.ndev) / time.Duration(nChunks)
	if per >= SplitChunkTime {
		return
	}
	want := int64(wall) * int64(sp.ndev) / int64(SplitChunkTime) / int64(sp.ndev) * int64(sp.ndev)
	want = max(want, int64(sp.ndev))
	if want >= nChunks {
		return
	}
	p.splitLen = max(p.splitLen, (sp.c.N+want-1)/want)
}

func (p *Plan) makeSplit(devs []*runtime.Device, budget int64, args []value.Value, sizes map[string]int64, minLen int64) (*splitting, string) {
	ndev, maxAlloc := len(devs), devs[0].MaxAlloc()
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
	// but no chunk so small that it leaves a device idle: one whose
	// results' rows hold fewer elements than the device runs threads at
	// once (n-body's 2^16 bodies: each device's half in one chunk)
	fill := int64(math.MaxInt64)
	for _, d := range devs {
		fill = min(fill, int64(max(1, d.Info.ComputeUnits))*ThreadsPerUnit)
	}
	row := int64(1)
	for _, q := range c.Soac.Pat {
		r := int64(1)
		for _, d := range q.T.Shape[min(1, q.T.Rank()):] {
			if x, ok := sizeOf(d, sizes); ok {
				r *= x
			}
		}
		row = max(row, r)
	}
	length = max(length, min((fill+row-1)/row, (c.N+int64(ndev)-1)/int64(ndev)))
	length = max(length, min(minLen, (c.N+int64(ndev)-1)/int64(ndev)))
	if perElem > 0 {
		length = min(length, room/perElem, maxAlloc/max(1, perElem/2))
	}
	length = max(length, 1)
	// chunks start where views of the streamed arrays can start
	align := int64(1)
	for i := range p.Prog.Params {
		if !c.Streamed[i] {
			continue
		}
		a, ok := args[i].(*value.Array)
		if !ok || a.Kind != value.KPrim || a.Shape[0] == 0 {
			align = 0
			break
		}
		row := int64(runtime.TypeOf(a.T).Size()) * a.NumElems() / a.Shape[0]
		if a.T == value.F16 {
			row *= 2 // held as f32
		}
		for _, d := range devs {
			r := d.RowAlign(row)
			align = align / gcd(align, r) * r
		}
	}
	aligned := align > 0 && align <= c.N && (perElem == 0 || align <= room/perElem)
	if aligned {
		length = (length + align - 1) / align * align
	}
	sp := &splitting{ndev: ndev, budget: budget, c: c, length: length, finish: c.Finish(), aligned: aligned, minLen: minLen}
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
		if sp.kind == "map" && len(sp.finish.Body.Stms) == 0 {
			// the results are the map's arrays as they are
			at := map[string]int{}
			for j, q := range c.Soac.Pat {
				at[q.Name] = j
			}
			for _, a := range sp.finish.Body.Res {
				j, ok := at[a.Name]
				if !ok {
					sp.resultOf = nil
					break
				}
				sp.resultOf = append(sp.resultOf, j)
			}
		}
	}
	if sp.full, err = Flatten(c.Chunk(length)); err != nil {
		return nil, "its chunk is not flattened: " + err.Error()
	}
	if rest := c.N % length; rest != 0 {
		if sp.last, err = Flatten(c.Chunk(rest)); err != nil {
			return nil, "its last chunk is not flattened: " + err.Error()
		}
	}
	if len(c.Scans()) > 0 {
		// the first pass as reductions where they flatten (else the
		// scans from the neutral element, their last elements read)
		lf, err1 := Flatten(c.ChunkLasts(length))
		var ll *Plan
		var err2 error
		if rest := c.N % length; rest != 0 {
			ll, err2 = Flatten(c.ChunkLasts(rest))
		}
		if err1 == nil && err2 == nil {
			sp.lastsFull, sp.lastsLast = lf, ll
		}
	}
	if ip := c.Init(); ip != nil {
		if sp.init, err = flattenInit(ip); err != nil {
			return nil, "its destination is not made on the device: " + err.Error()
		}
	}
	return sp, ""
}

// ThreadsPerUnit is how many threads a compute unit runs at once, the
// measure of a chunk large enough to fill a device (tests set 0 to cut
// small nests into many chunks).
var ThreadsPerUnit int64 = runtime.UnitThreads

func sizeOf(a ir.Atom, sizes map[string]int64) (int64, bool) {
	if a.IsConst() {
		return a.Val.AsInt64(), true
	}
	x, ok := sizes[a.Name]
	return x, ok
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
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
	return fmt.Sprintf("%s (chunks run by %s) in %.3f s", si.Plan, strings.Join(per, ", "), si.Wall.Seconds())
}

// RunSplit is RunOn on a set of devices: the plan is split across them
// where it can be (Stats.Split says how), and runs on the first where
// it cannot. resident holds arguments already on the devices: one
// device's (Upload, for a run on the first) or every device's, device
// after device (UploadSplit's, flattened). With keep, a map's results
// stay in parts on the devices that made them (Results.Download joins
// them); other split results come back to the host.
func (p *Plan) RunSplit(ctx context.Context, devs []*runtime.Device, args []value.Value, resident []*runtime.Array, keep bool) (*Results, Stats, error) {
	if len(devs) == 0 {
		return nil, Stats{}, fmt.Errorf("flatten: no device")
	}
	if len(args) != len(p.Prog.Params) {
		return nil, Stats{}, fmt.Errorf("flatten: %d arguments for %d parameters", len(args), len(p.Prog.Params))
	}
	sp, why := p.splitFor(devs, args)
	var perDev [][]*runtime.Array
	if len(devs) > 1 && len(resident) == len(devs)*len(args) {
		for i := range devs {
			perDev = append(perDev, resident[i*len(args):(i+1)*len(args)])
		}
		resident = resident[:len(args)]
	}
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
	if single, why := p.probeSingle(); single {
		// the split does not pay, or this run measures one device (if
		// that fails, the split runs, and is kept)
		t0 := time.Now()
		res, st, err := p.RunOn(ctx, devs[0], args, resident, keep)
		p.noteOne(time.Since(t0), err)
		if err == nil || ctx.Err() != nil {
			st.Split.Why = why
			return res, st, err
		}
	}
	res, st, err := p.runSplit(ctx, devs, sp, args, perDev, keep)
	if err == nil {
		p.adapt(sp, st.Split.Wall)
		p.noteSplit(st.Split.Wall)
	}
	return res, st, err
}

// UploadSplit copies the array arguments of a split run to every device
// (resident[i][j]: argument j on devs[i]; nil where one stays on the
// host), for runs that take their chunks as views of them instead of
// uploading each; nil when the run does not split, its chunks do not
// start where views can, a step updates an argument in place, or the
// arguments would take more than half of a device's budget.
func (p *Plan) UploadSplit(devs []*runtime.Device, args []value.Value) ([][]*runtime.Array, error) {
	sp, _ := p.splitFor(devs, args)
	if sp == nil || sp.dest != nil || !sp.aligned {
		return nil, nil
	}
	updated := map[string]bool{}
	for _, q := range []*Plan{sp.full, sp.last} {
		if q != nil && !residentSafe(q.Steps, updated) {
			return nil, nil
		}
	}
	var total int64
	up := make([]bool, len(args))
	for j, prm := range p.Prog.Params {
		a, ok := args[j].(*value.Array)
		if !ok || a.Kind != value.KPrim || updated[prm.Name] || prm.Name == sp.c.Dest {
			continue
		}
		for _, w := range sp.c.Whole {
			if w.Param == j && updated[w.Name] {
				return nil, nil
			}
		}
		up[j] = true
		total += a.NumElems() * 4
	}
	if total > sp.budget/2 {
		return nil, nil
	}
	out := make([][]*runtime.Array, len(devs))
	for i, d := range devs {
		out[i] = make([]*runtime.Array, len(args))
		r := &runner{d: d, env: map[string]*slot{}}
		for j, prm := range p.Prog.Params {
			if !up[j] {
				continue
			}
			r.env[prm.Name] = &slot{host: args[j]}
			da, err := r.device(prm.Name)
			if err != nil {
				for _, rs := range out {
					for _, a := range rs {
						if a != nil {
							a.Release()
						}
					}
				}
				return nil, err
			}
			out[i][j] = da
		}
	}
	return out, nil
}
