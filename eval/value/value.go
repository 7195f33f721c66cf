// Package value holds fut's runtime values: primitive scalars, arrays stored
// as flat typed Go slices with their full shape, tuples, records, sum values
// and function values; and the Futhark text and binary data formats.
//
// Input: Go values built by the evaluator, or data text/bytes to read.
// Output: values, printed or encoded data, and comparisons between values.
// Invariants: a primitive array is never boxed per element (its Data is a
// []int8 … []float64 or []bool of exactly the product of its shape); an
// array of tuples or records is a tuple of arrays (Fields) sharing the outer
// shape; only arrays of sums or functions are boxed. Values are immutable,
// except that the evaluator may reuse the buffer of an array that a program
// consumes (uniqueness), never of one marked Frozen.
package value

import "strings"

// Value is any runtime value.
type Value interface{ isValue() }

// Tuple is (v1, …, vn); the empty tuple is Tuple(nil).
type Tuple []Value

// Record is {f1 = v1, …} with Names sorted.
type Record struct {
	Names  []string
	Fields []Value
}

// Sum is a sum-type value: #Constr payload….
type Sum struct {
	Constr  string
	Payload []Value
}

// Fun is a function value; Impl belongs to the evaluator.
type Fun struct {
	Name string // for messages; "" for a lambda
	Impl any
}

func (Prim) isValue()    {}
func (Tuple) isValue()   {}
func (*Record) isValue() {}
func (*Sum) isValue()    {}
func (*Fun) isValue()    {}
func (*Array) isValue()  {}

// Field returns the field of r named name.
func (r *Record) Field(name string) (Value, bool) {
	for i, n := range r.Names {
		if n == name {
			return r.Fields[i], true
		}
	}
	return nil, false
}

// With returns a copy of r with field name set to v.
func (r *Record) With(name string, v Value) *Record {
	out := &Record{Names: r.Names, Fields: append([]Value(nil), r.Fields...)}
	for i, n := range r.Names {
		if n == name {
			out.Fields[i] = v
		}
	}
	return out
}

// NewRecord builds a record from unsorted fields.
func NewRecord(names []string, fields []Value) *Record {
	idx := make([]int, len(names))
	for i := range idx {
		idx[i] = i
	}
	// insertion sort: records are small
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && fieldLess(names[idx[j]], names[idx[j-1]]); j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	r := &Record{Names: make([]string, len(names)), Fields: make([]Value, len(names))}
	for i, k := range idx {
		r.Names[i], r.Fields[i] = names[k], fields[k]
	}
	return r
}

// fieldLess orders record fields: numeric names by number, then others.
func fieldLess(a, b string) bool {
	na, oka := numeric(a)
	nb, okb := numeric(b)
	if oka && okb {
		return na < nb
	}
	if oka != okb {
		return oka
	}
	return a < b
}

func numeric(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// IsTupleRecord reports whether names are 0, 1, …, n-1 (a tuple written as a record).
func IsTupleRecord(names []string) bool {
	for i, n := range names {
		if k, ok := numeric(n); !ok || k != i {
			return false
		}
	}
	return len(names) != 1
}

// Size is ‖v‖ in words, per COST_MODEL.md.
func Size(v Value) int64 {
	switch v := v.(type) {
	case Prim:
		return 1
	case Tuple:
		var s int64
		for _, x := range v {
			s += Size(x)
		}
		return s
	case *Record:
		var s int64
		for _, x := range v.Fields {
			s += Size(x)
		}
		return s
	case *Sum:
		s := int64(1)
		for _, x := range v.Payload {
			s += Size(x)
		}
		return s
	case *Array:
		return v.Words()
	case Dual:
		return 1
	}
	return 0
}

// String prints v in Futhark's value syntax.
func String(v Value) string {
	var b strings.Builder
	Write(&b, v)
	return b.String()
}
