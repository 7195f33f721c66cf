// Package runtime runs kernel IR on an OpenCL device: device selection,
// device-resident arrays, a kernel cache (memory and disk), launches of
// every kernel shape, error-flag checks and per-kernel profiling.
//
// Input: a Config (device choice, cache), *kernel.Kernel values and their
// arguments. Output: results left in device Arrays, downloaded on demand.
// Invariants: a Run either completes and leaves correct results, or
// returns an error (a *KernelError for failed bounds checks and division
// by zero, a *cl.Error for device failures); no call panics on a machine
// without OpenCL. A Device is safe for use by one goroutine at a time
// (calls are serialised by a mutex).
package runtime

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"fut/gpu/cl"
	"fut/gpu/opencl"
)

// Config chooses a device and the kernel cache.
type Config struct {
	Device    string // name substring or "#k" (index in Candidates order); "" = $FUT_DEVICE, else the first
	CacheDir  string // "" = os.UserCacheDir()/fut/kernels
	NoCache   bool   // no disk cache
	GroupSize int    // work-group size (a power of two); 0 = 256
	Options   string // extra OpenCL build options ("": $FUT_CL_OPTIONS)
	// GroupsPerCU is how many work groups per compute unit reductions,
	// scans and histograms aim for (0 = 8).
	GroupsPerCU int
	// ScanLookBack chooses single-pass scans (where the scan allows
	// them): 0 on GPUs only, 1 always, -1 never.
	ScanLookBack int
	// DeviceMemory is the most device memory a plan may use at once
	// (--device-memory); 0: the device's global memory less an eighth.
	// A plan that needs more runs in chunks (package flatten).
	DeviceMemory int64
	// Devices is the --devices spec: how many devices an offloaded nest
	// may be split across (devset.go); "" is one.
	Devices string
}

// ParseFlags takes --device NAME, --devices all|N|#i,#j, --device-memory SIZE, --cache-dir DIR
// and --no-cache (also in the --flag=value form) out of args, returning the rest.
func ParseFlags(args []string) (Config, []string, error) {
	var c Config
	var rest []string
	var err error
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(a, "=")
		switch name {
		case "--device-memory":
			if !hasVal {
				if i+1 >= len(args) {
					return c, nil, fmt.Errorf("%s needs a value", name)
				}
				i++
				val = args[i]
			}
			n, ok := ParseSize(val)
			if !ok || n <= 0 {
				return c, nil, fmt.Errorf("--device-memory: not a size: %q (write e.g. 512M or 8G)", val)
			}
			c.DeviceMemory = n
		case "--devices":
			if !hasVal {
				if i+1 >= len(args) {
					return c, nil, fmt.Errorf("%s needs a value", name)
				}
				i++
				val = args[i]
			}
			if c.Devices, err = DeviceSpec(val); err != nil {
				return c, nil, fmt.Errorf("--devices: %v", err)
			}
		case "--device", "--cache-dir":
			if !hasVal {
				if i+1 >= len(args) {
					return c, nil, fmt.Errorf("%s needs a value", name)
				}
				i++
				val = args[i]
			}
			if name == "--device" {
				c.Device = val
			} else {
				c.CacheDir = val
			}
		case "--no-cache":
			c.NoCache = true
		default:
			rest = append(rest, a)
		}
	}
	return c, rest, nil
}

// Candidates lists every device of every platform: GPUs first, then
// accelerators, then CPUs, then the rest, each group in platform order.
func Candidates() ([]*cl.Device, error) {
	all, err := cl.AllDevices()
	if err != nil {
		return nil, err
	}
	rank := func(d *cl.Device) int {
		switch {
		case d.Type&cl.TypeGPU != 0:
			return 0
		case d.Type&cl.TypeAccelerator != 0:
			return 1
		case d.Type&cl.TypeCPU != 0:
			return 2
		}
		return 3
	}
	sort.SliceStable(all, func(i, j int) bool { return rank(all[i]) < rank(all[j]) })
	return all, nil
}

// ErrNoDevice is returned when no OpenCL device exists or none matches.
var ErrNoDevice = errors.New("no OpenCL device")

// Spec is the device choice in force: cfg.Device, else $FUT_DEVICE.
func (c Config) Spec() string {
	if c.Device != "" {
		return c.Device
	}
	return os.Getenv("FUT_DEVICE")
}

