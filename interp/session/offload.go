package session

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"fut/eval/value"
	"fut/gpu"
	"fut/interp/ir"
	"fut/interp/types"
)

// Backend is the offload policy of ARCHITECTURE.md: interp never
// offloads, opencl offloads whatever can be, auto offloads when a device
// exists and the estimated work passes AutoThreshold.
type Backend string

const (
	BackendInterp Backend = "interp"
	BackendOpenCL Backend = "opencl"
	BackendAuto   Backend = "auto"
)

// ParseBackend reads a backend name.
func ParseBackend(s string) (Backend, error) {
	switch b := Backend(s); b {
	case BackendInterp, BackendOpenCL, BackendAuto:
		return b, nil
	}
	return "", fmt.Errorf("unknown backend %q (interp, opencl or auto)", s)
}

// AutoThreshold is the number of elements (the widest SOAC or array of a
// nest) from which the auto policy offloads: below it, uploading the
// inputs and launching kernels costs more than the reference path saves.
const AutoThreshold = 1 << 16

// Offloaded is the result of running an entry point on the device.
type Offloaded struct {
	Values     []value.Value
	KernelTime time.Duration // device time of the kernels, build and copies excluded
	// Untimed counts the launches whose device time OpenCL did not give
	// (KernelTime leaves them out); UntimedWhy says why.
	Untimed    int
	UntimedWhy error
	Launches   int
	// Chunks says how the call ran in chunks ("in 12 chunks of 256 MiB,
	// 2 queues"; "" when it ran whole).
	Chunks string
	// Split says how the call ran across devices ("split across 2
	// devices: …"), or why not when several were chosen ("" with one).
	Split string
}

// CallEntryOffload runs an entry point on the OpenCL device: lowered
// with its concrete arguments, fused, flattened into kernels and run.
// When it cannot (the entry point does not lower or flatten, the policy
// says no, no device, a build or launch failure), it returns a nil
// result and why, and the caller uses the reference path; results equal
// the reference evaluator's (floats up to the order of reductions). An
// error of the program that the device or a host step finds at a known
// source position is err (Located), the reference path's message there.
func (s *Session) CallEntryOffload(ctx context.Context, b Backend, name string, args []value.Value) (off *Offloaded, why string, err error) {
	defer func() {
		// A bug in the offload path never costs the user the result: the
		// reference path runs instead.
		if p := recover(); p != nil {
			off, why, err = nil, fmt.Sprintf("internal error in the offload path (a bug in fut): %v", p), nil
		}
	}()
	call, why := s.PrepareOffload(b, name, args)
	if call == nil {
		return nil, why, nil
	}
	res, out, why, err := call.Run(ctx, nil, false)
	if res == nil {
		return nil, why, err
	}
	out.Values, err = call.Values(res)
	if err != nil {
		return nil, "device failure: " + err.Error(), nil
	}
	return out, "", nil
}

// OffloadCall is an entry point's call made ready for the device: lowered
// with its arguments, fused and flattened (the plan is for those
// arguments' sizes).
type OffloadCall struct {
	plan    *gpu.Plan
	args    []value.Value
	results []types.Type
	d       *gpu.Device   // the first of devs
	devs    []*gpu.Device // the devices a run may split across
}

