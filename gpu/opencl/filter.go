package opencl

import (
	"fmt"
	"os"

	"fut/gpu/kernel"
)

// FilterPass chooses a compaction's single-pass kernel: 0 computes each
// element a second time after the look-back (keepTile), 1 keeps each
// work item's elements in registers and ranks them through local
// memory (genFilterLookBack), 2 keeps them in registers and ranks them
// with warp ballots (NVIDIA's vote instruction, through inline PTX;
// elsewhere emulated in local memory, slowly, so that its logic runs on
// any device). FUT_FILTER_ONEPASS=0, 1 or 2 sets it; unless said
// (FilterPass -1), 2 on an NVIDIA GPU (Caps.WarpVote) and 0 elsewhere,
// where 1 and 2 are not measured. One H100, examples/bench/filter.fut
// (2^27 f32, half kept), kernel / wall ms: 0: 0.559 / 0.628; 1 (16
// elements): 0.602 / 0.634; 2 (16): 0.548 / 0.582; 1 (32): 0.521 /
// 0.576; 2 (32): 0.502 / 0.538.
var FilterPass = filterPass()

func filterPass() int {
	switch os.Getenv("FUT_FILTER_ONEPASS") {
	case "0":
		return 0
	case "1":
		return 1
	case "2":
		return 2
	}
	return -1
}

// filterPass is the pass this device's compactions take (FilterPass).
func (g *gen) filterPass() int {
	switch {
	case FilterPass >= 0:
		return FilterPass
	case g.caps.WarpVote:
		return 2
	}
	return 0
}

// FilterK is the elements each work item of the register-holding
// compaction reads per tile, for a kept value of 4 bytes
// (FUT_FILTER_K, 1 to 32, sets it, to compare); kept values of more
// bytes take proportionally fewer, down to 4. On an H100 (FilterPass
// 2), without a bound on registers: 8, 16, 24 and 32 took 0.734, 0.548,
// 0.577 and 0.502 ms; 32 took 128 registers a work item (two work
// groups of 256 a multiprocessor). With FilterMaxRegs, kernel ms in one
// call, two rounds: 32 unbounded 0.482 / 0.481; 16 and 40 registers
// 0.496 / 0.494; 24 and 64 0.441 / 0.446; 24 and 72 0.460 / 0.457; 28
// and 72 0.442 / 0.442; 28 and 80 0.426 / 0.427; 32 and 96 0.534 /
// 0.535.
var FilterK = envInt("FUT_FILTER_K", 1, 32, 28)

// FilterMaxRegs bounds the registers of a work item of the compaction
// ranked by warps (FilterPass 2; Program.MaxRegs), where the device
// compiles through CUDA, as FUT_FILTER_MAXREG says (0: no bound); -1,
// unless said: 64 where the values are staged as read (FilterStage 2,
// four work groups of 256 a multiprocessor of an H100), 80 where they
// are held in registers (three).
var FilterMaxRegs = envInt("FUT_FILTER_MAXREG", 0, 255, -1)

// filterMaxRegs is FilterMaxRegs resolved.
func filterMaxRegs() int {
	switch {
	case FilterMaxRegs >= 0:
		return FilterMaxRegs
	case FilterStage == 2:
		return 64
	}
	return 80
}

// FilterStage makes the ballot-ranking compaction (FilterPass 2) write
// its kept values through local memory: each goes to its rank in the
// tile's staging area, and then the group writes the tile's kept values
// out in order, work item lid the values lid, lid + L, …, so that each
// warp's writes are whole runs of consecutive elements, where otherwise
// each row's kept values, about half a warp's, are written where their
// ranks fall. FUT_FILTER_STAGE=0 turns it off, to compare; 1 stages the
// values held in registers once the look-back is done. One H100,
// examples/bench/filter.fut (2^27 f32, half kept), kernel ms, two
// rounds: 0.502 / 0.500 without, 0.483 / 0.479 with 1. Also measured and
// not kept: staging before the look-back (to overlap it; 0.478 /
// 0.481), and computing each kept value again where it is staged rather
// than holding the tile's values in registers from the first reads
// (0.592 / 0.598, though 79 registers a work item where the values
// took 128).
//
// 2 (the default) stages the values as they are read instead, each at
// its place in the tile, so that no work item holds its values in
// registers across the ranks and the look-back; after the look-back the
// staging area is compacted in place, stageRows rows at a time
// (stageInPlace). One H100, one call, two rounds, kernel ms: 1 with 28
// elements and 80 registers 0.425 / 0.425; 2 with 28 and 64 registers
// 0.410 / 0.411 (wall 0.457 / 0.447), unbounded (72) 0.444 / 0.442, 48
// registers 0.655 / 0.660 (spilled); 2 with 32 elements unbounded 0.418
// / 0.419.
var FilterStage = envInt("FUT_FILTER_STAGE", 0, 2, 2)

