package flatten

import (
	"fmt"

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
// The rule (segHistPays), on the sizes of the call (plans are made for
// the call's sizes): flat when the rows are at least minParallelWidth
// wide and there are fewer than segHistRows of them. With many rows,
// one thread per row already fills the device and needs no atomic
// updates; with few wide rows (a histogram per image of a handful of
// images), a thread per row would leave the device nearly idle and run
// n steps in each, so every element gets its own thread instead.

// segHistRows is the number of rows from which a map over histograms
// runs one row per thread.
const segHistRows = 1 << 14

// segHistPays applies the rule above to a map of width m over rows of n
// elements; sizes not known as constants count as large.
func segHistPays(m, n ir.Atom) bool {
	if n.IsConst() && n.Val.AsInt64() < minParallelWidth {
		return false
	}
	return m.IsConst() && m.Val.AsInt64() < segHistRows
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
	return ok && len(st.Pat) == 1 && f.segHistable(st, h, hoisted) && segHistPays(e.W, h.W)
}

// segHist flattens the map s (of e) into one histogram kernel when its
// body is one histogram and the rule says so; it reports whether it did.
func (f *flattener) segHist(s *ir.Stm, e *ir.ScremaE) bool {
	hs, h := f.segHistOf(e, nil)
	if h == nil || !segHistPays(e.W, h.W) {
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
	name := opName(h.Op)
	if name == "*" || dt.Elem == value.F16 {
		name = "" // atomics for +, min and max only; f16 rounds each step
	}
	f.emit(b, &kernel.Hist{N: kernel.Bin("*", rows, width), I: t, Body: body, Dest: buf, Bin: bin, Val: res[1], Op: op, OpName: name, Neutral: nes[0]})
	return true
}
