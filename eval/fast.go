package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Specialised SOACs over primitive arrays. Each returns ok=false when it
// does not apply; when it applies it computes exactly the value and cost
// that the general path would (same applications, same order, same
// charges), only faster: a built-in operator runs as a typed Go loop, and
// any other function of scalars, tuples and records runs as a flat kernel
// (kernel_flat.go) or else a register kernel, which compileRecordFn
// (kernel_record.go) compiles for the layouts of the arguments.

// kernel is a compiled function of parameters of scalars, tuples and
// records.
type kernel struct {
	nregs   int
	params  [][]int // the registers of each parameter's scalars, in layout order
	out     knode   // a scalar result, or
	outT    ktuple  // a tuple or record result in outRegs,
	outRegs []int
	// outLayout is such a result's layout over outRegs
	outLayout *kval
}

// runKernel runs body, turning a kernel panic into its error.
func runKernel(body func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			kp, ok := r.(kpanic)
			if !ok {
				panic(r)
			}
			err = kp.err
		}
	}()
	body()
	return nil
}

func (t *thread) fastMap(f value.Value, xs *value.Array, pos syntax.Pos) (value.Value, bool, error) {
	if t.in.noFast {
		return nil, false, nil
	}
	if r, done, err := t.flatMap(f, xs, pos); done {
		return r, true, err
	}
	layout, comps := elemLayout(xs)
	if layout == nil {
		return nil, false, nil
	}
	k, ok := t.compileRecordFn(f, []*kval{layout})
	if !ok {
		return nil, false, nil
	}
	n := int(xs.Len())
	if err := t.checkAlloc(pos, int64(n), 8); err != nil {
		return nil, true, err
	}
	readers := make([]func(int) value.Prim, len(comps))
	for i, c := range comps {
		readers[i] = reader(c.T, c.Data)
	}
	nout := 1
	if k.out == nil {
		nout = len(k.outRegs)
	}
	outs := make([]any, nout)
	writers := make([]func(int, value.Prim), nout)
	types := make([]value.PrimType, nout)
	frame := make([]value.Prim, k.nregs)
	cost := t.cost
	base, d0, p1, pp := t.live, t.D, t.pk1, t.pkP
	var st stats
	preg := k.params[0]
	err := runKernel(func() {
		for i := 0; i < n; i++ {
			if err := t.tick(pos); err != nil {
				panic(kpanic{err})
			}
			for c, rd := range readers {
				frame[preg[c]] = rd(i)
			}
			if cost {
				t.D, t.pk1, t.pkP = 0, base, base
			}
			if k.out != nil {
				r := k.out(frame)
				if i == 0 {
					types[0], outs[0] = r.T, value.MakeData(r.T, n)
					writers[0] = writer(outs[0])
				}
				if r.T != types[0] {
					r = value.Convert(r, types[0])
				}
				writers[0](i, r)
			} else {
				k.outT(frame)
				for j, reg := range k.outRegs {
					r := frame[reg]
					if i == 0 {
						types[j], outs[j] = r.T, value.MakeData(r.T, n)
						writers[j] = writer(outs[j])
					}
					if r.T != types[j] {
						r = value.Convert(r, types[j])
					}
					writers[j](i, r)
				}
			}
			if cost {
				st.add(measure{D: t.D, S1: t.pk1 - base, SP: t.pkP - base})
				t.live = base
			}
		}
	})
	if cost {
		t.D, t.pk1, t.pkP, t.live = d0, p1, pp, base
	}
	if err != nil {
		return nil, true, err
	}
	var r *value.Array
	if k.out != nil {
		r = value.NewPrimArrayData(types[0], []int64{int64(n)}, outs[0])
	} else {
		cols := make([]*value.Array, nout)
		for j := range cols {
			cols[j] = value.NewPrimArrayData(types[j], []int64{int64(n)}, outs[j])
		}
		r = k.outLayout.array(&cols, int64(n))
	}
	if cost {
		rs := r.Words()
		t.soacStep(base, int64(n), 1, st.maxD, rs+st.maxS1, rs+st.sumSP, rs)
	}
	return r, true, nil
}

