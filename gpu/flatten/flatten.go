// Package flatten is the bridge from the fused core IR to kernels: it
// turns each top-level SOAC nest of a program into kernel IR and runs the
// result on a device, keeping arrays on the device between kernels.
//
// Input: a fused *ir.Prog (the output of ir.Run, the pass pipeline).
// Output: a *Plan, a list of steps: kernels (package kernel) with where
// their arguments come from, and the cheap statements between them, run
// on the host by the IR's evaluator. Plan.Run executes it on a
// runtime.Device and returns the program's results.
//
// What becomes a kernel (moderate flattening, as in Henriksen's thesis):
//
//   - a Screma over one-dimensional arrays (or over nothing but its index,
//     when iota producers were fused in): its map part is one Map kernel,
//     its reductions one two-stage Reduce kernel, its scans one Scan
//     kernel (each recomputes the lambda where a Screma has several
//     parts); Scatter and Hist likewise;
//
//   - a perfect nest of maps (nest.go): one Map kernel over all its
//     dimensions, or a segmented Reduce when the innermost level reduces
//     scalars from neutral elements known outside the nest;
//
//   - a map whose body is not one perfect nest is distributed
//     (distribute.go): what does not depend on the element is hoisted,
//     and the body splits at each inner map or scalar reduction into maps
//     of their own, the variables crossing a split expanded into arrays.
//     The rule: inner maps, scalar reductions and scalar scans at least
//     32 wide (sizes are the call's own, plans being specialised) and
//     for loops around them become parallel levels, at most 24 per
//     map; narrower ones, filters, histograms, scatters, while loops
//     and ifs run sequentially inside the thread of the enclosing level,
//     except histograms and filters of scalars in a map of fewer than
//     2^14 rows of at least 32 elements (segmented.go, which gives the
//     rule and its reasons): a histogram is then one histogram over all
//     the rows' elements into all their buckets, a filter segmented
//     operations that compute each row's count and start first (a
//     segmented scan of the flags) and scatter the kept elements of all
//     rows into one array, of which each row's thread reads its slice;
//
//   - inside a thread, arrays are views or storage (arrays.go): rows,
//     slices, transposes and reverses are views; what the thread builds
//     lives in its row of scratch memory, or in its output row when it is
//     a result; arrays whose size the thread computes (an iota of a
//     computed length, an if's existential result, a loop parameter
//     whose size changes between iterations) live in storage of a
//     capacity the run grows until every thread fits;
//
//   - reductions, scans and histograms of rows with a vectorised operator
//     (map2 (+)) are interchanged with the map (vector.go): a segmented
//     reduction over the columns, a scan per column, a histogram over the
//     rows' elements;
//
//   - reductions, scans and histograms whose operator takes arrays and
//     is not vectorised (arrayops.go): the elements in chunks, each
//     folded by a thread with the operator in global memory, the
//     chunks' partial results combined in order;
//
//   - Filter of scalars: one compacting scan (kernel.Keep) that writes
//     each kept element at the count of those before it, and the count;
//     of rows: a scan of the flags, a one-item kernel that reads the
//     count, and a scatter of the kept rows;
//
//   - array statements at the top level (iota, replicate, transpose, a
//     slice, concat, an update, …) run as kernels when their inputs are on
//     the device (materialise.go), so arrays do not round-trip through the
//     host; an array literal or a statement over host arrays stays there,
//     and the plan says why;
//
//   - a top-level loop (for, while, for-in) or if around SOACs
//     (control.go): run by the host, its bodies flattened in turn, arrays
//     kept on the device.
//
//   - a stream (reduce_stream, map_stream) is its fold applied once to
//     the whole arrays (ir.InlineStreams): one chunk is a valid schedule,
//     and the fold's body is flattened like the rest.
//
// f16 is computed in f32 and rounded after each operation (ktype). What
// is not flattened (a histogram of tuples, an array whose size is known
// only after it is built)
// makes Flatten return a *NotFlattened error whose message says why; the
// caller then stays on the reference path. Invariant: every kernel of a
// Plan passes kernel.Verify, and a Plan's steps read only variables bound
// before them.
package flatten

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"fut/eval/value"
	"fut/gpu/kernel"
	"fut/gpu/runtime"
	"fut/interp/ir"
)

