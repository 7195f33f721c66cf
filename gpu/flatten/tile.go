package flatten

import (
	"fut/gpu/kernel"
	"fut/gpu/opencl"
	"fut/interp/ir"
)

// Tiling (Henriksen's thesis, on locality of reference). A map over one or
// two dimensions whose body folds K elements, as in a matrix product
// (map (\a -> map (\b -> reduce (+) 0 (map2 (*) a b)) bts) as) or all-pairs
// interactions (map (\p -> reduce f ne (map (g p) ps)) ps), reads the same
// rows and columns from many points. As a segmented reduction each point
// reads them from global memory; as a Tiled kernel a work-group stages
// them through local memory, a block at a time, and each thread folds its
// points' elements in order (so the result is the sequential fold's, not a
// reassociated one).
//
// The rule, on sizes known when the plan is made (constants; otherwise
// the segmented reduction stays): two dimensions of at least
// opencl.TileBlock points each and K of at least opencl.TileK, with a
// buffer read by a point's row or column and T; or one dimension of at
// least tileMinPoints points and K of at least opencl.TileGroup, with a
// buffer read by T alone (each thread then folds all of K: the GPU must
// have enough points to be busy). Buffers of f16 (emulated on some
// devices) and bool are not tiled.
const tileMinPoints = 4096

// tiledNest makes a Tiled kernel of a nest of one or two map levels over a
// reduction, when the rule above holds; it reports false otherwise (the
// caller then makes the segmented reduction).
func (f *flattener) tiledNest(s *ir.Stm, levels []*ir.ScremaE, red *ir.ScremaE, post []*ir.Stm, res []ir.Atom) (ok bool) {
	if f.noTiling || len(levels) > 2 || !red.W.IsConst() {
		return false
	}
	sizes := make([]int64, len(levels))
	for l, lv := range levels {
		if !lv.W.IsConst() {
			return false
		}
		sizes[l] = lv.W.Val.AsInt64()
	}
	k := red.W.Val.AsInt64()
	if len(levels) == 2 && (sizes[0] < opencl.TileBlock || sizes[1] < opencl.TileBlock || k < opencl.TileK) ||
		len(levels) == 1 && (sizes[0] < tileMinPoints || k < opencl.TileGroup) {
		return false
	}
	defer func() {
		if r := recover(); r != nil {
			if _, isNF := r.(*NotFlattened); !isNF {
				panic(r)
			}
			ok = false // the segmented reduction, or its reason
		}
	}()
	b := f.newKernel("tiled", s)
	b.viewTransposes = true
	dims := make([]kernel.Exp, len(levels))
	idx := make([]kernel.Var, len(levels))
	var tdims []ir.Atom
	for l, lv := range levels {
		dims[l] = b.size(lv.W)
		idx[l] = b.fresh("i", kernel.I64)
		tdims = append(tdims, lv.W)
	}
	t := b.fresh("t", kernel.I64)
	b.threads(append(tdims, red.W), append(idx, t)...)
	for l, lv := range levels {
		b.bindElem(lv.Arrs, lv.Index, lv.Map, idx[l])
		stms := lv.Map.Body.Stms
		end := len(stms) - 1
		if l == len(levels)-1 {
			end -= len(post)
		}
		for _, st := range stms[:end] {
			b.stm(st)
		}
	}
	elems := b.element(red.Arrs, red.Index, red.Map, t)
	body := b.cur
	op, nes, _ := b.segops(red.Reds)
	kexp := b.size(red.W)
	var postIn []kernel.Var
	var postBody []kernel.Stmt
	var postRes []kernel.Exp
	if res != nil {
		// the statements after the reduction, from its results
		inner := levels[len(levels)-1].Map.Body.Stms
		redStm := inner[len(inner)-1-len(post)]
		b.cur = nil
		for _, prm := range redStm.Pat {
			v := b.fresh(prm.Name, ktype(prm.T.Elem))
			postIn = append(postIn, v)
			b.env[prm.Name] = v
		}
		for _, st := range post {
			b.stm(st)
		}
		for _, a := range res {
			postRes = append(postRes, b.atom(a))
		}
		postBody = b.cur
	}
	tiles := tileable(body, elems, dims, idx, kexp, t)
	if len(tiles) == 0 {
		return false
	}
	var outs []*kernel.Param
	for _, prm := range s.Pat {
		outs = append(outs, b.output(prm, false))
	}
	f.emit(b, &kernel.Tiled{Dims: dims, Idx: idx, K: kexp, T: t, Body: body, Elems: elems, Op: op, Neutral: nes, Out: outs, Tiles: tiles,
		PostIn: postIn, Post: postBody, PostRes: postRes})
	return true
}

