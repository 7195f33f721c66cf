package opencl

import (
	"fmt"
	"strings"

	"fut/gpu/kernel"
)

// atomicUpdate returns the C statement that atomically combines v into
// dest[b] for the histogram's operator, or "" when no atomic exists.
// HistUnroll is how many elements a work item of a histogram in local
// memory computes before it applies their updates (FUT_HIST_UNROLL,
// 1 to 16).
var HistUnroll = envInt("FUT_HIST_UNROLL", 1, 16, 4)

func (g *gen) atomicUpdate(h *kernel.Hist, dst, v string) string {
	return g.atomicIn("__global", h, dst, v)
}

// atomicIn is atomicUpdate in the address space space.
func (g *gen) atomicIn(space string, h *kernel.Hist, dst, v string) string {
	return strings.ReplaceAll(g.atomicRaw(h, dst, v), "SPACE", space)
}

// (None for f16: its operators round at each step, which no atomic does.)
func (g *gen) atomicRaw(h *kernel.Hist, dst, v string) string {
	t := h.Dest.T
	ptr := fmt.Sprintf("&%s", dst)
	i64 := g.caps.Int64Atomics
	switch h.OpName {
	case "+":
		switch t {
		case kernel.I32, kernel.U32:
			return fmt.Sprintf("atomic_add((volatile SPACE %s *)%s, %s);", ctype(t), ptr, v)
		case kernel.I64, kernel.U64:
			if i64 {
				return fmt.Sprintf("atom_add((volatile SPACE %s *)%s, %s);", ctype(t), ptr, v)
			}
		case kernel.F32:
			return fmt.Sprintf(`{ volatile SPACE uint *p = (volatile SPACE uint *)%s; uint o = *p, w;
  for (;;) { w = as_uint(as_float(o) + %s); uint q = atomic_cmpxchg(p, o, w); if (q == o) break; o = q; } }`, ptr, v)
		case kernel.F64:
			if i64 {
				return fmt.Sprintf(`{ volatile SPACE ulong *p = (volatile SPACE ulong *)%s; ulong o = *p, w;
  for (;;) { w = as_ulong(as_double(o) + %s); ulong q = atom_cmpxchg(p, o, w); if (q == o) break; o = q; } }`, ptr, v)
			}
		}
	case "min", "max":
		switch t {
		case kernel.I32, kernel.U32:
			return fmt.Sprintf("atomic_%s((volatile SPACE %s *)%s, %s);", h.OpName, ctype(t), ptr, v)
		case kernel.I64, kernel.U64:
			if i64 {
				return fmt.Sprintf("atom_%s((volatile SPACE %s *)%s, %s);", h.OpName, ctype(t), ptr, v)
			}
		}
	}
	return ""
}

