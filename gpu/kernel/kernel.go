// Package kernel is the kernel IR of the offload path: what gpu/flatten
// produces and gpu/opencl turns into OpenCL C.
//
// Input: built by gpu/flatten (or by hand in tests). Output: a *Kernel.
// A kernel has parameters (global buffers and scalars of primitive types)
// and one Shape: Map, Reduce, Scan, Scatter or Hist. Bodies are lists of
// scalar statements in SSA form: every Var is bound once (by Let, a loop
// parameter, an If result, or the shape's index variables) and names are
// unique within a kernel. Expressions are evaluated eagerly (both arms of a
// Select, both sides of && and ||); a guarded read must sit in an If. Every
// Read and Write is bounds-checked against its buffer's Shape: a failed
// check sets the kernel's error flag (read by the runtime after the launch)
// instead of touching memory. Integer arithmetic follows Futhark: / and %
// round toward negative infinity, // and %% truncate, overflow wraps.
package kernel

import "fmt"

// Type is a primitive type.
type Type uint8

// The primitive types.
const (
	NoType Type = iota
	Bool
	I8
	I16
	I32
	I64
	U8
	U16
	U32
	U64
	F16
	F32
	F64
)

var typeNames = [...]string{"?", "bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "f32", "f64"}

func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return fmt.Sprintf("type(%d)", t)
}

// ParseType is the inverse of String (NoType when unknown).
func ParseType(s string) Type {
	for i, n := range typeNames {
		if n == s && i > 0 {
			return Type(i)
		}
	}
	return NoType
}

func (t Type) IsInt() bool      { return t >= I8 && t <= U64 }
func (t Type) IsSigned() bool   { return t >= I8 && t <= I64 }
func (t Type) IsUnsigned() bool { return t >= U8 && t <= U64 }
func (t Type) IsFloat() bool    { return t >= F16 && t <= F64 }

// Size is the size in bytes of one element in a device buffer (bool: 1).
func (t Type) Size() int {
	switch t {
	case Bool, I8, U8:
		return 1
	case I16, U16, F16:
		return 2
	case I32, U32, F32:
		return 4
	}
	return 8
}

// Bits is the width of the type in bits.
func (t Type) Bits() int { return 8 * t.Size() }

// Param is a kernel parameter: a global buffer (with its shape, in
// expressions over scalar parameters and constants) or a scalar.
type Param struct {
	Name   string
	T      Type
	Buffer bool
	Shape  []Exp // buffers only: the dimensions, row-major
}

// Scalar makes a scalar parameter.
func Scalar(name string, t Type) *Param { return &Param{Name: name, T: t} }

// Buf makes a buffer parameter of the given shape.
func Buf(name string, t Type, shape ...Exp) *Param {
	return &Param{Name: name, T: t, Buffer: true, Shape: shape}
}

// V is the parameter as a variable (scalars only).
func (p *Param) V() Var { return Var{p.Name, p.T} }

// Kernel is one offloaded operation.
type Kernel struct {
	Name   string // a C identifier prefix; must be unique per program
	Params []*Param
	Shape  Shape
	// Sites are the source positions its statements' Site fields number
	// (from 1).
	Sites []Site
}

// AddSite is the number of the site s, added to k.Sites if new (0 for
// an unknown position).
func (k *Kernel) AddSite(s Site) int {
	if s.Where == "" && s.Msg == "" {
		return 0
	}
	for i, t := range k.Sites {
		if t == s {
			return i + 1
		}
	}
	k.Sites = append(k.Sites, s)
	return len(k.Sites)
}

// Shape is one of *Map, *Reduce, *Scan, *Scatter, *Hist.
type Shape interface{ shape() }

// Map runs Body once per point of the index space Dims (a perfect map
// nest); Body writes its results with Write statements.
type Map struct {
	Dims []Exp
	Idx  []Var // i64, one per dimension
	Body []Stmt
}

// Lambda is an associative binary operator on tuples of scalars:
// (X…) ⊕ (Y…) = Res, computed by Body.
type Lambda struct {
	X, Y []Var
	Body []Stmt
	Res  []Exp
}

