package session

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"fut/eval/value"
	"fut/gpu"
	"fut/interp/ir"
	"fut/interp/types"
)

// offloadDevice is the device the offload path runs on, opened on first
// use (runtime's choice: GPUs first, $FUT_DEVICE to pick) and kept open
// for the life of the process, since kernels are cached per device.
var offloadDevice struct {
	once   sync.Once
	config gpu.Config
	opened bool
	d      *gpu.Device
	err    error
	// the devices besides d that --devices chooses (set: d is one of
	// them, as set[0], or not when the spec names others), opened on
	// first use after the spec is set
	mu     sync.Mutex
	set    []*gpu.Device
	setOK  bool
	setErr error
	// each device's arguments kept there between calls (residentFor)
	resident map[*gpu.Device]*gpu.Resident
}

// SetDeviceConfig chooses the device and the kernel cache of the offload
// path (--device, --cache-dir, --no-cache); it takes effect only before
// the device is first used, but for --devices, which takes effect at
// once (SetDevices).
func SetDeviceConfig(c gpu.Config) {
	offloadDevice.config = c
	SetDevices(c.Devices)
}

// OffloadDevice opens (once) and returns the device of the offload path.
func OffloadDevice() (*gpu.Device, error) {
	offloadDevice.once.Do(func() {
		offloadDevice.opened = true
		offloadDevice.d, offloadDevice.err = gpu.Open(offloadDevice.config)
	})
	return offloadDevice.d, offloadDevice.err
}

// SetDevices sets the --devices spec of the offload path (all, a count,
// or indices #i,#j; "" or 1: one device): an offloaded nest is split
// across them where it can be. Devices besides the offload device open
// on first use.
func SetDevices(spec string) error {
	spec, err := gpu.DeviceSpec(spec)
	if err != nil {
		return err
	}
	offloadDevice.mu.Lock()
	defer offloadDevice.mu.Unlock()
	offloadDevice.config.Devices = spec
	for _, d := range offloadDevice.set {
		if d != offloadDevice.d {
			if c := offloadDevice.resident[d]; c != nil {
				c.Clear()
				delete(offloadDevice.resident, d)
			}
			d.Close()
		}
	}
	offloadDevice.set, offloadDevice.setOK, offloadDevice.setErr = nil, false, nil
	return nil
}

// Devices is the --devices spec in force ("": one device).
func Devices() string { return offloadDevice.config.Devices }

// OffloadDevices opens (once per spec) and returns the devices the
// offload path splits nests across: the offload device alone unless
// --devices asks for more; with a count, the offload device first.
func OffloadDevices() ([]*gpu.Device, error) {
	d, err := OffloadDevice()
	if err != nil {
		return nil, err
	}
	offloadDevice.mu.Lock()
	defer offloadDevice.mu.Unlock()
	spec := offloadDevice.config.Devices
	if spec == "" || spec == "1" {
		return []*gpu.Device{d}, nil
	}
	if offloadDevice.setOK {
		return offloadDevice.set, offloadDevice.setErr
	}
	offloadDevice.setOK = true
	set, err := func() ([]*gpu.Device, error) {
		devs, err := gpu.Candidates()
		if err != nil {
			return nil, err
		}
		first := 0
		for i, c := range devs {
			if c.ID == d.Info.ID {
				first = i
				break
			}
		}
		idx, err := gpu.ChooseSet(devs, spec, first)
		if err != nil {
			return nil, err
		}
		var set []*gpu.Device
		for k, i := range idx {
			if k == 0 && devs[i].ID == d.Info.ID {
				set = append(set, d)
				continue
			}
			o, err := gpu.OpenDevice(devs[i], offloadDevice.config)
			if err != nil {
				for _, x := range set {
					if x != d {
						x.Close()
					}
				}
				return nil, err
			}
			set = append(set, o)
		}
		return set, nil
	}()
	offloadDevice.set, offloadDevice.setErr = set, err
	return set, err
}

