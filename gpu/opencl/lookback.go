package opencl

import (
	"fmt"
	"os"

	"fut/gpu/kernel"
)

// lookBackOK says whether a scan can use the single-pass kernel: one
// component of at most 32 bits, whose value and status are published
// together in one 64-bit atomic word (no memory fences needed).
func lookBackOK(s *kernel.Scan, caps Caps) bool {
	if len(s.Elems) != 1 || !caps.Int64Atomics {
		return false
	}
	t := s.Elems[0].Type()
	return t != kernel.F16 && t.Size() <= 4 // f16: lb_pre, toBits and fromBits would need a case
}

func toBits(t kernel.Type, x string) string {
	switch t {
	case kernel.F32:
		return fmt.Sprintf("(ulong)as_uint(%s)", x)
	case kernel.Bool:
		return fmt.Sprintf("(ulong)(%s ? 1 : 0)", x)
	}
	return fmt.Sprintf("(ulong)(%s)%s", utype(t), x)
}

func fromBits(t kernel.Type, w string) string {
	switch t {
	case kernel.F32:
		return fmt.Sprintf("as_float((uint)(%s))", w)
	case kernel.Bool:
		return fmt.Sprintf("(((uint)(%s)) != 0)", w)
	}
	return fmt.Sprintf("(%s)(%s)(%s)", ctype(t), utype(t), w)
}

// genScanLookBack emits "_scanlb": one work group per tile of sk·L
// elements, tiles numbered in the order groups start (an atomic counter),
// each group's exclusive prefix found by looking back at its predecessors'
// published aggregates and inclusive prefixes (decoupled look-back). A
// group only waits for groups that started before it, so it needs no
// assumption about which groups run concurrently.
// Extras: "state" (one ulong per tile, of earlier epochs or zeroed),
// "counter" (one uint: cbase when the launch starts), local0, tile0,
// groups (the number of tiles), scank, "epoch" (the launch's, 1 to
// 2^30-1: above every earlier one since the state was zeroed) and
// "cbase".
func (g *gen) genScanLookBack(p *Program, s *kernel.Scan) {
	if s.Keep != nil && g.filterPass() > 0 {
		g.genFilterLookBack(p, s)
		return
	}
	t := s.Elems[0].Type()
	ts := []kernel.Type{t}
	g.header(p, "_scanlb", []string{"state", "counter", "local0", "tile0", "groups", "scank", "epoch", "cbase"},
		[]string{"__global ulong *state", "__global uint *counter", fmt.Sprintf("__local %s *acc0", btype(t)), fmt.Sprintf("__local %s *tile0", btype(t)), "long groups", "long sk", "uint epoch", "uint cbase"})
	g.line("long lid = get_local_id(0), L = get_local_size(0);")
	// a word's upper half is its launch's epoch·4 + its status (1: the
	// tile's aggregate, 2: its inclusive prefix); any other is not yet
	// published by this launch
	g.line("ulong lb_agg = (ulong)epoch * 4 + 1, lb_inc = (ulong)epoch * 4 + 2;")
	g.line("__local uint lb_id;")
	g.line("__local %s lb_pre;", btype(t))
	g.line("if (lid == 0) lb_id = atomic_inc(counter) - cbase;")
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.line("long grp = lb_id;")
	n := g.long("n", s.N)
	g.line("long base = grp * L * sk, end = min(base + L * sk, %s);", n)
	g.line("#define PAD(i) ((i) + ((i) >> 5))")
	tile, acc := []string{"tile0"}, []string{"acc0"}
	// ScanVec: a whole tile whose buffers are 16-byte aligned moves 4
	// elements a load and a store
	vec := ScanVec && s.Keep == nil && t.Size() == 4 && t != kernel.Bool
	var vbufs []*kernel.Param
	if vec {
		for _, b := range g.vecReads(s.I, s.Body, s.Elems) {
			if b.T.Size() == 4 {
				vbufs = append(vbufs, b)
			}
		}
		g.line("bool vq = %s && (sk & 3) == 0 && base + L * sk <= %s;", g.aligned16(append([]*kernel.Param{s.Out[0]}, vbufs...)), n)
		g.line("if (vq) {")
		g.indent++
		g.unrollHint(ScanUnroll / 4)
		g.line("for (long q = 0; q < sk / 4; q++) {")
		g.indent++
		g.vecElems(s.I, s.Body, s.Elems, vbufs, 4, "base / 4 + q * L + lid", func(r int, e string) {
			g.line("tile0[PAD(4 * (q * L + lid) + %d)] = %s;", r, e)
		})
		g.close()
		g.indent--
		g.line("} else {")
		g.indent++
	}
	g.unrollHint(ScanUnroll)
	g.line("for (long q = 0; q < sk; q++) {")
	g.indent++
	g.line("long jj = base + q * L + lid;")
	x := g.declare("x", ts, s.Neutral)
	g.line("if (jj < end) {")
	g.indent++
	es := g.element(s.I, "jj", s.Body, s.Elems)
	g.line("%s = %s;", x[0], es[0])
	g.close()
	g.indent--
	g.line("}")
	g.stores(ts, idx(tile, "PAD(q * L + lid)"), x)
	g.indent--
	g.line("}")
	if vec {
		g.close()
	}
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	a := g.declare("a", ts, s.Neutral)
	g.unrollHint(ScanUnrollLocal)
	g.line("for (long q = 0; q < sk; q++) {")
	g.indent++
	e := g.declareFrom("e", ts, g.loads(ts, idx(tile, "PAD(lid * sk + q)")))
	g.applyOp(s.Op, a, a, e)
	g.stores(ts, idx(tile, "PAD(lid * sk + q)"), a)
	g.indent--
	g.line("}")
	g.stores(ts, idx(acc, "lid"), a)
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.scanLocal(s.Op, ts)
	// look back
	g.line("if (lid == 0) {")
	g.indent++
	agg := g.declareFrom("ag", ts, g.loads(ts, idx(acc, "L - 1")))
	run := g.declare("run", ts, s.Neutral)
	g.lookBackWalk(toBits(t, agg[0]), "w", func(low string) {
		v := g.declareFrom("pv", ts, []string{fromBits(t, low)})
		g.applyOp(s.Op, run, v, run)
	})
	inc := g.declareFrom("inc", ts, run)
	g.applyOp(s.Op, inc, inc, agg)
	g.line("%satom_xchg(&state[grp], (lb_inc << 32) | %s);", incGuard(), toBits(t, inc[0]))
	if s.Keep != nil {
		g.line("if (grp == groups - 1) %s[0] = (long)%s;", g.name(s.Keep.Count.Name), inc[0])
	}
	if t == kernel.Bool {
		g.line("lb_pre = ((uchar)%s);", run[0])
	} else {
		g.line("lb_pre = %s;", run[0])
	}
	g.indent--
	g.line("}")
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	lbPre := "lb_pre"
	if t == kernel.Bool {
		lbPre = "(lb_pre != 0)"
	}
	pre := g.declareFrom("pf", ts, []string{lbPre})
	g.line("if (lid > 0) {")
	g.indent++
	ex1 := g.declareFrom("ex", ts, g.loads(ts, idx(acc, "lid - 1")))
	g.applyOp(s.Op, pre, pre, ex1)
	g.indent--
	g.line("}")
	g.unrollHint(ScanUnrollLocal)
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
		if vec {
			g.line("if (vq) {")
			g.unrollHint(ScanUnroll / 4)
			g.line("  for (long q = 0; q < sk / 4; q++) {")
			g.line("    long p = 4 * (q * L + lid);")
			g.line("    ((__global %s4 *)%s)[base / 4 + q * L + lid] = (%s4)(tile0[PAD(p)], tile0[PAD(p + 1)], tile0[PAD(p + 2)], tile0[PAD(p + 3)]);", btype(t), g.name(s.Out[0].Name), btype(t))
			g.line("  }")
			g.line("} else {")
		}
		g.unrollHint(ScanUnroll)
		g.line("for (long q = 0; q < sk; q++) {")
		g.line("  long jj = base + q * L + lid;")
		g.line("  if (jj < end) %s", g.copyElem(t, at(g.name(s.Out[0].Name), "jj"), at(tile[0], "PAD(q * L + lid)")))
		g.line("}")
		if vec {
			g.line("}")
		}
	}
	g.line("#undef PAD")
	g.end()
}

