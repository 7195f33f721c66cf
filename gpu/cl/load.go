// Package cl binds the OpenCL C API at run time through purego: it opens
// libOpenCL.so.1 when first asked (no cgo; CGO_ENABLED=0 builds work).
//
// Input: calls from gpu/runtime. Output: Go values wrapping OpenCL handles.
// Invariants: every OpenCL failure is an *Error carrying the status NAME
// (CL_OUT_OF_RESOURCES, …); a machine without the library or without a
// platform gives a clean error from Platforms, never a panic. Host memory
// handed to OpenCL is only used by blocking calls, so Go slices never
// escape into asynchronous transfers.
package cl

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// LibraryNames are tried in order by Load.
var LibraryNames = []string{"libOpenCL.so.1", "libOpenCL.so", "/usr/lib/x86_64-linux-gnu/libOpenCL.so.1"}

// ErrNoLibrary is returned (wrapped) when libOpenCL cannot be opened.
var ErrNoLibrary = errors.New("OpenCL library not found")

// The C functions, filled in by load.
var (
	clGetPlatformIDs            func(n uint32, out *uintptr, num *uint32) int32
	clGetPlatformInfo           func(p uintptr, param uint32, size uintptr, val unsafe.Pointer, ret *uintptr) int32
	clGetDeviceIDs              func(p uintptr, typ uint64, n uint32, out *uintptr, num *uint32) int32
	clGetDeviceInfo             func(d uintptr, param uint32, size uintptr, val unsafe.Pointer, ret *uintptr) int32
	clCreateContext             func(props *uintptr, n uint32, devs *uintptr, notify uintptr, user uintptr, err *int32) uintptr
	clReleaseContext            func(c uintptr) int32
	clCreateCommandQueue        func(c uintptr, d uintptr, props uint64, err *int32) uintptr
	clReleaseCommandQueue       func(q uintptr) int32
	clFinish                    func(q uintptr) int32
	clFlush                     func(q uintptr) int32
	clCreateBuffer              func(c uintptr, flags uint64, size uintptr, host unsafe.Pointer, err *int32) uintptr
	clReleaseMemObject          func(m uintptr) int32
	clCreateSubBuffer           func(m uintptr, flags uint64, typ uint32, info unsafe.Pointer, err *int32) uintptr
	clEnqueueWriteBuffer        func(q, m uintptr, block uint32, off, size uintptr, ptr unsafe.Pointer, nw uint32, wait *uintptr, ev *uintptr) int32
	clEnqueueReadBuffer         func(q, m uintptr, block uint32, off, size uintptr, ptr unsafe.Pointer, nw uint32, wait *uintptr, ev *uintptr) int32
	clEnqueueCopyBuffer         func(q, src, dst uintptr, soff, doff, size uintptr, nw uint32, wait *uintptr, ev *uintptr) int32
	clEnqueueFillBuffer         func(q, m uintptr, pat unsafe.Pointer, psize, off, size uintptr, nw uint32, wait *uintptr, ev *uintptr) int32
	clEnqueueMarkerWithWaitList func(q uintptr, nw uint32, wait *uintptr, ev *uintptr) int32
	clCreateProgramWithSource   func(c uintptr, n uint32, strs **byte, lens *uintptr, err *int32) uintptr
	clCreateProgramWithBinary   func(c uintptr, n uint32, devs *uintptr, lens *uintptr, bins **byte, status *int32, err *int32) uintptr
	clBuildProgram              func(p uintptr, n uint32, devs *uintptr, opts *byte, notify uintptr, user uintptr) int32
	clGetProgramBuildInfo       func(p, d uintptr, param uint32, size uintptr, val unsafe.Pointer, ret *uintptr) int32
	clGetProgramInfo            func(p uintptr, param uint32, size uintptr, val unsafe.Pointer, ret *uintptr) int32
	clReleaseProgram            func(p uintptr) int32
	clCreateKernel              func(p uintptr, name *byte, err *int32) uintptr
	clReleaseKernel             func(k uintptr) int32
	clSetKernelArg              func(k uintptr, idx uint32, size uintptr, val unsafe.Pointer) int32
	clGetKernelWorkGroupInfo    func(k, d uintptr, param uint32, size uintptr, val unsafe.Pointer, ret *uintptr) int32
	clEnqueueNDRangeKernel      func(q, k uintptr, dim uint32, off, global, local *uintptr, nw uint32, wait *uintptr, ev *uintptr) int32
	clWaitForEvents             func(n uint32, evs *uintptr) int32
	clGetEventProfilingInfo     func(e uintptr, param uint32, size uintptr, val unsafe.Pointer, ret *uintptr) int32
	clReleaseEvent              func(e uintptr) int32
	clEnqueueMapBuffer          func(q, m uintptr, block uint32, flags uint64, off, size uintptr, nw uint32, wait *uintptr, ev *uintptr, err *int32) unsafe.Pointer
	clEnqueueUnmapMemObject     func(q, m uintptr, ptr unsafe.Pointer, nw uint32, wait *uintptr, ev *uintptr) int32
)

