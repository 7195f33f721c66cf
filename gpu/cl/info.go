package cl

import (
	"strings"
	"unsafe"
)

// DeviceType is the OpenCL device type bit field.
type DeviceType uint64

// Device types.
const (
	TypeDefault     DeviceType = 1
	TypeCPU         DeviceType = 2
	TypeGPU         DeviceType = 4
	TypeAccelerator DeviceType = 8
	TypeAll         DeviceType = 0xFFFFFFFF
)

func (t DeviceType) String() string {
	var parts []string
	for _, b := range []struct {
		bit  DeviceType
		name string
	}{{TypeGPU, "GPU"}, {TypeAccelerator, "accelerator"}, {TypeCPU, "CPU"}, {TypeDefault, "default"}} {
		if t&b.bit != 0 {
			parts = append(parts, b.name)
		}
	}
	if len(parts) == 0 {
		return "other"
	}
	return strings.Join(parts, "+")
}

// Platform is an OpenCL platform with the facts fut shows.
type Platform struct {
	ID      uintptr
	Name    string
	Vendor  string
	Version string
}

// Device is an OpenCL device with the facts fut uses to choose and to
// generate code.
type Device struct {
	ID             uintptr
	Platform       *Platform
	Name           string
	Vendor         string
	Version        string
	DriverVersion  string
	Type           DeviceType
	GlobalMem      uint64
	LocalMem       uint64
	MaxAlloc       uint64
	ComputeUnits   uint32
	MaxWorkGroup   int
	Extensions     string
	HasF64, HasF16 bool
	// RoundedDivSqrt: single-precision division and square root can be
	// built correctly rounded (CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT in
	// CL_DEVICE_SINGLE_FP_CONFIG), as -cl-fp32-correctly-rounded-divide-sqrt
	// asks; without the option OpenCL allows 2.5 ulp for a division and
	// 3 for a square root.
	RoundedDivSqrt bool
	// BaseAlign is the alignment in bytes of a sub-buffer's origin
	// (CL_DEVICE_MEM_BASE_ADDR_ALIGN, given in bits).
	BaseAlign int
	// NVCompute is an NVIDIA GPU's compute capability, major·10 + minor
	// (cl_nv_device_attribute_query; 90 for an H100), 0 elsewhere.
	NVCompute int
}

// fpCorrectlyRoundedDivSqrt is CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT.
const fpCorrectlyRoundedDivSqrt = 1 << 7

const (
	platformVersion = 0x0901
	platformName    = 0x0902
	platformVendor  = 0x0903

	deviceType         = 0x1000
	deviceNVMajor      = 0x4000 // CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV
	deviceNVMinor      = 0x4001
	deviceComputeUnits = 0x1002
	deviceMaxWG        = 0x1004
	deviceMaxAlloc     = 0x1010
	deviceBaseAlign    = 0x1019
	deviceSingleFP     = 0x101B
	deviceGlobalMem    = 0x101F
	deviceLocalMem     = 0x1023
	deviceName         = 0x102B
	deviceVendor       = 0x102C
	deviceDriver       = 0x102D
	deviceVersion      = 0x102F
	deviceExtensions   = 0x1030
	deviceDoubleFP     = 0x1032
	deviceHalfFP       = 0x1033
)

// Platforms lists the OpenCL platforms. No library or no platform is an
// error (wrapping ErrNoLibrary, or an *Error with CL_PLATFORM_NOT_FOUND_KHR).
func Platforms() ([]*Platform, error) {
	if err := Load(); err != nil {
		return nil, err
	}
	var n uint32
	if code := clGetPlatformIDs(0, nil, &n); code != 0 {
		return nil, check("clGetPlatformIDs", code)
	}
	if n == 0 {
		return nil, &Error{Op: "clGetPlatformIDs", Code: PlatformNotFoundKHR}
	}
	ids := make([]uintptr, n)
	if err := check("clGetPlatformIDs", clGetPlatformIDs(n, &ids[0], nil)); err != nil {
		return nil, err
	}
	ps := make([]*Platform, n)
	for i, id := range ids {
		p := &Platform{ID: id}
		p.Name, _ = platformString(id, platformName)
		p.Vendor, _ = platformString(id, platformVendor)
		p.Version, _ = platformString(id, platformVersion)
		ps[i] = p
	}
	return ps, nil
}

