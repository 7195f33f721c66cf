package eval

import (
	"math"

	"fut/eval/value"
	"fut/interp/syntax"
)

// SOACs over flat kernels (kernel_flat.go): the fused map and reduction
// of fuse.go with the map's function and the reduction's operator
// compiled flat, their results kept as scalar bits, and the charges of
// the n applications added once from the kernels' static figures.

// loadCol copies elements i0… of the scalar column c into the register
// column dst, as register bits.
func loadCol(c *value.Array, i0 int, dst []uint64) {
	switch d := c.Data.(type) {
	case []float32:
		if c.T != value.F32 {
			break // an f16 column
		}
		for j, x := range d[i0 : i0+len(dst)] {
			dst[j] = uint64(math.Float32bits(x))
		}
		return
	case []float64:
		for j, x := range d[i0 : i0+len(dst)] {
			dst[j] = math.Float64bits(x)
		}
		return
	case []int64:
		for j, x := range d[i0 : i0+len(dst)] {
			dst[j] = uint64(x)
		}
		return
	}
	for j := range dst {
		dst[j] = regBits(value.DataGet(c.T, c.Data, i0+j))
	}
}

// tickN is n ticks at pos (thread.tick), checked once: nothing else runs
// between them.
func (t *thread) tickN(pos syntax.Pos, n int) error {
	before := t.ticks
	t.ticks += n
	if t.ticks>>10 != before>>10 {
		if err := t.checkCancel(pos); err != nil {
			return err
		}
		return t.checkMem(pos, 0, -1)
	}
	return nil
}

// flatBatch is the number of elements a flat kernel runs on at once.
const flatBatch = 128

// flatStats are the stats of n applications of k.
func flatStats(k *flatKernel, n int64) stats {
	if n <= 0 {
		return stats{}
	}
	return stats{maxD: k.w, sumD: n * k.w, maxS1: k.peak, maxSP: k.peak, sumSP: n * k.peak, count: n, w: n * k.w}
}

