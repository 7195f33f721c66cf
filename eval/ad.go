package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Automatic differentiation. jvp runs the function once on dual numbers
// (value.Dual: a float with its tangent), which every scalar operation
// and math intrinsic propagates by the chain rule; arrays of duals are
// boxed, so the fast paths step aside. vjp is computed from forward mode,
// one jvp per scalar of the input (fine for the small inputs of tests;
// its cost is that many evaluations of the function). Nested
// differentiation (jvp of jvp) is not supported.

func isDual(v value.Value) bool {
	_, ok := v.(value.Dual)
	return ok
}

func (t *thread) dualBinop(op value.BinOp, l, r value.Value, pos syntax.Pos) (value.Value, error) {
	v, err := value.DualBinary(op, l, r)
	if err != nil {
		return nil, t.errf(pos, "%v", err)
	}
	return v, nil
}

// dualIntrinsic applies a scalar intrinsic to arguments some of which are duals.
func (t *thread) dualIntrinsic(name string, args []value.Value, pos syntax.Pos) (value.Value, error) {
	var r value.Value
	var ok = true
	var err error
	if op, isOp := intrinsicBinOps[name]; isOp && len(args) == 2 {
		r, err = value.DualBinary(op, args[0], args[1])
	} else {
		switch name {
		case "neg":
			d := toDual(args[0])
			r = value.Dual{P: value.Neg(d.P), T: value.Neg(d.T)}
		case "abs":
			d := toDual(args[0])
			neg := d.P.T.IsFloat() && d.P.Float() < 0 || d.P.T.IsSigned() && d.P.Int() < 0
			if neg {
				r = value.Dual{P: value.Neg(d.P), T: value.Neg(d.T)}
			} else {
				r = d
			}
		case "f16_to_bits", "f32_to_bits", "f64_to_bits", "f16_from_bits", "f32_from_bits", "f64_from_bits":
			d := args[0].(value.Dual)
			sf := scalarTable[name]
			p, e1 := sf.fn([]value.Prim{d.P})
			tg, e2 := sf.fn([]value.Prim{d.T})
			if e1 != nil || e2 != nil {
				return nil, t.errf(pos, "cannot differentiate %s", name)
			}
			r = value.Dual{P: p, T: tg}
		case "fma", "mad":
			m, e1 := value.DualBinary(value.OpMul, args[0], args[1])
			if e1 != nil {
				return nil, t.errf(pos, "%v", e1)
			}
			r, err = value.DualBinary(value.OpAdd, m, args[2])
		case "lerp":
			diff, _ := value.DualBinary(value.OpSub, args[1], args[0])
			m, _ := value.DualBinary(value.OpMul, diff, args[2])
			r, err = value.DualBinary(value.OpAdd, args[0], m)
		default:
			if len(args) == 1 {
				d := args[0].(value.Dual)
				if to, isConv := convTarget(name); isConv {
					if to.Differentiable() && d.P.T.IsFloat() && !to.IsFloat() {
						// truncation is piecewise constant
						r = value.Dual{P: value.Convert(d.P, to), T: value.MkInt(to, 0)}
					} else if to.Differentiable() {
						r = value.Dual{P: value.Convert(d.P, to), T: value.Convert(d.T, to)}
					} else {
						r = value.Convert(d.P, to)
					}
				} else if r, ok = value.DualMath1(name, d); !ok {
					// predicates and other functions of the primal only
					sf := scalarTable[name]
					r, err = sf.fn([]value.Prim{d.P})
					ok = true
				}
			} else if len(args) == 2 {
				r, ok = value.DualMath2(name, args[0], args[1])
			} else {
				ok = false
			}
		}
	}
	if err != nil {
		return nil, t.errf(pos, "%v", err)
	}
	if !ok {
		return nil, t.errf(pos, "cannot differentiate intrinsic %s", name)
	}
	t.scalarStep(t.live)
	return r, nil
}

func convTarget(name string) (value.PrimType, bool) {
	if len(name) > 3 && name[:3] == "to_" {
		return value.ParsePrimType(name[3:]), true
	}
	return value.NoPrim, false
}

