package cl

import (
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"
)

// Context is an OpenCL context on one device with one in-order command
// queue that records profiling times.
type Context struct {
	Device *Device
	ctx    uintptr
	queue  uintptr // the queue commands go to: profiling or plain
	other  uintptr // the other of the two, made on the first switch
	// profiling: queue records the times of its commands (the default)
	profiling bool
	cu        *cuCtx // non-nil: everything but compiling goes through CUDA (cuda.go)
}

// NewContext creates a context and a profiling command queue on d.
func NewContext(d *Device) (*Context, error) {
	if err := Load(); err != nil {
		return nil, err
	}
	var code int32
	props := []uintptr{0x1084 /* CL_CONTEXT_PLATFORM */, d.Platform.ID, 0}
	id := d.ID
	ctx := clCreateContext(&props[0], 1, &id, 0, 0, &code)
	if code != 0 {
		return nil, check("clCreateContext", code)
	}
	q := clCreateCommandQueue(ctx, d.ID, 1<<1 /* CL_QUEUE_PROFILING_ENABLE */, &code)
	if code != 0 {
		clReleaseContext(ctx)
		return nil, check("clCreateCommandQueue", code)
	}
	c := &Context{Device: d, ctx: ctx, queue: q, profiling: true}
	if cudaWanted(d) {
		cu, err := newCuCtx(d)
		switch {
		case err == nil:
			c.cu = cu
		case os.Getenv("FUT_CUDA") == "1":
			c.Release()
			return nil, err
		}
		// else OpenCL runs it all (CUDAStatus says why)
	}
	return c, nil
}

// CUDA is whether the context runs its commands through CUDA (cuda.go).
func (c *Context) CUDA() bool { return c.cu != nil }

// SetProfiling chooses the queue commands go to from now on: one that
// records their times (the default), or a plain one, where a command
// costs less host time (on an H100 a wait for the queue to drain took
// about 14 µs on a plain queue against 22 µs on a profiling one, and a
// marker's wait 8 µs against 16 µs). Events of commands on the plain
// queue have no times (Duration is 0). The switch waits for the queue's
// commands, so that the order of the commands is kept; it must not race
// with commands being queued.
func (c *Context) SetProfiling(on bool) error {
	if on == c.profiling {
		return nil
	}
	if c.cu != nil { // a CUDA launch is timed by events of its own
		c.profiling = on
		return nil
	}
	if c.other == 0 {
		var props uint64
		if on {
			props = 1 << 1 // CL_QUEUE_PROFILING_ENABLE
		}
		var code int32
		q := clCreateCommandQueue(c.ctx, c.Device.ID, props, &code)
		if code != 0 {
			return check("clCreateCommandQueue", code)
		}
		c.other = q
	}
	if err := check("clFinish", clFinish(c.queue)); err != nil {
		return err
	}
	c.queue, c.other = c.other, c.queue
	c.profiling = on
	return nil
}

// Release frees the queue and the context.
func (c *Context) Release() {
	if c.cu != nil {
		c.cu.release()
		c.cu = nil
	}
	for _, q := range []*uintptr{&c.queue, &c.other} {
		if *q != 0 {
			clFinish(*q)
			clReleaseCommandQueue(*q)
			*q = 0
		}
	}
	if c.ctx != 0 {
		clReleaseContext(c.ctx)
		c.ctx = 0
	}
}

// Finish waits for every queued command.
func (c *Context) Finish() error {
	if c.cu != nil {
		return c.cu.finish(c.cu.stream)
	}
	return check("clFinish", clFinish(c.queue))
}

// Flush submits queued commands without waiting.
func (c *Context) Flush() error {
	if c.cu != nil {
		return nil // a stream runs what it is given
	}
	return check("clFlush", clFlush(c.queue))
}

// Buffer is a device memory object of Size bytes.
type Buffer struct {
	mem  uintptr
	Size int
	id   uint64 // unique in the process: a released buffer's is not reused
	// CUDA: the device address, and whether the memory is another
	// buffer's (Sub)
	dptr uintptr
	cu   *cuCtx
	sub  bool
}

// bufferIDs numbers the buffers made.
var bufferIDs atomic.Uint64

// Mem flags.
const (
	MemReadWrite uint64 = 1 << 0
	MemWriteOnly uint64 = 1 << 1
	MemReadOnly  uint64 = 1 << 2
)

