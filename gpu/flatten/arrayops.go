package flatten

import (
	"fmt"

	"fut/eval/value"
	"fut/gpu/kernel"
	"fut/interp/ir"
)

// Reductions and scans at the top level whose operator takes arrays and
// is not a map of a scalar operator (vector.go interchanges those):
//
//	reduce (\xs ys -> loop zs = replicate m 0 for i < m do …) ne xss
//
// The thesis's rule for an operator that cannot be interchanged with the
// map is to run it sequentially in a thread, on arrays in global memory;
// the parallelism left is that of the elements, split into G chunks of
// consecutive elements (the operator is associative, not necessarily
// commutative, so each chunk is combined in order):
//
//   - reduce: a Map kernel over the chunks, each thread folding its
//     chunk into its row of the partial results ([G]…), then a
//     one-thread kernel folding the partials of the chunks that are not
//     empty, in order;
//   - scan: the chunks' totals as for reduce, a one-thread kernel
//     scanning them into exclusive prefixes, then a Map kernel over the
//     chunks, each scanning its chunk from its prefix (the first chunk
//     from its first element) into its rows of the output;
//
// Each fold starts from its first element, as the reference path's
// does; the neutral element is the result only where there are no
// elements. (An operator whose "neutral" element is not neutral, as
// Futhark's tests have, then gives the reference path's result.)
//
//   - histogram (of arrays, its operator not vectorised): a Map kernel
//     over the chunks, each thread building its own histogram of its
//     chunk (with a flag per bin it touched: the first value to reach a
//     bin starts it, so the neutral element is never combined in, as on
//     the reference path), then a Map kernel over the bins, each thread
//     combining into the destination's bin the chunks' values for it in
//     order.
//
// The rule for G, on sizes known when the plan is made (plans are
// specialised to the call's sizes): arrayChunks, or the number of
// elements when that is smaller; at least 1. A chunk holds ⌈W/G⌉
// elements (the last ones fewer, or none).
const arrayChunks = 256

// histBudget bounds the elements of the chunks' histograms together: G
// is lowered to fit when the histogram's size is known.
const histBudget = 1 << 24

// chunks is G for a SOAC over w elements.
func chunks(w ir.Atom) int64 {
	if w.IsConst() {
		return max(1, min(w.Val.AsInt64(), arrayChunks))
	}
	return arrayChunks
}

// chunk is thread c's chunk of w elements in g chunks: its first
// element and its length.
func (b *kbuild) chunk(w ir.Atom, g int64, c kernel.Exp) (lo, n kernel.Exp) {
	W, k := b.chunkLen(w, g)
	lo = kernel.Bin("*", c, k)
	n = kernel.Bin("max", kernel.I64C(0), kernel.Bin("min", k, kernel.Bin("-", W, lo)))
	return lo, n
}

// chunkLen is the number of elements w, and of elements in each of g
// chunks of them.
func (b *kbuild) chunkLen(w ir.Atom, g int64) (W, k kernel.Exp) {
	W = toI64(b.size(w))
	return W, kernel.Bin("/", kernel.Bin("+", W, kernel.I64C(g-1)), kernel.I64C(g))
}

// filled is the number of chunks that are not empty (the first ones).
func (b *kbuild) filled(w ir.Atom, g int64) kernel.Exp {
	W, k := b.chunkLen(w, g)
	return kernel.Sel(kernel.Bin(">", k, kernel.I64C(0)), kernel.Bin("/", kernel.Bin("+", W, kernel.Bin("-", k, kernel.I64C(1))), k), kernel.I64C(0))
}

// shifted is v's rows from lo, n of them.
func shifted(v view, lo, n kernel.Exp) view {
	at := v.at
	return view{buf: v.buf, shape: append([]kernel.Exp{n}, v.shape[1:]...), at: func(idx []kernel.Exp) []kernel.Exp {
		return at(append([]kernel.Exp{kernel.Bin("+", lo, idx[0])}, idx[1:]...))
	}}
}

// partOf is the lambda returning only results [first, first+n) of lam.
func partOf(lam *ir.Lambda, first, n int) *ir.Lambda {
	return &ir.Lambda{Params: lam.Params, Ret: lam.Ret[first : first+n],
		Body: &ir.Body{Stms: lam.Body.Stms, Res: lam.Body.Res[first : first+n]}}
}

