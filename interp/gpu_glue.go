package interp

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"fut/eval/value"
	"fut/gpu/flatten"
	"fut/gpu/runtime"
	"fut/interp/ir"
	"fut/interp/types"
)

// offloadDevice is the device the offload path runs on, opened on first
// use (runtime's choice: GPUs first, $FUT_DEVICE to pick) and kept open
// for the life of the process, since kernels are cached per device.
var offloadDevice struct {
	once   sync.Once
	config runtime.Config
	opened bool
	d      *runtime.Device
	err    error
}

// SetDeviceConfig chooses the device and the kernel cache of the offload
// path (--device, --cache-dir, --no-cache); it takes effect only before
// the device is first used.
func SetDeviceConfig(c runtime.Config) { offloadDevice.config = c }

// OffloadDevice opens (once) and returns the device of the offload path.
func OffloadDevice() (*runtime.Device, error) {
	offloadDevice.once.Do(func() {
		offloadDevice.opened = true
		offloadDevice.d, offloadDevice.err = runtime.Open(offloadDevice.config)
	})
	return offloadDevice.d, offloadDevice.err
}

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
func (s *Session) OffloadPlan(src string) (plan *flatten.Plan, args []value.Value, t types.Type, why string, err error) {
	e, err := s.ParseExpr(src)
	if err != nil {
		return nil, nil, nil, "", err
	}
	t, err = s.checker.CheckExpr(e)
	if err != nil {
		return nil, nil, nil, "", err
	}
	p, args, err := ir.LowerExpr(s.Fset, s.checker.Info(), sessionGlobals{s}, e)
	if err != nil {
		return nil, nil, t, err.Error(), nil
	}
	fused, _, err := ir.Run(p, "simplify-final")
	if err != nil {
		return nil, nil, t, "the IR passes failed: " + err.Error(), nil
	}
	plan, err = flatten.Flatten(fused)
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
	return s.runPlan(ctx, plan, args, t)
}

// runPlan runs a flattened plan on the offload device and rebuilds the
// value of type t from its flat results.
func (s *Session) runPlan(ctx context.Context, plan *flatten.Plan, args []value.Value, t types.Type) (v value.Value, offloaded bool, why string, err error) {
	if _, rest, ok := rebuild(types.Resolve(t), make([]value.Value, len(plan.Prog.Ret))); !ok || len(rest) != 0 {
		return nil, false, fmt.Sprintf("a result of type %s is not rebuilt from the flat results yet", t), nil
	}
	d, err := OffloadDevice()
	if err != nil {
		return nil, false, "no OpenCL device: " + err.Error(), nil
	}
	s.onDevice.Add(1)
	vs, _, err := plan.Run(ctx, d, args)
	s.onDevice.Add(-1)
	if err != nil {
		if ctx.Err() != nil {
			return nil, false, "", ctx.Err()
		}
		why, err := planFailure(err)
		return nil, false, why, err
	}
	v, _, _ = rebuild(types.Resolve(t), vs)
	return v, true, "", nil
}

// rebuild takes the values of type t from the IR's flat results: a
// scalar or an array of scalars is one result, a tuple is its elements'.
func rebuild(t types.Type, vs []value.Value) (value.Value, []value.Value, bool) {
	switch t := t.(type) {
	case *types.Prim:
		if len(vs) == 0 {
			return nil, nil, false
		}
		return vs[0], vs[1:], true
	case *types.Array:
		elem := types.Resolve(t.Elem)
		for {
			a, ok := elem.(*types.Array)
			if !ok {
				break
			}
			elem = types.Resolve(a.Elem)
		}
		if _, ok := elem.(*types.Prim); !ok || len(vs) == 0 {
			return nil, nil, false
		}
		return vs[0], vs[1:], true
	case *types.Record:
		tup := make(value.Tuple, len(t.Fields))
		for i, f := range t.Fields {
			if f.Name != strconv.Itoa(i) {
				return nil, nil, false
			}
			var ok bool
			if tup[i], vs, ok = rebuild(types.Resolve(f.Type), vs); !ok {
				return nil, nil, false
			}
		}
		return tup, vs, true
	}
	return nil, nil, false
}

// OnDevice reports whether an evaluation is running a plan on the OpenCL
// device now. A cancelled run stops only between the plan's steps: a
// kernel running (or being built) cannot be stopped, and the REPL says
// that it waits for it. Safe to call from any goroutine.
func (s *Session) OnDevice() bool { return s.onDevice.Load() > 0 }

// KernelIR is the offload path's last stage, for :ir: the plan's kernels
// and host steps, or a line saying why the expression stays on the
// reference path.
func (s *Session) KernelIR(src string) (string, error) {
	plan, _, _, why, err := s.OffloadPlan(src)
	if err != nil {
		return "", err
	}
	if why != "" {
		return "-- stays on the reference path: " + why + "\n", nil
	}
	return plan.String(), nil
}
