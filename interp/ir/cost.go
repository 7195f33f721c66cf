package ir

import (
	"context"

	"fut/eval/value"
)

// Cost is (W, D, S1, S∞) as COST_MODEL.md defines them.
type Cost struct {
	Work, Depth, SpaceSeq, SpacePar int64
}

// stepCost is a cost with the fresh space F of the value it produced.
type stepCost struct {
	Cost
	F int64
}

// then composes c after what came before (COST_MODEL.md's Composition):
// live is the fresh space of the earlier results, still live.
func (t *stepCost) then(c stepCost, live *int64) {
	t.Work += c.Work
	t.Depth += c.Depth
	t.SpaceSeq = max(t.SpaceSeq, *live+c.SpaceSeq)
	t.SpacePar = max(t.SpacePar, *live+c.SpacePar)
	*live += c.F
}

// withConsts is the cost of a step with constant operands. Constants are
// immediate operands in the IR and cost nothing: some were literals in the
// source, but others were variables (free scalars, sizes) or folded
// expressions, and charging them would make the plan dearer than the
// source.
func withConsts(step stepCost, as ...Atom) stepCost { return step }

// FusedCost runs p on args and returns the cost of its plan, by the rules
// of COST_MODEL.md applied to the IR. Run on the fused program it gives
// the figures of "the fused plan": a producer fused into its consumer is
// part of the consumer's instances and has no array of its own; each fused
// iota or replicate (Gens) costs 1 work per element and no space.
//
// One rule is the IR's own: a reduction (with no mapped or scanned
// output) inside another SOAC's lambda runs as a stream, each instance
// folding its elements into one accumulator, so its parallel space is that
// of one instance and one application, not of n/2 applications at once.
// Its depth stays that of a tree of applications (the bound a segmented
// reduction achieves). This is what makes the fused matrix product's S∞
// Θ(n²) rather than Θ(n³).
func FusedCost(ctx context.Context, p *Prog, args []value.Value) (Cost, error) {
	return FusedCostWith(ctx, p, args, EvalOptions{})
}

// FusedCostWith is FusedCost under the bounds of o.
func FusedCostWith(ctx context.Context, p *Prog, args []value.Value, o EvalOptions) (Cost, error) {
	_, c, err := run(ctx, p, args, o)
	return c, err
}

func lg(n int64) int64 {
	k := int64(0)
	for x := int64(1); x < n; x *= 2 {
		k++
	}
	return k
}

func (m *machine) loop(e *LoopE) ([]value.Value, stepCost, error) {
	vs := make([]value.Value, len(e.Init))
	var state, initArrays int64
	for i, a := range e.Init {
		vs[i] = m.atom(a)
		if _, ok := vs[i].(*value.Array); ok {
			initArrays += value.Size(vs[i])
		}
	}
	var c stepCost
	// A while loop runs until its condition fails; a for loop with a
	// bound of zero or less runs no iteration at all.
	isWhile := e.While != nil
	var n int64
	if !isWhile {
		n = m.int(e.Bound)
	}
	for i := int64(0); isWhile || i < n; i++ {
		if err := m.check(); err != nil {
			return nil, c, err
		}
		state = 0
		for k, p := range e.Params {
			m.env[p.Name] = vs[k]
			state += value.Size(vs[k])
		}
		extra := max(0, state-initArrays)
		if e.While != nil {
			// The condition is charged each time it is tested.
			cv, cc, err := m.body(e.While)
			if err != nil {
				return nil, c, err
			}
			c.Work += cc.Work
			c.Depth += cc.Depth
			c.SpaceSeq = max(c.SpaceSeq, extra+cc.SpaceSeq)
			c.SpacePar = max(c.SpacePar, extra+cc.SpacePar)
			if !cv[0].(value.Prim).Bool() {
				break
			}
		} else {
			m.env[e.I] = value.I64Val(i)
			for k, p := range e.Elems {
				m.env[p.Name] = m.arr(e.Over[k]).Index(i)
			}
		}
		var bc stepCost
		var err error
		if vs, bc, err = m.body(e.Body); err != nil {
			return nil, c, err
		}
		c.Work += bc.Work + 1
		c.Depth += bc.Depth + 1
		// The initial arrays are live already where they were made; the
		// loop reuses them for its state (the source counts them once).
		c.SpaceSeq = max(c.SpaceSeq, extra+bc.SpaceSeq)
		c.SpacePar = max(c.SpacePar, extra+bc.SpacePar)
	}
	c.F = 0
	for _, v := range vs {
		c.F += value.Size(v)
	}
	return vs, c, nil
}

