package eval

import (
	"math"

	"fut/eval/value"
	"fut/interp/syntax"
)

// SOACs over flat kernels (kernel_flat.go): the loops of fusedRecordLoop
// with the map's function and the reduction's operator compiled flat,
// their results kept as scalar bits, and the charges of the n
// applications added once from the kernels' static figures.

// colLoader copies element i of the scalar column c into register reg.
func colLoader(c *value.Array, reg int) func(r []uint64, i int) {
	switch d := c.Data.(type) {
	case []float32:
		if c.T != value.F32 {
			break // an f16 column
		}
		return func(r []uint64, i int) { r[reg] = uint64(math.Float32bits(d[i])) }
	case []float64:
		return func(r []uint64, i int) { r[reg] = math.Float64bits(d[i]) }
	case []int64:
		return func(r []uint64, i int) { r[reg] = uint64(d[i]) }
	case []int32:
		return func(r []uint64, i int) { r[reg] = uint64(int64(d[i])) }
	}
	ty, d := c.T, c.Data
	return func(r []uint64, i int) { r[reg] = regBits(value.DataGet(ty, d, i)) }
}

// flatStats are the stats of n applications of k.
func flatStats(k *flatKernel, n int64) stats {
	if n <= 0 {
		return stats{}
	}
	return stats{maxD: k.w, sumD: n * k.w, maxS1: k.peak, maxSP: k.peak, sumSP: n * k.peak, count: n}
}

// flatRecordLoop is fusedRecordLoop (which has checked the arrays and
// worked out the layout and columns of xs) with flat kernels; done is
// false, with nothing evaluated or charged, when f or op does not
// compile flat.
func (t *thread) flatRecordLoop(op, f value.Value, layout *kval, comps []*value.Array, n int, held1 int64, mapPos, redPos syntax.Pos) (value.Value, bool, error) {
	mk, ok := t.flatFn(f, []*kval{layout})
	if !ok || mk.out.scalar() {
		return nil, false, nil
	}
	out := mk.out
	rk, ok := t.flatFn(op, []*kval{out, out})
	if !ok || !rk.out.sameTypes(out) {
		return nil, false, nil
	}
	m := len(mk.outRegs)
	if err := t.checkAlloc(mapPos, int64(n), 8); err != nil { // as fastMap
		return nil, true, err
	}
	mregs := mk.frame()
	loaders := make([]func(r []uint64, i int), len(comps))
	for c, col := range comps {
		loaders[c] = colLoader(col, mk.arg(0)[c])
	}
	// the map's results, then the reduction's stack
	if need := n*m + 65*m; len(t.flatBuf) < need {
		t.flatBuf = make([]uint64, need)
	}
	buf, sbuf := t.flatBuf[:n*m], t.flatBuf[n*m:n*m+65*m]
	for i := 0; i < n; i++ {
		if err := t.tick(mapPos); err != nil {
			return nil, true, err
		}
		for _, ld := range loaders {
			ld(mregs, i)
		}
		mk.run(mregs)
		row := buf[i*m : (i+1)*m]
		for j, reg := range mk.outRegs {
			row[j] = mregs[reg]
		}
	}
	rregs := rk.frame()
	pa, pb := rk.arg(0), rk.arg(1)
	result, err := t.flatFold(n, m, sbuf, redPos, func(i int, row []uint64) {
		copy(row, buf[i*m:(i+1)*m])
	}, func(a, b []uint64) {
		for j := range m {
			rregs[pa[j]], rregs[pb[j]] = a[j], b[j]
		}
		rk.run(rregs)
		for j, reg := range rk.outRegs {
			a[j] = rregs[reg]
		}
	})
	if err != nil {
		return nil, true, err
	}
	r := out.bitsValue(result)
	if t.cost {
		nn := int64(n)
		t.W += nn*mk.w + (nn-1)*rk.w
		mst, rst := flatStats(mk.flatKernel, nn), flatStats(rk.flatKernel, nn-1)
		// the map's step, as fastMap charges it: its result is an array of
		// m columns of n scalars
		rs := int64(m) * (nn + 1)
		t.soacStep(t.live, nn, 1, mst.maxD, rs+mst.maxS1, rs+mst.sumSP, rs)
		t.live -= held1 // the map's arguments are released, its result stays
		t.soacStep(t.live, nn, 1, lg(nn)*rst.maxD, rst.maxS1, (nn+1)/2*rst.maxSP, value.Size(r))
	}
	return r, true, nil
}

// bitsValue builds the value of layout v from the bits of its scalars.
func (v *kval) bitsValue(bits []uint64) value.Value {
	ps := make([]value.Prim, 0, len(bits))
	var types func(v *kval)
	types = func(v *kval) {
		if v.scalar() {
			ps = append(ps, regPrim(v.typ, bits[len(ps)]))
			return
		}
		for _, f := range v.fields {
			types(f)
		}
	}
	types(v)
	return v.value(&ps)
}

// flatFold is foldTree over rows of bits: the same tree, the same ticks.
func (t *thread) flatFold(n, m int, buf []uint64, pos syntax.Pos, load func(i int, row []uint64), combine func(a, b []uint64)) ([]uint64, error) {
	var stack [65][]uint64
	var sizes [65]int
	sp := 0
	for i := 0; i < n; i++ {
		if err := t.tick(pos); err != nil {
			return nil, err
		}
		v := buf[sp*m : (sp+1)*m : (sp+1)*m]
		load(i, v)
		sz := 1
		for sp > 0 && sizes[sp-1] == sz {
			top := stack[sp-1]
			combine(top, v)
			v, sz = top, sz*2
			sp--
		}
		stack[sp], sizes[sp] = v, sz
		sp++
	}
	for sp > 1 {
		combine(stack[sp-2], stack[sp-1])
		sp--
	}
	return stack[0], nil
}