var (
	loadOnce sync.Once
	loadErr  error
)

// Load opens the OpenCL library once; later calls return the same result.
func Load() error {
	loadOnce.Do(func() { loadErr = load() })
	return loadErr
}

func load() (err error) {
	defer func() {
		if r := recover(); r != nil { // purego panics on unsupported signatures
			err = fmt.Errorf("cl: binding OpenCL: %v", r)
		}
	}()
	var lib uintptr
	var firstErr error
	for _, name := range LibraryNames {
		h, e := purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if e == nil {
			lib = h
			break
		}
		if firstErr == nil {
			firstErr = e
		}
	}
	if lib == 0 {
		return fmt.Errorf("%w (libOpenCL.so.1: %v)", ErrNoLibrary, firstErr)
	}
	syms := []struct {
		fp   any
		name string
	}{
		{&clGetPlatformIDs, "clGetPlatformIDs"},
		{&clGetPlatformInfo, "clGetPlatformInfo"},
		{&clGetDeviceIDs, "clGetDeviceIDs"},
		{&clGetDeviceInfo, "clGetDeviceInfo"},
		{&clCreateContext, "clCreateContext"},
		{&clReleaseContext, "clReleaseContext"},
		{&clCreateCommandQueue, "clCreateCommandQueue"},
		{&clReleaseCommandQueue, "clReleaseCommandQueue"},
		{&clFinish, "clFinish"},
		{&clFlush, "clFlush"},
		{&clCreateBuffer, "clCreateBuffer"},
		{&clReleaseMemObject, "clReleaseMemObject"},
		{&clCreateSubBuffer, "clCreateSubBuffer"},
		{&clEnqueueWriteBuffer, "clEnqueueWriteBuffer"},
		{&clEnqueueReadBuffer, "clEnqueueReadBuffer"},
		{&clEnqueueCopyBuffer, "clEnqueueCopyBuffer"},
		{&clEnqueueFillBuffer, "clEnqueueFillBuffer"},
		{&clEnqueueMarkerWithWaitList, "clEnqueueMarkerWithWaitList"},
		{&clCreateProgramWithSource, "clCreateProgramWithSource"},
		{&clCreateProgramWithBinary, "clCreateProgramWithBinary"},
		{&clBuildProgram, "clBuildProgram"},
		{&clGetProgramBuildInfo, "clGetProgramBuildInfo"},
		{&clGetProgramInfo, "clGetProgramInfo"},
		{&clReleaseProgram, "clReleaseProgram"},
		{&clCreateKernel, "clCreateKernel"},
		{&clReleaseKernel, "clReleaseKernel"},
		{&clSetKernelArg, "clSetKernelArg"},
		{&clGetKernelWorkGroupInfo, "clGetKernelWorkGroupInfo"},
		{&clEnqueueNDRangeKernel, "clEnqueueNDRangeKernel"},
		{&clWaitForEvents, "clWaitForEvents"},
		{&clGetEventProfilingInfo, "clGetEventProfilingInfo"},
		{&clReleaseEvent, "clReleaseEvent"},
		{&clEnqueueMapBuffer, "clEnqueueMapBuffer"},
		{&clEnqueueUnmapMemObject, "clEnqueueUnmapMemObject"},
	}
	for _, s := range syms {
		addr, e := purego.Dlsym(lib, s.name)
		if e != nil || addr == 0 {
			return fmt.Errorf("cl: %s missing from the OpenCL library", s.name)
		}
		purego.RegisterFunc(s.fp, addr)
		if fast := clDirectCalls[s.name]; fast != nil && clDirect {
			fast(addr)
		}
	}
	return nil
}

// clDirect makes the OpenCL calls of a launch, a wait and a transfer go
// through purego.SyscallN rather than the functions purego.RegisterFunc
// makes, which convert their arguments by reflection (as cudaDirect
// does for CUDA's); FUT_CL_DIRECT=0 keeps RegisterFunc's, to compare.
var clDirect = os.Getenv("FUT_CL_DIRECT") != "0"