// stageRows is the rows of a tile that the in-place compaction of
// FilterStage 2 moves between two barriers (each work item holding one
// value of each row in registers): a row's kept values go to ranks
// below the end of the row, so no write reaches a row not yet read.
const stageRows = 8

// FilterWindow is how many earlier tiles' words a compaction's look-back
// reads at once (lookBackWindow), 1 to 32; 0: one at a time, by work
// item 0 alone (lookBackCount, as genScanLookBack). FUT_FILTER_WINDOW
// sets it, to compare; 32 unless said.
var FilterWindow = envInt("FUT_FILTER_WINDOW", 0, 32, 32)

// FilterWalkAll (for tests) makes every tile but the first of a
// single-pass compaction or scan publish only its count or aggregate,
// never its inclusive one, so that each look-back walks back to the
// first tile: on a CPU device, whose groups tend to finish in order, a
// look-back would otherwise stop at the tile before.
var FilterWalkAll = false

// incGuard is the condition on publishing an inclusive count.
func incGuard() string {
	if FilterWalkAll {
		return "if (grp == 0) "
	}
	return ""
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
	if bufs := g.asyncReads(s); bufs != nil {
		g.genFilterAsync(p, s, bufs)
		return
	}
	K := keepK(s)
	p.KeepK, p.KeepWarp = K, g.filterPass() == 2
	if p.KeepWarp {
		g.ballotMacro()
		p.MaxRegs = filterMaxRegs()
	}
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
	// the elements, into registers (or, staged as read, into the
	// tile's staging area)
	g.line("uint keep = 0;")
	vals := make([][]string, K)
	elems := append([]kernel.Exp{s.Elems[0]}, k.Vals...)
	stage := g.stageLayout(p, k, K)
	var st []string
	early := stage != nil && FilterStage == 2
	if early {
		st = g.stageAreas(k, K, stage, "(L >> 5)")
	}

	// an element past the end is computed as the last one (n > 0: the
	// runtime launches nothing for none) and not kept, so that no branch
	// separates the reads (the last element is computed anyway, so a
	// failure there is one that happens anyway)
	for q := range K {
		vals[q] = make([]string, len(k.Vals))
		for c, v := range k.Vals {
			if early {
				break
			}
			vals[q][c] = g.fresh("kv")
			g.line("%s %s;", g.ctype(v.Type()), vals[q][c])
		}
		es := g.element(s.I, fmt.Sprintf("min(base + %d * L + lid, %s - 1)", q, n), s.Body, elems)
		g.line("if (%s != 0 && base + %d * L + lid < end) keep |= %#xu;", es[0], q, uint32(1)<<q)
		for c, v := range k.Vals {
			switch {
			case early && v.Type() == kernel.Bool:
				g.line("%s[%d * L + lid] = (uchar)%s;", st[c], q, es[1+c])
			case early:
				g.line("%s[%d * L + lid] = %s;", st[c], q, es[1+c])
			default:
				g.line("%s = %s;", vals[q][c], es[1+c])
			}
		}
		g.close()
	}
	if p.KeepWarp {
		g.warpRanks(K)
	} else {
		g.localRanks(K)
	}
	if stage != nil {
		g.line("__local uint lb_cnt;")
		g.line("if (lid == 0) lb_cnt = agg;")
	}
	if FilterWindow > 0 {
		g.lookBackWindow(k, FilterWindow)
	} else {
		g.line("if (lid == 0) {")
		g.indent++
		g.lookBackCount(k)
		g.indent--
		g.line("}")
	}
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.line("long pre = (long)lb_pre;")
	if stage != nil {
		if early {
			g.stageInPlace(k, K, st)
		} else {
			st = g.stageAreas(k, K, stage, "W")
			g.stagePut(k, K, vals, st)
			g.line("barrier(CLK_LOCAL_MEM_FENCE);")
		}
		g.stageCopy(k, st)
		g.line("#undef PAD")
		g.end()
		return
	}
	for q := range K {
		rank := fmt.Sprintf("tile0[PAD(%d * L + lid)]", q)
		if p.KeepWarp {
			g.line("FUT_BALLOT(b, (keep >> %d) & 1);", q)
			rank = fmt.Sprintf("acc0[%d] + tile0[%d * W + w] + popcount(b & ltmask)", q, q)
		}
		g.line("if (keep & %#xu) {", uint32(1)<<q)
		g.indent++
		g.line("long at = pre + (long)(%s);", rank)
		for c, d := range k.Dest {
			g.line("%s", g.put(d.T, at(g.name(d.Name), "at"), vals[q][c]))
		}
		g.indent--
		g.line("}")
	}
	g.line("#undef PAD")
	g.end()
}

