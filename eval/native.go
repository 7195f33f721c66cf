package eval

import (
	"math"

	"fut/eval/value"
)

// Typed Go loops for built-in operators over primitive arrays. Integer
// operators are associative and commutative here (wrap-around), so their
// reductions run in any order; float reductions follow the balanced tree
// of COST_MODEL.md exactly (treeReduceT), so that rounding matches the
// general path.

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

func intOp[T integer](op value.BinOp) (func(a, b T) T, bool) {
	switch op {
	case value.OpAdd:
		return func(a, b T) T { return a + b }, true
	case value.OpMul:
		return func(a, b T) T { return a * b }, true
	case value.OpMin:
		return func(a, b T) T { return min(a, b) }, true
	case value.OpMax:
		return func(a, b T) T { return max(a, b) }, true
	case value.OpAnd:
		return func(a, b T) T { return a & b }, true
	case value.OpOr:
		return func(a, b T) T { return a | b }, true
	case value.OpXor:
		return func(a, b T) T { return a ^ b }, true
	}
	return nil, false
}

func f64Op(op value.BinOp) (func(a, b float64) float64, bool) {
	switch op {
	case value.OpAdd:
		return func(a, b float64) float64 { return a + b }, true
	case value.OpMul:
		return func(a, b float64) float64 { return a * b }, true
	case value.OpMin:
		return fminF64, true
	case value.OpMax:
		return fmaxF64, true
	}
	return nil, false
}

func fminF64(a, b float64) float64 {
	if a != a {
		return b
	}
	if b != b {
		return a
	}
	return math.Min(a, b)
}

func fmaxF64(a, b float64) float64 {
	if a != a {
		return b
	}
	if b != b {
		return a
	}
	return math.Max(a, b)
}

func f32Op(op value.BinOp, half bool) (func(a, b float32) float32, bool) {
	g, ok := f64Op(op)
	if !ok {
		return nil, false
	}
	if half {
		return func(a, b float32) float32 { return float32(value.RoundF16(g(float64(a), float64(b)))) }, true
	}
	switch op {
	case value.OpAdd:
		return func(a, b float32) float32 { return a + b }, true
	case value.OpMul:
		return func(a, b float32) float32 { return a * b }, true
	}
	return func(a, b float32) float32 { return float32(g(float64(a), float64(b))) }, true
}

func boolOp(op value.BinOp) (func(a, b bool) bool, bool) {
	switch op {
	case value.OpLogAnd, value.OpAnd, value.OpMin:
		return func(a, b bool) bool { return a && b }, true
	case value.OpLogOr, value.OpOr, value.OpMax:
		return func(a, b bool) bool { return a || b }, true
	case value.OpXor:
		return func(a, b bool) bool { return a != b }, true
	}
	return nil, false
}

// treeReduceT combines xs (non-empty) in the balanced tree order.
func treeReduceT[T any](xs []T, f func(a, b T) T) T {
	var stack [64]T
	var sizes [64]int
	sp := 0
	for _, x := range xs {
		v, sz := x, 1
		for sp > 0 && sizes[sp-1] == sz {
			v = f(stack[sp-1], v)
			sz *= 2
			sp--
		}
		stack[sp], sizes[sp] = v, sz
		sp++
	}
	for sp > 1 {
		stack[sp-2] = f(stack[sp-2], stack[sp-1])
		sp--
	}
	return stack[0]
}

func foldT[T any](xs []T, f func(a, b T) T) T {
	acc := xs[0]
	for _, x := range xs[1:] {
		acc = f(acc, x)
	}
	return acc
}

func reduceInts[T integer](d []T, op value.BinOp) (T, bool) {
	f, ok := intOp[T](op)
	if !ok {
		var z T
		return z, false
	}
	if op == value.OpAdd { // the common case, without a call per element
		var s T
		for _, x := range d {
			s += x
		}
		return s, true
	}
	return foldT(d, f), true
}

