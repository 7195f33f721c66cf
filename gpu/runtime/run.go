package runtime

import (
	"fmt"
	"math"
	"strings"
	"unsafe"

	"fut/gpu/cl"
	"fut/gpu/kernel"
	"fut/gpu/opencl"
)

// KernelError is a failure detected by a kernel: an index out of bounds
// (Indices, Shape) or a division by zero. Its message is the reference
// evaluator's.
type KernelError struct {
	Kernel  string
	Kind    int // opencl.ErrBounds, ErrDivZero, ErrNegExp, ErrAssert
	Indices []int64
	Shape   []int64
	// the failing statement's source position and check message, where
	// the kernel knows them (kernel.Site)
	Where, Msg string
}

// Located is the source position and message of the failure, as the
// reference path reports them ("" where the kernel does not know it).
func (e *KernelError) Located() (where, msg string) { return e.Where, e.message() }

func (e *KernelError) Error() string {
	if e.Where != "" {
		pos, _, _ := strings.Cut(e.Where, " <- ") // the backtrace follows
		return pos + ": " + e.message()
	}
	return e.message()
}

func (e *KernelError) message() string {
	switch e.Kind {
	case opencl.ErrBounds:
		is := make([]string, len(e.Indices))
		for i, x := range e.Indices {
			is[i] = fmt.Sprint(x)
		}
		var sh strings.Builder
		for _, d := range e.Shape {
			fmt.Fprintf(&sh, "[%d]", d)
		}
		return fmt.Sprintf("Index [%s] out of bounds for array of shape %s.", strings.Join(is, ", "), sh.String())
	case opencl.ErrDivZero:
		return "division by zero"
	case opencl.ErrNegExp:
		return "negative exponent in integer power"
	case opencl.ErrAssert:
		if e.Msg != "" {
			return e.Msg
		}
		return "a check of the program failed (an assertion, a size coercion or a slice's bounds)"
	}
	return fmt.Sprintf("kernel %s failed (error %d)", e.Kernel, e.Kind)
}

// launch is one bound invocation.
type launch struct {
	d      *Device
	c      *compiled
	k      *kernel.Kernel
	args   []any     // per IR parameter: *cl.Buffer or a Go scalar
	sizes  []sizeVal // the integer scalar arguments, by name (eval)
	events []*cl.Event
	evName []string
	nextSc int
}

// sizeVal is an integer scalar argument of a launch.
type sizeVal struct {
	name string
	v    int64
}

// sizeOf is the integer scalar argument named name.
func (l *launch) sizeOf(name string) (int64, bool) {
	for _, s := range l.sizes {
		if s.name == name {
			return s.v, true
		}
	}
	return 0, false
}

// Run runs k with one argument per parameter: an *Array for a buffer
// (whose shape must hold the parameter's shape), a Go number or bool for
// a scalar (converted to the parameter's type; f16 from float32/float64).
// Results are left in the output Arrays; Run returns once the kernels are
// done and their error flag is checked.
func (d *Device) Run(k *kernel.Kernel, args ...any) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.run(k, args, checkNow)
}

// How a launch's checks are made (deferred.go).
type checkMode int

const (
	checkNow       checkMode = iota // waited for and checked at once
	checkDeferred                   // its flag copied after it, read at the next flush
	checkUnchecked                  // the flag read once at the next flush
)