// allocStack checks the memory limit before a step stacks vs (a map's
// rows, a filter's kept elements) into one array.
func (m *machine) allocStack(vs []value.Value) error {
	if m.mem == nil {
		return nil
	}
	var bytes, elems int64
	for _, v := range vs {
		if a, ok := v.(*value.Array); ok {
			bytes, elems = bytes+bytesOf(a), elems+a.NumElems()
		} else {
			bytes, elems = bytes+bytesOf(v), elems+1
		}
	}
	return m.alloc(bytes, elems)
}

func p2v(as []*value.Array) []value.Value {
	vs := make([]value.Value, len(as))
	for i, a := range as {
		vs[i] = a
	}
	return vs
}

func (m *machine) row(arrs []string, i int64) []value.Value {
	vs := make([]value.Value, len(arrs))
	for k, a := range arrs {
		vs[k] = m.arr(a).Index(i)
	}
	return vs
}

// instances sums the costs of a SOAC's per-element lambda applications.
type instances struct {
	work, maxD, maxS1, sumSp, maxSp int64
}

func (in *instances) add(c stepCost) {
	in.work += c.Work
	in.maxD = max(in.maxD, c.Depth)
	in.maxS1 = max(in.maxS1, c.SpaceSeq)
	in.sumSp += c.SpacePar
	in.maxSp = max(in.maxSp, c.SpacePar)
}

func (m *machine) screma(e *ScremaE) ([]value.Value, stepCost, error) {
	n := m.int(e.W)
	m.soac++
	defer func() { m.soac-- }()
	nested := m.soac > 1
	outerView := m.inView
	m.inView = e.View
	defer func() { m.inView = outerView }()
	nscan, nred := 0, 0
	for _, op := range e.Scans {
		nscan += op.Arity()
	}
	for _, op := range e.Reds {
		nred += op.Arity()
	}
	nmap := len(e.Map.Ret) - nscan - nred
	var inst instances
	// the per-element results, held until the operators and the stacking
	// (a slot per mapped result, a slice per element for scans and
	// reductions): sized and checked against the memory limit up front
	perElem := 16 * int64(nmap)
	if nscan > 0 {
		perElem += 24
	}
	if nred > 0 {
		perElem += 24
	}
	if err := m.alloc(max(n, 0)*perElem, -1); err != nil {
		return nil, stepCost{}, err
	}
	var scanIn, redIn [][]value.Value
	if nscan > 0 {
		scanIn = make([][]value.Value, n)
	}
	if nred > 0 {
		redIn = make([][]value.Value, n)
	}
	mapOut := make([][]value.Value, nmap)
	for k := range mapOut {
		mapOut[k] = make([]value.Value, 0, max(n, 0))
	}
	for i := int64(0); i < n; i++ {
		if e.Index != "" {
			m.env[e.Index] = value.I64Val(i)
		}
		res, c, err := m.apply(e.Map, m.row(e.Arrs, i))
		if err != nil {
			return nil, stepCost{}, err
		}
		inst.add(c)
		if nscan > 0 {
			scanIn[i] = res[:nscan]
		}
		if nred > 0 {
			redIn[i] = res[nscan : nscan+nred]
		}
		for k := range mapOut {
			mapOut[k] = append(mapOut[k], res[nscan+nred+k])
		}
	}
	var ops instances // the operators' applications
	var opDepth int64
	var levelSp int64
	var out []value.Value
	// Scans: sequential inclusive prefixes; each application counts twice
	// (a work-efficient scan), its depth 2·lg n times.
	k := 0
	for _, op := range e.Scans {
		a := op.Arity()
		col := make([][]value.Value, n)
		for i := int64(0); i < n; i++ {
			x := scanIn[i][k : k+a]
			if i > 0 {
				r, c, err := m.apply(op.Lam, append(append([]value.Value{}, col[i-1]...), x...))
				if err != nil {
					return nil, stepCost{}, err
				}
				x = r
				ops.add(c)
				ops.work += c.Work
			}
			col[i] = x
		}
		for j := 0; j < a; j++ {
			vs := make([]value.Value, n)
			for i := range vs {
				vs[i] = col[i][j]
			}
			if err := m.allocStack(vs); err != nil {
				return nil, stepCost{}, err
			}
			arr, err := value.FromValues(vs, m.zero(e.Map.Ret[k+j]))
			if err != nil {
				return nil, stepCost{}, err
			}
			out = append(out, arr)
		}
		opDepth += 2 * lg(n) * ops.maxD
		levelSp = max(levelSp, (n+1)/2*ops.maxSp)
		k += a
	}
	// Reductions: a balanced tree, as the reference evaluator does; the
	// neutral element only for empty input.
	k = 0
	for _, op := range e.Reds {
		a := op.Arity()
		level := make([][]value.Value, n)
		for i := range level {
			level[i] = redIn[i][k : k+a]
		}
		for len(level) > 1 {
			var next [][]value.Value
			var d, sp int64
			for i := 0; i+1 < len(level); i += 2 {
				r, c, err := m.apply(op.Lam, append(append([]value.Value{}, level[i]...), level[i+1]...))
				if err != nil {
					return nil, stepCost{}, err
				}
				ops.add(c)
				d = max(d, c.Depth)
				sp += c.SpacePar
				next = append(next, r)
			}
			if len(level)%2 == 1 {
				next = append(next, level[len(level)-1])
			}
			opDepth += d
			levelSp = max(levelSp, sp)
			level = next
		}
		if n == 0 {
			for _, ne := range op.Nes {
				out = append(out, m.atom(ne))
			}
		} else {
			out = append(out, level[0]...)
		}
		k += a
	}
	var r int64 // the fresh arrays: scanned and mapped
	for _, v := range out[:nscan] {
		r += value.Size(v)
	}
	for j, vs := range mapOut {
		if err := m.allocStack(vs); err != nil {
			return nil, stepCost{}, err
		}
		arr, err := value.FromValues(vs, m.zero(e.Map.Ret[nscan+nred+j]))
		if err != nil {
			return nil, stepCost{}, err
		}
		out = append(out, arr)
		r += value.Size(arr)
	}
	var c stepCost
	if n == 0 {
		c = fresh(1, 1, r)
	} else {
		c.Work = n + n*int64(e.Gens) + inst.work + ops.work
		if e.View {
			// a gathered view: one step of its own, as the slice's rule,
			// for the whole nest of maps that gathers it
			c.Work += 1 - n
		}
		if len(e.Arrs) == 0 && e.Gens > 0 && nscan+nred == 0 && inst.work == 0 {
			// A map over generated elements (a fused iota or replicate)
			// whose lambda costs nothing, only arithmetic the lowering
			// added (a range's start + i·step), is the generated array:
			// each element costs what generating it costs, as a range
			// does in the source.
			c.Work = n * int64(e.Gens)
		}
		c.Depth = 1 + inst.maxD + opDepth
		if e.View && outerView {
			c.Work--
			c.Depth--
		}
		c.SpaceSeq = r + max(inst.maxS1, ops.maxS1)
		if nested && nscan == 0 && nmap == 0 {
			c.SpacePar = max(inst.maxSp, ops.maxSp)
		} else {
			c.SpacePar = r + inst.sumSp + levelSp
		}
	}
	c.F = r
	for _, v := range out[nscan : nscan+nred] {
		c.F += value.Size(v)
	}
	var nes []Atom
	for _, op := range append(append([]*SegOp{}, e.Scans...), e.Reds...) {
		nes = append(nes, op.Nes...)
	}
	return out, withConsts(c, nes...), nil
}

