package opencl

import (
	"fmt"

	"fut/gpu/kernel"
)

// MaxScanK is the most elements each work item scans per tile ("scank",
// an i64 argument the runtime chooses so that the "tile<k>" extras of
// TileElems(L, k) elements fit in local memory). On an H100, 32 with the
// tile's loops between global and local memory unrolled by 8 (ScanUnroll)
// scanned 2^27 i32 in 0.424–0.429 ms, against 0.436–0.448 at 24 (either
// way) and 0.449 at 32 not unrolled.
// FUT_SCAN_K (1 to 64) sets it, to compare others on a device.
var MaxScanK = envInt("FUT_SCAN_K", 1, 64, 32)

// TileElems is the local memory (in elements) of one tile of L work items
// with k elements each, padded against bank conflicts.
func TileElems(L, k int) int { return L*k + L*k/32 + 1 }

// genScan emits three passes: (1) the total of each group's chunk, (2) one
// group turns the totals into exclusive prefixes, (3) each group scans its
// chunk from its prefix, sk·L elements per tile, loaded and stored
// coalesced through local memory.
func (g *gen) genScan(p *Program, s *kernel.Scan) {
	// the element index lies in [0, s.N) wherever the body runs
	g.below = map[string]string{s.I.Name: kernel.ExpString(s.N)}
	out := s.Out
	if s.Keep != nil {
		g.checkKeep(s)
		out = nil
	}
	ts := g.checkOp(s.Op, s.Elems, s.Neutral, out)
	if g.err != nil {
		return
	}
	ex, decls := extras(ts)
	for k, t := range ts {
		ex = append(ex, fmt.Sprintf("tile%d", k))
		decls = append(decls, fmt.Sprintf("__local %s *tile%d", btype(t), k))
	}
	ex = append(ex, "scank")
	decls = append(decls, "long sk")
	part, acc, tile := names("part", len(ts)), names("acc", len(ts)), names("tile", len(ts))
	chunk := func() {
		n := g.long("n", s.N)
		g.line("long chunk = (%s + groups - 1) / groups;", n)
		g.line("long start = grp * chunk, end = min(start + chunk, %s);", n)
	}

	// Pass 1.
	g.header(p, "_scan1", ex, decls)
	g.groupVars()
	chunk()
	x := g.declare("x", ts, s.Neutral)
	g.accumulate(s.Op, s.Comm, x, "start", "end", unrollFor(s.Body, s.Elems), func(j string) []string {
		return g.element(s.I, j, s.Body, s.Elems)
	})
	g.stores(ts, idx(acc, "lid"), x)
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.tree(s.Op, ts, s.Comm)
	g.line("if (lid == 0) {")
	for k, t := range ts {
		g.line("  %s", g.copyElem(t, at(part[k], "grp"), at(acc[k], "0")))
	}
	g.line("}")
	g.end()

	// Pass 2: work item t owns a contiguous run of the group totals.
	g.header(p, "_scan2", ex, decls)
	g.groupVars()
	g.line("long per = (groups + L - 1) / L, js = lid * per, je = min(js + per, groups);")
	x = g.declare("x", ts, s.Neutral)
	g.line("for (long j = js; j < je; j++) {")
	g.indent++
	e := g.declareFrom("e", ts, g.loads(ts, idx(part, "j")))
	g.applyOp(s.Op, x, x, e)
	g.indent--
	g.line("}")
	g.stores(ts, idx(acc, "lid"), x)
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.scanLocal(s.Op, ts)
	run := g.declare("r", ts, s.Neutral)
	g.line("if (lid > 0) {")
	for k := range ts {
		g.line("  %s = %s;", run[k], g.load(ts[k], at(acc[k], "lid - 1")))
	}
	g.line("}")
	g.line("for (long j = js; j < je; j++) {")
	g.indent++
	e = g.declareFrom("e", ts, g.loads(ts, idx(part, "j")))
	g.stores(ts, idx(part, "j"), run)
	g.applyOp(s.Op, run, run, e)
	g.indent--
	g.line("}")
	g.end()

	// Pass 3.
	g.header(p, "_scan3", ex, decls)
	g.groupVars()
	chunk()
	g.line("#define PAD(i) ((i) + ((i) >> 5))")
	carry := g.declareFrom("c", ts, g.loads(ts, idx(part, "grp")))
	g.line("for (long base = start; base < end; base += L * sk) {")
	g.indent++
	// coalesced load of the tile
	g.line("for (long q = 0; q < sk; q++) {")
	g.indent++
	g.line("long jj = base + q * L + lid;")
	x = g.declare("x", ts, s.Neutral)
	g.line("if (jj < end) {")
	g.indent++
	es := g.element(s.I, "jj", s.Body, s.Elems)
	for k := range ts {
		g.line("%s = %s;", x[k], es[k])
	}
	g.close()
	g.indent--
	g.line("}")
	g.stores(ts, idx(tile, "PAD(q * L + lid)"), x)
	g.indent--
	g.line("}")
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	// each work item scans its sk consecutive elements
	a := g.declare("a", ts, s.Neutral)
	g.line("for (long q = 0; q < sk; q++) {")
	g.indent++
	e = g.declareFrom("e", ts, g.loads(ts, idx(tile, "PAD(lid * sk + q)")))
	g.applyOp(s.Op, a, a, e)
	g.stores(ts, idx(tile, "PAD(lid * sk + q)"), a)
	g.indent--
	g.line("}")
	g.stores(ts, idx(acc, "lid"), a)
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.scanLocal(s.Op, ts)
	pre := g.declareFrom("pf", ts, carry)
	g.line("if (lid > 0) {")
	g.indent++
	ex1 := g.declareFrom("ex", ts, g.loads(ts, idx(acc, "lid - 1")))
	g.applyOp(s.Op, pre, pre, ex1)
	g.indent--
	g.line("}")
	g.line("for (long q = 0; q < sk; q++) {")
	g.indent++
	e = g.declareFrom("e", ts, g.loads(ts, idx(tile, "PAD(lid * sk + q)")))
	g.applyOp(s.Op, e, pre, e)
	g.stores(ts, idx(tile, "PAD(lid * sk + q)"), e)
	g.indent--
	g.line("}")
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	if s.Keep != nil {
		g.keepTile(s, tile[0])
	} else {
		g.line("for (long q = 0; q < sk; q++) {")
		g.line("  long jj = base + q * L + lid;")
		g.line("  if (jj < end) {")
		for k, t := range ts {
			g.line("    %s", g.copyElem(t, at(g.name(s.Out[k].Name), "jj"), at(tile[k], "PAD(q * L + lid)")))
		}
		g.line("  }")
		g.line("}")
	}
	tot := g.declareFrom("tt", ts, g.loads(ts, idx(acc, "L - 1")))
	g.applyOp(s.Op, carry, carry, tot)
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.indent--
	g.line("}")
	if s.Keep != nil {
		// the last group's carry is the count of every chunk's
		g.line("if (grp == groups - 1 && lid == 0) %s[0] = (long)%s;", g.name(s.Keep.Count.Name), carry[0])
	}
	g.line("#undef PAD")
	g.end()

	if lookBackOK(s, g.caps) {
		p.LookBack = true
		g.genScanLookBack(p, s)
	}
}

