package value

import "math"

// Helpers over the flat typed slices that hold primitive array elements.
// f16 elements live in a []float32 (each value exactly an f16).

// MakeData allocates a zeroed slice of n elements of type t.
func MakeData(t PrimType, n int) any {
	switch t {
	case I8:
		return make([]int8, n)
	case I16:
		return make([]int16, n)
	case I32:
		return make([]int32, n)
	case I64:
		return make([]int64, n)
	case U8:
		return make([]uint8, n)
	case U16:
		return make([]uint16, n)
	case U32:
		return make([]uint32, n)
	case U64:
		return make([]uint64, n)
	case F16, F32:
		return make([]float32, n)
	case F64:
		return make([]float64, n)
	case Bool:
		return make([]bool, n)
	}
	panic("value: MakeData of non-primitive type")
}

// DataLen is the length of a typed slice.
func DataLen(d any) int {
	switch d := d.(type) {
	case []int8:
		return len(d)
	case []int16:
		return len(d)
	case []int32:
		return len(d)
	case []int64:
		return len(d)
	case []uint8:
		return len(d)
	case []uint16:
		return len(d)
	case []uint32:
		return len(d)
	case []uint64:
		return len(d)
	case []float32:
		return len(d)
	case []float64:
		return len(d)
	case []bool:
		return len(d)
	}
	return 0
}

// DataSlice is d[lo:hi] (a view).
func DataSlice(d any, lo, hi int) any {
	switch d := d.(type) {
	case []int8:
		return d[lo:hi:hi]
	case []int16:
		return d[lo:hi:hi]
	case []int32:
		return d[lo:hi:hi]
	case []int64:
		return d[lo:hi:hi]
	case []uint8:
		return d[lo:hi:hi]
	case []uint16:
		return d[lo:hi:hi]
	case []uint32:
		return d[lo:hi:hi]
	case []uint64:
		return d[lo:hi:hi]
	case []float32:
		return d[lo:hi:hi]
	case []float64:
		return d[lo:hi:hi]
	case []bool:
		return d[lo:hi:hi]
	}
	panic("value: DataSlice of non-slice")
}

// DataCopy copies src into dst at offset off; returns the number copied.
func DataCopy(dst any, off int, src any) int {
	switch d := dst.(type) {
	case []int8:
		return copy(d[off:], src.([]int8))
	case []int16:
		return copy(d[off:], src.([]int16))
	case []int32:
		return copy(d[off:], src.([]int32))
	case []int64:
		return copy(d[off:], src.([]int64))
	case []uint8:
		return copy(d[off:], src.([]uint8))
	case []uint16:
		return copy(d[off:], src.([]uint16))
	case []uint32:
		return copy(d[off:], src.([]uint32))
	case []uint64:
		return copy(d[off:], src.([]uint64))
	case []float32:
		return copy(d[off:], src.([]float32))
	case []float64:
		return copy(d[off:], src.([]float64))
	case []bool:
		return copy(d[off:], src.([]bool))
	}
	panic("value: DataCopy of non-slice")
}

// DataGet reads element i as a scalar of type t.
func DataGet(t PrimType, d any, i int) Prim {
	switch d := d.(type) {
	case []int8:
		return Prim{t, uint64(int64(d[i]))}
	case []int16:
		return Prim{t, uint64(int64(d[i]))}
	case []int32:
		return Prim{t, uint64(int64(d[i]))}
	case []int64:
		return Prim{t, uint64(d[i])}
	case []uint8:
		return Prim{t, uint64(d[i])}
	case []uint16:
		return Prim{t, uint64(d[i])}
	case []uint32:
		return Prim{t, uint64(d[i])}
	case []uint64:
		return Prim{t, d[i]}
	case []float32:
		return Prim{t, math.Float64bits(float64(d[i]))}
	case []float64:
		return Prim{t, math.Float64bits(d[i])}
	case []bool:
		if d[i] {
			return Prim{t, 1}
		}
		return Prim{t, 0}
	}
	panic("value: DataGet of non-slice")
}

// DataSet writes p (of the slice's element type) at i.
func DataSet(d any, i int, p Prim) {
	switch d := d.(type) {
	case []int8:
		d[i] = int8(p.B)
	case []int16:
		d[i] = int16(p.B)
	case []int32:
		d[i] = int32(p.B)
	case []int64:
		d[i] = int64(p.B)
	case []uint8:
		d[i] = uint8(p.B)
	case []uint16:
		d[i] = uint16(p.B)
	case []uint32:
		d[i] = uint32(p.B)
	case []uint64:
		d[i] = p.B
	case []float32:
		d[i] = float32(p.Float())
	case []float64:
		d[i] = p.Float()
	case []bool:
		d[i] = p.B != 0
	default:
		panic("value: DataSet of non-slice")
	}
}
