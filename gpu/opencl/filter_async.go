package opencl

import (
	"fmt"
	"os"

	"fut/gpu/kernel"
)

// FilterAsync chooses the streamed compaction (genFilterAsync) for a
// filter whose body reads its arrays only at the element's own index,
// where the device has asynchronous copies (Caps.AsyncCopy) and the
// compaction ranks by warps (FilterPass 2). FUT_FILTER_ASYNC=0 turns it
// off, to compare; FUT_FILTER_ASYNC=2 (for tests) takes it on any
// device that ranks by warps, its copies made by plain loads and stores
// and its look-back by work item 0.
var FilterAsync = envInt("FUT_FILTER_ASYNC", 0, 2, 1)

// FilterAsyncK is the elements each work item of the streamed
// compaction ranks per tile (FUT_FILTER_ASYNC_K, 4 to 32, rounded down
// to a multiple of 4): a tile of K·L elements takes K·L·4 bytes of
// local memory for each array read, and AsyncK takes fewer where the
// arrays' tiles would take more than 40 KiB.
var FilterAsyncK = envInt("FUT_FILTER_ASYNC_K", 4, 32, 24) &^ 3

// FilterAsyncVec (for tests) lets the streamed compaction copy 16
// bytes at a time where its arrays are aligned so; otherwise it copies
// 4, as it does where they are not.
var FilterAsyncVec = true

// FilterAsyncStage makes the streamed compaction write a warp's kept
// values through local memory (asyncStage); FUT_FILTER_ASYNC_STAGE=0
// writes each where it goes instead, to compare.
var FilterAsyncStage = os.Getenv("FUT_FILTER_ASYNC_STAGE") != "0"

// asyncStage says whether the streamed compaction of k (A arrays) puts
// its kept values in local memory before writing them (FilterAsyncStage):
// where each takes 4 bytes there and there are at most A of them, each
// in the place of an array's copy.
func (g *gen) asyncStage(k *kernel.Keep, A int) bool {
	if !FilterAsyncStage || len(k.Dest) > A {
		return false
	}
	for _, d := range k.Dest {
		if g.stageSize(d.T) != 4 {
			return false
		}
	}
	return true
}

// asyncReads are the arrays that the streamed compaction copies into
// local memory for s: every array its body and elements read, each of
// 4-byte elements read only at the element number (vecReads), at most
// 4 of them; nil where the compaction cannot stream (some other read,
// or FilterAsync off).
func (g *gen) asyncReads(s *kernel.Scan) []*kernel.Param {
	if FilterAsync == 0 || g.filterPass() != 2 || !g.caps.AsyncCopy && FilterAsync != 2 {
		return nil
	}
	elems := append([]kernel.Exp{s.Elems[0]}, s.Keep.Vals...)
	bufs := g.vecReads(s.I, s.Body, elems)
	if len(bufs) == 0 || len(bufs) > 4 || bufs[0].T.Size() != 4 {
		return nil
	}
	in := map[*kernel.Param]bool{}
	for _, b := range bufs {
		in[b] = true
	}
	all := true
	see := func(e kernel.Exp) {
		kernel.WalkExp(e, func(e kernel.Exp) {
			if r, ok := e.(kernel.Read); ok && !in[r.Buf] {
				all = false
			}
		})
	}
	kernel.WalkStmts(s.Body, see)
	for _, e := range elems {
		see(e)
	}
	if !all {
		return nil
	}
	return bufs
}

