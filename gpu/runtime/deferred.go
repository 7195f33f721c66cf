package runtime

import (
	"errors"
	"unsafe"

	"fut/gpu/cl"
	"fut/gpu/kernel"
	"fut/gpu/opencl"
)

// Deferred checks: RunDeferred launches a kernel and returns without
// waiting for it. Its error flag is copied, in the queue's order, into a
// slot of pinned host memory of its own; the flags are looked at when the
// host next needs the device (a download, Flush), so that a plan's
// kernels follow each other on the device with no round trip to the host
// between them (each cost about 20 µs on the H100). The first kernel
// whose flag is set is the one that failed: a kernel records an error
// only while none is recorded, so the details in the error buffer are
// its own.

const (
	flagSlots   = 512 // pinned slots for the flags of kernels not yet checked
	maxDeferred = 256 // launches after which the flags are checked anyway
)

type deferredLaunch struct {
	k      *kernel.Kernel
	events []*cl.Event // the profile's
	evName []string
	flag   *cl.Event // the copy of the flag into its slot; nil: unchecked or safe
	slot   int
	safe   bool // its kernels cannot record an error (opencl.Program.MayFail): nothing to check
}

type deferredChecks struct {
	flags   *cl.Pinned // nil until first used
	failed  bool       // no pinned memory: checks are synchronous
	pending []deferredLaunch
	next    int
}

// RunDeferred is Run without waiting: its error (a kernel's failed check)
// is returned by the next download, ReadInto, ReadAt or Flush of the
// device. A launch that fails to start is reported at once.
func (d *Device) RunDeferred(k *kernel.Kernel, args ...any) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.run(k, args, checkDeferred)
}

// ErrUnchecked is what a flush reports when a kernel launched by
// RunUnchecked failed its checks: which one, and why, is not known.
var ErrUnchecked = errors.New("runtime: a kernel launched without a check of its own failed")

// RunUnchecked is RunDeferred without the copy of the error flag after
// the kernel: the next flush reads the flag once for every such launch
// since the last, and reports ErrUnchecked if one failed (the caller then
// runs again with checks, to report the first failure as a checked run
// would). Kernels so launched follow each other on the device with
// nothing queued between them: the chunks of a split run.
func (d *Device) RunUnchecked(k *kernel.Kernel, args ...any) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.run(k, args, checkUnchecked)
}

// A Marker completes when everything queued on its device before it
// has.
type Marker struct{ ev *cl.Event }

// Marker queues a marker on the device.
func (d *Device) Marker() (*Marker, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	ev, err := d.ctx.Marker()
	if err != nil {
		return nil, err
	}
	return &Marker{ev}, nil
}

// Wait blocks until the marker is complete, and releases it.
func (m *Marker) Wait() error {
	err := m.ev.Wait()
	m.ev.Release()
	return err
}

// Release releases the marker without waiting for it.
func (m *Marker) Release() { m.ev.Release() }

// Flush waits for the kernels launched and checks their error flags.
func (d *Device) Flush() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.flushLocked()
}

// deferCheck queues the copy of the flag after k's launch; false when
// the check must be made at once.
func (d *Device) deferCheck(k *kernel.Kernel, events []*cl.Event, names []string) bool {
	dc := &d.deferred
	if dc.failed {
		return false
	}
	if dc.flags == nil {
		p, err := d.ctx.NewPinned(d.ctx.Queue(), 8*flagSlots)
		if err != nil {
			dc.failed = true
			return false
		}
		dc.flags = p
	}
	slot := dc.next % flagSlots
	dc.next++
	b := dc.flags.Bytes()[8*slot : 8*slot+8]
	clear(b)
	ev, err := d.ctx.Queue().ReadAsync(d.errBuf, 0, unsafe.Pointer(&b[0]), 8)
	if err != nil {
		return false
	}
	dc.pending = append(dc.pending, deferredLaunch{k: k, events: events, evName: names, flag: ev, slot: slot})
	return true
}