func (m *machine) scatter(dest string, w Atom, arrs []string, index string, gens int, lam *Lambda, op *SegOp) ([]value.Value, stepCost, error) {
	if err := m.allocCopy(m.arr(dest)); err != nil {
		return nil, stepCost{}, err
	}
	d := m.arr(dest).Copy()
	n := m.int(w)
	m.soac++
	defer func() { m.soac-- }()
	var inst, ops instances
	var opDepth, levelSp int64
	for i := int64(0); i < n; i++ {
		if index != "" {
			m.env[index] = value.I64Val(i)
		}
		res, c, err := m.apply(lam, m.row(arrs, i))
		if err != nil {
			return nil, stepCost{}, err
		}
		inst.add(c)
		j := res[0].(value.Prim).AsInt64()
		if j < 0 || j >= d.Len() {
			continue
		}
		v := res[1]
		if op != nil {
			r, c, err := m.apply(op.Lam, []value.Value{d.Index(j), v})
			if err != nil {
				return nil, stepCost{}, err
			}
			ops.add(c)
			v = r[0]
		}
		if err := d.SetRow(j, v); err != nil {
			return nil, stepCost{}, err
		}
	}
	if op != nil {
		opDepth = lg(n) * ops.maxD
		levelSp = (n + 1) / 2 * ops.maxSp
	}
	c := stepCost{Cost: Cost{
		Work:     n + n*int64(gens) + inst.work + ops.work,
		Depth:    1 + inst.maxD + opDepth,
		SpaceSeq: max(inst.maxS1, ops.maxS1),
		SpacePar: inst.sumSp + levelSp,
	}}
	if n == 0 {
		c = fresh(1, 1, 0)
	}
	c.F = 0
	if op != nil {
		c = withConsts(c, op.Nes...)
	}
	return one(d), c, nil
}

