package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Map feeding reduce: `reduce op ne (map f xs)` and `reduce op ne (map2 f
// xs ys)`, where reduce, map and map2 are the prelude's (its declarations,
// by identity: a user's function of the same name is another), op is a
// built-in operator and f compiles to a scalar kernel, run as one loop without materialising the mapped array. The
// value is the same (the same applications in the same order) and so is
// the cost: the map's step and the reduction's step are charged exactly
// as the unfused evaluation charges them, intermediate array included,
// because COST_MODEL.md prices the program as written.

// fusedSOACs are the prelude's functions that the fusion knows, by the
// intrinsic each applies to its parameters: TestPreludeSOACsWrap checks
// that the prelude's declarations are such wrappers, and so cost what
// the intrinsic costs.
var fusedSOACs = []string{"map", "map2", "reduce", "reduce_comm"}

// markPreludeSOACs records the declarations that the prelude's names of
// fusedSOACs denote. Later definitions of the same names (a user's map)
// are other declarations, and never taken for these.
func (in *Interp) markPreludeSOACs() {
	in.preludeSOACs = map[*syntax.FunBind]string{}
	for _, name := range fusedSOACs {
		v, ok := in.top.lookup(name)
		if !ok {
			continue
		}
		if c := closureOf(v); c != nil && c.decl != nil {
			in.preludeSOACs[c.decl] = name
		}
	}
}

// closureOf is f's closure, or nil for another value.
func closureOf(f value.Value) *closure {
	fn, ok := f.(*value.Fun)
	if !ok {
		return nil
	}
	c, _ := fn.Impl.(*closure)
	return c
}

// preludeSOAC is the name of the prelude function of fusedSOACs that f
// is (made from its declaration, whatever name it was reached by), or "".
func (t *thread) preludeSOAC(f value.Value) string {
	if c := closureOf(f); c != nil && c.decl != nil {
		return t.in.preludeSOACs[c.decl]
	}
	return ""
}

// fusedMapReduce evaluates x when it has the fusable shape; ok is false
// (and nothing was evaluated) otherwise.
func (t *thread) fusedMapReduce(x *syntax.Apply, e *env) (value.Value, bool, error) {
	if t.in.noFast || len(x.Args) != 3 {
		return nil, false, nil
	}
	inner, ok := unparen(x.Args[2]).(*syntax.Apply)
	if !ok || (len(inner.Args) != 2 && len(inner.Args) != 3) {
		return nil, false, nil
	}
	return t.fusedMapReduceBy(x, inner, func(k int) (value.Value, error) {
		switch k {
		case fuseRed:
			return t.evalVar(unparen(x.Fn).(*syntax.Var), e)
		case fuseMap:
			return t.evalVar(unparen(inner.Fn).(*syntax.Var), e)
		case fuseOp, fuseNe:
			return t.eval(x.Args[k-fuseOp], e)
		}
		return t.eval(inner.Args[k-fuseArgs], e)
	})
}

// The parts of reduce op ne (map f xs…) that fusedMapReduceBy asks its
// evaluator for: the two function names, op, ne, then f and the arrays.
const (
	fuseRed = iota
	fuseMap
	fuseOp
	fuseNe
	fuseArgs
)