// unchecked reports whether pending holds a launch whose failure only
// the error flag's next read shows (RunUnchecked of a kernel that may
// fail). A checked launch must not be queued after one: its copy of the
// flag would take that launch's failure for its own.
func (dc *deferredChecks) unchecked(pending []deferredLaunch) bool {
	for _, p := range pending {
		if p.flag == nil && !p.safe {
			return true
		}
	}
	return false
}

// waiting says whether launches are pending (d.mu held).
func (dc *deferredChecks) waiting() bool { return len(dc.pending) > 0 }

// flushWhole is flushLocked, saying whether it waited for everything
// on the queue (its Finish, where the last launches cannot fail), not
// only for a flag copied after the last checked launch or the read of
// the unchecked launches' flag.
func (d *Device) flushWhole() (whole bool, err error) {
	dc := &d.deferred
	whole = len(dc.pending) > 0 && !dc.unchecked(dc.pending) && dc.pending[len(dc.pending)-1].flag == nil // Finish
	return whole, d.flushLocked()
}

// flushLocked checks the pending launches' flags in order (d.mu held).
func (d *Device) flushLocked() error {
	dc := &d.deferred
	if len(dc.pending) == 0 {
		return nil
	}
	pending := dc.pending
	dc.pending = nil
	defer func() {
		// the slice serves the next launches (what it held let go)
		clear(pending)
		if dc.pending == nil {
			dc.pending = pending[:0]
		}
	}()
	var waitErr error
	unchecked := false // a failure of the unchecked launches
	switch last := pending[len(pending)-1]; {
	case dc.unchecked(pending):
		// unchecked launches come after every checked one (run flushes
		// those first): one read of the flag waits for them all
		var w [1]int64
		waitErr = d.ctx.Read(d.errBuf, 0, unsafe.Pointer(&w[0]), 8)
		unchecked = waitErr == nil && int32(w[0]) != 0
	case last.flag != nil:
		waitErr = last.flag.Wait() // the queue is in order
	default:
		// the last launches cannot fail: waiting for the queue is all
		// (the flags copied before them are then in their slots)
		waitErr = d.ctx.Finish()
	}
	var failed *kernel.Kernel
	for _, p := range pending {
		if p.flag == nil {
			if waitErr == nil && failed == nil {
				d.profile(p.events, p.evName)
			}
			for _, ev := range p.events {
				ev.Release()
			}
			continue
		}
		if waitErr == nil && failed == nil {
			d.profile(p.events, p.evName)
			w := dc.flags.Bytes()[8*p.slot : 8*p.slot+8]
			if int32(uint32(w[0])|uint32(w[1])<<8|uint32(w[2])<<16|uint32(w[3])<<24) != 0 {
				failed = p.k
			}
		}
		for _, ev := range p.events {
			ev.Release()
		}
		p.flag.Release()
	}
	if waitErr != nil {
		return waitErr
	}
	if failed != nil {
		return d.checkError(failed)
	}
	if unchecked {
		if err := d.ctx.Fill(d.errBuf, make([]byte, 8), 0, 8*opencl.ErrWords); err != nil {
			return err
		}
		return ErrUnchecked
	}
	return nil
}

// profile adds the times of a launch's events to the device's profile
// (after they completed).
func (d *Device) profile(events []*cl.Event, names []string) {
	for i, ev := range events {
		if s, e, terr := ev.Times(); terr != nil || e < s {
			d.Profile.untimed(names[i], terr)
		} else {
			d.Profile.add(names[i], e-s)
		}
	}
}

func (dc *deferredChecks) release() {
	for _, p := range dc.pending {
		for _, ev := range p.events {
			ev.Release()
		}
		if p.flag != nil {
			p.flag.Release()
		}
	}
	dc.pending = nil
	dc.flags.Release()
	dc.flags = nil
}
