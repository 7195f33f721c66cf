package flatten

import (
	"fmt"
	"slices"

	"fut/eval/value"
	"fut/gpu/kernel"
	"fut/interp/ir"
)

// Segmented histograms: a map whose body is one histogram
//
//	map (\xs -> hist (+) 0 k (is xs) xs) xss      -- m rows of n elements
//
// is either run in the thread of each row (a sequential loop over the
// row's n elements into the row of the result, lambda.go's seqHist) or
// flattened into one histogram over all m·n elements into m·k buckets,
// element j of row r going to bucket r·k + b (b its bucket in the row;
// a bucket outside 0..k-1 is skipped, as in the row's own histogram).
//
// The rule (segmentedPays), on the sizes of the call (plans are made for
// the call's sizes): flat when the rows are at least minParallelWidth
// wide and there are fewer than segmentedRows of them. With many rows,
// one thread per row already fills the device and needs no atomic
// updates; with few wide rows (a histogram per image of a handful of
// images), a thread per row would leave the device nearly idle and run
// n steps in each, so every element gets its own thread instead.

// segmentedRows is the number of rows from which a map over histograms
// runs one row per thread.
const segmentedRows = 1 << 14

// segmentedPays applies the rule above to a map of width m over rows of n
// elements; sizes not known as constants count as large.
func segmentedPays(m, n ir.Atom) bool {
	if n.IsConst() && n.Val.AsInt64() < minParallelWidth {
		return false
	}
	return m.IsConst() && m.Val.AsInt64() < segmentedRows
}

// segHistOf returns the histogram a map's body consists of, when the
// map is one that segHist flattens (its operator and neutral element and
// its sizes known outside the map, scalar buckets and values), or nil.
func (f *flattener) segHistOf(e *ir.ScremaE, hoisted []*ir.Stm) (*ir.Stm, *ir.HistE) {
	if len(e.Scans)+len(e.Reds) > 0 || len(e.Map.Body.Stms) != 1 || len(e.Map.Body.Res) != 1 {
		return nil, nil
	}
	st := e.Map.Body.Stms[0]
	h, ok := st.E.(*ir.HistE)
	if !ok || len(st.Pat) != 1 || e.Map.Body.Res[0].Name != st.Pat[0].Name || !f.segHistable(st, h, hoisted) {
		return nil, nil
	}
	return st, h
}

// segHistable reports whether a histogram statement of a map's body can
// be one segmented histogram with those of the other rows, and pays.
func (f *flattener) segHistable(st *ir.Stm, h *ir.HistE, hoisted []*ir.Stm) bool {
	known := func(a ir.Atom) bool {
		return a.IsConst() || f.topSize(a) || isHoisted(hoisted, a.Name)
	}
	if h.Op.Arity() != 1 || len(h.Map.Ret) != 2 || h.Map.Ret[0].Rank() != 0 || h.Map.Ret[1].Rank() != 0 || st.Pat[0].T.Rank() != 1 {
		return false
	}
	if !known(h.W) || !known(st.Pat[0].T.Shape[0]) {
		return false
	}
	for _, ne := range h.Op.Nes {
		if !ne.IsConst() && !f.topSize(ne) {
			return false
		}
	}
	return true
}

// segHistInner reports whether a statement of the body of the map e is
// a histogram that distribution should give a map of its own, to be
// flattened by segHist.
func (f *flattener) segHistInner(e *ir.ScremaE, st *ir.Stm, hoisted []*ir.Stm) bool {
	h, ok := st.E.(*ir.HistE)
	return ok && len(st.Pat) == 1 && f.segHistable(st, h, hoisted) && segmentedPays(e.W, h.W)
}