// asyncMacros defines FUT_CP16(dst, src, n) and FUT_CP4(dst, src, n),
// copies of 16 and 4 bytes from global to local memory of which the
// first n come from src and the rest are zeros, FUT_CP_COMMIT() and
// FUT_CP_WAIT() (all copies of this work item committed are done),
// FUT_REDUX_ADD(dst, x), a warp's sum, and FUT_SYNCWARP(), a barrier of
// the warp that orders its accesses to local memory (every work item of
// the group calls those two together): PTX where the device has it
// (Caps.AsyncCopy), plain loads and stores elsewhere, the sum through
// local memory and barriers.
func (g *gen) asyncMacros() {
	if g.caps.AsyncCopy {
		g.line(`#define FUT_CP16(dst, src, n) __asm__ __volatile__("cp.async.cg.shared.global [%%0], [%%1], 16, %%2;" :: "r"((uint)(ulong)(dst)), "l"((ulong)(src)), "r"((uint)(n)) : "memory")`)
		g.line(`#define FUT_CP4(dst, src, n) __asm__ __volatile__("cp.async.ca.shared.global [%%0], [%%1], 4, %%2;" :: "r"((uint)(ulong)(dst)), "l"((ulong)(src)), "r"((uint)(n)) : "memory")`)
		g.line(`#define FUT_CP_COMMIT() __asm__ __volatile__("cp.async.commit_group;" ::: "memory")`)
		g.line(`#define FUT_CP_WAIT() __asm__ __volatile__("cp.async.wait_group 0;" ::: "memory")`)
		g.line(`#define FUT_REDUX_ADD(dst, x) __asm__ __volatile__("redux.sync.add.u32 %%0, %%1, 0xffffffff;" : "=r"(dst) : "r"((uint)(x)))`)
		g.line(`#define FUT_SYNCWARP() __asm__ __volatile__("bar.warp.sync 0xffffffff;" ::: "memory")`)
		return
	}
	g.line("#define FUT_CP16(dst, src, n) { for (int fut_c = 0; fut_c < 4; fut_c++) (dst)[fut_c] = 4 * fut_c < (n) ? (src)[fut_c] : 0; }")
	g.line("#define FUT_CP4(dst, src, n) { *(dst) = (n) > 0 ? *(src) : 0; }")
	g.line("#define FUT_CP_COMMIT()")
	g.line("#define FUT_CP_WAIT()")
	g.line("#define FUT_SYNCWARP() barrier(CLK_LOCAL_MEM_FENCE)")
	g.line("#define FUT_REDUX_ADD(dst, x) { barrier(CLK_LOCAL_MEM_FENCE); if (lane == 0) fut_wb[w] = 0; barrier(CLK_LOCAL_MEM_FENCE); atomic_add(&fut_wb[w], (uint)(x)); barrier(CLK_LOCAL_MEM_FENCE); dst = fut_wb[w]; }")
}

// AsyncK is the elements per work item of a streamed compaction's tile,
// for A arrays: FilterAsyncK, fewer where the tile of groups of 256
// would take more than 40 KiB, a multiple of 4, at least 4.
func AsyncK(A int) int {
	most := (40 << 10) / (A * 256 * 4)
	return max(4, min(FilterAsyncK, most)&^3)
}

