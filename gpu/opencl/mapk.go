package opencl

import (
	"maps"
	"slices"
	"strings"

	"fut/gpu/kernel"
)

// MapK is how many elements a work item of a map kernel computes where
// its body reads global memory, runs no loop and ends in its writes
// (mapKFits): the elements gtid, gtid + G, …, gtid + (K-1)·G, G the
// number of work items, so that each of the K reads of a work item is
// coalesced with its neighbours', and all K·reads are in flight before
// the first result is computed or written. FUT_MAP_K (1 to 8) sets it;
// 2 unless said. One H100, kernel ms, two rounds: saxpy of 2^27 f32, 1
// 0.584 / 0.584, 2 0.530 / 0.530, 4 0.537 / 0.537, 8 0.546 / 0.548;
// blackscholes of 2^25, 1 0.261 / 0.261, 2 0.255 / 0.255, 4 0.254 /
// 0.254.
var MapK = envInt("FUT_MAP_K", 1, 8, 2)

// mapKFits says whether body can be computed K times in one work item
// (genMapK): it reads global memory, has no loop (a loop's iterations
// vary between elements, and K of them in a row would serialise what
// separate work items overlap), and every write is a top-level
// statement after the last other one. It returns the index of the
// first of those writes.
func mapKFits(body []kernel.Stmt) (int, bool) {
	t := len(body)
	for t > 0 {
		if _, ok := body[t-1].(*kernel.Write); !ok {
			break
		}
		t--
	}
	if t == len(body) {
		return 0, false
	}
	bad := anyStmt(body[:t], func(s kernel.Stmt) bool {
		switch s.(type) {
		case *kernel.Loop, *kernel.Write:
			return true
		}
		return false
	})
	return t, !bad && readsMemory(body)
}

// genMapK emits a map kernel's body for K elements a work item (MapK):
// each element's index is clamped to the last one (computed anyway), so
// that no branch separates the K elements' reads; with the load barrier
// (LoadBarrier) the reads each element's body starts with are all
// issued first, then the rest of each body, whose written values and
// places are held until all K are computed, and then written where the
// element is one of the map's. Each element's variables get names of
// their own (the generator's names are reset to the kernel's
// parameters' for each).
func (g *gen) genMapK(p *Program, m *kernel.Map, dims []string, body []kernel.Stmt, tail int, K int) {
	p.MapK = K
	total := g.fresh("total")
	g.line("long %s = %s;", total, strings.Join(dims, " * "))
	// G as the runtime rounds the launch (launch.run, enqueueLocal):
	// not get_global_size or get_num_groups, which NVIDIA's PTX reads
	// from registers an OpenCL driver sets and a CUDA launch does not
	// (%envreg6; cl's patchPTX refuses them)
	g.line("long g0 = get_global_id(0), L = get_local_size(0), G = ((%s + %d) / %d + L - 1) / L * L;", total, K-1, K)
	base := maps.Clone(g.names)
	lead := 0
	if barrier := g.loadBarrier(); barrier == "asm" || barrier == "fence" {
		lead = leadingReads(body[:tail])
	}
	named := make([]map[string]string, K)
	in := make([]string, K)
	for q := range K {
		g.names = maps.Clone(base)
		in[q] = g.fresh("in")
		gt := g.fresh("gt")
		g.line("long %s = g0 + %d * G;", gt, q)
		g.line("bool %s = %s < %s;", in[q], gt, total)
		g.line("if (!%s) %s = %s - 1;", in[q], gt, total)
		g.splitIndex(m.Idx, dims, gt)
		g.stmts(body[:lead])
		named[q] = g.names
	}
	if lead > 0 {
		g.compilerBarrier()
	}
	type held struct {
		w         *kernel.Write
		ok, at, v string
	}
	var out []held
	for q := range K {
		g.names = named[q]
		g.stmts(body[lead:tail])
		for _, s := range body[tail:] {
			w := s.(*kernel.Write)
			v := g.exp(w.V)
			if w.V.Type() != w.Buf.T {
				g.fail("write of %v into %s of %v", w.V.Type(), w.Buf.Name, w.Buf.T)
			}
			ok, flat := g.index(w.Buf, w.Idx)
			g.flushPre()
			h := held{w: w, ok: g.fresh("wok"), at: g.fresh("wat"), v: g.fresh("wv")}
			g.line("bool %s = %s && (%s);", h.ok, in[q], ok)
			g.line("long %s = %s;", h.at, flat)
			g.line("%s %s = %s;", g.ctype(w.Buf.T), h.v, v)
			out = append(out, h)
		}
	}
	g.names = base
	for _, h := range out {
		g.line("if (%s) %s", h.ok, g.put(h.w.Buf.T, at(g.name(h.w.Buf.Name), h.at), h.v))
	}
}

// MapVec, when above 0 (FUT_MAP_VEC, 0 to 4; 1 unless said), is how
// many runs of 4 neighbouring elements a work item of a map kernel
// computes where the map is of one dimension, its body fits MapK's,
// and its buffers of 4-byte elements are read and written at the
// element's number alone (mapVecFits): each buffer is read and written
// 16 bytes at a time. One H100, kernel ms, two rounds in one lease:
// blackscholes of 2^25, 0 (MapK's two elements) 0.255 / 0.256, 1 0.228
// / 0.227, 2 0.232 / 0.232; saxpy of 2^27, 0 0.530 / 0.532, 1 0.532 /
// 0.533, 2 0.535 / 0.536.
var MapVec = envInt("FUT_MAP_VEC", 0, 4, 1)