func platformString(id uintptr, param uint32) (string, error) {
	var size uintptr
	if err := check("clGetPlatformInfo", clGetPlatformInfo(id, param, 0, nil, &size)); err != nil || size == 0 {
		return "", err
	}
	buf := make([]byte, size)
	if err := check("clGetPlatformInfo", clGetPlatformInfo(id, param, size, unsafe.Pointer(&buf[0]), nil)); err != nil {
		return "", err
	}
	return cstring(buf), nil
}

func cstring(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return strings.TrimSpace(string(b[:i]))
		}
	}
	return strings.TrimSpace(string(b))
}

// Devices lists the devices of a platform (none is not an error).
func (p *Platform) Devices() ([]*Device, error) {
	var n uint32
	code := clGetDeviceIDs(p.ID, uint64(TypeAll), 0, nil, &n)
	if code == DeviceNotFound || n == 0 {
		return nil, nil
	}
	if code != 0 {
		return nil, check("clGetDeviceIDs", code)
	}
	ids := make([]uintptr, n)
	if err := check("clGetDeviceIDs", clGetDeviceIDs(p.ID, uint64(TypeAll), n, &ids[0], nil)); err != nil {
		return nil, err
	}
	ds := make([]*Device, 0, n)
	for _, id := range ids {
		d, err := deviceInfo(id)
		if err != nil {
			return nil, err
		}
		d.Platform = p
		ds = append(ds, d)
	}
	return ds, nil
}

func deviceInfo(id uintptr) (*Device, error) {
	d := &Device{ID: id}
	var err error
	str := func(param uint32) string {
		var size uintptr
		if e := check("clGetDeviceInfo", clGetDeviceInfo(id, param, 0, nil, &size)); e != nil || size == 0 {
			if err == nil {
				err = e
			}
			return ""
		}
		buf := make([]byte, size)
		if e := check("clGetDeviceInfo", clGetDeviceInfo(id, param, size, unsafe.Pointer(&buf[0]), nil)); e != nil && err == nil {
			err = e
		}
		return cstring(buf)
	}
	u64 := func(param uint32) uint64 {
		var v uint64
		clGetDeviceInfo(id, param, 8, unsafe.Pointer(&v), nil)
		return v
	}
	u32 := func(param uint32) uint32 {
		var v uint32
		clGetDeviceInfo(id, param, 4, unsafe.Pointer(&v), nil)
		return v
	}
	d.Name = str(deviceName)
	d.Vendor = str(deviceVendor)
	d.Version = str(deviceVersion)
	d.DriverVersion = str(deviceDriver)
	d.Extensions = str(deviceExtensions)
	d.Type = DeviceType(u64(deviceType))
	d.GlobalMem = u64(deviceGlobalMem)
	d.LocalMem = u64(deviceLocalMem)
	d.MaxAlloc = u64(deviceMaxAlloc)
	d.ComputeUnits = u32(deviceComputeUnits)
	d.BaseAlign = max(1, int(u32(deviceBaseAlign)/8))
	var wg uintptr
	clGetDeviceInfo(id, deviceMaxWG, unsafe.Sizeof(wg), unsafe.Pointer(&wg), nil)
	d.MaxWorkGroup = int(wg)
	d.HasF64 = strings.Contains(d.Extensions, "cl_khr_fp64") || u64(deviceDoubleFP) != 0
	d.HasF16 = strings.Contains(d.Extensions, "cl_khr_fp16")
	d.RoundedDivSqrt = u64(deviceSingleFP)&fpCorrectlyRoundedDivSqrt != 0
	if d.HasExtension("cl_nv_device_attribute_query") {
		d.NVCompute = int(u32(deviceNVMajor))*10 + int(u32(deviceNVMinor))
	}
	return d, err
}

// HasExtension reports whether the device lists the extension.
func (d *Device) HasExtension(name string) bool {
	for _, e := range strings.Fields(d.Extensions) {
		if e == name {
			return true
		}
	}
	return false
}

// AllDevices lists every device of every platform, in platform order.
func AllDevices() ([]*Device, error) {
	ps, err := Platforms()
	if err != nil {
		return nil, err
	}
	var all []*Device
	for _, p := range ps {
		ds, err := p.Devices()
		if err != nil {
			return nil, err
		}
		all = append(all, ds...)
	}
	return all, nil
}
