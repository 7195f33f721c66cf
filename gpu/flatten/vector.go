package flatten

import (
	"fut/eval/value"
	"fut/gpu/kernel"
	"fut/interp/ir"
)

// A reduction of arrays at the top level whose operator is vectorised, a
// map of a scalar operator over its array arguments (reduce (map2 (+))
// (replicate m 0) xss), is interchanged with that map: a segmented
// reduction with one segment per column, whose scalar operator is the
// map's lambda (the thesis's map–reduce interchange). Its neutral element
// must be a replicate of a scalar, which is then the scalar neutral.

// vecOp returns the map a vectorised operator applies, or nil: the
// operator's body is one map over its (one-dimensional) parameters whose
// results it returns.
func vecOp(op *ir.SegOp) *ir.ScremaE {
	l := op.Lam
	if len(l.Body.Stms) != 1 {
		return nil
	}
	for _, p := range l.Params {
		if p.T.Rank() != 1 {
			return nil
		}
	}
	s := l.Body.Stms[0]
	m, ok := s.E.(*ir.ScremaE)
	if !ok || len(m.Scans) > 0 || len(m.Reds) > 0 || !sameAtoms(l.Body.Res, s.Pat) || !scalarRets(m.Map) {
		return nil
	}
	isParam := map[string]bool{}
	for _, p := range l.Params {
		isParam[p.Name] = true
	}
	for _, a := range m.Arrs {
		if !isParam[a] {
			return nil
		}
	}
	return m
}

// scalarNeutral is the scalar x of a neutral element bound at the top
// level to replicate n x, with x a top-level scalar or a constant.
func (f *flattener) scalarNeutral(ne ir.Atom) (ir.Atom, bool) {
	r, ok := f.defs[ne.Name].(*ir.ReplicateE)
	if !ok || !r.X.IsConst() && f.types[r.X.Name].Rank() != 0 {
		return ir.Atom{}, false
	}
	if _, known := f.types[r.X.Name]; !r.X.IsConst() && !known {
		return ir.Atom{}, false
	}
	return r.X, true
}

// vecReduce makes the reductions of e (all of arrays, with vectorised
// operators) one segmented Reduce kernel over the columns; it reports
// false when they are not of that form.
func (f *flattener) vecReduce(s *ir.Stm, e *ir.ScremaE) bool {
	nScan, nRed := arity(e.Scans), arity(e.Reds)
	if nRed == 0 {
		return false
	}
	width, maps, nes, ok := f.vecOps(e.Reds, false)
	if !ok {
		return false
	}
	b := f.newKernel("segred", s)
	segs, n := b.size(width), b.size(e.W)
	seg, i := b.fresh("col", kernel.I64), b.fresh("i", kernel.I64)
	b.threads([]ir.Atom{width, e.W}, seg, i)
	b.element(e.Arrs, e.Index, e.Map, i)
	var elems []kernel.Exp
	for k := nScan; k < nScan+nRed; k++ {
		elems = append(elems, b.read(b.arr(e.Map.Body.Res[k].Name), seg))
	}
	body := b.cur
	b.cur = nil
	var lam kernel.Lambda
	for r, op := range e.Reds {
		k, m := op.Arity(), maps[r]
		comp := map[string]kernel.Var{}
		for j, p := range op.Lam.Params {
			v := b.fresh(p.Name, ktype(p.T.Elem))
			comp[p.Name] = v
			if j < k {
				lam.X = append(lam.X, v)
			} else {
				lam.Y = append(lam.Y, v)
			}
		}
		if m.Index != "" {
			b.env[m.Index] = seg
		}
		for t, a := range m.Arrs {
			b.env[m.Map.Params[t].Name] = comp[a]
		}
		b.run(m.Map.Body)
		lam.Res = append(lam.Res, b.atoms(m.Map.Body.Res)...)
	}
	lam.Body = b.cur
	b.cur = nil
	var outs []*kernel.Param
	for k := nScan; k < nScan+nRed; k++ {
		outs = append(outs, b.output(s.Pat[k], false))
	}
	f.emit(b, &kernel.Reduce{Segments: segs, N: n, Seg: seg, I: i, Body: body, Elems: elems, Op: lam, Neutral: b.atoms(nes), Out: outs})
	return true
}