// segHist flattens the map s (of e) into one histogram kernel when its
// body is one histogram and the rule says so; it reports whether it did.
func (f *flattener) segHist(s *ir.Stm, e *ir.ScremaE) bool {
	hs, h := f.segHistOf(e, nil)
	if h == nil || !segmentedPays(e.W, h.W) {
		return false
	}
	k := hs.Pat[0].T.Shape[0]
	// the destination: the rows of an array the map goes over, or one
	// array of the top level that every row starts from (replicated)
	dest := ""
	for t, p := range e.Map.Params {
		if p.Name == h.Dest {
			dest = e.Arrs[t]
		}
	}
	if dest == "" {
		dt, ok := f.types[h.Dest]
		if !ok || dt.Rank() != 1 {
			return false
		}
		f.nk++
		rep := &ir.Stm{Pat: []ir.Param{{Name: fmt.Sprintf("seg_%d_%s", f.nk, h.Dest), T: dt.ArrayOf(e.W)}}, E: &ir.ReplicateE{N: e.W, X: ir.V(h.Dest)}}
		f.stm(rep)
		f.types[rep.Pat[0].Name] = rep.Pat[0].T
		dest = rep.Pat[0].Name
	}
	dt := f.types[dest]
	if dt.Rank() != 2 {
		return false
	}
	f.checkInputs("hist", h.Arrs, h.Map)
	b := f.newKernel("seghist", s)
	rows, width, bins := b.size(e.W), b.size(h.W), b.size(k)
	t := b.fresh("t", kernel.I64)
	r, j := b.fresh("r", kernel.I64), b.fresh("j", kernel.I64)
	b.cur = append(b.cur, kernel.L(r, kernel.Bin("/", t, width)), kernel.L(j, kernel.Bin("%", t, width)))
	b.threads([]ir.Atom{e.W, h.W}, r, j)
	// the rows of the map's arrays that the histogram reads (not its
	// destination's, which the kernel updates as a whole)
	var arrs []string
	outer := &ir.Lambda{}
	for t, p := range e.Map.Params {
		if p.Name != h.Dest {
			arrs = append(arrs, e.Arrs[t])
			outer.Params = append(outer.Params, p)
		}
	}
	b.bindElem(arrs, e.Index, outer, r)
	res := b.element(h.Arrs, h.Index, h.Map, j)
	at := toI64(res[0])
	bin := b.fresh("bin", kernel.I64)
	b.cur = append(b.cur, kernel.L(bin, kernel.Sel(inRange(at, bins), kernel.Bin("+", kernel.Bin("*", r, bins), at), kernel.I64C(-1))))
	body := b.cur
	b.cur = nil
	op, nes, _ := b.segops([]*ir.SegOp{h.Op})
	buf := b.addParam(kernel.Buf("p_"+cname(dest)+"_flat", ktype(dt.Elem), kernel.Bin("*", rows, bins)), Arg{Var: dest, Binds: s.Pat[0].Name, F16: dt.Elem == value.F16})
	f.emit(b, &kernel.Hist{N: kernel.Bin("*", rows, width), I: t, Body: body, Dest: buf, Bin: bin, Val: res[1], Op: op, OpName: atomicOp(h.Op, dt.Elem), Neutral: nes[0]})
	return true
}

// Segmented filters: a map whose body filters its row
//
//	map (\xs -> let (k, ys) = filter p xs in g k ys) xss   -- m rows of n
//
// runs the filter in each row's thread (lambda.go's seqFilter: a loop
// over the row's n elements) or, by the same rule as histograms, as
// segmented operations that compute the sizes first and allocate after
// (the thesis's treatment of irregular results): the flags and values
// of all m·n elements (a map nest), each row's offsets (a segmented
// scan), each row's count (its last offset) and start (a scan of the
// counts), one scatter of the kept elements of every row into one array
// of all of them, and then the map, in which the row's filtered array
// is a slice of that array (its start and count read by the row's
// thread) and what follows the filter runs as before.

