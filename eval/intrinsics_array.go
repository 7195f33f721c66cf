package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// scalarCount is the number of scalar elements in v (the "elements of the
// result" that concat, transpose and rotate charge as work).
func scalarCount(v value.Value) int64 {
	switch v := v.(type) {
	case *value.Array:
		switch v.Kind {
		case value.KPrim:
			return v.NumElems()
		case value.KTuple, value.KRecord:
			var s int64
			for _, f := range v.Fields {
				s += scalarCount(f)
			}
			return s
		}
		var s int64
		for _, x := range v.Boxed {
			s += scalarCount(x)
		}
		return s
	case value.Tuple:
		var s int64
		for _, x := range v {
			s += scalarCount(x)
		}
		return s
	case *value.Record:
		var s int64
		for _, x := range v.Fields {
			s += scalarCount(x)
		}
		return s
	}
	return value.Size(v)
}

// byteCount is the memory v's scalars take (booleans one byte each).
func byteCount(v value.Value) int64 {
	switch v := v.(type) {
	case value.Prim:
		return int64(v.T.Bits() / 8)
	case *value.Array:
		if v.Kind == value.KPrim {
			return v.NumElems() * int64(v.T.Bits()/8)
		}
		var s int64
		for _, f := range v.Fields {
			s += byteCount(f)
		}
		for _, x := range v.Boxed {
			s += byteCount(x)
		}
		return s
	case value.Tuple:
		var s int64
		for _, x := range v {
			s += byteCount(x)
		}
		return s
	case *value.Record:
		var s int64
		for _, x := range v.Fields {
			s += byteCount(x)
		}
		return s
	}
	return 8 * value.Size(v)
}

// bytesPerScalar is the average size of v's scalars (8 when v has none).
func bytesPerScalar(v value.Value) int64 {
	if n := scalarCount(v); n > 0 {
		return max(1, byteCount(v)/n)
	}
	return 8
}

func sizeArg(t *thread, pos syntax.Pos, v value.Value, what string) (int64, error) {
	p, ok := primOf(v)
	if !ok || !p.T.IsInt() {
		return 0, t.errf(pos, "%s: size is not an integer", what)
	}
	if p.Int() < 0 {
		if what == "iota" { // iota n is 0..1..<n, and fails as that range does
			return 0, t.errf(pos, "Range 0..1..<%d is invalid.", p.Int())
		}
		return 0, t.errf(pos, "%s: negative size %d", what, p.Int())
	}
	return p.Int(), nil
}

// freshStep charges (w, 1, ‖r‖) with fresh ‖r‖.
func (t *thread) freshStep(base, w int64, r value.Value) {
	if t.cost {
		s := value.Size(r)
		t.step(base, w, 1, s, s)
	}
}

func intrLength(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
	a, err := asArray(t, args[0], pos, "length")
	if err != nil {
		return nil, err
	}
	if t.cost {
		t.step(t.live, 1, 1, 0, 0)
	}
	return value.I64Val(a.Len()), nil
}

func intrIota(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
	base := t.live
	n, err := sizeArg(t, pos, args[0], "iota")
	if err != nil {
		return nil, err
	}
	if err := t.checkAlloc(pos, n, 8); err != nil {
		return nil, err
	}
	d := make([]int64, n)
	for i := range d {
		d[i] = int64(i)
	}
	if t.cost {
		t.step(base, n, 1, n+1, n+1)
	}
	return value.NewPrimArrayData(value.I64, []int64{n}, d), nil
}

func intrReplicate(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
	base := t.live
	n, err := sizeArg(t, pos, args[0], "replicate")
	if err != nil {
		return nil, err
	}
	if err := t.checkAlloc(pos, n, max(1, byteCount(args[1]))); err != nil {
		return nil, err
	}
	r := value.Replicate(n, args[1])
	if t.cost {
		s := value.Size(r)
		t.step(base, s-int64(len(r.FullShape())), 1, s, s)
	}
	return r, nil
}

func intrCopy(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
	base := t.live
	if err := t.checkCopy(pos, args[0]); err != nil {
		return nil, err
	}
	r := deepCopy(args[0])
	if t.cost {
		s := value.Size(r)
		t.step(base, s, 1, s, s)
	}
	return r, nil
}