func (d *Device) run(k *kernel.Kernel, args []any, mode checkMode) error {
	if d.closed {
		return fmt.Errorf("runtime: device closed")
	}
	if len(args) != len(k.Params) {
		return fmt.Errorf("runtime: kernel %s takes %d arguments, given %d", k.Name, len(k.Params), len(args))
	}
	// a tiled kernel is built once its sizes are chosen (tile_search.go),
	// which needs its scalar arguments
	tiled, isTiled := k.Shape.(*kernel.Tiled)
	var c *compiled
	var err error
	if !isTiled {
		if c, err = d.compile(k); err != nil {
			return err
		}
	}
	// the args and sizes in the device's slices, kept from launch to
	// launch (d.mu is held; the launch stays on the stack)
	if cap(d.launchArgs) < len(args) {
		d.launchArgs = make([]any, len(args))
	}
	l := &launch{d: d, c: c, k: k, args: d.launchArgs[:len(args)], sizes: d.launchSizes[:0]}
	defer func() {
		clear(l.args) // no buffer kept from the collector
		d.launchSizes = l.sizes[:0]
	}()
	for i, p := range k.Params {
		if p.Buffer {
			continue
		}
		v, err := scalarArg(p.T, args[i])
		if err != nil {
			return fmt.Errorf("runtime: kernel %s argument %s: %w", k.Name, p.Name, err)
		}
		l.args[i] = v
		if p.T.IsInt() {
			l.sizes = append(l.sizes, sizeVal{p.Name, toInt64(v)})
		}
	}
	for i, p := range k.Params {
		if !p.Buffer {
			continue
		}
		a, ok := args[i].(*Array)
		if !ok || a == nil || a.buf == nil {
			return fmt.Errorf("runtime: kernel %s argument %s: want a device array, got %T", k.Name, p.Name, args[i])
		}
		if a.T != p.T {
			return fmt.Errorf("runtime: kernel %s argument %s: array of %v, want %v", k.Name, p.Name, a.T, p.T)
		}
		need := int64(1)
		for _, e := range p.Shape {
			s, err := l.eval(e)
			if err != nil {
				return err
			}
			need *= s
		}
		if need > a.NumElems() || need < 0 {
			return fmt.Errorf("runtime: kernel %s argument %s: %d elements needed, the array has %d", k.Name, p.Name, need, a.NumElems())
		}
		l.args[i] = a.buf
	}
	if isTiled {
		tile, err := d.tileFor(k, tiled, l)
		if err != nil {
			return err
		}
		if c, err = d.compileTile(k, tile); err != nil {
			return err
		}
		l.c = c
		d.tiles.last = c.gen.Tile
	}
	// a kernel that cannot record an error (nothing in its code writes
	// the error buffer) needs no check: it is only waited for
	safe := !c.gen.MayFail
	pend := d.deferred.pending
	if mode == checkNow || mode == checkDeferred && !safe && d.deferred.unchecked(pend) {
		// an earlier kernel's failure comes first; a deferred launch
		// leaves the earlier checks to the next flush, which reports the
		// first failure in the queue's order (waiting for them here made
		// every launch wait for the kernel before it), unless they are
		// unchecked (whose one read of the flag must come after them all)
		if err := d.flushLocked(); err != nil {
			return err
		}
	}
	TraceMark("l.run")
	err = l.run()
	if err == nil && (mode == checkUnchecked || mode == checkDeferred && safe) {
		d.deferred.pending = append(d.deferred.pending, deferredLaunch{k: k, events: l.events, evName: l.evName, safe: safe})
		if len(d.deferred.pending) >= maxDeferred {
			return d.flushLocked()
		}
		return nil
	}
	if err == nil && mode == checkDeferred && d.deferCheck(k, l.events, l.evName) {
		if len(d.deferred.pending) >= maxDeferred {
			return d.flushLocked()
		}
		return nil
	}
	for _, ev := range l.events {
		if err == nil {
			ev.Wait()
		}
	}
	if err == nil {
		d.profile(l.events, l.evName)
	}
	for _, ev := range l.events {
		ev.Release()
	}
	if err != nil {
		return err
	}
	if safe {
		return d.ctx.Finish() // waited for, as Run promises
	}
	return d.checkError(k)
}

// checkError reads the error flag (which also waits for the queue).
func (d *Device) checkError(k *kernel.Kernel) error {
	var w [opencl.ErrWords]int64
	if err := d.ctx.Read(d.errBuf, 0, unsafe.Pointer(&w[0]), 8); err != nil {
		return err
	}
	if int32(w[0]) == 0 {
		return nil
	}
	if err := d.ctx.Read(d.errBuf, 0, unsafe.Pointer(&w[0]), 8*opencl.ErrWords); err != nil {
		return err
	}
	if err := d.ctx.Fill(d.errBuf, make([]byte, 8), 0, 8*opencl.ErrWords); err != nil {
		return err
	}
	e := &KernelError{Kernel: k.Name, Kind: int(w[1])}
	if r, sr := int(w[2]&0xff), int(w[2]>>8&0xff); r > 0 && r <= opencl.MaxRank && sr <= opencl.MaxRank {
		if sr == 0 {
			sr = r
		}
		e.Indices = append(e.Indices, w[3:3+r]...)
		e.Shape = append(e.Shape, w[3+opencl.MaxRank:3+opencl.MaxRank+sr]...)
	}
	if s := int(w[opencl.ErrSite]); s > 0 && s <= len(k.Sites) {
		site := k.Sites[s-1]
		e.Where, e.Msg = site.Where, site.Msg
		// a read of a row of a buffer: the source's indices are the last
		if r := site.Rank; e.Kind == opencl.ErrBounds && r > 0 && r < len(e.Indices) && len(e.Indices) == len(e.Shape) {
			e.Indices, e.Shape = e.Indices[len(e.Indices)-r:], e.Shape[len(e.Shape)-r:]
		}
	}
	return e
}

