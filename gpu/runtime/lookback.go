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
// before it (cbase): both are zeroed only when the buffer is made or
// grows, and when the epoch or the count would overflow. Launches on a
// device's queue run in order, so one buffer serves them all.

type lookBackState struct {
	state   *cl.Buffer // a word per tile
	counter *cl.Buffer
	words   int64  // tiles state holds
	epoch   uint32 // the last launch's (0: none since zeroing)
	count   uint32 // tiles handed out since zeroing
}

// maxEpoch keeps epoch·4+2 within the word's upper 32 bits.
const maxEpoch = 1<<30 - 1

// next makes room for a launch of tiles tiles and returns the state and
// counter buffers, the launch's epoch and its counter base.
func (s *lookBackState) next(d *Device, tiles int64) (state, counter *cl.Buffer, epoch, cbase uint32, err error) {
	zero := false
	if s.counter == nil {
		if s.counter, err = d.ctx.CreateBuffer(cl.MemReadWrite, 64); err != nil {
			return nil, nil, 0, 0, err
		}
		zero = true
	}
	if s.state == nil || s.words < tiles {
		s.state.Release()
		s.state = nil
		words := max(tiles, 256)
		if s.state, err = d.ctx.CreateBuffer(cl.MemReadWrite, int(8*words)); err != nil {
			return nil, nil, 0, 0, err
		}
		s.words, zero = words, true
	}
	if zero || s.epoch >= maxEpoch || int64(s.count)+tiles >= 1<<31 {
		if err := d.ctx.Fill(s.state, make([]byte, 8), 0, int(8*s.words)); err != nil {
			return nil, nil, 0, 0, err
		}
		if err := d.ctx.Fill(s.counter, make([]byte, 8), 0, 8); err != nil {
			return nil, nil, 0, 0, err
		}
		s.epoch, s.count = 0, 0
	}
	s.epoch++
	cbase = s.count
	s.count += uint32(tiles)
	return s.state, s.counter, s.epoch, cbase, nil
}

// failed makes the next launch zero the state first: a launch that
// failed to start may not have run the counter on by its tiles.
func (s *lookBackState) failed() { s.epoch = maxEpoch }

// release frees the buffers.
func (s *lookBackState) release() {
	s.state.Release()
	s.counter.Release()
	s.state, s.counter = nil, nil
}
