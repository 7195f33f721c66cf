package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// The second-order array combinators. Each performs exactly the
// applications its cost rule sums over (COST_MODEL.md, "SOACs") and
// charges the rule's step after measuring every instance.

// lg is ⌈log2 n⌉, 0 for n ≤ 1.
func lg(n int64) int64 {
	k := int64(0)
	for p := int64(1); p < n; p <<= 1 {
		k++
	}
	return k
}

// stats accumulates instance measures.
type stats struct {
	maxD, maxS1, maxSP, sumSP int64
	sumD                      int64 // Σ D of the instances (for a sequential combination)
	count                     int64
	w                         int64 // Σ W of the instances
}

func (s *stats) add(m measure) {
	s.maxD = max(s.maxD, m.D)
	s.sumD += m.D
	s.maxS1 = max(s.maxS1, m.S1)
	s.maxSP = max(s.maxSP, m.SP)
	s.sumSP += m.SP
	s.count++
	s.w += m.W
}

func asArray(t *thread, v value.Value, pos syntax.Pos, what string) (*value.Array, error) {
	a, ok := v.(*value.Array)
	if !ok {
		return nil, t.errf(pos, "%s: argument is not an array", what)
	}
	return a, nil
}

// emptySOAC charges (1, 1, ‖r‖) for a SOAC over no elements.
func (t *thread) emptySOAC(base int64, r value.Value) {
	if t.cost {
		s := value.Size(r)
		t.step(base, 1, 1, s, s)
	}
}

func intrMap(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
	f := args[0]
	xs, err := asArray(t, args[1], pos, "map")
	if err != nil {
		return nil, err
	}
	base := t.live
	n := xs.Len()
	if n == 0 {
		r := value.EmptyLike(nil)
		t.emptySOAC(base, r)
		return r, nil
	}
	if r, ok, err := t.fastMap(f, xs, pos); ok || err != nil {
		return r, err
	}
	if err := t.checkAlloc(pos, n, 8); err != nil {
		return nil, err
	}
	results := make([]value.Value, n)
	var st stats
	for i := int64(0); i < n; i++ {
		if err := t.tick(pos); err != nil {
			return nil, err
		}
		elem := xs.Index(i)
		m, err := t.instance(func() error {
			v, err := t.apply1(f, elem, pos)
			results[i] = v
			return err
		})
		if err != nil {
			return nil, err
		}
		st.add(m)
	}
	if err := t.checkRows(pos, results); err != nil {
		return nil, err
	}
	r, err := value.FromValues(results, nil)
	if err != nil {
		return nil, t.errf(pos, "map: %v", err)
	}
	if t.cost {
		rs := r.Words()
		t.soacStep(base, n, 1, st.maxD, rs+st.maxS1, rs+st.sumSP, rs)
	}
	return r, nil
}

// treeReduce combines xs with op in the balanced tree of COST_MODEL.md:
// adjacent aligned blocks of 2^k elements are combined level by level
// (the last, partial block joins when it has a neighbour), which is what a
// stack of block sums computes in one left-to-right pass.
func (t *thread) treeReduce(op value.Value, n int64, get func(i int64) value.Value, pos syntax.Pos, st *stats) (value.Value, error) {
	type blk struct {
		v    value.Value
		size int64
	}
	var stack []blk
	combine := func(a, b value.Value) (value.Value, error) {
		var r value.Value
		m, err := t.instance(func() error {
			v, err := t.apply2(op, a, b, pos)
			r = v
			return err
		})
		st.add(m)
		return r, err
	}
	for i := int64(0); i < n; i++ {
		if err := t.tick(pos); err != nil {
			return nil, err
		}
		stack = append(stack, blk{get(i), 1})
		for len(stack) >= 2 && stack[len(stack)-1].size == stack[len(stack)-2].size {
			a, b := stack[len(stack)-2], stack[len(stack)-1]
			v, err := combine(a.v, b.v)
			if err != nil {
				return nil, err
			}
			stack = append(stack[:len(stack)-2], blk{v, a.size + b.size})
		}
	}
	for len(stack) >= 2 {
		a, b := stack[len(stack)-2], stack[len(stack)-1]
		v, err := combine(a.v, b.v)
		if err != nil {
			return nil, err
		}
		stack = append(stack[:len(stack)-2], blk{v, a.size + b.size})
	}
	return stack[0].v, nil
}

