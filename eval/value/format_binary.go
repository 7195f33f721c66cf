package value

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"runtime"
	"strings"
	"sync"
	"unsafe"
)

// The binary data format: 'b', version 2, rank (1 byte), a 4-byte type
// name ("  i8" … "bool"), rank little-endian u64 dimensions, then the
// elements little-endian in row-major order.

func binTypeName(t PrimType) string {
	s := t.String()
	return strings.Repeat(" ", 4-len(s)) + s
}

func (r *reader) binErr(off int, msg string) error {
	return &DataError{Offset: off, Msg: msg}
}

func (r *reader) binary() (Value, error) {
	start := r.pos
	if len(r.src)-r.pos < 7 {
		return nil, r.binErr(r.pos, "truncated binary value header")
	}
	if r.src[r.pos+1] != 2 {
		return nil, r.binErr(r.pos+1, "expected binary format version 2")
	}
	rank := int(r.src[r.pos+2])
	tname := string(r.src[r.pos+3 : r.pos+7])
	t := ParsePrimType(strings.TrimLeft(tname, " "))
	if t == NoPrim || binTypeName(t) != tname {
		return nil, r.binErr(r.pos+3, "expected a binary type name such as \" i32\", found "+quote(tname))
	}
	r.pos += 7
	if len(r.src)-r.pos < 8*rank {
		return nil, r.binErr(r.pos, "truncated binary shape")
	}
	shape := make([]int64, rank)
	n := uint64(1)
	for i := range shape {
		d := binary.LittleEndian.Uint64(r.src[r.pos:])
		if d > 1<<48 {
			return nil, r.binErr(r.pos, "binary dimension too large")
		}
		shape[i] = int64(d)
		hi, lo := bits.Mul64(n, d)
		if hi != 0 || lo > math.MaxInt64 {
			// the product wrapped round: [2^32][2^32] would pass as empty
			return nil, r.binErr(r.pos, "binary shape too large: "+ShapeString(shape[:i+1])+" is more than 2^63 elements")
		}
		n = lo
		r.pos += 8
	}
	w := t.Bits() / 8
	if t == Bool {
		w = 1
	}
	if n > uint64(len(r.src)-r.pos)/uint64(w) {
		return nil, r.binErr(r.pos, "truncated binary data: expected "+itoa(int64(n))+" elements")
	}
	b := r.src[r.pos:]
	d, bulk := r.bulkData(t, int(n), b[:int(n)*w])
	for i := 0; !bulk && i < int(n); i++ {
		var bitsv uint64
		switch w {
		case 1:
			bitsv = uint64(b[i])
		case 2:
			bitsv = uint64(binary.LittleEndian.Uint16(b[2*i:]))
		case 4:
			bitsv = uint64(binary.LittleEndian.Uint32(b[4*i:]))
		default:
			bitsv = binary.LittleEndian.Uint64(b[8*i:])
		}
		if t == Bool {
			if bitsv > 1 {
				return nil, r.binErr(r.pos+i, "bool byte not 0 or 1")
			}
			DataSet(d, i, MkBool(bitsv == 1))
		} else {
			DataSet(d, i, FromBits(t, bitsv))
		}
	}
	r.pos += int(n) * w
	_ = start
	if rank == 0 {
		return DataGet(t, d, 0), nil
	}
	return &Array{Shape: shape, T: t, Data: d}, nil
}

// bulkData makes the elements of a binary array in one copy of its
// bytes where the host's layout is the format's (little-endian, a
// width of its own: not bool or f16), in memory from r.alloc when the
// array is large and it gives some; else it makes an empty slice to
// fill element by element (bulk false).
func (r *reader) bulkData(t PrimType, n int, b []byte) (any, bool) {
	if !hostLittleEndian || t == Bool || t == F16 || n == 0 {
		return MakeData(t, n), false
	}
	var mem []byte
	if r.alloc != nil && len(b) >= BulkMin {
		mem = r.alloc(len(b))
	}
	var d any
	if mem != nil && len(mem) >= len(b) && uintptr(unsafe.Pointer(&mem[0]))%8 == 0 {
		d = DataOver(t, mem[:len(b)], n)
	} else {
		d = MakeData(t, n)
		mem = DataBytes(d)
	}
	CopyParallel(mem, b)
	return d, true
}

// DataOver is a typed slice of n elements of t over mem (not bool or
// f16; mem aligned to the element).
func DataOver(t PrimType, mem []byte, n int) any {
	p := unsafe.Pointer(&mem[0])
	switch t {
	case I8:
		return unsafe.Slice((*int8)(p), n)
	case I16:
		return unsafe.Slice((*int16)(p), n)
	case I32:
		return unsafe.Slice((*int32)(p), n)
	case I64:
		return unsafe.Slice((*int64)(p), n)
	case U8:
		return unsafe.Slice((*uint8)(p), n)
	case U16:
		return unsafe.Slice((*uint16)(p), n)
	case U32:
		return unsafe.Slice((*uint32)(p), n)
	case U64:
		return unsafe.Slice((*uint64)(p), n)
	case F32:
		return unsafe.Slice((*float32)(p), n)
	case F64:
		return unsafe.Slice((*float64)(p), n)
	}
	panic("value: DataOver of " + t.String())
}

var hostLittleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// CopyParallel copies src into dst, by several goroutines (up to 16)
// when it is large: one core copies a few GB/s, memory moves tens.
func CopyParallel(dst, src []byte) {
	const part = 2 << 20
	k := min(16, runtime.NumCPU(), len(src)/part)
	if k <= 1 {
		copy(dst, src)
		return
	}
	step := (len(src) + k - 1) / k
	var wg sync.WaitGroup
	for i := 0; i < len(src); i += step {
		j := min(i+step, len(src))
		wg.Add(1)
		go func() {
			defer wg.Done()
			copy(dst[i:j], src[i:j])
		}()
	}
	wg.Wait()
}

func quote(s string) string { return "\"" + s + "\"" }

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	if neg {
		return "-" + string(b)
	}
	return string(b)
}

// WriteBinary writes a scalar or primitive array in the binary format.
func WriteBinary(w io.Writer, v Value) error {
	var t PrimType
	var shape []int64
	var d any
	switch v := v.(type) {
	case Prim:
		t, d = v.T, MakeData(v.T, 1)
		DataSet(d, 0, v)
	case *Array:
		if v.Kind != KPrim {
			return errors.New("binary format holds only scalars and arrays of scalars")
		}
		t, shape, d = v.T, v.Shape, v.Data
	default:
		return errors.New("binary format holds only scalars and arrays of scalars")
	}
	if err := WriteBinaryHeader(w, t, shape); err != nil {
		return err
	}
	return WriteBinaryData(w, t, d)
}

// WriteBinaryHeader writes the header of a value of the binary format:
// a scalar of type t (no shape) or an array of that shape, whose
// elements WriteBinaryData writes after it (in as many calls as wanted).
func WriteBinaryHeader(w io.Writer, t PrimType, shape []int64) error {
	buf := []byte{'b', 2, byte(len(shape))}
	buf = append(buf, binTypeName(t)...)
	for _, s := range shape {
		buf = binary.LittleEndian.AppendUint64(buf, uint64(s))
	}
	_, err := w.Write(buf)
	return err
}

// WriteBinaryData writes the elements d (a flat slice of t) in the binary
// format's little-endian layout, a block at a time.
func WriteBinaryData(w io.Writer, t PrimType, d any) error {
	n := DataLen(d)
	const block = 1 << 16
	buf := make([]byte, 0, block*8)
	for lo := 0; lo < n; lo += block {
		buf = buf[:0]
		for i := lo; i < min(n, lo+block); i++ {
			bv := BitsOf(DataGet(t, d, i))
			switch t.Bits() {
			case 8:
				buf = append(buf, byte(bv))
			case 16:
				buf = binary.LittleEndian.AppendUint16(buf, uint16(bv))
			case 32:
				buf = binary.LittleEndian.AppendUint32(buf, uint32(bv))
			default:
				buf = binary.LittleEndian.AppendUint64(buf, bv)
			}
		}
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// DataBytes is the memory of a typed slice (as MakeData makes them):
// its elements' bytes in the host's layout (f16 held as float32).
func DataBytes(d any) []byte {
	var p unsafe.Pointer
	var n, w int
	switch d := d.(type) {
	case []int8:
		n, w = len(d), 1
		if n > 0 {
			p = unsafe.Pointer(&d[0])
		}
	case []int16:
		n, w = len(d), 2
		if n > 0 {
			p = unsafe.Pointer(&d[0])
		}
	case []int32:
		n, w = len(d), 4
		if n > 0 {
			p = unsafe.Pointer(&d[0])
		}
	case []int64:
		n, w = len(d), 8
		if n > 0 {
			p = unsafe.Pointer(&d[0])
		}
	case []uint8:
		n, w = len(d), 1
		if n > 0 {
			p = unsafe.Pointer(&d[0])
		}
	case []uint16:
		n, w = len(d), 2
		if n > 0 {
			p = unsafe.Pointer(&d[0])
		}
	case []uint32:
		n, w = len(d), 4
		if n > 0 {
			p = unsafe.Pointer(&d[0])
		}
	case []uint64:
		n, w = len(d), 8
		if n > 0 {
			p = unsafe.Pointer(&d[0])
		}
	case []float32:
		n, w = len(d), 4
		if n > 0 {
			p = unsafe.Pointer(&d[0])
		}
	case []float64:
		n, w = len(d), 8
		if n > 0 {
			p = unsafe.Pointer(&d[0])
		}
	case []bool:
		n, w = len(d), 1
		if n > 0 {
			p = unsafe.Pointer(&d[0])
		}
	default:
		panic(fmt.Sprintf("value: DataBytes of %T", d))
	}
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(p), n*w)
}
