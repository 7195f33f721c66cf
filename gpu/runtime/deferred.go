package runtime

import (
	"unsafe"

	"fut/gpu/cl"
	"fut/gpu/kernel"
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
	flag   *cl.Event // the copy of the flag into its slot
	slot   int
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
	return d.run(k, args, true)
}

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

// flushLocked checks the pending launches' flags in order (d.mu held).
func (d *Device) flushLocked() error {
	dc := &d.deferred
	if len(dc.pending) == 0 {
		return nil
	}
	pending := dc.pending
	dc.pending = nil
	waitErr := pending[len(pending)-1].flag.Wait() // the queue is in order
	var failed *kernel.Kernel
	for _, p := range pending {
		if waitErr == nil && failed == nil {
			for i, ev := range p.events {
				if s, e, terr := ev.Times(); terr != nil || e < s {
					d.Profile.untimed(p.evName[i], terr)
				} else {
					d.Profile.add(p.evName[i], e-s)
				}
			}
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
	return nil
}

func (dc *deferredChecks) release() {
	for _, p := range dc.pending {
		for _, ev := range p.events {
			ev.Release()
		}
		p.flag.Release()
	}
	dc.pending = nil
	dc.flags.Release()
	dc.flags = nil
}
