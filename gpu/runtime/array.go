package runtime

import (
	"errors"
	"fmt"
	"slices"
	"unsafe"

	"fut/eval/value"
	"fut/gpu/cl"
	"fut/gpu/kernel"
)

// Array is a row-major array of a primitive type that lives on a device.
type Array struct {
	T     kernel.Type
	Shape []int64
	buf   *cl.Buffer
	d     *Device
	view  bool     // buf is a sub-buffer of another array's (Rows)
	dims  [3]int64 // Shape's room for up to three dimensions (Alloc)
}

// Device is the device that holds the array.
func (a *Array) Device() *Device { return a.d }

// NumElems is the product of the shape.
func (a *Array) NumElems() int64 {
	n := int64(1)
	for _, s := range a.Shape {
		n *= s
	}
	return n
}

// Bytes is the size of the elements on the device.
func (a *Array) Bytes() int { return int(a.NumElems()) * a.T.Size() }

// Release gives the device memory back (to the device's pool of buffers
// for later arrays of the same size; safe to call twice).
func (a *Array) Release() {
	if a.buf == nil {
		return
	}
	if a.view {
		a.buf.Release()
	} else if a.d != nil && !a.d.isClosed() {
		a.d.pool.put(a.buf)
	} else {
		a.buf.Release()
	}
	a.buf = nil
}

