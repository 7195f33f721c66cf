package runtime

import (
	"reflect"
	"strings"
	"testing"

	"fut/gpu/cl"
)

// TestChooseSet: --devices picks devices of the first one's type, in
// order, as logical devices again when there are fewer than asked, and
// checks its spec.
func TestChooseSet(t *testing.T) {
	devs := []*cl.Device{{Name: "gpu0", Type: cl.TypeGPU}, {Name: "gpu1", Type: cl.TypeGPU}, {Name: "cpu", Type: cl.TypeCPU}}
	for _, c := range []struct {
		spec  string
		first int
		want  []int
		err   string
	}{
		{"", 0, []int{0}, ""},
		{"1", 1, []int{1}, ""},
		{"2", 0, []int{0, 1}, ""},
		{"2", 1, []int{1, 0}, ""},
		{"3", 0, []int{0, 1, 0}, ""},
		{"all", 0, []int{0, 1}, ""},
		{"2", 2, []int{2, 2}, ""},
		{"#2,#0", 0, []int{2, 0}, ""},
		{"#0,#0", 0, []int{0, 0}, ""},
		{"#3", 0, nil, "there are 3 devices"},
		{"0", 0, nil, "a count from 1 to 64"},
		{"two", 0, nil, "a count from 1 to 64"},
		{"#a", 0, nil, "not a device index"},
	} {
		got, err := ChooseSet(devs, c.spec, c.first)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %v, %v; want an error with %q", c.spec, got, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q from #%d: %v, %v; want %v", c.spec, c.first, got, err, c.want)
		}
	}
	cfg, rest, err := ParseFlags([]string{"--devices", "2", "x", "--devices=all"})
	if err != nil || cfg.Devices != "all" || len(rest) != 1 {
		t.Errorf("ParseFlags: %+v %v %v", cfg, rest, err)
	}
	if _, _, err := ParseFlags([]string{"--devices=-1"}); err == nil {
		t.Errorf("--devices=-1 accepted")
	}
}
