package eval

import (
	"fmt"
	"strings"

	"fut/eval/value"
	"fut/interp/syntax"
)

// dimIdx is one evaluated index: a fixed position or a slice.
type dimIdx struct {
	fix              bool
	i                int64 // the position (fix)
	start, n, stride int64 // the slice: n elements from start by stride
	// as written, for messages: a:b:s with parts left out
	a, b, s          int64
	hasA, hasB, hasS bool
}

// String prints the index as written: 5, 2:7, ::-1.
func (d dimIdx) String() string {
	if d.fix {
		return fmt.Sprint(d.i)
	}
	text := ""
	if d.hasA {
		text += fmt.Sprint(d.a)
	}
	text += ":"
	if d.hasB {
		text += fmt.Sprint(d.b)
	}
	if d.hasS {
		text += ":" + fmt.Sprint(d.s)
	}
	return text
}

// evalIndicesBy evaluates the indices of a[…] by evInt (compiled code),
// left to right, against the array's shape, checking bounds in
// Futhark's words.
func (t *thread) evalIndicesBy(idxs []*syntax.DimIndex, shape []int64, evInt func(syntax.Expr) (int64, error), pos syntax.Pos) ([]dimIdx, error) {
	out := make([]dimIdx, len(idxs))
	bad := false
	for k, d := range idxs {
		dim := int64(-1)
		if k < len(shape) {
			dim = shape[k]
		}
		if d.Fix != nil {
			i, err := evInt(d.Fix)
			if err != nil {
				return nil, err
			}
			out[k] = dimIdx{fix: true, i: i}
			if !inBounds(i, dim) {
				bad = true
			}
			continue
		}
		var start, end, stride int64 = 0, dim, 1
		var hasStart, hasEnd bool
		var err error
		if d.Stride != nil {
			if stride, err = evInt(d.Stride); err != nil {
				return nil, err
			}
		}
		if d.Start != nil {
			if start, err = evInt(d.Start); err != nil {
				return nil, err
			}
			hasStart = true
		}
		if d.End != nil {
			if end, err = evInt(d.End); err != nil {
				return nil, err
			}
			hasEnd = true
		}
		if stride < 0 {
			if !hasStart {
				start = dim - 1
			}
			if !hasEnd {
				end = -1
			}
		}
		written := dimIdx{a: start, b: end, s: stride, hasA: hasStart, hasB: hasEnd, hasS: d.Stride != nil}
		// Futhark's rule: n = (j - i + (s - sgn s)) quot s; a slice of n = 0
		// is fine anywhere, otherwise forwards needs 0 ≤ i ≤ j and
		// backwards -1 ≤ j ≤ i, and the last element touched must be in
		// bounds.
		var n int64
		if stride == 0 {
			bad = true
		} else {
			sgn := int64(1)
			if stride < 0 {
				sgn = -1
			}
			n = (end - start + (stride - sgn)) / stride
			if n != 0 {
				last := start + (n-1)*stride
				if stride > 0 {
					bad = bad || !(0 <= start && start <= end && 0 <= last && last < dim)
				} else {
					bad = bad || !(-1 <= end && end <= start && 0 <= last && last < dim && start < dim)
				}
			}
			if n < 0 {
				n = 0
			}
		}
		if n == 0 {
			start = 0
		}
		written.start, written.n, written.stride = start, n, stride
		out[k] = written
	}
	if bad || len(idxs) > len(shape) {
		parts := make([]string, len(out))
		for k, d := range out {
			parts[k] = d.String()
		}
		return nil, t.errf(indexErrPos(idxs, pos), "Index [%s] out of bounds for array of shape %s.", strings.Join(parts, ", "), value.ShapeString(shape))
	}
	return out, nil
}

// inBounds is whether a fixed index i is in bounds in a dimension of
// n elements. The flat kernels' index (fcomp.index) checks each lane's
// indices by it, as evalIndicesBy checks compiled code's.
func inBounds(i, n int64) bool { return 0 <= i && i < n }

// rowMajor is the offset of element i of the row at offset off in rows
// of n elements: the offset of a[i0, …, ik] in a's data is rowMajor
// applied to i0, …, ik in turn from 0, as compiled code (scalarOffset)
// and the flat kernels' index (fcomp.index) compute it.
func rowMajor(off, n, i int64) int64 { return off*n + i }

// indexInt is the value v of the index expression x as an integer.
func (t *thread) indexInt(x syntax.Expr, v value.Value) (int64, error) {
	p, ok := primOf(v)
	if !ok || !p.T.IsInt() {
		return 0, t.errf(x.Pos(), "index is not an integer")
	}
	return p.Int(), nil
}

// indexBy is index with the index expressions evaluated by evInt.
func (t *thread) indexBy(v value.Value, idxs []*syntax.DimIndex, evInt func(syntax.Expr) (int64, error), pos syntax.Pos) (value.Value, error) {
	a, ok := v.(*value.Array)
	if !ok {
		return nil, t.errf(pos, "indexing a value that is not an array")
	}
	ds, err := t.evalIndicesBy(idxs, a.FullShape(), evInt, pos)
	if err != nil {
		return nil, err
	}
	return indexArray(a, ds), nil
}