// vecScan makes the scans of e (all of arrays, with vectorised operators)
// one Map kernel over the columns, each a sequential scan down its column
// (the interchanged map's parallelism only); it reports false when they
// are not of that form.
func (f *flattener) vecScan(s *ir.Stm, e *ir.ScremaE) bool {
	nScan := arity(e.Scans)
	width, maps, nes, ok := f.vecOps(e.Scans, true)
	if !ok {
		return false
	}
	b := f.newKernel("colscan", s)
	m, n := b.size(width), b.size(e.W)
	col := b.fresh("col", kernel.I64)
	b.threads([]ir.Atom{width}, col)
	l := &kernel.Loop{N: n, I: b.fresh("i", kernel.I64)}
	for _, ne := range nes {
		if b.isArr(ne) { // the column's own neutral element
			l.Init = append(l.Init, b.read(b.arr(ne.Name), col))
			continue
		}
		l.Init = append(l.Init, b.atom(ne))
	}
	for k := range nScan {
		l.Params = append(l.Params, b.fresh(s.Pat[k].Name, l.Init[k].Type()))
	}
	outs := make([]*kernel.Param, nScan)
	for k := range nScan {
		outs[k] = b.output(s.Pat[k], false)
	}
	b.element(e.Arrs, e.Index, e.Map, l.I)
	elems := make([]kernel.Exp, nScan)
	for k := range nScan {
		elems[k] = b.read(b.arr(e.Map.Body.Res[k].Name), col)
	}
	c := 0
	for r, op := range e.Scans {
		k, mp := op.Arity(), maps[r]
		comp := map[string]kernel.Exp{}
		for j := range k {
			comp[op.Lam.Params[j].Name] = l.Params[c+j]
			comp[op.Lam.Params[k+j].Name] = elems[c+j]
		}
		if mp.Index != "" {
			b.env[mp.Index] = col
		}
		for t, a := range mp.Arrs {
			b.env[mp.Map.Params[t].Name] = comp[a]
		}
		b.run(mp.Map.Body)
		l.Next = append(l.Next, b.atoms(mp.Map.Body.Res)...)
		c += k
	}
	for k := range nScan {
		b.cur = append(b.cur, kernel.Wr(outs[k], l.Next[k], l.I, col))
	}
	l.Body = b.cur
	b.cur = []kernel.Stmt{l}
	f.emit(b, &kernel.Map{Dims: []kernel.Exp{m}, Idx: []kernel.Var{col}, Body: b.cur})
	return true
}

// vecOps checks that ops are vectorised operators over arrays of one
// width known at the top level, with replicated scalar neutral elements
// (or, with arrays set, any top-level arrays), and returns the width, the
// maps and the neutral elements (scalars, or arrays where not
// replicates).
func (f *flattener) vecOps(ops []*ir.SegOp, arrays bool) (width ir.Atom, maps []*ir.ScremaE, nes []ir.Atom, ok bool) {
	for _, op := range ops {
		m := vecOp(op)
		if m == nil || !f.topSize(m.W) || width.Name != "" && width != m.W {
			return width, nil, nil, false
		}
		width = m.W
		maps = append(maps, m)
		for _, ne := range op.Nes {
			x, ok := f.scalarNeutral(ne)
			switch {
			case ok:
				nes = append(nes, x)
			case arrays && !ne.IsConst() && f.types[ne.Name].Rank() == 1:
				nes = append(nes, ne)
			default:
				return width, nil, nil, false
			}
		}
	}
	return width, maps, nes, true
}

// vecHist makes a histogram of rows whose operator is vectorised (hist
// (map2 (+)) (replicate d 0) k bins rows, as in k-means) one Hist kernel
// with a thread per element of each row: the destination, viewed as one
// dimension, gets element j of row i in bin bins[i]·d + j. It reports
// false when the histogram is not of that form.
func (f *flattener) vecHist(s *ir.Stm, e *ir.HistE) bool {
	m := vecOp(e.Op)
	dt := f.types[e.Dest]
	if m == nil || e.Op.Arity() != 1 || dt.Rank() != 2 || !f.topSize(m.W) || !f.topSize(dt.Shape[0]) {
		return false
	}
	ne, ok := f.scalarNeutral(e.Op.Nes[0])
	if !ok {
		return false
	}
	b := f.newKernel("hist", s)
	bins, width := b.size(dt.Shape[0]), b.size(m.W)
	n := kernel.Bin("*", b.size(e.W), width)
	t := b.fresh("t", kernel.I64)
	i, j := b.fresh("i", kernel.I64), b.fresh("j", kernel.I64)
	b.cur = append(b.cur, kernel.L(i, kernel.Bin("/", t, width)), kernel.L(j, kernel.Bin("%", t, width)))
	b.threads([]ir.Atom{e.W}, i)
	res := b.element(e.Arrs, e.Index, e.Map, i)
	at := toI64(res[0])
	v := b.read(b.arr(e.Map.Body.Res[1].Name), j)
	bin := b.fresh("bin", kernel.I64)
	b.cur = append(b.cur, kernel.L(bin, kernel.Sel(inRange(at, bins), kernel.Bin("+", kernel.Bin("*", at, width), j), kernel.I64C(-1))))
	body := b.cur
	b.cur = nil
	x, y := b.fresh("x", ktype(dt.Elem)), b.fresh("y", ktype(dt.Elem))
	if m.Index != "" {
		b.env[m.Index] = j
	}
	comp := map[string]kernel.Var{e.Op.Lam.Params[0].Name: x, e.Op.Lam.Params[1].Name: y}
	for k, a := range m.Arrs {
		b.env[m.Map.Params[k].Name] = comp[a]
	}
	b.run(m.Map.Body)
	op := kernel.Lambda{X: []kernel.Var{x}, Y: []kernel.Var{y}, Body: b.cur, Res: b.atoms(m.Map.Body.Res)}
	b.cur = nil
	dest := b.addParam(kernel.Buf("p_"+cname(e.Dest)+"_flat", ktype(dt.Elem), kernel.Bin("*", bins, width)), Arg{Var: e.Dest, Binds: s.Pat[0].Name, F16: dt.Elem == value.F16})
	f.emit(b, &kernel.Hist{N: n, I: t, Body: body, Dest: dest, Bin: bin, Val: v, Op: op, OpName: atomicOp(&ir.SegOp{Lam: m.Map, Nes: []ir.Atom{ne}}, dt.Elem), Neutral: b.atom(ne)})
	return true
}