// Choose picks from devs (in Candidates order) by spec: "" the first,
// "#k" the k-th, otherwise the first whose name (or platform name)
// contains spec, ignoring case.
func Choose(devs []*cl.Device, spec string) (int, error) {
	if len(devs) == 0 {
		return -1, ErrNoDevice
	}
	if spec == "" {
		return 0, nil
	}
	if strings.HasPrefix(spec, "#") {
		k, err := strconv.Atoi(spec[1:])
		if err != nil || k < 0 || k >= len(devs) {
			return -1, fmt.Errorf("%w: %q (there are %d devices, #0…#%d)", ErrNoDevice, spec, len(devs), len(devs)-1)
		}
		return k, nil
	}
	low := strings.ToLower(spec)
	for i, d := range devs {
		if strings.Contains(strings.ToLower(d.Name), low) || strings.Contains(strings.ToLower(d.Platform.Name), low) {
			return i, nil
		}
	}
	return -1, fmt.Errorf("%w matches %q", ErrNoDevice, spec)
}

// Device is an open OpenCL device with its queue, kernel cache and profile.
type Device struct {
	Info    *cl.Device
	Caps    opencl.Caps
	Profile *Profile
	// untimed: kernels are launched without profiling events (their
	// device time is not measured; SetKernelTiming)
	untimed atomic.Bool

	cfg     Config
	ctx     *cl.Context
	mu      sync.Mutex
	byKern  map[kernMemo]*compiled // a memo of bySrc, cleared when it fills
	bySrc   map[string]*compiled   // built programs by source hash, at most maxPrograms
	lastUse map[string]int64       // when each program of bySrc was last used
	uses    int64
	// maxPrograms bounds the programs kept built (the least recently
	// used go first); maxKernels bounds byKern. Each offloaded call makes
	// new kernel values, so neither may grow with the calls.
	maxPrograms, maxKernels int
	// evictions counts released programs, to ask the C allocator now and
	// then to give back what they freed (cache.go)
	evictions int
	// keepsKernels: the implementation keeps every kernel it has built
	// loaded until the process ends (PoCL), so new programs count against
	// a limit per process (cache.go)
	keepsKernels bool
	errBuf       *cl.Buffer
	scratch      []*cl.Buffer
	lookBack     lookBackState // the single-pass scans' (lookback.go)
	pool         pool          // buffers of released arrays (pool.go)
	closedFlag   atomic.Bool
	group        int
	closed       bool
	budget       atomic.Int64 // bytes of device memory a plan may use (budget.go)
	transfer     struct {     // the second queue of chunked runs (budget.go)
		once sync.Once
		q    *cl.Queue
		err  error
		up   stager // staged uploads on q (stage.go)
	}
	staged stager  // staged copies on the device's own queue, under mu (stage.go)
	host   hostMem // pinned host memory given for bulk transfers (host.go)
	// the error flags of kernels launched and not yet checked (deferred.go)
	deferred deferredChecks
	// peerCopies counts arrays copied here from another device without
	// the host (CopyTo)
	peerCopies atomic.Int64
	// the tiled kernels' sizes chosen on d (tile_search.go), under mu
	tiles tileState
	// a launch's arguments and integer sizes (run), under mu: kept
	// from launch to launch rather than made for each
	launchArgs  []any
	launchSizes []sizeVal
}

// PeerCopies is how many arrays were copied to d from another device
// without passing through the host.
func (d *Device) PeerCopies() int64 { return d.peerCopies.Load() }

// Open chooses a device by cfg and opens it.
func Open(cfg Config) (*Device, error) {
	devs, err := Candidates()
	if err != nil {
		return nil, err
	}
	i, err := Choose(devs, cfg.Spec())
	if err != nil {
		return nil, err
	}
	return OpenDevice(devs[i], cfg)
}

// roundedDivSqrt is the build option for correctly rounded f32 division
// and square root.
const roundedDivSqrt = "-cl-fp32-correctly-rounded-divide-sqrt"