// residentFor is d's cache of the arguments kept there between calls,
// made on first use with the limit FUT_RESIDENT_BYTES sets.
func residentFor(d *gpu.Device) *gpu.Resident {
	offloadDevice.mu.Lock()
	defer offloadDevice.mu.Unlock()
	if c := offloadDevice.resident[d]; c != nil {
		return c
	}
	if offloadDevice.resident == nil {
		offloadDevice.resident = map[*gpu.Device]*gpu.Resident{}
	}
	limit, why := gpu.ResidentLimit()
	c := gpu.NewResident(d, limit, why)
	offloadDevice.resident[d] = c
	return c
}

// ResidentHeld is the number of arrays the offload device keeps between
// calls and their bytes (0, 0 when no device was opened).
func ResidentHeld() (arrays int, bytes int64) {
	if !offloadDevice.opened || offloadDevice.d == nil {
		return 0, 0
	}
	return residentFor(offloadDevice.d).Held()
}

// SetDeviceMemory sets the offload path's device-memory budget (0: the
// default), on the device if it is open and for when it opens.
func SetDeviceMemory(n int64) {
	offloadDevice.config.DeviceMemory = n
	if offloadDevice.opened && offloadDevice.d != nil {
		offloadDevice.d.SetBudget(n)
	}
	offloadDevice.mu.Lock()
	for _, d := range offloadDevice.set {
		d.SetBudget(n)
	}
	offloadDevice.mu.Unlock()
}

// DeviceMemory is the budget SetDeviceMemory or --device-memory set (0:
// the default).
func DeviceMemory() int64 { return offloadDevice.config.DeviceMemory }

// ProfileTable is the table of kernels run so far (calls, total and mean
// device time, build times), or "" when no device was opened.
func ProfileTable() string {
	if !offloadDevice.opened || offloadDevice.d == nil {
		return ""
	}
	return offloadDevice.d.Profile.Table()
}

// OffloadPlan lowers an expression, runs the pass pipeline and flattens
// the fused program into kernels; it returns the plan and the arguments
// to run it on, or why the expression stays on the reference path (a
// non-empty why with a nil error), or an error in the user's expression.
func (s *Session) OffloadPlan(src string) (plan *gpu.Plan, args []value.Value, t types.Type, why string, err error) {
	e, err := s.ParseExpr(src)
	if err != nil {
		return nil, nil, nil, "", err
	}
	t, err = s.checker.CheckExpr(e)
	if err != nil {
		return nil, nil, nil, "", err
	}
	p, args, err := s.lowerChecked(e)
	if err != nil {
		return nil, nil, t, err.Error(), nil
	}
	fused, _, err := ir.Run(p, "simplify-final")
	if err != nil {
		return nil, nil, t, "the IR passes failed: " + err.Error(), nil
	}
	plan, err = gpu.Flatten(fused)
	if err != nil {
		return nil, nil, t, err.Error(), nil
	}
	return plan, args, t, "", nil
}

// EvalOffload evaluates an expression on the offload path: lowered,
// fused, flattened into kernels and run on the OpenCL device. When it
// cannot (the expression does not lower or flatten, no device, a build
// or launch failure) it returns offloaded=false and why, and the caller
// evaluates on the reference path; err is only an error in the user's
// expression (syntax or type). Results equal the reference evaluator's
// (floats up to the order of reductions).
func (s *Session) EvalOffload(ctx context.Context, src string) (v value.Value, offloaded bool, why string, err error) {
	plan, args, t, why, err := s.OffloadPlan(src)
	if err != nil || why != "" {
		return nil, false, why, err
	}
	v, _, why, err = s.runPlan(ctx, plan, args, t)
	return v, v != nil, why, err
}

