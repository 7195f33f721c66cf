package costs

import (
	"fmt"
	goruntime "runtime"
	"sync"

	"fut/gpu"
)

// Procs is P, the number of processors in Brent's bound, and where it
// came from, said in words under every table.
type Procs struct {
	P   int64
	Why string
}

func (p Procs) String() string { return fmt.Sprintf("P = %d: %s", p.P, p.Why) }

// SetBy is a P the user chose (with -p).
func SetBy(p int64, how string) Procs { return Procs{P: p, Why: "set by " + how} }

// lanesPerUnit estimates the processing elements of one compute unit of
// a GPU: OpenCL reports compute units (an NVIDIA SM, an AMD CU) but not
// their lanes, which are 64 or 128 on current GPUs. A CPU device's
// compute units are its hardware threads, one processing element each.
const lanesPerUnit = 64

var detected struct {
	sync.Mutex
	bySpec map[string]Procs
}

// DetectProcs is the default P: the processing elements of the OpenCL
// device that the offload path would use (spec as --device or
// $FUT_DEVICE choose it), or else the CPU's cores. It asks the OpenCL
// loader once per spec.
func DetectProcs(spec string) Procs {
	detected.Lock()
	defer detected.Unlock()
	if p, ok := detected.bySpec[spec]; ok {
		return p
	}
	p := detectProcs(spec)
	if detected.bySpec == nil {
		detected.bySpec = map[string]Procs{}
	}
	detected.bySpec[spec] = p
	return p
}

func detectProcs(spec string) Procs {
	cpu := func(why string) Procs {
		n := int64(goruntime.NumCPU())
		return Procs{P: n, Why: fmt.Sprintf("the CPU's %d cores (%s)", n, why)}
	}
	devs, err := gpu.Candidates()
	if err != nil || len(devs) == 0 {
		return cpu("no OpenCL device")
	}
	i, err := gpu.Choose(devs, spec)
	if err != nil {
		return cpu(fmt.Sprintf("no OpenCL device %q", spec))
	}
	return deviceProcs(devs[i])
}

// deviceProcs counts a device's processing elements.
func deviceProcs(d *gpu.DeviceInfo) Procs {
	cu := int64(max(d.ComputeUnits, 1))
	if d.Type&(gpu.TypeGPU|gpu.TypeAccelerator) != 0 {
		return Procs{P: cu * lanesPerUnit, Why: fmt.Sprintf("the OpenCL device's processing elements (%s: %d compute units × %d lanes, an estimate)", d.Name, cu, lanesPerUnit)}
	}
	return Procs{P: cu, Why: fmt.Sprintf("the OpenCL device's processing elements (%s: %d compute units)", d.Name, cu)}
}
