package flatten

import (
	"fmt"

	"fut/gpu/kernel"
	"fut/interp/ir"
)

// A perfect nest is a chain of map-only Scremas, each lambda being scalar
// statements followed by the next Screma, whose results it returns, with
// sizes known at the top level. It becomes one kernel: a Map over all its
// dimensions, or, when the innermost Screma only reduces, a segmented
// Reduce with one segment per point of the outer dimensions.

// nestLevels returns the map-only levels of the nest that e starts, and
// the innermost reduction or scan (of scalars, from neutral elements
// known at the top level) when the nest ends in one. Other statements of
// the innermost body (a reduction of arrays, say) run sequentially in
// each point of the outer levels.
func (f *flattener) nestLevels(e *ir.ScremaE) (levels []*ir.ScremaE, red, scn *ir.ScremaE) {
	cur := e
	for len(cur.Scans) == 0 && len(cur.Reds) == 0 {
		levels = append(levels, cur)
		body := cur.Map.Body
		if len(body.Stms) == 0 {
			return levels, nil, nil
		}
		last := body.Stms[len(body.Stms)-1]
		inner, ok := last.E.(*ir.ScremaE)
		if !ok || !sameAtoms(body.Res, last.Pat) || !f.topSize(inner.W) {
			return levels, nil, nil
		}
		for _, st := range body.Stms[:len(body.Stms)-1] {
			for _, prm := range st.Pat {
				if _, isIndex := st.E.(*ir.IndexE); prm.T.Rank() > 0 && !isIndex {
					return levels, nil, nil
				}
			}
		}
		if len(inner.Scans) > 0 || len(inner.Reds) > 0 {
			switch {
			case !scalarRets(inner.Map):
			case len(inner.Scans) == 0 && arity(inner.Reds) == len(inner.Map.Ret) && f.topNeutrals(inner.Reds):
				return levels, inner, nil
			case len(inner.Reds) == 0 && arity(inner.Scans) == len(inner.Map.Ret) && f.topNeutrals(inner.Scans):
				return levels, nil, inner
			}
			return levels, nil, nil
		}
		cur = inner
	}
	return levels, nil, nil
}

// topNeutrals reports whether the operators' neutral elements are known
// at the top level (a segmented reduction needs them before its
// segments start).
func (f *flattener) topNeutrals(ops []*ir.SegOp) bool {
	for _, op := range ops {
		for _, ne := range op.Nes {
			if !ne.IsConst() {
				if t, ok := f.types[ne.Name]; !ok || t.Rank() > 0 {
					return false
				}
			}
		}
	}
	return true
}

func scalarRets(l *ir.Lambda) bool {
	for _, t := range l.Ret {
		if t.Rank() > 0 {
			return false
		}
	}
	return true
}

// topSize reports whether a size is known at the top level.
func (f *flattener) topSize(a ir.Atom) bool {
	if a.IsConst() {
		return true
	}
	t, ok := f.types[a.Name]
	return ok && t.Rank() == 0
}

func sameAtoms(res []ir.Atom, pat []ir.Param) bool {
	if len(res) != len(pat) {
		return false
	}
	for i, a := range res {
		if a.Name != pat[i].Name {
			return false
		}
	}
	return true
}

// nest makes one kernel of a perfect nest of depth two or more, or of a
// map over a reduction; it reports false when e starts no such nest.
func (f *flattener) nest(s *ir.Stm, e *ir.ScremaE) bool {
	levels, red, scn := f.nestLevels(e)
	if scn != nil {
		f.segScan(s, levels, scn)
		return true
	}
	if red == nil {
		if lv, r, post, res, ok := f.postNest(e); ok && f.tiledNest(s, lv, r, post, res) {
			return true
		}
	}
	if red == nil && len(levels) < 2 {
		return false
	}
	if red != nil && f.tiledNest(s, levels, red, nil, nil) {
		return true
	}
	shape := "map"
	if red != nil {
		shape = "segred"
	}
	b := f.newKernel(shape, s)
	dims := make([]kernel.Exp, len(levels))
	idx := make([]kernel.Var, len(levels))
	for l, lv := range levels {
		dims[l] = b.size(lv.W)
		idx[l] = b.fresh("i", kernel.I64)
	}
	var seg, i kernel.Var
	if red != nil {
		// recover the outer indices from the segment number
		seg, i = b.fresh("seg", kernel.I64), b.fresh("i", kernel.I64)
		var rest kernel.Exp = seg
		for l := len(levels) - 1; l >= 0; l-- {
			b.cur = append(b.cur, kernel.L(idx[l], kernel.Bin("%", rest, dims[l])))
			if l > 0 {
				q := b.fresh("q", kernel.I64)
				b.cur = append(b.cur, kernel.L(q, kernel.Bin("/", rest, dims[l])))
				rest = q
			}
		}
	}
	var tdims []ir.Atom
	for _, lv := range levels {
		tdims = append(tdims, lv.W)
	}
	if red != nil {
		b.threads(append(tdims, red.W), append(idx, i)...)
	} else {
		b.threads(tdims, idx...)
	}
	for l, lv := range levels {
		b.bindElem(lv.Arrs, lv.Index, lv.Map, idx[l])
		if l == len(levels)-1 && red == nil {
			break // the innermost body: translated with its results' destinations
		}
		stms := lv.Map.Body.Stms
		for _, st := range stms[:len(stms)-1] {
			b.stm(st)
		}
	}
	if red == nil {
		inner := levels[len(levels)-1].Map
		dsts := make([]*view, len(s.Pat))
		for k, prm := range s.Pat {
			v := b.outRow(prm, idx...)
			dsts[k] = &v
		}
		b.place(inner.Body, dsts)
		b.run(inner.Body)
		for k := range s.Pat {
			b.store(*dsts[k], inner.Body.Res[k], inner.Ret[k])
		}
		f.emit(b, &kernel.Map{Dims: dims, Idx: idx, Body: b.cur})
		return true
	}
	elems := b.element(red.Arrs, red.Index, red.Map, i)
	body := b.cur
	op, nes, comm := b.segops(red.Reds)
	var outs []*kernel.Param
	for _, prm := range s.Pat {
		outs = append(outs, b.output(prm, false))
	}
	segs := dims[0]
	for _, d := range dims[1:] {
		segs = kernel.Bin("*", segs, d)
	}
	f.emit(b, &kernel.Reduce{Segments: segs, N: b.size(red.W), Seg: seg, I: i, Body: body, Elems: elems, Op: op, Neutral: nes, Comm: comm, Out: outs})
	return true
}

