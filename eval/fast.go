package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Specialised SOACs over primitive arrays. Each returns ok=false when it
// does not apply; when it applies it computes exactly the value and cost
// that the general path would (same applications, same order, same
// charges), only faster: a built-in operator runs as a typed Go loop, and
// any other function of scalars, tuples and records as a flat kernel
// (kernel_flat.go) compiled for the layouts of the arguments.

func (t *thread) fastMap(f value.Value, xs *value.Array, pos syntax.Pos) (value.Value, bool, error) {
	if t.in.noFast {
		return nil, false, nil
	}
	return t.flatMap(f, xs, pos)
}

// builtinOf recognises a function that is exactly a built-in binary
// operator on its two parameters: (+), i32.+ of the prelude (a call of an
// intrinsic), \x y -> x + y. It reads the closure's body with its names
// and operators as the closure compiler resolved them (resolutionOf).
func (t *thread) builtinOf(f value.Value) (value.BinOp, bool) {
	fn, ok := f.(*value.Fun)
	if !ok {
		return 0, false
	}
	switch c := fn.Impl.(type) {
	case *opFn:
		return c.op, true
	case *closure:
		if len(c.params) != 2 {
			return 0, false
		}
		res := t.resolutionOf(c)
		a, ok1 := paramSlot(c.params[0], res)
		b, ok2 := paramSlot(c.params[1], res)
		if !ok1 || !ok2 {
			return 0, false
		}
		isUse := func(x syntax.Expr, slot int) bool {
			v, ok := unparen(x).(*syntax.Var)
			if !ok || len(v.Name.Quals) > 0 {
				return false
			}
			s, known := res.uses[v]
			return known && s == slot
		}
		switch body := unparen(c.body).(type) {
		case *syntax.Binary:
			if how := res.ops[body]; how.builtin && isUse(body.L, a) && isUse(body.R, b) {
				return how.op, true
			}
		case *syntax.Apply:
			if len(body.Args) != 2 || !isUse(body.Args[0], a) || !isUse(body.Args[1], b) {
				return 0, false
			}
			fv, ok := unparen(body.Fn).(*syntax.Var)
			if s, known := res.uses[fv]; !ok || !known || s != free {
				return 0, false // a local function
			}
			g, err := t.evalVar(fv, c.env)
			if err != nil {
				return 0, false
			}
			if gf, ok := g.(*value.Fun); ok {
				if in, ok := gf.Impl.(*intrinsic); ok {
					if op, ok := intrinsicBinOps[in.name]; ok {
						return op, true
					}
				}
			}
		}
	}
	return 0, false
}

// paramSlot is the slot of a parameter that is one name (in parentheses,
// ascribed or with attributes), as res gives it.
func paramSlot(p syntax.Pat, res *resolution) (int, bool) {
	if s, ok := res.pats[p]; ok && s.kind == pName {
		return s.slot, true
	}
	return 0, false
}

// reducible ops never fail and are associative and commutative on
// integers (with wrap-around), so any order gives the same integer result.
func reducible(op value.BinOp) bool {
	switch op {
	case value.OpAdd, value.OpMul, value.OpMin, value.OpMax, value.OpAnd, value.OpOr,
		value.OpXor, value.OpLogAnd, value.OpLogOr:
		return true
	}
	return false
}

// opStats are the measures of n−1 applications of a built-in operator.
func opStats(apps int64) stats {
	if apps <= 0 {
		return stats{}
	}
	return stats{maxD: 1, maxS1: 1, maxSP: 1, sumSP: apps, count: apps, w: apps}
}

func (t *thread) fastReduce(op value.Value, xs *value.Array, pos syntax.Pos) (value.Value, bool, error) {
	if t.in.noFast {
		return nil, false, nil
	}
	if xs.Kind == value.KTuple || xs.Kind == value.KRecord {
		return t.fastReduceTuple(op, xs, pos)
	}
	if xs.Kind != value.KPrim || len(xs.Shape) != 1 {
		return nil, false, nil
	}
	n := xs.Len()
	base := t.live
	if bop, ok := t.builtinOf(op); ok && reducible(bop) {
		if r, ok := nativeReduce(bop, xs); ok {
			if t.cost {
				st := opStats(n - 1)
				t.W += st.w
				t.soacStep(base, n, 1, lg(n)*st.maxD, st.maxS1, (n+1)/2*st.maxSP, 1)
			}
			return r, true, nil
		}
	}
	return t.flatReduce(op, xs, pos)
}

func (t *thread) fastScan(op value.Value, xs *value.Array, pos syntax.Pos) (value.Value, bool, error) {
	if t.in.noFast {
		return nil, false, nil
	}
	if xs.Kind != value.KPrim || len(xs.Shape) != 1 {
		return nil, false, nil
	}
	bop, ok := t.builtinOf(op)
	if !ok || !reducible(bop) {
		return nil, false, nil
	}
	n := xs.Len()
	base := t.live
	out := value.NewPrimArray(xs.T, []int64{n})
	if !nativeScan(bop, xs, out) {
		return nil, false, nil
	}
	if t.cost {
		st := opStats(n - 1)
		rs := out.Words()
		t.W += 2 * st.w
		t.soacStep(base, n, 1, 2*lg(n)*st.maxD, rs+st.maxS1, rs+(n+1)/2*st.maxSP, rs)
	}
	return out, true, nil
}

func (t *thread) fastHist(op value.Value, dest, is, vs *value.Array, pos syntax.Pos, d int) (value.Value, int64, bool, error) {
	if t.in.noFast {
		return nil, 0, false, nil
	}
	if d != 1 || dest.Kind != value.KPrim || len(dest.Shape) != 1 || vs.Kind != value.KPrim ||
		len(vs.Shape) != 1 || vs.T != dest.T || is.Kind != value.KPrim || len(is.Shape) != 1 {
		return nil, 0, false, nil
	}
	bop, ok := t.builtinOf(op)
	if !ok || !reducible(bop) {
		return nil, 0, false, nil
	}
	apps, ok := nativeHist(bop, dest, is, vs)
	return dest, apps, ok, nil
}

// fastReduceTuple reduces an array of tuples or records of scalars (zip
// xs ys) with an operator on them that compiles flat, such as an
// arg-min.
func (t *thread) fastReduceTuple(op value.Value, xs *value.Array, pos syntax.Pos) (value.Value, bool, error) {
	return t.flatReduce(op, xs, pos)
}