// partials declares the top-level arrays holding, for each of g chunks,
// a value of each of the types ts.
func (f *flattener) partials(what string, pat []ir.Param, ts []ir.Type, g int64) []ir.Param {
	ps := make([]ir.Param, len(ts))
	for k, t := range ts {
		f.nk++
		ps[k] = ir.Param{Name: fmt.Sprintf("%s_%d_%s", what, f.nk, pat[k].Name),
			T: ir.Type{Elem: t.Elem, Shape: append([]ir.Atom{ir.I64(g)}, t.Shape...)}}
		f.types[ps[k].Name] = ps[k].T
	}
	return ps
}

// foldChunks emits the Map kernel over g chunks in which thread c folds
// its chunk of e's elements (lam gives them) with ops from their neutral
// elements into row c of the arrays parts.
func (f *flattener) foldChunks(s *ir.Stm, e *ir.ScremaE, lam *ir.Lambda, ops []*ir.SegOp, parts []ir.Param, g int64) {
	b := f.newKernel("chunks", s)
	c := b.fresh("c", kernel.I64)
	b.threads([]ir.Atom{ir.I64(g)}, c)
	lo, n := b.chunk(e.W, g, c)
	pat := make([]ir.Param, len(parts))
	outs := make([]view, len(parts))
	for k, p := range parts {
		pat[k] = ir.Param{Name: p.Name + "_acc", T: rowType(p.T)}
		outs[k] = bufView(b.output(p, false)).rowsOf(c)
		outs[k].whole = true
		if pat[k].T.Rank() > 0 {
			b.dest[pat[k].Name] = outs[k]
		}
	}
	b.seqRange(&ir.Stm{Pat: pat}, &ir.ScremaE{W: e.W, Arrs: e.Arrs, Index: e.Index, Reds: ops, Map: lam}, lo, n, kernel.BoolC(true))
	for k, p := range pat {
		if p.T.Rank() == 0 {
			b.write(outs[k], b.atom(ir.V(p.Name)))
		}
	}
	f.emit(b, &kernel.Map{Dims: []kernel.Exp{kernel.I64C(g)}, Idx: []kernel.Var{c}, Body: b.cur})
}

// identity is a lambda returning the rows of arrays of the types ts.
func (f *flattener) identity(ts []ir.Type) *ir.Lambda {
	lam := &ir.Lambda{Body: &ir.Body{}}
	for _, t := range ts {
		f.nk++
		p := ir.Param{Name: fmt.Sprintf("row_%d", f.nk), T: rowType(t)}
		lam.Params = append(lam.Params, p)
		lam.Ret = append(lam.Ret, p.T)
		lam.Body.Res = append(lam.Body.Res, ir.V(p.Name))
	}
	return lam
}

// arrayReduce flattens the reductions of s (results [first, first+n) of
// lam) whose operators take arrays.
func (f *flattener) arrayReduce(s *ir.Stm, e *ir.ScremaE, lam *ir.Lambda, first int) {
	n := arity(e.Reds)
	lam = partOf(lam, first, n)
	g := chunks(e.W)
	parts := f.partials("part", s.Pat[first:first+n], lam.Ret, g)
	f.foldChunks(s, e, lam, e.Reds, parts, g)

	// the partials, folded in order by one thread
	b := f.newKernel("combine", s)
	j := b.fresh("j", kernel.I64)
	b.threads([]ir.Atom{ir.I64(1)}, j)
	var ts []ir.Type
	var arrs []string
	for _, p := range parts {
		ts, arrs = append(ts, p.T), append(arrs, p.Name)
	}
	pat := s.Pat[first : first+n]
	for _, p := range pat {
		if p.T.Rank() > 0 {
			v := bufView(b.output(p, false))
			b.dest[p.Name] = v
		}
	}
	b.seqRange(&ir.Stm{Pat: pat}, &ir.ScremaE{W: ir.I64(g), Arrs: arrs, Reds: e.Reds, Map: f.identity(ts)}, nil, b.filled(e.W, g), kernel.BoolC(true))
	for _, p := range pat {
		if p.T.Rank() == 0 {
			b.write(bufView(b.output(p, true)), b.atom(ir.V(p.Name)), kernel.I64C(0))
		}
	}
	f.emit(b, &kernel.Map{Dims: []kernel.Exp{kernel.I64C(1)}, Idx: []kernel.Var{j}, Body: b.cur})
}

