package eval

import (
	"math"
	"strings"

	"fut/eval/value"
	"fut/interp/syntax"
)

// What the scalar kernels (kernel_flat*.go) and the SOACs that run them
// share: where a value of scalars lives (kval: a scalar's register, or
// the fields of a record or tuple), the frame that holds such values in
// the slots the closure compiler gave the locals of an inlined body,
// bound by the shapes it gave their patterns (kframe), the layouts of arrays of records and tuples, and the scalar
// intrinsics that are built-in operators (intrinsicBinOps).

// kframe holds the locals of one inlined body while a kernel is
// compiled: the kval of each slot of the body's frame, as the closure
// compiler resolved its names (resolution, compile_res.go).
type kframe struct {
	res  *resolution
	vals []*kval
}

// frameOf is a frame for c's body, whose names ccomp resolved.
func (t *thread) frameOf(c *closure) *kframe {
	res := t.resolutionOf(c)
	return &kframe{res: res, vals: make([]*kval, res.nslots)}
}

// local is the kval of the local x uses, or of the field path the rest
// of its name gives in it (ok false when that is no field, or nothing
// is bound there); local is false for a free name.
func (fr *kframe) local(x *syntax.Var) (v *kval, local, ok bool) {
	s, known := fr.res.uses[x]
	if !known {
		return nil, true, false // not compiled by ccomp: refused
	}
	if s == free {
		return nil, false, false
	}
	if v = fr.vals[s]; v == nil {
		return nil, true, false // a slot the kernel does not bind (a size)
	}
	_, path := headPath(x.Name)
	for _, p := range path {
		if v, ok = v.field(p); !ok {
			return nil, true, false
		}
	}
	return v, true, true
}

// isFree reports whether x names no local of the body (ccomp resolved it
// to the closure's environment).
func (fr *kframe) isFree(x *syntax.Var) bool {
	s, known := fr.res.uses[x]
	return known && s == free
}

// bindPat binds the names of an irrefutable pattern to the parts of v,
// as ccomp compiled the pattern (pshape); false where it did not, or v
// has not the pattern's shape.
func (fr *kframe) bindPat(p syntax.Pat, v *kval) bool {
	s, ok := fr.res.pats[p]
	return ok && fr.bindShape(s, v)
}

func (fr *kframe) bindShape(s *pshape, v *kval) bool {
	switch s.kind {
	case pName:
		fr.vals[s.slot] = v
		return true
	case pWild:
		return true
	case pTuple:
		if v.scalar() || v.rec || len(v.fields) != len(s.parts) {
			return false
		}
		for i, q := range s.parts {
			if !fr.bindShape(q, v.fields[i]) {
				return false
			}
		}
		return true
	case pRecord:
		if v.scalar() || !v.rec || len(v.fields) != len(s.parts) {
			return false
		}
		for i, q := range s.parts {
			fv, ok := v.field(s.names[i])
			if !ok || !fr.bindShape(q, fv) {
				return false
			}
		}
		return true
	}
	return false
}

// bindCounter puts v in the slot of a for loop's counter.
func (fr *kframe) bindCounter(f *syntax.For, v *kval) bool {
	s, ok := fr.res.counters[f]
	if ok {
		fr.vals[s] = v
	}
	return ok
}

// intrinsicBinOps are the scalar intrinsics that are built-in operators.
var intrinsicBinOps = map[string]value.BinOp{
	"add": value.OpAdd, "sub": value.OpSub, "mul": value.OpMul, "div": value.OpDiv,
	"mod": value.OpMod, "quot": value.OpQuot, "rem": value.OpRem, "pow": value.OpPow,
	"min": value.OpMin, "max": value.OpMax, "eq": value.OpEq, "neq": value.OpNeq,
	"lt": value.OpLt, "le": value.OpLe, "gt": value.OpGt, "ge": value.OpGe,
	"and": value.OpAnd, "or": value.OpOr, "xor": value.OpXor, "shl": value.OpShl,
	"shr": value.OpShr, "lshr": value.OpUShr,
}

// intrinsicType is the result type of a scalar intrinsic.
func intrinsicType(name string, args []value.PrimType) value.PrimType {
	if strings.HasPrefix(name, "to_") {
		return value.ParsePrimType(name[3:])
	}
	if t, ok := value.FixedResult(name); ok {
		return t
	}
	if len(args) > 0 {
		return args[0]
	}
	return value.NoPrim
}

