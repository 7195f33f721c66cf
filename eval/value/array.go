package value

import (
	"errors"
	"fmt"
)

// ArrayKind says how an array stores its elements.
type ArrayKind uint8

const (
	KPrim   ArrayKind = iota // flat typed slice in Data
	KTuple                   // one array per component in Fields
	KRecord                  // one array per field in Fields, named by Names
	KBoxed                   // one Value per element in Boxed (sums, functions)
)

// Array is a multidimensional array of row-major elements.
//
// For KPrim, Data holds prod(Shape) elements of type T. For KTuple and
// KRecord, Shape is the outer shape shared by every component; each
// component array has Shape as a prefix of its own shape. For KBoxed,
// Boxed holds prod(Shape) rank-0 element values.
type Array struct {
	Shape  []int64
	Kind   ArrayKind
	T      PrimType
	Data   any
	Fields []*Array
	Names  []string
	Boxed  []Value
	// Frozen marks an array whose buffer may be shared: bound at the top
	// level, an argument of zip (whose unique result holds it), or a view
	// (Index, Slice and Reshape make every view frozen: the checker lets a
	// view of a zip's argument be consumed while the zip is live).
	// Consuming it copies the buffer first, so a frozen buffer is never
	// written.
	Frozen bool
	// Bound marks a frozen array bound at the top level (by a name, or
	// inside a value bound to one), whose header lives as long as the
	// binding: the REPL's cache of arrays on the device keeps only these
	// (a view made by an evaluation is a new header each time).
	Bound bool
	// Untyped marks an empty array whose element type nobody knew when it
	// was made (a map over nothing): [0]i32 stands in until a caller that
	// knows the type replaces it.
	Untyped bool
}

// IsFrozen reports whether a's buffers may be shared with a frozen array:
// a is marked Frozen, or one of its components is (an array of tuples
// that zip made of frozen arrays is not marked itself). A consumption of
// a (an in-place update, a scatter's or a histogram's destination)
// copies it first when it is.
func (a *Array) IsFrozen() bool {
	if a.Frozen {
		return true
	}
	for _, f := range a.Fields {
		if f.IsFrozen() {
			return true
		}
	}
	return false
}

// NewPrimArray allocates a zeroed primitive array.
func NewPrimArray(t PrimType, shape []int64) *Array {
	return &Array{Shape: shape, T: t, Data: MakeData(t, int(prod(shape)))}
}

// NewPrimArrayData wraps data (not copied).
func NewPrimArrayData(t PrimType, shape []int64, data any) *Array {
	return &Array{Shape: shape, T: t, Data: data}
}

func prod(s []int64) int64 {
	n := int64(1)
	for _, d := range s {
		n *= d
	}
	return n
}

// Len is the outer size.
func (a *Array) Len() int64 { return a.Shape[0] }

// Rank is the number of dimensions (of the outer, compound-level shape).
func (a *Array) Rank() int { return len(a.Shape) }

// NumElems is the product of the shape.
func (a *Array) NumElems() int64 { return prod(a.Shape) }

// FullShape is the shape including the inner dimensions of a compound
// array's components (the first component's); for KPrim it is Shape.
func (a *Array) FullShape() []int64 {
	if (a.Kind == KTuple || a.Kind == KRecord) && len(a.Fields) > 0 {
		return a.Fields[0].FullShape()
	}
	return a.Shape
}

// Words is ‖a‖ per the cost model.
func (a *Array) Words() int64 {
	switch a.Kind {
	case KPrim:
		return prod(a.Shape) + int64(len(a.Shape))
	case KTuple, KRecord:
		var s int64
		for _, f := range a.Fields {
			s += f.Words()
		}
		return s
	}
	s := int64(len(a.Shape))
	for _, v := range a.Boxed {
		s += Size(v)
	}
	return s
}

// rowSize is the number of flat elements in one row.
func (a *Array) rowSize() int { return int(prod(a.Shape[1:])) }

