package runtime

import (
	"reflect"
	"strings"
	"testing"

	"fut/eval/value"
	"fut/gpu/cl"
	"fut/gpu/kernel"
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

// TestRows: a view of rows reads the array's memory at the rows' offset,
// is released on its own, and refuses rows out of range.
func TestRows(t *testing.T) {
	d := device(t)
	const rows, cols = 600, 3
	xs := make([]int32, rows*cols)
	for i := range xs {
		xs[i] = int32(i)
	}
	a, err := d.Upload(TypeOf(value.I32), []int64{rows, cols}, xs)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	al := d.RowAlign(cols * 4)
	if al < 1 || (al*cols*4)%int64(d.Info.BaseAlign) != 0 {
		t.Fatalf("RowAlign(%d) = %d with BaseAlign %d", cols*4, al, d.Info.BaseAlign)
	}
	for _, lo := range []int64{0, al, 2 * al} {
		hi := min(lo+al+5, rows)
		if lo >= rows {
			continue
		}
		v, err := a.Rows(lo, hi)
		if err != nil {
			t.Fatal(err)
		}
		got, err := v.Download()
		v.Release()
		if err != nil {
			t.Fatal(err)
		}
		if g := got.([]int32); int64(len(g)) != (hi-lo)*cols || g[0] != int32(lo*cols) || g[len(g)-1] != int32(hi*cols-1) {
			t.Errorf("rows %d to %d: %v…", lo, hi, g[:min(len(g), 6)])
		}
	}
	if _, err := a.Rows(10, rows+1); err == nil {
		t.Errorf("rows beyond the array accepted")
	}
	// the array is whole after its views are released
	got, err := a.Download()
	if err != nil || got.([]int32)[rows*cols-1] != rows*cols-1 {
		t.Errorf("after the views: %v", err)
	}
}

// TestCopyTo copies an array to its own device and to a second logical
// device opened on the same one (two contexts: peer to peer on CUDA,
// through the host on OpenCL); the elements arrive either way, and the
// source is untouched.
func TestCopyTo(t *testing.T) {
	d0 := device(t)
	d1, err := OpenDevice(d0.Info, Config{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d1.Close()
	xs := make([]int32, 1000)
	for i := range xs {
		xs[i] = int32(i*i - 7)
	}
	a := up(t, d0, kernel.I32, xs, 10, 100)
	defer a.Release()
	for _, to := range []*Device{d0, d1} {
		b, direct, err := a.CopyTo(to)
		if err != nil {
			t.Fatal(err)
		}
		if b.Device() != to || !reflect.DeepEqual(b.Shape, a.Shape) {
			t.Errorf("copy on %p of shape %v; want %p, %v", b.Device(), b.Shape, to, a.Shape)
		}
		if got := down[int32](t, b); !reflect.DeepEqual(got, xs) {
			t.Errorf("copy to the %s device (direct %v): %v…", map[bool]string{true: "same", false: "other"}[to == d0], direct, got[:5])
		}
		b.Release()
	}
	if got := down[int32](t, a); !reflect.DeepEqual(got, xs) {
		t.Errorf("source changed: %v…", got[:5])
	}
	if d0.Info.Platform != nil && !strings.Contains(d0.Info.Platform.Name, "NVIDIA") && d1.PeerCopies() != 0 {
		t.Errorf("%d peer copies on OpenCL", d1.PeerCopies())
	}
}
