package opencl

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"fut/gpu/kernel"
)

// Reductions and scans work on tuples of components; acc<k> is the local
// memory array of component k.

func componentTypes(es []kernel.Exp) []kernel.Type {
	ts := make([]kernel.Type, len(es))
	for i, e := range es {
		ts[i] = e.Type()
	}
	return ts
}

// declare emits locals of the component types initialised from exprs.
func (g *gen) declare(prefix string, ts []kernel.Type, init []kernel.Exp) []string {
	vals := make([]string, len(init))
	for i, e := range init {
		vals[i] = g.exp(e)
	}
	g.flushPre()
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = g.fresh(prefix)
		g.line("%s %s = %s;", g.ctype(t), names[i], vals[i])
	}
	return names
}

// declareFrom emits locals initialised from C expressions.
func (g *gen) declareFrom(prefix string, ts []kernel.Type, vals []string) []string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = g.fresh(prefix)
		g.line("%s %s = %s;", g.ctype(t), names[i], vals[i])
	}
	return names
}

// applyOp emits dst = xs ⊕ ys in a block (dst may alias xs or ys).
func (g *gen) applyOp(op kernel.Lambda, dst, xs, ys []string) {
	if len(op.X) != len(dst) || len(op.Y) != len(dst) || len(op.Res) != len(dst) {
		g.fail("operator with %d/%d parameters and %d results on %d components", len(op.X), len(op.Y), len(op.Res), len(dst))
		return
	}
	g.line("{")
	g.indent++
	for i, x := range op.X {
		g.line("%s %s = %s;", g.ctype(x.T), g.name(x.Name), xs[i])
	}
	for i, y := range op.Y {
		g.line("%s %s = %s;", g.ctype(y.T), g.name(y.Name), ys[i])
	}
	g.stmts(op.Body)
	res := make([]string, len(op.Res))
	for i, r := range op.Res {
		res[i] = g.exp(r)
	}
	g.flushPre()
	for i := range dst {
		g.line("%s = %s;", dst[i], res[i])
	}
	g.indent--
	g.line("}")
}

// element emits the body for index var iv = j and returns the elements,
// inside an open block (the caller closes it with g.close()).
func (g *gen) element(iv kernel.Var, j string, body []kernel.Stmt, elems []kernel.Exp) []string {
	g.line("{")
	g.indent++
	g.line("long %s = %s;", g.name(iv.Name), j)
	g.stmts(body)
	return g.declare("e", componentTypes(elems), elems)
}

func (g *gen) close() {
	g.indent--
	g.line("}")
}

func idx(names []string, i string) []ref {
	out := make([]ref, len(names))
	for k, n := range names {
		out[k] = at(n, i)
	}
	return out
}

func (g *gen) loads(ts []kernel.Type, rs []ref) []string {
	out := make([]string, len(rs))
	for k, r := range rs {
		out[k] = g.load(ts[k], r)
	}
	return out
}

func (g *gen) stores(ts []kernel.Type, dst []ref, vals []string) {
	for k := range dst {
		g.line("%s", g.put(ts[k], dst[k], vals[k]))
	}
}

// extras declares part<k>, local<k> and groups.
func extras(ts []kernel.Type) (names []string, decls []string) {
	for k, t := range ts {
		names = append(names, fmt.Sprintf("part%d", k))
		decls = append(decls, fmt.Sprintf("__global %s *part%d", btype(t), k))
	}
	for k, t := range ts {
		names = append(names, fmt.Sprintf("local%d", k))
		decls = append(decls, fmt.Sprintf("__local %s *acc%d", btype(t), k))
	}
	names = append(names, "groups")
	decls = append(decls, "long groups")
	return
}

func names(prefix string, n int) []string {
	out := make([]string, n)
	for k := range out {
		out[k] = fmt.Sprintf("%s%d", prefix, k)
	}
	return out
}