// segScan makes a nest that ends in a scan one Scan kernel over all its
// elements with the operator lifted to segments: each element carries a
// flag that starts a segment (its inner index is 0), and
// (f, x) ⊕ (g, y) = (f || g, if g then y else x ⊕ y), whose neutral
// element is (false, ne). One segment per point of the outer levels.
func (f *flattener) segScan(s *ir.Stm, levels []*ir.ScremaE, scn *ir.ScremaE) {
	b := f.newKernel("segscan", s)
	dims := make([]kernel.Exp, len(levels))
	idx := make([]kernel.Var, len(levels))
	var tdims []ir.Atom
	for l, lv := range levels {
		dims[l] = b.size(lv.W)
		idx[l] = b.fresh("i", kernel.I64)
		tdims = append(tdims, lv.W)
	}
	m := b.size(scn.W)
	n := m
	for _, d := range dims {
		n = kernel.Bin("*", n, d)
	}
	t, j := b.fresh("t", kernel.I64), b.fresh("j", kernel.I64)
	b.cur = append(b.cur, kernel.L(j, kernel.Bin("%", t, m)))
	var rest kernel.Exp = kernel.Bin("/", t, m)
	for l := len(levels) - 1; l >= 0; l-- {
		b.cur = append(b.cur, kernel.L(idx[l], kernel.Bin("%", rest, dims[l])))
		if l > 0 {
			q := b.fresh("q", kernel.I64)
			b.cur = append(b.cur, kernel.L(q, kernel.Bin("/", rest, dims[l])))
			rest = q
		}
	}
	b.threads(append(tdims, scn.W), append(idx, j)...)
	for l, lv := range levels {
		b.bindElem(lv.Arrs, lv.Index, lv.Map, idx[l])
		stms := lv.Map.Body.Stms
		for _, st := range stms[:len(stms)-1] {
			b.stm(st)
		}
	}
	elems := b.element(scn.Arrs, scn.Index, scn.Map, j)
	start := b.fresh("start", kernel.Bool)
	b.cur = append(b.cur, kernel.L(start, kernel.Bin("==", j, kernel.I64C(0))))
	body := b.cur
	op, nes, _ := b.segops(scn.Scans)
	fx, fy := b.fresh("fx", kernel.Bool), b.fresh("fy", kernel.Bool)
	lifted := kernel.Lambda{X: append([]kernel.Var{fx}, op.X...), Y: append([]kernel.Var{fy}, op.Y...), Body: op.Body}
	lifted.Res = []kernel.Exp{kernel.Bin("||", fx, fy)}
	for k, r := range op.Res {
		lifted.Res = append(lifted.Res, kernel.Sel(fy, op.Y[k], r))
	}
	var tall []ir.Atom
	for _, lv := range levels {
		tall = append(tall, lv.W)
	}
	flags := b.addParam(kernel.Buf(fmt.Sprintf("s_flags_%d", b.n), kernel.Bool, n), Arg{Out: true, Scratch: true, Shape: append(tall, scn.W)})
	outs := []*kernel.Param{flags}
	for _, prm := range s.Pat {
		outs = append(outs, b.output(prm, false))
	}
	f.emit(b, &kernel.Scan{N: n, I: t, Body: body, Elems: append([]kernel.Exp{start}, elems...), Op: lifted, Neutral: append([]kernel.Exp{kernel.BoolC(false)}, nes...), Out: outs})
}

func toExps(vs []kernel.Var) []kernel.Exp {
	es := make([]kernel.Exp, len(vs))
	for i, v := range vs {
		es[i] = v
	}
	return es
}