func toDual(v value.Value) value.Dual {
	if d, ok := v.(value.Dual); ok {
		return d
	}
	p := v.(value.Prim)
	return value.Dual{P: p, T: value.MkFloat(p.T, 0)}
}

// dualize pairs x with its tangent dx (of the same shape) into duals.
func dualize(x, dx value.Value) value.Value {
	switch x := x.(type) {
	case value.Prim:
		if !x.T.Differentiable() {
			return x
		}
		d, _ := value.Primal(dx)
		if d.T != x.T {
			d = value.Convert(d, x.T)
		}
		return value.Dual{P: x, T: d}
	case value.Tuple:
		dt, _ := dx.(value.Tuple)
		out := make(value.Tuple, len(x))
		for i := range x {
			out[i] = dualize(x[i], dt[i])
		}
		return out
	case *value.Record:
		dr, _ := dx.(*value.Record)
		out := make([]value.Value, len(x.Fields))
		for i := range x.Fields {
			out[i] = dualize(x.Fields[i], dr.Fields[i])
		}
		return &value.Record{Names: x.Names, Fields: out}
	case *value.Array:
		da, _ := dx.(*value.Array)
		if x.Len() == 0 || da == nil {
			return x
		}
		rows := make([]value.Value, x.Len())
		for i := range rows {
			rows[i] = dualize(x.Index(int64(i)), da.Index(int64(i)))
		}
		r, err := value.FromValues(rows, nil)
		if err != nil {
			return x
		}
		return r
	}
	return x
}

// split separates a result of duals into its primal and tangent values.
func split(v value.Value) (value.Value, value.Value) {
	switch v := v.(type) {
	case value.Dual:
		return v.P, v.T
	case value.Prim:
		if v.T.IsFloat() {
			return v, value.MkFloat(v.T, 0)
		}
		if v.T.Differentiable() {
			return v, value.MkInt(v.T, 0)
		}
		return v, value.MkBool(false)
	case value.Tuple:
		p, d := make(value.Tuple, len(v)), make(value.Tuple, len(v))
		for i := range v {
			p[i], d[i] = split(v[i])
		}
		return p, d
	case *value.Record:
		p, d := make([]value.Value, len(v.Fields)), make([]value.Value, len(v.Fields))
		for i := range v.Fields {
			p[i], d[i] = split(v.Fields[i])
		}
		return &value.Record{Names: v.Names, Fields: p}, &value.Record{Names: v.Names, Fields: d}
	case *value.Array:
		if v.Kind == value.KPrim {
			z := value.NewPrimArray(v.T, v.Shape)
			if !v.T.Differentiable() {
				z = v
			}
			return v, z
		}
		n := v.Len()
		if n == 0 {
			return v, v
		}
		ps, ds := make([]value.Value, n), make([]value.Value, n)
		for i := int64(0); i < n; i++ {
			ps[i], ds[i] = split(v.Index(i))
		}
		pa, err1 := value.FromValues(ps, nil)
		da, err2 := value.FromValues(ds, nil)
		if err1 != nil || err2 != nil {
			return v, v
		}
		return pa, da
	}
	return v, v
}

func intrJVP2(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
	f, x, dx := args[0], args[1], args[2]
	r, err := t.apply1(f, dualize(x, dx), pos)
	if err != nil {
		return nil, err
	}
	p, d := split(r)
	return value.Tuple{p, d}, nil
}

// leaves counts the float scalars of v.
func leaves(v value.Value) int {
	switch v := v.(type) {
	case value.Prim:
		if v.T.Differentiable() {
			return 1
		}
	case value.Tuple:
		n := 0
		for _, x := range v {
			n += leaves(x)
		}
		return n
	case *value.Record:
		n := 0
		for _, x := range v.Fields {
			n += leaves(x)
		}
		return n
	case *value.Array:
		if v.Kind == value.KPrim {
			if v.T.Differentiable() {
				return int(v.NumElems())
			}
			return 0
		}
		n := 0
		for i := int64(0); i < v.Len(); i++ {
			n += leaves(v.Index(i))
		}
		return n
	}
	return 0
}