// CreateBuffer allocates size bytes (at least 1) on the device.
func (c *Context) CreateBuffer(flags uint64, size int) (*Buffer, error) {
	if size <= 0 {
		size = 1
	}
	if c.cu != nil {
		return c.cu.alloc(size)
	}
	var code int32
	m := clCreateBuffer(c.ctx, flags, uintptr(size), nil, &code)
	if code != 0 {
		return nil, check("clCreateBuffer", code)
	}
	return &Buffer{mem: m, Size: size, id: bufferIDs.Add(1)}, nil
}

// Sub makes a buffer that is the size bytes of b at origin (a multiple
// of the device's BaseAlign): the same memory, not a copy. Released on
// its own, before or after b.
func (b *Buffer) Sub(origin, size int) (*Buffer, error) {
	if origin < 0 || size <= 0 || origin+size > b.Size {
		return nil, fmt.Errorf("cl: a sub-buffer of %d bytes at %d of a buffer of %d", size, origin, b.Size)
	}
	if b.cu != nil {
		return &Buffer{dptr: b.dptr + uintptr(origin), cu: b.cu, sub: true, Size: size, id: bufferIDs.Add(1)}, nil
	}
	region := [2]uintptr{uintptr(origin), uintptr(size)}
	var code int32
	m := clCreateSubBuffer(b.mem, MemReadWrite, 0x1220 /* CL_BUFFER_CREATE_TYPE_REGION */, unsafe.Pointer(&region[0]), &code)
	runtime.KeepAlive(&region)
	if code != 0 {
		return nil, check("clCreateSubBuffer", code)
	}
	return &Buffer{mem: m, Size: size, id: bufferIDs.Add(1)}, nil
}

// Release frees the buffer (safe to call twice).
func (b *Buffer) Release() {
	if b != nil && b.cu != nil {
		if b.dptr != 0 && !b.sub {
			b.cu.free(b)
		}
		b.dptr = 0
		return
	}
	if b != nil && b.mem != 0 {
		clReleaseMemObject(b.mem)
		b.mem = 0
	}
}

// Write copies n bytes from host memory at p into the buffer at offset
// (blocking: p may be reused as soon as Write returns).
func (c *Context) Write(b *Buffer, offset int, p unsafe.Pointer, n int) error {
	if n == 0 {
		return nil
	}
	if offset < 0 || offset+n > b.Size {
		return fmt.Errorf("cl: write of %d bytes at %d into a buffer of %d", n, offset, b.Size)
	}
	if c.cu != nil {
		return c.cu.write(c.cu.stream, b, offset, p, n, true)
	}
	err := check("clEnqueueWriteBuffer", clEnqueueWriteBuffer(c.queue, b.mem, 1, uintptr(offset), uintptr(n), p, 0, nil, nil))
	runtime.KeepAlive(p)
	return err
}

// Read copies n bytes from the buffer at offset into host memory at p
// (blocking).
func (c *Context) Read(b *Buffer, offset int, p unsafe.Pointer, n int) error {
	if n == 0 {
		return nil
	}
	if offset < 0 || offset+n > b.Size {
		return fmt.Errorf("cl: read of %d bytes at %d from a buffer of %d", n, offset, b.Size)
	}
	if c.cu != nil {
		return c.cu.read(c.cu.stream, b, offset, p, n, true)
	}
	err := check("clEnqueueReadBuffer", clEnqueueReadBuffer(c.queue, b.mem, 1, uintptr(offset), uintptr(n), p, 0, nil, nil))
	runtime.KeepAlive(p)
	return err
}

// Copy enqueues a device-to-device copy of n bytes.
func (c *Context) Copy(dst *Buffer, doff int, src *Buffer, soff int, n int) error {
	if n == 0 {
		return nil
	}
	if soff+n > src.Size || doff+n > dst.Size {
		return fmt.Errorf("cl: copy of %d bytes out of range", n)
	}
	if c.cu != nil {
		return c.cu.copy(dst, doff, src, soff, n)
	}
	return check("clEnqueueCopyBuffer", clEnqueueCopyBuffer(c.queue, src.mem, dst.mem, uintptr(soff), uintptr(doff), uintptr(n), 0, nil, nil))
}

// ErrNoPeer: a copy between two contexts that cannot copy between
// themselves (either runs on OpenCL, where buffers belong to one
// context); the caller goes through the host.
var ErrNoPeer = errors.New("cl: no copy between these contexts")

