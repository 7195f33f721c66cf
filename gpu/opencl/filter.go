package opencl

import (
	"fmt"
	"os"
	"strconv"

	"fut/gpu/kernel"
)

// OnePassFilter says whether a compaction's single-pass kernel keeps each
// work item's elements in registers between reading them and writing
// the kept ones (genFilterLookBack), instead of computing every element
// a second time after the look-back (keepTile): FUT_FILTER_ONEPASS=0
// chooses the latter, to compare.
var OnePassFilter = os.Getenv("FUT_FILTER_ONEPASS") != "0"

// FilterK is the elements each work item of the register-holding
// compaction reads per tile, for a kept value of 4 bytes
// (FUT_FILTER_K, 1 to 32, sets it, to compare); kept values of more
// bytes take proportionally fewer, down to 4.
var FilterK = filterK()

func filterK() int {
	if k, err := strconv.Atoi(os.Getenv("FUT_FILTER_K")); err == nil && k >= 1 && k <= 32 {
		return k
	}
	return 16
}

// keepK is the elements per work item of s's register-holding
// compaction: FilterK for one kept value of at most 4 bytes, fewer where
// the values take more registers (each 4-byte word of a value once).
func keepK(s *kernel.Scan) int {
	words := 0
	for _, v := range s.Keep.Vals {
		words += (v.Type().Size() + 3) / 4
	}
	k := FilterK
	if words > 1 {
		k = max(min(k, 4), k/words)
	}
	return k
}

// genFilterLookBack emits the single-pass compaction "_scanlb" (the
// entry and extras of genScanLookBack, tile0 being K·L+pad uints): one
// work group per tile of K·L elements, K a constant of the source (the
// runtime learns it from Program.KeepK). Work item lid computes the
// elements base + q·L + lid for q < K (coalesced), keeping their flags as
// bits of a mask and their kept values in registers (the loop over q is
// unrolled here, so that each value has its own variable and every read
// is issued before the first use). The flags go to local memory in the
// tile's order; each work item counts a contiguous run of K of them, a
// scan of those counts across the group gives each run's first rank,
// and the runs' ranks go back over the flags. The tile's offset comes
// from the decoupled look-back over earlier tiles' counts (as
// genScanLookBack's), and each work item writes its kept values at the
// offset plus their ranks: the kept elements of a row of L are
// neighbours in the output, so the writes coalesce. No element is read
// or computed twice.
func (g *gen) genFilterLookBack(p *Program, s *kernel.Scan) {
	K := keepK(s)
	p.KeepK = K
	k := s.Keep
	g.header(p, "_scanlb", []string{"state", "counter", "local0", "tile0", "groups", "scank", "epoch", "cbase"},
		[]string{"__global ulong *state", "__global uint *counter", "__local uint *acc0", "__local uint *tile0", "long groups", "long sk", "uint epoch", "uint cbase"})
	g.line("long lid = get_local_id(0), L = get_local_size(0);")
	g.line("ulong lb_agg = (ulong)epoch * 4 + 1, lb_inc = (ulong)epoch * 4 + 2;")
	g.line("__local uint lb_id, lb_pre;")
	g.line("if (lid == 0) lb_id = atomic_inc(counter) - cbase;")
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.line("long grp = lb_id;")
	n := g.long("n", s.N)
	g.line("long base = grp * L * %d, end = min(base + L * %d, %s);", K, K, n)
	g.line("#define PAD(i) ((i) + ((i) >> 5))")
	// the elements, into registers
	g.line("uint keep = 0;")
	vals := make([][]string, K)
	elems := append([]kernel.Exp{s.Elems[0]}, k.Vals...)
	for q := range K {
		vals[q] = make([]string, len(k.Vals))
		for c, v := range k.Vals {
			vals[q][c] = g.fresh("kv")
			g.line("%s %s = 0;", g.ctype(v.Type()), vals[q][c])
		}
		g.line("if (base + %d * L + lid < end) {", q)
		g.indent++
		es := g.element(s.I, fmt.Sprintf("base + %d * L + lid", q), s.Body, elems)
		g.line("if (%s != 0) keep |= %#xu;", es[0], uint32(1)<<q)
		for c := range k.Vals {
			g.line("%s = %s;", vals[q][c], es[1+c])
		}
		g.close()
		g.indent--
		g.line("}")
	}
	// the flags in the tile's order; each work item's run of K: its count
	g.line("for (int q = 0; q < %d; q++) tile0[PAD(q * L + lid)] = (keep >> q) & 1;", K)
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.line("uint cnt = 0;")
	g.line("for (int q = 0; q < %d; q++) cnt += tile0[PAD(lid * %d + q)];", K, K)
	g.line("acc0[lid] = cnt;")
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.line("for (long s = 1; s < L; s <<= 1) {")
	g.line("  uint a = acc0[lid];")
	g.line("  if (lid >= s) a += acc0[lid - s];")
	g.line("  barrier(CLK_LOCAL_MEM_FENCE);")
	g.line("  acc0[lid] = a;")
	g.line("  barrier(CLK_LOCAL_MEM_FENCE);")
	g.line("}")
	// look back (as genScanLookBack's, on counts)
	g.line("if (lid == 0) {")
	g.indent++
	g.line("uint agg = acc0[L - 1], run = 0;")
	g.line("if (grp > 0) {")
	g.indent++
	g.line("atom_xchg(&state[grp], (lb_agg << 32) | (ulong)agg);")
	g.line("for (long j = grp - 1;;) {")
	g.indent++
	g.line("ulong w = *(volatile __global ulong *)&state[j];")
	g.line("ulong f = w >> 32;")
	g.line("if (f != lb_agg && f != lb_inc) continue;")
	g.line("run += (uint)(w & 0xffffffffUL);")
	g.line("if (f == lb_inc) break;")
	g.line("j--;")
	g.indent--
	g.line("}")
	g.indent--
	g.line("}")
	g.line("atom_xchg(&state[grp], (lb_inc << 32) | (ulong)(run + agg));")
	g.line("if (grp == groups - 1) %s[0] = (long)(run + agg);", g.name(k.Count.Name))
	g.line("lb_pre = run;")
	g.indent--
	g.line("}")
	// each run's flags become the ranks in the tile of their elements
	g.line("uint r = lid > 0 ? acc0[lid - 1] : 0;")
	g.line("for (int q = 0; q < %d; q++) {", K)
	g.line("  uint f = tile0[PAD(lid * %d + q)];", K)
	g.line("  tile0[PAD(lid * %d + q)] = r;", K)
	g.line("  r += f;")
	g.line("}")
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.line("long pre = (long)lb_pre;")
	for q := range K {
		g.line("if (keep & %#xu) {", uint32(1)<<q)
		g.indent++
		g.line("long at = pre + (long)tile0[PAD(%d * L + lid)];", q)
		for c, d := range k.Dest {
			g.line("%s", g.put(d.T, at(g.name(d.Name), "at"), vals[q][c]))
		}
		g.indent--
		g.line("}")
	}
	g.line("#undef PAD")
	g.end()
}