// fusedMapReduceBy is fusedMapReduce with the parts of x evaluated by ev
// (the walker's or compiled code), in the walker's order.
func (t *thread) fusedMapReduceBy(x, inner *syntax.Apply, ev func(k int) (value.Value, error)) (value.Value, bool, error) {
	_, ok1 := unparen(x.Fn).(*syntax.Var)
	_, ok2 := unparen(inner.Fn).(*syntax.Var)
	if !ok1 || !ok2 {
		return nil, false, nil
	}
	// variables cost nothing, so resolving them first changes no cost
	rf, err := ev(fuseRed)
	if err != nil {
		return nil, false, nil
	}
	if r := t.preludeSOAC(rf); r != "reduce" && r != "reduce_comm" {
		return nil, false, nil
	}
	mf, err := ev(fuseMap)
	if err != nil {
		return nil, false, nil
	}
	if want := [...]string{2: "map", 3: "map2"}[len(inner.Args)]; t.preludeSOAC(mf) != want {
		return nil, false, nil
	}

	// From here on, evaluate as evalApply would, and fall back to the
	// ordinary applications when the data do not suit the fused loop.
	base0 := t.live
	op, err := ev(fuseOp)
	if err != nil {
		return nil, true, err
	}
	ne, err := ev(fuseNe)
	if err != nil {
		return nil, true, err
	}
	base1 := t.live
	margs := make([]value.Value, len(inner.Args))
	for i := range inner.Args {
		if margs[i], err = ev(fuseArgs + i); err != nil {
			return nil, true, err
		}
	}
	held1 := t.live - base1
	r, done, err := t.fusedLoop(op, margs, held1, inner.Pos(), x.Pos())
	if err == nil && !done {
		r, done, err = t.fusedRecordLoop(op, margs, held1, inner.Pos(), x.Pos())
	}
	if err != nil {
		return nil, true, err
	}
	if done {
		if t.cost {
			t.live = base0 + value.Size(r) // the reduction's result is fresh
		}
		return r, true, nil
	}
	mapped, err := t.apply(mf, margs, inner.Pos())
	if err != nil {
		return nil, true, err
	}
	t.live -= held1
	held0 := t.live - base0
	v, err := t.apply(rf, []value.Value{op, ne, mapped}, x.Pos())
	t.live -= held0
	return v, true, err
}

// fusedLoop runs the fused map and reduction when the arrays, f and op
// suit it; done is false (with nothing charged) otherwise. On success the
// thread's live space is that after the reduction step, before the
// caller releases the operands.
func (t *thread) fusedLoop(op value.Value, margs []value.Value, held1 int64, mapPos, redPos syntax.Pos) (value.Value, bool, error) {
	bop, ok := t.builtinOf(op)
	if !ok || !reducible(bop) {
		return nil, false, nil
	}
	f := margs[0]
	var comps []*value.Array
	for _, a := range margs[1:] {
		arr, ok := a.(*value.Array)
		if !ok || arr.Kind != value.KPrim || len(arr.Shape) != 1 {
			return nil, false, nil
		}
		if len(comps) > 0 && arr.Len() != comps[0].Len() {
			return nil, false, nil // let the ordinary path report it
		}
		comps = append(comps, arr)
	}
	n := int(comps[0].Len())
	if n == 0 {
		return nil, false, nil
	}
	if acc, ok, err := t.fusedTypedF64(bop, f, comps, mapPos); err != nil {
		return nil, false, err
	} else if ok {
		if t.cost {
			// what the kernel of the operator charges: one scalar step an
			// instance, (W, D, S1, S∞) = (1, 1, 1, 1)
			nn := int64(n)
			t.W += nn
			st := stats{maxD: 1, maxS1: 1, maxSP: 1, sumSP: nn, sumD: nn, count: nn}
			t.fusedCharge(nn, held1, st)
		}
		return acc, true, nil
	}
	params := []int{1}
	if len(comps) == 2 {
		params = []int{1, 1}
	}
	k, ok := t.compileFn(f, params)
	if !ok || k.out == nil {
		return nil, false, nil
	}
	readers := make([]func(int) value.Prim, len(comps))
	for i, c := range comps {
		readers[i] = reader(c.T, c.Data)
	}
	frame := make([]value.Prim, k.nregs)
	cost := t.cost
	base, d0, p1, pp := t.live, t.D, t.pk1, t.pkP
	var st stats
	var acc value.Prim
	var opFn func(a, b value.Prim) value.Prim
	err := runKernel(func() {
		var stack [64]value.Prim
		var sizes [64]int
		sp := 0
		for i := 0; i < n; i++ {
			if err := t.tick(mapPos); err != nil {
				panic(kpanic{err})
			}
			for c, rd := range readers {
				frame[k.params[c][0]] = rd(i)
			}
			if cost {
				t.D, t.pk1, t.pkP = 0, base, base
			}
			v := k.out(frame)
			if cost {
				st.add(measure{D: t.D, S1: t.pk1 - base, SP: t.pkP - base})
				t.live = base
			}
			if opFn == nil {
				opFn = typedOp(bop, v.T)
				if opFn == nil {
					opFn = func(a, b value.Prim) value.Prim {
						r, err := binPrim(bop, a, b)
						if err != nil {
							panic(kpanic{t.errf(redPos, "%v", err)})
						}
						return r
					}
				}
			}
			sz := 1
			for sp > 0 && sizes[sp-1] == sz {
				v = opFn(stack[sp-1], v)
				sz *= 2
				sp--
			}
			stack[sp], sizes[sp] = v, sz
			sp++
		}
		for sp > 1 {
			stack[sp-2] = opFn(stack[sp-2], stack[sp-1])
			sp--
		}
		acc = stack[0]
	})
	if cost {
		t.D, t.pk1, t.pkP, t.live = d0, p1, pp, base
	}
	if err != nil {
		return nil, false, err
	}
	if cost {
		t.fusedCharge(int64(n), held1, st)
	}
	return acc, true, nil
}