// scalarOffset is the offset in the data of a, an array of scalars, of
// the scalar that the checked indices ds select, all fixed, one for each
// dimension; ok is false for any other a or ds.
func scalarOffset(a *value.Array, ds []dimIdx) (off int64, ok bool) {
	if a.Kind != value.KPrim || len(ds) != len(a.Shape) {
		return 0, false
	}
	for k, d := range ds {
		if !d.fix {
			return 0, false
		}
		off = rowMajor(off, a.Shape[k], d.i)
	}
	return off, true
}

// indexArray applies checked indices.
func indexArray(a *value.Array, ds []dimIdx) value.Value {
	if len(ds) == 0 {
		return a
	}
	if off, ok := scalarOffset(a, ds); ok {
		return value.DataGet(a.T, a.Data, int(off))
	}
	d := ds[0]
	if d.fix {
		r := a.Index(d.i)
		if len(ds) == 1 {
			return r
		}
		return indexArray(r.(*value.Array), ds[1:])
	}
	var sl *value.Array
	if d.stride == 1 {
		sl = a.Slice(d.start, d.start+d.n)
	} else {
		idx := make([]int64, d.n)
		for k := range idx {
			idx[k] = d.start + int64(k)*d.stride
		}
		sl = a.Gather(idx)
	}
	if len(ds) == 1 {
		return sl
	}
	rows := make([]value.Value, d.n)
	for k := range rows {
		rows[k] = indexArray(sl.Index(int64(k)).(*value.Array), ds[1:])
	}
	if d.n == 0 {
		// shape of an empty result: apply the rest to a phantom row
		return sl
	}
	r, _ := value.FromValues(rows, nil)
	return r
}

// updatePathBy updates the path of c to v (a with [i].f = v), with the
// index expressions evaluated by evInt (compiled code).
func (t *thread) updatePathBy(c value.Value, path []syntax.PathElem, v value.Value, evInt func(syntax.Expr) (int64, error), pos syntax.Pos) (value.Value, error) {
	if len(path) == 0 {
		return v, nil
	}
	el := path[0]
	if el.Field != "" {
		switch r := c.(type) {
		case *value.Record:
			old, ok := r.Field(el.Field)
			if !ok {
				return nil, t.errf(pos, "record has no field %s", el.Field)
			}
			nv, err := t.updatePathBy(old, path[1:], v, evInt, pos)
			if err != nil {
				return nil, err
			}
			return r.With(el.Field, nv), nil
		case value.Tuple:
			k, ok := tupleIndex(el.Field)
			if !ok || k >= len(r) {
				return nil, t.errf(pos, "tuple has no field %s", el.Field)
			}
			nv, err := t.updatePathBy(r[k], path[1:], v, evInt, pos)
			if err != nil {
				return nil, err
			}
			out := append(value.Tuple(nil), r...)
			out[k] = nv
			return out, nil
		}
		return nil, t.errf(pos, "updating field %s of a value that is not a record", el.Field)
	}
	a, ok := c.(*value.Array)
	if !ok {
		return nil, t.errf(pos, "in-place update of a value that is not an array")
	}
	ds, err := t.evalIndicesBy(el.Indices, a.FullShape(), evInt, el.Span.Start)
	if err != nil {
		return nil, err
	}
	if a.IsFrozen() {
		if err := t.checkCopy(pos, a); err != nil {
			return nil, err
		}
		a = a.Copy()
	}
	if len(path) > 1 {
		cur := indexArray(a, ds)
		nv, err := t.updatePathBy(cur, path[1:], v, evInt, pos)
		if err != nil {
			return nil, err
		}
		v = nv
	}
	if err := writeAt(a, ds, v); err != nil {
		return nil, t.errf(pos, "%v", err)
	}
	return a, nil
}

// writeAt stores v at the (checked) indices of a, in place.
func writeAt(a *value.Array, ds []dimIdx, v value.Value) error {
	d := ds[0]
	if d.fix {
		if len(ds) == 1 {
			return a.SetRow(d.i, v)
		}
		if off, ok := scalarOffset(a, ds); ok {
			if p, ok := v.(value.Prim); ok {
				value.DataSet(a.Data, int(off), p)
				return nil
			}
		}
		return writeAt(a.Index(d.i).(*value.Array), ds[1:], v)
	}
	src, ok := v.(*value.Array)
	if !ok || src.Shape[0] != d.n {
		return fmt.Errorf("value of shape %s does not fit the slice of %d elements", value.ShapeString(value.ShapeOf(v)), d.n)
	}
	for k := int64(0); k < d.n; k++ {
		rest := append([]dimIdx{{fix: true, i: d.start + k*d.stride}}, ds[1:]...)
		if err := writeAt(a, rest, src.Index(k)); err != nil {
			return err
		}
	}
	return nil
}

// indexErrPos is where a bounds error is reported: at the indices (the
// first of them), or at pos when they have no position.
func indexErrPos(idxs []*syntax.DimIndex, pos syntax.Pos) syntax.Pos {
	if len(idxs) > 0 && idxs[0].Pos().IsValid() {
		return idxs[0].Pos()
	}
	return pos
}
