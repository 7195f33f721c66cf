package runtime

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"fut/eval/value"
	"fut/gpu/cl"
)

// The device-memory budget, and uploads on a second queue (chunked runs,
// package flatten).

// SetBudget sets the most device memory a plan may use at once; n <= 0
// restores the default, the device's global memory less an eighth. The
// pool of released buffers keeps at most a quarter of it.
func (d *Device) SetBudget(n int64) {
	if n <= 0 {
		n = int64(d.Info.GlobalMem) - int64(d.Info.GlobalMem/8)
	}
	d.budget.Store(n)
	d.pool.mu.Lock()
	d.pool.limit = min(int64(d.Info.GlobalMem/4), n/4)
	d.pool.mu.Unlock()
}

// Budget is the most device memory a plan may use at once.
func (d *Device) Budget() int64 { return d.budget.Load() }

// MaxAlloc is the largest buffer the device allocates.
func (d *Device) MaxAlloc() int64 {
	if d.Info.MaxAlloc == 0 {
		return int64(d.Info.GlobalMem)
	}
	return int64(d.Info.MaxAlloc)
}

// TransferQueues is the number of queues that upload beside the one that
// runs kernels.
func (d *Device) TransferQueues() int { return 1 }

func (d *Device) transferQueue() (*cl.Queue, error) {
	d.transfer.once.Do(func() {
		d.transfer.q, d.transfer.err = d.ctx.NewQueue()
		d.transfer.up.q = d.transfer.q
	})
	return d.transfer.q, d.transfer.err
}

// UploadAsync uploads a primitive array on the transfer queue, which runs
// beside the kernels of the device's own queue; it returns when the copy
// is done. It may be called from another goroutine than the one that
// launches kernels.
func (d *Device) UploadAsync(v *value.Array) (*Array, error) {
	if v.Kind != value.KPrim {
		return nil, fmt.Errorf("runtime: only arrays of primitive type can be uploaded")
	}
	t := TypeOf(v.T)
	bs, n, err := bytesOf(t, v.Data)
	if err != nil {
		return nil, err
	}
	a, err := d.Alloc(t, v.Shape...)
	if err != nil {
		return nil, err
	}
	if int64(n) != a.NumElems() {
		a.Release()
		return nil, fmt.Errorf("runtime: %d elements for shape %v", n, v.Shape)
	}
	if n == 0 {
		return a, nil
	}
	_, err = d.transferQueue()
	if err == nil {
		err = d.transfer.up.write(d.ctx, a.buf, bs, d.isPinned(bs))
	}
	if err != nil {
		a.Release()
		return nil, err
	}
	return a, nil
}

// ParseSize reads a size such as 512M, 8G, 1024 or 1.5GiB.
func ParseSize(s string) (int64, bool) {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(s, "iB"), "B"))
	mult := float64(1)
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 'k', 'K':
			mult, s = 1<<10, s[:n-1]
		case 'm', 'M':
			mult, s = 1<<20, s[:n-1]
		case 'g', 'G':
			mult, s = 1<<30, s[:n-1]
		case 't', 'T':
			mult, s = 1<<40, s[:n-1]
		}
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || x < 0 {
		return 0, false
	}
	return int64(x * mult), true
}

// FormatBytes writes a size in the largest binary unit that keeps it at
// least 1 (512 MiB, 1.5 GiB).
func FormatBytes(n int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	x := float64(n)
	u := 0
	for x >= 1024 && u < len(units)-1 {
		x /= 1024
		u++
	}
	if u == 0 || x == float64(int64(x)) {
		return fmt.Sprintf("%d %s", int64(x), units[u])
	}
	return fmt.Sprintf("%.1f %s", x, units[u])
}

// Bandwidth is what the host-to-device and device-to-host copies of a
// device reach, in bytes per second.
type Bandwidth struct {
	Bytes      int64   // copied per measure
	PinnedIn   float64 // from pinned host memory, one copy in flight
	PageableIn float64 // from ordinary (Go) memory, blocking copies
	StagedIn   float64 // fut's uploads (UploadAsync: staged through pinned blocks)
	PinnedOut  float64 // to pinned host memory
	StagedOut  float64 // fut's downloads (staged)
	BothIn     float64 // pinned uploads while pinned downloads run
	BothOut    float64 // pinned downloads while pinned uploads run
}

