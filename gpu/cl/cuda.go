package cl

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/ebitengine/purego"
)

// CUDA under the OpenCL objects. On an NVIDIA GPU (unless FUT_CUDA=0) a
// Context keeps OpenCL only to compile: NVIDIA's OpenCL builds a program
// to PTX (its program binary), and everything else goes through the CUDA
// driver API (libcuda, bound like libOpenCL through purego): the PTX is
// loaded as a module, buffers are device allocations, the queue is a
// stream, events are CUDA events. The objects keep their OpenCL
// meaning, so nothing above this package changes, except that a timed
// launch's time is the span between events recorded on the stream
// before and after it: it includes the device's start of the kernel,
// which OpenCL's profiling leaves out (hist's two short kernels read
// 7–14 µs longer on an H100).
//
// A launch alone costs the host about half what OpenCL's does on an
// H100 (TestCUDAProbe: 12–25 µs cold against 32–35); whole calls gained
// 0–20 µs, and a call split across two H100s more (session 13's note).
//
// NVIDIA's PTX of an OpenCL kernel reads two things a CUDA launch does
// not supply, so loadModule rewrites them:
//   - %envreg0…%envreg5, which the OpenCL driver sets to the global
//     work offset and the group offset of a launch: fut launches with
//     neither, so they read 0;
//   - a __local pointer parameter (.param .u64 .ptr .shared), for which
//     the OpenCL driver passes an address in shared memory: the module
//     gets one dynamic shared array, the parameter becomes a plain u64
//     (CUDA's loader rejects the attribute) that holds an offset into it
//     (Kernel.SetArg of a LocalMem), and the launch asks for the array's
//     size.

// cudaWanted is whether a context on d should run on CUDA: on an NVIDIA
// GPU unless FUT_CUDA=0 (FUT_CUDA=1: CUDA or an error, where otherwise
// a context whose CUDA side cannot be made runs on OpenCL alone).
func cudaWanted(d *Device) bool {
	return os.Getenv("FUT_CUDA") != "0" && d.Type&TypeGPU != 0 &&
		d.Platform != nil && strings.Contains(d.Platform.Name, "NVIDIA") &&
		d.HasExtension("cl_nv_device_attribute_query")
}

// CUDAStatus says how a context on d runs its commands: "" for OpenCL
// on a device that is no NVIDIA GPU, else through CUDA or, with the
// reason, through OpenCL.
func CUDAStatus(d *Device) string {
	if !cudaWanted(d) {
		if os.Getenv("FUT_CUDA") == "0" && d.Platform != nil && strings.Contains(d.Platform.Name, "NVIDIA") {
			return "commands through OpenCL (FUT_CUDA=0)"
		}
		return ""
	}
	if _, err := cudaOrdinal(d); err != nil {
		return fmt.Sprintf("commands through OpenCL: CUDA not usable (%v)", err)
	}
	return "commands through CUDA's driver API, kernels compiled by OpenCL (FUT_CUDA=0: through OpenCL)"
}

var (
	cuInit                    func(flags uint32) int32
	cuDeviceGetCount          func(n *int32) int32
	cuDeviceGet               func(dev *int32, ordinal int32) int32
	cuDeviceGetAttribute      func(v *int32, attr int32, dev int32) int32
	cuDevicePrimaryCtxRetain  func(ctx *uintptr, dev int32) int32
	cuDevicePrimaryCtxRelease func(dev int32) int32
	cuCtxSetCurrent           func(ctx uintptr) int32
	cuStreamCreate            func(s *uintptr, flags uint32) int32
	cuStreamDestroy           func(s uintptr) int32
	cuStreamSynchronize       func(s uintptr) int32
	cuMemAlloc                func(p *uintptr, n uintptr) int32
	cuMemFree                 func(p uintptr) int32
	cuMemcpyHtoDAsync         func(dst uintptr, src unsafe.Pointer, n uintptr, s uintptr) int32
	cuMemcpyDtoHAsync         func(dst unsafe.Pointer, src uintptr, n uintptr, s uintptr) int32
	cuMemcpyDtoDAsync         func(dst, src uintptr, n uintptr, s uintptr) int32
	cuMemsetD8Async           func(dst uintptr, v uint8, n uintptr, s uintptr) int32
	cuMemsetD16Async          func(dst uintptr, v uint16, n uintptr, s uintptr) int32
	cuMemsetD32Async          func(dst uintptr, v uint32, n uintptr, s uintptr) int32
	cuModuleLoadDataEx        func(mod *uintptr, image unsafe.Pointer, n uint32, opts *int32, vals *uintptr) int32
	cuModuleUnload            func(mod uintptr) int32
	cuModuleGetFunction       func(f *uintptr, mod uintptr, name *byte) int32
	cuFuncGetAttribute        func(v *int32, attr int32, f uintptr) int32
	cuFuncSetAttribute        func(f uintptr, attr int32, v int32) int32
	cuLaunchKernel            func(f uintptr, gx, gy, gz, bx, by, bz, shmem uint32, s uintptr, params *unsafe.Pointer, extra *unsafe.Pointer) int32
	cuEventCreate             func(e *uintptr, flags uint32) int32
	cuEventRecord             func(e, s uintptr) int32
	cuEventSynchronize        func(e uintptr) int32
	cuEventElapsedTime        func(ms *float32, start, end uintptr) int32
	cuEventDestroy            func(e uintptr) int32
	cuMemHostAlloc            func(p *unsafe.Pointer, n uintptr, flags uint32) int32
	cuMemFreeHost             func(p unsafe.Pointer) int32
	cuMemcpyPeerAsync         func(dst, dstCtx, src, srcCtx uintptr, n uintptr, s uintptr) int32
	cuStreamWaitEvent         func(s, e uintptr, flags uint32) int32
	cuDeviceCanAccessPeer     func(can *int32, dev, peer int32) int32
	cuCtxEnablePeerAccess     func(peer uintptr, flags uint32) int32
)