// nativeReduce reduces a non-empty 1-d primitive array.
func nativeReduce(op value.BinOp, xs *value.Array) (value.Value, bool) {
	one := func(d any) value.Value { return value.DataGet(xs.T, d, 0) }
	switch d := xs.Data.(type) {
	case []int8:
		r, ok := reduceInts(d, op)
		return one([]int8{r}), ok
	case []int16:
		r, ok := reduceInts(d, op)
		return one([]int16{r}), ok
	case []int32:
		r, ok := reduceInts(d, op)
		return one([]int32{r}), ok
	case []int64:
		r, ok := reduceInts(d, op)
		return one([]int64{r}), ok
	case []uint8:
		r, ok := reduceInts(d, op)
		return one([]uint8{r}), ok
	case []uint16:
		r, ok := reduceInts(d, op)
		return one([]uint16{r}), ok
	case []uint32:
		r, ok := reduceInts(d, op)
		return one([]uint32{r}), ok
	case []uint64:
		r, ok := reduceInts(d, op)
		return one([]uint64{r}), ok
	case []float64:
		f, ok := f64Op(op)
		if !ok {
			return nil, false
		}
		return value.F64Val(treeReduceT(d, f)), true
	case []float32:
		f, ok := f32Op(op, xs.T == value.F16)
		if !ok {
			return nil, false
		}
		return one([]float32{treeReduceT(d, f)}), true
	case []bool:
		f, ok := boolOp(op)
		if !ok {
			return nil, false
		}
		return one([]bool{foldT(d, f)}), true
	}
	return nil, false
}

func scanT[T any](dst, src []T, f func(a, b T) T) {
	if len(src) == 0 {
		return
	}
	acc := src[0]
	dst[0] = acc
	for i := 1; i < len(src); i++ {
		acc = f(acc, src[i])
		dst[i] = acc
	}
}

func scanInts[T integer](dst, src []T, op value.BinOp) bool {
	f, ok := intOp[T](op)
	if ok {
		scanT(dst, src, f)
	}
	return ok
}

// nativeScan computes the inclusive scan of xs into out.
func nativeScan(op value.BinOp, xs, out *value.Array) bool {
	switch d := xs.Data.(type) {
	case []int8:
		return scanInts(out.Data.([]int8), d, op)
	case []int16:
		return scanInts(out.Data.([]int16), d, op)
	case []int32:
		return scanInts(out.Data.([]int32), d, op)
	case []int64:
		return scanInts(out.Data.([]int64), d, op)
	case []uint8:
		return scanInts(out.Data.([]uint8), d, op)
	case []uint16:
		return scanInts(out.Data.([]uint16), d, op)
	case []uint32:
		return scanInts(out.Data.([]uint32), d, op)
	case []uint64:
		return scanInts(out.Data.([]uint64), d, op)
	case []float64:
		f, ok := f64Op(op)
		if ok {
			scanT(out.Data.([]float64), d, f)
		}
		return ok
	case []float32:
		f, ok := f32Op(op, xs.T == value.F16)
		if ok {
			scanT(out.Data.([]float32), d, f)
		}
		return ok
	case []bool:
		f, ok := boolOp(op)
		if ok {
			scanT(out.Data.([]bool), d, f)
		}
		return ok
	}
	return false
}

func histT[T any](dest, vs []T, is []int64, f func(a, b T) T) int64 {
	var apps int64
	k := int64(len(dest))
	for j, i := range is {
		if i >= 0 && i < k {
			dest[i] = f(dest[i], vs[j])
			apps++
		}
	}
	return apps
}

func histInts[T integer](dest, vs []T, is []int64, op value.BinOp) (int64, bool) {
	f, ok := intOp[T](op)
	if !ok {
		return 0, false
	}
	return histT(dest, vs, is, f), true
}

// nativeHist combines vs into the bins of dest (in place) by is; it
// returns the number of applications (in-bounds indices).
func nativeHist(op value.BinOp, dest, is, vs *value.Array) (int64, bool) {
	idx, ok := is.Data.([]int64)
	if !ok {
		return 0, false
	}
	switch d := dest.Data.(type) {
	case []int32:
		return histInts(d, vs.Data.([]int32), idx, op)
	case []int64:
		return histInts(d, vs.Data.([]int64), idx, op)
	case []uint8:
		return histInts(d, vs.Data.([]uint8), idx, op)
	case []uint32:
		return histInts(d, vs.Data.([]uint32), idx, op)
	case []float64:
		f, ok := f64Op(op)
		if !ok {
			return 0, false
		}
		return histT(d, vs.Data.([]float64), idx, f), true
	case []float32:
		f, ok := f32Op(op, dest.T == value.F16)
		if !ok {
			return 0, false
		}
		return histT(d, vs.Data.([]float32), idx, f), true
	}
	return 0, false
}