// NotFlattened says why a program cannot run as kernels.
type NotFlattened struct{ Reason string }

func (e *NotFlattened) Error() string { return "not flattened: " + e.Reason }

// Plan is a flattened program.
type Plan struct {
	Prog  *ir.Prog
	Steps []Step
	// chunks is the plan's chunked form, made when a run does not fit
	// the device's memory budget (chunk.go)
	chunkMu sync.Mutex
	chunks  *chunking
	// split is the plan's split form across devices (split.go), or why
	// there is none, for the devices, budget and sizes of splitKey
	split    *splitting
	splitWhy string
	splitKey string
	// splitLen is the least chunk length of the split for splitKey that
	// earlier runs measured to be worth its chunk's costs (adapt)
	splitLen int64
	// probe: whether the split for splitKey pays against one device
	// (split_probe.go)
	probe splitProbe
	// src is the program before streams were inlined, which chunked runs
	// divide (a stream's chunks are its own)
	src *ir.Prog
	// hosts memoises the plan's scalar host statements (run.go)
	hosts hostMemo
	// fp memoises the footprint of the last arguments (chunk.go)
	fp footprintMemo
	// scratch keeps what finished runs made for themselves (RunOn:
	// their map of variables, slots and buffers), emptied, for later
	// runs: making a map of a plan's size took a call a microsecond
	scratch sync.Pool
}

// Step is one statement of the program's top level: a kernel launch
// (Kernel with one Arg per kernel parameter), a statement run on the host
// (Host), or a loop or if around kernels (Loop, If).
type Step struct {
	Kernel *kernel.Kernel
	Args   []Arg
	Host   *ir.Stm
	Why    string // why a host statement that binds an array is not a kernel
	Loop   *LoopStep
	If     *IfStep
}

// Arg says where a kernel parameter's argument comes from: the top-level
// IR variable Var, read (an input array or scalar), or bound by the
// launch (Out: a fresh device array of the given dimensions, or with
// Scalar a one-element array holding a scalar result).
type Arg struct {
	Var    string
	Out    bool
	Scalar bool
	Shape  []ir.Atom
	// Scratch marks an Out buffer that is the kernel's working memory:
	// bound to no variable, released after the launch.
	Scratch bool
	// Capacity: the scalar argument is the capacity of the kernel's
	// irregular storage, or (with Scratch) the buffer is such storage:
	// Shape followed by the capacity. Flag: (with Scratch) the one-element
	// buffer, zeroed before the launch, where a thread whose array does
	// not fit writes the capacity it needs.
	Capacity, Flag bool
	// F16: the variable is of f16, held on the device as f32 (ktype).
	F16 bool
	// Narrow (an Out array) names the scalar result of the same launch
	// that says how many of the array's rows are its value: the buffer is
	// made for Shape (a filter's input, the most it can keep) and the
	// array is its first rows.
	Narrow string
	// Binds names the variable that an input buffer updated in place
	// (a scatter's or hist's destination) becomes after the launch.
	Binds string
}

// Kernels lists the plan's kernels in order.
func (p *Plan) Kernels() []*kernel.Kernel { return kernelsOf(p.Steps, nil) }

func kernelsOf(ss []Step, ks []*kernel.Kernel) []*kernel.Kernel {
	for _, s := range ss {
		switch {
		case s.Kernel != nil:
			ks = append(ks, s.Kernel)
		case s.Loop != nil:
			ks = kernelsOf(s.Loop.Body, kernelsOf(s.Loop.While, ks))
		case s.If != nil:
			ks = kernelsOf(s.If.Else, kernelsOf(s.If.Then, ks))
		}
	}
	return ks
}

// String is the plan's kernels and host statements, for :ir.
func (p *Plan) String() string {
	var b strings.Builder
	writeSteps(&b, p.Steps, "")
	return b.String()
}

