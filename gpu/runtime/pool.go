package runtime

import (
	"sync"

	"fut/gpu/cl"
)

// pool keeps the device buffers of released arrays for arrays of the same
// size made later, as the caching allocators of PyTorch and JAX do:
// creating a buffer (and its first touch) costs tenths of a millisecond
// for the large arrays of a call, which a call that allocates its
// results pays every time otherwise. It holds at most limit bytes; the
// oldest buffers go first, and all of them when an allocation fails.
type pool struct {
	mu    sync.Mutex
	free  []*cl.Buffer // oldest first
	bytes int64
	limit int64
}

// get takes a free buffer of exactly n bytes, or nil.
func (p *pool) get(n int) *cl.Buffer {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := len(p.free) - 1; i >= 0; i-- {
		if b := p.free[i]; b.Size == n {
			p.free = append(p.free[:i], p.free[i+1:]...)
			p.bytes -= int64(n)
			return b
		}
	}
	return nil
}

// put keeps b for later, releasing the oldest buffers beyond the limit.
func (p *pool) put(b *cl.Buffer) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if int64(b.Size) > p.limit {
		b.Release()
		return
	}
	p.free = append(p.free, b)
	p.bytes += int64(b.Size)
	p.trim()
}

// trim releases the oldest buffers beyond the limit (p.mu held).
func (p *pool) trim() {
	for p.bytes > p.limit && len(p.free) > 0 {
		p.bytes -= int64(p.free[0].Size)
		p.free[0].Release()
		p.free = p.free[1:]
	}
}

// drain releases every kept buffer.
func (p *pool) drain() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, b := range p.free {
		b.Release()
	}
	p.free, p.bytes = nil, 0
}

// Pooled is the number of buffers and bytes the pool keeps.
func (d *Device) Pooled() (buffers int, bytes int64) {
	d.pool.mu.Lock()
	defer d.pool.mu.Unlock()
	return len(d.pool.free), d.pool.bytes
}

// newBuffer is a buffer of n bytes: a pooled one, or a new one (after
// draining the pool if the device says it is out of memory).
func (d *Device) newBuffer(n int) (*cl.Buffer, error) {
	if b := d.pool.get(n); b != nil {
		return b, nil
	}
	b, err := d.ctx.CreateBuffer(cl.MemReadWrite, n)
	if err != nil {
		d.pool.drain()
		b, err = d.ctx.CreateBuffer(cl.MemReadWrite, n)
	}
	return b, err
}

func (d *Device) isClosed() bool { return d.closedFlag.Load() }

// PoolUpTo lets the pool keep up to n bytes (at most what the device has
// beyond its budget, so that kept and live buffers fit together) until
// the returned function is called, which restores the limit and releases
// what is beyond it. A chunked run uses it: its chunks make buffers of the
// same sizes one after the other, and releasing one (which waits for the
// device) to create the next costs a chunk about a third of its time.
func (d *Device) PoolUpTo(n int64) (restore func()) {
	p := &d.pool
	p.mu.Lock()
	old := p.limit
	room := int64(d.Info.GlobalMem) - d.Budget()
	p.limit = max(old, min(n, room))
	p.mu.Unlock()
	return func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.limit = old
		p.trim()
	}
}
