package flatten

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"fut/eval/value"
	"fut/gpu/kernel"
	"fut/gpu/runtime"
	"fut/interp/ir"
)

// Stats records what a run did on the device.
type Stats struct {
	Launches  []string  // kernel names, in launch order
	Uploads   int       // arrays copied to the device
	Downloads int       // arrays and scalars copied back
	Chunks    ChunkInfo // how the run went in chunks (none: whole)
	Split     SplitInfo // how the run went across devices (none: on one)
}

// slot is one top-level variable during a run: a host value, a device
// array, or both (a copy made on demand). scalar marks a one-element
// device array that holds a scalar (a reduction's result).
type slot struct {
	host   value.Value
	dev    *runtime.Array
	scalar bool
	f16    bool // dev holds f16 values as f32 (ktype)
}

type runner struct {
	d       *runtime.Device
	env     map[string]*slot
	owned   []*runtime.Array // arrays the kernels made
	uploads []*runtime.Array // copies of host values, kept to the end
	stats   Stats
	// time spent making host memory for chunked results (chunk.go)
	hostAlloc  time.Duration
	hostPinned int64
	// syncChecks: each kernel is waited for and checked as it runs (a
	// chunked run: buffers released to the pool are refilled from the
	// transfer queue, which must not overtake a kernel still reading them)
	syncChecks bool
	// unchecked: kernels are launched with no check of their own, the
	// device's flag read once at the next flush (a split run's chunks,
	// run again with checks when one failed)
	unchecked bool
	// wholeMu, when set, guards the results that runs on several devices
	// read their chunks into (split.go)
	wholeMu *sync.Mutex
	// mark, when set (FUT_SPLIT_TRACE), notes the stages of each launch in
	// a split run's trace
	mark func(what string)
	// hosts, when set, memoises scalar host statements (Plan.hosts)
	hosts *hostMemo
	// slab holds the slots of host values (newSlot), inBuf the values a
	// scalar statement reads (scalarInputs): a call allocates them once,
	// not once per statement
	slab  []slot
	inBuf []value.Prim
}

// runScratch is what a run (RunOn) made for itself and a later run of
// the plan can use again: its map of variables, the first slab of its
// slots, its buffers of scalar inputs and of arrays made and uploaded.
// Nothing a run returns holds them: Results copies the slots it keeps.
type runScratch struct {
	env     map[string]*slot
	slab    []slot
	inBuf   []value.Prim
	owned   []*runtime.Array
	uploads []*runtime.Array
}

// keep takes r's map and buffers back, emptied (the slab: the one r
// started with).
func (sc *runScratch) keep(r *runner) {
	clear(r.env)
	clear(sc.slab[:cap(sc.slab)])
	sc.slab = sc.slab[:0]
	sc.inBuf = r.inBuf[:0]
	clear(r.owned)
	clear(r.uploads)
	sc.owned, sc.uploads = r.owned[:0], r.uploads[:0]
}

// newSlot is a slot holding s, from the runner's slab (a new one of 16
// once full: slots already handed out never move).
func (r *runner) newSlot(s slot) *slot {
	if len(r.slab) == cap(r.slab) {
		r.slab = make([]slot, 0, 16)
	}
	r.slab = append(r.slab, s)
	return &r.slab[len(r.slab)-1]
}

// Run executes the plan on d with one argument per program parameter and
// returns the program's results (with eval/value's representation: a
// value.Prim per scalar, a *value.Array per array). Device arrays made by
// the run are released before it returns. Any error (a device failure, a
// kernel's failed bounds check) leaves no partial result.
func (p *Plan) Run(ctx context.Context, d *runtime.Device, args []value.Value) ([]value.Value, Stats, error) {
	res, stats, err := p.RunOn(ctx, d, args, nil, false)
	if err != nil {
		return nil, stats, err
	}
	out, err := res.Download()
	res.Release()
	return out, stats, err
}