// stream runs a StreamE in the reference semantics' chunks.
func (m *machine) stream(e *StreamE) ([]value.Value, stepCost, error) {
	n := m.int(e.W)
	m.soac++
	defer func() { m.soac-- }()
	chunks := max((n+StreamChunk-1)/StreamChunk, 1)
	var inst, ops instances
	parts := make([][]value.Value, chunks)
	for c := int64(0); c < chunks; c++ {
		lo, hi := c*StreamChunk, min((c+1)*StreamChunk, n)
		args := []value.Value{value.I64Val(hi - lo)}
		for _, a := range e.Arrs {
			args = append(args, m.arr(a).Slice(lo, hi))
		}
		res, cc, err := m.apply(e.Fold, args)
		if err != nil {
			return nil, stepCost{}, err
		}
		inst.add(cc)
		parts[c] = res
	}
	var out []value.Value
	var r, opDepth int64
	if e.Red != nil {
		level := parts
		for len(level) > 1 {
			var next [][]value.Value
			var d int64
			for i := 0; i+1 < len(level); i += 2 {
				res, cc, err := m.apply(e.Red, append(append([]value.Value{}, level[i]...), level[i+1]...))
				if err != nil {
					return nil, stepCost{}, err
				}
				ops.add(cc)
				d = max(d, cc.Depth)
				next = append(next, res)
			}
			if len(level)%2 == 1 {
				next = append(next, level[len(level)-1])
			}
			opDepth += d
			level = next
		}
		out = level[0]
	} else {
		for k := range e.Fold.Ret {
			var as []*value.Array
			for _, p := range parts {
				a, ok := p[k].(*value.Array)
				if !ok {
					return nil, stepCost{}, rtErr("map_stream: the function must return an array of the chunk's size")
				}
				as = append(as, a)
			}
			if err := m.allocStack(p2v(as)); err != nil {
				return nil, stepCost{}, err
			}
			a, err := value.Concat(as)
			if err != nil {
				return nil, stepCost{}, err
			}
			if a.Len() != n {
				return nil, stepCost{}, rtErr("map_stream: the function must return an array of the chunk's size")
			}
			out = append(out, a)
			r += value.Size(a)
		}
	}
	c := stepCost{Cost: Cost{
		Work:     chunks + inst.work + ops.work,
		Depth:    1 + inst.maxD + opDepth,
		SpaceSeq: r + max(inst.maxS1, ops.maxS1),
		SpacePar: r + inst.sumSp,
	}}
	if c.Work < c.Depth {
		// no chunk (an empty stream): every step with depth charges work
		c.Work = c.Depth
	}
	for _, v := range out {
		c.F += value.Size(v)
	}
	return out, c, nil
}

// filter runs a FilterE: (4n + Σ Wi, 3 + max Di + 2 lg n, ‖r‖ + n + 1 +
// max S1i, ‖r‖ + n + 1 + Σ S∞i), as COST_MODEL.md's filter.
func (m *machine) filter(e *FilterE) ([]value.Value, stepCost, error) {
	n := m.int(e.W)
	m.soac++
	defer func() { m.soac-- }()
	var inst instances
	kept := make([][]value.Value, len(e.Map.Ret)-1)
	rest := make([][]value.Value, len(e.Map.Ret)-1)
	var count int64
	for i := int64(0); i < n; i++ {
		if e.Index != "" {
			m.env[e.Index] = value.I64Val(i)
		}
		res, c, err := m.apply(e.Map, m.row(e.Arrs, i))
		if err != nil {
			return nil, stepCost{}, err
		}
		inst.add(c)
		if res[0].(value.Prim).Bool() {
			count++
			for k := range kept {
				kept[k] = append(kept[k], res[k+1])
			}
		} else if e.Partition {
			for k := range rest {
				rest[k] = append(rest[k], res[k+1])
			}
		}
	}
	out := []value.Value{value.I64Val(count)}
	var r int64
	parts := [][][]value.Value{kept}
	if e.Partition {
		parts = append(parts, rest)
	}
	for p, part := range parts {
		if p > 0 {
			out = append(out, value.I64Val(n-count))
		}
		for k, vs := range part {
			if err := m.allocStack(vs); err != nil {
				return nil, stepCost{}, err
			}
			a, err := value.FromValues(vs, m.zero(e.Map.Ret[k+1]))
			if err != nil {
				return nil, stepCost{}, err
			}
			out = append(out, a)
			r += value.Size(a)
		}
	}
	c := stepCost{Cost: Cost{
		Work:     4*n + n*int64(e.Gens) + inst.work,
		Depth:    3 + inst.maxD + 2*lg(n),
		SpaceSeq: r + n + 1 + inst.maxS1,
		SpacePar: r + n + 1 + inst.sumSp,
	}, F: r + 1}
	if n == 0 {
		// a SOAC over no elements: (1, 1, ‖r‖), as every SOAC
		c = fresh(1, 1, r+1)
	}
	return out, c, nil
}
