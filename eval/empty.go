package eval

// Empty arrays keep the shape of their static type: `[] : [0][3]i32` is
// empty([0][3]i32), and an empty result of a polymorphic function gets
// the inner dimensions that its use fixes. Values carry no types, so the
// evaluator reads them off the checker's type of the expression.

import (
	"fut/eval/value"
	"fut/interp/syntax"
	"fut/interp/types"
)

// staticType is the checker's type of x, if the TypeInfo records it.
func (t *thread) staticType(x syntax.Expr) (types.Type, bool) {
	ti, ok := t.in.info.(interface {
		TypeOf(syntax.Expr) (types.Type, bool)
	})
	if !ok {
		return nil, false
	}
	return ti.TypeOf(x)
}

// fixEmpty gives the empty array a (made by the literal x) the shape of
// x's type.
func (t *thread) fixEmpty(a *value.Array, x syntax.Expr, e *env) value.Value {
	ty, ok := t.staticType(x)
	if !ok {
		return a
	}
	if r := t.emptyOfType(ty, x, e); r != nil {
		return r
	}
	return a
}

// emptyOfType is an empty array of the array type ty, its inner sizes
// evaluated in e; nil unless ty is an array of primitives, or of tuples
// and records of them (the unit type () included).
func (t *thread) emptyOfType(ty types.Type, x syntax.Expr, e *env) *value.Array {
	dims, elem := types.Shape(ty)
	if len(dims) == 0 {
		return nil
	}
	shape := make([]int64, len(dims))
	for k := 1; k < len(dims); k++ {
		n, ok := t.sizeValue(dims[k], x, e)
		if !ok {
			n = 0
		}
		shape[k] = n
	}
	if p, ok := elem.(*types.Prim); ok {
		pt := value.ParsePrimType(string(p.Kind))
		if pt == value.NoPrim {
			return nil
		}
		return value.NewPrimArray(pt, shape)
	}
	// an element of the type, replicated into the inner dimensions
	z := zeroOf(elem)
	if z == nil {
		return nil
	}
	for k := len(shape) - 1; k >= 1; k-- {
		z = value.Replicate(shape[k], z)
	}
	return value.EmptyLike(z)
}

// zeroOf is a value of the type ty (zeros), where ty is a primitive or a
// tuple or record of them; nil otherwise.
func zeroOf(ty types.Type) value.Value {
	switch ty := types.Resolve(ty).(type) {
	case *types.Prim:
		pt := value.ParsePrimType(string(ty.Kind))
		if pt == value.NoPrim {
			return nil
		}
		return value.Convert(value.I64Val(0), pt)
	case *types.Record:
		fs := make([]value.Value, len(ty.Fields))
		for i, f := range ty.Fields {
			if fs[i] = zeroOf(f.Type); fs[i] == nil {
				return nil
			}
		}
		if ty.IsTuple() {
			return value.Tuple(fs)
		}
		names := make([]string, len(ty.Fields))
		for i, f := range ty.Fields {
			names[i] = f.Name
		}
		return &value.Record{Names: names, Fields: fs}
	}
	return nil
}

// sizeValue evaluates a size of a type at x in e, without cost.
func (t *thread) sizeValue(z types.Size, x syntax.Expr, e *env) (int64, bool) {
	sx := types.SizeAsExpr(z, syntax.SpanOf(x))
	if sx == nil {
		return 0, false
	}
	if lit, ok := sx.(*syntax.IntLit); ok {
		return lit.Value.Int64(), true
	}
	w, d, pk1, pkP, live := t.W, t.D, t.pk1, t.pkP, t.live
	v, err := t.evalCompiled(sx, e)
	t.W, t.D, t.pk1, t.pkP, t.live = w, d, pk1, pkP, live
	if err != nil {
		return 0, false
	}
	p, ok := v.(value.Prim)
	if !ok || !p.T.IsInt() || p.Int() < 0 {
		return 0, false
	}
	return p.Int(), true
}

// fixEmptyResult gives the empty arrays in v (the value of the function
// body x, evaluated in e) the inner dimensions of x's type, where they
// lack them. It is cheap when v has no empty array.
func (t *thread) fixEmptyResult(v value.Value, x syntax.Expr, e *env) value.Value {
	if !hasEmpty(v) {
		return v
	}
	ty, ok := t.staticType(x)
	if !ok {
		return v
	}
	return t.fixEmptyAt(v, ty, x, e)
}

func hasEmpty(v value.Value) bool {
	switch v := v.(type) {
	case *value.Array:
		return v.Kind == value.KPrim && len(v.Shape) > 0 && v.Shape[0] == 0
	case value.Tuple:
		for _, c := range v {
			if hasEmpty(c) {
				return true
			}
		}
	}
	return false
}

func (t *thread) fixEmptyAt(v value.Value, ty types.Type, x syntax.Expr, e *env) value.Value {
	switch v := v.(type) {
	case *value.Array:
		if v.Kind != value.KPrim || len(v.Shape) == 0 || v.Shape[0] != 0 {
			return v
		}
		// The static type, where it names a primitive element type, is
		// proved by the checker: an empty array of another element type
		// or of lower rank was made without knowing it (inside a
		// polymorphic function, or untyped), and holds no data to lose.
		if r := t.emptyOfType(ty, x, e); r != nil && (v.Untyped || r.T != v.T || len(r.Shape) > len(v.Shape)) {
			return r
		}
	case value.Tuple:
		rec, ok := types.Resolve(ty).(*types.Record)
		if !ok || len(rec.Fields) != len(v) {
			return v
		}
		var out value.Tuple
		for i, c := range v {
			if !hasEmpty(c) {
				continue
			}
			if out == nil {
				out = append(value.Tuple(nil), v...)
			}
			out[i] = t.fixEmptyAt(c, rec.Fields[i].Type, x, e)
		}
		if out == nil {
			return v
		}
		return out
	}
	return v
}