// mapVecFits says whether map m, whose body's writes start at tail
// (mapKFits), can be computed 4 neighbouring elements at a time: one
// dimension; every write is of a 4-byte element at the element's
// number, which cannot be out of bounds (inBounds); reads is the
// buffers of 4-byte elements read at that number alone (vecReads),
// writes the buffers written.
func (g *gen) mapVecFits(m *kernel.Map, tail int) (reads, writes []*kernel.Param, ok bool) {
	if len(m.Idx) != 1 {
		return nil, nil, false
	}
	iv := m.Idx[0]
	var vals []kernel.Exp
	for _, s := range m.Body[tail:] {
		w := s.(*kernel.Write)
		if !atElem(w.Idx, iv) || w.Buf.T.Size() != 4 || w.Buf.T == kernel.Bool || w.V.Type() != w.Buf.T || slices.Contains(writes, w.Buf) ||
			!g.inBounds(w.Idx, w.Buf.Shape) {
			return nil, nil, false
		}
		writes = append(writes, w.Buf)
		vals = append(vals, w.V)
	}
	for _, b := range g.vecReads(iv, m.Body[:tail], vals) {
		if b.T.Size() == 4 {
			reads = append(reads, b)
		}
	}
	return reads, writes, true
}

// genMapVec emits a map kernel's body for K runs of 4 neighbouring
// elements a work item (MapVec): run q of work item g0 is vector g0 +
// q·G of every buffer (an index past the last vector clamped to it,
// computed and not written, as genMapK does), each buffer of reads
// read a vector a load, all of them before any element is computed,
// and each buffer of writes written a vector a store. Where the length
// is no multiple of 4 or a buffer is not 16-byte aligned, the work
// item computes its 4·K elements as genMapK does.
func (g *gen) genMapVec(p *Program, m *kernel.Map, dims []string, tail, K int, reads, writes []*kernel.Param) {
	const V = 4
	iv, body := m.Idx[0], m.Body
	g.line("if ((%s & 3) == 0 && %s) {", dims[0], g.aligned16(append(slices.Clone(reads), writes...)))
	g.indent++
	g.line("long g0 = get_global_id(0), L = get_local_size(0), G = ((%s + %d) / %d + L - 1) / L * L, nv = %s / %d;", dims[0], K*V-1, K*V, dims[0], V)
	base, saved := maps.Clone(g.names), g.tiles
	loaded := make([]map[*kernel.Param]string, K)
	in, vi := make([]string, K), make([]string, K)
	for q := range K {
		vi[q], in[q] = g.fresh("vi"), g.fresh("in")
		g.line("long %s = g0 + %d * G;", vi[q], q)
		g.line("bool %s = %s < nv;", in[q], vi[q])
		g.line("if (!%s) %s = nv - 1;", in[q], vi[q])
		loaded[q] = g.loadVecs(reads, V, vi[q])
	}
	g.compilerBarrier()
	vals := make([][][]string, K) // of run q, write w, element r
	for q := range K {
		vals[q] = make([][]string, len(writes))
		for r := range V {
			for w, b := range writes {
				h := g.fresh("wv")
				g.line("%s %s;", g.ctype(b.T), h)
				vals[q][w] = append(vals[q][w], h)
			}
			g.names = maps.Clone(base)
			g.tiles = g.vecHooks(saved, loaded[q], r, iv)
			g.line("{")
			g.indent++
			g.line("long %s = %d * %s + %d;", g.name(iv.Name), V, vi[q], r)
			g.stmts(body[:tail])
			for w, s := range body[tail:] {
				v := g.exp(s.(*kernel.Write).V)
				g.flushPre()
				g.line("%s = %s;", vals[q][w][r], v)
			}
			g.close()
		}
	}
	g.names, g.tiles = base, saved
	for q := range K {
		for w, b := range writes {
			t := btype(b.T)
			g.line("if (%s) ((__global %s%d *)%s)[%s] = (%s%d)(%s);", in[q], t, V, g.name(b.Name), vi[q], t, V, strings.Join(vals[q][w], ", "))
		}
	}
	g.indent--
	g.line("} else {")
	g.indent++
	g.genMapK(p, m, dims, body, tail, K*V)
	g.close()
}

// anyStmt says whether f holds of a statement of ss or of an If's
// branches within them.
func anyStmt(ss []kernel.Stmt, f func(kernel.Stmt) bool) bool {
	for _, s := range ss {
		if f(s) {
			return true
		}
		if i, ok := s.(*kernel.If); ok && (anyStmt(i.Then, f) || anyStmt(i.Else, f)) {
			return true
		}
	}
	return false
}

// readsMemory says whether the statements or the expressions read a
// buffer.
func readsMemory(body []kernel.Stmt, es ...kernel.Exp) bool {
	reads := false
	see := func(e kernel.Exp) {
		kernel.WalkExp(e, func(e kernel.Exp) {
			if _, ok := e.(kernel.Read); ok {
				reads = true
			}
		})
	}
	kernel.WalkStmts(body, see)
	for _, e := range es {
		see(e)
	}
	return reads
}

// leadingReads is how many statements body starts with that bind a
// read of a buffer.
func leadingReads(body []kernel.Stmt) int {
	k := 0
	for k < len(body) {
		l, ok := body[k].(*kernel.Let)
		if !ok {
			break
		}
		if _, ok := l.E.(kernel.Read); !ok {
			break
		}
		k++
	}
	return k
}