func writeSteps(b *strings.Builder, ss []Step, indent string) {
	for _, s := range ss {
		switch {
		case s.Kernel != nil:
			for _, l := range strings.Split(strings.TrimRight(s.Kernel.String(), "\n"), "\n") {
				fmt.Fprintf(b, "%s%s\n", indent, l)
			}
		case s.Loop != nil:
			fmt.Fprintf(b, "%shost loop %v {\n", indent, names(s.Loop.Pat))
			if s.Loop.While != nil {
				fmt.Fprintf(b, "%s  while:\n", indent)
				writeSteps(b, s.Loop.While, indent+"    ")
			}
			writeSteps(b, s.Loop.Body, indent+"  ")
			fmt.Fprintf(b, "%s}\n", indent)
		case s.If != nil:
			fmt.Fprintf(b, "%shost if %v {\n", indent, names(s.If.Pat))
			writeSteps(b, s.If.Then, indent+"  ")
			fmt.Fprintf(b, "%s} else {\n", indent)
			writeSteps(b, s.If.Else, indent+"  ")
			fmt.Fprintf(b, "%s}\n", indent)
		default:
			q := &ir.Prog{Body: &ir.Body{Stms: []*ir.Stm{s.Host}}}
			fmt.Fprintf(b, "%shost: %s\n", indent, strings.TrimSpace(firstStm(q.String())))
			if s.Why != "" {
				fmt.Fprintf(b, "%s  -- on the host: %s\n", indent, s.Why)
			}
		}
	}
}

func names(ps []ir.Param) []string {
	ns := make([]string, len(ps))
	for i, p := range ps {
		ns[i] = p.Name
	}
	return ns
}

// firstStm picks the statement line out of a printed one-statement program.
func firstStm(text string) string {
	lines := strings.Split(text, "\n")
	for i := len(lines) - 1; i > 0; i-- {
		if strings.HasPrefix(lines[i], "  return") {
			return strings.Join(lines[1:i], "\n")
		}
	}
	return text
}

type flattener struct {
	types map[string]ir.Type // top-level variables
	host  map[string]bool    // top-level variables whose values are on the host
	defs  map[string]ir.Exp  // what the statements of one variable bound it to
	depth int                // of distributions in progress
	steps []Step
	nk    int
	// noTiling keeps segmented reductions where tiling applies
	// (FUT_TILING=off, to compare the two)
	noTiling bool
	uses     map[string]int // how many times the program reads each top-level name
	// kernelReads: the top-level names whose values kernels will read
	kernelReads map[string]bool
}

// Flatten turns a fused program into a plan, or says why it cannot
// (a *NotFlattened error).
func Flatten(p *ir.Prog) (plan *Plan, err error) {
	p = ir.SplitPartitions(p) // kernels for filters only, as yet
	src := p
	p = ir.InlineStreams(p) // one chunk: the fold's body is flattened
	f := &flattener{types: map[string]ir.Type{}, host: map[string]bool{}, defs: map[string]ir.Exp{}, noTiling: os.Getenv("FUT_TILING") == "off"}
	defer func() {
		if r := recover(); r != nil {
			nf, ok := r.(*NotFlattened)
			if !ok {
				nf = &NotFlattened{Reason: fmt.Sprintf("internal error in the flattener: %v", r)}
			}
			plan, err = nil, nf
		}
	}()
	for _, prm := range p.Params {
		f.types[prm.Name] = prm.T
		f.host[prm.Name] = true
	}
	f.uses = map[string]int{}
	for _, s := range p.Body.Stms {
		ir.Uses(s.E, func(n string) { f.uses[n]++ })
	}
	for _, a := range p.Body.Res {
		f.uses[a.Name]++
	}
	f.kernelReads = kernelReads(p.Body)
	for _, s := range p.Body.Stms {
		f.stm(s)
		for _, prm := range s.Pat {
			f.types[prm.Name] = prm.T
		}
	}
	steps := dropDead(p, f.steps)
	if !hasSOACKernel(p) {
		fail("the expression has no SOAC to run as a kernel")
	}
	return &Plan{Prog: p, Steps: steps, src: src}, nil
}

func fail(format string, args ...any) {
	panic(&NotFlattened{Reason: fmt.Sprintf(format, args...)})
}