// arrayScan flattens the scans of s (the first results of lam) whose
// operators take arrays.
func (f *flattener) arrayScan(s *ir.Stm, e *ir.ScremaE, lam *ir.Lambda) {
	n := arity(e.Scans)
	lam = partOf(lam, 0, n)
	g := chunks(e.W)
	parts := f.partials("part", s.Pat[:n], lam.Ret, g)
	f.foldChunks(s, e, lam, e.Scans, parts, g)

	// the exclusive prefixes: the neutral element, then the partials
	// scanned, by one thread
	var nes []ir.Atom
	for _, op := range e.Scans {
		nes = append(nes, op.Nes...)
	}
	pres := f.partials("prefix", s.Pat[:n], lam.Ret, g)
	b := f.newKernel("prefix", s)
	j := b.fresh("j", kernel.I64)
	b.threads([]ir.Atom{ir.I64(1)}, j)
	var ts []ir.Type
	var arrs []string
	pat := make([]ir.Param, n)
	for k, p := range parts {
		out := bufView(b.output(pres[k], false))
		b.store(out.rowsOf(kernel.I64C(0)), nes[k], rowType(p.T))
		pat[k] = ir.Param{Name: pres[k].Name + "_scan", T: ir.Type{Elem: p.T.Elem, Shape: append([]ir.Atom{ir.I64(g - 1)}, p.T.Shape[1:]...)}}
		b.dest[pat[k].Name] = shifted(out, kernel.I64C(1), kernel.I64C(g-1))
		f.nk++
		src := fmt.Sprintf("%s_%d", p.Name, f.nk)
		b.bindArr(src, shifted(b.arr(p.Name), kernel.I64C(0), kernel.I64C(g-1)), false)
		ts, arrs = append(ts, pat[k].T), append(arrs, src)
	}
	rest := kernel.Bin("max", kernel.I64C(0), kernel.Bin("-", b.filled(e.W, g), kernel.I64C(1)))
	b.seqRange(&ir.Stm{Pat: pat}, &ir.ScremaE{W: ir.I64(g - 1), Arrs: arrs, Scans: e.Scans, Map: f.identity(ts)}, nil, rest, kernel.BoolC(true))
	f.emit(b, &kernel.Map{Dims: []kernel.Exp{kernel.I64C(1)}, Idx: []kernel.Var{j}, Body: b.cur})

	// each chunk scanned from its prefix
	b = f.newKernel("chunks", s)
	c := b.fresh("c", kernel.I64)
	b.threads([]ir.Atom{ir.I64(g)}, c)
	lo, cn := b.chunk(e.W, g, c)
	ops := make([]*ir.SegOp, len(e.Scans))
	k := 0
	for i, op := range e.Scans {
		ops[i] = &ir.SegOp{Lam: op.Lam}
		for range op.Nes {
			f.nk++
			name := fmt.Sprintf("%s_%d", pres[k].Name, f.nk)
			row := b.arr(pres[k].Name).rowsOf(c)
			if lam.Ret[k].Rank() > 0 {
				b.bindArr(name, row, false)
			} else {
				b.env[name] = b.read(row)
			}
			ops[i].Nes = append(ops[i].Nes, ir.V(name))
			k++
		}
	}
	pat = make([]ir.Param, n)
	for k, p := range s.Pat[:n] {
		pat[k] = ir.Param{Name: p.Name + "_chunk", T: p.T}
		b.dest[pat[k].Name] = shifted(bufView(b.output(p, false)), lo, cn)
	}
	b.seqRange(&ir.Stm{Pat: pat}, &ir.ScremaE{W: e.W, Arrs: e.Arrs, Index: e.Index, Scans: ops, Map: lam}, lo, cn, kernel.Bin("==", c, kernel.I64C(0)))
	f.emit(b, &kernel.Map{Dims: []kernel.Exp{kernel.I64C(g)}, Idx: []kernel.Var{c}, Body: b.cur})
}