// postNest finds a nest of one or two map levels whose innermost body
// ends in a reduction of scalars followed by scalar statements on its
// results (a square root of a sum of squares, a scaled sum): the levels,
// the reduction, those statements and the body's results.
func (f *flattener) postNest(e *ir.ScremaE) (levels []*ir.ScremaE, red *ir.ScremaE, post []*ir.Stm, res []ir.Atom, ok bool) {
	cur := e
	for len(levels) < 2 {
		if len(cur.Scans) > 0 || len(cur.Reds) > 0 {
			return nil, nil, nil, nil, false
		}
		levels = append(levels, cur)
		body := cur.Map.Body
		at := -1
		for i, st := range body.Stms {
			if _, isScrema := st.E.(*ir.ScremaE); isScrema {
				at = i
			}
		}
		if at < 0 || !f.topSize(body.Stms[at].E.(*ir.ScremaE).W) {
			return nil, nil, nil, nil, false
		}
		inner := body.Stms[at].E.(*ir.ScremaE)
		for _, st := range body.Stms[:at] {
			for _, prm := range st.Pat {
				if _, isIndex := st.E.(*ir.IndexE); prm.T.Rank() > 0 && !isIndex {
					return nil, nil, nil, nil, false
				}
			}
		}
		if at == len(body.Stms)-1 && sameAtoms(body.Res, body.Stms[at].Pat) && len(inner.Reds) == 0 && len(inner.Scans) == 0 {
			cur = inner // a map level
			continue
		}
		if len(inner.Scans) > 0 || len(inner.Reds) == 0 || !scalarRets(inner.Map) || arity(inner.Reds) != len(inner.Map.Ret) || !f.topNeutrals(inner.Reds) {
			return nil, nil, nil, nil, false
		}
		post = body.Stms[at+1:]
		if len(post) == 0 {
			return nil, nil, nil, nil, false // a plain nest: nestLevels has it
		}
		for _, st := range post {
			switch st.E.(type) {
			case *ir.BinOpE, *ir.UnOpE, *ir.ConvE, *ir.AtomE:
			default:
				return nil, nil, nil, nil, false
			}
			for _, prm := range st.Pat {
				if prm.T.Rank() > 0 {
					return nil, nil, nil, nil, false
				}
			}
		}
		if !scalarRets(cur.Map) {
			return nil, nil, nil, nil, false
		}
		return levels, inner, post, body.Res, true
	}
	return nil, nil, nil, nil, false
}

// tileable lists the buffers read in body and elems in a tiled form
// (buf[t] of a buffer of K elements; with two dimensions also
// buf[idx[d], t] or buf[t, idx[d]] of a buffer of Dims[d] by K or K by
// Dims[d]), one form per buffer, in the order of their first reads (their
// reads of other forms stay reads of global memory); with two dimensions,
// none unless one is indexed by a point (only those are shared by rows or
// columns of the block).
func tileable(body []kernel.Stmt, elems []kernel.Exp, dims []kernel.Exp, idx []kernel.Var, k kernel.Exp, t kernel.Var) []*kernel.Param {
	type role struct {
		dim   int
		kLast bool
	}
	var order []*kernel.Param
	roles := map[*kernel.Param]role{}
	good := map[*kernel.Param]bool{}
	same := func(a, b kernel.Exp) bool { return kernel.ExpString(a) == kernel.ExpString(b) }
	visit := func(e kernel.Exp) {
		kernel.WalkExp(e, func(x kernel.Exp) {
			r, ok := x.(kernel.Read)
			if !ok {
				return
			}
			dim, kLast, ok := kernel.TileForm(r, idx, t)
			if !ok {
				return // a read from global memory
			}
			if len(dims) == 1 && dim >= 0 {
				return // a thread's own: nothing to share
			}
			want := []kernel.Exp{k}
			switch {
			case dim >= 0 && kLast:
				want = []kernel.Exp{dims[dim], k}
			case dim >= 0:
				want = []kernel.Exp{k, dims[dim]}
			}
			fits := len(r.Buf.Shape) == len(want) && r.Buf.T != kernel.F16 && r.Buf.T != kernel.Bool
			for i := range want {
				fits = fits && same(r.Buf.Shape[i], want[i])
			}
			old, seen := roles[r.Buf]
			if !seen {
				order = append(order, r.Buf)
				roles[r.Buf] = role{dim, kLast}
				good[r.Buf] = fits
			} else if old != (role{dim, kLast}) || !fits {
				good[r.Buf] = false
			}
		})
	}
	kernel.WalkStmts(body, visit)
	for _, e := range elems {
		visit(e)
	}
	var out []*kernel.Param
	shared := false
	for _, p := range order {
		if good[p] {
			out = append(out, p)
			shared = shared || roles[p].dim >= 0
		}
	}
	if len(dims) == 2 && !shared {
		return nil
	}
	return out
}