func (f *flattener) stm(s *ir.Stm) {
	if len(s.Pat) == 1 {
		f.defs[s.Pat[0].Name] = s.E
	}
	switch e := s.E.(type) {
	case *ir.ScremaE:
		f.screma(s, e)
	case *ir.ScatterE:
		f.scatter(s, e)
	case *ir.HistE:
		f.hist(s, e)
	case *ir.StreamE:
		fail("reduce_stream and map_stream are not flattened yet")
	case *ir.FilterE:
		f.filter(s, e)
	case *ir.IfE:
		if !hasSOAC(e) {
			f.hostStep(s, "an if without SOACs, chosen by the host")
			return
		}
		f.ifStep(s, e)
	case *ir.LoopE:
		if !hasSOAC(e) {
			f.hostStep(s, "a loop without SOACs, run by the host")
			return
		}
		f.loopStep(s, e)
	case *ir.IndexE:
		if t := f.types[e.Arr]; !f.host[e.Arr] && len(e.Idx) == t.Rank() {
			f.index(s, e)
			return
		}
		if ok, why := f.arrayStep(s); !ok {
			f.hostStep(s, why)
		}
	default:
		if ok, why := f.arrayStep(s); !ok {
			f.hostStep(s, why)
		}
	}
}

// hostStep runs s on the host; why says why, when s binds an array.
func (f *flattener) hostStep(s *ir.Stm, why string) {
	arrays := false
	for _, prm := range s.Pat {
		arrays = arrays || prm.T.Rank() > 0
	}
	if !arrays {
		why = ""
	}
	for _, prm := range s.Pat {
		f.host[prm.Name] = true
	}
	f.steps = append(f.steps, Step{Host: s, Why: why})
}

// index reads one element of an array that kernels made with a one-item
// kernel (bounds-checked), instead of copying the array back.
func (f *flattener) index(s *ir.Stm, e *ir.IndexE) {
	b := f.newKernel("index", s)
	j := b.fresh("j", kernel.I64)
	idx := make([]kernel.Exp, len(e.Idx))
	for i, a := range e.Idx {
		idx[i] = toI64(b.atom(a))
	}
	v := b.fresh("elem", ktype(s.Pat[0].T.Elem))
	out := b.output(s.Pat[0], true)
	b.cur = append(b.cur, kernel.L(v, kernel.Rd(b.buffer(e.Arr), idx...)), kernel.Wr(out, v, kernel.I64C(0)))
	f.emit(b, &kernel.Map{Dims: []kernel.Exp{kernel.I64C(1)}, Idx: []kernel.Var{j}, Body: b.cur})
}

// threads sets the kernel's index space (for scratch rows): the sizes
// dims, the point idx.
func (b *kbuild) threads(dims []ir.Atom, idx ...kernel.Var) {
	b.tdims = dims
	b.tidx = toExps(idx)
}

// outRow is the row at idx of a fresh output bound to prm.
func (b *kbuild) outRow(prm ir.Param, idx ...kernel.Var) view {
	v := bufView(b.output(prm, false)).rowsOf(toExps(idx)...)
	v.whole = true
	return v
}

// newKernel starts a kernel named after the statement's first result.
func (f *flattener) newKernel(shape string, s *ir.Stm) *kbuild {
	f.nk++
	name := fmt.Sprintf("k%d_%s_%s", f.nk, shape, cname(s.Pat[0].Name))
	b := &kbuild{f: f, k: &kernel.Kernel{Name: name}, byName: map[string]*kernel.Param{}, env: map[string]kernel.Exp{},
		views: map[string]view{}, owned: map[string]bool{}, dest: map[string]view{}, placed: map[string]bool{}}
	// a kernel made of one statement (an index, an array step) raises
	// that statement's errors
	b.site = b.k.AddSite(siteOf(s))
	return b
}

func (f *flattener) emit(b *kbuild, shape kernel.Shape) {
	b.k.Shape = shape
	if m, ok := shape.(*kernel.Map); ok && b.site != 0 {
		kernel.Stamp(m.Body, b.site)
	}
	if b.capParam != nil {
		for _, a := range b.args {
			if a.Binds != "" {
				fail("an array whose size is computed inside a kernel that updates %s in place is not flattened yet", a.Var)
			}
		}
	}
	if err := kernel.Verify(b.k); err != nil {
		fail("the kernel built for %s is ill-formed (a bug): %v", b.k.Name, err)
	}
	f.steps = append(f.steps, Step{Kernel: b.k, Args: b.args})
}

// checkInputs requires scalar lambda results.
func (f *flattener) checkInputs(what string, arrs []string, lam *ir.Lambda) {
	for _, t := range lam.Ret {
		if t.Rank() > 0 {
			fail("a %s whose lambda returns arrays (a nested SOAC) is not flattened yet", what)
		}
	}
}