// accumulate emits the per-thread sequential reduction of positions
// [start, end) into x, strided when comm (coalesced), else contiguous;
// a strided one reads u elements an iteration (unrollFor).
func (g *gen) accumulate(op kernel.Lambda, comm bool, x []string, start, end string, u int, elem func(j string) []string) {
	red32 := false
	if comm && u > 1 && len(op.X) == len(x) {
		// u elements an iteration, each computed in a block of its own
		// before they are combined in the order of the plain loop (j,
		// j+L, …): their reads are in flight at once
		g.line("long j = %s + lid;", start)
		g.line("for (; j + %d * L < %s; j += %d * L) {", u-1, end, u)
		g.indent++
		g.unrolled(op, x, u, "j", elem)
		g.indent--
		g.line("}")
		g.line("for (; j < %s; j += L) {", end)
	} else if comm {
		if red32 = Red32; red32 {
			// a 32-bit loop where the positions fit one, else the
			// 64-bit one below
			g.line("if (%s <= 2147483647L - L) {", end)
			g.indent++
			g.line("for (int j32 = (int)(%s + lid); j32 < (int)(%s); j32 += (int)L) {", start, end)
			g.indent++
			g.line("long j = j32;")
			g.applyOp(op, x, x, elem("j"))
			g.close()
			g.close()
			g.indent--
			g.line("} else {")
			g.indent++
		}
		g.line("for (long j = %s + lid; j < %s; j += L) {", start, end)
	} else {
		g.line("long per = (%s - %s + L - 1) / L;", end, start)
		g.line("long js = %s + lid * per, je = min(js + per, %s);", start, end)
		g.line("for (long j = js; j < je; j++) {")
	}
	g.indent++
	es := elem("j") // opens a block
	g.applyOp(op, x, x, es)
	g.close()
	g.indent--
	g.line("}")
	if red32 {
		g.close()
	}
}

// Red32 makes the strided loop of a commutative reduction that reads
// one element an iteration count in 32 bits where its positions fit
// (below 2^31 − L), the element's number widened from the count;
// FUT_RED32=0 turns it off, to compare. One H100, examples/bench/
// logsum.fut (2^30 logarithms), kernel ms, two rounds in one lease:
// 1.147 / 1.151 without, 1.112 / 1.110 with.
var Red32 = os.Getenv("FUT_RED32") != "0"

// RedLayout is how the elements of a commutative reduction whose
// elements are read u at a time (unrollFor) are shared among the
// groups of a segment: 0 a contiguous chunk each; 1 (unless
// FUT_RED_LAYOUT says) interleaved in blocks of u·L elements, group gs
// taking blocks gs, gs + groups, …, so that at any time the groups read
// one window of memory, with 8 groups a compute unit where chunks take
// 32 (Program.Interleaved). One H200, dotprod of 2^27 f32, kernel ms
// (two rounds): chunks 0.257 / 0.257 (with 8 groups a compute unit
// 0.355 / 0.356); interleaved 0.252 / 0.255, with 8 groups a compute
// unit 0.250 / 0.248, 16 0.252 / 0.251; with 8 groups, u = 16 0.254 /
// 0.261, u = 4 0.254 / 0.254.
var RedLayout = envInt("FUT_RED_LAYOUT", 0, 1, 1)

// interleave emits the per-thread reduction of RedLayout 1 over the
// segment's n elements into x: blocks of u·L elements, each read u at a
// time (coalesced, all in flight before they are combined, in the order
// of a plain loop). The element number is iv in body; the buffers of
// vec (vecReads), when RedVec and u is a multiple of the V elements of
// 16 bytes, are read V elements a load in whole blocks whose buffers
// are aligned so, and then, with RedTail, the rounds in which every
// group takes a whole block come first, and the elements after them
// are shared out one a work item among all the groups' work items;
// otherwise the last, partial block is read one element at a time by
// the groups whose turn it is.
func (g *gen) interleave(op kernel.Lambda, x []string, n string, u int, elem func(j string) []string, vec []*kernel.Param, iv kernel.Var) {
	V := 0
	if len(vec) > 0 && RedVec && u%(16/vec[0].T.Size()) == 0 {
		V = 16 / vec[0].T.Size()
	}
	g.line("long blk = %d * L, step = groups * blk;", u)
	if V > 0 {
		g.line("bool aligned = %s;", g.aligned16(vec))
	}
	// a whole block at b0
	whole := func() {
		if V == 0 {
			g.unrolled(op, x, u, "b0 + lid", elem)
			return
		}
		g.line("if (aligned) {")
		g.indent++
		g.unrolledVec(op, x, u, V, elem, vec, iv)
		g.indent--
		g.line("} else {")
		g.indent++
		g.unrolled(op, x, u, "b0 + lid", elem)
		g.close()
	}
	if RedTail && V > 0 {
		g.line("long full = %s / step * step;", n)
		g.line("for (long b0 = gs * blk; b0 < full; b0 += step) {")
		g.indent++
		whole()
		g.close()
		g.line("for (long j = full + gs * L + lid; j < %s; j += groups * L) {", n)
		g.indent++
		g.applyOp(op, x, x, elem("j"))
		g.close()
		g.close()
		return
	}
	g.line("for (long b0 = gs * blk; b0 < %s; b0 += step) {", n)
	g.indent++
	g.line("if (b0 + blk <= %s) {", n)
	g.indent++
	whole()
	g.indent--
	g.line("} else {")
	g.indent++
	g.line("for (long j = b0 + lid; j < %s; j += L) {", n)
	g.indent++
	es := elem("j")
	g.applyOp(op, x, x, es)
	g.close()
	g.indent--
	g.line("}")
	g.indent--
	g.line("}")
	g.indent--
	g.line("}")
}