// Index returns element or row i (0 ≤ i < Len, not checked). Rows are
// views, frozen (Array.Frozen).
func (a *Array) Index(i int64) Value {
	switch a.Kind {
	case KPrim:
		if len(a.Shape) == 1 {
			return DataGet(a.T, a.Data, int(i))
		}
		rs := a.rowSize()
		return &Array{Shape: a.Shape[1:], T: a.T, Data: DataSlice(a.Data, int(i)*rs, int(i+1)*rs), Frozen: true}
	case KTuple, KRecord:
		if len(a.Shape) == 1 && a.Kind == KRecord && len(a.Fields) <= 4 {
			// a small record and its fields in one allocation
			rb := &struct {
				r   Record
				buf [4]Value
			}{}
			fs := rb.buf[:len(a.Fields):len(a.Fields)]
			for k, f := range a.Fields {
				fs[k] = f.Index(i)
			}
			rb.r = Record{Names: a.Names, Fields: fs}
			return &rb.r
		}
		fs := make([]Value, len(a.Fields))
		for k, f := range a.Fields {
			fs[k] = f.Index(i)
		}
		if len(a.Shape) == 1 {
			if a.Kind == KTuple {
				return Tuple(fs)
			}
			return &Record{Names: a.Names, Fields: fs}
		}
		return &Array{Shape: a.Shape[1:], Kind: a.Kind, Names: a.Names, Fields: arrays(fs), Frozen: true}
	}
	if len(a.Shape) == 1 {
		return a.Boxed[i]
	}
	rs := a.rowSize()
	return &Array{Shape: a.Shape[1:], Kind: KBoxed, Boxed: a.Boxed[int(i)*rs : int(i+1)*rs : int(i+1)*rs], Frozen: true}
}

func arrays(vs []Value) []*Array {
	out := make([]*Array, len(vs))
	for i, v := range vs {
		out[i] = v.(*Array)
	}
	return out
}

// Slice returns rows [lo, hi) as a view, frozen (Array.Frozen).
func (a *Array) Slice(lo, hi int64) *Array {
	shape := append([]int64{hi - lo}, a.Shape[1:]...)
	switch a.Kind {
	case KPrim:
		rs := int64(a.rowSize())
		return &Array{Shape: shape, T: a.T, Data: DataSlice(a.Data, int(lo*rs), int(hi*rs)), Frozen: true}
	case KTuple, KRecord:
		fs := make([]*Array, len(a.Fields))
		for k, f := range a.Fields {
			fs[k] = f.Slice(lo, hi)
		}
		return &Array{Shape: shape, Kind: a.Kind, Names: a.Names, Fields: fs, Frozen: true}
	}
	rs := int64(a.rowSize())
	return &Array{Shape: shape, Kind: KBoxed, Boxed: a.Boxed[lo*rs : hi*rs : hi*rs], Frozen: true}
}

// Gather returns the rows at idx (a fresh array); used for strided slices.
func (a *Array) Gather(idx []int64) *Array {
	n := int64(len(idx))
	shape := append([]int64{n}, a.Shape[1:]...)
	switch a.Kind {
	case KPrim:
		rs := a.rowSize()
		out := NewPrimArray(a.T, shape)
		for k, i := range idx {
			DataCopy(out.Data, k*rs, DataSlice(a.Data, int(i)*rs, int(i+1)*rs))
		}
		return out
	case KTuple, KRecord:
		fs := make([]*Array, len(a.Fields))
		for k, f := range a.Fields {
			fs[k] = f.Gather(idx)
		}
		return &Array{Shape: shape, Kind: a.Kind, Names: a.Names, Fields: fs}
	}
	rs := a.rowSize()
	out := make([]Value, 0, int(n)*rs)
	for _, i := range idx {
		out = append(out, a.Boxed[int(i)*rs:int(i+1)*rs]...)
	}
	return &Array{Shape: shape, Kind: KBoxed, Boxed: out}
}