func arity(ops []*ir.SegOp) int {
	n := 0
	for _, op := range ops {
		n += op.Arity()
	}
	return n
}

func (f *flattener) screma(s *ir.Stm, e *ir.ScremaE) {
	if ss := f.distribute(s, e); ss != nil {
		f.depth++
		defer func() { f.depth-- }()
		if f.depth > 64 {
			fail("map distribution nests deeper than 64 levels (a bug in the flattener)")
		}
		for _, st := range ss {
			f.stm(st)
			for _, prm := range st.Pat {
				f.types[prm.Name] = prm.T
			}
		}
		return
	}
	if f.segHist(s, e) || f.segFilter(s, e) {
		return
	}
	if f.nest(s, e) {
		return
	}
	nScan, nRed := arity(e.Scans), arity(e.Reds)
	vecScans := false
	for _, t := range e.Map.Ret[:nScan] {
		if t.Rank() > 0 {
			vecScans = true
		}
	}
	vec := false
	for _, t := range e.Map.Ret[nScan : nScan+nRed] {
		if t.Rank() > 0 {
			vec = true
		}
	}
	nMap := len(e.Map.Ret) - nScan - nRed
	if nMap > 0 {
		b := f.newKernel("map", s)
		n := b.size(e.W)
		i := b.fresh("i", kernel.I64)
		b.threads([]ir.Atom{e.W}, i)
		dsts := make([]*view, len(e.Map.Ret))
		for k := range nMap {
			v := b.outRow(s.Pat[nScan+nRed+k], i)
			dsts[nScan+nRed+k] = &v
		}
		b.place(e.Map.Body, dsts)
		b.element(e.Arrs, e.Index, e.Map, i)
		for k := nScan + nRed; k < len(dsts); k++ {
			b.store(*dsts[k], e.Map.Body.Res[k], e.Map.Ret[k])
		}
		f.emit(b, &kernel.Map{Dims: []kernel.Exp{n}, Idx: []kernel.Var{i}, Body: b.cur})
	}
	// The first kernel of the Screma computes its whole lambda (and so
	// raises its errors); the later ones recompute only their own part.
	whole := true
	part := func(k int) *ir.Lambda {
		if whole {
			whole = false
			return e.Map
		}
		return prefixLambda(e.Map, k)
	}
	if nMap > 0 {
		whole = false
	}
	if vec && !f.vecReduce(s, e) {
		f.arrayReduce(s, e, part(nScan+nRed), nScan)
	}
	if vec {
		whole = false
	}
	if nRed > 0 && !vec {
		b := f.newKernel("reduce", s)
		n := b.size(e.W)
		i := b.fresh("i", kernel.I64)
		b.threads([]ir.Atom{e.W}, i)
		res := b.element(e.Arrs, e.Index, part(nScan+nRed), i)
		body := b.cur
		op, nes, comm := b.segops(e.Reds)
		var outs []*kernel.Param
		for k := range nRed {
			outs = append(outs, b.output(s.Pat[nScan+k], true))
		}
		f.emit(b, &kernel.Reduce{N: n, I: i, Body: body, Elems: res[nScan : nScan+nRed], Op: op, Neutral: nes, Comm: comm, Out: outs})
	}
	if vecScans && !f.vecScan(s, e) {
		f.arrayScan(s, e, part(nScan))
	}
	if nScan > 0 && !vecScans {
		b := f.newKernel("scan", s)
		n := b.size(e.W)
		i := b.fresh("i", kernel.I64)
		b.threads([]ir.Atom{e.W}, i)
		res := b.element(e.Arrs, e.Index, part(nScan), i)
		body := b.cur
		op, nes, comm := b.segops(e.Scans)
		var outs []*kernel.Param
		for k := range nScan {
			outs = append(outs, b.output(s.Pat[k], false))
		}
		f.emit(b, &kernel.Scan{N: n, I: i, Body: body, Elems: res[:nScan], Op: op, Neutral: nes, Comm: comm, Out: outs})
	}
}