// RedVec reads the buffers that a commutative reduction's elements
// read at their own number alone 16 bytes a load (vecReads), 16
// elements an iteration where they are one or two (the unroll of
// unrollFor, 8, doubled); RedTail then shares the elements after the
// last whole round of blocks among all the work items (interleave).
// FUT_RED_VEC=0 and FUT_RED_TAIL=0 turn them off. One H100, dotprod of
// 2^27 f32, kernel ms, two rounds in one lease: neither 0.370 / 0.368;
// vectors, 8 elements 0.362 / 0.360, 16 0.359 / 0.359; both and 16
// 0.357 / 0.357; in another lease the tail alone, 8 elements, 0.376 /
// 0.375 against 0.368 / 0.368 without (so it goes with vectors only).
var (
	RedVec  = os.Getenv("FUT_RED_VEC") != "0"
	RedTail = os.Getenv("FUT_RED_TAIL") != "0"
)

// vecReads are the buffers of 4- or 8-byte elements (all of the size of
// the first such) that body and elems read only at the element number
// iv, one index, where that index cannot be out of bounds (inBounds:
// their length is the elements'), so that a vector of them needs no
// check.
func (g *gen) vecReads(iv kernel.Var, body []kernel.Stmt, elems []kernel.Exp) []*kernel.Param {
	ok := map[*kernel.Param]bool{}
	var order []*kernel.Param
	see := func(e kernel.Exp) {
		kernel.WalkExp(e, func(e kernel.Exp) {
			r, isRead := e.(kernel.Read)
			if !isRead {
				return
			}
			good := atElem(r.Idx, iv) && (r.Buf.T.Size() == 4 || r.Buf.T.Size() == 8) && r.Buf.T != kernel.Bool &&
				g.inBounds(r.Idx, r.Buf.Shape)
			if prev, seen := ok[r.Buf]; seen {
				ok[r.Buf] = prev && good
				return
			}
			ok[r.Buf] = good
			order = append(order, r.Buf)
		})
	}
	kernel.WalkStmts(body, see)
	for _, e := range elems {
		see(e)
	}
	var out []*kernel.Param
	for _, p := range order {
		if ok[p] && (len(out) == 0 || p.T.Size() == out[0].T.Size()) {
			out = append(out, p)
		}
	}
	return out
}

// atElem says whether idx is the element number iv alone.
func atElem(idx []kernel.Exp, iv kernel.Var) bool {
	if len(idx) != 1 {
		return false
	}
	v, ok := idx[0].(kernel.Var)
	return ok && v.Name == iv.Name
}

// aligned16 is the C condition that every buffer of bufs is 16-byte
// aligned.
func (g *gen) aligned16(bufs []*kernel.Param) string {
	var al []string
	for _, b := range bufs {
		al = append(al, "(ulong)"+g.name(b.Name))
	}
	return fmt.Sprintf("((%s) & 15) == 0", strings.Join(al, " | "))
}

// loadVecs emits a load of vector vi (a C expression) of V elements
// from each buffer of bufs and returns the variables they are in.
func (g *gen) loadVecs(bufs []*kernel.Param, V int, vi string) map[*kernel.Param]string {
	loaded := map[*kernel.Param]string{}
	for _, b := range bufs {
		v := g.fresh("v")
		g.line("%s%d %s = ((__global %s%d *)%s)[%s];", btype(b.T), V, v, btype(b.T), V, g.name(b.Name), vi)
		loaded[b] = v
	}
	return loaded
}