// Results are a run's results, some of them arrays left on the device.
type Results struct {
	host []value.Value
	dev  []*slot // a result on the device (nil: in host)
	// split[i]: result i in parts on the devices that made them (a split
	// run's map, split.go), of n rows in all
	split [][]part
	n     int64
	// room for the slots of dev (keepSlot), where newResults made it
	slots []slot
}

// keepSlot is a slot for dev holding s, from rs.slots while they last.
func (rs *Results) keepSlot(s slot) *slot {
	if len(rs.slots) < cap(rs.slots) {
		rs.slots = append(rs.slots, s)
		return &rs.slots[len(rs.slots)-1]
	}
	p := new(slot)
	*p = s
	return p
}

// newResults is Results for n results, with their slices in the same
// allocation where n is 1 or 2 (most calls').
func newResults(n int) *Results {
	if n > 2 {
		return &Results{host: make([]value.Value, n), dev: make([]*slot, n)}
	}
	r := &struct {
		Results
		host [2]value.Value
		dev  [2]*slot
		slot [2]slot
	}{}
	r.Results.host, r.Results.dev, r.Results.slots = r.host[:n:n], r.dev[:n:n], r.slot[:0:n]
	return &r.Results
}

// Download copies the results left on the device to the host (once).
func (rs *Results) Download() ([]value.Value, error) {
	for i, ps := range rs.split {
		if ps == nil {
			continue
		}
		var whole value.Value
		for _, pt := range ps {
			r := &runner{d: pt.a.Device(), env: map[string]*slot{"x": {dev: pt.a}}}
			if _, err := r.into(&whole, "x", pt.off, rs.n); err != nil {
				return nil, err
			}
			pt.a.Release()
		}
		rs.host[i] = whole
		rs.split[i] = nil
	}
	for i, s := range rs.dev {
		if s == nil {
			continue
		}
		r := &runner{}
		r.env = map[string]*slot{"x": s}
		v, err := r.hostValue("x")
		if err != nil {
			return nil, err
		}
		rs.host[i] = v
		s.dev.Release()
		rs.dev[i] = nil
	}
	return rs.host, nil
}

// Release frees the results left on the device.
func (rs *Results) Release() {
	for i, ps := range rs.split {
		for _, pt := range ps {
			pt.a.Release()
		}
		rs.split[i] = nil
	}
	for i, s := range rs.dev {
		if s != nil {
			s.dev.Release()
			rs.dev[i] = nil
		}
	}
}

// Upload copies the arguments that can stay on the device between runs
// to it: the arrays of primitive types (held as RunOn wants them) that no
// step updates in place, when the plan has no loop or branch steps (whose
// parameters could come to hold an argument); nil for the others.
func (p *Plan) Upload(d *runtime.Device, args []value.Value) ([]*runtime.Array, error) {
	out := make([]*runtime.Array, len(args))
	updated := map[string]bool{}
	if ch, err := p.fits(d, args); err != nil || ch != nil || !residentSafe(p.Steps, updated) {
		return out, nil
	}
	r := &runner{d: d, env: map[string]*slot{}}
	for i, prm := range p.Prog.Params {
		if a, ok := args[i].(*value.Array); !ok || a.Kind != value.KPrim || updated[prm.Name] {
			continue
		}
		r.env[prm.Name] = &slot{host: args[i]}
		da, err := r.device(prm.Name)
		if err != nil {
			for _, a := range out {
				if a != nil {
					a.Release()
				}
			}
			return nil, err
		}
		out[i] = da
	}
	return out, nil
}

// residentSafe reports whether the steps have no loop or branch, and
// records in updated the variables they update in place.
func residentSafe(ss []Step, updated map[string]bool) bool {
	for _, s := range ss {
		if s.Loop != nil || s.If != nil {
			return false
		}
		for _, a := range s.Args {
			if a.Binds != "" {
				updated[a.Var] = true
			}
		}
	}
	return true
}