// fusedCharge charges the steps of the map (instances st) and of the
// reduction by a built-in operator over its n results.
func (t *thread) fusedCharge(nn, held1 int64, st stats) {
	// the map's step, as intrMap charges it: its result is a 1-d array
	rs := nn + 1
	t.soacStep(t.live, nn, 1, st.maxD, rs+st.maxS1, rs+st.sumSP, rs)
	t.live -= held1 // the map's arguments are released, its result stays
	red := opStats(nn - 1)
	t.W += red.w
	t.soacStep(t.live, nn, 1, lg(nn)*red.maxD, red.maxS1, (nn+1)/2*red.maxSP, 1)
}

// fusedTypedF64 is the fused loop for a built-in operator f over two f64
// arrays (reduce (+) 0 (map2 (*) xs ys)) reduced by a built-in operator:
// a Go loop over the float64 slices, combining in the same tree as the
// kernel loop above (so the same roundings), with nothing boxed. The
// caller charges the costs, which depend on n only.
func (t *thread) fusedTypedF64(bop value.BinOp, f value.Value, comps []*value.Array, pos syntax.Pos) (value.Value, bool, error) {
	if len(comps) != 2 || comps[0].T != value.F64 || comps[1].T != value.F64 {
		return nil, false, nil
	}
	fop, ok := t.builtinOf(f)
	if !ok {
		return nil, false, nil
	}
	if _, isOp := f.(*value.Fun).Impl.(*opFn); !isOp {
		return nil, false, nil // a wrapper's kernel may charge more than one step
	}
	mul, ok1 := f64Op(fop)
	red, ok2 := f64Op(bop)
	if !ok1 || !ok2 {
		return nil, false, nil
	}
	xs, ys := comps[0].Data.([]float64), comps[1].Data.([]float64)
	// one tick an element, as the kernel loop counts them, checked once:
	// the loop cannot fail and is over before anything else runs
	before := t.ticks
	t.ticks += len(xs)
	if t.ticks>>10 != before>>10 { // the loop passes a tick that checks
		if err := t.checkCancel(pos); err != nil {
			return nil, false, err
		}
		if err := t.checkMem(pos, 0, -1); err != nil {
			return nil, false, err
		}
	}
	var stack [64]float64
	var sizes [64]int
	sp := 0
	for i := range xs {
		v := mul(xs[i], ys[i])
		sz := 1
		for sp > 0 && sizes[sp-1] == sz {
			v = red(stack[sp-1], v)
			sz *= 2
			sp--
		}
		stack[sp], sizes[sp] = v, sz
		sp++
	}
	for sp > 1 {
		stack[sp-2] = red(stack[sp-2], stack[sp-1])
		sp--
	}
	return mkF64(stack[0]), true, nil
}