// stageSize is the bytes a kept value of type t takes in local memory:
// its local C type's (a bool as a uchar).
func (g *gen) stageSize(t kernel.Type) int {
	switch {
	case t == kernel.Bool:
		return 1
	case g.emu(t):
		return 4
	}
	return t.Size()
}

// stageLayout is where each kept value's staging area starts, in bytes
// per tile element after the ranks' counts (the widest values first,
// so that each area is aligned for its type), or nil where the values
// are not staged (FilterStage off, ranks not by warps, or more than 128
// bytes a work item). It sets p.KeepStage.
func (g *gen) stageLayout(p *Program, k *kernel.Keep, K int) []int {
	if FilterStage == 0 || !p.KeepWarp {
		return nil
	}
	total := 0
	for _, v := range k.Vals {
		total += g.stageSize(v.Type())
	}
	if total*K > 128 {
		return nil
	}
	off := make([]int, len(k.Vals))
	at := 0
	for _, size := range []int{8, 4, 2, 1} {
		for c, v := range k.Vals {
			if g.stageSize(v.Type()) == size {
				off[c] = at
				at += size
			}
		}
	}
	p.KeepStage = total
	return off
}

// KeepLocal is the bytes of tile0 of a compaction's single pass
// (genFilterLookBack) with work groups of L: TileElems(L, KeepK) uints,
// or with staging, the ranks' counts (KeepK·L/32 uints, rounded up to 8
// bytes) and KeepStage bytes for each of the tile's elements, whichever
// is more; for the streamed compaction, the tile of each array.
func (p *Program) KeepLocal(L int) int {
	if p.KeepAsync > 0 {
		return p.KeepAsync * p.KeepK * L * 4
	}
	n := TileElems(L, p.KeepK) * 4
	if p.KeepStage > 0 {
		n = max(n, (p.KeepK*L/32*4+7)&^7+p.KeepK*L*p.KeepStage)
	}
	return n
}

// stageAreas declares the staging areas of a tile's kept values
// (stageLayout gave off; warps the expression of the group's warps) and
// returns their names.
func (g *gen) stageAreas(k *kernel.Keep, K int, off []int, warps string) []string {
	g.line("__local uchar *fut_st = (__local uchar *)tile0 + ((%d * %s * 4 + 7) & ~7);", K, warps)
	st := make([]string, len(k.Vals))
	for c, v := range k.Vals {
		st[c] = g.fresh("st")
		ty := g.stageType(v.Type())
		g.line("__local %s *%s = (__local %s *)(fut_st + %d * %d * L);", ty, st[c], ty, off[c], K)
	}
	return st
}

// stageType is the C type of a kept value of type t in local memory.
func (g *gen) stageType(t kernel.Type) string {
	if t == kernel.Bool {
		return "uchar"
	}
	return g.ctype(t)
}

// stageInPlace emits the compaction of the tile's values staged as read
// (FilterStage 2) within their area: stageRows rows at a time, each
// work item reads its value of each row, and after a barrier writes
// the kept ones at their ranks (below the end of their row, never in a
// row not yet read), a barrier closing each round.
func (g *gen) stageInPlace(k *kernel.Keep, K int, st []string) {
	for q0 := 0; q0 < K; q0 += stageRows {
		q1 := min(q0+stageRows, K)
		held := make([][]string, q1-q0)
		for q := q0; q < q1; q++ {
			held[q-q0] = make([]string, len(k.Vals))
			for c, v := range k.Vals {
				held[q-q0][c] = g.fresh("sv")
				g.line("%s %s = %s[%d * L + lid];", g.stageType(v.Type()), held[q-q0][c], st[c], q)
			}
		}
		g.line("barrier(CLK_LOCAL_MEM_FENCE);")
		for q := q0; q < q1; q++ {
			g.line("FUT_BALLOT(b, (keep >> %d) & 1);", q)
			g.line("if (keep & %#xu) {", uint32(1)<<q)
			g.indent++
			g.line("uint r = acc0[%d] + tile0[%d * W + w] + popcount(b & ltmask);", q, q)
			for c := range k.Vals {
				g.line("%s[r] = %s;", st[c], held[q-q0][c])
			}
			g.indent--
			g.line("}")
		}
		g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	}
}