// CopyPeer copies n bytes of src's buffer sb at soff to dst's buffer db
// at doff, on dst's queue, after every command queued on src's so far.
// Both contexts must run through CUDA (else ErrNoPeer). direct says
// whether the bytes go straight between the devices (peer to peer, or
// one device's own memory), rather than on a route the driver chooses.
func CopyPeer(dst *Context, db *Buffer, doff int, src *Context, sb *Buffer, soff, n int) (direct bool, err error) {
	if dst.cu == nil || src.cu == nil {
		return false, ErrNoPeer
	}
	if doff < 0 || soff < 0 || n < 0 || doff+n > db.Size || soff+n > sb.Size {
		return false, fmt.Errorf("cl: peer copy of %d bytes out of bounds (at %d of %d, from %d of %d)", n, doff, db.Size, soff, sb.Size)
	}
	if n == 0 {
		return true, nil
	}
	return dst.cu.copyPeer(db, doff, src.cu, sb, soff, n)
}

// Fill sets n bytes at offset to repetitions of pattern (1, 2, 4, 8, … bytes).
func (c *Context) Fill(b *Buffer, pattern []byte, offset, n int) error {
	if n == 0 {
		return nil
	}
	if c.cu != nil {
		return c.cu.fill(b, pattern, offset, n)
	}
	err := check("clEnqueueFillBuffer", clEnqueueFillBuffer(c.queue, b.mem, unsafe.Pointer(&pattern[0]), uintptr(len(pattern)), uintptr(offset), uintptr(n), 0, nil, nil))
	runtime.KeepAlive(pattern)
	return err
}

// Program is a built OpenCL program.
type Program struct {
	c       *Context
	prog    uintptr
	mod     uintptr // its CUDA module (cuda.go)
	maxRegs int     // SetMaxRegisters
}

// SetMaxRegisters bounds the registers a thread of the program's kernels
// may take where they run through CUDA (the JIT's CU_JIT_MAX_REGISTERS;
// FUT_CUDA_MAXREG overrides it), n 0 leaving the JIT free; it has effect
// before the program's first kernel is taken, and none on OpenCL.
func (p *Program) SetMaxRegisters(n int) { p.maxRegs = n }

// BuildProgram compiles source with options. A compile error is an *Error
// with code CL_BUILD_PROGRAM_FAILURE whose Log holds the build log.
func (c *Context) BuildProgram(source, options string) (*Program, error) {
	src := append([]byte(source), 0)
	p0 := &src[0]
	n := uintptr(len(source))
	var code int32
	prog := clCreateProgramWithSource(c.ctx, 1, &p0, &n, &code)
	runtime.KeepAlive(src)
	if code != 0 {
		return nil, check("clCreateProgramWithSource", code)
	}
	return c.build(prog, options)
}

// ProgramFromBinary loads a binary produced by Program.Binary and builds it.
func (c *Context) ProgramFromBinary(bin []byte, options string) (*Program, error) {
	if len(bin) == 0 {
		return nil, &Error{Op: "clCreateProgramWithBinary", Code: -42}
	}
	p0 := &bin[0]
	n := uintptr(len(bin))
	id := c.Device.ID
	var status, code int32
	prog := clCreateProgramWithBinary(c.ctx, 1, &id, &n, &p0, &status, &code)
	runtime.KeepAlive(bin)
	if code != 0 {
		return nil, check("clCreateProgramWithBinary", code)
	}
	if status != 0 {
		clReleaseProgram(prog)
		return nil, check("clCreateProgramWithBinary", status)
	}
	return c.build(prog, options)
}

func (c *Context) build(prog uintptr, options string) (*Program, error) {
	opts := append([]byte(options), 0)
	id := c.Device.ID
	code := clBuildProgram(prog, 1, &id, &opts[0], 0, 0)
	runtime.KeepAlive(opts)
	if code != 0 {
		e := &Error{Op: "clBuildProgram", Code: code, Log: buildLog(prog, id)}
		clReleaseProgram(prog)
		return nil, e
	}
	return &Program{c: c, prog: prog}, nil
}

