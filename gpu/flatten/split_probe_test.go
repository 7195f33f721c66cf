package flatten

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestSplitProbe: after SplitProbeAfter measured split runs (the first
// not counted), two runs take one device; the plan stays on one device
// when the second took less than SplitProbeMargin of the fastest split
// run, and splits on otherwise, or when a probe run failed.
func TestSplitProbe(t *testing.T) {
	defer func(on bool) { SplitProbe = on }(SplitProbe)
	SplitProbe = true
	ms := time.Millisecond
	for _, c := range []struct {
		name   string
		splits []time.Duration
		ones   []time.Duration
		fail   bool
		single bool
	}{
		{"a short nest", []time.Duration{50 * ms, 6 * ms, 7 * ms, 6 * ms}, []time.Duration{40 * ms, 2 * ms}, false, true},
		{"the split pays", []time.Duration{50 * ms, 6 * ms, 5 * ms, 6 * ms}, []time.Duration{40 * ms, 10 * ms}, false, false},
		{"within the margin", []time.Duration{50 * ms, 10 * ms, 10 * ms, 10 * ms}, []time.Duration{40 * ms, 9500 * time.Microsecond}, false, false},
		{"a probe fails", []time.Duration{50 * ms, 6 * ms, 7 * ms, 6 * ms}, []time.Duration{1 * ms}, true, false},
	} {
		p := &Plan{}
		for i, w := range c.splits {
			if single, _ := p.probeSingle(); single {
				t.Fatalf("%s: one device before split run %d", c.name, i+1)
			}
			p.noteSplit(w)
		}
		for i, w := range c.ones {
			single, why := p.probeSingle()
			if !single || !strings.Contains(why, "measuring one device") {
				t.Fatalf("%s: probe run %d: %v %q", c.name, i+1, single, why)
			}
			var err error
			if c.fail {
				err = errors.New("device failure")
			}
			p.noteOne(w, err)
		}
		single, why := p.probeSingle()
		if single != c.single {
			t.Errorf("%s: one device %v (%q), want %v", c.name, single, why, c.single)
		}
		if single && !strings.Contains(why, "one device took 2.000 ms, the split 6.000 ms") {
			t.Errorf("%s: why %q", c.name, why)
		}
		// decided: further runs change nothing
		p.noteSplit(time.Microsecond)
		p.noteOne(time.Microsecond, nil)
		if again, _ := p.probeSingle(); again != c.single {
			t.Errorf("%s: the decision moved", c.name)
		}
	}
	SplitProbe = false
	p := &Plan{}
	for range 10 {
		p.noteSplit(time.Second)
	}
	if single, _ := p.probeSingle(); single {
		t.Errorf("SplitProbe off: one device")
	}
}
