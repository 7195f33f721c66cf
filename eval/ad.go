package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Automatic differentiation. jvp runs the function once on dual numbers
// (value.Dual: a float with its tangent), which every scalar operation
// and math intrinsic propagates by the chain rule; arrays of duals are
// boxed, so the fast paths step aside. vjp is computed from forward mode,
// one jvp per scalar of the input (fine for the small inputs of tests).
// Both charge what the IR's transformation computes (ad_cost.go and
// docs/cost.md, "Derivatives"). Nested differentiation (jvp of jvp) is
// not supported.

func isDual(v value.Value) bool {
	_, ok := v.(value.Dual)
	return ok
}

func (t *thread) dualBinop(op value.BinOp, l, r value.Value, pos syntax.Pos) (value.Value, error) {
	v, err := value.DualBinary(op, l, r)
	if err != nil {
		return nil, t.errf(pos, "%v", err)
	}
	if p, ok := value.Primal(v); ok {
		t.tangentStep(binTangentSteps(op, p.T), l, r)
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
			r = value.DualNeg(args[0])
		case "abs":
			p, _ := value.Primal(args[0])
			if p.T.IsFloat() && p.Float() < 0 || p.T.IsSigned() && p.Int() < 0 {
				r = value.DualNeg(args[0])
			} else {
				r = args[0]
			}
		case "f16_to_bits", "f32_to_bits", "f64_to_bits", "f16_from_bits", "f32_from_bits", "f64_from_bits":
			d := args[0].(value.Dual)
			dp, ok1 := d.P.(value.Prim)
			dt, ok2 := d.T.(value.Prim)
			if !ok1 || !ok2 {
				return nil, t.errf(pos, "cannot differentiate %s twice", name)
			}
			sf := scalarTable[name]
			p, e1 := sf.fn([]value.Prim{dp})
			tg, e2 := sf.fn([]value.Prim{dt})
			if e1 != nil || e2 != nil {
				return nil, t.errf(pos, "cannot differentiate %s", name)
			}
			r = value.Dual{P: p, T: tg, Tag: d.Tag}
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
				d := args[0]
				if to, isConv := convTarget(name); isConv {
					r = value.DualConvert(d, to)
				} else if r, ok = value.DualMath1(name, d); !ok {
					// predicates and other functions of the primal only
					p, _ := value.Primal(d)
					sf := scalarTable[name]
					r, err = sf.fn([]value.Prim{p})
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
	t.tangentStep(intrinsicTangentSteps(name, args, r), args...)
	t.scalarStep(t.live)
	return r, nil
}

func convTarget(name string) (value.PrimType, bool) {
	if len(name) > 3 && name[:3] == "to_" {
		return value.ParsePrimType(name[3:]), true
	}
	return value.NoPrim, false
}

// dualize pairs x with its tangent dx (of the same shape) into duals of
// the jvp tag. A number of x may be a dual of an enclosing jvp (a
// smaller tag): it becomes the primal of the new dual.
func dualize(x, dx value.Value, tag uint64) value.Value {
	switch x := x.(type) {
	case value.Prim, value.Dual:
		p, _ := value.Primal(x)
		if !p.T.Differentiable() {
			return x
		}
		d := dx
		if dp, _ := value.Primal(dx); dp.T != p.T {
			d = value.DualConvert(dx, p.T)
		}
		return value.Dual{P: x, T: d, Tag: tag}
	case value.Tuple:
		dt, _ := dx.(value.Tuple)
		out := make(value.Tuple, len(x))
		for i := range x {
			out[i] = dualize(x[i], dt[i], tag)
		}
		return out
	case *value.Sum:
		// the payload's tangents, where the tangent is of the same
		// constructor (else 0)
		ds, _ := dx.(*value.Sum)
		out := make([]value.Value, len(x.Payload))
		for i := range x.Payload {
			out[i] = x.Payload[i]
			if ds != nil && ds.Constr == x.Constr && i < len(ds.Payload) {
				out[i] = dualize(x.Payload[i], ds.Payload[i], tag)
			}
		}
		return &value.Sum{Constr: x.Constr, Payload: out}
	case *value.Record:
		dr, _ := dx.(*value.Record)
		out := make([]value.Value, len(x.Fields))
		for i := range x.Fields {
			out[i] = dualize(x.Fields[i], dr.Fields[i], tag)
		}
		return &value.Record{Names: x.Names, Fields: out}
	case *value.Array:
		da, _ := dx.(*value.Array)
		if x.Len() == 0 || da == nil {
			return x
		}
		rows := make([]value.Value, x.Len())
		for i := range rows {
			rows[i] = dualize(x.Index(int64(i)), da.Index(int64(i)), tag)
		}
		r, err := value.FromValues(rows, nil)
		if err != nil {
			return x
		}
		return r
	}
	return x
}

// split separates a result of duals of the jvp tag into its primal and
// tangent values (a number not of that tag has tangent 0).
func split(v value.Value, tag uint64) (value.Value, value.Value) {
	switch v := v.(type) {
	case value.Dual, value.Prim:
		p, d := value.Parts(v, tag)
		if pp, _ := value.Primal(p); !pp.T.Differentiable() {
			return p, value.MkBool(false)
		}
		return p, d
	case value.Tuple:
		p, d := make(value.Tuple, len(v)), make(value.Tuple, len(v))
		for i := range v {
			p[i], d[i] = split(v[i], tag)
		}
		return p, d
	case *value.Sum:
		p, d := make([]value.Value, len(v.Payload)), make([]value.Value, len(v.Payload))
		for i := range v.Payload {
			p[i], d[i] = split(v.Payload[i], tag)
		}
		return &value.Sum{Constr: v.Constr, Payload: p}, &value.Sum{Constr: v.Constr, Payload: d}
	case *value.Record:
		p, d := make([]value.Value, len(v.Fields)), make([]value.Value, len(v.Fields))
		for i := range v.Fields {
			p[i], d[i] = split(v.Fields[i], tag)
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
			ps[i], ds[i] = split(v.Index(i), tag)
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
	tag := value.NewTag()
	t.tan++
	r, err := t.apply1(f, dualize(x, dx, tag), pos)
	t.tan--
	if err != nil {
		return nil, err
	}
	p, d := split(r, tag)
	return value.Tuple{p, d}, nil
}

// leaves counts the float scalars of v.
func leaves(v value.Value) int {
	switch v := v.(type) {
	case value.Prim, value.Dual:
		if p, _ := value.Primal(v); p.T.Differentiable() {
			return 1
		}
	case value.Tuple:
		n := 0
		for _, x := range v {
			n += leaves(x)
		}
		return n
	case *value.Sum:
		n := 0
		for _, x := range v.Payload {
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
	case value.Prim, value.Dual:
		p, _ := value.Primal(v)
		if !p.T.Differentiable() {
			return p
		}
		one := int64(0)
		if *k == 0 {
			one = 1
		}
		*k--
		if p.T.IsFloat() {
			return value.MkFloat(p.T, float64(one))
		}
		return value.MkInt(p.T, one)
	case value.Tuple:
		out := make(value.Tuple, len(v))
		for i := range v {
			out[i] = basis(v[i], k)
		}
		return out
	case *value.Sum:
		out := make([]value.Value, len(v.Payload))
		for i := range v.Payload {
			out[i] = basis(v.Payload[i], k)
		}
		return &value.Sum{Constr: v.Constr, Payload: out}
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

// dot is Σ a_i·b_i over the float scalars of two values of one shape, in
// f64 (a dual of an enclosing jvp where the scalars are).
func dot(a, b value.Value) value.Value {
	var zero value.Value = value.F64Val(0)
	switch a := a.(type) {
	case value.Prim, value.Dual:
		p, _ := value.Primal(a)
		if !p.T.Differentiable() {
			return zero
		}
		m, err := value.DualBinary(value.OpMul, value.DualConvert(a, value.F64), value.DualConvert(b, value.F64))
		if err != nil {
			return zero
		}
		return m
	case value.Tuple:
		bt, _ := b.(value.Tuple)
		s := zero
		for i := range a {
			s, _ = value.DualBinary(value.OpAdd, s, dot(a[i], bt[i]))
		}
		return s
	case *value.Sum:
		bs, _ := b.(*value.Sum)
		s := zero
		if bs == nil || bs.Constr != a.Constr {
			return s
		}
		for i := range a.Payload {
			s, _ = value.DualBinary(value.OpAdd, s, dot(a.Payload[i], bs.Payload[i]))
		}
		return s
	case *value.Record:
		br, _ := b.(*value.Record)
		s := zero
		for i := range a.Fields {
			s, _ = value.DualBinary(value.OpAdd, s, dot(a.Fields[i], br.Fields[i]))
		}
		return s
	case *value.Array:
		ba, _ := b.(*value.Array)
		s := zero
		for i := int64(0); i < a.Len(); i++ {
			s, _ = value.DualBinary(value.OpAdd, s, dot(a.Index(i), ba.Index(i)))
		}
		return s
	}
	return zero
}

// setLeaves replaces the float scalars of v, in order, by vals.
func setLeaves(v value.Value, vals []value.Value, k *int) value.Value {
	switch v := v.(type) {
	case value.Prim, value.Dual:
		p, _ := value.Primal(v)
		if p.T == value.Bool {
			return value.MkBool(false) // the zero cotangent of a bool
		}
		if !p.T.Differentiable() {
			return v
		}
		x := vals[*k]
		*k++
		return value.DualConvert(x, p.T)
	case value.Tuple:
		out := make(value.Tuple, len(v))
		for i := range v {
			out[i] = setLeaves(v[i], vals, k)
		}
		return out
	case *value.Sum:
		out := make([]value.Value, len(v.Payload))
		for i := range v.Payload {
			out[i] = setLeaves(v.Payload[i], vals, k)
		}
		return &value.Sum{Constr: v.Constr, Payload: out}
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
	// The cost is the transformation's (docs/cost.md, "Derivatives"):
	// f x once, for its value; the adjoint, a fresh value like x; then
	// for each scalar of x in turn its unit vector, the jvp along it and
	// the dot product of the tangent with ybar, stored in the adjoint.
	base := t.live
	y, err := t.apply1(f, x, pos)
	if err != nil {
		return nil, err
	}
	sx := value.Size(x)
	var comps []int64
	components(ybar, &comps)
	var dotW, dotD int64 = 3, 3 // conversion back, update, iteration
	for _, m := range comps {
		dotW += 5*m + 2
		dotD += 7 + lg(m)
	}
	if t.cost {
		t.step(base, int64(n), 1, sx, sx)
		base = t.live
	}
	grads := make([]value.Value, n)
	for i := 0; i < n; i++ {
		if err := t.tick(pos); err != nil {
			return nil, err
		}
		if t.cost {
			// the unit vector: a replicate, an update and a view
			t.step(base, int64(n)+2, 3, sx, sx)
		}
		k := i
		tag := value.NewTag()
		t.tan++
		r, err := t.apply1(f, dualize(x, basis(x, &k), tag), pos)
		t.tan--
		if err != nil {
			return nil, err
		}
		_, d := split(r, tag)
		grads[i] = dot(ybar, d)
		if t.cost {
			// the dot product in f64, one array (or scalar) of the
			// result after the other: for m scalars a map (each operand
			// converted, then multiplied) and a reduction, with flat
			// views of both and the sum into the total (W 5m + 2, D 7
			// + lg m); then its conversion back, the adjoint's update
			// and the iteration (3)
			t.step(base, dotW, dotD, 1, 0)
		}
	}
	k := 0
	return value.Tuple{y, setLeaves(x, grads, &k)}, nil
}

// components appends the number of scalars of each array of scalars and
// each scalar of v (the components the IR splits a value into).
func components(v value.Value, out *[]int64) {
	switch v := v.(type) {
	case value.Prim, value.Dual:
		*out = append(*out, 1)
	case value.Tuple:
		for _, x := range v {
			components(x, out)
		}
	case *value.Sum:
		for _, x := range v.Payload {
			components(x, out)
		}
	case *value.Record:
		for _, x := range v.Fields {
			components(x, out)
		}
	case *value.Array:
		switch v.Kind {
		case value.KTuple, value.KRecord:
			for _, f := range v.Fields {
				components(f, out)
			}
		case value.KPrim:
			*out = append(*out, v.NumElems())
		default:
			*out = append(*out, int64(max(leaves(v), 1)))
		}
	}
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