func buildLog(prog, dev uintptr) string {
	const logParam = 0x1183 // CL_PROGRAM_BUILD_LOG
	var size uintptr
	if clGetProgramBuildInfo(prog, dev, logParam, 0, nil, &size) != 0 || size == 0 {
		return ""
	}
	buf := make([]byte, size)
	clGetProgramBuildInfo(prog, dev, logParam, size, unsafe.Pointer(&buf[0]), nil)
	return cstring(buf)
}

// Binary returns the device binary of a built program (for the disk cache).
// BuildLog is the compiler's log of the program's build (with NVIDIA's
// -cl-nv-verbose, the registers and spills of each kernel).
func (p *Program) BuildLog() string { return buildLog(p.prog, p.c.Device.ID) }

func (p *Program) Binary() ([]byte, error) {
	var size uintptr
	if err := check("clGetProgramInfo", clGetProgramInfo(p.prog, 0x1165, unsafe.Sizeof(size), unsafe.Pointer(&size), nil)); err != nil {
		return nil, err
	}
	if size == 0 {
		return nil, nil
	}
	bin := make([]byte, size)
	ptr := &bin[0]
	err := check("clGetProgramInfo", clGetProgramInfo(p.prog, 0x1166, unsafe.Sizeof(ptr), unsafe.Pointer(&ptr), nil))
	runtime.KeepAlive(bin)
	return bin, err
}

// Release frees the program.
func (p *Program) Release() {
	if p != nil && p.mod != 0 {
		p.c.cu.enter()
		cuModuleUnload(p.mod)
		p.c.cu.exit()
		p.mod = 0
	}
	if p != nil && p.prog != 0 {
		clReleaseProgram(p.prog)
		p.prog = 0
	}
}

// Kernel is one kernel function of a program.
type Kernel struct {
	c    *Context
	k    uintptr
	Name string
	last []argKey // what SetArg set each argument to
	cuk  *cuKernel
}

// Kernel creates the kernel called name.
func (p *Program) Kernel(name string) (*Kernel, error) {
	if p.c.cu != nil {
		return p.cuKernel(name)
	}
	b := append([]byte(name), 0)
	var code int32
	k := clCreateKernel(p.prog, &b[0], &code)
	runtime.KeepAlive(b)
	if code != 0 {
		return nil, &Error{Op: "clCreateKernel(" + name + ")", Code: code}
	}
	return &Kernel{c: p.c, k: k, Name: name}, nil
}

// Release frees the kernel.
func (k *Kernel) Release() {
	if k != nil && k.k != 0 {
		clReleaseKernel(k.k)
		k.k = 0
	}
}

// WorkGroupSize is the largest work-group size this kernel can launch with.
func (k *Kernel) WorkGroupSize() int {
	if k.cuk != nil {
		var n int32
		k.c.cu.enter()
		defer k.c.cu.exit()
		if cuFuncGetAttribute(&n, 0 /* MAX_THREADS_PER_BLOCK */, k.cuk.f) != 0 {
			return k.c.Device.MaxWorkGroup
		}
		return int(n)
	}
	var v uintptr
	if clGetKernelWorkGroupInfo(k.k, k.c.Device.ID, 0x11B0, unsafe.Sizeof(v), unsafe.Pointer(&v), nil) != 0 {
		return k.c.Device.MaxWorkGroup
	}
	return int(v)
}

// LocalMem is a kernel argument that allocates local memory of Size bytes.
type LocalMem struct{ Size int }

// SetArg sets argument i: a *Buffer, a LocalMem, or a scalar of any
// primitive Go type (int8…uint64, float32, float64, bool as uchar; a
// uint16 also carries an f16's bits). An argument is not set again when
// it is what the kernel's last SetArg of i set (the same buffer object,
// local size or scalar bits): on an H100 a clSetKernelArg cost 1–3 µs of
// the host's time, and a call of a plan sets the same buffers as the
// call before it. A kernel is used by one goroutine at a time.
func (k *Kernel) SetArg(i int, v any) error {
	var key argKey
	var size uintptr
	var val uint64 // the argument's bytes, little-endian
	switch x := v.(type) {
	case *Buffer:
		key = argKey{buf: x.id}
		m := x.mem
		if x.cu != nil {
			m = x.dptr
		}
		size, val = unsafe.Sizeof(m), uint64(m)
	case LocalMem:
		if k.cuk != nil {
			k.cuk.setArg(i, 0, x.Size)
			return nil
		}
		return k.setCL(i, argKey{local: x.Size + 1}, uintptr(x.Size), 0, true)
	case int8:
		size, val = 1, uint64(uint8(x))
	case uint8:
		size, val = 1, uint64(x)
	case bool:
		size = 1
		if x {
			val = 1
		}
	case int16:
		size, val = 2, uint64(uint16(x))
	case uint16:
		size, val = 2, uint64(x)
	case int32:
		size, val = 4, uint64(uint32(x))
	case uint32:
		size, val = 4, uint64(x)
	case float32:
		size, val = 4, uint64(math.Float32bits(x))
	case int64:
		size, val = 8, uint64(x)
	case uint64:
		size, val = 8, x
	case float64:
		size, val = 8, math.Float64bits(x)
	default:
		return fmt.Errorf("cl: kernel %s argument %d: unsupported Go type %T", k.Name, i, v)
	}
	if k.cuk != nil {
		k.cuk.setArg(i, val, -1)
		return nil
	}
	if key == (argKey{}) {
		key = argKey{size: uint8(size), bits: val}
	}
	return k.setCL(i, key, size, val, false)
}

