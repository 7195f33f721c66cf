package runtime

import (
	"fut/gpu/cl"
)

// The single-pass scan's state: one 64-bit word per tile (its status and
// value) and a counter that hands tiles to groups in the order they
// start. Zeroing both before each launch cost the call two fills (about
// 20 µs of a scan's wall on an H100, beside 0.56 ms of kernel). Instead
// the words of a launch carry its epoch beside their status (a word of
// another epoch reads as not yet published), and the counter runs on
// from launch to launch, each launch's first tile being the count
// before it (cbase). The state is zeroed only when it is made or grows
// and when the epoch would overflow; the counter when it is made, after
// a launch that failed to start, and when the count would pass 2^31.
// Launches on a device's queue run in order, so one buffer serves them
// all. The counter also hands out a one-pass reduction's tickets
// (tickets), which need no state.

type lookBackState struct {
	state   *cl.Buffer // a word per tile
	counter *cl.Buffer
	words   int64  // tiles state holds
	epoch   uint32 // the last launch's (0: none since zeroing)
	count   uint32 // tickets handed out since zeroing
	recount bool   // zero the counter before the next tickets (failed)
}

// maxEpoch keeps epoch·4+2 within the word's upper 32 bits.
const maxEpoch = 1<<30 - 1

// next makes room for a launch of tiles tiles and returns the state and
// counter buffers, the launch's epoch and its counter base.
func (s *lookBackState) next(d *Device, tiles int64) (state, counter *cl.Buffer, epoch, cbase uint32, err error) {
	zero := false
	if s.state == nil || s.words < tiles {
		s.state.Release()
		s.state = nil
		words := max(tiles, 256)
		if s.state, err = d.ctx.CreateBuffer(cl.MemReadWrite, int(8*words)); err != nil {
			return nil, nil, 0, 0, err
		}
		s.words, zero = words, true
	}
	if zero || s.epoch >= maxEpoch {
		if err := d.ctx.Fill(s.state, make([]byte, 8), 0, int(8*s.words)); err != nil {
			return nil, nil, 0, 0, err
		}
		s.epoch = 0
	}
	if counter, cbase, err = s.tickets(d, tiles); err != nil {
		return nil, nil, 0, 0, err
	}
	s.epoch++
	return s.state, counter, s.epoch, cbase, nil
}

// tickets makes room for a launch whose groups take n tickets from the
// counter (a scan's tiles, a one-pass reduction's groups) and returns
// the counter and the launch's first ticket.
func (s *lookBackState) tickets(d *Device, n int64) (counter *cl.Buffer, cbase uint32, err error) {
	zero := s.recount
	if s.counter == nil {
		if s.counter, err = d.ctx.CreateBuffer(cl.MemReadWrite, 64); err != nil {
			return nil, 0, err
		}
		zero = true
	}
	if zero || int64(s.count)+n >= 1<<31 {
		if err := d.ctx.Fill(s.counter, make([]byte, 8), 0, 8); err != nil {
			return nil, 0, err
		}
		s.count, s.recount = 0, false
	}
	cbase = s.count
	s.count += uint32(n)
	return s.counter, cbase, nil
}

// failed makes the next launch zero the state and the counter first: a
// launch that failed to start may not have run the counter on by its
// tiles.
func (s *lookBackState) failed() { s.epoch, s.recount = maxEpoch, true }

// release frees the buffers.
func (s *lookBackState) release() {
	s.state.Release()
	s.counter.Release()
	s.state, s.counter = nil, nil
}
