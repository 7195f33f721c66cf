package gpu

import (
	"io"

	"fut/gpu/cl"
	"fut/gpu/flatten"
	"fut/gpu/kernel"
	"fut/gpu/opencl"
	"fut/gpu/runtime"
	"fut/interp/ir"
)

// Devices: what OpenCL offers, and the devices fut opens.
type (
	// Platform is an OpenCL platform, as OpenCL reports it.
	Platform = cl.Platform
	// DeviceInfo is what OpenCL reports of a device before it is opened.
	DeviceInfo = cl.Device
	// DeviceType is a device's kind (GPU, accelerator, CPU).
	DeviceType = cl.DeviceType
	// Config chooses the device and the kernel cache, with the settings
	// of the command line's device flags.
	Config = runtime.Config
	// Device is an open device: its queue, buffers, kernel cache,
	// profile and memory budget.
	Device = runtime.Device
	// Array is an array resident on a device.
	Array = runtime.Array
	// KernelError is a failure a kernel reported itself (an index out
	// of bounds, a division by zero, a failed assertion).
	KernelError = runtime.KernelError
)

// The kinds of device that count their lanes as processing elements.
const (
	TypeGPU         = cl.TypeGPU
	TypeAccelerator = cl.TypeAccelerator
)

// TraceMark records a mark in the host's timeline of the CUDA calls
// (FUT_CUDA_TRACE=2); TraceDump prints that timeline and empties it.
func TraceMark(op string) { cl.TraceMark(op) }

// TraceDump: see TraceMark.
func TraceDump(w io.Writer) { cl.TraceDump(w) }

// Platforms lists the OpenCL platforms; an error when there is no
// OpenCL library or no platform.
func Platforms() ([]*Platform, error) { return cl.Platforms() }

// DeviceAPI says through which API a device runs fut's commands: "" for
// OpenCL on a device that is no NVIDIA GPU (cl.CUDAStatus).
func DeviceAPI(d *DeviceInfo) string { return cl.CUDAStatus(d) }

// Candidates lists every device of every platform in fut's order of
// preference (GPUs, accelerators, CPUs, the rest): the #k of --device #k.
func Candidates() ([]*DeviceInfo, error) { return runtime.Candidates() }

// Choose picks from devs (in Candidates order) the device a --device spec
// names: "" the first, "#k" the k-th, else the first whose name contains
// the spec.
func Choose(devs []*DeviceInfo, spec string) (int, error) { return runtime.Choose(devs, spec) }

// ChooseSet picks from devs the devices a --devices spec names; first is
// the index of the device --device chose, which a count starts from.
func ChooseSet(devs []*DeviceInfo, spec string, first int) ([]int, error) {
	return runtime.ChooseSet(devs, spec, first)
}

// DeviceSpec checks a --devices spec (all, a count, #i,#j).
func DeviceSpec(s string) (string, error) { return runtime.DeviceSpec(s) }

// ParseFlags takes the device flags (--device, --devices,
// --device-memory, --cache-dir, --no-cache) out of args and returns the
// rest.
func ParseFlags(args []string) (Config, []string, error) { return runtime.ParseFlags(args) }

// Open opens the device that cfg chooses.
func Open(cfg Config) (*Device, error) { return runtime.Open(cfg) }

// OpenDevice opens the device info describes, with cfg's other settings.
func OpenDevice(info *DeviceInfo, cfg Config) (*Device, error) { return runtime.OpenDevice(info, cfg) }

// ParseSize reads a size in bytes such as 512M, 8G, 1024 or 1.5GiB.
func ParseSize(s string) (int64, bool) { return runtime.ParseSize(s) }

// FormatBytes writes a size in bytes in a binary unit (512 MiB, 1.5 GiB).
func FormatBytes(n int64) string { return runtime.FormatBytes(n) }

// Plans: a fused program turned into kernels and host steps.
type (
	// Plan is a program's kernels and the host steps between them.
	Plan = flatten.Plan
	// Results are a run's results, some of them arrays left on the
	// device until downloaded.
	Results = flatten.Results
	// Stats records what a run of a plan did: launches, transfers,
	// chunks, the split across devices.
	Stats = flatten.Stats
	// TooLarge says that a plan needs more device memory than the
	// budget and cannot run in chunks.
	TooLarge = flatten.TooLarge
	// Resident is a device's cache of arguments kept there between
	// calls (the REPL's repeated calls on the same values).
	Resident = flatten.Resident
	// ResidentStats says what a call found on the device and kept there.
	ResidentStats = flatten.ResidentStats
	// Caps are the capabilities (f64, f16, 64-bit atomics) kernels are
	// generated for.
	Caps = opencl.Caps
)

// Flatten turns a fused program (the output of ir.Run) into a plan, or
// says why it cannot.
func Flatten(p *ir.Prog) (*Plan, error) { return flatten.Flatten(p) }

// NewResident makes d's cache of arguments kept between calls, holding
// at most limit bytes (< 0: a quarter of the device's budget; 0: none);
// why, when not empty, is said in place of its stats.
func NewResident(d *Device, limit int64, why string) *Resident {
	return flatten.NewResident(d, limit, why)
}

// ResidentLimit is the limit FUT_RESIDENT_BYTES sets (-1: the default),
// and why the variable was not understood.
func ResidentLimit() (int64, string) { return flatten.ResidentLimit() }

// KernelSource is the OpenCL C of one kernel of a plan (Plan.Kernels),
// generated for caps.
func KernelSource(k *kernel.Kernel, caps Caps) (string, error) {
	prog, err := opencl.Generate(k, caps)
	if err != nil {
		return "", err
	}
	return prog.Source, nil
}