// eval computes a size expression on the host from the integer scalars.
func (l *launch) eval(e kernel.Exp) (int64, error) {
	switch e := e.(type) {
	case kernel.Const:
		return e.Int64(), nil
	case kernel.Var:
		if v, ok := l.sizeOf(e.Name); ok {
			return v, nil
		}
	case kernel.Conv:
		if e.To.IsInt() && e.X.Type().IsInt() {
			return l.eval(e.X)
		}
	case kernel.BinOp:
		x, err := l.eval(e.X)
		if err != nil {
			return 0, err
		}
		y, err := l.eval(e.Y)
		if err != nil {
			return 0, err
		}
		switch e.Op {
		case "+":
			return x + y, nil
		case "-":
			return x - y, nil
		case "*":
			return x * y, nil
		case "/", "//":
			if y != 0 {
				q := x / y
				if e.Op == "/" && (x%y != 0) && ((x < 0) != (y < 0)) {
					q--
				}
				return q, nil
			}
		case "min":
			return min(x, y), nil
		case "max":
			return max(x, y), nil
		}
	}
	return 0, fmt.Errorf("runtime: kernel %s: size %v cannot be computed on the host", l.k.Name, e)
}

func (l *launch) size(e kernel.Exp, def int64) (int64, error) {
	if e == nil {
		return def, nil
	}
	v, err := l.eval(e)
	if err == nil && v < 0 {
		v = 0
	}
	return v, err
}

// enqueue sets the arguments of entry e and launches groups×L work items.
func (l *launch) enqueue(entry int, extras map[string]any, global int64) error {
	return l.enqueueLocal(entry, extras, global, int64(l.c.group))
}

// enqueueLocal is enqueue with work-groups of L work items.
func (l *launch) enqueueLocal(entry int, extras map[string]any, global, L int64) error {
	e := l.c.gen.Entries[entry]
	kr := l.c.kernels[e.Name]
	i := 0
	for _, a := range l.args {
		if err := kr.SetArg(i, a); err != nil {
			return err
		}
		i++
	}
	if err := kr.SetArg(i, l.d.errBuf); err != nil {
		return err
	}
	i++
	for _, x := range e.Extra {
		v, ok := extras[x]
		if !ok {
			return fmt.Errorf("runtime: kernel %s: no value for %s", e.Name, x)
		}
		if err := kr.SetArg(i, v); err != nil {
			return err
		}
		i++
	}
	global = (global + L - 1) / L * L
	if global == 0 {
		return nil
	}
	if global > math.MaxInt32*int64(L) {
		return fmt.Errorf("runtime: kernel %s: %d work items is too many", e.Name, global)
	}
	if l.d.untimed.Load() {
		return l.d.ctx.LaunchUntimed(kr, []int{int(global)}, []int{int(L)})
	}
	ev, err := l.d.ctx.Launch(kr, []int{int(global)}, []int{int(L)})
	if err != nil {
		return err
	}
	l.events = append(l.events, ev)
	l.evName = append(l.evName, e.Name)
	return nil
}

// scratchBuf returns the next scratch buffer of at least n bytes.
func (l *launch) scratchBuf(n int) (*cl.Buffer, error) {
	d := l.d
	i := l.nextSc
	l.nextSc++
	for len(d.scratch) <= i {
		d.scratch = append(d.scratch, nil)
	}
	if b := d.scratch[i]; b != nil && b.Size >= n {
		return b, nil
	}
	d.scratch[i].Release()
	b, err := d.ctx.CreateBuffer(cl.MemReadWrite, max(n, 64))
	if err != nil {
		return nil, err
	}
	d.scratch[i] = b
	return b, nil
}

// targetGroups is how many work groups keep the device busy: per compute
// unit, cfg.GroupsPerCU or the default of the shape (measured on an H100:
// reductions 32, scans 32, histograms 8).
func (l *launch) targetGroups(def int64) int64 {
	per := int64(l.d.cfg.GroupsPerCU)
	if per <= 0 {
		per = def
	}
	return max(8, int64(l.d.Info.ComputeUnits)*per)
}