// kval is where a value of scalars lives: a scalar's register, or the
// fields of a record (names sorted as value.Record's) or tuple.
type kval struct {
	reg    int // a scalar's register; -1 for a record or tuple
	typ    value.PrimType
	rec    bool
	names  []string
	fields []*kval
}

func (v *kval) scalar() bool { return v.fields == nil }

// leaves appends the registers of v's scalars, in order.
func (v *kval) leaves(out []int) []int {
	if v.scalar() {
		return append(out, v.reg)
	}
	for _, f := range v.fields {
		out = f.leaves(out)
	}
	return out
}

func (v *kval) field(name string) (*kval, bool) {
	if v.scalar() {
		return nil, false
	}
	if v.rec {
		for i, n := range v.names {
			if n == name {
				return v.fields[i], true
			}
		}
		return nil, false
	}
	if k, ok := tupleIndex(name); ok && k < len(v.fields) {
		return v.fields[k], true
	}
	return nil, false
}

// sameShape reports whether v and w have the same fields.
func (v *kval) sameShape(w *kval) bool {
	if v.scalar() || w.scalar() {
		return v.scalar() && w.scalar()
	}
	if v.rec != w.rec || len(v.fields) != len(w.fields) {
		return false
	}
	for i := range v.fields {
		if v.rec && v.names[i] != w.names[i] || !v.fields[i].sameShape(w.fields[i]) {
			return false
		}
	}
	return true
}

// recordLayout is the layout of the elements of a 1-d array of records
// or tuples of scalars (nested ones too), and its scalar columns in the
// layout's order; nil when xs is not such an array.
func recordLayout(xs *value.Array) (*kval, []*value.Array) {
	if len(xs.Shape) != 1 {
		return nil, nil
	}
	var cols []*value.Array
	var walk func(a *value.Array) *kval
	walk = func(a *value.Array) *kval {
		switch a.Kind {
		case value.KPrim:
			if len(a.Shape) != 1 {
				return nil
			}
			cols = append(cols, a)
			return &kval{reg: -1, typ: a.T}
		case value.KTuple, value.KRecord:
			v := &kval{reg: -1, rec: a.Kind == value.KRecord, names: a.Names, fields: make([]*kval, len(a.Fields))}
			for i, f := range a.Fields {
				if v.fields[i] = walk(f); v.fields[i] == nil {
					return nil
				}
			}
			return v
		}
		return nil
	}
	if xs.Kind != value.KRecord && xs.Kind != value.KTuple {
		return nil, nil
	}
	v := walk(xs)
	if v == nil {
		return nil, nil
	}
	return v, cols
}

// array builds the array of layout v from its scalar columns, taken in
// order from cols.
func (v *kval) array(cols *[]*value.Array, n int64) *value.Array {
	if v.scalar() {
		a := (*cols)[0]
		*cols = (*cols)[1:]
		return a
	}
	fs := make([]*value.Array, len(v.fields))
	for i, f := range v.fields {
		fs[i] = f.array(cols, n)
	}
	kind := value.KTuple
	if v.rec {
		kind = value.KRecord
	}
	return &value.Array{Shape: []int64{n}, Kind: kind, Names: v.names, Fields: fs}
}

// value builds the value of layout v from its scalars, taken in order.
func (v *kval) value(ps *[]value.Prim) value.Value {
	if v.scalar() {
		p := (*ps)[0]
		*ps = (*ps)[1:]
		return p
	}
	fs := make([]value.Value, len(v.fields))
	for i, f := range v.fields {
		fs[i] = f.value(ps)
	}
	if v.rec {
		return &value.Record{Names: v.names, Fields: fs}
	}
	return value.Tuple(fs)
}

// headPath splits a qualified name into its first part and the field
// path after it (a.b.c: a, [b c]; a: a, nil).
func headPath(q syntax.QualName) (string, []string) {
	if len(q.Quals) == 0 {
		return q.Name, nil
	}
	return q.Quals[0], append(q.Quals[1:len(q.Quals):len(q.Quals)], q.Name)
}

// mkF64 is an f64 scalar.
func mkF64(x float64) value.Prim { return value.Prim{T: value.F64, B: math.Float64bits(x)} }