func deepCopy(v value.Value) value.Value {
	switch v := v.(type) {
	case *value.Array:
		return v.Copy()
	case value.Tuple:
		out := make(value.Tuple, len(v))
		for i, x := range v {
			out[i] = deepCopy(x)
		}
		return out
	case *value.Record:
		out := make([]value.Value, len(v.Fields))
		for i, x := range v.Fields {
			out[i] = deepCopy(x)
		}
		return &value.Record{Names: v.Names, Fields: out}
	case *value.Sum:
		out := make([]value.Value, len(v.Payload))
		for i, x := range v.Payload {
			out[i] = deepCopy(x)
		}
		return &value.Sum{Constr: v.Constr, Payload: out}
	}
	return v
}

func intrConcat(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
	base := t.live
	a, err := asArray(t, args[0], pos, "concat")
	if err != nil {
		return nil, err
	}
	b, err := asArray(t, args[1], pos, "concat")
	if err != nil {
		return nil, err
	}
	if err := t.checkAlloc(pos, scalarCount(a)+scalarCount(b), bytesPerScalar(a)); err != nil {
		return nil, err
	}
	r, err := value.Concat([]*value.Array{a, b})
	if err != nil {
		return nil, t.errf(pos, "%v", err)
	}
	t.freshStep(base, scalarCount(r), r)
	return r, nil
}

func intrTranspose(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
	base := t.live
	a, err := asArray(t, args[0], pos, "transpose")
	if err != nil {
		return nil, err
	}
	if len(a.Shape) < 2 {
		return nil, t.errf(pos, "transpose: array of rank %d", len(a.Shape))
	}
	if err := t.checkCopy(pos, a); err != nil {
		return nil, err
	}
	var r *value.Array
	if a.Frozen && t.transposed[0] == a {
		r = t.transposed[1]
	} else {
		r = a.Transpose()
		if a.Frozen {
			// A frozen array never changes, so its transpose is made once
			// per evaluation (transpose b inside a map over rows): the
			// copy is frozen too, so that nothing updates it in place.
			// It is charged at every use, as written.
			freeze(r)
			t.transposed = [2]*value.Array{a, r}
		}
	}
	t.freshStep(base, scalarCount(r), r)
	return r, nil
}

func intrRotate(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
	base := t.live
	rp, ok := primOf(args[0])
	if !ok {
		return nil, t.errf(pos, "rotate: amount is not an integer")
	}
	a, err := asArray(t, args[1], pos, "rotate")
	if err != nil {
		return nil, err
	}
	if err := t.checkCopy(pos, a); err != nil {
		return nil, err
	}
	n := a.Len()
	var r *value.Array
	if n == 0 {
		r = a.Copy()
	} else {
		k := ((rp.Int() % n) + n) % n
		r, err = value.Concat([]*value.Array{a.Slice(k, n), a.Slice(0, k)})
		if err != nil {
			return nil, t.errf(pos, "%v", err)
		}
	}
	t.freshStep(base, scalarCount(r), r)
	return r, nil
}

func intrFlatten(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
	a, err := asArray(t, args[0], pos, "flatten")
	if err != nil {
		return nil, err
	}
	if len(a.Shape) < 2 {
		if a.Untyped && a.Len() == 0 {
			return a, nil // empty, of a type nobody knew: still empty
		}
		return nil, t.errf(pos, "flatten: array of rank %d", len(a.Shape))
	}
	shape := append([]int64{a.Shape[0] * a.Shape[1]}, a.Shape[2:]...)
	if t.cost {
		t.step(t.live, 1, 1, 0, 0)
	}
	return a.Reshape(shape), nil
}

// intrReverse is the rows of an array in reverse order, a view: it costs
// (1, 1, 0) as COST_MODEL.md's table says.
func intrReverse(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
	a, err := asArray(t, args[0], pos, "reverse")
	if err != nil {
		return nil, err
	}
	n := a.Len()
	idx := make([]int64, n)
	for i := range idx {
		idx[i] = n - 1 - int64(i)
	}
	if t.cost {
		t.step(t.live, 1, 1, 0, 0)
	}
	return a.Gather(idx), nil
}