// prefixLambda is lam returning only its first k results, with the
// statements they do not need removed (those that can fail too: a kernel
// that computes the whole lambda raises their errors).
func prefixLambda(lam *ir.Lambda, k int) *ir.Lambda {
	live := map[string]bool{}
	for _, a := range lam.Body.Res[:k] {
		live[a.Name] = true
	}
	var kept []*ir.Stm
	for i := len(lam.Body.Stms) - 1; i >= 0; i-- {
		st := lam.Body.Stms[i]
		used := false
		for _, p := range st.Pat {
			used = used || live[p.Name]
		}
		if !used {
			continue
		}
		ir.Uses(st.E, func(n string) { live[n] = true })
		for _, p := range st.Pat {
			for _, d := range p.T.Shape {
				live[d.Name] = true
			}
		}
		kept = append(kept, st)
	}
	slices.Reverse(kept)
	return &ir.Lambda{Params: lam.Params, Ret: lam.Ret[:k], Body: &ir.Body{Stms: kept, Res: lam.Body.Res[:k]}}
}

// filter is one kernel where the kept values are scalars: a scan of the
// flags that writes each kept element's values at the count of those
// before it, and the count (a compaction, kernel.Keep: one pass over the
// input, no array of offsets). With rows to keep, it is three: an
// inclusive scan of the flags (the offsets), the count (the last
// offset), and a scatter of the kept elements to their offsets.
func (f *flattener) filter(s *ir.Stm, e *ir.FilterE) {
	if e.Map.Ret[0].Rank() > 0 {
		fail("a filter whose condition is an array (a bug)")
	}
	for _, prm := range s.Pat {
		f.types[prm.Name] = prm.T
	}
	count := s.Pat[0]
	// the offsets are i32 where the size is known to fit (half the bytes
	// written by the scan and read by the scatter), else i64
	ot, kt := value.I64, kernel.I64
	if e.W.IsConst() && e.W.Val.AsInt64() < 1<<31-1 {
		ot, kt = value.I32, kernel.I32
	}
	// flags starts the kernel (called name) that scans the elements'
	// flags (1 where kept): its builder, its Scan (without its body,
	// which is the builder's, and without outputs) and the lambda's
	// results
	flags := func(name string) (*kbuild, *kernel.Scan, []kernel.Exp) {
		b := f.newKernel(name, s)
		n := b.size(e.W)
		i := b.fresh("i", kernel.I64)
		res := b.element(e.Arrs, e.Index, e.Map, i)
		flag := b.fresh("flag", kt)
		b.cur = append(b.cur, kernel.L(flag, kernel.Sel(res[0], kernel.Int(kt, 1), kernel.Int(kt, 0))))
		return b, &kernel.Scan{N: n, I: i, Elems: []kernel.Exp{flag}, Op: kernel.BinLambda("+", kt), Neutral: []kernel.Exp{kernel.Int(kt, 0)}, Comm: true}, res
	}
	compact := true
	for _, prm := range s.Pat[1:] {
		compact = compact && prm.T.Rank() == 1
	}
	if compact {
		b, sc, res := flags("filter")
		sc.Keep = &kernel.Keep{Count: b.output(count, true)}
		for k, prm := range s.Pat[1:] {
			sc.Keep.Dest = append(sc.Keep.Dest, b.outputUpTo(prm, e.W, count.Name))
			sc.Keep.Vals = append(sc.Keep.Vals, res[1+k])
		}
		sc.Body = b.cur
		f.emit(b, sc)
		return
	}
	offs := ir.Param{Name: fmt.Sprintf("offs_%d_%s", f.nk+1, count.Name), T: ir.Type{Elem: ot, Shape: []ir.Atom{e.W}}}
	f.types[offs.Name] = offs.T
	one, zero := kernel.I64C(1), kernel.I64C(0)

	b, sc, _ := flags("scan")
	sc.Out = []*kernel.Param{b.output(offs, false)}
	sc.Body = b.cur
	f.emit(b, sc)

	b = f.newKernel("count", s)
	n := b.size(e.W)
	j := b.fresh("j", kernel.I64)
	last, r := b.fresh("last", kernel.I64), b.fresh("count", kernel.I64)
	ob := b.buffer(offs.Name)
	cnt := b.output(count, true)
	b.cur = append(b.cur, &kernel.If{
		Cond: kernel.Bin(">", n, zero),
		Then: []kernel.Stmt{kernel.L(last, toI64(kernel.Rd(ob, kernel.Bin("-", n, one))))}, ThenRes: []kernel.Exp{last},
		ElseRes: []kernel.Exp{zero}, Res: []kernel.Var{r},
	}, kernel.Wr(cnt, r, zero))
	f.emit(b, &kernel.Map{Dims: []kernel.Exp{one}, Idx: []kernel.Var{j}, Body: b.cur})

	b = f.newKernel("scatter", s)
	n = b.size(e.W)
	i := b.fresh("i", kernel.I64)
	b.threads([]ir.Atom{e.W}, i)
	res := b.element(e.Arrs, e.Index, e.Map, i)
	o, at := b.fresh("off", kernel.I64), b.fresh("at", kernel.I64)
	b.cur = append(b.cur, kernel.L(o, toI64(kernel.Rd(b.buffer(offs.Name), i))),
		kernel.L(at, kernel.Sel(res[0], kernel.Bin("-", o, one), kernel.I64C(-1))))
	scat := &kernel.Scatter{N: n, I: i, Body: b.cur}
	for k, prm := range s.Pat[1:] {
		if prm.T.Rank() > 1 {
			continue // rows: below
		}
		scat.Dest = append(scat.Dest, b.output(prm, false))
		scat.Idx = append(scat.Idx, at)
		scat.Vals = append(scat.Vals, res[1+k])
	}
	if len(scat.Dest) > 0 {
		f.emit(b, scat)
	}
	for k, prm := range s.Pat[1:] {
		if prm.T.Rank() > 1 {
			f.filterRows(s, e, offs.Name, 1+k, prm)
		}
	}
}

