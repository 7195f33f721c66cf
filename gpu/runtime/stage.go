package runtime

import (
	"sync"
	"unsafe"

	"fut/eval/value"
	"fut/gpu/cl"
)

// Staged copies: large copies between Go memory and the device go
// through a ring of pinned host blocks, so that the bus runs at its full
// speed (a copy from ordinary memory is staged by the driver, at a
// fraction of it): while the DMA engine copies one block, goroutines fill
// (or empty) the next. A device without pinned memory, or one that is
// the host's CPU, copies directly.

const (
	stageBlock = 32 << 20 // bytes of a pinned block
	stageSlots = 4        // blocks in the ring
	stageMin   = 4 << 20  // smaller copies go directly
)

// stageOnCPU stages copies on CPU devices too (for the tests of the ring,
// which CI runs on PoCL's CPU device).
var stageOnCPU = false

type stager struct {
	mu     sync.Mutex
	q      *cl.Queue
	blocks []*cl.Pinned
	evs    []*cl.Event
	failed bool // pinned memory could not be had: copy directly
	// small is pinned memory for reads of at most smallRead bytes
	// (readBehind); smallFailed: none could be had
	small       *cl.Pinned
	smallFailed bool
}

// smallRead is the most bytes readBehind reads.
const smallRead = 256

func (s *stager) ready(ctx *cl.Context) bool {
	if s.failed {
		return false
	}
	if ctx.Device.Type&cl.TypeCPU != 0 && !stageOnCPU {
		// A CPU device's buffers are host memory: a staged copy would
		// add a copy, and keep the ring (128 MiB) resident for nothing.
		s.failed = true
		return false
	}
	if s.blocks == nil {
		for range stageSlots {
			p, err := ctx.NewPinned(s.q, stageBlock)
			if err != nil {
				s.release()
				s.failed = true
				return false
			}
			s.blocks = append(s.blocks, p)
		}
		s.evs = make([]*cl.Event, stageSlots)
	}
	return true
}

func (s *stager) release() {
	for _, b := range s.blocks {
		b.Release()
	}
	s.blocks = nil
	if s.small != nil {
		s.small.Release()
		s.small = nil
	}
}

// readBehind copies the len(dst) bytes (at most smallRead) at the start
// of buf into dst with one wait for the queue: the read is enqueued
// behind the launches not yet waited for, into pinned memory, and then
// flush waits for those launches (and checks them) — where a wait for
// them and then a read took two round trips (on an H100 the filter's
// count, read after its kernel, took 10–12 µs of the call's wall; the
// read's event is waited for only where flush did not wait for the
// whole queue, as that wait took 2.8 µs of an idle queue). ok
// is false where it did nothing (no pinned memory): the caller flushes
// and reads.
func (s *stager) readBehind(ctx *cl.Context, buf *cl.Buffer, dst []byte, flush func() (whole bool, err error)) (ok bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(dst) > smallRead || s.smallFailed {
		return false, nil
	}
	if s.small == nil {
		p, err := ctx.NewPinned(s.q, smallRead)
		if err != nil {
			s.smallFailed = true
			return false, nil
		}
		s.small = p
	}
	ev, err := s.q.ReadAsync(buf, 0, unsafe.Pointer(&s.small.Bytes()[0]), len(dst))
	if err != nil {
		return false, nil
	}
	whole, ferr := flush()
	var werr error
	if !whole { // the flush waited for less (a flag): the read too
		werr = ev.Wait()
	}
	ev.Release()
	if ferr != nil {
		return true, ferr
	}
	if werr != nil {
		return true, werr
	}
	copy(dst, s.small.Bytes()[:len(dst)])
	return true, nil
}

// wait waits for the slot's copy under way, if any.
func (s *stager) wait(k int) error {
	ev := s.evs[k]
	if ev == nil {
		return nil
	}
	s.evs[k] = nil
	err := ev.Wait()
	ev.Release()
	return err
}

func (s *stager) waitAll() error {
	var first error
	for k := range s.evs {
		if err := s.wait(k); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// write copies src into buf at offset 0 on the stager's queue; pinned
// says src is pinned memory already (copied directly).
func (s *stager) write(ctx *cl.Context, buf *cl.Buffer, src []byte, pinned bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(src) < stageMin || pinned || !s.ready(ctx) {
		return s.q.Write(buf, 0, unsafe.Pointer(&src[0]), len(src))
	}
	for i, off := 0, 0; off < len(src); i, off = i+1, off+stageBlock {
		k := i % stageSlots
		if err := s.wait(k); err != nil {
			s.waitAll()
			return err
		}
		n := min(stageBlock, len(src)-off)
		b := s.blocks[k].Bytes()
		value.CopyParallel(b[:n], src[off:off+n])
		ev, err := s.q.WriteAsync(buf, off, unsafe.Pointer(&b[0]), n)
		if err != nil {
			s.waitAll()
			return err
		}
		s.evs[k] = ev
	}
	return s.waitAll()
}

// read copies len(dst) bytes of buf from offset off into dst; pinned
// says dst is pinned memory (copied directly).
func (s *stager) read(ctx *cl.Context, buf *cl.Buffer, off int, dst []byte, pinned bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(dst) < stageMin || pinned || !s.ready(ctx) {
		return s.q.Read(buf, off, unsafe.Pointer(&dst[0]), len(dst))
	}
	nblocks := (len(dst) + stageBlock - 1) / stageBlock
	enqueue := func(i int) error {
		k := i % stageSlots
		at := i * stageBlock
		n := min(stageBlock, len(dst)-at)
		ev, err := s.q.ReadAsync(buf, off+at, unsafe.Pointer(&s.blocks[k].Bytes()[0]), n)
		s.evs[k] = ev
		return err
	}
	for i := 0; i < min(stageSlots, nblocks); i++ {
		if err := enqueue(i); err != nil {
			s.waitAll()
			return err
		}
	}
	for i := 0; i < nblocks; i++ {
		k := i % stageSlots
		if err := s.wait(k); err != nil {
			s.waitAll()
			return err
		}
		at := i * stageBlock
		n := min(stageBlock, len(dst)-at)
		value.CopyParallel(dst[at:at+n], s.blocks[k].Bytes()[:n])
		if i+stageSlots < nblocks {
			if err := enqueue(i + stageSlots); err != nil {
				s.waitAll()
				return err
			}
		}
	}
	return nil
}