// arrayHist flattens a histogram whose values are arrays and whose
// operator is not vectorised.
func (f *flattener) arrayHist(s *ir.Stm, e *ir.HistE) {
	if e.Op.Arity() != 1 || len(e.Map.Ret) != 2 {
		fail("a histogram of tuples is not flattened yet")
	}
	t := f.types[e.Dest]
	bins, rowT := t.Shape[0], e.Map.Ret[1]
	g := chunks(e.W)
	size := int64(1)
	for _, d := range t.Shape {
		if !d.IsConst() {
			size = -1
			break
		}
		size *= max(1, d.Val.AsInt64())
	}
	if size > 0 {
		g = max(1, min(g, histBudget/size))
	}
	f.nk++
	parts := ir.Param{Name: fmt.Sprintf("hpart_%d_%s", f.nk, s.Pat[0].Name), T: ir.Type{Elem: t.Elem, Shape: append([]ir.Atom{ir.I64(g)}, t.Shape...)}}
	flags := ir.Param{Name: fmt.Sprintf("hseen_%d_%s", f.nk, s.Pat[0].Name), T: ir.Type{Elem: value.Bool, Shape: []ir.Atom{ir.I64(g), bins}}}
	f.types[parts.Name], f.types[flags.Name] = parts.T, flags.T

	// each chunk's histogram, of the bins it touched
	b := f.newKernel("chunks", s)
	c := b.fresh("c", kernel.I64)
	b.threads([]ir.Atom{ir.I64(g)}, c)
	lo, n := b.chunk(e.W, g, c)
	pv := bufView(b.output(parts, false)).rowsOf(c)
	fv := bufView(b.output(flags, false)).rowsOf(c)
	tmp := b.scratch(s.Pat[0].Name+"_bin", t.Elem, rowT.Shape)
	nb := toI64(b.size(bins))
	b.loops([]kernel.Exp{nb}, func(idx []kernel.Exp) { b.write(fv, kernel.BoolC(false), idx...) })
	l := &kernel.Loop{N: n, I: b.fresh("j", kernel.I64)}
	saved := b.cur
	b.cur = nil
	res := b.element(e.Arrs, e.Index, e.Map, kernel.Bin("+", lo, l.I))
	at := toI64(res[0])
	x := b.arr(e.Map.Body.Res[1].Name)
	inner := b.cur
	b.cur = nil
	seen := b.fresh("seen", kernel.Bool)
	b.cur = append(b.cur, kernel.L(seen, b.read(fv, at)))
	check := b.cur
	b.cur = nil
	b.copyTo(pv.rowsOf(at), x)
	b.write(fv, kernel.BoolC(true), at)
	first := b.cur
	b.cur = nil
	b.combine(e.Op, pv.rowsOf(at), x, tmp)
	again := b.cur
	b.cur = append(inner, &kernel.If{Cond: inRange(at, nb), Then: append(check, &kernel.If{Cond: seen, Then: again, Else: first})})
	l.Body = b.cur
	b.cur = append(saved, l)
	f.emit(b, &kernel.Map{Dims: []kernel.Exp{kernel.I64C(g)}, Idx: []kernel.Var{c}, Body: b.cur})

	// each bin: the chunks' values combined into the destination's
	b = f.newKernel("hist", s)
	i := b.fresh("i", kernel.I64)
	b.threads([]ir.Atom{bins}, i)
	d := bufView(b.inPlace(e.Dest, s.Pat[0])).rowsOf(i)
	tmp = b.scratch(s.Pat[0].Name+"_bin", t.Elem, rowT.Shape)
	pa, fa := b.arr(parts.Name), b.arr(flags.Name)
	b.loops([]kernel.Exp{kernel.I64C(g)}, func(idx []kernel.Exp) {
		saved := b.cur
		b.cur = nil
		b.combine(e.Op, d, pa.rowsOf(idx[0], i), tmp)
		b.cur = append(saved, &kernel.If{Cond: b.read(fa, idx[0], i), Then: b.cur})
	})
	f.emit(b, &kernel.Map{Dims: []kernel.Exp{toI64(b.size(bins))}, Idx: []kernel.Var{i}, Body: b.cur})
}