// setCL sets argument i of an OpenCL kernel to the size bytes of val
// (local: size bytes of local memory instead), unless it was set to
// key last time. Apart from SetArg, so that the bytes handed to OpenCL
// (whose address escapes) are allocated only on this path.
func (k *Kernel) setCL(i int, key argKey, size uintptr, val uint64, local bool) error {
	if i < len(k.last) && k.last[i] == key {
		return nil
	}
	bits := val
	ptr := unsafe.Pointer(&bits)
	if local {
		ptr = nil
	}
	if code := clSetKernelArg(k.k, uint32(i), size, ptr); code != 0 {
		if i < len(k.last) {
			k.last[i] = argKey{}
		}
		return &Error{Op: fmt.Sprintf("clSetKernelArg(%s, %d)", k.Name, i), Code: code}
	}
	for len(k.last) <= i {
		k.last = append(k.last, argKey{})
	}
	k.last[i] = key
	return nil
}

// argKey is what an argument was set to: a buffer's id, a local size
// plus one, or a scalar's size and bits (the zero key: nothing known).
type argKey struct {
	buf   uint64
	local int
	size  uint8
	bits  uint64
}

// Launch enqueues a 1-, 2- or 3-dimensional NDRange (local may be nil) and
// returns its event, whose profiling times are available after Wait.
func (c *Context) Launch(k *Kernel, global, local []int) (*Event, error) {
	return c.launch(k, global, local, true)
}

// LaunchUntimed is Launch without an event (whose profiling costs a
// call's wall time on some platforms: about 0.05 ms a call on an H100).
func (c *Context) LaunchUntimed(k *Kernel, global, local []int) error {
	_, err := c.launch(k, global, local, false)
	return err
}

func (c *Context) launch(k *Kernel, global, local []int, timed bool) (*Event, error) {
	if c.cu != nil {
		return c.cu.launch(k, global, local, timed)
	}
	dim := len(global)
	if dim < 1 || dim > 3 || (local != nil && len(local) != dim) {
		return nil, fmt.Errorf("cl: launch of %s with %d dimensions", k.Name, dim)
	}
	var g, l [3]uintptr
	for i := 0; i < dim; i++ {
		if global[i] == 0 {
			return &Event{}, nil // nothing to do
		}
		g[i] = uintptr(global[i])
		if local != nil {
			l[i] = uintptr(local[i])
		}
	}
	var lp *uintptr
	if local != nil {
		lp = &l[0]
	}
	var ev uintptr
	evp := &ev
	if !timed {
		evp = nil
	}
	code := clEnqueueNDRangeKernel(c.queue, k.k, uint32(dim), nil, &g[0], lp, 0, nil, evp)
	if code != 0 {
		return nil, &Error{Op: "clEnqueueNDRangeKernel(" + k.Name + ")", Code: code}
	}
	if !timed {
		return nil, nil
	}
	e := &Event{ev: ev}
	runtime.SetFinalizer(e, (*Event).Release)
	return e, nil
}

// Marker enqueues a marker: its event completes when every command
// queued before it has.
func (c *Context) Marker() (*Event, error) {
	if c.cu != nil {
		return c.cu.marked(c.cu.stream, nil)
	}
	var ev uintptr
	if code := clEnqueueMarkerWithWaitList(c.queue, 0, nil, &ev); code != 0 {
		return nil, &Error{Op: "clEnqueueMarkerWithWaitList", Code: code}
	}
	e := &Event{ev: ev}
	runtime.SetFinalizer(e, (*Event).Release)
	return e, nil
}