// PrepareOffload makes the call of the entry point on args ready for the
// device, or says why it stays on the reference path.
func (s *Session) PrepareOffload(b Backend, name string, args []value.Value) (call *OffloadCall, why string) {
	if b == BackendInterp {
		return nil, "the backend is interp"
	}
	defer func() {
		if p := recover(); p != nil {
			call, why = nil, fmt.Sprintf("internal error in the offload path (a bug in fut): %v", p)
		}
	}()
	_, results, ok := s.EntryPoint(name)
	if !ok {
		return nil, fmt.Sprintf("no entry point %q", name)
	}
	// lowered from the caller's values, run on copies of those it may
	// consume (below)
	prog, irArgs, err := s.LowerEntryIR(name, args)
	if err != nil {
		return nil, err.Error()
	}
	if b == BackendAuto {
		if n := estimateElements(prog, irArgs); n < AutoThreshold {
			return nil, fmt.Sprintf("auto: about %d elements, below the offload threshold of %d", n, AutoThreshold)
		}
	}
	fused, _, err := ir.Run(prog, "")
	if err != nil {
		return nil, "the IR passes failed: " + err.Error()
	}
	plan, err := gpu.Flatten(fused)
	if err != nil {
		return nil, err.Error()
	}
	flat := 0
	for _, t := range results {
		n, ok := flatResults(types.Resolve(t))
		if !ok {
			return nil, fmt.Sprintf("a result of type %s is not rebuilt from the flat results yet", t)
		}
		flat += n
	}
	if flat != len(plan.Prog.Ret) {
		return nil, "the results do not match the entry point's type"
	}
	devs, err := OffloadDevices()
	if err != nil {
		return nil, "no OpenCL device: " + err.Error()
	}
	d := devs[0]
	// a run may consume the arrays it is given (the host steps reuse the
	// buffers of unique arrays) and the reference path may have to run
	// after it: it gets copies, but of the arrays that a chunked run only
	// streams to the device (which can be larger than the device)
	streamed := plan.Streamed(d, irArgs)
	for i, a := range irArgs {
		if arr, ok := a.(*value.Array); ok && (i >= len(streamed) || !streamed[i]) {
			irArgs[i] = arr.Copy()
		}
	}
	return &OffloadCall{plan: plan, args: irArgs, results: results, d: d, devs: devs}, ""
}

// Upload copies the arguments that can stay on the device between runs
// there (see gpu.Plan.Upload); the caller releases them.
// For a call split across devices, the arguments go to every device
// (one array per argument per device, device after device), or stay on
// the host (nil entries) when they cannot all be resident.
func (c *OffloadCall) Upload() ([]*gpu.Array, error) {
	if len(c.devs) > 1 && c.plan.Splits(c.devs, c.args) {
		per, err := c.plan.UploadSplit(c.devs, c.args)
		if err != nil || per == nil {
			return make([]*gpu.Array, len(c.args)), err
		}
		var flat []*gpu.Array
		for i, d := range c.devs {
			flat = append(flat, per[i]...)
			if err := d.Finish(); err != nil {
				for _, a := range flat {
					if a != nil {
						a.Release()
					}
				}
				return nil, err
			}
		}
		return flat, nil
	}
	rs, err := c.plan.Upload(c.d, c.args)
	if err == nil {
		err = c.d.Finish()
	}
	return rs, err
}

// Run runs the call once, with the resident arguments (from Upload, or
// nil) and, with keep, its array results left on the device. It returns
// nil and why where the call fails on the device (and the reference path
// is to run it), or a located error of the program.
func (c *OffloadCall) Run(ctx context.Context, resident []*gpu.Array, keep bool) (res *gpu.Results, out *Offloaded, why string, err error) {
	d := c.d
	// the arrays kept on the devices for the REPL's calls give up the
	// room this run needs
	if len(c.devs) > 1 && c.plan.Splits(c.devs, c.args) {
		for _, d := range c.devs {
			residentFor(d).Clear()
		}
	} else {
		residentFor(d).Yield(c.plan, c.args)
	}
	before := kernelTime(c.devs...)
	untimedBefore, _ := d.Profile.Untimed()
	gpu.TraceMark("run")
	res, stats, err := c.plan.RunSplit(ctx, c.devs, c.args, resident, keep)
	gpu.TraceMark("ran")
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, "interrupted", nil
		}
		why, err := planFailure(err)
		return nil, nil, why, err
	}
	// a split run has waited for each of its devices (every device's
	// pass ends in a flush of its queue); a run on one is waited for here
	if stats.Split.Devices <= 1 {
		if err := c.devs[0].Finish(); err != nil {
			res.Release()
			return nil, nil, "device failure: " + err.Error(), nil
		}
	}
	out = &Offloaded{Launches: len(stats.Launches), KernelTime: kernelTime(c.devs...) - before, Chunks: stats.Chunks.String(), Split: stats.Split.String()}
	if n, why := d.Profile.Untimed(); n > untimedBefore {
		out.Untimed, out.UntimedWhy = n-untimedBefore, why
	}
	return res, out, "", nil
}