// genFilterAsync emits the streamed compaction "_scanlb" (the entry and
// extras of genScanLookBack): one work group per tile of K·L elements,
// numbered in the order groups start (the counter), each copying its
// tile into local memory by asynchronous copies (cp.async: no register
// holds a value on its way, so that 32 registers a work item, 8 groups
// a multiprocessor of an H100, keep as many bytes in flight as the
// groups of genFilterLookBack did with 64). Warp w takes the K·32
// elements from w·K·32 on, in rows of 128: lane l the 4 neighbours
// from 4·l on (one 16-byte read of local memory), their flags, and the
// ranks within the warp from four ballots a row. Staged (asyncStage),
// in one pass, each row's kept values are put at their ranks within
// the warp's part of the tile, in place (a rank is never past its
// element, and a row is read whole before any of its kept values is
// put); then the warps' counts go to local memory, where each adds
// those of the warps before it, warp 0 looks back over the earlier
// tiles 32 at a time (redux.sync adds their counts), and each warp
// copies its kept values out, consecutive lanes taking consecutive
// values. Otherwise the flags are kept as bits, and after the look-back
// each kept element is computed again and written where it goes (a
// row's kept elements are neighbours in the output). Elements are
// computed from the copies in local memory (reads of bufs at the
// element number are hooked to them). Four barriers a tile: after the
// counter, after the copies, after the counts and after the look-back.
// Also measured and not kept (session 20, one H100, examples/bench/
// filter.fut): groups that take tile after tile with the next tiles'
// copies on their way (two to four slots), 1.9–2.5 ms against 0.30:
// a group takes a tile's number well before it ranks it, and a tile's
// look-back then waits on tiles held by groups still busy with earlier
// ones, a chain across groups.
func (g *gen) genFilterAsync(p *Program, s *kernel.Scan, bufs []*kernel.Param) {
	A := len(bufs)
	K := AsyncK(A)
	R := K / 4
	p.KeepK, p.KeepWarp, p.KeepAsync = K, true, A
	p.MaxRegs = 0
	if FilterMaxRegs > 0 {
		p.MaxRegs = FilterMaxRegs
	}
	g.ballotMacro()
	g.asyncMacros()
	k := s.Keep
	g.header(p, "_scanlb", []string{"state", "counter", "local0", "tile0", "groups", "scank", "epoch", "cbase"},
		[]string{"__global ulong *state", "__global uint *counter", "__local uint *acc0", "__local uint *tile0", "long groups", "long sk", "uint epoch", "uint cbase"})
	g.line("uint lid = get_local_id(0), L = get_local_size(0), T = L * %d;", K)
	g.line("ulong lb_agg = (ulong)epoch * 4 + 1, lb_inc = (ulong)epoch * 4 + 2;")
	g.line("uint lane = lid & 31, w = lid >> 5, W = L >> 5, ltmask = (1u << lane) - 1, b;")
	if !g.caps.WarpVote {
		g.line("__local uint fut_wb[32];")
	}
	g.line("__local uint lb_id, lb_wc[32], lb_pre;")
	n := g.long("n", s.N)
	if FilterAsyncVec {
		g.line("bool v16 = %s;", g.aligned16(bufs))
	} else {
		g.line("bool v16 = false;")
	}
	g.line("if (lid == 0) lb_id = atomic_inc(counter) - cbase;")
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	// no test of grp against groups around what follows, which has
	// barriers: the groups launched are the tiles, so each takes one
	// (and PoCL mishandles barriers in a branch)
	g.line("uint grp = lb_id;")
	g.line("long base = (long)grp * T;")
	g.line("uint lim = (uint)min((long)T, %s - base), off = w * %d + 4 * lane;", n, 32*K)
	// the copies: work item lid copies the 16 bytes from 4·(q·L + lid)
	// on, for each q < K/4; array a's copy is at tile0 + a·T
	cs := make([]string, A)
	for a, b := range bufs {
		cs[a] = g.fresh("cs")
		g.line("__local %s *%s = (__local %s *)tile0 + %d * T;", btype(b.T), cs[a], btype(b.T), a)
	}
	g.line("if (v16) {")
	g.indent++
	g.unrollHint(R)
	g.line("for (uint q = 0; q < %d; q++) {", R)
	g.indent++
	g.line("uint o = 4 * (q * L + lid), nb = o + 4 <= lim ? 16 : o < lim ? 4 * (lim - o) : 0;")
	for a, b := range bufs {
		g.line("FUT_CP16(%s + o, %s + (nb > 0 ? base + o : 0), nb);", cs[a], g.name(b.Name))
	}
	g.close()
	g.indent--
	g.line("} else {")
	g.indent++
	g.line("for (uint o = lid; o < T; o += L) {")
	g.indent++
	g.line("uint nb = o < lim ? 4 : 0;")
	for a, b := range bufs {
		g.line("FUT_CP4(%s + o, %s + (nb > 0 ? base + o : 0), nb);", cs[a], g.name(b.Name))
	}
	g.close()
	g.close()
	g.line("FUT_CP_COMMIT();")
	g.line("FUT_CP_WAIT();")
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	// rowVecs loads row r's 4 elements of this work item from each
	// array's copy
	rowVecs := func(r int) map[*kernel.Param]string {
		loaded := map[*kernel.Param]string{}
		for a, b := range bufs {
			v := g.fresh("rv")
			g.line("%s4 %s = ((__local %s4 *)%s)[off / 4 + %d];", btype(b.T), v, btype(b.T), cs[a], 32*r)
			loaded[b] = v
		}
		return loaded
	}
	saved := g.tiles
	// elem emits element (r, j) computed into vars by the body (those of
	// es), from loaded, in the open block where off + 128·r + j < lim
	elem := func(r, j int, loaded map[*kernel.Param]string, es []kernel.Exp) []string {
		g.tiles = g.vecHooks(saved, loaded, j, s.I)
		defer func() { g.tiles = saved }()
		return g.element(s.I, fmt.Sprintf("base + off + %d", 128*r+j), s.Body, es)
	}
	stage := g.asyncStage(k, A)
	// guarded emits a block for each of the row's 4 elements, a whole
	// tile's without a test of the element against the end (those past
	// it, in the last tile, are zeros, on which the body could fail)
	guarded := func(body func(guard bool)) {
		if !g.caps.WarpVote {
			// the ballots and barriers of the emulation are barriers of
			// the group, and PoCL mishandles those in a branch: a test
			// of each element, passed by all in a whole tile
			g.line("bool full = lim == T;")
			body(true)
			return
		}
		g.line("if (lim == T) {")
		g.indent++
		body(false)
		g.indent--
		g.line("} else {")
		g.indent++
		body(true)
		g.close()
	}
	open := func(guard bool, r, j int) {
		switch {
		case guard && !g.caps.WarpVote:
			g.line("if (full || off + %d < lim) {", 128*r+j)
		case guard:
			g.line("if (off + %d < lim) {", 128*r+j)
		default:
			g.line("{")
		}
		g.indent++
	}
	// ballots emits the row's 4 ballots of flags fs and the ranks' start
	// for this work item's first element, at, from run on
	ballots := func(fs []string) []string {
		bs := make([]string, 4)
		for j := range 4 {
			bs[j] = g.fresh("kb")
			g.line("uint %s;", bs[j])
			g.line("FUT_BALLOT(%s, %s);", bs[j], fs[j])
		}
		g.line("uint at = run + popcount(%s & ltmask) + popcount(%s & ltmask) + popcount(%s & ltmask) + popcount(%s & ltmask);", bs[0], bs[1], bs[2], bs[3])
		return bs
	}
	runOn := func(bs []string) {
		g.line("run += popcount(%s) + popcount(%s) + popcount(%s) + popcount(%s);", bs[0], bs[1], bs[2], bs[3])
	}
	if stage {
		// one pass: each row's elements, their flags and ranks within
		// the warp, and the kept values put at those ranks in the
		// warp's part of the tile, in place (a rank is never past its
		// element, and a row is read whole before any of its kept
		// values is put); then the warps' counts, the look-back, and
		// each warp copies its kept values out, consecutive lanes
		// taking consecutive values
		st := make([]string, len(k.Dest))
		for c, d := range k.Dest {
			st[c] = g.fresh("st")
			ty := g.stageType(d.T)
			g.line("__local %s *%s = (__local %s *)tile0 + %d * T + w * %d;", ty, st[c], ty, c, 32*K)
		}
		g.line("uint run = 0;")
		guarded(func(guard bool) {
			for r := range R {
				g.line("{")
				g.indent++
				loaded := rowVecs(r)
				g.line("FUT_SYNCWARP();")
				fs := make([]string, 4)
				vs := make([][]string, 4)
				for j := range 4 {
					fs[j] = g.fresh("kf")
					g.line("uint %s = 0;", fs[j])
					for c, d := range k.Dest {
						vs[j] = append(vs[j], g.fresh("kv"))
						g.line("%s %s = 0;", g.stageType(d.T), vs[j][c])
					}
					open(guard, r, j)
					es := elem(r, j, loaded, append([]kernel.Exp{s.Elems[0]}, k.Vals...))
					g.line("%s = %s != 0;", fs[j], es[0])
					for c := range k.Dest {
						g.line("%s = %s;", vs[j][c], es[1+c])
					}
					g.close()
					g.close()
				}
				bs := ballots(fs)
				for j := range 4 {
					g.line("if (%s) {", fs[j])
					for c := range k.Dest {
						g.line("  %s[at] = %s;", st[c], vs[j][c])
					}
					g.line("  at++;")
					g.line("}")
				}
				runOn(bs)
				g.close()
			}
		})
		g.line("if (lane == 0) lb_wc[w] = run;")
		g.countsAndLookBack(k)
		g.line("FUT_SYNCWARP();")
		g.line("for (uint i = lane; i < run; i += 32) {")
		g.indent++
		g.line("long to = (long)lb_pre + wpre + i;")
		for c, d := range k.Dest {
			g.line("%s", g.put(d.T, at(g.name(d.Name), "to"), st[c]+"[i]"))
		}
		g.close()
	} else {
		// pass 1: the flags, as bits of keep, and the warp's count
		g.line("uint keep = 0;")
		guarded(func(guard bool) {
			for r := range R {
				g.line("{")
				g.indent++
				loaded := rowVecs(r)
				for j := range 4 {
					open(guard, r, j)
					es := elem(r, j, loaded, []kernel.Exp{s.Elems[0]})
					g.line("keep |= (uint)(%s != 0) << %d;", es[0], 4*r+j)
					g.close()
					g.close()
				}
				g.close()
			}
		})
		g.line("uint cnt;")
		g.line("FUT_REDUX_ADD(cnt, popcount(keep));")
		g.line("if (lane == 0) lb_wc[w] = cnt;")
		g.countsAndLookBack(k)
		// pass 2: the kept elements, written at their ranks
		g.line("uint run = lb_pre + wpre;")
		for r := range R {
			g.line("{")
			g.indent++
			fs := make([]string, 4)
			for j := range 4 {
				fs[j] = fmt.Sprintf("(keep >> %d) & 1", 4*r+j)
			}
			bs := ballots(fs)
			g.line("if ((keep >> %d) & 15) {", 4*r)
			g.indent++
			loaded := rowVecs(r)
			for j := range 4 {
				g.line("if ((keep >> %d) & 1) {", 4*r+j)
				g.indent++
				es := elem(r, j, loaded, k.Vals)
				for c, d := range k.Dest {
					g.line("%s", g.put(d.T, at(g.name(d.Name), "(long)at"), es[c]))
				}
				g.line("at++;")
				g.close()
				g.close()
			}
			g.close()
			runOn(bs)
			g.close()
		}
	}
	g.end()
}