// filterRows writes the kept rows of a filter's value k: a thread per
// element of each row.
func (f *flattener) filterRows(s *ir.Stm, e *ir.FilterE, offs string, k int, prm ir.Param) {
	b := f.newKernel("scatter", s)
	rowDims := e.Map.Ret[k].Shape
	dims := []kernel.Exp{b.size(e.W)}
	idx := []kernel.Var{b.fresh("i", kernel.I64)}
	for _, d := range rowDims {
		dims = append(dims, b.size(d))
		idx = append(idx, b.fresh("k", kernel.I64))
	}
	b.threads(append([]ir.Atom{e.W}, rowDims...), idx...)
	res := b.element(e.Arrs, e.Index, e.Map, idx[0])
	o := b.fresh("off", kernel.I64)
	b.cur = append(b.cur, kernel.L(o, toI64(kernel.Rd(b.buffer(offs), idx[0]))))
	rest := toExps(idx[1:])
	v := b.read(b.arr(e.Map.Body.Res[k].Name), rest...)
	body := b.cur
	b.cur = nil
	out := bufView(b.output(prm, false))
	b.write(out, v, append([]kernel.Exp{kernel.Bin("-", o, kernel.I64C(1))}, rest...)...)
	b.cur = append(body, &kernel.If{Cond: res[0], Then: b.cur})
	f.emit(b, &kernel.Map{Dims: dims, Idx: idx, Body: b.cur})
}

// destination checks a scatter or hist destination: one-dimensional.
func (f *flattener) destination(what, dest string) {
	if t := f.types[dest]; t.Rank() != 1 {
		fail("a %s into a %d-dimensional array is not flattened yet", what, t.Rank())
	}
}

func (f *flattener) scatter(s *ir.Stm, e *ir.ScatterE) {
	if len(e.Map.Ret) != 2 {
		fail("a scatter with %d results per element is not flattened yet", len(e.Map.Ret))
	}
	if e.Map.Ret[1].Rank() > 0 {
		f.scatterRows(s, e)
		return
	}
	f.checkInputs("scatter", e.Arrs, e.Map)
	f.destination("scatter", e.Dest)
	b := f.newKernel("scatter", s)
	n := b.size(e.W)
	i := b.fresh("i", kernel.I64)
	b.threads([]ir.Atom{e.W}, i)
	res := b.element(e.Arrs, e.Index, e.Map, i)
	dest := b.inPlace(e.Dest, s.Pat[0])
	f.emit(b, &kernel.Scatter{N: n, I: i, Body: b.cur, Dest: []*kernel.Param{dest}, Idx: []kernel.Exp{toI64(res[0])}, Vals: []kernel.Exp{res[1]}})
}