// SetKernelTiming says whether the call's devices measure their kernels'
// time (Offloaded.KernelTime; the default) or run them untimed, which
// costs a short call less wall time (gpu.Device.SetKernelTiming).
func (c *OffloadCall) SetKernelTiming(on bool) {
	for _, d := range c.devs {
		d.SetKernelTiming(on)
	}
}

// StartSpan stamps the start of a call on its device's queue. The
// function it returns gives the device time from it to a stamp queued
// right after the call's last command, before the host waited for it:
// every command and every gap between them, as a pair of CUDA events
// around a library's call times it. ok is false
// where the device cannot stamp (OpenCL) or the call runs on several.
func (c *OffloadCall) StartSpan() func() (span time.Duration, ok bool) {
	none := func() (time.Duration, bool) { return 0, false }
	if len(c.devs) != 1 {
		return none
	}
	d := c.devs[0]
	a, err := d.Stamp()
	if err != nil {
		return none
	}
	if err := d.ArmStamps(); err != nil {
		a.Release()
		return none
	}
	return func() (time.Duration, bool) {
		defer a.Release()
		b, err := d.EndStamp()
		if err != nil {
			return 0, false
		}
		defer b.Release()
		t, err := b.Since(a)
		return t, err == nil
	}
}

// Values downloads a run's results and rebuilds the entry point's values.
func (c *OffloadCall) Values(res *gpu.Results) ([]value.Value, error) {
	vs, err := res.Download()
	if err != nil {
		return nil, err
	}
	var out []value.Value
	for _, t := range c.results {
		var v value.Value
		v, vs, _ = rebuild(types.Resolve(t), vs)
		out = append(out, v)
	}
	return out, nil
}

// estimateElements is the auto policy's estimate of a program's work: the
// number of elements of its widest array or SOAC. Sizes are concrete once
// lowered, or computed on the host from scalar parameters (args, in the
// order of p.Params), which are followed through the top-level scalar
// statements.
func estimateElements(p *ir.Prog, args []value.Value) int64 {
	known := map[string]value.Prim{}
	for i, prm := range p.Params {
		if i < len(args) && prm.T.Rank() == 0 {
			if x, ok := args[i].(value.Prim); ok {
				known[prm.Name] = x
			}
		}
	}
	val := func(a ir.Atom) (int64, bool) {
		if a.IsConst() {
			return a.Val.AsInt64(), a.Val.T.IsInt()
		}
		x, ok := known[a.Name]
		return x.AsInt64(), ok && x.T.IsInt()
	}
	var widest int64
	count := func(t ir.Type) {
		n := int64(1)
		for _, d := range t.Shape {
			v, ok := val(d)
			if !ok {
				return
			}
			n *= v
		}
		widest = max(widest, n)
	}
	width := func(a ir.Atom) {
		if v, ok := val(a); ok {
			widest = max(widest, v)
		}
	}
	for _, prm := range p.Params {
		count(prm.T)
	}
	for _, st := range p.Body.Stms {
		if r, ok := ir.EvalScalar(st.E, known); ok && len(st.Pat) == 1 {
			known[st.Pat[0].Name] = r
		}
		for _, prm := range st.Pat {
			count(prm.T)
		}
		switch e := st.E.(type) {
		case *ir.ScremaE:
			width(e.W)
		case *ir.FilterE:
			width(e.W)
		case *ir.ScatterE:
			width(e.W)
		case *ir.HistE:
			width(e.W)
		case *ir.StreamE:
			width(e.W)
		}
	}
	return widest
}

// SetBackend sets the session's offload policy for expressions (Enter);
// it returns the previous one.
func (s *Session) SetBackend(b Backend) Backend {
	old := s.backendOrDefault()
	s.backend = b
	return old
}

// Backend is the session's offload policy.
func (s *Session) Backend() Backend { return s.backendOrDefault() }