// RunOn is Run with the arguments that resident holds (from Upload; nil
// entries and a nil resident: none) already on the device, where the run
// neither uploads nor releases them; with keep, the results made on
// the device stay there, for Results.Download.
func (p *Plan) RunOn(ctx context.Context, d *runtime.Device, args []value.Value, resident []*runtime.Array, keep bool) (*Results, Stats, error) {
	if len(args) != len(p.Prog.Params) {
		return nil, Stats{}, fmt.Errorf("flatten: %d arguments for %d parameters", len(args), len(p.Prog.Params))
	}
	runtime.TraceMark("RunOn")
	ch, err := p.fits(d, args)
	if err != nil {
		return nil, Stats{}, err
	}
	runtime.TraceMark("fits")
	if ch != nil && ch.destLen > 0 {
		return p.runDestChunked(ctx, d, ch, args)
	}
	if ch != nil {
		return p.runChunked(ctx, d, ch, args)
	}
	sc, _ := p.scratch.Get().(*runScratch)
	if sc == nil {
		sc = &runScratch{env: make(map[string]*slot, len(p.Prog.Params)+16), slab: make([]slot, 0, 16)}
	}
	r := &runner{d: d, env: sc.env, hosts: &p.hosts, slab: sc.slab, inBuf: sc.inBuf, owned: sc.owned, uploads: sc.uploads}
	kept := map[*runtime.Array]bool{}
	defer func() {
		for _, a := range r.owned {
			if !kept[a] {
				a.Release()
			}
		}
		for _, a := range r.uploads {
			if !kept[a] {
				a.Release()
			}
		}
		sc.keep(r)
		p.scratch.Put(sc)
	}()
	// whatever way the run ends, no launch of it is left unchecked for a
	// later run to report (and its kernels are done before its buffers
	// are released)
	defer d.Flush()
	for i, prm := range p.Prog.Params {
		r.env[prm.Name] = r.newSlot(slot{host: args[i]})
		if i < len(resident) && resident[i] != nil {
			r.env[prm.Name].dev = resident[i]
		}
	}
	if err := r.steps(ctx, p.Steps); err != nil {
		return nil, r.stats, err
	}
	if err := d.Flush(); err != nil { // the kernels' checks
		return nil, r.stats, err
	}
	owned := map[*runtime.Array]bool{}
	for _, a := range r.owned {
		owned[a] = true
	}
	res := newResults(len(p.Prog.Body.Res))
	for i, a := range p.Prog.Body.Res {
		if a.IsConst() {
			res.host[i] = a.Val
			continue
		}
		s, err := r.slot(a.Name)
		if err != nil {
			return nil, r.stats, err
		}
		// with keep, a result the run made on the device stays there,
		// a scalar (a reduction's) as well as an array: as a library's
		// reduction leaves its 0-d result on the device
		if keep && s.host == nil && owned[s.dev] && !kept[s.dev] {
			res.dev[i] = res.keepSlot(slot{dev: s.dev, f16: s.f16, scalar: s.scalar})
			kept[s.dev] = true
			continue
		}
		v, err := r.hostValue(a.Name)
		if err != nil {
			return nil, r.stats, err
		}
		res.host[i] = v
	}
	return res, r.stats, nil
}

func (r *runner) slot(name string) (*slot, error) {
	s, ok := r.env[name]
	if !ok {
		return nil, fmt.Errorf("flatten: %s has no value (a bug in the plan)", name)
	}
	return s, nil
}

// hostValue is the variable's value on the host, downloaded if need be.
func (r *runner) hostValue(name string) (value.Value, error) {
	s, err := r.slot(name)
	if err != nil {
		return nil, err
	}
	if s.host != nil {
		return s.host, nil
	}
	a, err := s.dev.Value()
	if err != nil {
		return nil, err
	}
	r.stats.Downloads++
	switch {
	case s.scalar && s.f16:
		s.host = value.MkFloat(value.F16, primAt(a, 0).Float())
	case s.scalar:
		s.host = primAt(a, 0)
	case s.f16:
		s.host = toF16(a)
	default:
		s.host = a
	}
	return s.host, nil
}