// ErrNoStamp: the context cannot time a stretch of its queue by stamps
// (OpenCL, whose markers on a plain queue carry no times).
var ErrNoStamp = errors.New("cl: no timed stamps on this queue")

// Stamp is a point in a context's queue, timed by the device when the
// commands before it are done: two stamps around a call time it as a
// library's pair of CUDA events does, every command and every gap
// between them (host steps while the device waits) included.
type Stamp struct {
	ev uintptr
	cu *cuCtx
}

// Stamp queues a stamp (through CUDA only; else ErrNoStamp).
func (c *Context) Stamp() (*Stamp, error) {
	if c.cu == nil {
		return nil, ErrNoStamp
	}
	return c.cu.stamp()
}

// ArmStamps starts keeping, before each time the host waits for the
// queue, a stamp after the commands queued so far (CUDA only; else
// ErrNoStamp). EndStamp gives the last: a call's end as a library's
// second CUDA event, queued right after the call's last command, marks
// it, not when the host got round to queueing one after its wait.
func (c *Context) ArmStamps() error {
	if c.cu == nil {
		return ErrNoStamp
	}
	c.cu.armStamps()
	return nil
}

// EndStamp stops keeping stamps (ArmStamps) and gives the one after the
// last command queued.
func (c *Context) EndStamp() (*Stamp, error) {
	if c.cu == nil {
		return nil, ErrNoStamp
	}
	return c.cu.endStamp()
}

// Since waits for s and gives the device time from earlier (a stamp of
// the same context, queued first) to s.
func (s *Stamp) Since(earlier *Stamp) (time.Duration, error) {
	if s.cu == nil || earlier.cu != s.cu {
		return 0, fmt.Errorf("cl: stamps of different contexts")
	}
	return s.cu.since(earlier.ev, s.ev)
}

// Release gives the stamp's event back.
func (s *Stamp) Release() {
	if s != nil && s.cu != nil && s.ev != 0 {
		s.cu.enter()
		s.cu.putEvent(s.ev, true)
		s.cu.exit()
		s.ev = 0
	}
}

// Event is a queued command.
type Event struct {
	ev uintptr
	// CUDA: the event, and for a timed launch the event before it
	cuEnd, cuStart uintptr
	cu             *cuCtx
	cuAt           uint64 // the commands on cu's stream up to the event (cuCtx.tail), or 0
}

// Wait blocks until the command is complete.
func (e *Event) Wait() error {
	if e.cu != nil && cudaTrace {
		defer traceCall("wait", time.Now())
	}
	if e.cu != nil {
		if e.cuEnd == 0 {
			return nil
		}
		e.cu.enter()
		defer e.cu.exit()
		e.cu.beforeWait()
		if err := cuCheck("cuEventSynchronize", cuEventSynchronize(e.cuEnd)); err != nil {
			return err
		}
		e.cu.drainedTo(e.cuAt)
		return nil
	}
	if e.ev == 0 {
		return nil
	}
	ev := e.ev
	return check("clWaitForEvents", clWaitForEvents(1, &ev))
}

// Times returns the command's start and end in device nanoseconds (after Wait).
func (e *Event) Times() (start, end uint64, err error) {
	if e.cu != nil {
		if e.cuStart == 0 {
			return 0, 0, &Error{Op: "cuEventElapsedTime", Code: -7}
		}
		var ms float32
		e.cu.enter()
		defer e.cu.exit()
		if err = cuCheck("cuEventElapsedTime", cuEventElapsedTime(&ms, e.cuStart, e.cuEnd)); err != nil {
			return
		}
		return 0, uint64(float64(ms) * 1e6), nil
	}
	if e.ev == 0 {
		return 0, 0, nil
	}
	if err = check("clGetEventProfilingInfo", clGetEventProfilingInfo(e.ev, 0x1282, 8, unsafe.Pointer(&start), nil)); err != nil {
		return
	}
	err = check("clGetEventProfilingInfo", clGetEventProfilingInfo(e.ev, 0x1283, 8, unsafe.Pointer(&end), nil))
	return
}