func (s *Session) backendOrDefault() Backend {
	if s.backend == "" {
		return BackendInterp
	}
	return s.backend
}

// EvalOn evaluates an expression by the policy b: on the device when it
// offloads (auto: only when its estimated size passes AutoThreshold),
// otherwise on the reference path. RanOn in the result says where it ran;
// why says why not on the device. The cost of an offloaded expression is
// not computed here: :cost always runs the reference path, since costs
// are a property of the program, not of the device.
func (s *Session) EvalOn(ctx context.Context, b Backend, src string) (res *Result, why string, err error) {
	if b != BackendInterp {
		res, why, err = s.tryOffload(ctx, b, src)
		if res != nil || err != nil {
			return res, why, err
		}
	}
	res, err = s.EvalExpr(ctx, src)
	if res != nil {
		res.RanOn = "interp"
	}
	return res, why, err
}

// tryOffload runs an expression on the device if the policy and the
// offload path allow; a nil result with a nil error means "use the
// reference path", for the reason why. A bug in the offload path (a
// panic) never costs the user the value: it becomes a reason too.
func (s *Session) tryOffload(ctx context.Context, b Backend, src string) (res *Result, why string, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, why, err = nil, fmt.Sprintf("internal error in the offload path (a bug in fut): %v", p), nil
		}
	}()
	plan, args, t, why, err := s.OffloadPlan(src)
	if err != nil || why != "" {
		return nil, why, err
	}
	if b == BackendAuto {
		if n := estimateElements(plan.Prog, args); n < AutoThreshold {
			return nil, fmt.Sprintf("auto: about %d elements, below the offload threshold of %d", n, AutoThreshold), nil
		}
	}
	v, transfers, why, err := s.runPlan(ctx, plan, args, t)
	if err != nil || v == nil {
		return nil, why, err
	}
	d, _ := OffloadDevice()
	return &Result{Value: v, Type: t.String(), RanOn: "opencl (" + d.Name() + ")", Src: src, Transfers: transfers}, "", nil
}

// OpenCLSource is the offload path's last stage, for :ir: the OpenCL C of
// every kernel of the expression's plan, or a line saying why the
// expression stays on the reference path.
func (s *Session) OpenCLSource(src string) (string, error) {
	plan, _, _, why, err := s.OffloadPlan(src)
	if err != nil {
		return "", err
	}
	if why != "" {
		return "-- stays on the reference path: " + why + "\n", nil
	}
	// the capabilities the device builds its kernels with (without a
	// device, every one but f16)
	caps := gpu.Caps{F64: true, Int64Atomics: true}
	if d, err := OffloadDevice(); err == nil {
		caps = d.Caps
	}
	var b strings.Builder
	for _, k := range plan.Kernels() {
		code, err := gpu.KernelSource(k, caps)
		if err != nil {
			fmt.Fprintf(&b, "-- kernel %s: %v\n", k.Name, err)
			continue
		}
		fmt.Fprintf(&b, "// kernel %s\n%s\n", k.Name, strings.TrimRight(code, "\n"))
	}
	return b.String(), nil
}

// kernelTime is the device time of every kernel run so far on devs.
func kernelTime(devs ...*gpu.Device) time.Duration {
	var t time.Duration
	for _, d := range devs {
		t += d.Profile.KernelTime()
	}
	return t
}

// planFailure sorts a failed run of a plan: an error of the program at a
// known source position (a kernel's or a host step's) is returned, to be
// reported as the reference path reports it without running that; any
// other failure is why the call goes to the reference path instead.
func planFailure(err error) (why string, located error) {
	if _, _, ok := Located(err); ok {
		return "", err
	}
	var tl *gpu.TooLarge
	if errors.As(err, &tl) {
		return tl.Error(), nil
	}
	var ke *gpu.KernelError
	var ae *ir.AssertError
	var re *ir.RuntimeError
	if errors.As(err, &ke) || errors.As(err, &ae) || errors.As(err, &re) {
		return "the kernel failed (" + err.Error() + "); the reference path reports it with its position", nil
	}
	return "device failure: " + err.Error(), nil
}
