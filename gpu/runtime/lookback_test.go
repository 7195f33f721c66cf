package runtime

import (
	"fmt"
	"testing"

	. "fut/gpu/kernel"
)

// TestLookBackEpochs: single-pass scans one after the other on a device
// share its state without zeroing it between them (words of earlier
// epochs, a counter that runs on), also when a larger scan grows the
// state and when the epoch or the counter is about to overflow and the
// state or the counter is zeroed; each scan equals the sequential prefix
// sum.
func TestLookBackEpochs(t *testing.T) {
	d := lookBackDevice(t)
	defer d.Close()
	k := scanKernel("sum", I32, "+")
	words := int64(0)
	for step, c := range []struct {
		n     int
		setup func(s *lookBackState)
	}{
		{300_001, nil},
		{5, nil},
		{2049, nil},
		{300_001, nil},
		{3_000_017, nil}, // more tiles than the state holds: it grows
		{70_000, nil},
		{300_001, func(s *lookBackState) { s.epoch = maxEpoch - 1 }}, // the last epoch
		{300_001, nil}, // zeroed first
		{300_001, func(s *lookBackState) { s.count = 1<<31 - 3 }}, // the counter would pass 2^31
		{2049, nil},
	} {
		t.Run(fmt.Sprintf("%d_%d", step, c.n), func(t *testing.T) {
			if c.setup != nil {
				c.setup(&d.lookBack)
			}
			x := make([]int32, c.n)
			want := make([]int32, c.n)
			var acc int32
			for i := range x {
				x[i] = int32((i*7919+step)%1000) - 500
				acc += x[i]
				want[i] = acc
			}
			in, out := up(t, d, I32, x, int64(c.n)), alloc(t, d, I32, int64(c.n))
			defer in.Release()
			defer out.Release()
			if err := d.Run(k, int64(c.n), in, out); err != nil {
				t.Fatal(err)
			}
			ran := false
			for _, e := range d.Profile.Entries() {
				ran = ran || e.Name == "sum_scanlb"
			}
			d.Profile.Reset()
			if !ran {
				t.Fatal("the single-pass scan did not run")
			}
			if step == 4 && d.lookBack.words <= words {
				t.Errorf("the state holds %d tiles after holding %d: it did not grow", d.lookBack.words, words)
			}
			words = d.lookBack.words
			got := down[int32](t, out)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("element %d: %d, want %d", i, got[i], want[i])
				}
			}
		})
	}
}