// builtinOf recognises a function that is exactly a built-in binary
// operator on its two parameters: (+), i32.+ of the prelude (a call of an
// intrinsic), \x y -> x + y.
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
		a, ok1 := simplePat(c.params[0])
		b, ok2 := simplePat(c.params[1])
		if !ok1 || !ok2 || a == "" || b == "" || a == b {
			return 0, false
		}
		isVar := func(x syntax.Expr, name string) bool {
			v, ok := unparen(x).(*syntax.Var)
			return ok && len(v.Name.Quals) == 0 && v.Name.Name == name
		}
		switch body := unparen(c.body).(type) {
		case *syntax.Binary:
			if op, ok := t.isBuiltinOp(body, body.Op, body.Backtick, c.env); ok && isVar(body.L, a) && isVar(body.R, b) {
				return op, true
			}
		case *syntax.Apply:
			if len(body.Args) != 2 || !isVar(body.Args[0], a) || !isVar(body.Args[1], b) {
				return 0, false
			}
			fv, ok := unparen(body.Fn).(*syntax.Var)
			if !ok {
				return 0, false
			}
			g, err := t.evalVar(fv, c.env)
			if err != nil {
				return 0, false
			}
			if gf, ok := g.(*value.Fun); ok {
				if in, ok := gf.Impl.(*intrinsic); ok {
					if op, ok := intrinsicOps[in.name]; ok {
						return op, true
					}
				}
			}
		}
	}
	return 0, false
}