// stagePut emits the staging of a tile's kept values held in registers
// (vals) into the areas st: each work item puts its kept values at
// their ranks (for stageCopy, after a barrier).
func (g *gen) stagePut(k *kernel.Keep, K int, vals [][]string, st []string) {
	for q := range K {
		g.line("FUT_BALLOT(b, (keep >> %d) & 1);", q)
		g.line("if (keep & %#xu) {", uint32(1)<<q)
		g.indent++
		g.line("uint r = acc0[%d] + tile0[%d * W + w] + popcount(b & ltmask);", q, q)
		for c, v := range k.Vals {
			if v.Type() == kernel.Bool {
				g.line("%s[r] = (uchar)%s;", st[c], vals[q][c])
			} else {
				g.line("%s[r] = %s;", st[c], vals[q][c])
			}
		}
		g.indent--
		g.line("}")
	}
}

// stageCopy emits the copy of a tile's lb_cnt staged values (in the
// areas st) to their destinations from pre on, consecutive work items
// taking consecutive values.
func (g *gen) stageCopy(k *kernel.Keep, st []string) {
	g.line("for (uint i = lid, cnt = lb_cnt; i < cnt; i += L) {")
	g.indent++
	for c, d := range k.Dest {
		v := fmt.Sprintf("%s[i]", st[c])
		if d.T == kernel.Bool {
			v = fmt.Sprintf("(%s[i] != 0)", st[c])
		}
		g.line("%s", g.put(d.T, at(g.name(d.Name), "pre + i"), v))
	}
	g.indent--
	g.line("}")
}

// localRanks emits the ranks of scheme 1: the flags go to local memory
// in the tile's order; each work item counts a contiguous run of K of
// them, a scan of the counts across the group gives each run's first
// rank, and the ranks go back over the run's flags, so that
// tile0[PAD(q·L + lid)] is the rank of element q·L + lid among the
// tile's kept elements. The tile's count is in "agg" of work item 0.
func (g *gen) localRanks(K int) {
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
	g.line("uint agg = acc0[L - 1];")
	// each run's flags become the ranks of their elements (read after
	// the barrier that follows the look-back)
	g.line("uint r = lid > 0 ? acc0[lid - 1] : 0;")
	g.line("for (int q = 0; q < %d; q++) {", K)
	g.line("  uint f = tile0[PAD(lid * %d + q)];", K)
	g.line("  tile0[PAD(lid * %d + q)] = r;", K)
	g.line("  r += f;")
	g.line("}")
}

// warpRanks emits the ranks of scheme 2: warps of 32 work items (W of
// them, w this one's, L a multiple of 32), for each row q of the tile
// (the elements q·L + lid) a ballot of the row's flags; lane 0 puts the
// warp's count at tile0[q·W + w], K work items scan the W counts of a
// row each and put the row's count at acc0[q], and work item 0 scans
// those: the rank of element q·L + lid is then acc0[q] + tile0[q·W + w]
// + the kept elements of lower lanes in the row's ballot. The tile's
// count is in "agg" of work item 0.
func (g *gen) warpRanks(K int) {
	g.line("uint lane = lid & 31, w = lid >> 5, W = L >> 5, ltmask = (1u << lane) - 1, b;")
	if !g.caps.WarpVote {
		g.line("__local uint fut_wb[32];")
	}
	g.line("for (int q = 0; q < %d; q++) {", K)
	g.line("  FUT_BALLOT(b, (keep >> q) & 1);")
	g.line("  if (lane == 0) tile0[q * W + w] = popcount(b);")
	g.line("}")
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.line("if (lid < %d) {", K)
	g.line("  uint r = 0;")
	g.line("  for (uint j = 0; j < W; j++) { uint c = tile0[lid * W + j]; tile0[lid * W + j] = r; r += c; }")
	g.line("  acc0[lid] = r;")
	g.line("}")
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.line("uint agg = 0;")
	g.line("if (lid == 0) {")
	g.line("  for (int q = 0; q < %d; q++) { uint c = acc0[q]; acc0[q] = agg; agg += c; }", K)
	g.line("}")
}