// countsAndLookBack emits, once each warp's count is in lb_wc, the
// barrier after which each work item adds those of the warps before its
// own (wpre) and all (agg, the tile's count), the look-back (by warp 0
// where the device has the PTX for it, else by work item 0), which
// leaves the tile's offset in lb_pre, and the barrier after it.
func (g *gen) countsAndLookBack(k *kernel.Keep) {
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.line("uint wpre = 0, agg = 0;")
	g.line("for (uint j = 0; j < W; j++) { uint c = lb_wc[j]; wpre += j < w ? c : 0; agg += c; }")
	if g.caps.AsyncCopy {
		g.lookBackWarp(k)
	} else {
		g.line("if (lid == 0) {")
		g.indent++
		g.lookBackCount(k)
		g.close()
	}
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
}

// lookBackWarp emits the look-back of a streamed compaction's tile grp
// (count agg) by warp 0: lane 0 publishes the count; then, while the
// offset is not known, lane l reads the word of tile j − l (j the
// nearest tile not yet counted), the lanes up to the first that is not
// yet published or is inclusive are summed (redux.sync), and j moves
// back past those aggregates, until an inclusive count is taken. Lane 0
// publishes the tile's inclusive count and leaves the offset in lb_pre.
func (g *gen) lookBackWarp(k *kernel.Keep) {
	g.line("if (w == 0) {")
	g.indent++
	g.line("if (lane == 0 && grp > 0) atom_xchg(&state[grp], (lb_agg << 32) | (ulong)agg);")
	g.line("uint run = 0;")
	g.line("for (long j = (long)grp - 1; j >= 0;) {")
	g.indent++
	// a tile before the first reads as an inclusive 0 (tile 0's word
	// is inclusive, so the walk stops there anyway)
	g.line("ulong sw = j - (long)lane >= 0 ? *(volatile __global ulong *)&state[j - lane] : lb_inc << 32, f = sw >> 32;")
	g.line("uint inc = f == lb_inc, stop, incs, tot;")
	g.line("FUT_BALLOT(stop, inc || f != lb_agg);")
	g.line("FUT_BALLOT(incs, inc);")
	g.line("uint m = stop ? popcount((stop & (0u - stop)) - 1) : 32;")
	g.line("FUT_REDUX_ADD(tot, lane < m || (lane == m && inc) ? (uint)sw : 0u);")
	g.line("run += tot;")
	g.line("if (m < 32 && ((incs >> m) & 1)) break;")
	g.line("j -= m;")
	g.close()
	g.line("if (lane == 0) {")
	g.indent++
	g.line("%satom_xchg(&state[grp], (lb_inc << 32) | (ulong)(run + agg));", incGuard())
	g.line("if (grp == groups - 1) %s[0] = (long)(run + agg);", g.name(k.Count.Name))
	g.line("lb_pre = run;")
	g.close()
	g.close()
}