// device is the variable's array on the device, uploaded if need be.
func (r *runner) device(name string) (*runtime.Array, error) {
	s, err := r.slot(name)
	if err != nil {
		return nil, err
	}
	if s.dev != nil {
		return s.dev, nil
	}
	a, ok := s.host.(*value.Array)
	if !ok || a.Kind != value.KPrim {
		return nil, fmt.Errorf("flatten: %s is not an array of a primitive type", name)
	}
	if a.T == value.F16 { // held as f32 on the device (ktype)
		f32 := *a
		f32.T = value.F32
		a = &f32
	}
	da, err := r.d.UploadValue(a)
	if err != nil {
		return nil, err
	}
	r.stats.Uploads++
	r.uploads = append(r.uploads, da)
	s.dev = da
	return da, nil
}

// scalarArg is a scalar variable (or constant) as a Go number.
func (r *runner) scalarArg(a ir.Atom) (any, error) {
	var v value.Value = a.Val
	if !a.IsConst() {
		var err error
		if v, err = r.hostValue(a.Name); err != nil {
			return nil, err
		}
	}
	p, ok := v.(value.Prim)
	if !ok {
		return nil, fmt.Errorf("flatten: %s is not a scalar", a.Name)
	}
	switch {
	case p.T == value.Bool:
		return p.Bool(), nil
	case p.T.IsFloat():
		return p.Float(), nil
	case p.T.IsSigned():
		return p.Int(), nil
	}
	return p.Uint(), nil
}

// launch runs a kernel step. A kernel with irregular storage starts with
// a small capacity per thread; when a thread reports that its array does
// not fit, the kernel runs again with the capacity it asked for (at least
// double), its outputs made anew.
func (r *runner) launch(st Step) error {
	capacity := int64(64)
	for {
		need, err := r.launchOnce(st, capacity)
		if need == 0 {
			return err
		}
		capacity = max(2*capacity, need)
	}
}