// OpenDevice opens a given device.
func OpenDevice(info *cl.Device, cfg Config) (*Device, error) {
	ctx, err := cl.NewContext(info)
	if err != nil {
		return nil, err
	}
	if cfg.Options == "" {
		cfg.Options = os.Getenv("FUT_CL_OPTIONS")
	}
	// to compare launch shapes on a device (docs/hacking.md)
	if g, err := strconv.Atoi(os.Getenv("FUT_GROUP_SIZE")); err == nil && cfg.GroupSize == 0 && g > 0 && g&(g-1) == 0 {
		cfg.GroupSize = g
	}
	if g, err := strconv.Atoi(os.Getenv("FUT_GROUPS_PER_CU")); err == nil && cfg.GroupsPerCU == 0 && g > 0 {
		cfg.GroupsPerCU = g
	}
	if info.RoundedDivSqrt {
		// the reference path divides and takes square roots of f32
		// correctly rounded; OpenCL allows 2.5 and 3 ulp unless asked
		// (on an H100 a division off by one ulp turned an escape count
		// of Futhark's rosettacode/mandelbrot.fut from 12 into 100)
		cfg.Options = strings.TrimSpace(roundedDivSqrt + " " + cfg.Options)
	}
	d := &Device{
		Info: info, cfg: cfg, ctx: ctx, Profile: NewProfile(),
		byKern: map[kernMemo]*compiled{}, bySrc: map[string]*compiled{}, lastUse: map[string]int64{},
		maxPrograms: defaultMaxPrograms, maxKernels: 1024, keepsKernels: keepsKernelsLoaded(info),
		Caps: opencl.Caps{
			F64:          info.HasF64,
			F16:          info.HasF16,
			Int64Atomics: info.HasExtension("cl_khr_int64_base_atomics") && info.HasExtension("cl_khr_int64_extended_atomics"),
			WarpVote:     info.Type&cl.TypeGPU != 0 && info.Platform != nil && strings.Contains(info.Platform.Name, "NVIDIA"),
		},
	}
	d.Caps.AsyncCopy = d.Caps.WarpVote && info.NVCompute >= 80
	// the pool keeps at most a quarter of the device's memory
	d.pool.limit = int64(info.GlobalMem / 4)
	d.group = cfg.GroupSize
	if d.group <= 0 {
		d.group = 256
	}
	for d.group > 1 && d.group > info.MaxWorkGroup {
		d.group /= 2
	}
	d.SetBudget(cfg.DeviceMemory)
	d.staged.q = ctx.Queue()
	d.errBuf, err = ctx.CreateBuffer(cl.MemReadWrite, 8*opencl.ErrWords)
	if err == nil {
		err = ctx.Fill(d.errBuf, make([]byte, 8), 0, 8*opencl.ErrWords)
	}
	if err != nil {
		ctx.Release()
		return nil, err
	}
	return d, nil
}

// Close releases everything the device holds (arrays excepted).
func (d *Device) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return
	}
	d.closed = true
	d.closedFlag.Store(true)
	for _, c := range d.bySrc {
		c.release()
	}
	for _, b := range d.scratch {
		b.Release()
	}
	d.lookBack.release()
	d.pool.drain()
	d.staged.release()
	d.deferred.release()
	d.host.release()
	if d.transfer.q != nil {
		d.transfer.up.release()
		d.transfer.q.Release()
	}
	d.errBuf.Release()
	d.ctx.Release()
	cl.TrimHostMemory()
}

// Name is the device's name.
func (d *Device) Name() string { return d.Info.Name }

// Finish waits for all queued work.
func (d *Device) Finish() error { return d.ctx.Finish() }

// SetKernelTiming says whether the device measures its kernels' time
// (the default) or launches them without profiling events: on an H100
// an event costs a short call about 0.05 ms of its wall time (mandelbrot
// 4096²: 1.866 → 1.785 ms; blackscholes 2^27 1.123 → 1.067), so fut
// bench times a call's wall without them and the kernels' time in runs
// of their own. Untimed, the device's commands go to a queue that does
// not record times, which costs each wait for the device less (see
// cl.Context.SetProfiling). Not to be called while a call runs on d.
func (d *Device) SetKernelTiming(on bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.ctx.SetProfiling(on); err != nil && on {
		d.untimed.Store(true) // still on the plain queue: no times
		return
	}
	d.untimed.Store(!on)
}

// Stamp queues a timed point on d's queue (cl.Stamp; cl.ErrNoStamp
// where the device cannot time one).
func (d *Device) Stamp() (*cl.Stamp, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.ctx.Stamp()
}

// ArmStamps and EndStamp stamp the end of a call on d's queue right
// after its last command, before the host's wait for it (cl.Context).
func (d *Device) ArmStamps() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.ctx.ArmStamps()
}

// EndStamp: see ArmStamps.
func (d *Device) EndStamp() (*cl.Stamp, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.ctx.EndStamp()
}

// Policy says when the session offloads.
type Policy int

// The policies.
const (
	PolicyAuto   Policy = iota // offload large nests when a device exists (the default)
	PolicyInterp               // never offload
	PolicyOpenCL               // offload wherever possible
)

func (p Policy) String() string {
	switch p {
	case PolicyInterp:
		return "interp"
	case PolicyOpenCL:
		return "opencl"
	}
	return "auto"
}

// ParsePolicy reads "interp", "opencl" or "auto".
func ParsePolicy(s string) (Policy, error) {
	switch s {
	case "interp":
		return PolicyInterp, nil
	case "opencl":
		return PolicyOpenCL, nil
	case "auto":
		return PolicyAuto, nil
	}
	return PolicyAuto, fmt.Errorf("unknown backend %q (interp, opencl or auto)", s)
}
