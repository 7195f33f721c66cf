package eval

import (
	"math"

	"fut/eval/value"
	"fut/interp/syntax"
)

// map and reduce over flat kernels (kernel_flat.go): fastMap and
// fastReduce's paths for a function or operator that compiles flat, run
// a batch at a time and charged as those paths charge n measured
// applications.

// elemLayout is the layout of the elements of a 1-d array of scalars, or
// of records or tuples of scalars, and its scalar columns.
func elemLayout(xs *value.Array) (*kval, []*value.Array) {
	if xs.Kind == value.KPrim {
		if len(xs.Shape) != 1 {
			return nil, nil
		}
		return &kval{reg: -1, typ: xs.T}, []*value.Array{xs}
	}
	return recordLayout(xs)
}

// flatRegs is a buffer of n words of the thread's for a flat SOAC's
// registers and columns (flat kernels run no SOAC inside, so one SOAC
// at a time uses it).
func (t *thread) flatRegs(n int) []uint64 {
	if len(t.flatBuf) < n {
		t.flatBuf = make([]uint64, n)
	}
	return t.flatBuf[:n]
}

// storeCol writes register bits to elements i0… of a column's data.
func storeCol(dst any, ty value.PrimType, i0 int, src []uint64) {
	switch d := dst.(type) {
	case []float32:
		if ty != value.F32 {
			break // an f16 column
		}
		for j, x := range src {
			d[i0+j] = math.Float32frombits(uint32(x))
		}
		return
	case []float64:
		for j, x := range src {
			d[i0+j] = math.Float64frombits(x)
		}
		return
	case []int64:
		for j, x := range src {
			d[i0+j] = int64(x)
		}
		return
	case []int32:
		for j, x := range src {
			d[i0+j] = int32(x)
		}
		return
	}
	for j, x := range src {
		value.DataSet(dst, i0+j, regPrim(ty, x))
	}
}

// flatMap is fastMap for a function that compiles flat; done is false,
// with nothing charged, when it does not or an application fails.
func (t *thread) flatMap(f value.Value, xs *value.Array, pos syntax.Pos) (value.Value, bool, error) {
	layout, comps := elemLayout(xs)
	if layout == nil {
		return nil, false, nil
	}
	k, ok := t.flatFn(f, []*kval{layout})
	if !ok {
		return nil, false, nil
	}
	n := int(xs.Len())
	if err := t.checkAlloc(pos, int64(n), 8); err != nil {
		return nil, true, err
	}
	base := t.live
	var types []value.PrimType
	var leaves func(v *kval)
	leaves = func(v *kval) {
		if v.scalar() {
			types = append(types, v.typ)
			return
		}
		for _, f := range v.fields {
			leaves(f)
		}
	}
	leaves(k.out)
	outs := make([]any, len(types))
	for j, ty := range types {
		outs[j] = value.MakeData(ty, n)
	}
	B := min(n, flatBatch)
	regs := t.flatRegs(k.nregs * B)
	k.frame(regs, B)
	in := k.arg(0)
	var st *stats
	if t.cost {
		st = &stats{}
	}
	var err error
	if !tryFlat(&err, func() {
		for i0 := 0; i0 < n; i0 += B {
			cnt := min(B, n-i0)
			if err = t.tickN(pos, cnt); err != nil {
				return
			}
			for c, col := range comps {
				loadCol(col, i0, regs[in[c]*B:][:cnt])
			}
			k.exec(t, regs, B, cnt, st)
			for j, reg := range k.outRegs {
				storeCol(outs[j], types[j], i0, regs[reg*B:reg*B+cnt])
			}
		}
	}) {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	cols := make([]*value.Array, len(types))
	for j, ty := range types {
		cols[j] = value.NewPrimArrayData(ty, []int64{int64(n)}, outs[j])
	}
	r := k.out.array(&cols, int64(n))
	if t.cost {
		st := k.figures(int64(n), st)
		t.W += st.w
		rs := r.Words()
		t.soacStep(base, int64(n), 1, st.maxD, rs+st.maxS1, rs+st.sumSP, rs)
	}
	t.in.flatRuns++
	return r, true, nil
}

// flatReduce is fastReduce for an operator that compiles flat on the
// elements of xs, with its result laid out as they are; done is false,
// with nothing charged, when there is none or an application fails.
func (t *thread) flatReduce(op value.Value, xs *value.Array, pos syntax.Pos) (value.Value, bool, error) {
	layout, comps := elemLayout(xs)
	n := int(xs.Len())
	if layout == nil || n == 0 {
		return nil, false, nil
	}
	k, ok := t.flatFn(op, []*kval{layout, layout})
	if !ok || !k.out.sameTypes(layout) {
		return nil, false, nil
	}
	m := len(comps)
	base := t.live
	blk := min(n, foldBlock)
	buf := t.flatRegs(m*blk + foldRegs(k, n))
	scratch, regs := buf[:m*blk], buf[m*blk:]
	var st *stats
	if t.cost {
		st = &stats{}
	}
	var res []uint64
	var err error
	if !tryFlat(&err, func() {
		res = k.foldBlocks(t, regs, scratch, n, m, st, func(i0, cnt int, cols []uint64) {
			if err = t.tickN(pos, cnt); err != nil {
				panic(flatStop{})
			}
			for c, col := range comps {
				loadCol(col, i0, cols[c*cnt:(c+1)*cnt])
			}
		})
	}) {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	r := layout.bitsValue(res)
	if t.cost {
		nn := int64(n)
		st := k.figures(nn-1, st)
		t.W += st.w
		t.soacStep(base, nn, 1, lg(nn)*st.maxD, st.maxS1, (nn+1)/2*st.maxSP, int64(m))
	}
	t.in.flatRuns++
	return r, true, nil
}
