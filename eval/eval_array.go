package eval

import (
	"strconv"

	"fut/eval/value"
	"fut/interp/syntax"
)

// emptyLit is the empty array literal x with the type the checker gave
// it, or untyped (i32) where it gave none: the caller then gives it the
// type its use has (fixEmpty).
func (t *thread) emptyLit(x *syntax.ArrayLit) *value.Array {
	elem, rank, known := value.I32, 1, false
	if et, ok := t.in.info.(EmptyArrayTyper); ok {
		if pt, r, ok := et.EmptyArrayType(x); ok && value.ParsePrimType(string(pt)) != value.NoPrim {
			elem, rank, known = value.ParsePrimType(string(pt)), r, true
		}
	}
	shape := make([]int64, max(rank, 1))
	r := value.NewPrimArray(elem, shape)
	r.Untyped = !known
	return r
}

// arrayOf is the step of a non-empty array literal x whose elements,
// held above base, are vals.
func (t *thread) arrayOf(x *syntax.ArrayLit, vals []value.Value, base int64) (value.Value, error) {
	if p0, ok := vals[0].(value.Prim); ok {
		// literals whose types were not resolved: follow the first element
		for i, v := range vals {
			if p, ok := v.(value.Prim); ok && p.T != p0.T {
				vals[i] = value.Convert(p, p0.T)
			}
		}
	}
	if err := t.checkRows(x.Pos(), vals); err != nil {
		return nil, err
	}
	r, err := value.FromValues(vals, nil)
	if err != nil {
		return nil, t.errf(x.Pos(), "%v", err)
	}
	t.freshStep(base, int64(len(vals)), r)
	return r, nil
}

// rangeBy evaluates a..b, a..<b, a..>b or a..s...b with the bounds
// evaluated by ev (compiled code), start, second, then stop.
func (t *thread) rangeBy(x *syntax.Range, ev func(syntax.Expr) (value.Value, error)) (value.Value, error) {
	base := t.live
	sv, err := ev(x.Start)
	if err != nil {
		return nil, err
	}
	start, ok := primOf(sv)
	if !ok || !start.T.IsInt() {
		return nil, t.errf(x.Pos(), "range bounds must be integers")
	}
	step := int64(1)
	if x.Second != nil {
		v2, err := ev(x.Second)
		if err != nil {
			return nil, err
		}
		s2, err := t.indexInt(x.Second, v2)
		if err != nil {
			return nil, err
		}
		step = s2 - start.Int()
	}
	endV, err := ev(x.Stop)
	if err != nil {
		return nil, err
	}
	endP, ok := primOf(endV)
	if !ok || !endP.T.IsInt() {
		return nil, t.errf(x.Pos(), "range bounds must be integers")
	}
	a, b := start.Int(), value.Convert(endP, start.T).Int()
	if start.T.IsUnsigned() {
		a, b = int64(start.B), int64(value.Convert(endP, start.T).B)
	}
	var n int64
	bad := false
	switch x.Op {
	case syntax.RangeIncl:
		if step == 0 || (step > 0 && b < a) || (step < 0 && b > a) {
			bad = true
		} else if step > 0 {
			n = (b-a)/step + 1
		} else {
			n = (a-b)/(-step) + 1
		}
	case syntax.RangeUpExcl:
		if step <= 0 || b < a {
			bad = true
		} else {
			n = (b - a + step - 1) / step
		}
	case syntax.RangeDownExcl:
		if x.Second == nil {
			step = -1
		}
		if step >= 0 || b > a {
			bad = true
		} else {
			n = (a - b + (-step) - 1) / (-step)
		}
	}
	if bad {
		return nil, t.errf(x.Pos(), "Range %s is invalid.", rangeText(x, start.T, a, step, b))
	}
	if err := t.checkAlloc(x.Pos(), n, int64(start.T.Bits()/8)); err != nil {
		return nil, err
	}
	r := value.NewPrimArray(start.T, []int64{n})
	for i := int64(0); i < n; i++ {
		value.DataSet(r.Data, int(i), value.MkInt(start.T, a+i*step))
	}
	if t.cost {
		t.step(base, n, 1, n+1, n+1)
	}
	return r, nil
}

// rangeText shows a range with its bounds evaluated: 5...1, 1..0..<5.
func rangeText(x *syntax.Range, pt value.PrimType, a, step, b int64) string {
	num := func(n int64) string {
		if pt.IsUnsigned() {
			return strconv.FormatUint(uint64(n), 10)
		}
		return strconv.FormatInt(n, 10)
	}
	s := num(a)
	if x.Second != nil {
		s += ".." + num(a+step)
	}
	switch x.Op {
	case syntax.RangeIncl:
		s += "..."
	case syntax.RangeUpExcl:
		s += "..<"
	default:
		s += "..>"
	}
	return s + num(b)
}