// segFilter rewrites the map s (of e) when its body has a filter that
// the rule flattens; it reports whether it did (the statements it made
// have been flattened).
func (f *flattener) segFilter(s *ir.Stm, e *ir.ScremaE) bool {
	fs, fe, pre := f.segFilterOf(e)
	if fe == nil {
		return false
	}
	m, n := e.W, fe.W
	fresh := func(base string) string {
		f.nk++
		return fmt.Sprintf("segf_%d_%s", f.nk, base)
	}
	i64 := ir.Scalar(value.I64)
	plus := func() *ir.SegOp {
		a, b, c := fresh("a"), fresh("b"), fresh("c")
		return &ir.SegOp{Nes: []ir.Atom{ir.I64(0)}, Lam: &ir.Lambda{Params: []ir.Param{{Name: a, T: i64}, {Name: b, T: i64}}, Ret: []ir.Type{i64},
			Body: &ir.Body{Stms: []*ir.Stm{{Pat: []ir.Param{{Name: c, T: i64}}, E: &ir.BinOpE{Op: "+", X: ir.V(a), Y: ir.V(b)}}}, Res: []ir.Atom{ir.V(c)}}}}
	}
	var out []*ir.Stm
	// 1. the flags and values of every element: a map over the rows of
	// a map over the row's elements (the filter's lambda)
	inner := &ir.Stm{E: &ir.ScremaE{W: n, Arrs: fe.Arrs, Index: fe.Index, Gens: fe.Gens, Map: fe.Map}}
	lam1 := &ir.Lambda{Body: &ir.Body{Stms: append(slices.Clone(pre), inner)}}
	first := &ir.Stm{}
	for k, t := range fe.Map.Ret {
		row := ir.Param{Name: fresh("row"), T: t.ArrayOf(n)}
		inner.Pat = append(inner.Pat, row)
		lam1.Ret = append(lam1.Ret, row.T)
		lam1.Body.Res = append(lam1.Body.Res, ir.V(row.Name))
		base := "flag"
		if k > 0 {
			base = fs.Pat[k].Name
		}
		first.Pat = append(first.Pat, ir.Param{Name: fresh(base), T: row.T.ArrayOf(m)})
	}
	used := map[string]bool{}
	for _, st := range lam1.Body.Stms {
		ir.Uses(st.E, func(x string) { used[x] = true })
	}
	first.E = f.mapOver(e, lam1, used, nil)
	out = append(out, first)
	flags := first.Pat[0].Name
	// 2. each row's inclusive offsets: a segmented scan of the flags as 0 or 1
	fr, b, x, o := fresh("fr"), fresh("b"), fresh("x"), fresh("o")
	offs := ir.Param{Name: fresh("offs"), T: ir.Type{Elem: value.I64, Shape: []ir.Atom{m, n}}}
	toInt := &ir.Lambda{Params: []ir.Param{{Name: b, T: ir.Scalar(value.Bool)}}, Ret: []ir.Type{i64},
		Body: &ir.Body{Stms: []*ir.Stm{{Pat: []ir.Param{{Name: x, T: i64}}, E: &ir.IfE{Cond: ir.V(b), Then: &ir.Body{Res: []ir.Atom{ir.I64(1)}}, Else: &ir.Body{Res: []ir.Atom{ir.I64(0)}}, Ret: []ir.Type{i64}}}}, Res: []ir.Atom{ir.V(x)}}}
	scanRow := &ir.Stm{Pat: []ir.Param{{Name: o, T: offs.T.Row()}}, E: &ir.ScremaE{W: n, Arrs: []string{fr}, Scans: []*ir.SegOp{plus()}, Map: toInt}}
	out = append(out, &ir.Stm{Pat: []ir.Param{offs}, E: &ir.ScremaE{W: m, Arrs: []string{flags},
		Map: &ir.Lambda{Params: []ir.Param{{Name: fr, T: first.Pat[0].T.Row()}}, Ret: []ir.Type{offs.T.Row()}, Body: &ir.Body{Stms: []*ir.Stm{scanRow}, Res: []ir.Atom{ir.V(o)}}}}})
	// 3. each row's count (its last offset), the counts' inclusive scan,
	// the total and each row's start
	or, c := fresh("or"), fresh("c")
	// (m and n are constants: segFilterOf takes those only)
	rows, width := m.Val.AsInt64(), n.Val.AsInt64()
	last := ir.I64(width - 1)
	counts := ir.Param{Name: fresh("counts"), T: i64.ArrayOf(m)}
	out = append(out, &ir.Stm{Pat: []ir.Param{counts}, E: &ir.ScremaE{W: m, Arrs: []string{offs.Name},
		Map: &ir.Lambda{Params: []ir.Param{{Name: or, T: offs.T.Row()}}, Ret: []ir.Type{i64},
			Body: &ir.Body{Stms: []*ir.Stm{{Pat: []ir.Param{{Name: c, T: i64}}, E: &ir.IndexE{Arr: or, Idx: []ir.Atom{last}}}}, Res: []ir.Atom{ir.V(c)}}}}})
	y := fresh("y")
	ends := ir.Param{Name: fresh("ends"), T: i64.ArrayOf(m)}
	out = append(out, &ir.Stm{Pat: []ir.Param{ends}, E: &ir.ScremaE{W: m, Arrs: []string{counts.Name}, Scans: []*ir.SegOp{plus()},
		Map: &ir.Lambda{Params: []ir.Param{{Name: y, T: i64}}, Ret: []ir.Type{i64}, Body: &ir.Body{Res: []ir.Atom{ir.V(y)}}}}})
	lastRow := ir.I64(rows - 1)
	total := ir.Param{Name: fresh("total"), T: i64}
	out = append(out, &ir.Stm{Pat: []ir.Param{total}, E: &ir.IndexE{Arr: ends.Name, Idx: []ir.Atom{lastRow}}})
	ea, ca, d := fresh("e"), fresh("c"), fresh("d")
	starts := ir.Param{Name: fresh("starts"), T: i64.ArrayOf(m)}
	out = append(out, &ir.Stm{Pat: []ir.Param{starts}, E: &ir.ScremaE{W: m, Arrs: []string{ends.Name, counts.Name},
		Map: &ir.Lambda{Params: []ir.Param{{Name: ea, T: i64}, {Name: ca, T: i64}}, Ret: []ir.Type{i64},
			Body: &ir.Body{Stms: []*ir.Stm{{Pat: []ir.Param{{Name: d, T: i64}}, E: &ir.BinOpE{Op: "-", X: ir.V(ea), Y: ir.V(ca)}}}, Res: []ir.Atom{ir.V(d)}}}}})
	// 4. the kept elements of every row, one array per value: a scatter
	// of the m·n elements to their row's start plus their offset
	size := ir.I64(rows * width)
	// (only the values that the rest of the body reads)
	read := map[string]bool{}
	for _, st := range e.Map.Body.Stms {
		ir.Uses(st.E, func(x string) { read[x] = true })
	}
	for _, a := range e.Map.Body.Res {
		read[a.Name] = true
	}
	kept := make([]string, len(fs.Pat)-1)
	for k := range kept {
		if !read[fs.Pat[1+k].Name] {
			continue
		}
		vt := fe.Map.Ret[1+k]
		dest := ir.Param{Name: fresh("dest"), T: vt.ArrayOf(ir.V(total.Name))}
		out = append(out, &ir.Stm{Pat: []ir.Param{dest}, E: &ir.ReplicateE{N: ir.V(total.Name), X: ir.C(ir.ZeroOf(vt.Elem))}})
		t, r, j, fv, ov, sv, p, q, idx, v := fresh("t"), fresh("r"), fresh("j"), fresh("f"), fresh("o"), fresh("s"), fresh("p"), fresh("q"), fresh("idx"), fresh("v")
		let := func(name string, t ir.Type, e ir.Exp) *ir.Stm {
			return &ir.Stm{Pat: []ir.Param{{Name: name, T: t}}, E: e}
		}
		body := &ir.Body{Stms: []*ir.Stm{
			let(r, i64, &ir.BinOpE{Op: "/", X: ir.V(t), Y: n}),
			let(j, i64, &ir.BinOpE{Op: "%", X: ir.V(t), Y: n}),
			let(fv, ir.Scalar(value.Bool), &ir.IndexE{Arr: flags, Idx: []ir.Atom{ir.V(r), ir.V(j)}}),
			let(ov, i64, &ir.IndexE{Arr: offs.Name, Idx: []ir.Atom{ir.V(r), ir.V(j)}}),
			let(sv, i64, &ir.IndexE{Arr: starts.Name, Idx: []ir.Atom{ir.V(r)}}),
			let(p, i64, &ir.BinOpE{Op: "+", X: ir.V(sv), Y: ir.V(ov)}),
			let(q, i64, &ir.BinOpE{Op: "-", X: ir.V(p), Y: ir.I64(1)}),
			let(idx, i64, &ir.IfE{Cond: ir.V(fv), Then: &ir.Body{Res: []ir.Atom{ir.V(q)}}, Else: &ir.Body{Res: []ir.Atom{ir.I64(-1)}}, Ret: []ir.Type{i64}}),
			let(v, vt, &ir.IndexE{Arr: first.Pat[1+k].Name, Idx: []ir.Atom{ir.V(r), ir.V(j)}}),
		}, Res: []ir.Atom{ir.V(idx), ir.V(v)}}
		buf := ir.Param{Name: fresh("kept"), T: dest.T}
		out = append(out, &ir.Stm{Pat: []ir.Param{buf}, E: &ir.ScatterE{Dest: dest.Name, W: size, Index: t, Map: &ir.Lambda{Ret: []ir.Type{i64, vt}, Body: body}}})
		kept[k] = buf.Name
	}
	// 5. the map, the filter replaced by the row's slices of the kept
	// elements
	ne := *e
	if ne.Index == "" {
		ne.Index = fresh("row")
	}
	start := fresh("start")
	var stms []*ir.Stm
	for _, st := range e.Map.Body.Stms {
		if st != fs {
			stms = append(stms, st)
			continue
		}
		stms = append(stms, &ir.Stm{Pat: []ir.Param{fs.Pat[0]}, E: &ir.IndexE{Arr: counts.Name, Idx: []ir.Atom{ir.V(ne.Index)}}})
		if slices.ContainsFunc(kept, func(k string) bool { return k != "" }) {
			stms = append(stms, &ir.Stm{Pat: []ir.Param{{Name: start, T: i64}}, E: &ir.IndexE{Arr: starts.Name, Idx: []ir.Atom{ir.V(ne.Index)}}})
		}
		for k, prm := range fs.Pat[1:] {
			if kept[k] == "" {
				continue
			}
			stms = append(stms, &ir.Stm{Pat: []ir.Param{prm}, E: &ir.SliceE{Arr: kept[k], Start: ir.V(start), Len: ir.V(fs.Pat[0].Name)}})
		}
	}
	ne.Map = &ir.Lambda{Params: e.Map.Params, Ret: e.Map.Ret, Body: &ir.Body{Stms: stms, Res: e.Map.Body.Res}}
	out = append(out, &ir.Stm{Pat: s.Pat, E: &ne, Where: s.Where})
	for _, st := range out {
		f.stm(st)
		for _, prm := range st.Pat {
			f.types[prm.Name] = prm.T
		}
	}
	return true
}