// clDirectCalls replaces the bindings of the calls on a launch's, a
// wait's and a transfer's path by ones through purego.SyscallN, given
// the function's address. Each converts its pointers to uintptr in
// SyscallN's own argument list: SyscallN is go:uintptrescapes, so what
// they point to is kept on the heap, where it stays put until the call
// returns (a conversion in another function's arguments would leave a
// pointer into the caller's stack, which may move). Narrower integers
// are passed zero-extended; the result is the low 32 bits.
var clDirectCalls = map[string]func(addr uintptr){
	"clFinish": func(a uintptr) {
		clFinish = func(q uintptr) int32 { return call(a, q) }
	},
	"clFlush": func(a uintptr) {
		clFlush = func(q uintptr) int32 { return call(a, q) }
	},
	"clReleaseMemObject": func(a uintptr) {
		clReleaseMemObject = func(m uintptr) int32 { return call(a, m) }
	},
	"clReleaseEvent": func(a uintptr) {
		clReleaseEvent = func(e uintptr) int32 { return call(a, e) }
	},
	"clSetKernelArg": func(a uintptr) {
		clSetKernelArg = func(k uintptr, idx uint32, size uintptr, val unsafe.Pointer) int32 {
			return result(purego.SyscallN(a, k, uintptr(idx), size, uintptr(val)))
		}
	},
	"clEnqueueNDRangeKernel": func(a uintptr) {
		clEnqueueNDRangeKernel = func(q, k uintptr, dim uint32, off, global, local *uintptr, nw uint32, wait *uintptr, ev *uintptr) int32 {
			return result(purego.SyscallN(a, q, k, uintptr(dim), uintptr(unsafe.Pointer(off)), uintptr(unsafe.Pointer(global)),
				uintptr(unsafe.Pointer(local)), uintptr(nw), uintptr(unsafe.Pointer(wait)), uintptr(unsafe.Pointer(ev))))
		}
	},
	"clWaitForEvents": func(a uintptr) {
		clWaitForEvents = func(n uint32, evs *uintptr) int32 {
			return result(purego.SyscallN(a, uintptr(n), uintptr(unsafe.Pointer(evs))))
		}
	},
	"clGetEventProfilingInfo": func(a uintptr) {
		clGetEventProfilingInfo = func(e uintptr, param uint32, size uintptr, val unsafe.Pointer, ret *uintptr) int32 {
			return result(purego.SyscallN(a, e, uintptr(param), size, uintptr(val), uintptr(unsafe.Pointer(ret))))
		}
	},
	"clEnqueueWriteBuffer": func(a uintptr) {
		clEnqueueWriteBuffer = func(q, m uintptr, block uint32, off, size uintptr, ptr unsafe.Pointer, nw uint32, wait *uintptr, ev *uintptr) int32 {
			return result(purego.SyscallN(a, q, m, uintptr(block), off, size, uintptr(ptr), uintptr(nw),
				uintptr(unsafe.Pointer(wait)), uintptr(unsafe.Pointer(ev))))
		}
	},
	"clEnqueueReadBuffer": func(a uintptr) {
		clEnqueueReadBuffer = func(q, m uintptr, block uint32, off, size uintptr, ptr unsafe.Pointer, nw uint32, wait *uintptr, ev *uintptr) int32 {
			return result(purego.SyscallN(a, q, m, uintptr(block), off, size, uintptr(ptr), uintptr(nw),
				uintptr(unsafe.Pointer(wait)), uintptr(unsafe.Pointer(ev))))
		}
	},
	"clEnqueueCopyBuffer": func(a uintptr) {
		clEnqueueCopyBuffer = func(q, src, dst uintptr, soff, doff, size uintptr, nw uint32, wait *uintptr, ev *uintptr) int32 {
			return result(purego.SyscallN(a, q, src, dst, soff, doff, size, uintptr(nw),
				uintptr(unsafe.Pointer(wait)), uintptr(unsafe.Pointer(ev))))
		}
	},
	"clEnqueueFillBuffer": func(a uintptr) {
		clEnqueueFillBuffer = func(q, m uintptr, pat unsafe.Pointer, psize, off, size uintptr, nw uint32, wait *uintptr, ev *uintptr) int32 {
			return result(purego.SyscallN(a, q, m, uintptr(pat), psize, off, size, uintptr(nw),
				uintptr(unsafe.Pointer(wait)), uintptr(unsafe.Pointer(ev))))
		}
	},
	"clEnqueueMarkerWithWaitList": func(a uintptr) {
		clEnqueueMarkerWithWaitList = func(q uintptr, nw uint32, wait *uintptr, ev *uintptr) int32 {
			return result(purego.SyscallN(a, q, uintptr(nw), uintptr(unsafe.Pointer(wait)), uintptr(unsafe.Pointer(ev))))
		}
	},
}