// Duration is end - start in nanoseconds (0 when not available).
func (e *Event) Duration() uint64 {
	s, t, err := e.Times()
	if err != nil || t < s {
		return 0
	}
	return t - s
}

// Release frees the event (safe to call twice).
func (e *Event) Release() {
	if e.cu != nil {
		if e.cuEnd != 0 || e.cuStart != 0 {
			e.cu.enter()
			if e.cuStart != 0 {
				e.cu.putEvent(e.cuStart, true)
			}
			if e.cuEnd != 0 {
				e.cu.putEvent(e.cuEnd, e.cuStart != 0)
			}
			e.cu.exit()
			e.cuStart, e.cuEnd = 0, 0
		}
		return
	}
	if e.ev != 0 {
		clReleaseEvent(e.ev)
		e.ev = 0
	}
}

// Queue is an in-order command queue: a second one of a context, for
// transfers that overlap the kernels of the context's own queue, or the
// context's own (whichever SetProfiling chose when a command is queued).
type Queue struct {
	q uintptr
	c *Context // the context's own queue
	// CUDA: the stream of a queue of its own, on context cu
	cs uintptr
	cu *cuCtx
}

// cuda is the CUDA context and stream of a queue on CUDA (nil else).
func (q *Queue) cuda() (*cuCtx, uintptr) {
	if q.c != nil {
		if q.c.cu != nil {
			return q.c.cu, q.c.cu.stream
		}
		return nil, 0
	}
	return q.cu, q.cs
}

// h is the queue's handle.
func (q *Queue) h() uintptr {
	if q.c != nil {
		return q.c.queue
	}
	return q.q
}

// NewQueue creates another command queue on the context's device.
func (c *Context) NewQueue() (*Queue, error) {
	if c.cu != nil {
		q := &Queue{cu: c.cu}
		c.cu.enter()
		defer c.cu.exit()
		if err := cuCheck("cuStreamCreate", cuStreamCreate(&q.cs, 1)); err != nil {
			return nil, err
		}
		return q, nil
	}
	var code int32
	q := clCreateCommandQueue(c.ctx, c.Device.ID, 0, &code)
	if code != 0 {
		return nil, check("clCreateCommandQueue", code)
	}
	return &Queue{q: q}, nil
}

// Write copies n bytes from host memory at p into the buffer at offset on
// this queue (blocking).
func (q *Queue) Write(b *Buffer, offset int, p unsafe.Pointer, n int) error {
	if n == 0 {
		return nil
	}
	if offset < 0 || offset+n > b.Size {
		return fmt.Errorf("cl: write of %d bytes at %d into a buffer of %d", n, offset, b.Size)
	}
	if cu, s := q.cuda(); cu != nil {
		return cu.write(s, b, offset, p, n, true)
	}
	err := check("clEnqueueWriteBuffer", clEnqueueWriteBuffer(q.h(), b.mem, 1, uintptr(offset), uintptr(n), p, 0, nil, nil))
	runtime.KeepAlive(p)
	return err
}

// Release waits for the queue's commands and frees it.
func (q *Queue) Release() {
	if q != nil && q.c == nil && q.cu != nil {
		if q.cs != 0 {
			q.cu.enter()
			cuStreamSynchronize(q.cs)
			cuStreamDestroy(q.cs)
			q.cu.exit()
			q.cs = 0
		}
		return
	}
	if q != nil && q.c == nil && q.q != 0 {
		clFinish(q.q)
		clReleaseCommandQueue(q.q)
		q.q = 0
	}
}

// WriteAsync enqueues a copy of n bytes from host memory at p into the
// buffer at offset and returns at once; p must stay valid and unchanged
// until the returned event completes.
func (q *Queue) WriteAsync(b *Buffer, offset int, p unsafe.Pointer, n int) (*Event, error) {
	if offset < 0 || offset+n > b.Size {
		return nil, fmt.Errorf("cl: write of %d bytes at %d into a buffer of %d", n, offset, b.Size)
	}
	if cu, s := q.cuda(); cu != nil {
		return cu.marked(s, cu.write(s, b, offset, p, n, false))
	}
	var ev uintptr
	if err := check("clEnqueueWriteBuffer", clEnqueueWriteBuffer(q.h(), b.mem, 0, uintptr(offset), uintptr(n), p, 0, nil, &ev)); err != nil {
		return nil, err
	}
	clFlush(q.h())
	return &Event{ev: ev}, nil
}