// segFilterOf returns the first filter of a map's body that segFilter
// flattens (of scalars, over a width known outside the map, where the
// rule says so), with the statements before it that it reads (which
// the flags' map computes again for each row): none of them a SOAC.
func (f *flattener) segFilterOf(e *ir.ScremaE) (*ir.Stm, *ir.FilterE, []*ir.Stm) {
	for at, st := range e.Map.Body.Stms {
		fe, ok := st.E.(*ir.FilterE)
		if !ok || fe.Partition || !fe.W.IsConst() || !segmentedPays(e.W, fe.W) || e.W.Val.AsInt64() == 0 {
			continue
		}
		scalars := true
		for _, t := range fe.Map.Ret {
			scalars = scalars && t.Rank() == 0
		}
		if !scalars {
			continue
		}
		need := map[string]bool{}
		ir.Uses(fe, func(x string) { need[x] = true })
		var pre []*ir.Stm
		soac := false
		for k := at - 1; k >= 0; k-- {
			b := e.Map.Body.Stms[k]
			bound := false
			for _, p := range b.Pat {
				bound = bound || need[p.Name]
			}
			if !bound {
				continue
			}
			soac = soac || hasSOAC(b.E)
			pre = append(pre, b)
			ir.Uses(b.E, func(x string) { need[x] = true })
			for _, p := range b.Pat {
				for _, d := range p.T.Shape {
					need[d.Name] = true
				}
			}
		}
		if soac {
			continue
		}
		slices.Reverse(pre)
		return st, fe, pre
	}
	return nil, nil, nil
}