// Reduce is a (segmented) map-reduce: for each segment s < Segments
// (nil: one segment) and i < N, Body computes Elems; these are reduced
// with Op from Neutral, and Out[k][s] receives component k. Comm says Op is
// also commutative (the reduction may then reorder elements).
type Reduce struct {
	Segments Exp // nil for 1
	N        Exp // elements per segment
	Seg, I   Var // i64
	Body     []Stmt
	Elems    []Exp
	Op       Lambda
	Neutral  []Exp
	Comm     bool
	Out      []*Param
}

// Scan is an inclusive map-scan: Out[k][i] = component k of
// Elems(0) ⊕ … ⊕ Elems(i), for i < N. Comm says Op is also commutative
// (the per-group totals may then be read in a coalesced order).
type Scan struct {
	N       Exp
	I       Var
	Body    []Stmt
	Elems   []Exp
	Op      Lambda
	Neutral []Exp
	Comm    bool
	Out     []*Param
	// Keep (optional) makes the scan a filter's compaction, in one pass
	// over the elements: Elems is one integer component, 1 where element
	// I is kept and 0 where it is not, with + for Op, and the scan itself
	// is not written (Out is empty); see Keep.
	Keep *Keep
}

// Keep is what a compaction writes: every kept element I writes Vals[k]
// (computed by the scan's Body) to Dest[k] at the number of elements
// kept before it, so that the kept elements come first, in order; and
// Count[0] (i64) receives the number of elements kept. Dest[k] holds as
// many elements as the scan has (the most that can be kept).
type Keep struct {
	Vals  []Exp
	Dest  []*Param // one-dimensional
	Count *Param
}

// Scatter writes Dest[k][Idx[k]] = Vals[k] for every i < N; writes whose
// index is outside Dest[k] are ignored (Futhark's scatter).
type Scatter struct {
	N    Exp
	I    Var
	Body []Stmt
	Dest []*Param // one-dimensional
	Idx  []Exp    // i64
	Vals []Exp
}

// Hist is a generalised histogram (reduce_by_index): for every i < N,
// Dest[Bin] = Dest[Bin] ⊕ Val, ignoring bins outside Dest. OpName is
// "+", "min" or "max" when Op is that operator (atomics may then be used),
// "" otherwise. Op must be associative and commutative.
type Hist struct {
	N       Exp
	I       Var
	Body    []Stmt
	Dest    *Param // one-dimensional
	Bin     Exp    // i64
	Val     Exp
	Op      Lambda // one component
	OpName  string
	Neutral Exp
}

// Tiled is a map over one or two dimensions (Dims, the point Idx) whose
// every point folds, in order, the elements Elems that Body computes for
// T < K with Op from Neutral, writing component k to Out[k] at the point
// (row-major): a matrix product, all-pairs interactions. The reads of Body
// from the buffers Tiles are of the forms buf[T], buf[Idx[d], T] or
// buf[T, Idx[d]] over the whole buffer (its shape is K, or K and Dims[d]);
// the work-group stages them through local memory a block at a time, so
// each element is read from global memory once per block of points rather
// than once per point (block tiling), and each thread computes several
// points (register tiling).
type Tiled struct {
	Dims    []Exp
	Idx     []Var // i64, one per dimension
	K       Exp
	T       Var // i64
	Body    []Stmt
	Elems   []Exp
	Op      Lambda
	Neutral []Exp
	Out     []*Param
	Tiles   []*Param
	// Post (optional) computes a point's results PostRes from its folds'
	// results, bound to PostIn (one per component), before they are
	// written to Out (one per PostRes): a square root of a sum of squares.
	PostIn  []Var
	Post    []Stmt
	PostRes []Exp
}

func (*Map) shape()     {}
func (*Tiled) shape()   {}
func (*Reduce) shape()  {}
func (*Scan) shape()    {}
func (*Scatter) shape() {}
func (*Hist) shape()    {}

// ShapeName is "map", "reduce", "scan", "filter" (a compacting scan),
// "scatter", "hist" or "tiled".
func ShapeName(s Shape) string {
	switch s.(type) {
	case *Map:
		return "map"
	case *Reduce:
		return "reduce"
	case *Scan:
		if s.(*Scan).Keep != nil {
			return "filter"
		}
		return "scan"
	case *Scatter:
		return "scatter"
	case *Hist:
		return "hist"
	case *Tiled:
		return "tiled"
	}
	return "?"
}
