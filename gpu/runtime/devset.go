package runtime

import (
	"fmt"
	"strconv"
	"strings"

	"fut/gpu/cl"
)

// Several devices (--devices): the offload path may split a nest across
// a set of devices (package flatten). A set is chosen from Candidates by
// a spec:
//
//	""  or "1"   one device, Config.Device's choice (the default)
//	"N"          N devices: those of the first device's type (GPUs when
//	             there are GPUs), in Candidates order, starting at the
//	             first; with fewer than N, the same devices again, each
//	             opened once more (a logical device: a context of its
//	             own on the same hardware), so that a machine with one
//	             device runs the split too
//	"all"        every device of the first device's type
//	"#i,#j,…"    those of Candidates (an index given twice: two logical
//	             devices of one)

// DeviceSpec checks a --devices spec; it returns it unchanged, or an
// error that says what is accepted.
func DeviceSpec(s string) (string, error) {
	if s == "" || s == "all" {
		return s, nil
	}
	if strings.HasPrefix(s, "#") {
		for _, f := range strings.Split(s, ",") {
			if k, err := strconv.Atoi(strings.TrimPrefix(f, "#")); err != nil || !strings.HasPrefix(f, "#") || k < 0 {
				return "", fmt.Errorf("%q is not a device index (write #0,#1)", f)
			}
		}
		return s, nil
	}
	if n, err := strconv.Atoi(s); err != nil || n < 1 || n > 64 {
		return "", fmt.Errorf("want all, a count from 1 to 64, or indices #i,#j, not %q", s)
	}
	return s, nil
}

// ChooseSet picks the devices of a --devices spec from devs (in
// Candidates order); first is the index of the device Config.Device
// chooses, which a count starts from. The result may name a device more
// than once (logical devices).
func ChooseSet(devs []*cl.Device, spec string, first int) ([]int, error) {
	if len(devs) == 0 {
		return nil, ErrNoDevice
	}
	if _, err := DeviceSpec(spec); err != nil {
		return nil, err
	}
	if spec == "" || spec == "1" {
		return []int{first}, nil
	}
	if strings.HasPrefix(spec, "#") {
		var out []int
		for _, f := range strings.Split(spec, ",") {
			k, _ := strconv.Atoi(f[1:])
			if k >= len(devs) {
				return nil, fmt.Errorf("%w: %q (there are %d devices, #0…#%d)", ErrNoDevice, f, len(devs), len(devs)-1)
			}
			out = append(out, k)
		}
		return out, nil
	}
	// the devices of the first one's type, from it on
	kind := devs[first].Type & (cl.TypeGPU | cl.TypeAccelerator | cl.TypeCPU)
	same := []int{first}
	for i, d := range devs {
		if i != first && d.Type&(cl.TypeGPU|cl.TypeAccelerator|cl.TypeCPU) == kind {
			same = append(same, i)
		}
	}
	if spec == "all" {
		return same, nil
	}
	n, _ := strconv.Atoi(spec)
	out := make([]int, n)
	for i := range out {
		out[i] = same[i%len(same)]
	}
	return out, nil
}

// OpenSet opens the devices cfg.Devices chooses (one when it is empty),
// the first being Open(cfg)'s choice; each is a Device of its own (its
// context, queues, kernel cache and budget), even when two share the
// hardware.
func OpenSet(cfg Config) ([]*Device, error) {
	devs, err := Candidates()
	if err != nil {
		return nil, err
	}
	first, err := Choose(devs, cfg.Spec())
	if err != nil {
		return nil, err
	}
	idx, err := ChooseSet(devs, cfg.Devices, first)
	if err != nil {
		return nil, err
	}
	var out []*Device
	for _, i := range idx {
		d, err := OpenDevice(devs[i], cfg)
		if err != nil {
			for _, o := range out {
				o.Close()
			}
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}