var (
	cudaOnce sync.Once
	cudaErr  error
)

func loadCUDA() error {
	cudaOnce.Do(func() {
		defer func() {
			if r := recover(); r != nil {
				cudaErr = fmt.Errorf("cl: binding CUDA: %v", r)
			}
		}()
		lib, err := purego.Dlopen("libcuda.so.1", purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err != nil {
			cudaErr = fmt.Errorf("cl: FUT_CUDA=1 but libcuda.so.1 does not load: %v", err)
			return
		}
		for _, s := range []struct {
			fp   any
			name string
		}{
			{&cuInit, "cuInit"}, {&cuDeviceGetCount, "cuDeviceGetCount"}, {&cuDeviceGet, "cuDeviceGet"},
			{&cuDeviceGetAttribute, "cuDeviceGetAttribute"}, {&cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"},
			{&cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"}, {&cuCtxSetCurrent, "cuCtxSetCurrent"},
			{&cuStreamCreate, "cuStreamCreate"}, {&cuStreamDestroy, "cuStreamDestroy_v2"}, {&cuStreamSynchronize, "cuStreamSynchronize"},
			{&cuMemAlloc, "cuMemAlloc_v2"}, {&cuMemFree, "cuMemFree_v2"},
			{&cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"}, {&cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"}, {&cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2"},
			{&cuMemsetD8Async, "cuMemsetD8Async"}, {&cuMemsetD16Async, "cuMemsetD16Async"}, {&cuMemsetD32Async, "cuMemsetD32Async"},
			{&cuModuleLoadDataEx, "cuModuleLoadDataEx"}, {&cuModuleUnload, "cuModuleUnload"}, {&cuModuleGetFunction, "cuModuleGetFunction"},
			{&cuFuncGetAttribute, "cuFuncGetAttribute"}, {&cuFuncSetAttribute, "cuFuncSetAttribute"}, {&cuLaunchKernel, "cuLaunchKernel"},
			{&cuEventCreate, "cuEventCreate"}, {&cuEventRecord, "cuEventRecord"}, {&cuEventSynchronize, "cuEventSynchronize"},
			{&cuEventElapsedTime, "cuEventElapsedTime"}, {&cuEventDestroy, "cuEventDestroy_v2"},
			{&cuMemHostAlloc, "cuMemHostAlloc"}, {&cuMemFreeHost, "cuMemFreeHost"},
			{&cuMemcpyPeerAsync, "cuMemcpyPeerAsync"}, {&cuStreamWaitEvent, "cuStreamWaitEvent"},
			{&cuDeviceCanAccessPeer, "cuDeviceCanAccessPeer"}, {&cuCtxEnablePeerAccess, "cuCtxEnablePeerAccess"},
		} {
			addr, err := purego.Dlsym(lib, s.name)
			if err != nil {
				cudaErr = fmt.Errorf("cl: libcuda has no %s: %v", s.name, err)
				return
			}
			purego.RegisterFunc(s.fp, addr)
			if fast := direct[s.name]; fast != nil && cudaDirect {
				fast(addr)
			}
		}
		cudaErr = cuCheck("cuInit", cuInit(0))
	})
	return cudaErr
}

// cudaMaxReg (FUT_CUDA_MAXREG, 16 to 255) bounds the registers of a
// thread in every kernel the JIT compiles, to compare occupancies.
var cudaMaxReg = func() int {
	n, err := strconv.Atoi(os.Getenv("FUT_CUDA_MAXREG"))
	if err != nil || n < 16 || n > 255 {
		return 0
	}
	return n
}()

// cudaDirect makes the calls of a launch and a wait (direct) go through
// purego.SyscallN rather than the functions purego.RegisterFunc makes,
// which convert their arguments by reflection: about 0.7 µs for the 11
// of cuLaunchKernel, against 0.17 µs (measured on this machine's
// amd64). FUT_CUDA_DIRECT=0 keeps RegisterFunc's, to compare.
var cudaDirect = os.Getenv("FUT_CUDA_DIRECT") != "0"

// direct replaces the bindings of the calls on a launch's and a wait's
// path by ones through purego.SyscallN, given the function's address.
// Arguments narrower than a register are passed zero- or sign-extended,
// as the C calling convention leaves the upper bits to the callee; the
// result is the low 32 bits of the return register.
var direct = map[string]func(addr uintptr){
	"cuCtxSetCurrent": func(a uintptr) {
		cuCtxSetCurrent = func(ctx uintptr) int32 { return call(a, ctx) }
	},
	"cuLaunchKernel": func(a uintptr) {
		cuLaunchKernel = func(f uintptr, gx, gy, gz, bx, by, bz, shmem uint32, s uintptr, params *unsafe.Pointer, extra *unsafe.Pointer) int32 {
			// the pointers converted in SyscallN's own arguments (see
			// clDirectCalls)
			return result(purego.SyscallN(a, f, uintptr(gx), uintptr(gy), uintptr(gz), uintptr(bx), uintptr(by), uintptr(bz), uintptr(shmem), s,
				uintptr(unsafe.Pointer(params)), uintptr(unsafe.Pointer(extra))))
		}
	},
	"cuEventRecord": func(a uintptr) {
		cuEventRecord = func(e, s uintptr) int32 { return call(a, e, s) }
	},
	"cuStreamSynchronize": func(a uintptr) {
		cuStreamSynchronize = func(s uintptr) int32 { return call(a, s) }
	},
	"cuEventSynchronize": func(a uintptr) {
		cuEventSynchronize = func(e uintptr) int32 { return call(a, e) }
	},
	"cuStreamWaitEvent": func(a uintptr) {
		cuStreamWaitEvent = func(s, e uintptr, flags uint32) int32 { return call(a, s, e, uintptr(flags)) }
	},
	"cuMemcpyDtoDAsync_v2": func(a uintptr) {
		cuMemcpyDtoDAsync = func(dst, src uintptr, n uintptr, s uintptr) int32 { return call(a, dst, src, n, s) }
	},
}

// call calls the C function at addr with args, none of them a pointer
// converted to uintptr (see direct and clDirectCalls).
func call(addr uintptr, args ...uintptr) int32 { return result(purego.SyscallN(addr, args...)) }

// result is the int32 a CUDA or OpenCL call returned, from SyscallN's
// results (the low 32 bits of the return register).
func result(r, _, _ uintptr) int32 { return int32(uint32(r)) }

// cuCheck is an *Error for a CUDA result other than CUDA_SUCCESS.
func cuCheck(op string, code int32) error {
	if code == 0 {
		return nil
	}
	return &Error{Op: op, Code: code, CUDA: true}
}

var cudaErrorNames = map[int32]string{
	1: "CUDA_ERROR_INVALID_VALUE", 2: "CUDA_ERROR_OUT_OF_MEMORY", 3: "CUDA_ERROR_NOT_INITIALIZED",
	100: "CUDA_ERROR_NO_DEVICE", 101: "CUDA_ERROR_INVALID_DEVICE", 200: "CUDA_ERROR_INVALID_IMAGE",
	201: "CUDA_ERROR_INVALID_CONTEXT", 209: "CUDA_ERROR_NO_BINARY_FOR_GPU", 218: "CUDA_ERROR_INVALID_PTX",
	222: "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", 400: "CUDA_ERROR_INVALID_HANDLE", 500: "CUDA_ERROR_NOT_FOUND",
	700: "CUDA_ERROR_ILLEGAL_ADDRESS", 701: "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", 702: "CUDA_ERROR_LAUNCH_TIMEOUT",
	716: "CUDA_ERROR_MISALIGNED_ADDRESS", 719: "CUDA_ERROR_LAUNCH_FAILED",
}

// cudaTrace (FUT_CUDA_TRACE=1) prints each call on CUDA that took the
// host more than 2 µs, with its time: where a launch's host time goes.
// FUT_CUDA_TRACE=2 records every call instead, with when it started,
// and TraceDump prints them, with the marks of TraceMark among them: a
// timeline of the host's side of a call, without the cost of printing
// inside it.
var (
	cudaTrace    = os.Getenv("FUT_CUDA_TRACE") == "1" || cudaTimeline
	cudaTimeline = os.Getenv("FUT_CUDA_TRACE") == "2"
)

// timeline holds the calls FUT_CUDA_TRACE=2 records, at most
// maxTimeline (later ones are dropped).
var timeline struct {
	sync.Mutex
	origin time.Time
	e      []timedCall
}

const maxTimeline = 1 << 16

type timedCall struct {
	op        string
	at, taken time.Duration // since the origin; the host's time in it
}

func record(op string, t0 time.Time, taken time.Duration) {
	timeline.Lock()
	defer timeline.Unlock()
	if timeline.origin.IsZero() {
		timeline.origin = t0
	}
	if len(timeline.e) < maxTimeline {
		timeline.e = append(timeline.e, timedCall{op, t0.Sub(timeline.origin), taken})
	}
}

// TraceMark records a mark in the timeline of FUT_CUDA_TRACE=2 (the
// start and end of a call, say); nothing otherwise.
func TraceMark(op string) {
	if cudaTimeline {
		record(op, time.Now(), 0)
	}
}

// TraceDump prints the timeline of FUT_CUDA_TRACE=2 to w (a line a call
// or mark: when, relative to the mark or call before, and the host's
// time in it) and empties it; nothing otherwise.
func TraceDump(w io.Writer) {
	if !cudaTimeline {
		return
	}
	timeline.Lock()
	defer timeline.Unlock()
	var last time.Duration
	for _, c := range timeline.e {
		fmt.Fprintf(w, "cuda: %10.1f µs (+%7.1f) %-40s %8.1f µs\n", us(c.at), us(c.at-last), c.op, us(c.taken))
		last = c.at
	}
	timeline.e = timeline.e[:0]
}

func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }

func traceCall(op string, t0 time.Time) {
	d := time.Since(t0)
	switch {
	case cudaTimeline:
		record(op, t0, d)
	case d > 2*time.Microsecond:
		fmt.Fprintf(os.Stderr, "cuda: %s %.1f µs\n", op, us(d))
	}
}

// cuCtx is a context's CUDA side: the device's primary context and the
// stream that is the context's queue.
type cuCtx struct {
	dev    int32
	ctx    uintptr
	stream uintptr
	// released events for reuse, timed ([0]) and not ([1]): creating one
	// took the host 5–30 µs of a launch on two H100s at once
	evMu   sync.Mutex
	events [2][]uintptr
	// tail counts the commands queued on the stream, each once its
	// enqueue has returned, and drained the most of them known done (by
	// a wait for the stream, or for an event after them): finish skips
	// the wait when the two are equal, as when a flush that waited for
	// the last command is followed by the call's own Finish. span holds
	// the stamp queued before the latest wait for new commands while
	// armed (Context.ArmStamps)
	tail, drained atomic.Uint64
	// small is smallRead bytes of pinned host memory for the blocking
	// reads of a few bytes (a filter's count, a scalar result), allocated
	// at the first: one into Go's memory took the host 18–25 µs after
	// the wait for the kernel on an H100, through the driver's staging
	smallMu sync.Mutex
	small   unsafe.Pointer
	span    struct {
		sync.Mutex
		armed bool
		at    uint64  // tail when ev was recorded
		ev    uintptr // 0: none
	}
}

// newEvent is an event from the pool, or a new one (the context entered).
func (c *cuCtx) newEvent(timed bool) (uintptr, error) {
	i := 1
	if timed {
		i = 0
	}
	c.evMu.Lock()
	if n := len(c.events[i]); n > 0 {
		ev := c.events[i][n-1]
		c.events[i] = c.events[i][:n-1]
		c.evMu.Unlock()
		return ev, nil
	}
	c.evMu.Unlock()
	flags := uint32(2) // CU_EVENT_DISABLE_TIMING
	if timed {
		flags = 0
	}
	var ev uintptr
	return ev, cuCheck("cuEventCreate", cuEventCreate(&ev, flags))
}

// putEvent gives ev back to the pool, or destroys it beyond 64 (the
// context entered).
func (c *cuCtx) putEvent(ev uintptr, timed bool) {
	i := 1
	if timed {
		i = 0
	}
	c.evMu.Lock()
	defer c.evMu.Unlock()
	if len(c.events[i]) < 64 {
		c.events[i] = append(c.events[i], ev)
		return
	}
	cuEventDestroy(ev)
}

// enter makes the context current on the calling goroutine's thread,
// which stays the goroutine's until exit.
func (c *cuCtx) enter() {
	runtime.LockOSThread()
	cuCtxSetCurrent(c.ctx)
}

func (c *cuCtx) exit() { runtime.UnlockOSThread() }

// cudaOrdinal is the CUDA device that is OpenCL's d (the same PCI bus
// and device).
func cudaOrdinal(d *Device) (int32, error) {
	if err := loadCUDA(); err != nil {
		return 0, err
	}
	var bus, slot uint32
	clGetDeviceInfo(d.ID, 0x4008 /* CL_DEVICE_PCI_BUS_ID_NV */, 4, unsafe.Pointer(&bus), nil)
	clGetDeviceInfo(d.ID, 0x4009 /* CL_DEVICE_PCI_SLOT_ID_NV */, 4, unsafe.Pointer(&slot), nil)
	var n int32
	if err := cuCheck("cuDeviceGetCount", cuDeviceGetCount(&n)); err != nil {
		return 0, err
	}
	for i := int32(0); i < n; i++ {
		var dev, b, s int32
		if cuDeviceGet(&dev, i) != 0 ||
			cuDeviceGetAttribute(&b, 33 /* PCI_BUS_ID */, dev) != 0 ||
			cuDeviceGetAttribute(&s, 34 /* PCI_DEVICE_ID */, dev) != 0 {
			continue
		}
		if uint32(b) == bus && (uint32(s) == slot>>3 || uint32(s) == slot) {
			return dev, nil
		}
	}
	return 0, fmt.Errorf("cl: no CUDA device on PCI bus %d, device %d (OpenCL's %s)", bus, slot, d.Name)
}

// newCuCtx opens d's CUDA device and a stream on it.
func newCuCtx(d *Device) (*cuCtx, error) {
	dev, err := cudaOrdinal(d)
	if err != nil {
		return nil, err
	}
	c := &cuCtx{dev: dev}
	if err := cuCheck("cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain(&c.ctx, dev)); err != nil {
		return nil, err
	}
	c.enter()
	defer c.exit()
	if err := cuCheck("cuStreamCreate", cuStreamCreate(&c.stream, 1 /* CU_STREAM_NON_BLOCKING */)); err != nil {
		cuDevicePrimaryCtxRelease(dev)
		return nil, err
	}
	return c, nil
}

func (c *cuCtx) release() {
	c.enter()
	defer c.exit()
	cuStreamSynchronize(c.stream)
	cuStreamDestroy(c.stream)
	c.evMu.Lock()
	for _, evs := range c.events {
		for _, ev := range evs {
			cuEventDestroy(ev)
		}
	}
	c.events = [2][]uintptr{}
	c.evMu.Unlock()
	c.smallMu.Lock()
	if c.small != nil {
		cuMemFreeHost(c.small)
		c.small = nil
	}
	c.smallMu.Unlock()
	cuDevicePrimaryCtxRelease(c.dev)
}

func (c *cuCtx) sync(s uintptr) error {
	if s != c.stream {
		return cuCheck("cuStreamSynchronize", cuStreamSynchronize(s))
	}
	c.beforeWait()
	t := c.tail.Load()
	if err := cuCheck("cuStreamSynchronize", cuStreamSynchronize(s)); err != nil {
		return err
	}
	c.drainedTo(t)
	return nil
}

// queuedOn counts a command just queued on stream s (see tail).
func (c *cuCtx) queuedOn(s uintptr) {
	if s == c.stream {
		c.tail.Add(1)
	}
}

// drainedTo records that the stream's first t commands are done.
func (c *cuCtx) drainedTo(t uint64) {
	for {
		d := c.drained.Load()
		if t <= d || c.drained.CompareAndSwap(d, t) {
			return
		}
	}
}

// beforeWait queues a stamp on the stream when armed and commands were
// queued since the last one: the host is about to wait, and everything
// the call queued so far is before it (the context entered).
func (c *cuCtx) beforeWait() {
	c.span.Lock()
	defer c.span.Unlock()
	if !c.span.armed || (c.span.ev != 0 && c.span.at == c.tail.Load()) {
		return
	}
	ev, err := c.newEvent(true)
	if err != nil {
		return
	}
	if cuEventRecord(ev, c.stream) != 0 {
		c.putEvent(ev, true)
		return
	}
	if c.span.ev != 0 {
		c.putEvent(c.span.ev, true)
	}
	c.span.ev, c.span.at = ev, c.tail.Load()
}

func (c *cuCtx) alloc(size int) (*Buffer, error) {
	if cudaTrace {
		defer traceCall("alloc", time.Now())
	}
	c.enter()
	defer c.exit()
	var p uintptr
	if code := cuMemAlloc(&p, uintptr(size)); code != 0 {
		if code == 2 {
			return nil, &Error{Op: "cuMemAlloc", Code: MemObjectAllocFailure}
		}
		return nil, cuCheck("cuMemAlloc", code)
	}
	return &Buffer{dptr: p, cu: c, Size: size, id: bufferIDs.Add(1)}, nil
}

func (c *cuCtx) free(b *Buffer) {
	c.enter()
	defer c.exit()
	cuMemFree(b.dptr)
}

// write copies n bytes from p to b at offset on stream s, and waits
// when block.
func (c *cuCtx) write(s uintptr, b *Buffer, offset int, p unsafe.Pointer, n int, block bool) error {
	if cudaTrace {
		defer traceCall("write", time.Now())
	}
	c.enter()
	defer c.exit()
	if err := cuCheck("cuMemcpyHtoDAsync", cuMemcpyHtoDAsync(b.dptr+uintptr(offset), p, uintptr(n), s)); err != nil {
		return err
	}
	c.queuedOn(s)
	if block {
		return c.sync(s)
	}
	return nil
}

// smallRead is the most bytes a blocking read takes through cuCtx.small.
const smallRead = 256

func (c *cuCtx) read(s uintptr, b *Buffer, offset int, p unsafe.Pointer, n int, block bool) error {
	if cudaTrace {
		defer traceCall("read", time.Now())
	}
	c.enter()
	defer c.exit()
	if block && n <= smallRead {
		c.smallMu.Lock()
		defer c.smallMu.Unlock()
		if c.small == nil && cuMemHostAlloc(&c.small, smallRead, 0) != 0 {
			c.small = nil
		}
		if c.small != nil {
			if err := cuCheck("cuMemcpyDtoHAsync", cuMemcpyDtoHAsync(c.small, b.dptr+uintptr(offset), uintptr(n), s)); err != nil {
				return err
			}
			c.queuedOn(s)
			if err := c.sync(s); err != nil {
				return err
			}
			copy(unsafe.Slice((*byte)(p), n), unsafe.Slice((*byte)(c.small), n))
			return nil
		}
	}
	if err := cuCheck("cuMemcpyDtoHAsync", cuMemcpyDtoHAsync(p, b.dptr+uintptr(offset), uintptr(n), s)); err != nil {
		return err
	}
	c.queuedOn(s)
	if block {
		return c.sync(s)
	}
	return nil
}

func (c *cuCtx) copy(dst *Buffer, doff int, src *Buffer, soff, n int) error {
	if cudaTrace {
		defer traceCall("copy", time.Now())
	}
	c.enter()
	defer c.exit()
	defer c.tail.Add(1)
	return cuCheck("cuMemcpyDtoDAsync", cuMemcpyDtoDAsync(dst.dptr+uintptr(doff), src.dptr+uintptr(soff), uintptr(n), c.stream))
}

// stamp records a timed event on c's stream.
func (c *cuCtx) stamp() (*Stamp, error) {
	c.enter()
	defer c.exit()
	ev, err := c.newEvent(true)
	if err != nil {
		return nil, err
	}
	if err := cuCheck("cuEventRecord", cuEventRecord(ev, c.stream)); err != nil {
		c.putEvent(ev, true)
		return nil, err
	}
	return &Stamp{ev: ev, cu: c}, nil
}

// armStamps starts keeping a stamp before each wait (beforeWait).
func (c *cuCtx) armStamps() {
	c.span.Lock()
	defer c.span.Unlock()
	if c.span.ev != 0 {
		c.enter()
		c.putEvent(c.span.ev, true)
		c.exit()
	}
	c.span.armed, c.span.ev = true, 0
}

// endStamp stops keeping stamps and gives the stamp after the last
// command queued: the one queued before the latest wait, or, where
// commands were queued after it, a new one.
func (c *cuCtx) endStamp() (*Stamp, error) {
	c.span.Lock()
	ev, at := c.span.ev, c.span.at
	c.span.armed, c.span.ev = false, 0
	c.span.Unlock()
	if ev != 0 && at == c.tail.Load() {
		return &Stamp{ev: ev, cu: c}, nil
	}
	if ev != 0 {
		c.enter()
		c.putEvent(ev, true)
		c.exit()
	}
	return c.stamp()
}

// since waits for the event end and gives the time from start to it.
func (c *cuCtx) since(start, end uintptr) (time.Duration, error) {
	c.enter()
	defer c.exit()
	if err := cuCheck("cuEventSynchronize", cuEventSynchronize(end)); err != nil {
		return 0, err
	}
	var ms float32
	if err := cuCheck("cuEventElapsedTime", cuEventElapsedTime(&ms, start, end)); err != nil {
		return 0, err
	}
	return time.Duration(float64(ms) * 1e6), nil
}

// peerAccess remembers, for each pair of CUDA devices (the copying one
// first), whether the first may read the second's memory directly.
var peerAccess sync.Map // [2]int32 → bool

// enablePeer lets c's device reach src's memory over the devices' own
// link where the platform allows it (c entered), once per pair, and says
// whether it does. Without it a peer copy still runs; the driver then
// takes its own route (through the host).
func (c *cuCtx) enablePeer(src *cuCtx) bool {
	key := [2]int32{c.dev, src.dev}
	if v, ok := peerAccess.Load(key); ok {
		return v.(bool)
	}
	var can int32
	ok := c.dev != src.dev && cuDeviceCanAccessPeer(&can, c.dev, src.dev) == 0 && can != 0
	if ok {
		code := cuCtxEnablePeerAccess(src.ctx, 0)
		ok = code == 0 || code == 704 /* CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED */
	}
	peerAccess.Store(key, ok)
	return ok
}

// copyPeer copies n bytes from src's buffer sb at soff to c's buffer db
// at doff on c's stream, after every command queued on src's stream so
// far; it says whether the copy goes directly between the devices.
func (c *cuCtx) copyPeer(db *Buffer, doff int, src *cuCtx, sb *Buffer, soff, n int) (bool, error) {
	if cudaTrace {
		defer traceCall("copyPeer", time.Now())
	}
	src.enter()
	ev, err := src.newEvent(false)
	if err == nil {
		err = cuCheck("cuEventRecord", cuEventRecord(ev, src.stream))
	}
	src.exit()
	if err != nil {
		return false, err
	}
	defer func() {
		src.enter()
		src.putEvent(ev, false)
		src.exit()
	}()
	c.enter()
	defer c.exit()
	direct := c.dev == src.dev || c.enablePeer(src)
	defer c.tail.Add(1)
	if err := cuCheck("cuStreamWaitEvent", cuStreamWaitEvent(c.stream, ev, 0)); err != nil {
		return false, err
	}
	if c.ctx == src.ctx {
		return direct, cuCheck("cuMemcpyDtoDAsync", cuMemcpyDtoDAsync(db.dptr+uintptr(doff), sb.dptr+uintptr(soff), uintptr(n), c.stream))
	}
	return direct, cuCheck("cuMemcpyPeerAsync", cuMemcpyPeerAsync(db.dptr+uintptr(doff), c.ctx, sb.dptr+uintptr(soff), src.ctx, uintptr(n), c.stream))
}

// fill sets n bytes at offset to repetitions of pattern: by a memset
// where the pattern is one repeated byte, half-word or word, else by
// writing it once and doubling it by copies.
func (c *cuCtx) fill(b *Buffer, pattern []byte, offset, n int) error {
	defer c.tail.Add(1)
	if n%len(pattern) != 0 || offset < 0 || offset+n > b.Size {
		return fmt.Errorf("cl: fill of %d bytes at %d with a pattern of %d, in a buffer of %d", n, offset, len(pattern), b.Size)
	}
	p := b.dptr + uintptr(offset)
	word := len(pattern)
	for word > 1 && bytes.Equal(pattern[:word/2], pattern[word/2:word]) && word%2 == 0 {
		word /= 2
	}
	c.enter()
	defer c.exit()
	switch {
	case word == 1:
		return cuCheck("cuMemsetD8Async", cuMemsetD8Async(p, pattern[0], uintptr(n), c.stream))
	case word == 2 && p%2 == 0:
		return cuCheck("cuMemsetD16Async", cuMemsetD16Async(p, *(*uint16)(unsafe.Pointer(&pattern[0])), uintptr(n/2), c.stream))
	case word == 4 && p%4 == 0:
		return cuCheck("cuMemsetD32Async", cuMemsetD32Async(p, *(*uint32)(unsafe.Pointer(&pattern[0])), uintptr(n/4), c.stream))
	}
	if err := cuCheck("cuMemcpyHtoDAsync", cuMemcpyHtoDAsync(p, unsafe.Pointer(&pattern[0]), uintptr(len(pattern)), c.stream)); err != nil {
		return err
	}
	if err := c.sync(c.stream); err != nil { // the pattern is Go memory
		return err
	}
	runtime.KeepAlive(pattern)
	for done := len(pattern); done < n; done *= 2 {
		k := min(done, n-done)
		if err := cuCheck("cuMemcpyDtoDAsync", cuMemcpyDtoDAsync(p+uintptr(done), p, uintptr(k), c.stream)); err != nil {
			return err
		}
	}
	return nil
}

// event records an event on stream s: one that keeps no time, or, when
// timed, the end of a pair whose start is given.
func (c *cuCtx) event(s uintptr, start uintptr) (*Event, error) {
	if cudaTrace {
		defer traceCall("event", time.Now())
	}
	ev, err := c.newEvent(start != 0)
	if err != nil {
		return nil, err
	}
	if err := cuCheck("cuEventRecord", cuEventRecord(ev, s)); err != nil {
		c.putEvent(ev, start != 0)
		return nil, err
	}
	e := &Event{cuEnd: ev, cuStart: start, cu: c}
	if s == c.stream {
		e.cuAt = c.tail.Load()
	}
	runtime.SetFinalizer(e, (*Event).Release)
	return e, nil
}

// The rewrites of loadModule (see the package's CUDA comment).
var (
	envRegRe    = regexp.MustCompile(`%envreg(\d+)`)
	sharedParam = regexp.MustCompile(`\.param \.u64 \.ptr \.shared \.align \d+ (\w+)`)
	entryRe     = regexp.MustCompile(`(?m)^(\.visible )?\.entry `)
)

// dynShared is the name of the module's dynamic shared array.
const dynShared = "fut_dyn_smem"

// patchPTX rewrites NVIDIA OpenCL's PTX for a CUDA launch.
func patchPTX(ptx string) (string, error) {
	var bad error
	ptx = envRegRe.ReplaceAllStringFunc(ptx, func(m string) string {
		if k := m[len("%envreg"):]; len(k) != 1 || k[0] > '5' {
			bad = fmt.Errorf("cl: PTX reads %s, which a CUDA launch does not set", m)
		}
		return "0"
	})
	if bad != nil {
		return "", bad
	}
	params := sharedParam.FindAllStringSubmatch(ptx, -1)
	if len(params) == 0 {
		return ptx, nil
	}
	// CUDA's loader rejects the .ptr .shared attribute of a parameter
	ptx = sharedParam.ReplaceAllString(ptx, ".param .u64 $1")
	for _, p := range params {
		re := regexp.MustCompile(`(?m)^(\s*)ld\.param\.u64\s+(%rd\d+), \[` + regexp.QuoteMeta(p[1]) + `\];`)
		loads := len(re.FindAllStringIndex(ptx, -1))
		// any other use of the parameter would read the offset as an
		// address: the kernel is refused rather than run wrong
		uses := len(regexp.MustCompile(`\b`+regexp.QuoteMeta(p[1])+`\b`).FindAllStringIndex(ptx, -1))
		if uses != loads+1 {
			return "", fmt.Errorf("cl: PTX uses the __local parameter %s other than by a load of it, which the rewrite for CUDA does not handle", p[1])
		}
		ptx = re.ReplaceAllString(ptx, "${0}\n${1}{ .reg .u64 %futsb; mov.u64 %futsb, "+dynShared+"; add.u64 ${2}, ${2}, %futsb; }")
	}
	loc := entryRe.FindStringIndex(ptx)
	if loc == nil {
		return "", fmt.Errorf("cl: PTX without an entry")
	}
	return ptx[:loc[0]] + ".extern .shared .align 16 .b8 " + dynShared + "[];\n\n" + ptx[loc[0]:], nil
}

// loadModule loads p's PTX (its OpenCL binary) as a CUDA module, once.
func (p *Program) loadModule() error {
	if p.mod != 0 {
		return nil
	}
	bin, err := p.Binary()
	if err != nil {
		return err
	}
	ptx, err := patchPTX(string(bytes.TrimRight(bin, "\x00")))
	if err != nil {
		return err
	}
	dump := os.Getenv("FUT_CL_DUMP")
	if dump != "" {
		// every module's PTX, as loaded (after patchPTX), by its hash
		os.WriteFile(filepath.Join(dump, fmt.Sprintf("cuda-%x.ptx", sha256.Sum256([]byte(ptx)))), []byte(ptx), 0o644)
	}
	img := append([]byte(ptx), 0)
	c := p.c.cu
	c.enter()
	defer c.exit()
	// the JIT's error log, into Go memory the call returns before
	// anything moves
	log := make([]byte, 8<<10)
	opts := []int32{5 /* CU_JIT_ERROR_LOG_BUFFER */, 6 /* CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES */}
	vals := []uintptr{uintptr(unsafe.Pointer(&log[0])), uintptr(len(log))}
	if n := cmp.Or(cudaMaxReg, p.maxRegs); n > 0 {
		opts = append(opts, 0 /* CU_JIT_MAX_REGISTERS */)
		vals = append(vals, uintptr(n))
	}
	code := cuModuleLoadDataEx(&p.mod, unsafe.Pointer(&img[0]), uint32(len(opts)), &opts[0], &vals[0])
	runtime.KeepAlive(img)
	runtime.KeepAlive(log)
	if code != 0 {
		return &Error{Op: "cuModuleLoadDataEx", Code: code, CUDA: true, Log: cstring(log)}
	}
	return nil
}

// cuKernel is the CUDA side of a kernel: its function and its arguments'
// values, to which params point.
type cuKernel struct {
	f      uintptr
	vals   []uint64
	local  []int // the bytes of local memory of each argument, or −1 for another
	params []unsafe.Pointer
	shmem  int32 // the dynamic shared memory the function may use (cuFuncSetAttribute)
}

func (p *Program) cuKernel(name string) (*Kernel, error) {
	if err := p.loadModule(); err != nil {
		return nil, err
	}
	b := append([]byte(name), 0)
	k := &Kernel{c: p.c, Name: name, cuk: &cuKernel{shmem: 48 << 10}}
	c := p.c.cu
	c.enter()
	defer c.exit()
	if err := cuCheck("cuModuleGetFunction("+name+")", cuModuleGetFunction(&k.cuk.f, p.mod, &b[0])); err != nil {
		return nil, err
	}
	if cudaTrace {
		var regs, local int32
		cuFuncGetAttribute(&regs, 4 /* NUM_REGS */, k.cuk.f)
		cuFuncGetAttribute(&local, 3 /* LOCAL_SIZE_BYTES */, k.cuk.f)
		fmt.Fprintf(os.Stderr, "cuda: %s: %d registers, %d bytes of local (spilled) memory a thread\n", name, regs, local)
	}
	return k, nil
}

// setArg keeps argument i's value: the bits of a scalar or of a device
// pointer, or a local size.
func (ck *cuKernel) setArg(i int, bits uint64, local int) {
	for len(ck.vals) <= i {
		ck.vals = append(ck.vals, 0)
		ck.local = append(ck.local, -1)
	}
	ck.vals[i], ck.local[i] = bits, local
}

func (c *cuCtx) launch(k *Kernel, global, local []int, timed bool) (*Event, error) {
	ck := k.cuk
	if len(global) != 1 || len(local) != 1 || local[0] <= 0 || global[0]%local[0] != 0 {
		// the sizes copied, so that the slices stay the caller's (on its
		// stack: a launch allocates nothing for them)
		return nil, fmt.Errorf("cl: CUDA launch of %s with global %v and local %v", k.Name, slices.Clone(global), slices.Clone(local))
	}
	if global[0] == 0 {
		return &Event{}, nil
	}
	shmem := 0
	for i, l := range ck.local {
		if l >= 0 {
			shmem = (shmem + 15) &^ 15
			ck.vals[i] = uint64(shmem)
			shmem += l
		}
	}
	if len(ck.params) != len(ck.vals) {
		ck.params = make([]unsafe.Pointer, len(ck.vals))
		for i := range ck.vals {
			ck.params[i] = unsafe.Pointer(&ck.vals[i])
		}
	}
	var t0 time.Time
	if cudaTrace {
		t0 = time.Now()
		defer func() { traceCall("launch "+k.Name+" (all)", t0) }()
	}
	c.enter()
	defer c.exit()
	if cudaTrace {
		traceCall("enter", t0)
	}
	if int32(shmem) > ck.shmem {
		if err := cuCheck("cuFuncSetAttribute", cuFuncSetAttribute(ck.f, 8 /* MAX_DYNAMIC_SHARED_SIZE_BYTES */, int32(shmem))); err != nil {
			return nil, err
		}
		ck.shmem = int32(shmem)
	}
	var start uintptr
	if timed {
		var err error
		if start, err = c.newEvent(true); err != nil {
			return nil, err
		}
		if err := cuCheck("cuEventRecord", cuEventRecord(start, c.stream)); err != nil {
			c.putEvent(start, true)
			return nil, err
		}
		if cudaTrace {
			traceCall("start event", t0)
		}
	}
	var pp *unsafe.Pointer
	if len(ck.params) > 0 {
		pp = &ck.params[0]
	}
	var t1 time.Time
	if cudaTrace {
		t1 = time.Now()
	}
	code := cuLaunchKernel(ck.f, uint32(global[0]/local[0]), 1, 1, uint32(local[0]), 1, 1, uint32(shmem), c.stream, pp, nil)
	runtime.KeepAlive(ck)
	c.tail.Add(1)
	if cudaTrace {
		traceCall("cuLaunchKernel", t1)
	}
	if code != 0 {
		if start != 0 {
			c.putEvent(start, true)
		}
		return nil, cuCheck("cuLaunchKernel("+k.Name+")", code)
	}
	if !timed {
		return nil, nil
	}
	return c.event(c.stream, start)
}

// marked is an event after the command just queued on stream s, or
// err when queueing it failed.
func (c *cuCtx) marked(s uintptr, err error) (*Event, error) {
	if err != nil {
		return nil, err
	}
	c.enter()
	defer c.exit()
	return c.event(s, 0)
}

// finish waits for stream s: at once where it is c's stream and every
// command queued on it is known done.
func (c *cuCtx) finish(s uintptr) error {
	if s == c.stream && c.drained.Load() == c.tail.Load() {
		return nil
	}
	if cudaTrace {
		defer traceCall("finish", time.Now())
	}
	c.enter()
	defer c.exit()
	return c.sync(s)
}