// vecElems emits V elements, those of numbers V·vi … V·vi + V − 1 (vi
// a C expression, the vector's index), computed by body from one load
// of V elements from each buffer of vec (vecReads, aligned) and given
// to use one at a time, in order.
func (g *gen) vecElems(iv kernel.Var, body []kernel.Stmt, elems []kernel.Exp, vec []*kernel.Param, V int, vi string, use func(r int, e string)) {
	loaded := g.loadVecs(vec, V, vi)
	saved := g.tiles
	defer func() { g.tiles = saved }()
	for r := 0; r < V; r++ {
		g.tiles = g.vecHooks(saved, loaded, r, iv)
		es := g.element(iv, fmt.Sprintf("%d * (%s) + %d", V, vi, r), body, elems)
		use(r, es[0])
		g.close()
	}
}

// vecHooks are the read hooks (gen.tiles) that give component r of the
// vectors loaded where a buffer of loaded is read at iv, beside those
// of saved.
func (g *gen) vecHooks(saved map[*kernel.Param]func(kernel.Read) (string, bool), loaded map[*kernel.Param]string, r int, iv kernel.Var) map[*kernel.Param]func(kernel.Read) (string, bool) {
	hooks := maps.Clone(saved)
	if hooks == nil {
		hooks = map[*kernel.Param]func(kernel.Read) (string, bool){}
	}
	for p, v := range loaded {
		comp := fmt.Sprintf("%s.s%d", v, r)
		hooks[p] = func(rd kernel.Read) (string, bool) {
			return comp, atElem(rd.Idx, iv)
		}
	}
	return hooks
}

// unrolledVec is unrolled for the block at b0, each work item taking
// u/V runs of V neighbouring elements: run q of work item lid starts at
// b0 + q·V·L + V·lid, and each buffer of vec is read a run a load (the
// buffers are 16-byte aligned, as checked).
func (g *gen) unrolledVec(op kernel.Lambda, x []string, u, V int, elem func(j string) []string, vec []*kernel.Param, iv kernel.Var) {
	runs := make([]map[*kernel.Param]string, u/V)
	for q := range runs {
		runs[q] = g.loadVecs(vec, V, fmt.Sprintf("b0 / %d + %d * L + lid", V, q))
	}
	g.compilerBarrier()
	saved := g.tiles
	defer func() { g.tiles = saved }()
	held := make([][]string, u)
	for q := range held {
		run, r := q/V, q%V
		g.tiles = g.vecHooks(saved, runs[run], r, iv)
		for _, p := range op.X {
			h := g.fresh("u")
			g.line("%s %s;", g.ctype(p.T), h)
			held[q] = append(held[q], h)
		}
		es := elem(fmt.Sprintf("b0 + %d * L + %d * lid + %d", run*V, V, r))
		for k := range es {
			g.line("%s = %s;", held[q][k], es[k])
		}
		g.close()
	}
	for q := range held {
		g.applyOp(op, x, x, held[q])
	}
}

// unrolled emits the combination into x of the u elements j, j + L,
// …, j + (u-1)·L (j a C expression), each computed in a block of its
// own before any is combined, in that order: their reads are in flight
// at once.
func (g *gen) unrolled(op kernel.Lambda, x []string, u int, j string, elem func(j string) []string) {
	held := make([][]string, u)
	for q := range held {
		for _, p := range op.X {
			h := g.fresh("u")
			g.line("%s %s;", g.ctype(p.T), h)
			held[q] = append(held[q], h)
		}
		es := elem(fmt.Sprintf("%s + %d * L", j, q))
		for k := range es {
			g.line("%s = %s;", held[q][k], es[k])
		}
		g.close()
	}
	for q := range held {
		g.applyOp(op, x, x, held[q])
	}
}

// RedUnroll, when set (FUT_RED_UNROLL, 1 to 16), is how many elements
// a work item of every commutative reduction reads an iteration before
// it combines them; 0 leaves the choice to unrollFor.
var RedUnroll = envInt("FUT_RED_UNROLL", 1, 16, 0)

// unrollFor is how many elements a work item reads an iteration in a
// commutative reduction of the element body: RedUnroll where set; else
// 8 where the body reads global memory and runs no loop, so that the
// reads of 8 elements are in flight at once (a dot product of 2^27 f32
// went from 0.376 to 0.364 ms on an H100), and 1 where it reads nothing
// (logsum, whose body is arithmetic, got 4% slower at 4).
func unrollFor(body []kernel.Stmt, elems []kernel.Exp) int {
	if RedUnroll > 0 {
		return RedUnroll
	}
	loops := anyStmt(body, func(s kernel.Stmt) bool { _, ok := s.(*kernel.Loop); return ok })
	if readsMemory(body, elems...) && !loops {
		return 8
	}
	return 1
}