// Copy returns a fresh deep copy that owns its buffer.
func (a *Array) Copy() *Array {
	switch a.Kind {
	case KPrim:
		out := NewPrimArray(a.T, append([]int64(nil), a.Shape...))
		DataCopy(out.Data, 0, a.Data)
		return out
	case KTuple, KRecord:
		fs := make([]*Array, len(a.Fields))
		for k, f := range a.Fields {
			fs[k] = f.Copy()
		}
		return &Array{Shape: append([]int64(nil), a.Shape...), Kind: a.Kind, Names: a.Names, Fields: fs}
	}
	return &Array{Shape: append([]int64(nil), a.Shape...), Kind: KBoxed, Boxed: append([]Value(nil), a.Boxed...)}
}

// SetRow writes v (an element or a row of matching shape) at row i, in
// place. The caller has checked bounds and owns the buffer.
func (a *Array) SetRow(i int64, v Value) error {
	switch a.Kind {
	case KPrim:
		if _, dual := v.(Dual); dual || isBoxedArray(v) {
			a.box()
			return a.SetRow(i, v)
		}
		if len(a.Shape) == 1 {
			p, ok := v.(Prim)
			if !ok {
				return errors.New("cannot store a non-scalar in an array of scalars")
			}
			DataSet(a.Data, int(i), p)
			return nil
		}
		r, ok := v.(*Array)
		if !ok || r.Kind != KPrim || !sameShape(r.Shape, a.Shape[1:]) {
			return fmt.Errorf("value of shape %s does not fit a row of shape %s", ShapeString(shapeOf(v)), ShapeString(a.Shape[1:]))
		}
		rs := a.rowSize()
		DataCopy(a.Data, int(i)*rs, r.Data)
		return nil
	case KTuple, KRecord:
		var comps []Value
		switch v := v.(type) {
		case Tuple:
			comps = v
		case *Record:
			comps = v.Fields
		case *Array:
			if v.Kind != a.Kind {
				return errors.New("row kind mismatch")
			}
			for _, f := range v.Fields {
				comps = append(comps, f)
			}
		}
		if len(comps) != len(a.Fields) {
			return errors.New("row does not match the array's element type")
		}
		for k, f := range a.Fields {
			if err := f.SetRow(i, comps[k]); err != nil {
				return err
			}
		}
		return nil
	}
	if len(a.Shape) == 1 {
		a.Boxed[i] = v
		return nil
	}
	r, ok := v.(*Array)
	if !ok || !sameShape(r.Shape, a.Shape[1:]) {
		return errors.New("row shape mismatch")
	}
	if r.Kind == KPrim {
		r = r.Copy()
		r.box()
	}
	rs := a.rowSize()
	copy(a.Boxed[int(i)*rs:], r.Boxed)
	return nil
}