// ballotMacro defines FUT_BALLOT(dst, p): dst gets bit l set where lane
// l of the calling work item's warp (work items 32·w … 32·w+31) has p
// non-zero; every work item of the group must call it together. On an
// NVIDIA GPU (Caps.WarpVote) the vote instruction, as inline PTX;
// elsewhere through local memory and barriers (fut_wb, declared by
// warpRanks), slowly, so that the scheme's logic runs on any device.
func (g *gen) ballotMacro() {
	if g.caps.WarpVote {
		g.line(`#define FUT_BALLOT(dst, p) __asm__ __volatile__("{ .reg .pred %%%%futp; setp.ne.u32 %%%%futp, %%1, 0; vote.sync.ballot.b32 %%0, %%%%futp, 0xffffffff; }" : "=r"(dst) : "r"((uint)(p)))`)
		return
	}
	g.line("#define FUT_BALLOT(dst, p) { barrier(CLK_LOCAL_MEM_FENCE); if (lane == 0) fut_wb[w] = 0; barrier(CLK_LOCAL_MEM_FENCE); if (p) atomic_or(&fut_wb[w], 1u << lane); barrier(CLK_LOCAL_MEM_FENCE); dst = fut_wb[w]; }")
}

// lookBackCount emits, for work item 0, the look-back of a compaction's
// tile whose count is agg (as genScanLookBack's, on uint counts): it
// publishes the tile's count, then its inclusive count once the
// earlier tiles' are known, writes the total count where the tile is
// the last, and leaves the tile's offset in lb_pre.
func (g *gen) lookBackCount(k *kernel.Keep) {
	g.line("uint run = 0;")
	// sw: the group's w is its warp
	g.lookBackWalk("(ulong)agg", "sw", func(low string) { g.line("run += (uint)(%s);", low) })
	g.line("%satom_xchg(&state[grp], (lb_inc << 32) | (ulong)(run + agg));", incGuard())
	g.line("if (grp == groups - 1) %s[0] = (long)(run + agg);", g.name(k.Count.Name))
	g.line("lb_pre = run;")
}

// lookBackWindow emits the look-back of lookBackCount with the whole
// group: while the tile's offset is not known, work items 0 … win-1
// read the words of the win tiles before the last one counted (one
// round trip to memory for all, where one at a time took one each), and
// work item 0 adds their counts from the nearest back, up to the first
// not yet published (read again in the next round) or to the first
// inclusive count. A published word stays valid (an aggregate is final,
// an inclusive count too), so the words read ahead of the one that
// stopped a round are never wrong, only perhaps not yet published.
func (g *gen) lookBackWindow(k *kernel.Keep, win int) {
	g.line("__local ulong lb_w[%d];", win)
	g.line("__local long lb_j;")
	g.line("__local uint lb_run;")
	g.line("__local int lb_done;")
	g.line("if (lid == 0) {")
	g.line("  lb_run = 0; lb_j = grp - 1; lb_done = grp == 0;")
	g.line("  if (grp > 0) atom_xchg(&state[grp], (lb_agg << 32) | (ulong)agg);")
	g.line("}")
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.line("while (!lb_done) {")
	g.indent++
	g.line("long j = lb_j;")
	g.line("if (lid < %d && j - lid >= 0) lb_w[lid] = *(volatile __global ulong *)&state[j - lid];", win)
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.line("if (lid == 0) {")
	g.line("  uint run = lb_run;")
	g.line("  for (long t = 0; t < %d && j - t >= 0; t++) {", win)
	g.line("    ulong sw = lb_w[t], f = sw >> 32;")
	g.line("    if (f != lb_agg && f != lb_inc) break;")
	g.line("    run += (uint)(sw & 0xffffffffUL);")
	g.line("    if (f == lb_inc) { lb_done = 1; break; }")
	g.line("    lb_j = j - t - 1;")
	g.line("  }")
	g.line("  lb_run = run;")
	g.line("}")
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.indent--
	g.line("}")
	g.line("if (lid == 0) {")
	g.line("  uint run = lb_run;")
	g.line("  %satom_xchg(&state[grp], (lb_inc << 32) | (ulong)(run + agg));", incGuard())
	g.line("  if (grp == groups - 1) %s[0] = (long)(run + agg);", g.name(k.Count.Name))
	g.line("  lb_pre = run;")
	g.line("}")
}