// MeasureBandwidth copies size bytes (a multiple of 256 MiB works best)
// each way, as fut's chunked runs do and as a plain pinned copy does, so
// that the two can be compared in one run.
func (d *Device) MeasureBandwidth(size int) (Bandwidth, error) {
	bw := Bandwidth{Bytes: int64(size)}
	q, err := d.transferQueue()
	if err != nil {
		return bw, err
	}
	const block = 256 << 20
	blk := min(block, size)
	buf, err := d.newBuffer(size)
	if err != nil {
		return bw, err
	}
	defer buf.Release()
	pinned, err := d.ctx.NewPinned(q, blk)
	if err != nil {
		return bw, err
	}
	defer pinned.Release()
	// the best of three after a warm-up: the figure is a ceiling to
	// compare with, and one copy varies by a fifth from run to run
	rate := func(f func() error) (float64, error) {
		if err := f(); err != nil { // warm up
			return 0, err
		}
		best := 0.0
		for range 3 {
			t0 := time.Now()
			if err := f(); err != nil {
				return 0, err
			}
			best = max(best, float64(size)/time.Since(t0).Seconds())
		}
		return best, nil
	}
	pb := pinned.Bytes()
	for i := range pb {
		pb[i] = byte(i)
	}
	if bw.PinnedIn, err = rate(func() error {
		for off := 0; off < size; off += blk {
			if err := q.Write(buf, off, unsafe.Pointer(&pb[0]), min(blk, size-off)); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return bw, err
	}
	if bw.PinnedOut, err = rate(func() error {
		for off := 0; off < size; off += blk {
			if err := q.Read(buf, off, unsafe.Pointer(&pb[0]), min(blk, size-off)); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return bw, err
	}
	// both ways at once: uploads on the transfer queue, downloads on the
	// device's own, each from its own pinned block
	buf2, err := d.newBuffer(size)
	if err != nil {
		return bw, err
	}
	defer buf2.Release()
	pinned2, err := d.ctx.NewPinned(q, blk)
	if err != nil {
		return bw, err
	}
	defer pinned2.Release()
	pb2 := pinned2.Bytes()
	both := func() (time.Duration, time.Duration, error) {
		t0 := time.Now()
		var tin time.Duration
		var errIn error
		done := make(chan struct{})
		go func() {
			defer close(done)
			for off := 0; off < size && errIn == nil; off += blk {
				errIn = q.Write(buf, off, unsafe.Pointer(&pb[0]), min(blk, size-off))
			}
			tin = time.Since(t0)
		}()
		var errOut error
		for off := 0; off < size && errOut == nil; off += blk {
			errOut = d.ctx.Queue().Read(buf2, off, unsafe.Pointer(&pb2[0]), min(blk, size-off))
		}
		tout := time.Since(t0)
		<-done
		return tin, tout, errors.Join(errIn, errOut)
	}
	d.mu.Lock()        // the device's queue
	_, _, err = both() // warm up
	var tin, tout time.Duration
	if err == nil {
		tin, tout, err = both()
	}
	d.mu.Unlock()
	if err != nil {
		return bw, err
	}
	bw.BothIn, bw.BothOut = float64(size)/tin.Seconds(), float64(size)/tout.Seconds()
	host := make([]byte, size)
	for i := range host {
		host[i] = byte(i * 7)
	}
	if bw.PageableIn, err = rate(func() error { return q.Write(buf, 0, unsafe.Pointer(&host[0]), size) }); err != nil {
		return bw, err
	}
	v := value.NewPrimArrayData(value.U8, []int64{int64(size)}, host)
	if bw.StagedIn, err = rate(func() error {
		a, err := d.UploadAsync(v)
		if err == nil {
			a.Release()
		}
		return err
	}); err != nil {
		return bw, err
	}
	a, err := d.UploadAsync(v)
	if err != nil {
		return bw, err
	}
	defer a.Release()
	bw.StagedOut, err = rate(func() error { return a.ReadInto(host) })
	return bw, err
}