// basis is v with every float scalar set to 0 except the k'th, set to 1
// (counting from *k; it decrements *k as it goes).
func basis(v value.Value, k *int) value.Value {
	switch v := v.(type) {
	case value.Prim:
		if !v.T.Differentiable() {
			return v
		}
		one := int64(0)
		if *k == 0 {
			one = 1
		}
		*k--
		if v.T.IsFloat() {
			return value.MkFloat(v.T, float64(one))
		}
		return value.MkInt(v.T, one)
	case value.Tuple:
		out := make(value.Tuple, len(v))
		for i := range v {
			out[i] = basis(v[i], k)
		}
		return out
	case *value.Record:
		out := make([]value.Value, len(v.Fields))
		for i := range v.Fields {
			out[i] = basis(v.Fields[i], k)
		}
		return &value.Record{Names: v.Names, Fields: out}
	case *value.Array:
		n := v.Len()
		if n == 0 {
			return v
		}
		rows := make([]value.Value, n)
		for i := int64(0); i < n; i++ {
			rows[i] = basis(v.Index(i), k)
		}
		r, err := value.FromValues(rows, nil)
		if err != nil {
			return v
		}
		return r
	}
	return v
}

// dot is Σ a_i·b_i over the float scalars of two values of one shape.
func dot(a, b value.Value) float64 {
	switch a := a.(type) {
	case value.Prim:
		if !a.T.Differentiable() {
			return 0
		}
		pb, _ := value.Primal(b)
		return asFloat(a) * asFloat(pb)
	case value.Tuple:
		bt, _ := b.(value.Tuple)
		s := 0.0
		for i := range a {
			s += dot(a[i], bt[i])
		}
		return s
	case *value.Record:
		br, _ := b.(*value.Record)
		s := 0.0
		for i := range a.Fields {
			s += dot(a.Fields[i], br.Fields[i])
		}
		return s
	case *value.Array:
		ba, _ := b.(*value.Array)
		s := 0.0
		for i := int64(0); i < a.Len(); i++ {
			s += dot(a.Index(i), ba.Index(i))
		}
		return s
	}
	return 0
}

// setLeaves replaces the float scalars of v, in order, by vals.
func setLeaves(v value.Value, vals []float64, k *int) value.Value {
	switch v := v.(type) {
	case value.Prim:
		if v.T == value.Bool {
			return value.MkBool(false) // the zero cotangent of a bool
		}
		if !v.T.Differentiable() {
			return v
		}
		x := vals[*k]
		*k++
		return value.Convert(value.F64Val(x), v.T)
	case value.Tuple:
		out := make(value.Tuple, len(v))
		for i := range v {
			out[i] = setLeaves(v[i], vals, k)
		}
		return out
	case *value.Record:
		out := make([]value.Value, len(v.Fields))
		for i := range v.Fields {
			out[i] = setLeaves(v.Fields[i], vals, k)
		}
		return &value.Record{Names: v.Names, Fields: out}
	case *value.Array:
		n := v.Len()
		if n == 0 {
			return v
		}
		rows := make([]value.Value, n)
		for i := int64(0); i < n; i++ {
			rows[i] = setLeaves(v.Index(i), vals, k)
		}
		r, err := value.FromValues(rows, nil)
		if err != nil {
			return v
		}
		return r
	}
	return v
}

func intrVJP2(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
	f, x, ybar := args[0], args[1], args[2]
	n := leaves(x)
	if err := t.checkAlloc(pos, int64(n), 8); err != nil {
		return nil, err
	}
	grads := make([]float64, n)
	var y value.Value
	for i := 0; i < n || (n == 0 && y == nil); i++ {
		if err := t.tick(pos); err != nil {
			return nil, err
		}
		k := i
		r, err := t.apply1(f, dualize(x, basis(x, &k)), pos)
		if err != nil {
			return nil, err
		}
		p, d := split(r)
		y = p
		if n > 0 {
			grads[i] = dot(ybar, d)
		}
	}
	k := 0
	return value.Tuple{y, setLeaves(x, grads, &k)}, nil
}

func asFloat(p value.Prim) float64 {
	if p.T.IsFloat() {
		return p.Float()
	}
	return float64(value.Convert(p, value.F64).Float())
}

// primOf is v as a scalar, taking the primal of a dual (where a number is
// used as an index, size or bound).
func primOf(v value.Value) (value.Prim, bool) { return value.Primal(v) }
