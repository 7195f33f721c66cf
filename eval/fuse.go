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

// The parts of reduce op ne (map f xs…) that fusedMapReduceBy asks its
// evaluator for: the two function names, op, ne, then f and the arrays.
const (
	fuseRed = iota
	fuseMap
	fuseOp
	fuseNe
	fuseArgs
)

// fusedMapReduceBy evaluates x, of the shape f a (g b c) or f a (g b c d)
// (mayFuse; inner is g's application), as one loop where f is the
// prelude's reduce and g its map or map2; ok is false, and nothing was
// evaluated but f and g, where it does not apply. ev evaluates x's
// parts (compiled code), in the order of the plain applications, whose
// figures this path gives (TestKernelsAgree checks it with noFast).
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

	// From here on, evaluate as the applications would, and fall back to the
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
	r, done, err := t.fusedLoop(op, margs, held1, inner.Pos())
	if err == nil && !done {
		r, done, err = t.fusedFlatLoop(op, margs, held1, inner.Pos(), x.Pos())
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

// fusedLoop runs the fused map and reduction as one typed Go loop when f
// and op are built-in operators on two f64 arrays (fusedTypedF64); done
// is false (with nothing charged) otherwise. On success the thread's live
// space is that after the reduction step, before the caller releases the
// operands.
func (t *thread) fusedLoop(op value.Value, margs []value.Value, held1 int64, mapPos syntax.Pos) (value.Value, bool, error) {
	bop, ok := t.builtinOf(op)
	if !ok || !reducible(bop) || len(margs) != 3 {
		return nil, false, nil
	}
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
	acc, ok, err := t.fusedTypedF64(bop, margs[0], comps, mapPos)
	if err != nil || !ok {
		return nil, false, err
	}
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
	start := 0
	if fop == value.OpMul && bop == value.OpAdd {
		// a dot product: the tree's subtrees of 8 elements (those that
		// start at multiples of 8) summed in place, then pushed as the
		// loop below would have left them; float64() rounds each
		// product and sum, as the loop's calls do (no fused multiply-add)
		start = len(xs) &^ 7
		ys := ys[:len(xs)]
		for i := 0; i < start; i += 8 {
			x, y := xs[i:i+8], ys[i:i+8]
			a := float64(float64(x[0]*y[0])+float64(x[1]*y[1])) + float64(float64(x[2]*y[2])+float64(x[3]*y[3]))
			b := float64(float64(x[4]*y[4])+float64(x[5]*y[5])) + float64(float64(x[6]*y[6])+float64(x[7]*y[7]))
			v, sz := a+b, 8
			for sp > 0 && sizes[sp-1] == sz {
				v = stack[sp-1] + v
				sz *= 2
				sp--
			}
			stack[sp], sizes[sp] = v, sz
			sp++
		}
	}
	for i := start; i < len(xs); i++ {
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