func (g *gen) genHist(p *Program, h *kernel.Hist) {
	// the element index lies in [0, h.N) wherever the body runs
	g.below = map[string]string{h.I.Name: kernel.ExpString(h.N)}
	t := h.Dest.T
	g.checkType(t)
	if !h.Dest.Buffer || len(h.Dest.Shape) != 1 {
		g.fail("histogram destination %s must be a one-dimensional buffer", h.Dest.Name)
		return
	}
	if h.Val.Type() != t || h.Neutral.Type() != t || h.Bin.Type() != kernel.I64 {
		g.fail("histogram: value %v, neutral %v, bin %v for destination of %v", h.Val.Type(), h.Neutral.Type(), h.Bin.Type(), t)
		return
	}
	dest := g.name(h.Dest.Name)
	if upd := g.atomicUpdate(h, dest+"[b]", "v"); upd != "" {
		p.Atomic = true
		g.header(p, "_hist", nil, nil)
		n := g.long("n", h.N)
		bins := g.long("bins", h.Dest.Shape[0])
		g.line("long gtid = get_global_id(0);")
		g.line("if (gtid >= %s) return;", n)
		g.line("long %s = gtid;", g.name(h.I.Name))
		g.stmts(h.Body)
		b, v := g.exp(h.Bin), g.exp(h.Val)
		g.flushPre()
		g.line("long b = %s;", b)
		g.line("%s v = %s;", g.ctype(t), v)
		g.line("if (b >= 0 && b < %s) %s", bins, upd)
		g.end()

		// The same with a histogram per work group in local memory, merged
		// into dest with global atomics (for few bins).
		g.header(p, "_histl", []string{"histlocal", "groups"}, []string{fmt.Sprintf("__local %s *lh", btype(t)), "long groups"})
		g.groupVars()
		n = g.long("n", h.N)
		bins = g.long("bins", h.Dest.Shape[0])
		ne := g.declare("z", []kernel.Type{t}, []kernel.Exp{h.Neutral})
		g.line("for (long b = lid; b < %s; b += L) lh[b] = %s;", bins, ne[0])
		g.line("barrier(CLK_LOCAL_MEM_FENCE);")
		// HistUnroll elements per iteration, each computed in a block of
		// its own, before their updates: the reads of all are in flight
		// at once (one per iteration left the memory idle between them)
		u := HistUnroll
		g.line("for (long j0 = grp * L + lid; j0 < %s; j0 += %d * groups * L) {", n, u)
		g.indent++
		for q := 0; q < u; q++ {
			g.line("long b%d = -1;", q)
			g.line("%s v%d = %s;", g.ctype(t), q, ne[0])
			g.line("{")
			g.indent++
			g.line("long j = j0 + %d * groups * L;", q)
			g.line("if (j < %s) {", n)
			g.indent++
			g.line("long %s = j;", g.name(h.I.Name))
			g.stmts(h.Body)
			b, v = g.exp(h.Bin), g.exp(h.Val)
			g.flushPre()
			g.line("b%d = %s;", q, b)
			g.line("v%d = %s;", q, v)
			g.indent--
			g.line("}")
			g.indent--
			g.line("}")
		}
		for q := 0; q < u; q++ {
			g.line("if (b%d >= 0 && b%d < %s) %s", q, q, bins, g.atomicIn("__local", h, fmt.Sprintf("lh[b%d]", q), fmt.Sprintf("v%d", q)))
		}
		g.indent--
		g.line("}")
		g.line("barrier(CLK_LOCAL_MEM_FENCE);")
		g.line("for (long b = lid; b < %s; b += L) {", bins)
		g.line("  %s v = lh[b];", ctype(t))
		g.line("  %s", upd)
		g.line("}")
		g.end()
		return
	}
	ts := []kernel.Type{t}
	// Stage 1: each group builds its own sub-histogram in sub[grp*bins…];
	// bin b is owned by work item b % L, which applies the tile's updates
	// to it in order: no races, no atomics.
	g.header(p, "_hist1", []string{"sub", "binlocal", "local0", "groups"},
		[]string{fmt.Sprintf("__global %s *sub", btype(t)), "__local long *tb", fmt.Sprintf("__local %s *acc0", btype(t)), "long groups"})
	g.groupVars()
	n := g.long("n", h.N)
	bins := g.long("bins", h.Dest.Shape[0])
	ne := g.declare("z", ts, []kernel.Exp{h.Neutral})
	g.line("__global %s *my = sub + grp * %s;", btype(t), bins)
	g.line("for (long b = lid; b < %s; b += L) %s", bins, g.put(t, at("my", "b"), ne[0]))
	g.line("long chunk = (%s + groups - 1) / groups;", n)
	g.line("long start = grp * chunk, end = min(start + chunk, %s);", n)
	g.line("for (long base = start; base < end; base += L) {")
	g.indent++
	g.line("long jj = base + lid;")
	g.line("tb[lid] = -1;")
	g.line("if (jj < end) {")
	g.indent++
	g.line("long %s = jj;", g.name(h.I.Name))
	g.stmts(h.Body)
	b, v := g.exp(h.Bin), g.exp(h.Val)
	g.flushPre()
	g.line("tb[lid] = %s;", b)
	g.line("%s", g.put(t, at("acc0", "lid"), v))
	g.indent--
	g.line("}")
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.line("for (long q = 0; q < L; q++) {")
	g.indent++
	g.line("long b = tb[q];")
	g.line("if (b >= 0 && b < %s && b %% L == lid) {", bins)
	g.indent++
	a := g.declareFrom("a", ts, []string{g.load(t, at("my", "b"))})
	e := g.declareFrom("e", ts, []string{g.load(t, at("acc0", "q"))})
	g.applyOp(h.Op, a, a, e)
	g.line("%s", g.put(t, at("my", "b"), a[0]))
	g.indent--
	g.line("}")
	g.indent--
	g.line("}")
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.indent--
	g.line("}")
	g.end()

	// Stage 2: one work item per bin folds the groups' sub-histograms into dest.
	g.header(p, "_hist2", []string{"sub", "groups"}, []string{fmt.Sprintf("__global %s *sub", btype(t)), "long groups"})
	bins = g.long("bins", h.Dest.Shape[0])
	g.line("long b = get_global_id(0);")
	g.line("if (b >= %s) return;", bins)
	a = g.declareFrom("a", ts, []string{g.load(t, at(dest, "b"))})
	g.line("for (long q = 0; q < groups; q++) {")
	g.indent++
	e = g.declareFrom("e", ts, []string{g.load(t, at("sub", fmt.Sprintf("q * %s + b", bins)))})
	g.applyOp(h.Op, a, a, e)
	g.indent--
	g.line("}")
	g.line("%s", g.put(t, at(dest, "b"), a[0]))
	g.end()
}
