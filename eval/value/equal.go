package value

import "math"

// DefaultTolerance is the relative float tolerance of Equal as fut test uses it.
const DefaultTolerance = 0.002

// Equal compares a and b as `futhark test` does: same types and shapes,
// integers and bools exactly, floats within relative tolerance tol (and
// absolute tol near zero), NaN equal to NaN, infinities equal by sign.
func Equal(a, b Value, tol float64) bool {
	switch x := a.(type) {
	case Prim:
		y, ok := b.(Prim)
		return ok && primEqual(x, y, tol)
	case Tuple:
		y, ok := b.(Tuple)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i], tol) {
				return false
			}
		}
		return true
	case *Record:
		y, ok := b.(*Record)
		if !ok || len(x.Names) != len(y.Names) {
			return false
		}
		for i := range x.Names {
			if x.Names[i] != y.Names[i] || !Equal(x.Fields[i], y.Fields[i], tol) {
				return false
			}
		}
		return true
	case *Sum:
		y, ok := b.(*Sum)
		if !ok || x.Constr != y.Constr || len(x.Payload) != len(y.Payload) {
			return false
		}
		for i := range x.Payload {
			if !Equal(x.Payload[i], y.Payload[i], tol) {
				return false
			}
		}
		return true
	case *Array:
		y, ok := b.(*Array)
		if !ok || !sameShape(x.FullShape(), y.FullShape()) || x.Kind != y.Kind {
			return false
		}
		if x.Kind == KPrim {
			if x.T != y.T {
				return false
			}
			n := DataLen(x.Data)
			for i := 0; i < n; i++ {
				if !primEqual(DataGet(x.T, x.Data, i), DataGet(y.T, y.Data, i), tol) {
					return false
				}
			}
			return true
		}
		if x.Kind == KTuple || x.Kind == KRecord {
			if len(x.Fields) != len(y.Fields) {
				return false
			}
			for i := range x.Fields {
				if !Equal(x.Fields[i], y.Fields[i], tol) {
					return false
				}
			}
			return true
		}
		for i := range x.Boxed {
			if !Equal(x.Boxed[i], y.Boxed[i], tol) {
				return false
			}
		}
		return true
	}
	return a == b
}

func primEqual(x, y Prim, tol float64) bool {
	if x.T != y.T {
		return false
	}
	if !x.T.IsFloat() {
		return x.B == y.B
	}
	return FloatClose(x.Float(), y.Float(), tol)
}

// FloatClose compares two floats with tolerance tol.
func FloatClose(a, b, tol float64) bool {
	return FloatWithin(a, b, max(tol*math.Max(math.Abs(a), math.Abs(b)), tol*tol))
}

// FloatWithin reports whether a and b differ by at most abstol: NaN
// matches NaN, and an infinity only itself.
func FloatWithin(a, b, abstol float64) bool {
	switch {
	case math.IsNaN(a) || math.IsNaN(b):
		return math.IsNaN(a) && math.IsNaN(b)
	case math.IsInf(a, 0) || math.IsInf(b, 0):
		return a == b
	}
	return math.Abs(a-b) <= abstol
}

// Identical is exact structural equality (Futhark's ==): floats by IEEE
// equality (NaN differs from itself).
func Identical(a, b Value) bool {
	if pa, ok := a.(Dual); ok {
		a = pa.P
	}
	if pb, ok := b.(Dual); ok {
		b = pb.P
	}
	switch x := a.(type) {
	case Prim:
		y, ok := b.(Prim)
		if !ok {
			return false
		}
		if x.T.IsFloat() {
			return x.Float() == y.Float()
		}
		return x.B == y.B
	case Tuple:
		y, ok := b.(Tuple)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Identical(x[i], y[i]) {
				return false
			}
		}
		return true
	case *Record:
		y, ok := b.(*Record)
		if !ok || len(x.Fields) != len(y.Fields) {
			return false
		}
		for i := range x.Fields {
			if !Identical(x.Fields[i], y.Fields[i]) {
				return false
			}
		}
		return true
	case *Sum:
		y, ok := b.(*Sum)
		if !ok || x.Constr != y.Constr || len(x.Payload) != len(y.Payload) {
			return false
		}
		for i := range x.Payload {
			if !Identical(x.Payload[i], y.Payload[i]) {
				return false
			}
		}
		return true
	case *Array:
		y, ok := b.(*Array)
		if !ok || !sameShape(x.FullShape(), y.FullShape()) {
			return false
		}
		if x.Kind == KPrim && y.Kind == KPrim {
			n := DataLen(x.Data)
			for i := 0; i < n; i++ {
				if !Identical(DataGet(x.T, x.Data, i), DataGet(y.T, y.Data, i)) {
					return false
				}
			}
			return true
		}
		if x.Shape[0] != y.Shape[0] {
			return false
		}
		for i := int64(0); i < x.Shape[0]; i++ {
			if !Identical(x.Index(i), y.Index(i)) {
				return false
			}
		}
		return true
	}
	return false
}