// RowAlign is the least number of rows of rowBytes bytes each whose
// multiples Rows can start at.
func (d *Device) RowAlign(rowBytes int64) int64 {
	al := int64(d.Info.BaseAlign)
	if rowBytes <= 0 || al <= 1 {
		return 1
	}
	return al / gcd(al, rowBytes)
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// Rows is a view of the rows lo to hi of a (its outer dimension): the
// same device memory, not a copy, so it must not be written while a is
// read elsewhere. lo must be a multiple of RowAlign of a row's bytes. The
// view is released on its own (a stays).
func (a *Array) Rows(lo, hi int64) (*Array, error) {
	if len(a.Shape) == 0 || lo < 0 || hi > a.Shape[0] || lo >= hi {
		return nil, fmt.Errorf("runtime: rows %d to %d of an array of shape %v", lo, hi, a.Shape)
	}
	row := int64(a.Bytes()) / a.Shape[0]
	b, err := a.buf.Sub(int(lo*row), int((hi-lo)*row))
	if err != nil {
		return nil, err
	}
	shape := append([]int64{hi - lo}, a.Shape[1:]...)
	return &Array{T: a.T, Shape: shape, buf: b, d: a.d, view: true}, nil
}

// Narrow makes the array its first n rows, in place: the buffer stays
// as it is (a compaction's output, made for as many rows as it could
// keep).
func (a *Array) Narrow(n int64) error {
	if len(a.Shape) == 0 || n < 0 || n > a.Shape[0] {
		return fmt.Errorf("runtime: %d rows of an array of shape %v", n, a.Shape)
	}
	a.Shape[0] = n
	return nil
}

// Alloc allocates an uninitialised array.
func (d *Device) Alloc(t kernel.Type, shape ...int64) (*Array, error) {
	for _, s := range shape {
		if s < 0 {
			return nil, fmt.Errorf("runtime: negative dimension in %v", slices.Clone(shape))
		}
	}
	a := &Array{T: t, d: d}
	// the shape in the array's own room where it fits (one allocation,
	// not two; an append to Shape then copies it)
	if len(shape) <= len(a.dims) {
		a.Shape = a.dims[:len(shape):len(shape)]
		copy(a.Shape, shape)
	} else {
		a.Shape = slices.Clone(shape)
	}
	b, err := d.newBuffer(a.Bytes())
	if err != nil {
		return nil, err
	}
	a.buf = b
	return a, nil
}

// bytesOf views a typed slice as bytes (f16 given as []uint16 bits).
func bytesOf(t kernel.Type, data any) ([]byte, int, error) {
	var p unsafe.Pointer
	var n int
	ok := true
	switch x := data.(type) {
	case []bool:
		ok, n = t == kernel.Bool, len(x)
		if n > 0 {
			p = unsafe.Pointer(&x[0])
		}
	case []int8:
		ok, n = t == kernel.I8, len(x)
		if n > 0 {
			p = unsafe.Pointer(&x[0])
		}
	case []int16:
		ok, n = t == kernel.I16, len(x)
		if n > 0 {
			p = unsafe.Pointer(&x[0])
		}
	case []int32:
		ok, n = t == kernel.I32, len(x)
		if n > 0 {
			p = unsafe.Pointer(&x[0])
		}
	case []int64:
		ok, n = t == kernel.I64, len(x)
		if n > 0 {
			p = unsafe.Pointer(&x[0])
		}
	case []uint8:
		ok, n = t == kernel.U8, len(x)
		if n > 0 {
			p = unsafe.Pointer(&x[0])
		}
	case []uint16:
		ok, n = t == kernel.U16 || t == kernel.F16, len(x)
		if n > 0 {
			p = unsafe.Pointer(&x[0])
		}
	case []uint32:
		ok, n = t == kernel.U32, len(x)
		if n > 0 {
			p = unsafe.Pointer(&x[0])
		}
	case []uint64:
		ok, n = t == kernel.U64, len(x)
		if n > 0 {
			p = unsafe.Pointer(&x[0])
		}
	case []float32:
		if t == kernel.F16 {
			return bytesOf(t, f16Bits(x))
		}
		ok, n = t == kernel.F32, len(x)
		if n > 0 {
			p = unsafe.Pointer(&x[0])
		}
	case []float64:
		ok, n = t == kernel.F64, len(x)
		if n > 0 {
			p = unsafe.Pointer(&x[0])
		}
	default:
		ok = false
	}
	if !ok {
		return nil, 0, fmt.Errorf("runtime: %T is not data of %v", data, t)
	}
	if n == 0 {
		return nil, 0, nil
	}
	return unsafe.Slice((*byte)(p), n*t.Size()), n, nil
}

func f16Bits(x []float32) []uint16 {
	out := make([]uint16, len(x))
	for i, f := range x {
		out[i] = value.F16Bits(float64(f))
	}
	return out
}

// Upload copies a flat typed slice ([]float32, []int32, …, []bool; f16 as
// []float32 or []uint16 bits) of prod(shape) elements to the device.
func (d *Device) Upload(t kernel.Type, shape []int64, data any) (*Array, error) {
	bs, n, err := bytesOf(t, data)
	if err != nil {
		return nil, err
	}
	a, err := d.Alloc(t, shape...)
	if err != nil {
		return nil, err
	}
	if int64(n) != a.NumElems() {
		a.Release()
		return nil, fmt.Errorf("runtime: %d elements for shape %v", n, shape)
	}
	if n > 0 {
		d.mu.Lock()
		err = d.staged.write(d.ctx, a.buf, bs, d.isPinned(bs))
		d.mu.Unlock()
		if err != nil {
			a.Release()
			return nil, err
		}
	}
	return a, nil
}

// Download copies the array back into a new flat typed slice, with the
// element types of eval/value (f16 as []float32, bool as []bool).
func (a *Array) Download() (any, error) {
	n := int(a.NumElems())
	var data any
	if a.T == kernel.F16 {
		data = make([]uint16, n)
	} else {
		data = makeData(a.T, n)
	}
	if n > 0 {
		bs, _, err := bytesOf(a.T, data)
		if err != nil {
			return nil, err
		}
		a.d.mu.Lock()
		ok := false
		if len(bs) <= smallRead && a.d.deferred.waiting() {
			ok, err = a.d.staged.readBehind(a.d.ctx, a.buf, bs, a.d.flushWhole)
		}
		if !ok {
			err = a.d.flushLocked()
			if err == nil {
				err = a.d.staged.read(a.d.ctx, a.buf, 0, bs, false)
			}
		}
		a.d.mu.Unlock()
		if err != nil {
			return nil, err
		}
	}
	if a.T == kernel.F16 {
		bits := data.([]uint16)
		out := make([]float32, n)
		for i, h := range bits {
			out[i] = float32(value.F16FromBits(h))
		}
		return out, nil
	}
	return data, nil
}

// Copy makes a device-side copy of a.
func (a *Array) Copy() (*Array, error) {
	b, err := a.d.Alloc(a.T, a.Shape...)
	if err != nil {
		return nil, err
	}
	a.d.mu.Lock()
	err = a.d.ctx.Copy(b.buf, 0, a.buf, 0, a.Bytes())
	a.d.mu.Unlock()
	if err != nil {
		b.Release()
		return nil, err
	}
	return b, nil
}

// CopyTo makes a copy of a on d: on a's device, a device-side copy; on
// another, a copy between the two devices where both run through CUDA
// (peer to peer where the platform allows, which direct says), else a
// download and an upload through the host.
func (a *Array) CopyTo(d *Device) (b *Array, direct bool, err error) {
	if a.d == d {
		b, err = a.Copy()
		return b, true, err
	}
	a.d.mu.Lock()
	err = a.d.flushLocked() // a's kernels' checks, before its bytes move
	a.d.mu.Unlock()
	if err != nil {
		return nil, false, err
	}
	if b, err = d.Alloc(a.T, a.Shape...); err != nil {
		return nil, false, err
	}
	d.mu.Lock()
	direct, err = cl.CopyPeer(d.ctx, b.buf, 0, a.d.ctx, a.buf, 0, a.Bytes())
	d.mu.Unlock()
	if err == nil {
		d.peerCopies.Add(1)
		return b, direct, nil
	}
	b.Release()
	if !errors.Is(err, cl.ErrNoPeer) {
		return nil, false, err
	}
	data, err := a.Download()
	if err != nil {
		return nil, false, err
	}
	b, err = d.Upload(a.T, a.Shape, data)
	return b, false, err
}

func makeData(t kernel.Type, n int) any {
	switch t {
	case kernel.Bool:
		return make([]bool, n)
	case kernel.I8:
		return make([]int8, n)
	case kernel.I16:
		return make([]int16, n)
	case kernel.I32:
		return make([]int32, n)
	case kernel.I64:
		return make([]int64, n)
	case kernel.U8:
		return make([]uint8, n)
	case kernel.U16:
		return make([]uint16, n)
	case kernel.U32:
		return make([]uint32, n)
	case kernel.U64:
		return make([]uint64, n)
	case kernel.F32:
		return make([]float32, n)
	case kernel.F64:
		return make([]float64, n)
	}
	return make([]float32, n)
}

// TypeOf maps an eval/value primitive type to the kernel IR's.
func TypeOf(t value.PrimType) kernel.Type {
	switch t {
	case value.Bool:
		return kernel.Bool
	case value.I8:
		return kernel.I8
	case value.I16:
		return kernel.I16
	case value.I32:
		return kernel.I32
	case value.I64:
		return kernel.I64
	case value.U8:
		return kernel.U8
	case value.U16:
		return kernel.U16
	case value.U32:
		return kernel.U32
	case value.U64:
		return kernel.U64
	case value.F16:
		return kernel.F16
	case value.F32:
		return kernel.F32
	case value.F64:
		return kernel.F64
	}
	return kernel.NoType
}

// PrimOf is the inverse of TypeOf.
func PrimOf(t kernel.Type) value.PrimType {
	for _, p := range []value.PrimType{value.Bool, value.I8, value.I16, value.I32, value.I64, value.U8, value.U16, value.U32, value.U64, value.F16, value.F32, value.F64} {
		if TypeOf(p) == t {
			return p
		}
	}
	return value.NoPrim
}

// UploadValue uploads a primitive eval/value array (Kind KPrim).
func (d *Device) UploadValue(v *value.Array) (*Array, error) {
	if v.Kind != value.KPrim {
		return nil, fmt.Errorf("runtime: only arrays of primitive type can be uploaded")
	}
	return d.Upload(TypeOf(v.T), v.Shape, v.Data)
}

// Value downloads the array as an eval/value array.
func (a *Array) Value() (*value.Array, error) {
	data, err := a.Download()
	if err != nil {
		return nil, err
	}
	return value.NewPrimArrayData(PrimOf(a.T), append([]int64(nil), a.Shape...), data), nil
}

// ReadInto copies the array's elements into dst, a typed slice of the
// element type of eval/value (not f16) of at least as many elements.
func (a *Array) ReadInto(dst any) error {
	if a.T == kernel.F16 {
		return fmt.Errorf("runtime: ReadInto of f16")
	}
	bs, _, err := bytesOf(a.T, dst)
	if err != nil {
		return err
	}
	n := a.Bytes()
	if n == 0 {
		return nil
	}
	if len(bs) < n {
		return fmt.Errorf("runtime: ReadInto %d bytes into %d", n, len(bs))
	}
	a.d.mu.Lock()
	if err := a.d.flushLocked(); err != nil {
		a.d.mu.Unlock()
		return err
	}
	if a.d.isPinned(bs[:n]) {
		// straight into pinned memory: enqueued in the queue's order, and
		// waited for without holding the device (the transfer queue's
		// uploads and other launches go on meanwhile)
		ev, err := a.d.ctx.Queue().ReadAsync(a.buf, 0, unsafe.Pointer(&bs[0]), n)
		a.d.mu.Unlock()
		if err != nil {
			return err
		}
		defer ev.Release()
		return ev.Wait()
	}
	defer a.d.mu.Unlock()
	return a.d.staged.read(a.d.ctx, a.buf, 0, bs[:n], false)
}

// ReadAt copies len(dst) elements of the array from element first into
// dst, a typed slice as ReadInto takes.
func (a *Array) ReadAt(first int64, dst any) error {
	if a.T == kernel.F16 {
		return fmt.Errorf("runtime: ReadAt of f16")
	}
	bs, n, err := bytesOf(a.T, dst)
	if err != nil {
		return err
	}
	if first < 0 || first+int64(n) > a.NumElems() {
		return fmt.Errorf("runtime: ReadAt of %d elements at %d from an array of %d", n, first, a.NumElems())
	}
	if n == 0 {
		return nil
	}
	a.d.mu.Lock()
	defer a.d.mu.Unlock()
	if err := a.d.flushLocked(); err != nil {
		return err
	}
	return a.d.staged.read(a.d.ctx, a.buf, int(first)*a.T.Size(), bs, false)
}