// scatterRows is a scatter of rows: a Map kernel that writes each row to
// the destination's row at its index when that is in range. A row that
// is a row of an input is copied by a thread per element; a row the
// lambda computes, by the thread that computes it.
func (f *flattener) scatterRows(s *ir.Stm, e *ir.ScatterE) {
	b := f.newKernel("scatter", s)
	rowDims := e.Map.Ret[1].Shape
	perElem := false
	for _, p := range e.Map.Params {
		perElem = perElem || p.Name == e.Map.Body.Res[1].Name
	}
	dims := []kernel.Exp{b.size(e.W)}
	idx := []kernel.Var{b.fresh("i", kernel.I64)}
	tdims := []ir.Atom{e.W}
	if perElem {
		for _, d := range rowDims {
			dims = append(dims, b.size(d))
			idx = append(idx, b.fresh("k", kernel.I64))
		}
		tdims = append(tdims, rowDims...)
	}
	b.threads(tdims, idx...)
	res := b.element(e.Arrs, e.Index, e.Map, idx[0])
	dest := bufView(b.inPlace(e.Dest, s.Pat[0]))
	at := toI64(res[0])
	src := b.arr(e.Map.Body.Res[1].Name)
	body := b.cur
	b.cur = nil
	if perElem {
		rest := toExps(idx[1:])
		b.write(dest, b.read(src, rest...), append([]kernel.Exp{at}, rest...)...)
	} else {
		b.copyTo(dest.rowsOf(at), src)
	}
	b.cur = append(body, &kernel.If{Cond: inRange(at, dest.shape[0]), Then: b.cur})
	f.emit(b, &kernel.Map{Dims: dims, Idx: idx, Body: b.cur})
}

func (f *flattener) hist(s *ir.Stm, e *ir.HistE) {
	if len(e.Map.Ret) == 2 && e.Map.Ret[1].Rank() > 0 {
		if !f.vecHist(s, e) {
			f.arrayHist(s, e)
		}
		return
	}
	f.checkInputs("hist", e.Arrs, e.Map)
	f.destination("hist", e.Dest)
	if e.Op.Arity() != 1 || len(e.Map.Ret) != 2 {
		fail("a histogram of tuples is not flattened yet")
	}
	b := f.newKernel("hist", s)
	n := b.size(e.W)
	i := b.fresh("i", kernel.I64)
	b.threads([]ir.Atom{e.W}, i)
	res := b.element(e.Arrs, e.Index, e.Map, i)
	body := b.cur
	op, nes, _ := b.segops([]*ir.SegOp{e.Op})
	dest := b.inPlace(e.Dest, s.Pat[0])
	f.emit(b, &kernel.Hist{N: n, I: i, Body: body, Dest: dest, Bin: toI64(res[0]), Val: res[1], Op: op, OpName: atomicOp(e.Op, f.types[e.Dest].Elem), Neutral: nes[0]})
}

// hasSOACKernel reports whether the program has SOAC work (plans without
// it, only array statements, stay on the reference path: the host is
// quicker for them).
func hasSOACKernel(p *ir.Prog) bool {
	return bodyHasSOAC(p.Body)
}

// hasSOAC reports whether an expression holds a SOAC anywhere inside.
func hasSOAC(e ir.Exp) bool {
	switch e := e.(type) {
	case *ir.ScremaE, *ir.ScatterE, *ir.HistE, *ir.StreamE, *ir.FilterE:
		return true
	case *ir.IfE:
		return bodyHasSOAC(e.Then) || bodyHasSOAC(e.Else)
	case *ir.LoopE:
		return bodyHasSOAC(e.While) || bodyHasSOAC(e.Body)
	}
	return false
}

func bodyHasSOAC(b *ir.Body) bool {
	if b == nil {
		return false
	}
	for _, s := range b.Stms {
		if hasSOAC(s.E) {
			return true
		}
	}
	return false
}

// cname makes an IR name usable in a C identifier.
func cname(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// ktype is the kernel type of an IR primitive type. Kernels compute f16
// in f32, rounding each result to half precision (let), and hold f16
// arrays as f32 on the device (the run converts at the host boundary):
// many devices (PoCL, NVIDIA's OpenCL) have no cl_khr_fp16.
func ktype(t ir.Prim) kernel.Type {
	if t == value.F16 {
		return kernel.F32
	}
	k := runtime.TypeOf(t)
	if k == kernel.NoType {
		fail("values of type %v cannot live on the device", t)
	}
	return k
}