// DeviceBound says how the expression would use the offload device's
// memory: whole, or streamed in chunks whose arrays bound what is on the
// device at once (the S1 of a streamed nest is bounded by the chunk, not
// by n). "" when it would not run on the device or there is none.
func (s *Session) DeviceBound(src string) string {
	plan, args, _, why, err := s.OffloadPlan(src)
	if err != nil || why != "" {
		return ""
	}
	d, err := OffloadDevice()
	if err != nil {
		return ""
	}
	b, err := plan.Bound(d, args)
	if err != nil {
		return "on the device: " + err.Error()
	}
	if b.Chunks == 0 {
		return ""
	}
	return b.String()
}

// runPlan runs a flattened plan on the offload device and rebuilds the
// value of type t from its flat results.
// transfers says what the run copied to the device and found there
// (runStats.transfers); v is nil where it did not run there.
func (s *Session) runPlan(ctx context.Context, plan *gpu.Plan, args []value.Value, t types.Type) (v value.Value, transfers, why string, err error) {
	if n, ok := flatResults(types.Resolve(t)); !ok || n != len(plan.Prog.Ret) {
		return nil, "", fmt.Sprintf("a result of type %s is not rebuilt from the flat results yet", t), nil
	}
	devs, err := OffloadDevices()
	if err != nil {
		return nil, "", "no OpenCL device: " + err.Error(), nil
	}
	s.onDevice.Add(1)
	vs, stats, err := runOn(ctx, plan, devs, args)
	s.onDevice.Add(-1)
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", "", ctx.Err()
		}
		why, err := planFailure(err)
		return nil, "", why, err
	}
	v, _, _ = rebuild(types.Resolve(t), vs)
	return v, stats.transfers(), "", nil
}

// runStats are what a run did and what it found on the device.
type runStats struct {
	gpu.Stats
	resident gpu.ResidentStats
}

// transfers says what the run copied to the device and what was there
// already ("" when it copied nothing).
func (st runStats) transfers() string {
	var parts []string
	if st.Uploads > 0 {
		arrays := "1 array"
		if st.Uploads > 1 {
			arrays = fmt.Sprintf("%d arrays", st.Uploads)
		}
		parts = append(parts, arrays+" uploaded by the run")
	}
	if r := st.resident.String(); r != "" {
		parts = append(parts, r)
	}
	return strings.Join(parts, "; ")
}

// runOn runs a plan on devs (split across them where it can be) and
// brings its results back. Its array arguments that were frozen by the
// evaluator (the REPL's values) stay on the device between calls, but
// for a run split across devices, whose chunks take each device's
// budget (it gets none of them, and the devices give up the arrays they
// keep).
func runOn(ctx context.Context, plan *gpu.Plan, devs []*gpu.Device, args []value.Value) ([]value.Value, runStats, error) {
	var st runStats
	var resident []*gpu.Array
	done := func() {}
	if len(devs) > 1 && plan.Splits(devs, args) {
		for _, d := range devs {
			residentFor(d).Clear()
		}
	} else {
		resident, st.resident, done = residentFor(devs[0]).Acquire(plan, args)
	}
	defer done()
	res, stats, err := plan.RunSplit(ctx, devs, args, resident, false)
	st.Stats = stats
	if err != nil {
		return nil, st, err
	}
	out, err := res.Download()
	res.Release()
	return out, st, err
}