var intrinsicOps = map[string]value.BinOp{
	"add": value.OpAdd, "mul": value.OpMul, "min": value.OpMin, "max": value.OpMax,
	"and": value.OpAnd, "or": value.OpOr, "xor": value.OpXor, "sub": value.OpSub,
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
	if r, done, err := t.flatReduce(op, xs, pos); done {
		return r, true, err
	}
	l := &kval{reg: -1, typ: xs.T}
	k, ok := t.compileRecordFn(op, []*kval{l, l})
	if !ok || k.out == nil {
		return nil, false, nil
	}
	get := reader(xs.T, xs.Data)
	frame := make([]value.Prim, k.nregs)
	ra, rb := k.params[0][0], k.params[1][0]
	var st stats
	cost := t.cost
	d0, p1, pp := t.D, t.pk1, t.pkP
	apply := func(a, b value.Prim) value.Prim {
		frame[ra], frame[rb] = a, b
		if cost {
			t.D, t.pk1, t.pkP = 0, base, base
		}
		r := k.out(frame)
		if cost {
			st.add(measure{D: t.D, S1: t.pk1 - base, SP: t.pkP - base})
			t.live = base
		}
		return r
	}
	var r value.Prim
	err := runKernel(func() {
		var stack [64]value.Prim
		var sizes [64]int64
		sp := 0
		for i := 0; i < int(n); i++ {
			if err := t.tick(pos); err != nil {
				panic(kpanic{err})
			}
			v, sz := get(i), int64(1)
			for sp > 0 && sizes[sp-1] == sz {
				v = apply(stack[sp-1], v)
				sz *= 2
				sp--
			}
			stack[sp], sizes[sp] = v, sz
			sp++
		}
		for sp > 1 {
			stack[sp-2] = apply(stack[sp-2], stack[sp-1])
			sp--
		}
		r = stack[0]
	})
	if cost {
		t.D, t.pk1, t.pkP, t.live = d0, p1, pp, base
	}
	if err != nil {
		return nil, true, err
	}
	if cost {
		t.soacStep(base, n, 1, lg(n)*st.maxD, st.maxS1, (n+1)/2*st.maxSP, 1)
	}
	return r, true, nil
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

// fastReduceTuple reduces an array of tuples of scalars (zip xs ys) with a
// compiled operator on tuples, such as an arg-min.
func (t *thread) fastReduceTuple(op value.Value, xs *value.Array, pos syntax.Pos) (value.Value, bool, error) {
	if r, done, err := t.flatReduce(op, xs, pos); done {
		return r, true, err
	}
	layout, comps := recordLayout(xs)
	if layout == nil {
		return nil, false, nil
	}
	// the result must be laid out as the elements
	k, ok := t.compileRecordFn(op, []*kval{layout, layout})
	m := len(comps)
	if !ok || k.outLayout == nil || !k.outLayout.sameShape(layout) || k.outT == nil || len(k.outRegs) != m {
		return nil, false, nil
	}
	n := int(xs.Len())
	base := t.live
	readers := make([]func(int) value.Prim, m)
	for i, c := range comps {
		readers[i] = reader(c.T, c.Data)
	}
	var st stats
	cost := t.cost
	d0, p1, pp := t.D, t.pk1, t.pkP
	combine := t.tupleCombine(k, m, base, &st)
	var result []value.Prim
	err := runKernel(func() {
		result = t.foldTree(n, m, make([]value.Prim, 65*m), pos, func(i int, row []value.Prim) {
			for c, rd := range readers {
				row[c] = rd(i)
			}
		}, combine)
	})
	if cost {
		t.D, t.pk1, t.pkP, t.live = d0, p1, pp, base
	}
	if err != nil {
		return nil, true, err
	}
	r := layout.value(&result)
	if cost {
		t.soacStep(base, int64(n), 1, lg(int64(n))*st.maxD, st.maxS1, (int64(n)+1)/2*st.maxSP, int64(m))
	}
	return r, true, nil
}

// tupleCombine is the combination of a reduction's compiled operator k on
// m scalars a side: it folds b into a, its cost measured into st from
// the live size base.
func (t *thread) tupleCombine(k *kernel, m int, base int64, st *stats) func(a, b []value.Prim) {
	frame := make([]value.Prim, k.nregs)
	cost := t.cost
	return func(a, b []value.Prim) {
		for i := 0; i < m; i++ {
			frame[k.params[0][i]], frame[k.params[1][i]] = a[i], b[i]
		}
		if cost {
			t.D, t.pk1, t.pkP = 0, base, base
		}
		k.outT(frame)
		if cost {
			st.add(measure{D: t.D, S1: t.pk1 - base, SP: t.pkP - base})
			t.live = base
		}
		for i, r := range k.outRegs {
			a[i] = frame[r]
		}
	}
}

// foldTree reduces n elements of m scalars each (load puts element i in
// row) in the reference path's tree order, combine folding b into a,
// and returns the result. Its stack's entry j lives in stack[j*m:]
// (65·m scalars): an element is read into the next free entry and a
// combination leaves its result in the lower one, so nothing is
// allocated per element. A tick at pos comes before each element; it
// panics with kpanic (run it under runKernel).
func (t *thread) foldTree(n, m int, buf []value.Prim, pos syntax.Pos, load func(i int, row []value.Prim), combine func(a, b []value.Prim)) []value.Prim {
	stack := make([][]value.Prim, 0, 65)
	var sizes []int
	for i := 0; i < n; i++ {
		if err := t.tick(pos); err != nil {
			panic(kpanic{err})
		}
		j := len(stack)
		v := buf[j*m : (j+1)*m : (j+1)*m]
		load(i, v)
		sz := 1
		for len(stack) > 0 && sizes[len(sizes)-1] == sz {
			top := stack[len(stack)-1]
			combine(top, v)
			v, sz = top, sz*2
			stack, sizes = stack[:len(stack)-1], sizes[:len(sizes)-1]
		}
		stack, sizes = append(stack, v), append(sizes, sz)
	}
	for len(stack) > 1 {
		combine(stack[len(stack)-2], stack[len(stack)-1])
		stack = stack[:len(stack)-1]
	}
	return stack[0]
}