func intrReduce(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
	op, ne := args[0], args[1]
	xs, err := asArray(t, args[2], pos, "reduce")
	if err != nil {
		return nil, err
	}
	base := t.live
	n := xs.Len()
	if n == 0 {
		t.emptySOAC(base, ne)
		return ne, nil
	}
	if r, ok, err := t.fastReduce(op, xs, pos); ok || err != nil {
		return r, err
	}
	var st stats
	r, err := t.treeReduce(op, n, xs.Index, pos, &st)
	if err != nil {
		return nil, err
	}
	if t.cost {
		t.soacStep(base, n, 1, lg(n)*st.maxD, st.maxS1, (n+1)/2*st.maxSP, value.Size(r))
	}
	return r, nil
}

func intrScan(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
	op, ne := args[0], args[1]
	xs, err := asArray(t, args[2], pos, "scan")
	if err != nil {
		return nil, err
	}
	base := t.live
	n := xs.Len()
	if n == 0 {
		r := value.EmptyLike(ne)
		t.emptySOAC(base, r)
		return r, nil
	}
	if r, ok, err := t.fastScan(op, xs, pos); ok || err != nil {
		return r, err
	}
	results := make([]value.Value, n)
	var st stats
	acc := xs.Index(0)
	results[0] = acc
	for i := int64(1); i < n; i++ {
		if err := t.tick(pos); err != nil {
			return nil, err
		}
		x := xs.Index(i)
		m, err := t.instance(func() error {
			v, err := t.apply2(op, acc, x, pos)
			acc = v
			return err
		})
		if err != nil {
			return nil, err
		}
		st.add(m)
		results[i] = acc
	}
	if err := t.checkRows(pos, results); err != nil {
		return nil, err
	}
	r, err := value.FromValues(results, nil)
	if err != nil {
		return nil, t.errf(pos, "scan: %v", err)
	}
	if t.cost {
		rs := r.Words()
		t.W += st.w // a work-efficient scan applies op about twice per element
		t.soacStep(base, n, 1, 2*lg(n)*st.maxD, rs+st.maxS1, rs+(n+1)/2*st.maxSP, rs)
	}
	return r, nil
}

func intrFilter(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
	r, _, err := t.filterPartition(args, pos, false)
	return r, err
}

func intrPartition(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
	_, r, err := t.filterPartition(args, pos, true)
	return r, err
}