// checkKeep checks a compaction: one integer flag, values of its
// destinations' types.
func (g *gen) checkKeep(s *kernel.Scan) {
	k := s.Keep
	if len(s.Elems) != 1 || !s.Elems[0].Type().IsInt() || len(s.Out) != 0 {
		g.fail("a compaction needs one integer flag and no scan output")
		return
	}
	if len(k.Dest) != len(k.Vals) || k.Count == nil {
		g.fail("a compaction with %d destinations for %d values", len(k.Dest), len(k.Vals))
		return
	}
	for i, d := range k.Dest {
		if len(d.Shape) != 1 || k.Vals[i].Type() != d.T {
			g.fail("compaction destination %s must be one-dimensional of %v", d.Name, k.Vals[i].Type())
		}
	}
}

// keepTile emits a compaction's writes for a tile of sk·L elements
// from base (before end) whose inclusive counts are in tile: each work
// item takes the elements q·L + lid, as the tile was loaded (the same
// elements whose inputs it read, likely still in the cache), computes
// the element again, and writes a kept element's values at the count of
// those before it, so that the writes of neighbouring kept elements are
// neighbours.
func (g *gen) keepTile(s *kernel.Scan, tile string) {
	k := s.Keep
	g.line("for (long q = 0; q < sk; q++) {")
	g.indent++
	g.line("long jj = base + q * L + lid;")
	g.line("if (jj < end) {")
	g.indent++
	es := g.element(s.I, "jj", s.Body, append([]kernel.Exp{s.Elems[0]}, k.Vals...))
	g.line("if (%s != 0) {", es[0])
	g.indent++
	g.line("long at = (long)%s[PAD(q * L + lid)] - 1;", tile)
	for i, d := range k.Dest {
		g.line("%s", g.put(d.T, at(g.name(d.Name), "at"), es[1+i]))
	}
	g.indent--
	g.line("}")
	g.close()
	g.indent--
	g.line("}")
	g.indent--
	g.line("}")
}
