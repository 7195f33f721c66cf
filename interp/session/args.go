package session

import (
	"fmt"
	"strings"

	"fut/eval/value"
	"fut/interp/types"
)

// The values of an entry point's parameters and results checked against
// their types, element type, rank and sizes, with one message per
// mistake: fut run checks its arguments, fut test and fut bench the
// inputs and outputs of their cases, the same way.

// CheckValues says what is wrong with vals as values of the types ts
// (what names them in messages: "argument", "result"); nil if nothing.
// Sizes named by the types must agree across the values.
func CheckValues(vals []value.Value, ts []types.Type, what, entry string) error {
	if len(vals) != len(ts) {
		verb, s := "takes", ""
		if what == "result" {
			verb = "returns"
		}
		if len(ts) != 1 {
			s = "s"
		}
		return fmt.Errorf("%s %s %d %s%s, not %d", entry, verb, len(ts), what, s, len(vals))
	}
	sizes := map[*types.SizeName]sizeSeen{}
	names := sizeNames(ts)
	for i, t := range ts {
		if msg := matchType(vals[i], t, i, sizes, names); msg != "" {
			return fmt.Errorf("%s %d of %s: %s", what, i+1, entry, msg)
		}
	}
	return nil
}

// MatchType says what is wrong with v as the value of argument arg of type
// t ("" if nothing); sizes records the sizes bound so far.
func MatchType(v value.Value, t types.Type, arg int, sizes map[*types.SizeName]SizeSeen, names map[string]int) string {
	return matchType(v, t, arg, sizes, names)
}

// SizeNames counts the distinct sizes of each name in the types.
func SizeNames(ts []types.Type) map[string]int { return sizeNames(ts) }

// TypeText is a type as the messages show it.
func TypeText(t types.Type, names map[string]int) string { return typeText(t, names) }

// SizeSeen is the first binding of a size parameter by a value.
type SizeSeen = sizeSeen

// sizeSeen is the first binding of a size parameter by an argument.
type sizeSeen struct {
	n   int64
	arg int
}

// matchType says what is wrong with v as a value of type t ("" if nothing).
func matchType(v value.Value, t types.Type, arg int, sizes map[*types.SizeName]sizeSeen, names map[string]int) string {
	rank, elem, dims := 0, types.Resolve(t), []types.Size(nil)
	for {
		a, ok := elem.(*types.Array)
		if !ok {
			break
		}
		rank++
		dims = append(dims, a.Dim)
		elem = types.Resolve(a.Elem)
	}
	prim, isPrim := elem.(*types.Prim)
	if !isPrim {
		return "" // records, tuples, sums: the data format cannot write them anyway
	}
	want := value.ParsePrimType(string(prim.Kind))
	got, shape := valueType(v)
	if got == value.NoPrim {
		return fmt.Sprintf("expected a value of type %s, found a value the data format cannot describe", typeText(t, names))
	}
	if len(shape) != rank || got != want {
		return fmt.Sprintf("expected a value of type %s, found %s", typeText(t, names), describe(got, shape))
	}
	for k, d := range dims {
		switch d := d.(type) {
		case *types.SizeConst:
			if shape[k] != d.N {
				return fmt.Sprintf("expected a value of type %s, found %s", typeText(t, names), describe(got, shape))
			}
		case *types.SizeName:
			if d.Unknown || d.Name == "" {
				continue // an unknown size binds nothing
			}
			if prev, ok := sizes[d]; ok && prev.n != shape[k] {
				return fmt.Sprintf("size %s is %d here, but %d in argument %d", d, shape[k], prev.n, prev.arg+1)
			} else if !ok {
				sizes[d] = sizeSeen{shape[k], arg}
			}
		}
	}
	return ""
}

// sizeNames counts the distinct sizes of each name in the parameters
// types: anonymous sizes ([]i32) may all be called n, and are then
// printed as [].
func sizeNames(params []types.Type) map[string]int {
	seen := map[*types.SizeName]bool{}
	names := map[string]int{}
	for _, p := range params {
		for t := types.Resolve(p); ; {
			a, ok := t.(*types.Array)
			if !ok {
				break
			}
			if d, ok := a.Dim.(*types.SizeName); ok && !seen[d] {
				seen[d] = true
				names[d.Name]++
			}
			t = types.Resolve(a.Elem)
		}
	}
	return names
}

// typeText is a parameter's type as a message shows it.
func typeText(t types.Type, names map[string]int) string {
	var b strings.Builder
	for t = types.Resolve(t); ; {
		a, ok := t.(*types.Array)
		if !ok {
			break
		}
		switch d := a.Dim.(type) {
		case *types.SizeConst:
			fmt.Fprintf(&b, "[%d]", d.N)
		case *types.SizeName:
			if d.Unknown || names[d.Name] > 1 {
				b.WriteString("[]")
			} else {
				fmt.Fprintf(&b, "[%s]", d.Name)
			}
		default:
			b.WriteString("[]")
		}
		t = types.Resolve(a.Elem)
	}
	return b.String() + t.String()
}

// valueType is the element type and shape of a primitive or an array of
// primitives (NoPrim for anything else).
func valueType(v value.Value) (value.PrimType, []int64) {
	switch v := v.(type) {
	case value.Prim:
		return v.T, nil
	case *value.Array:
		if v.Kind != value.KPrim {
			return value.NoPrim, nil
		}
		return v.T, v.Shape
	}
	return value.NoPrim, nil
}

func describe(t value.PrimType, shape []int64) string {
	if len(shape) == 0 {
		return "a scalar of type " + t.String()
	}
	return "an array of type " + value.ShapeString(shape) + t.String()
}