func (t *thread) filterPartition(args []value.Value, pos syntax.Pos, partition bool) (value.Value, value.Value, error) {
	p := args[0]
	xs, err := asArray(t, args[1], pos, "filter")
	if err != nil {
		return nil, nil, err
	}
	base := t.live
	n := xs.Len()
	var yes, no []int64
	var st stats
	for i := int64(0); i < n; i++ {
		if err := t.tick(pos); err != nil {
			return nil, nil, err
		}
		elem := xs.Index(i)
		var keep bool
		m, err := t.instance(func() error {
			v, err := t.apply1(p, elem, pos)
			if err != nil {
				return err
			}
			b, ok := v.(value.Prim)
			if !ok || b.T != value.Bool {
				return t.errf(pos, "filter predicate did not return a bool")
			}
			keep = b.B != 0
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		st.add(m)
		if keep {
			yes = append(yes, i)
		} else {
			no = append(no, i)
		}
	}
	ys := xs.Gather(yes)
	var r value.Value = ys
	if partition {
		r = value.Tuple{ys, xs.Gather(no)}
	}
	if t.cost {
		rs := value.Size(r)
		if n == 0 {
			t.step(base, 1, 1, rs, rs)
		} else {
			t.soacStep(base, 4*n, 3+2*lg(n), st.maxD, rs+n+1+st.maxS1, rs+n+1+st.sumSP, rs)
		}
	}
	return ys, r, nil
}

// scatterN writes vs[j] into dest at the d-dimensional index is[j],
// ignoring out-of-bounds indices; dest is consumed.
func (t *thread) scatterN(args []value.Value, pos syntax.Pos, d int) (value.Value, error) {
	dest, err := asArray(t, args[0], pos, "scatter")
	if err != nil {
		return nil, err
	}
	is, err := asArray(t, args[1], pos, "scatter")
	if err != nil {
		return nil, err
	}
	vs, err := asArray(t, args[2], pos, "scatter")
	if err != nil {
		return nil, err
	}
	base := t.live
	n := is.Len()
	if vs.Len() != n {
		return nil, t.errf(pos, "scatter: %d indices but %d values", n, vs.Len())
	}
	if dest.IsFrozen() {
		if err := t.checkCopy(pos, dest); err != nil {
			return nil, err
		}
		dest = dest.Copy()
	}
	shape := dest.FullShape()
	idx := make([]dimIdx, d)
	for j := int64(0); j < n; j++ {
		if indexAt(is, j, d, shape, idx) {
			if err := writeAt(dest, idx, vs.Index(j)); err != nil {
				return nil, t.errf(pos, "scatter: %v", err)
			}
		}
	}
	if t.cost {
		if n == 0 {
			s := value.Size(dest)
			t.step(base, 1, 1, s, 0)
		} else {
			t.step(base, n, 1, 0, 0)
		}
	}
	return dest, nil
}

// histN is hist and reduce_by_index: bins of dest combined with op and
// the values whose (d-dimensional) index falls in them.
func (t *thread) histN(op value.Value, dest *value.Array, isv, vsv value.Value, pos syntax.Pos, d int, fresh bool) (value.Value, error) {
	is, err := asArray(t, isv, pos, "hist")
	if err != nil {
		return nil, err
	}
	vs, err := asArray(t, vsv, pos, "hist")
	if err != nil {
		return nil, err
	}
	base := t.live
	n := is.Len()
	if vs.Len() != n {
		return nil, t.errf(pos, "hist: %d indices but %d values", n, vs.Len())
	}
	if dest.IsFrozen() {
		if err := t.checkCopy(pos, dest); err != nil {
			return nil, err
		}
		dest = dest.Copy()
	}
	shape := dest.FullShape()
	k := int64(1)
	for i := 0; i < d && i < len(shape); i++ {
		k *= shape[i]
	}
	if r, apps, ok, err := t.fastHist(op, dest, is, vs, pos, d); ok || err != nil {
		if err == nil && t.cost {
			st := opStats(apps)
			t.W += st.w
			t.histCost(base, n, k, dest, fresh, st)
		}
		return r, err
	}
	var st stats
	idx := make([]dimIdx, d)
	for j := int64(0); j < n; j++ {
		if err := t.tick(pos); err != nil {
			return nil, err
		}
		if !indexAt(is, j, d, shape, idx) {
			continue
		}
		old := indexArray(dest, idx)
		x := vs.Index(j)
		var nv value.Value
		m, err := t.instance(func() error {
			v, err := t.apply2(op, old, x, pos)
			nv = v
			return err
		})
		if err != nil {
			return nil, err
		}
		st.add(m)
		if err := writeAt(dest, idx, nv); err != nil {
			return nil, t.errf(pos, "hist: %v", err)
		}
	}
	if t.cost {
		if t.tan > 0 && (holdsDual(dest) || holdsDual(vs)) && !t.isPlus(op) {
			t.histTangentCost(base, n, dest, fresh, st)
		} else {
			t.histCost(base, n, k, dest, fresh, st)
		}
	}
	return dest, nil
}

// histTangentCost is the cost of a histogram of values with tangents
// whose operator is not +, as the derivative computes it (docs/cost.md,
// "Derivatives"): which value wins a bin decides which tangent does, so
// the elements are combined one after another, each with a test of its
// index (3 steps), the reads and writes of its bin and the bin's tangent
// (4), the choice of branch (1) and its iteration (1), besides the
// operator's application: W = 9n + Σ Wa, D = 9n + Σ Da.
func (t *thread) histTangentCost(base, n int64, dest *value.Array, fresh bool, st stats) {
	var rs int64
	if fresh {
		rs = dest.Words()
	}
	t.step2(base, 0, 0, rs+st.maxS1, rs+st.maxS1, rs)
	t.W += 9 * n
	t.D += 9*n + st.sumD
}

// isPlus reports whether op is addition (an operator section or a
// lambda applying +).
func (t *thread) isPlus(op value.Value) bool {
	b, ok := t.builtinOf(op)
	return ok && b == value.OpAdd
}

// holdsDual reports whether the elements of a hold dual numbers (it
// looks at the first: an array's elements are of one type).
func holdsDual(a *value.Array) bool {
	if a.Len() == 0 || a.Kind == value.KPrim {
		return false
	}
	var has func(v value.Value) bool
	has = func(v value.Value) bool {
		switch v := v.(type) {
		case value.Dual:
			return true
		case value.Tuple:
			for _, x := range v {
				if has(x) {
					return true
				}
			}
		case *value.Record:
			for _, x := range v.Fields {
				if has(x) {
					return true
				}
			}
		case *value.Array:
			return holdsDual(v)
		}
		return false
	}
	return has(a.Index(0))
}

func (t *thread) histCost(base, n, k int64, dest *value.Array, fresh bool, st stats) {
	var rs int64
	if fresh {
		rs = dest.Words()
	}
	if n == 0 {
		t.step(base, 1, 1, dest.Words(), rs)
		return
	}
	t.soacStep(base, n+k+0, 1, lg(n)*st.maxD, rs+st.maxS1, rs+(n+1)/2*st.maxSP, rs)
}

func intrHist(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
	op, ne := args[0], args[1]
	kp, ok := primOf(args[2])
	if !ok {
		return nil, t.errf(pos, "hist: the number of bins is not an integer")
	}
	k := kp.Int()
	if k < 0 {
		return nil, t.errf(pos, "hist: negative number of bins %d", k)
	}
	if err := t.checkAlloc(pos, k, 8); err != nil {
		return nil, err
	}
	dest := value.Replicate(k, ne)
	return t.histN(op, dest, args[3], args[4], pos, 1, true)
}

func reduceByIndex(d int) intrinsicFn {
	return func(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
		dest, err := asArray(t, args[0], pos, "reduce_by_index")
		if err != nil {
			return nil, err
		}
		return t.histN(args[1], dest, args[3], args[4], pos, d, false)
	}
}

func scatterD(d int) intrinsicFn {
	return func(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
		return t.scatterN(args, pos, d)
	}
}

// streamChunk is the chunk size of the reference semantics of streams:
// a property of the model, not of any runtime.
const streamChunk = 1024

func chunks(n int64) int64 { return (n + streamChunk - 1) / streamChunk }

func intrReduceStream(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
	op, f := args[0], args[1]
	xs, err := asArray(t, args[2], pos, "reduce_stream")
	if err != nil {
		return nil, err
	}
	base := t.live
	n := xs.Len()
	m := max(chunks(n), 1)
	parts := make([]value.Value, m)
	var sc stats
	for c := int64(0); c < m; c++ {
		lo, hi := c*streamChunk, min((c+1)*streamChunk, n)
		chunk := xs.Slice(lo, hi)
		meas, err := t.instance(func() error {
			v, err := t.apply2(f, value.I64Val(hi-lo), chunk, pos)
			parts[c] = v
			return err
		})
		if err != nil {
			return nil, err
		}
		sc.add(meas)
	}
	var sa stats
	r, err := t.treeReduce(op, m, func(i int64) value.Value { return parts[i] }, pos, &sa)
	if err != nil {
		return nil, err
	}
	if t.cost {
		t.soacStep(base, m, 1, sc.maxD+lg(m)*sa.maxD, sc.maxS1, sc.sumSP, value.Size(r))
	}
	return r, nil
}

func intrMapStream(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error) {
	f := args[0]
	xs, err := asArray(t, args[1], pos, "map_stream")
	if err != nil {
		return nil, err
	}
	base := t.live
	n := xs.Len()
	m := max(chunks(n), 1)
	parts := make([]*value.Array, m)
	var sc stats
	for c := int64(0); c < m; c++ {
		lo, hi := c*streamChunk, min((c+1)*streamChunk, n)
		chunk := xs.Slice(lo, hi)
		meas, err := t.instance(func() error {
			v, err := t.apply2(f, value.I64Val(hi-lo), chunk, pos)
			if err != nil {
				return err
			}
			a, ok := v.(*value.Array)
			if !ok || a.Len() != hi-lo {
				return t.errf(pos, "map_stream: the function must return an array of the chunk's size %d", hi-lo)
			}
			parts[c] = a
			return nil
		})
		if err != nil {
			return nil, err
		}
		sc.add(meas)
	}
	var total int64
	for _, p := range parts {
		total += byteCount(p)
	}
	if err := t.checkAlloc(pos, total, 1); err != nil {
		return nil, err
	}
	r, err := value.Concat(parts)
	if err != nil {
		return nil, t.errf(pos, "map_stream: %v", err)
	}
	if t.cost {
		rs := r.Words()
		t.soacStep(base, m, 1, sc.maxD, rs+sc.maxS1, rs+sc.sumSP, rs)
	}
	return r, nil
}

// indexAt reads the j'th (d-dimensional) index of a scatter or
// reduce_by_index into idx, and reports whether it is inside shape;
// out-of-bounds writes are skipped, as Futhark specifies.
func indexAt(is *value.Array, j int64, d int, shape []int64, idx []dimIdx) bool {
	for q := 0; q < d; q++ {
		var p value.Prim
		if d == 1 {
			p, _ = primOf(is.Index(j))
		} else {
			p, _ = primOf(is.Fields[q].Index(j))
		}
		i := p.Int()
		if q >= len(shape) || !inBounds(i, shape[q]) {
			return false
		}
		idx[q] = dimIdx{fix: true, i: i}
	}
	return true
}