// launchOnce runs a kernel step with the given capacity of irregular
// storage; need is the capacity a thread asked for (0: none).
func (r *runner) launchOnce(st Step, capacity int64) (need int64, err error) {
	k := st.Kernel
	var argBuf [8]any // on the stack for most kernels
	args := slices.Grow(argBuf[:0], len(st.Args))[:len(st.Args)]
	type bind struct {
		name        string
		a           *runtime.Array
		scalar, f16 bool
		narrow      string // Arg.Narrow
	}
	var bindBuf [4]bind
	binds := bindBuf[:0]
	var flag *runtime.Array
	var temps, outs []*runtime.Array // released at the end; kept if the launch succeeds
	defer func() {
		for _, a := range temps {
			a.Release()
		}
	}()
	for i, a := range st.Args {
		prm := k.Params[i]
		switch {
		case a.Capacity && !a.Out:
			args[i] = capacity
		case a.Flag:
			arr, err := r.d.Upload(kernel.I64, []int64{1}, []int64{0})
			if err != nil {
				return 0, err
			}
			temps = append(temps, arr)
			args[i], flag = arr, arr
		case a.Out:
			var shapeBuf [4]int64
			shape := append(shapeBuf[:0], 1)
			if !a.Scalar {
				shape = shape[:0]
				for _, d := range a.Shape {
					x, err := r.scalarArg(d)
					if err != nil {
						return 0, err
					}
					shape = append(shape, toInt(x))
				}
			}
			if a.Capacity {
				shape = append(shape, capacity)
			}
			arr, err := r.d.Alloc(prm.T, shape...)
			if err != nil {
				return 0, err
			}
			args[i] = arr
			if a.Scratch {
				temps = append(temps, arr)
				continue
			}
			outs = append(outs, arr)
			binds = append(binds, bind{a.Var, arr, a.Scalar, a.F16, a.Narrow})
		case prm.Buffer:
			arr, err := r.device(a.Var)
			if err != nil {
				return 0, err
			}
			args[i] = arr
			if a.Binds != "" {
				binds = append(binds, bind{a.Binds, arr, false, a.F16, ""})
			}
		default:
			x, err := r.scalarArg(ir.V(a.Var))
			if err != nil {
				return 0, err
			}
			args[i] = x
		}
	}
	// checked later, with the next read of the device, but for a kernel
	// that may ask for more room: its failed checks are then expected
	if r.mark != nil {
		r.mark("args " + k.Name)
	}
	runtime.TraceMark("launch")
	var runErr error
	// called directly (not through a func value), so that args can stay
	// on the stack
	switch {
	case flag != nil || r.syncChecks:
		runErr = r.d.Run(k, args...)
	case r.unchecked:
		runErr = r.d.RunUnchecked(k, args...)
	default:
		runErr = r.d.RunDeferred(k, args...)
	}
	if r.mark != nil {
		r.mark("run")
	}
	if flag != nil {
		v, err := flag.Value()
		if err != nil {
			return 0, err
		}
		if n := v.Data.([]int64)[0]; n > 0 {
			temps = append(temps, outs...)
			return n, nil
		}
	}
	if runErr != nil {
		temps = append(temps, outs...)
		return 0, runErr
	}
	r.owned = append(r.owned, outs...)
	r.stats.Launches = append(r.stats.Launches, k.Name)
	for _, b := range binds {
		r.env[b.name] = r.newSlot(slot{dev: b.a, scalar: b.scalar, f16: b.f16})
	}
	for _, b := range binds {
		if b.narrow == "" {
			continue
		}
		n, err := r.scalarArg(ir.V(b.narrow))
		if err != nil {
			return 0, err
		}
		if err := b.a.Narrow(toInt(n)); err != nil {
			return 0, err
		}
	}
	return 0, nil
}

// toF16 is an array of f16 held as f32 on the device, as f16 values
// (rounded: an atomic histogram's sums are not rounded as they go).
func toF16(a *value.Array) *value.Array {
	if xs, ok := a.Data.([]float32); ok {
		for i, x := range xs {
			xs[i] = float32(value.MkFloat(value.F16, float64(x)).Float())
		}
	}
	a.T = value.F16
	return a
}

func toInt(x any) int64 {
	switch x := x.(type) {
	case int64:
		return x
	case uint64:
		return int64(x)
	}
	return 0
}

// hostMemo keeps, for each scalar host statement of a plan (sizes,
// conversions and checks of the arguments: eight of them before
// mandelbrot's kernel), the values it read and the value it gave at its
// last evaluation, so that a call on the same scalars takes the value
// again: the IR's evaluator took 11–18 µs of host time before
// mandelbrot's launch on the H100's host, against 2 µs for dotprod's
// none. A statement's value is a function of the values it reads
// (ir.ScalarStmAtoms); a failed one is not kept.
type hostMemo struct {
	mu   sync.Mutex
	last map[*ir.Stm]hostResult
}

type hostResult struct {
	in  []value.Prim
	out value.Value
}

func (m *hostMemo) get(s *ir.Stm, in []value.Prim) (value.Value, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	h, ok := m.last[s]
	if !ok || len(h.in) != len(in) {
		return nil, false
	}
	for i := range in {
		if h.in[i] != in[i] {
			return nil, false
		}
	}
	return h.out, true
}

func (m *hostMemo) put(s *ir.Stm, in []value.Prim, out value.Value) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.last == nil {
		m.last = map[*ir.Stm]hostResult{}
	}
	m.last[s] = hostResult{in: in, out: out}
}