// tree reduces acc<k>[0..L) into acc<k>[0]; order-preserving unless comm.
func (g *gen) tree(op kernel.Lambda, ts []kernel.Type, comm bool) {
	acc := names("acc", len(ts))
	if comm {
		g.line("for (long s = L / 2; s > 0; s >>= 1) {")
		g.line("  if (lid < s) {")
	} else {
		g.line("for (long s = 1; s < L; s <<= 1) {")
		g.line("  if ((lid & (2 * s - 1)) == 0 && lid + s < L) {")
	}
	g.indent += 2
	a := g.declareFrom("a", ts, g.loads(ts, idx(acc, "lid")))
	b := g.declareFrom("b", ts, g.loads(ts, idx(acc, "lid + s")))
	g.applyOp(op, a, a, b)
	g.stores(ts, idx(acc, "lid"), a)
	g.indent -= 2
	g.line("  }")
	g.line("  barrier(CLK_LOCAL_MEM_FENCE);")
	g.line("}")
}

// scanLocal makes acc<k>[0..L) its inclusive scan (Hillis–Steele).
func (g *gen) scanLocal(op kernel.Lambda, ts []kernel.Type) {
	acc := names("acc", len(ts))
	g.line("for (long s = 1; s < L; s <<= 1) {")
	g.indent++
	a := g.declareFrom("a", ts, g.loads(ts, idx(acc, "lid")))
	g.line("if (lid >= s) {")
	g.indent++
	b := g.declareFrom("b", ts, g.loads(ts, idx(acc, "lid - s")))
	g.applyOp(op, a, b, a)
	g.indent--
	g.line("}")
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.line("if (lid >= s) {")
	g.indent++
	g.stores(ts, idx(acc, "lid"), a)
	g.indent--
	g.line("}")
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.indent--
	g.line("}")
}

func (g *gen) groupVars() {
	g.line("long lid = get_local_id(0), L = get_local_size(0), grp = get_group_id(0);")
}

func (g *gen) checkOp(op kernel.Lambda, elems, neutral []kernel.Exp, out []*kernel.Param) []kernel.Type {
	ts := componentTypes(elems)
	if len(neutral) != len(ts) || len(op.X) != len(ts) || len(op.Y) != len(ts) || len(op.Res) != len(ts) {
		g.fail("operator, neutral element and elements disagree on the number of components")
		return ts
	}
	for k, t := range ts {
		g.checkType(t)
		if neutral[k].Type() != t || op.X[k].T != t || op.Y[k].T != t || op.Res[k].Type() != t {
			g.fail("component %d: types of operator, neutral element and elements differ", k)
		}
		if out != nil && (k >= len(out) || out[k].T != t || !out[k].Buffer) {
			g.fail("component %d: no output buffer of %v", k, t)
		}
	}
	if out != nil && len(out) != len(ts) {
		g.fail("%d outputs for %d components", len(out), len(ts))
	}
	return ts
}

// RedOnePass lets a reduction of one segment finish in its first
// kernel: each group, its partial result written, takes a ticket from
// the device's look-back counter, and the group that takes the last one
// reduces the partial results, where the second kernel ("_red2") did it
// in a launch of its own (FUT_RED_ONEPASS=0: two kernels, to compare).
// One H100: a call of examples/bench/dotprod.fut on 4096 elements
// (BenchmarkCallHost) took 16.7 / 18.2 µs against 20.4 / 21.1 with two
// kernels; on 2^27, the wall stayed 0.365-0.371 ms either way, and
// logsum's 1.065-1.076.
var RedOnePass = os.Getenv("FUT_RED_ONEPASS") != "0"