// fusedFlatLoop runs reduce op ne (map f xs…), for map and map2, as one
// loop of flat kernels: the map's results, a block at a time, go to a
// buffer of scalar bits that the reduction folds in fastReduce's tree
// (foldBlocks), and are never an array. All the map's instances of a
// block run before its first combination, and neither can fail but by
// flatFail, so an error is the one the unfused evaluation reports. done
// is false, with nothing charged, when the arrays are not of scalars or
// records, f or op does not compile flat, or an application fails
// (flatFail).
func (t *thread) fusedFlatLoop(op value.Value, margs []value.Value, held1 int64, mapPos, redPos syntax.Pos) (value.Value, bool, error) {
	if t.in.noFast || len(margs) < 2 || len(margs) > 3 {
		return nil, false, nil
	}
	var layouts []*kval
	var comps [][]*value.Array
	n := 0
	for i, a := range margs[1:] {
		xs, ok := a.(*value.Array)
		if !ok || len(xs.Shape) != 1 || xs.Len() == 0 || (i > 0 && int(xs.Len()) != n) {
			return nil, false, nil // the ordinary path reports arrays of different lengths
		}
		n = int(xs.Len())
		l, cs := elemLayout(xs)
		if l == nil {
			return nil, false, nil
		}
		layouts, comps = append(layouts, l), append(comps, cs)
	}
	mk, ok := t.flatFn(margs[0], layouts)
	if !ok {
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
	// a block of the map's results, column by column, then the kernels'
	// registers
	B, blk := min(n, flatBatch), min(n, foldBlock)
	buf := t.flatRegs(m*blk + mk.nregs*B + foldRegs(rk, n))
	scratch, mr, rr := buf[:m*blk], buf[m*blk:m*blk+mk.nregs*B], buf[m*blk+mk.nregs*B:]
	mk.frame(mr, B)
	var mst, rst *stats
	if t.cost {
		mst, rst = &stats{}, &stats{}
	}
	var result []uint64
	var err error
	// the map's instances and the reduction's applications of a block
	// run before the next block's: neither can fail but by flatFail,
	// which starts again on the general path
	if !tryFlat(&err, func() {
		result = rk.foldBlocks(t, rr, scratch, n, m, rst, func(b0, cnt int, cols []uint64) {
			for i0 := b0; i0 < b0+cnt; i0 += B {
				c := min(B, b0+cnt-i0)
				if err = t.tickN(mapPos, c); err != nil {
					panic(flatStop{})
				}
				for a, cs := range comps {
					in := mk.arg(a)
					for j, col := range cs {
						loadCol(col, i0, mr[in[j]*B:][:c])
					}
				}
				mk.exec(t, mr, B, c, mst)
				for j, reg := range mk.outRegs {
					copy(cols[j*cnt+i0-b0:j*cnt+i0-b0+c], mr[reg*B:reg*B+c])
				}
			}
			// the reduction, as fastReduceTuple runs it: one tick an element
			if err = t.tickN(redPos, cnt); err != nil {
				panic(flatStop{})
			}
		})
	}) {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	r := out.bitsValue(result)
	if t.cost {
		nn := int64(n)
		mst, rst := mk.figures(nn, mst), rk.figures(nn-1, rst)
		t.W += mst.w + rst.w
		// the map's step, as fastMap charges it: its result is an array of
		// m columns of n scalars
		rs := int64(m) * (nn + 1)
		t.soacStep(t.live, nn, 1, mst.maxD, rs+mst.maxS1, rs+mst.sumSP, rs)
		t.live -= held1 // the map's arguments are released, its result stays
		t.soacStep(t.live, nn, 1, lg(nn)*rst.maxD, rst.maxS1, (nn+1)/2*rst.maxSP, value.Size(r))
	}
	t.in.flatRuns += 2 // the map and the reduction
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

// foldBlock is the number of elements whose tree foldBlocks computes at
// once (a power of two).
const foldBlock = 1024

// foldRegs is the size of the register file foldBlocks needs for k on n
// elements, and foldB the batch it runs k on.
func foldRegs(k *flatCall, n int) int { return k.nregs * foldB(n) }
func foldB(n int) int                 { return min(max(min(n, foldBlock)/2, 1), flatBatch) }

// foldBlocks reduces n elements of m scalars by k in foldTree's order and
// returns the result's scalars, measuring the applications into st
// (exec). load puts elements i0… of a block in
// cols, column j's element q in cols[j*cnt+q]; r holds k's registers
// (foldRegs), scratch m·foldBlock words.
//
// foldTree combines each run of 2^j elements that starts at a multiple of
// 2^j and ends before n as a perfect tree, keeps the trees of the binary
// digits of n on its stack (largest first) and combines them from the
// right. So each whole block of foldBlock elements is a perfect tree,
// computed by pairFold; the blocks' trees are merged as foldTree merges
// elements; and the last, partial block's trees, the smallest, are
// combined from the right by pairFold and then with the blocks' trees
// from the right.
func (k *flatCall) foldBlocks(t *thread, r, scratch []uint64, n, m int, st *stats, load func(i0, cnt int, cols []uint64)) []uint64 {
	B := foldB(n)
	k.frame(r, B)
	pa, pb := k.arg(0), k.arg(1)
	combine := func(a, b []uint64) { // a = a op b, as one application
		for j := 0; j < m; j++ {
			r[pa[j]*B], r[pb[j]*B] = a[j], b[j]
		}
		k.exec(t, r, B, 1, st)
		for j, reg := range k.outRegs {
			a[j] = r[reg*B]
		}
	}
	type tree struct {
		v    []uint64
		size int // in blocks
	}
	var stack []tree
	var acc []uint64
	for i0 := 0; i0 < n; i0 += foldBlock {
		cnt := min(foldBlock, n-i0)
		cols := scratch[:m*cnt]
		load(i0, cnt, cols)
		v := k.pairFold(t, r, B, cols, cnt, m, st)
		if cnt < foldBlock {
			acc = v // the last block
			break
		}
		size := 1
		for len(stack) > 0 && stack[len(stack)-1].size == size {
			top := stack[len(stack)-1].v
			combine(top, v)
			v, size, stack = top, size*2, stack[:len(stack)-1]
		}
		stack = append(stack, tree{v, size})
	}
	if acc == nil {
		acc, stack = stack[len(stack)-1].v, stack[:len(stack)-1]
	}
	for len(stack) > 0 {
		top := stack[len(stack)-1].v
		combine(top, acc)
		acc, stack = top, stack[:len(stack)-1]
	}
	return acc
}

// pairFold reduces the n elements of m columns in cols (column j's
// element i in cols[j*n+i]) by k, in foldTree's order, and returns the
// result's scalars; it overwrites cols. r is k's register file for
// batches of B.
//
// foldTree's tree is that of combining neighbours level by level, (0 1)
// (2 3) …, where a level with an odd number of elements passes its last
// one up as it is: the passed-up element is always the combination of
// the rightmost trees, which foldTree combines last with the tree to its
// left. Each level's combinations are independent, so they run as
// batches.
func (k *flatCall) pairFold(t *thread, r []uint64, B int, cols []uint64, n, m int, st *stats) []uint64 {
	pa, pb := k.arg(0), k.arg(1)
	for cur := n; cur > 1; {
		np := cur / 2
		for p0 := 0; p0 < np; p0 += B {
			cnt := min(B, np-p0)
			for j := 0; j < m; j++ {
				src := cols[j*n+2*p0 : j*n+2*(p0+cnt)]
				ca, cb := r[pa[j]*B:][:cnt], r[pb[j]*B:][:cnt]
				for q := range ca {
					ca[q], cb[q] = src[2*q], src[2*q+1]
				}
			}
			k.exec(t, r, B, cnt, st)
			for j, reg := range k.outRegs {
				copy(cols[j*n+p0:j*n+p0+cnt], r[reg*B:reg*B+cnt])
			}
		}
		if cur%2 == 1 {
			for j := 0; j < m; j++ {
				cols[j*n+np] = cols[j*n+cur-1]
			}
			np++
		}
		cur = np
	}
	out := make([]uint64, m)
	for j := range out {
		out[j] = cols[j*n]
	}
	return out
}