func sameShape(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func shapeOf(v Value) []int64 {
	if a, ok := v.(*Array); ok {
		return a.FullShape()
	}
	return nil
}

// ShapeOf is v's full shape (nil for non-arrays).
func ShapeOf(v Value) []int64 { return shapeOf(v) }

// ShapeString prints [2][3].
func ShapeString(s []int64) string {
	out := ""
	for _, d := range s {
		out += fmt.Sprintf("[%d]", d)
	}
	return out
}

// FromValues builds an array whose rows are vs (all of one shape and
// kind). It fails on an irregular or mixed list. With no rows it builds an
// empty array from the template row elem (which may be nil: [0]i32 is used
// then; callers that know better pass a template).
func FromValues(vs []Value, elem Value) (*Array, error) {
	n := int64(len(vs))
	if n == 0 {
		return EmptyLike(elem), nil
	}
	switch v0 := vs[0].(type) {
	case Prim:
		d := MakeData(v0.T, int(n))
		for i, v := range vs {
			p, ok := v.(Prim)
			if _, dual := v.(Dual); dual {
				return &Array{Shape: []int64{n}, Kind: KBoxed, Boxed: append([]Value(nil), vs...)}, nil
			}
			if !ok || p.T != v0.T {
				return nil, errors.New("array elements of different types")
			}
			DataSet(d, i, p)
		}
		return &Array{Shape: []int64{n}, T: v0.T, Data: d}, nil
	case *Array:
		shape := append([]int64{n}, v0.Shape...)
		if mixedBoxing(vs) {
			boxed := make([]Value, len(vs))
			for i, v := range vs {
				r := v.(*Array)
				if r.Kind == KPrim {
					r = r.Copy()
					r.box()
				}
				boxed[i] = r
			}
			vs, v0 = boxed, boxed[0].(*Array)
		}
		for _, v := range vs {
			r, ok := v.(*Array)
			if !ok || r.Kind != v0.Kind || !sameShape(r.Shape, v0.Shape) || (r.Kind == KPrim && r.T != v0.T) {
				return nil, fmt.Errorf("irregular array: rows of shape %s and %s", ShapeString(v0.FullShape()), ShapeString(shapeOf(v)))
			}
		}
		switch v0.Kind {
		case KPrim:
			rs := int(prod(v0.Shape))
			d := MakeData(v0.T, int(n)*rs)
			for i, v := range vs {
				DataCopy(d, i*rs, v.(*Array).Data)
			}
			return &Array{Shape: shape, T: v0.T, Data: d}, nil
		case KTuple, KRecord:
			fs := make([]*Array, len(v0.Fields))
			for k := range fs {
				rows := make([]Value, n)
				for i, v := range vs {
					rows[i] = v.(*Array).Fields[k]
				}
				f, err := FromValues(rows, nil)
				if err != nil {
					return nil, err
				}
				fs[k] = f
			}
			return &Array{Shape: shape, Kind: v0.Kind, Names: v0.Names, Fields: fs}, nil
		}
		var bx []Value
		for _, v := range vs {
			bx = append(bx, v.(*Array).Boxed...)
		}
		return &Array{Shape: shape, Kind: KBoxed, Boxed: bx}, nil
	case Tuple:
		fs, err := columns(vs, len(v0), func(v Value) ([]Value, bool) {
			t, ok := v.(Tuple)
			return t, ok
		})
		if err != nil {
			return nil, err
		}
		return &Array{Shape: []int64{n}, Kind: KTuple, Fields: fs}, nil
	case *Record:
		fs, err := columns(vs, len(v0.Fields), func(v Value) ([]Value, bool) {
			r, ok := v.(*Record)
			if !ok || len(r.Names) != len(v0.Names) {
				return nil, false
			}
			return r.Fields, true
		})
		if err != nil {
			return nil, err
		}
		return &Array{Shape: []int64{n}, Kind: KRecord, Names: v0.Names, Fields: fs}, nil
	}
	return &Array{Shape: []int64{n}, Kind: KBoxed, Boxed: append([]Value(nil), vs...)}, nil
}

func columns(vs []Value, k int, get func(Value) ([]Value, bool)) ([]*Array, error) {
	cols := make([][]Value, k)
	for _, v := range vs {
		c, ok := get(v)
		if !ok || len(c) != k {
			return nil, errors.New("array elements of different types")
		}
		for j := range cols {
			cols[j] = append(cols[j], c[j])
		}
	}
	fs := make([]*Array, k)
	for j := range cols {
		f, err := FromValues(cols[j], nil)
		if err != nil {
			return nil, err
		}
		fs[j] = f
	}
	return fs, nil
}

// EmptyLike is an array of zero rows whose rows are shaped like elem.
func EmptyLike(elem Value) *Array {
	return Replicate(0, elem)
}

// Replicate builds [n]elem (a fresh array).
func Replicate(n int64, elem Value) *Array {
	switch e := elem.(type) {
	case nil:
		return &Array{Shape: []int64{n}, T: I32, Data: MakeData(I32, int(n)), Untyped: true}
	case Prim:
		a := NewPrimArray(e.T, []int64{n})
		if e.B != 0 {
			fillData(a.Data, e)
		}
		return a
	case *Array:
		shape := append([]int64{n}, e.Shape...)
		switch e.Kind {
		case KPrim:
			out := NewPrimArray(e.T, shape)
			rs := int(prod(e.Shape))
			for i := int64(0); i < n; i++ {
				DataCopy(out.Data, int(i)*rs, e.Data)
			}
			return out
		case KTuple, KRecord:
			fs := make([]*Array, len(e.Fields))
			for k, f := range e.Fields {
				fs[k] = Replicate(n, f)
			}
			return &Array{Shape: shape, Kind: e.Kind, Names: e.Names, Fields: fs}
		}
		bx := make([]Value, 0, int(n)*len(e.Boxed))
		for i := int64(0); i < n; i++ {
			bx = append(bx, e.Boxed...)
		}
		return &Array{Shape: shape, Kind: KBoxed, Boxed: bx}
	case Tuple:
		fs := make([]*Array, len(e))
		for k, f := range e {
			fs[k] = Replicate(n, f)
		}
		return &Array{Shape: []int64{n}, Kind: KTuple, Fields: fs}
	case *Record:
		fs := make([]*Array, len(e.Fields))
		for k, f := range e.Fields {
			fs[k] = Replicate(n, f)
		}
		return &Array{Shape: []int64{n}, Kind: KRecord, Names: e.Names, Fields: fs}
	}
	bx := make([]Value, n)
	for i := range bx {
		bx[i] = elem
	}
	return &Array{Shape: []int64{n}, Kind: KBoxed, Boxed: bx}
}

func fillData(d any, p Prim) {
	n := DataLen(d)
	for i := 0; i < n; i++ {
		DataSet(d, i, p)
	}
}

// Concat joins arrays along the outer dimension (rows must agree).
func Concat(as []*Array) (*Array, error) {
	// empty arrays of unknown type take the type of the others
	var typed []*Array
	for _, a := range as {
		if !(a.Untyped && a.NumElems() == 0) {
			typed = append(typed, a)
		}
	}
	if len(typed) == 0 {
		return as[0], nil
	}
	as = typed
	a0 := as[0]
	var n int64
	for _, a := range as {
		if a.Kind != a0.Kind || a.T != a0.T || !sameShape(a.Shape[1:], a0.Shape[1:]) || len(a.Fields) != len(a0.Fields) {
			return nil, fmt.Errorf("cannot concatenate arrays of shape %s and %s", ShapeString(a0.FullShape()), ShapeString(a.FullShape()))
		}
		n += a.Shape[0]
	}
	shape := append([]int64{n}, a0.Shape[1:]...)
	switch a0.Kind {
	case KPrim:
		out := NewPrimArray(a0.T, shape)
		off := 0
		for _, a := range as {
			off += DataCopy(out.Data, off, a.Data)
		}
		return out, nil
	case KTuple, KRecord:
		fs := make([]*Array, len(a0.Fields))
		for k := range fs {
			parts := make([]*Array, len(as))
			for i, a := range as {
				parts[i] = a.Fields[k]
			}
			f, err := Concat(parts)
			if err != nil {
				return nil, err
			}
			fs[k] = f
		}
		return &Array{Shape: shape, Kind: a0.Kind, Names: a0.Names, Fields: fs}, nil
	}
	var bx []Value
	for _, a := range as {
		bx = append(bx, a.Boxed...)
	}
	return &Array{Shape: shape, Kind: KBoxed, Boxed: bx}, nil
}

// Reshape views a (of any rank) with a new shape of equal element count;
// for compound arrays only the outer (compound-level) shape changes.
func (a *Array) Reshape(shape []int64) *Array {
	switch a.Kind {
	case KPrim:
		return &Array{Shape: shape, T: a.T, Data: a.Data, Frozen: true}
	case KTuple, KRecord:
		fs := make([]*Array, len(a.Fields))
		for k, f := range a.Fields {
			fs[k] = f.Reshape(append(append([]int64(nil), shape...), f.Shape[len(a.Shape):]...))
		}
		return &Array{Shape: shape, Kind: a.Kind, Names: a.Names, Fields: fs, Frozen: true}
	}
	return &Array{Shape: shape, Kind: KBoxed, Boxed: a.Boxed, Frozen: true}
}

// Transpose swaps the two outer dimensions (a fresh array).
func (a *Array) Transpose() *Array {
	n, m := a.Shape[0], a.Shape[1]
	inner := a.Shape[2:]
	shape := append([]int64{m, n}, inner...)
	switch a.Kind {
	case KTuple, KRecord:
		fs := make([]*Array, len(a.Fields))
		for k, f := range a.Fields {
			fs[k] = f.Transpose()
		}
		return &Array{Shape: shape, Kind: a.Kind, Names: a.Names, Fields: fs}
	case KBoxed:
		rs := int(prod(inner))
		bx := make([]Value, len(a.Boxed))
		for i := 0; i < int(n); i++ {
			for j := 0; j < int(m); j++ {
				copy(bx[(j*int(n)+i)*rs:], a.Boxed[(i*int(m)+j)*rs:(i*int(m)+j+1)*rs])
			}
		}
		return &Array{Shape: shape, Kind: KBoxed, Boxed: bx}
	}
	out := NewPrimArray(a.T, shape)
	rs := int(prod(inner))
	if rs == 1 {
		transposeData(out.Data, a.Data, int(n), int(m))
		return out
	}
	for i := 0; i < int(n); i++ {
		for j := 0; j < int(m); j++ {
			DataCopy(out.Data, (j*int(n)+i)*rs, DataSlice(a.Data, (i*int(m)+j)*rs, (i*int(m)+j+1)*rs))
		}
	}
	return out
}

func transposeData(dst, src any, n, m int) {
	switch s := src.(type) {
	case []float64:
		transposeT(dst.([]float64), s, n, m)
	case []float32:
		transposeT(dst.([]float32), s, n, m)
	case []int32:
		transposeT(dst.([]int32), s, n, m)
	case []int64:
		transposeT(dst.([]int64), s, n, m)
	default:
		t := NoPrim
		for i := 0; i < n; i++ {
			for j := 0; j < m; j++ {
				DataSet(dst, j*n+i, DataGet(t, src, i*m+j))
			}
		}
	}
}

func transposeT[T any](dst, src []T, n, m int) {
	for i := 0; i < n; i++ {
		row := src[i*m : (i+1)*m]
		for j, x := range row {
			dst[j*n+i] = x
		}
	}
}

// Elems returns the rows of a as values (scalars for a 1-d primitive array).
func (a *Array) Elems() []Value {
	out := make([]Value, a.Shape[0])
	for i := range out {
		out[i] = a.Index(int64(i))
	}
	return out
}

func isBoxedArray(v Value) bool {
	a, ok := v.(*Array)
	return ok && a.Kind == KBoxed
}

// box turns a primitive array into a boxed one in place (to hold Duals).
func (a *Array) box() {
	n := DataLen(a.Data)
	bx := make([]Value, n)
	for i := range bx {
		bx[i] = DataGet(a.T, a.Data, i)
	}
	a.Kind, a.Boxed, a.Data = KBoxed, bx, nil
}

// mixedBoxing reports whether vs mixes primitive and boxed arrays (as
// happens when some rows hold Duals).
func mixedBoxing(vs []Value) bool {
	var prim, boxed bool
	for _, v := range vs {
		if r, ok := v.(*Array); ok {
			prim = prim || r.Kind == KPrim
			boxed = boxed || r.Kind == KBoxed
		}
	}
	return prim && boxed
}