// ScanVec moves a single-pass scan's whole tiles of 4-byte elements
// between global and local memory 16 bytes a load and a store, where
// its buffers are aligned so and its tiles are of a multiple of 4
// elements a work item; FUT_SCAN_VEC=0 turns it off. One H100, scan
// of 2^27 i32, kernel ms, two rounds in one lease: 0.428 / 0.430
// without, 0.393 / 0.392 with (0.419 with the loops unrolled by 4).
var ScanVec = os.Getenv("FUT_SCAN_VEC") != "0"

// ScanUnroll and ScanUnrollLocal, when above 1, ask the compiler to
// unroll a single-pass scan's loops over a tile's elements by that many:
// those between global and local memory (8: the reads of 8 elements in
// flight at once; 24 took twice as long on an H100), and those within
// local memory (1: 4 and 8 gained nothing). FUT_SCAN_UNROLL and
// FUT_SCAN_UNROLL_LOCAL set them, to compare on a device.
var ScanUnroll, ScanUnrollLocal = envInt("FUT_SCAN_UNROLL", 1, 64, 8), envInt("FUT_SCAN_UNROLL_LOCAL", 1, 64, 1)

// unrollHint emits a request to unroll the next loop u times (none for
// u < 2).
func (g *gen) unrollHint(u int) {
	if u > 1 {
		g.line("#pragma unroll %d", u)
	}
}

// lookBackWalk emits, for work item 0 of tile grp, the publication of
// the tile's aggregate (the bits aggBits) and the walk back over the
// earlier tiles' status words (each read into a variable named word):
// take(low) combines a published value, the word's low 32 bits, into the
// running prefix, nearest tile first, until a tile's inclusive prefix
// has been taken. The caller then publishes the tile's own.
func (g *gen) lookBackWalk(aggBits, word string, take func(low string)) {
	g.line("if (grp > 0) {")
	g.indent++
	g.line("atom_xchg(&state[grp], (lb_agg << 32) | %s);", aggBits)
	g.line("for (long j = grp - 1;;) {")
	g.indent++
	// a volatile load, not an atomic read-modify-write: the word is
	// written whole by atom_xchg and read whole (an aligned 64-bit
	// load), from the cache level the atomics go to; on an H100 the scan
	// of 2^27 i32 took 0.562 ms against 0.582 with atom_or
	g.line("ulong %s = *(volatile __global ulong *)&state[j];", word)
	g.line("ulong f = %s >> 32;", word)
	g.line("if (f != lb_agg && f != lb_inc) continue;")
	take(word + " & 0xffffffffUL")
	g.line("if (f == lb_inc) break;")
	g.line("j--;")
	g.indent--
	g.line("}")
	g.indent--
	g.line("}")
}