func intrUnflatten(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
	np, ok1 := primOf(args[0])
	mp, ok2 := primOf(args[1])
	if !ok1 || !ok2 || !np.T.IsInt() || !mp.T.IsInt() {
		return nil, t.errf(pos, "unflatten: size is not an integer")
	}
	n, m := np.Int(), mp.Int()
	a, err := asArray(t, args[2], pos, "unflatten")
	if err != nil {
		return nil, err
	}
	if n < 0 || m < 0 || n*m != a.Len() {
		return nil, t.errf(pos, "Cannot unflatten array of shape %s to array of shape [%d][%d]", value.ShapeString(a.FullShape()), n, m)
	}
	shape := append([]int64{n, m}, a.Shape[1:]...)
	if t.cost {
		t.step(t.live, 1, 1, 0, 0)
	}
	return a.Reshape(shape), nil
}

func intrZip(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
	fs := make([]*value.Array, len(args))
	for i, v := range args {
		a, err := asArray(t, v, pos, "zip")
		if err != nil {
			return nil, err
		}
		if i > 0 && a.Len() != fs[0].Len() {
			return nil, t.errf(pos, "Cannot zip arrays of different sizes: %d and %d.", fs[0].Len(), a.Len())
		}
		fs[i] = a
	}
	// zip's result is unique, yet its components are its arguments'
	// buffers: the checker lets a program consume the result and go on
	// using an argument, or consume an argument and go on using the
	// result. Both are marked shared (value.Array.Frozen), so that either
	// consumption copies first (an in-place update, a scatter's or a
	// histogram's destination; eval_index.go, soacs.go) and the other
	// keeps its elements. Before, let z = zip a a in (z with [0] = (9, 9),
	// a) gave a = [9, …]. A view of an argument taken before the zip (a
	// slice, a row, a reshape) is marked as every view is (value.Array's
	// Index, Slice, Reshape), so consuming it copies too.
	for _, a := range fs {
		a.Frozen = true
	}
	return &value.Array{Shape: []int64{fs[0].Len()}, Kind: value.KTuple, Fields: fs}, nil
}

// unzipN is unzip of k-tuples.
func unzipN(k int) intrinsicFn {
	return func(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
		return intrUnzip(t, pos, args, k)
	}
}

func intrUnzip(t *thread, pos syntax.Pos, args []value.Value, k int) (value.Value, error) {
	a, err := asArray(t, args[0], pos, "unzip")
	if err != nil {
		return nil, err
	}
	if a.Kind != value.KTuple && a.Kind != value.KRecord {
		if a.Untyped && a.Len() == 0 {
			// an empty array whose element type nobody knew (a map over
			// nothing): k empty arrays, still of unknown type
			out := make(value.Tuple, k)
			for i := range out {
				e := value.NewPrimArray(value.I32, []int64{0})
				e.Untyped = true
				out[i] = e
			}
			return out, nil
		}
		return nil, t.errf(pos, "unzip: not an array of tuples")
	}
	out := make(value.Tuple, len(a.Fields))
	for i, f := range a.Fields {
		out[i] = f
	}
	return out, nil
}

func intrIdentity(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
	return args[0], nil
}

// callSite is the position of the innermost call, i.e. of the user's call
// of a prelude wrapper such as trace.
func (t *thread) callSite(pos syntax.Pos) syntax.Pos {
	if len(t.stack) > 0 && t.stack[len(t.stack)-1].Pos.IsValid() {
		return t.stack[len(t.stack)-1].Pos
	}
	return pos
}

func intrTrace(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
	if t.in.opts.Trace != nil {
		t.in.opts.Trace(t.callSite(pos), "", args[0])
	}
	return args[0], nil
}

func intrBreak(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
	if t.in.opts.Break != nil {
		t.in.opts.Break(BreakInfo{Pos: t.callSite(pos), Stack: append([]Frame(nil), t.stack...),
			Locals: []Binding{{Name: "x", Value: args[0]}}})
	}
	return args[0], nil
}