// fusedRecordLoop is fusedLoop for a map whose function compiles to a
// kernel with a record or tuple result (kernel_record.go), reduced by an
// operator on such records: the map's results go to a buffer of scalars
// instead of typed columns that the reduction would read back, and the
// reduction combines them in fastReduceTuple's tree. All map instances
// run before the first combination, as unfused, so that an error is the
// one the unfused evaluation reports.
func (t *thread) fusedRecordLoop(op value.Value, margs []value.Value, held1 int64, mapPos, redPos syntax.Pos) (value.Value, bool, error) {
	if r, done, err := t.flatRecordLoop(op, margs, held1, mapPos, redPos); done {
		return r, true, err
	}
	if len(margs) != 2 || t.in.noFast {
		return nil, false, nil
	}
	xs, ok := margs[1].(*value.Array)
	if !ok || len(xs.Shape) != 1 || xs.Len() == 0 {
		return nil, false, nil
	}
	var layout *kval
	var comps []*value.Array
	if xs.Kind == value.KPrim {
		layout, comps = &kval{reg: -1, typ: xs.T}, []*value.Array{xs}
	} else if layout, comps = recordLayout(xs); layout == nil {
		return nil, false, nil
	}
	mk, ok := t.compileRecordFn(margs[0], []*kval{layout})
	if !ok || mk.outLayout == nil {
		return nil, false, nil
	}
	out := mk.outLayout
	rk, ok := t.compileRecordFn(op, []*kval{out, out})
	if !ok || rk.outLayout == nil || !rk.outLayout.sameShape(out) {
		return nil, false, nil
	}
	n, m := int(xs.Len()), len(mk.outRegs)
	if err := t.checkAlloc(mapPos, int64(n), 8); err != nil { // as fastMap
		return nil, true, err
	}
	readers := make([]func(int) value.Prim, len(comps))
	for i, c := range comps {
		readers[i] = reader(c.T, c.Data)
	}
	// the map's results, then the reduction's stack: a buffer of the
	// thread's (kernels never run a SOAC inside, so nothing else uses it)
	if need := n*m + 65*m; len(t.fuseBuf) < need {
		t.fuseBuf = make([]value.Prim, need)
	}
	buf, sbuf := t.fuseBuf[:n*m], t.fuseBuf[n*m:n*m+65*m]
	types := make([]value.PrimType, m)
	mframe := make([]value.Prim, mk.nregs)
	cost := t.cost
	base, d0, p1, pp := t.live, t.D, t.pk1, t.pkP
	var mst, rst stats
	var result []value.Prim
	err := runKernel(func() {
		// the map, as fastMap runs it
		for i := 0; i < n; i++ {
			if err := t.tick(mapPos); err != nil {
				panic(kpanic{err})
			}
			for c, rd := range readers {
				mframe[mk.params[0][c]] = rd(i)
			}
			if cost {
				t.D, t.pk1, t.pkP = 0, base, base
			}
			mk.outT(mframe)
			row := buf[i*m : (i+1)*m]
			for j, reg := range mk.outRegs {
				r := mframe[reg]
				if i == 0 {
					types[j] = r.T
				}
				if r.T != types[j] {
					r = value.Convert(r, types[j]) // as the typed column holds it
				}
				row[j] = r
			}
			if cost {
				mst.add(measure{D: t.D, S1: t.pk1 - base, SP: t.pkP - base})
				t.live = base
			}
		}
		// the reduction, as fastReduceTuple runs it
		result = t.foldTree(n, m, sbuf, redPos, func(i int, row []value.Prim) {
			copy(row, buf[i*m:(i+1)*m])
		}, t.tupleCombine(rk, m, base, &rst))
	})
	if cost {
		t.D, t.pk1, t.pkP, t.live = d0, p1, pp, base
	}
	if err != nil {
		return nil, true, err
	}
	r := out.value(&result)
	if cost {
		// the map's step, as fastMap charges it: its result is an array of
		// m columns of n scalars
		nn := int64(n)
		rs := int64(m) * (nn + 1)
		t.soacStep(t.live, nn, 1, mst.maxD, rs+mst.maxS1, rs+mst.sumSP, rs)
		t.live -= held1 // the map's arguments are released, its result stays
		t.soacStep(t.live, nn, 1, lg(nn)*rst.maxD, rst.maxS1, (nn+1)/2*rst.maxSP, value.Size(r))
	}
	return r, true, nil
}