// scalarInputs is the values of the variables that scalar statement s
// reads, where all are scalars on the host or the device (ok), or the
// error of reading one: a device scalar's read reports the failure of
// the kernel that made it (a bounds check), once.
func (r *runner) scalarInputs(s *ir.Stm) (in []value.Prim, ok bool, err error) {
	atoms, ok := ir.ScalarStmAtoms(s)
	if !ok || len(s.Pat) != 1 {
		return nil, false, nil
	}
	in = r.inBuf[:0]
	for _, a := range atoms {
		if a.IsConst() {
			continue
		}
		v, err := r.hostValue(a.Name)
		if err != nil {
			return nil, false, err
		}
		p, isPrim := v.(value.Prim)
		if !isPrim {
			return nil, false, nil
		}
		in = append(in, p)
	}
	r.inBuf = in
	return in, true, nil
}

// host runs one statement on the host with the IR's evaluator (a scalar
// one's value taken from the plan's memo where it read the same values
// last time).
func (r *runner) host(ctx context.Context, s *ir.Stm) error {
	var in []value.Prim
	memo := false
	if r.hosts != nil {
		var err error
		if in, memo, err = r.scalarInputs(s); err != nil {
			return err
		}
		if memo {
			if v, ok := r.hosts.get(s, in); ok {
				r.env[s.Pat[0].Name] = r.newSlot(slot{host: v})
				return nil
			}
		}
	}
	if vs, ok, err := ir.EvalScalarStm(ctx, s, r.hostValue); ok {
		if err != nil {
			return err
		}
		r.env[s.Pat[0].Name] = r.newSlot(slot{host: vs[0]})
		if memo {
			r.hosts.put(s, slices.Clone(in), vs[0])
		}
		return nil
	}
	names := map[string]bool{}
	for _, n := range stmNames(s) {
		if _, ok := r.env[n]; ok {
			names[n] = true
		}
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	prog := &ir.Prog{Body: &ir.Body{Stms: []*ir.Stm{s}}}
	var args []value.Value
	for _, n := range sorted {
		v, err := r.hostValue(n)
		if err != nil {
			return err
		}
		prog.Params = append(prog.Params, ir.Param{Name: n, T: typeOfValue(v)})
		args = append(args, v)
	}
	for _, prm := range s.Pat {
		prog.Ret = append(prog.Ret, prm.T)
		prog.Body.Res = append(prog.Body.Res, ir.V(prm.Name))
	}
	vs, err := ir.EvalAll(ctx, prog, args)
	if err != nil {
		return err
	}
	for i, prm := range s.Pat {
		r.env[prm.Name] = &slot{host: vs[i]}
	}
	return nil
}

// typeOfValue is a parameter type for a value (shapes as constants).
func typeOfValue(v value.Value) ir.Type {
	switch v := v.(type) {
	case value.Prim:
		return ir.Scalar(v.T)
	case *value.Array:
		t := ir.Type{Elem: v.T}
		for _, d := range v.Shape {
			t.Shape = append(t.Shape, ir.I64(d))
		}
		return t
	}
	return ir.Type{}
}

// primAt is element i of a primitive array.
func primAt(a *value.Array, i int) value.Prim {
	switch d := a.Data.(type) {
	case []bool:
		return value.MkBool(d[i])
	case []int8:
		return value.MkInt(a.T, int64(d[i]))
	case []int16:
		return value.MkInt(a.T, int64(d[i]))
	case []int32:
		return value.MkInt(a.T, int64(d[i]))
	case []int64:
		return value.MkInt(a.T, d[i])
	case []uint8:
		return value.MkUint(a.T, uint64(d[i]))
	case []uint16:
		return value.MkUint(a.T, uint64(d[i]))
	case []uint32:
		return value.MkUint(a.T, uint64(d[i]))
	case []uint64:
		return value.MkUint(a.T, d[i])
	case []float32:
		return value.MkFloat(a.T, float64(d[i]))
	case []float64:
		return value.MkFloat(a.T, d[i])
	}
	return value.Prim{}
}