func (g *gen) genReduce(p *Program, r *kernel.Reduce) {
	// the element index lies in [0, r.N) wherever the body runs
	g.below = map[string]string{r.I.Name: kernel.ExpString(r.N)}
	ts := g.checkOp(r.Op, r.Elems, r.Neutral, r.Out)
	if g.err != nil {
		return
	}
	ex, decls := extras(ts)
	part, acc := names("part", len(ts)), names("acc", len(ts))

	// Stage 1: groups per segment reduce contiguous chunks into part.
	// With single (a launch of one segment, RedOnePass), the group that
	// takes the last of the launch's tickets (counter, from cbase on)
	// then does stage 2 itself.
	g.header(p, "_red1", append(slices.Clone(ex), "counter", "cbase", "single"),
		append(slices.Clone(decls), "__global uint *counter", "uint cbase", "long single"))
	g.groupVars()
	g.line("long seg = grp / groups, gs = grp %% groups;")
	if r.Seg.Name != "" {
		g.line("long %s = seg;", g.name(r.Seg.Name))
	}
	n := g.long("n", r.N)
	g.line("long chunk = (%s + groups - 1) / groups;", n)
	g.line("long start = gs * chunk, end = min(start + chunk, %s);", n)
	x := g.declare("x", ts, r.Neutral)
	u := unrollFor(r.Body, r.Elems)
	elem := func(j string) []string { return g.element(r.I, j, r.Body, r.Elems) }
	if RedLayout == 1 && r.Comm && u > 1 {
		p.Interleaved = true
		vec := g.vecReads(r.I, r.Body, r.Elems)
		if RedVec && RedUnroll == 0 && u == 8 && len(vec) > 0 && len(vec) <= 2 {
			u = 16
		}
		g.interleave(r.Op, x, n, u, elem, vec, r.I)
	} else {
		g.accumulate(r.Op, r.Comm, x, "start", "end", u, elem)
	}
	g.stores(ts, idx(acc, "lid"), x)
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.tree(r.Op, ts, r.Comm)
	g.line("__local uint rs_last;")
	g.line("if (lid == 0) {")
	for k, t := range ts {
		g.line("  %s", g.copyElem(t, at(part[k], "grp"), at(acc[k], "0")))
	}
	// the partial result is seen by any group that sees the ticket taken
	g.line("  uint last = 0;")
	g.line("  if (single) {")
	g.line("    mem_fence(CLK_GLOBAL_MEM_FENCE);")
	g.line("    last = atomic_inc(counter) - cbase == (uint)(groups - 1);")
	g.line("    mem_fence(CLK_GLOBAL_MEM_FENCE);")
	g.line("  }")
	g.line("  rs_last = last;")
	g.line("}")
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	// every other group has written its partial result; they are read
	// through volatile pointers, past any cache of this compute unit.
	// On NVIDIA the last group alone runs stage 2; elsewhere every group
	// runs it over no partial results, as PoCL mishandles barriers in a
	// branch even where the whole group takes it
	vpart := part
	if !g.emuAny(ts) {
		vpart = names("vpart", len(ts))
		for k, t := range ts {
			g.line("volatile __global %s *%s = %s;", btype(t), vpart[k], part[k])
		}
	}
	if g.caps.WarpVote {
		g.line("if (rs_last) {")
		g.indent++
		g.finalReduce(r, ts, vpart, "groups", "0", "0", "")
		g.close()
	} else {
		g.line("{") // stage 1's names out of scope
		g.indent++
		g.finalReduce(r, ts, vpart, "(rs_last ? groups : 0)", "0", "0", "rs_last && ")
		g.close()
	}
	g.end()

	// Stage 2: one group per segment reduces its groups' partial results.
	g.header(p, "_red2", ex, decls)
	g.groupVars()
	g.finalReduce(r, ts, part, "groups", "grp * groups", "grp", "")
	g.end()
}

// emuAny says whether a type of ts is stored as emulated halves.
func (g *gen) emuAny(ts []kernel.Type) bool {
	for _, t := range ts {
		if g.emu(t) {
			return true
		}
	}
	return false
}

// finalReduce reduces the partial results part<k>[base + j], j in
// [0, end), into the outputs at out, written where guard (a condition
// followed by "&& ", or "") holds.
func (g *gen) finalReduce(r *kernel.Reduce, ts []kernel.Type, part []string, end, base, out, guard string) {
	acc := names("acc", len(ts))
	x := g.declare("x", ts, r.Neutral)
	g.accumulate(r.Op, r.Comm, x, "0", end, 1, func(j string) []string {
		g.line("{")
		g.indent++
		return g.declareFrom("e", ts, g.loads(ts, idx(part, base+" + "+j)))
	})
	g.stores(ts, idx(acc, "lid"), x)
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.tree(r.Op, ts, r.Comm)
	g.line("if (%slid == 0) {", guard)
	for k, t := range ts {
		g.line("  %s", g.copyElem(t, at(g.name(r.Out[k].Name), out), at(acc[k], "0")))
	}
	g.line("}")
}