// rebuild takes the values of type t from the IR's flat results: a
// scalar or an array of scalars is one result, a tuple or record its
// fields' in order, an array of tuples or records one array per field
// (the IR keeps arrays of tuples as tuples of arrays).
func rebuild(t types.Type, vs []value.Value) (value.Value, []value.Value, bool) {
	switch t := t.(type) {
	case *types.Prim:
		if len(vs) == 0 {
			return nil, nil, false
		}
		return vs[0], vs[1:], true
	case *types.Array:
		rank, elem := arrayElem(t)
		switch et := elem.(type) {
		case *types.Prim:
			if len(vs) == 0 {
				return nil, nil, false
			}
			return vs[0], vs[1:], true
		case *types.Record:
			// one array of rank dimensions (and more) per field
			out := &value.Array{Kind: value.KRecord}
			if isTupleType(et) {
				out.Kind = value.KTuple
			}
			for _, f := range et.Fields {
				ft := types.Resolve(f.Type)
				for k := 0; k < rank; k++ {
					ft = &types.Array{Elem: ft}
				}
				var fv value.Value
				var ok bool
				if fv, vs, ok = rebuild(ft, vs); !ok {
					return nil, nil, false
				}
				fa, ok := fv.(*value.Array)
				if !ok || len(fa.Shape) < rank {
					return nil, nil, false
				}
				out.Fields = append(out.Fields, fa)
				if out.Kind == value.KRecord {
					out.Names = append(out.Names, f.Name)
				}
			}
			if len(out.Fields) == 0 {
				return nil, nil, false
			}
			out.Shape = append([]int64(nil), out.Fields[0].Shape[:rank]...)
			return out, vs, true
		}
		return nil, nil, false
	case *types.Record:
		fields := make([]value.Value, len(t.Fields))
		names := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			var ok bool
			if fields[i], vs, ok = rebuild(types.Resolve(f.Type), vs); !ok {
				return nil, nil, false
			}
			names[i] = f.Name
		}
		if isTupleType(t) {
			return value.Tuple(fields), vs, true
		}
		return value.NewRecord(names, fields), vs, true
	}
	return nil, nil, false
}

// flatResults is how many flat results rebuild takes for a value of type
// t, or false for a type it does not rebuild: counted from the type, as
// rebuild cannot tell before the run (an array of records takes one
// array for each field).
func flatResults(t types.Type) (int, bool) {
	switch t := t.(type) {
	case *types.Prim:
		return 1, true
	case *types.Array:
		rank, elem := arrayElem(t)
		switch et := elem.(type) {
		case *types.Prim:
			return 1, true
		case *types.Record:
			n := 0
			for _, f := range et.Fields {
				ft := types.Resolve(f.Type)
				for k := 0; k < rank; k++ {
					ft = &types.Array{Elem: ft}
				}
				m, ok := flatResults(ft)
				if !ok {
					return 0, false
				}
				n += m
			}
			return n, n > 0
		}
	case *types.Record:
		n := 0
		for _, f := range t.Fields {
			m, ok := flatResults(types.Resolve(f.Type))
			if !ok {
				return 0, false
			}
			n += m
		}
		return n, true
	}
	return 0, false
}

// arrayElem is the rank of an array type and the type of its elements
// (no array).
func arrayElem(t *types.Array) (int, types.Type) {
	rank, elem := 1, types.Resolve(t.Elem)
	for {
		a, ok := elem.(*types.Array)
		if !ok {
			return rank, elem
		}
		rank++
		elem = types.Resolve(a.Elem)
	}
}

// isTupleType reports whether a record type is a tuple (fields 0, 1, …).
func isTupleType(r *types.Record) bool {
	for i, f := range r.Fields {
		if f.Name != strconv.Itoa(i) {
			return false
		}
	}
	return len(r.Fields) != 1
}

// OnDevice reports whether an evaluation is running a plan on the OpenCL
// device now. A cancelled run stops only between the plan's steps: a
// kernel running (or being built) cannot be stopped, and the REPL says
// that it waits for it. Safe to call from any goroutine.
func (s *Session) OnDevice() bool { return s.onDevice.Load() > 0 }

// KernelIR is the offload path's last stage, for :ir: the plan's kernels
// and host steps, with --devices the split plan across them, or a line
// saying why the expression stays on the reference path.
func (s *Session) KernelIR(src string) (string, error) {
	plan, args, _, why, err := s.OffloadPlan(src)
	if err != nil {
		return "", err
	}
	if why != "" {
		return "-- stays on the reference path: " + why + "\n", nil
	}
	text := plan.String()
	if Devices() != "" && Devices() != "1" {
		// the split plan across the devices chosen
		if devs, err := OffloadDevices(); err == nil && len(devs) > 1 {
			text = strings.TrimRight(text, "\n") + "\n" + plan.SplitText(devs, args)
		}
	}
	return text, nil
}