// Finish waits for every command of the queue.
func (q *Queue) Finish() error {
	if cu, s := q.cuda(); cu != nil {
		return cu.finish(s)
	}
	return check("clFinish", clFinish(q.h()))
}

// Pinned is page-locked host memory (a buffer the implementation
// allocates in host memory, mapped): copies from it to the device run at
// the bus's full speed, where copies from ordinary memory are staged.
type Pinned struct {
	cu  *cuCtx // non-nil: allocated by cuMemHostAlloc
	mem uintptr
	q   *Queue
	ptr unsafe.Pointer
	b   []byte
}

// NewPinned allocates size bytes of pinned host memory, mapped for
// writing through q.
func (c *Context) NewPinned(q *Queue, size int) (*Pinned, error) {
	if c.cu != nil {
		var p unsafe.Pointer
		c.cu.enter()
		defer c.cu.exit()
		if err := cuCheck("cuMemHostAlloc", cuMemHostAlloc(&p, uintptr(max(size, 1)), 0)); err != nil {
			return nil, err
		}
		return &Pinned{cu: c.cu, mem: 1, q: q, ptr: p, b: unsafe.Slice((*byte)(p), size)}, nil
	}
	var code int32
	m := clCreateBuffer(c.ctx, MemReadOnly|1<<4 /* CL_MEM_ALLOC_HOST_PTR */, uintptr(size), nil, &code)
	if code != 0 {
		return nil, check("clCreateBuffer", code)
	}
	ptr := clEnqueueMapBuffer(q.h(), m, 1, 1<<1 /* CL_MAP_WRITE */, 0, uintptr(size), 0, nil, nil, &code)
	if code != 0 || ptr == nil {
		clReleaseMemObject(m)
		return nil, check("clEnqueueMapBuffer", code)
	}
	return &Pinned{mem: m, q: q, ptr: ptr, b: unsafe.Slice((*byte)(ptr), size)}, nil
}

// Bytes is the memory.
func (p *Pinned) Bytes() []byte { return p.b }

// Release unmaps and frees the memory.
func (p *Pinned) Release() {
	if p == nil || p.mem == 0 {
		return
	}
	if p.cu != nil {
		p.cu.enter()
		cuMemFreeHost(p.ptr)
		p.cu.exit()
		p.mem, p.b = 0, nil
		return
	}
	clEnqueueUnmapMemObject(p.q.h(), p.mem, p.ptr, 0, nil, nil)
	clFinish(p.q.h())
	clReleaseMemObject(p.mem)
	p.mem, p.b = 0, nil
}

// ReadAsync enqueues a copy of n bytes from the buffer at offset into
// host memory at p and returns at once; p must stay valid until the
// returned event completes.
func (q *Queue) ReadAsync(b *Buffer, offset int, p unsafe.Pointer, n int) (*Event, error) {
	if offset < 0 || offset+n > b.Size {
		return nil, fmt.Errorf("cl: read of %d bytes at %d from a buffer of %d", n, offset, b.Size)
	}
	if cu, s := q.cuda(); cu != nil {
		return cu.marked(s, cu.read(s, b, offset, p, n, false))
	}
	var ev uintptr
	if err := check("clEnqueueReadBuffer", clEnqueueReadBuffer(q.h(), b.mem, 0, uintptr(offset), uintptr(n), p, 0, nil, &ev)); err != nil {
		return nil, err
	}
	clFlush(q.h())
	return &Event{ev: ev}, nil
}

// Queue is the context's own queue, as a Queue (not to be released: the
// context releases it).
func (c *Context) Queue() *Queue { return &Queue{c: c} }

// Read copies n bytes from the buffer at offset into host memory at p on
// this queue (blocking).
func (q *Queue) Read(b *Buffer, offset int, p unsafe.Pointer, n int) error {
	if n == 0 {
		return nil
	}
	if offset < 0 || offset+n > b.Size {
		return fmt.Errorf("cl: read of %d bytes at %d from a buffer of %d", n, offset, b.Size)
	}
	if cu, s := q.cuda(); cu != nil {
		return cu.read(s, b, offset, p, n, true)
	}
	err := check("clEnqueueReadBuffer", clEnqueueReadBuffer(q.h(), b.mem, 1, uintptr(offset), uintptr(n), p, 0, nil, nil))
	runtime.KeepAlive(p)
	return err
}
