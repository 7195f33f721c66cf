package runtime

import (
	"runtime"
	"sort"
	"sync"
	"syscall"
	"unsafe"

	"fut/eval/value"
	"fut/gpu/cl"
)

// Pinned host memory for arrays that travel between the host and the
// device in bulk: the input arrays of a run that streams them in chunks
// and the results it streams back. A copy from pinned memory runs at the
// bus's full speed with no staging; from ordinary memory it is staged
// through the ring of pinned blocks (stage.go), at about half of it.
// What is given stays until the device closes, so it is given only where
// the process asked for it (AllowPinnedHost: fut run, which reads its
// input and writes its result once) and never in a long session.

type hostMem struct {
	mu      sync.Mutex
	from    int64        // NewHostArray's arrays from this size are pinned; 0: none
	blocks  []*cl.Pinned // sorted by address
	bytes   int64
	refused int // the smallest size the platform refused (0: none)
}

// hostLimit is the most pinned memory given: three quarters of the
// machine's (the pages stay resident; the rest of the system needs
// memory too).
var hostLimit = func() int64 {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil {
		return 1 << 30
	}
	return int64(si.Totalram) * int64(si.Unit) / 4 * 3
}()

// AllowPinnedHost lets HostAlloc give pinned memory, and NewHostArray
// for arrays of at least from bytes (fut run: value.BulkMin); 0 allows
// none. What is given stays until the device closes.
func (d *Device) AllowPinnedHost(from int64) {
	d.host.mu.Lock()
	d.host.from = from
	d.host.mu.Unlock()
}

// HostAlloc gives n bytes of pinned host memory, aligned to 8, or nil
// when the device cannot (the caller takes Go memory).
func (d *Device) HostAlloc(n int) []byte {
	h := &d.host
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.from == 0 || n <= 0 || (h.refused > 0 && n >= h.refused) || h.bytes+int64(n) > hostLimit {
		return nil
	}
	q, err := d.transferQueue()
	if err != nil {
		return nil
	}
	p, err := d.ctx.NewPinned(q, n)
	if err != nil {
		h.refused = n
		return nil
	}
	b := p.Bytes()
	if uintptr(unsafe.Pointer(&b[0]))%8 != 0 {
		p.Release()
		return nil
	}
	i := sort.Search(len(h.blocks), func(i int) bool { return start(h.blocks[i].Bytes()) > start(b) })
	h.blocks = append(h.blocks, nil)
	copy(h.blocks[i+1:], h.blocks[i:])
	h.blocks[i] = p
	h.bytes += int64(n)
	return b
}

// PinnedBytes is the pinned host memory given so far.
func (d *Device) PinnedBytes() int64 {
	d.host.mu.Lock()
	defer d.host.mu.Unlock()
	return d.host.bytes
}

// NewHostArray makes an array for the host side of a large transfer: in
// pinned memory when it is large and the device gives some, else as
// value.NewPrimArray does.
func (d *Device) NewHostArray(t value.PrimType, shape []int64) *value.Array {
	n := int64(1)
	for _, s := range shape {
		n *= s
	}
	d.host.mu.Lock()
	from := d.host.from
	d.host.mu.Unlock()
	if t != value.Bool && t != value.F16 && from > 0 && n > 0 && n*int64(t.Bits()/8) >= from {
		if mem := d.HostAlloc(int(n) * (t.Bits() / 8)); mem != nil {
			return value.NewPrimArrayData(t, shape, value.DataOver(t, mem, int(n)))
		}
	}
	a := value.NewPrimArray(t, shape)
	if b := value.DataBytes(a.Data); len(b) >= value.BulkMin {
		touch(b)
	}
	return a
}

// touch writes a zero in each page of b by several goroutines: the
// operating system gives a large allocation's pages at their first write,
// a fault each, which one thread takes at a few GB/s; a copy into them
// from the device would wait on that.
func touch(b []byte) {
	const page = 4096
	k := min(runtime.NumCPU(), 16)
	step := (len(b)/k + page - 1) / page * page
	var wg sync.WaitGroup
	for i := 0; i < len(b); i += step {
		j := min(i+step, len(b))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := i; p < j; p += page {
				b[p] = 0
			}
		}()
	}
	wg.Wait()
}

// isPinned says whether b lies in pinned memory that HostAlloc gave.
func (d *Device) isPinned(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	h := &d.host
	h.mu.Lock()
	defer h.mu.Unlock()
	s := start(b)
	i := sort.Search(len(h.blocks), func(i int) bool { return start(h.blocks[i].Bytes()) > s }) - 1
	if i < 0 {
		return false
	}
	p := h.blocks[i].Bytes()
	return s+uintptr(len(b)) <= start(p)+uintptr(len(p))
}

func (h *hostMem) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, p := range h.blocks {
		p.Release()
	}
	h.blocks, h.bytes = nil, 0
}

func start(b []byte) uintptr { return uintptr(unsafe.Pointer(&b[0])) }
