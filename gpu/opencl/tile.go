package opencl

import (
	"fmt"

	"fut/gpu/kernel"
)

// Block and register tiling of a Tiled kernel (a map over one or two
// dimensions of in-order folds over T < K).
//
// The sizes below (threads, points a thread, the step of T, the group of
// one dimension) are a TileConfig (tile_config.go): the defaults are
// TileThreads, defaultReg, TileK and TileGroup, and the runtime may
// choose others by measuring TileCandidates on the device.
//
// Two dimensions: a work-group of TT×TT threads computes a block of
// points, each thread RY×RX of them: along each dimension runs of V
// neighbours (tileVec), TT·V apart, so that neighbouring threads write
// neighbouring outputs. T runs in steps of tk: for each tiled buffer
// indexed by a point's coordinate the group holds a block×tk tile (its
// rows the block's rows or columns) in local memory, stored by step (a
// row of the block's points for each element of the step, padded by V),
// and for a buffer indexed by T alone its tk elements. Each thread reads the step after the one it folds
// from global memory into registers, coalesced along the buffer's
// contiguous dimension, so that those reads are in flight while it
// folds; then it writes them into local memory between the barriers of
// two steps. Every thread folds the step's TileK elements of each of its
// points, reading for each element the tile values of its points with
// one 16-byte load per V of them (without checks and with a constant
// trip count where the block and the step are whole). On an H100 a
// 4096² f32 product took 5.75 ms of kernel time with points TileThreads
// apart and the loads at the start of each step, and 4.73 ms so; with
// two halves of local memory (one barrier a step) 5.39 ms, with steps of
// 32 5.33 ms.
//
// One dimension: a work-group of G threads stages the buffers indexed
// by T alone, G elements at a time (the all-pairs pattern
// of n-body); reads indexed by the point are the thread's own and stay in
// global memory. The launch chooses nsplit (a power of two up to 32, the
// kernel's last argument): with fewer points than the device runs threads
// at once, nsplit threads share a point, each folding one of nsplit
// consecutive ranges of T (the group: P = G/nsplit points, each range
// staging E = P·M of its elements a step, M = tileStepM where P is
// below tileStep1, else 1, or the TileConfig's), and the first folds the others' results
// into its own in the ranges' order, so a reduction needs only to be
// associative, as the source's requires. (n-body 2^15 on an H100: 1.52
// ms of kernel time with E = P, 1.47 with 64 elements between barriers
// at nsplit 8.)
//
// Every fold runs in the order of T (within a range), as the source's
// reduction would run sequentially; points outside Dims take part in the
// loads and barriers only.
//
// These are the defaults (DefaultTile); a kernel's sizes are a
// TileConfig (tile_config.go), which the runtime may choose by
// measurement. TileBlock and TileK are the smallest block and step of
// the defaults, on which the flattener's rule for tiling rests.
const (
	TileThreads = 16
	TileReg     = 4 // at least; see defaultReg
	TileBlock   = TileThreads * TileReg
	TileK       = 16
	TileGroup   = 256 // threads of a work-group of a tiled kernel
)

// tileShape is a kernel's TileConfig as the generator uses it.
type tileShape struct {
	G   int    // work items of a group
	TT  int    // two dimensions: threads along each dimension
	R   [2]int // two dimensions: points of a thread along each
	V   [2]int // runs of neighbouring points (tileVec)
	blk [2]int // two dimensions: points of a block along each
	tk  int    // elements of T a step (one dimension: G, the most)
	M   int    // one dimension: elements a thread stages a step (0: the rule)
}

func newTileShape(c TileConfig, two bool) tileShape {
	if !two {
		return tileShape{G: c.Threads, TT: c.Threads, R: [2]int{1, 1}, V: [2]int{1, 1}, blk: [2]int{c.Threads, 1}, tk: c.Threads, M: c.Step}
	}
	s := tileShape{G: c.Group(), TT: c.Threads, R: [2]int{c.RegY, c.RegX}, tk: c.Step}
	for d := range 2 {
		s.V[d] = tileVec(two, s.R[d])
		s.blk[d] = c.Block(d)
	}
	return s
}

// S is the padded row of a step's tile of a buffer read along dim.
func (s *tileShape) S(dim int) int { return s.blk[dim] + s.V[dim] }

// tileRole is how Body reads a tiled buffer: indexed by T alone (dim
// -1), or by Idx[dim] and T, with T last (kLast) or first.
type tileRole struct {
	dim   int
	kLast bool
	local string // the local memory array
	reg   string // two dimensions: the step's values of the thread's points
	// two dimensions, where each of the thread's loads of a step keeps
	// its place in the tile from step to step (tileLanes): the thread's
	// first element of the step at 0 (ptr), the distance in the buffer
	// between its loads (stride), where it stores the first in local
	// memory (slot), its first load's row of the block and element of
	// the step (lo, lk), and the distances between its loads along the
	// block's dimension (rows, kLast) or T (cols), and in local memory
	// (sstep)
	ptr, stride, slot, lo, lk string
	rows, cols, sstep         int
}

// laneIn is the C condition that load q of r's lane in the step at t0
// lies inside the buffer.
func laneIn(r *tileRole, q, t0, extent, K string) string {
	return fmt.Sprintf("b%d + %s + %d * %s < %s && %s + %s + %d * %s < %s", r.dim, r.lo, r.rows, q, extent, t0, r.lk, r.cols, q, K)
}

// tileRoles finds each tiled buffer's role from Body's reads, or fails.
func (g *gen) tileRoles(t *kernel.Tiled) map[*kernel.Param]*tileRole {
	roles := map[*kernel.Param]*tileRole{}
	for _, p := range t.Tiles {
		roles[p] = nil
	}
	var visit func(e kernel.Exp)
	visit = func(e kernel.Exp) {
		kernel.WalkExp(e, func(x kernel.Exp) {
			r, ok := x.(kernel.Read)
			if !ok {
				return
			}
			if _, tiled := roles[r.Buf]; !tiled {
				return
			}
			dim, kLast, ok := kernel.TileForm(r, t.Idx, t.T)
			if !ok {
				return // read from global memory
			}
			if old := roles[r.Buf]; old != nil && (old.dim != dim || old.kLast != kLast) {
				g.fail("reads of the tiled buffer %s of different forms", r.Buf.Name)
				return
			}
			roles[r.Buf] = &tileRole{dim: dim, kLast: kLast}
		})
	}
	kernel.WalkStmts(t.Body, visit)
	for _, e := range t.Elems {
		visit(e)
	}
	for p, r := range roles {
		if r == nil {
			g.fail("the tiled buffer %s is not read", p.Name)
		} else if r.dim >= 0 && len(t.Dims) == 1 {
			g.fail("the tiled buffer %s is read by the point: nothing to share in one dimension", p.Name)
		}
	}
	return roles
}

func (g *gen) genTiled(p *Program, t *kernel.Tiled) {
	var ts []kernel.Type
	if t.PostRes != nil {
		ts = g.checkOp(t.Op, t.Elems, t.Neutral, nil)
		if len(t.Out) != len(t.PostRes) {
			g.fail("%d outputs for %d results", len(t.Out), len(t.PostRes))
		}
		for k, r := range t.PostRes {
			if k < len(t.Out) && (t.Out[k].T != r.Type() || !t.Out[k].Buffer) {
				g.fail("result %d: no output buffer of %v", k, r.Type())
			}
		}
	} else {
		ts = g.checkOp(t.Op, t.Elems, t.Neutral, t.Out)
	}
	roles := g.tileRoles(t)
	two := len(t.Dims) == 2
	tc := resolveTile(t, g.tile)
	if !tc.Fits(t) {
		g.fail("tile sizes %s are not of a kernel of %d dimensions", tc, len(t.Dims))
	}
	if g.err != nil {
		return
	}
	p.Tile = tc
	sh := newTileShape(tc, two)
	g.tsh = &sh
	G := sh.G
	extra, decls := []string{"nsplit"}, []string{"int nsplit"}
	if two {
		extra, decls = []string{"nbj"}, []string{"long nbj"}
	}
	g.b.WriteString(fmt.Sprintf("__attribute__((reqd_work_group_size(%d, 1, 1)))\n", G))
	g.header(p, "_tiled", extra, decls)
	dims := make([]string, len(t.Dims))
	for i, d := range t.Dims {
		dims[i] = g.long("d", d)
	}
	K := g.long("k", t.K)
	g.line("int lid = get_local_id(0); long grp = get_group_id(0);")
	mMax := tileStepM // one dimension: the most elements a thread stages
	if two {
		g.line("int lx = lid %% %d, ly = lid / %d;", sh.TT, sh.TT)
		g.line("long b0 = (grp / nbj) * %d, b1 = (grp %% nbj) * %d;", sh.blk[0], sh.blk[1])
	} else {
		// nsplit threads share a point, each folding one of nsplit
		// consecutive ranges [k0, k1) of T (split sp; the point's lp)
		// a step stages E = M·P elements of each range, M ≥ 1 of them
		// per thread, so that a range of many splits still folds 64 or
		// more elements between barriers (or M = sh.M where given)
		m := fmt.Sprintf("nsplit > %d ? %d : 1", max(1, G/tileStep1), tileStepM)
		if sh.M > 0 {
			m, mMax = fmt.Sprint(sh.M), sh.M
		}
		g.line("int P = %d / nsplit, sp = lid / P, lp = lid %% P, M = %s, E = P * M;", G, m)
		g.line("long b0 = grp * P;")
		g.line("long ks = (%s + nsplit - 1) / nsplit, k0 = sp * ks, k1 = min(%s, k0 + ks);", K, K)
	}
	// local memory: one array per tiled buffer, in the order of Tiles;
	// in two dimensions a block×tk tile is stored by step, tk rows of
	// the block's points padded to S (see tileVec)
	for _, buf := range t.Tiles {
		r := roles[buf]
		r.local = g.fresh("tile")
		size := sh.tk
		if !two {
			size = G * mMax
		}
		if r.dim >= 0 {
			size = sh.tk * sh.S(r.dim)
		}
		p.TileLocal += size * buf.T.Size()
		g.line("__local %s %s[%d] __attribute__((aligned(16)));", btype(buf.T), r.local, size)
	}
	// accumulators: component k of point (ry, rx)
	acc := make([]string, len(ts))
	nes := make([]string, len(ts))
	for k, e := range t.Neutral {
		nes[k] = g.exp(e)
	}
	// the splits' results, combined in their order (one dimension)
	part := make([]string, len(ts))
	if !two {
		for k, ty := range ts {
			part[k] = g.fresh("part")
			ct := g.ctype(ty)
			if ty == kernel.Bool {
				ct = "uchar"
			}
			p.TileLocal += G * max(1, ty.Size())
			g.line("__local %s %s[%d];", ct, part[k], G)
		}
	}
	g.flushPre()
	RY, RX := sh.R[0], sh.R[1]
	for k, ty := range ts {
		acc[k] = g.fresh("acc")
		g.line("%s %s[%d][%d];", g.ctype(ty), acc[k], RY, RX)
		g.line("for (int ry = 0; ry < %d; ry++) for (int rx = 0; rx < %d; rx++) %s[ry][rx] = %s;", RY, RX, acc[k], nes[k])
	}
	var pre map[*kernel.Param]string
	if two {
		// the step's elements of each tile are read from global memory
		// into registers a step ahead (the first before the loop), so
		// that the reads of step t0 + tk are in flight while step t0 is
		// folded
		pre = map[*kernel.Param]string{}
		for _, buf := range t.Tiles {
			pre[buf] = g.fresh("pre")
			g.line("%s %s[%d];", btype(buf.T), pre[buf], (sh.tileSize(roles[buf])+G-1)/G)
		}
		g.tileLanes(t, roles, dims, K)
		g.tileFetch(t, roles, pre, dims, K, "0")
		g.line("for (long t0 = 0; t0 < %s; t0 += %d) {", K, sh.tk)
		g.indent++
		g.tileStore(t, roles, pre)
		g.line("barrier(CLK_LOCAL_MEM_FENCE);")
		g.line("if (t0 + %d < %s) {", sh.tk, K)
		g.indent++
		g.tileFetch(t, roles, pre, dims, K, fmt.Sprintf("t0 + %d", sh.tk))
		g.indent--
		g.line("}")
	} else {
		g.line("for (long t0 = 0; t0 < ks; t0 += E) {")
		g.indent++
		g.line("for (int j = 0; j < M; j++) {")
		g.indent++
		g.line("long kk = k0 + t0 + lp + j * P;")
		for _, buf := range t.Tiles {
			g.line("%s[sp * E + lp + j * P] = (kk < k1) ? %s[kk] : 0;", roles[buf].local, g.name(buf.Name))
		}
		g.indent--
		g.line("}")
		g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	}
	saved := g.tiles
	g.tiles = map[*kernel.Param]func(kernel.Read) (string, bool){}
	for buf, r := range roles {
		r := r
		g.tiles[buf] = func(rd kernel.Read) (string, bool) {
			if _, _, ok := kernel.TileForm(rd, t.Idx, t.T); !ok {
				return "", false
			}
			switch {
			case !two:
				return fmt.Sprintf("%s[sp * E + tt]", r.local), true
			case r.dim < 0:
				return fmt.Sprintf("%s[tt]", r.local), true
			case r.dim == 0:
				return fmt.Sprintf("%s[ry]", r.reg), true
			}
			return fmt.Sprintf("%s[rx]", r.reg), true
		}
	}
	// a step's tile values of the thread's points, read from local
	// memory before its points are folded, V at a time
	var regs func()
	if two {
		regs = func() {
			for _, buf := range t.Tiles {
				r := roles[buf]
				if r.dim < 0 {
					continue
				}
				R, V, S := sh.R[r.dim], sh.V[r.dim], sh.S(r.dim)
				r.reg = g.fresh("treg")
				bt := btype(buf.T)
				g.line("%s %s[%d];", bt, r.reg, R)
				l := "lx"
				if r.dim == 0 {
					l = "ly"
				}
				w := 1
				if V > 1 && (buf.T.Size() == 4 || buf.T.Size() == 8) {
					w = 16 / buf.T.Size() // one 16-byte load
				}
				for q := 0; q < R; q += w {
					at := fmt.Sprintf("%s[tt * %d + %s * %d + %d]", r.local, S, l, V, (q/V)*sh.TT*V+q%V)
					if w == 1 {
						g.line("%s[%d] = %s;", r.reg, q, at)
						continue
					}
					v := g.fresh("tv")
					g.line("%s%d %s = *(__local const %s%d *)&%s;", bt, w, v, bt, w, at)
					for c := 0; c < w; c++ {
						g.line("%s[%d] = %s.s%d;", r.reg, q+c, v, c)
					}
				}
			}
		}
	}
	// a block wholly inside Dims and a whole step of T: no checks, a
	// constant trip count (the compiler unrolls and keeps the tile
	// values in registers); otherwise each point is checked
	if two {
		g.line("if (b0 + %d <= %s && b1 + %d <= %s && t0 + %d <= %s) {", sh.blk[0], dims[0], sh.blk[1], dims[1], sh.tk, K)
	} else {
		g.line("if (b0 + P <= %s && k0 + t0 + E <= k1) {", dims[0])
	}
	g.indent++
	if two {
		// unrolled, a step's loads from local memory for one element
		// overlap the folds of the one before (H100, matmul 4096² f32:
		// 4.74 ms rolled, 4.47 unrolled by 4, 4.13 whole); only a small
		// fold, as a product's sum is: the unrolled step holds RY·RX·tk
		// copies of the fold, which a large one makes slow to compile
		// (PoCL)
		if foldSize(t) <= unrollFold {
			g.line("#pragma unroll")
		}
		g.foldStep(t, ts, acc, dims, two, fmt.Sprint(sh.tk), false, regs)
	} else {
		g.line("#pragma unroll 8")
		g.foldStep(t, ts, acc, dims, two, "E", false, nil)
	}
	g.indent--
	g.line("} else {")
	g.indent++
	if two {
		g.line("int tn = (int)min((long)%d, %s - t0);", sh.tk, K)
	} else {
		g.line("int tn = (int)min((long)E, k1 - k0 - t0);")
	}
	g.foldStep(t, ts, acc, dims, two, "tn", true, regs)
	g.indent--
	g.line("}")
	g.tiles = saved
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.indent--
	g.line("}")
	if !two {
		// the first split of a point folds the others' results into its
		// own, in order (through local memory also its own: PoCL loses a
		// private array across this barrier)
		for k := range ts {
			g.line("%s[lid] = %s[0][0];", part[k], acc[k])
		}
		g.line("barrier(CLK_LOCAL_MEM_FENCE);")
		g.line("if (sp == 0) {")
		g.indent++
		for k := range ts {
			g.line("%s[0][0] = %s[lp];", acc[k], part[k])
		}
		g.line("for (int q = 1; q < nsplit; q++) {")
		g.indent++
		cur := make([]string, len(ts))
		others := make([]string, len(ts))
		for k := range ts {
			cur[k] = fmt.Sprintf("%s[0][0]", acc[k])
			others[k] = fmt.Sprintf("%s[q * P + lp]", part[k])
		}
		g.applyOp(t.Op, cur, cur, others)
		g.indent--
		g.line("}")
		g.indent--
		g.line("}")
	}
	// the results
	g.line("for (int ry = 0; ry < %d; ry++) {", RY)
	g.line("for (int rx = 0; rx < %d; rx++) {", RX)
	g.indent++
	point := g.pointVars(t, dims, two)
	if !two {
		point = "sp == 0 && " + point
	}
	g.line("if (%s) {", point)
	g.indent++
	flat := g.name(t.Idx[0].Name)
	if two {
		flat = fmt.Sprintf("%s * %s + %s", g.name(t.Idx[0].Name), dims[1], g.name(t.Idx[1].Name))
	}
	if t.PostRes == nil {
		for k, ty := range ts {
			g.line("%s", g.put(ty, at(g.name(t.Out[k].Name), flat), fmt.Sprintf("%s[ry][rx]", acc[k])))
		}
	} else {
		for k, x := range t.PostIn {
			g.line("%s %s = %s[ry][rx];", g.ctype(x.T), g.name(x.Name), acc[k])
		}
		g.stmts(t.Post)
		rs := make([]string, len(t.PostRes))
		for k, r := range t.PostRes {
			rs[k] = g.exp(r)
		}
		g.flushPre()
		for k, r := range t.PostRes {
			g.line("%s", g.put(r.Type(), at(g.name(t.Out[k].Name), flat), rs[k]))
		}
	}
	g.indent--
	g.line("}")
	g.indent--
	g.line("}")
	g.line("}")
	g.end()
}

// foldStep emits the fold of one step of T (tt < tn) into the
// accumulators of the thread's points, checking that each lies inside
// Dims when guarded.
func (g *gen) foldStep(t *kernel.Tiled, ts []kernel.Type, acc, dims []string, two bool, tn string, guarded bool, regs func()) {
	g.line("for (int tt = 0; tt < %s; tt++) {", tn)
	g.indent++
	if contractible(t, ts) {
		g.line("#pragma OPENCL FP_CONTRACT ON")
	}
	if regs != nil {
		regs()
	}
	g.line("for (int ry = 0; ry < %d; ry++) {", g.tsh.R[0])
	g.line("for (int rx = 0; rx < %d; rx++) {", g.tsh.R[1])
	g.indent++
	point := g.pointVars(t, dims, two)
	if guarded {
		g.line("if (%s) {", point)
	} else {
		g.line("{")
	}
	g.indent++
	if two {
		g.line("long %s = t0 + tt;", g.name(t.T.Name))
	} else {
		g.line("long %s = k0 + t0 + tt;", g.name(t.T.Name))
	}
	g.stmts(t.Body)
	es := g.declare("e", ts, t.Elems)
	cur := make([]string, len(ts))
	for k := range ts {
		cur[k] = fmt.Sprintf("%s[ry][rx]", acc[k])
	}
	g.applyOp(t.Op, cur, cur, es)
	g.indent--
	g.line("}")
	g.indent--
	g.line("}")
	g.line("}")
	g.indent--
	g.line("}")
}

// pointVars declares the point (ry, rx) of the thread and returns the
// condition that it lies inside Dims. In two dimensions the thread's
// points along each are runs of V neighbours, TT·V apart.
func (g *gen) pointVars(t *kernel.Tiled, dims []string, two bool) string {
	i := g.name(t.Idx[0].Name)
	if !two {
		g.line("long %s = b0 + lp;", i)
		return fmt.Sprintf("%s < %s", i, dims[0])
	}
	j := g.name(t.Idx[1].Name)
	TT, V0, V1 := g.tsh.TT, g.tsh.V[0], g.tsh.V[1]
	g.line("long %s = b0 + ly * %d + ry %% %d + (ry / %d) * %d, %s = b1 + lx * %d + rx %% %d + (rx / %d) * %d;",
		i, V0, V0, V0, TT*V0, j, V1, V1, V1, TT*V1)
	return fmt.Sprintf("%s < %s && %s < %s", i, dims[0], j, dims[1])
}

// tileVec is V, the neighbouring points a thread computes along a
// dimension of a two-dimensional tiled kernel: 4 where its R points
// along it are a multiple of 4, so that a step reads the tile values of
// four points with one 16-byte load from local memory (an 8×8 thread's
// step reads 4 loads for 64 folds, not 16); else 1 (points TT apart).
func tileVec(two bool, R int) int {
	if two && R%4 == 0 {
		return 4
	}
	return 1
}

// A one-dimensional tiled kernel of nsplit > G/tileStep1 splits
// stages tileStepM·G/nsplit elements of each range a step, not
// G/nsplit (64 between barriers at nsplit 8 of 256, not 32), unless its
// TileConfig says how many.
const (
	tileStep1 = 64
	tileStepM = 2
)

// unrollFold is the most statements a fold of a two-dimensional tiled
// kernel has for its steps to be unrolled (a matrix product's has 4).
const unrollFold = 8

// foldSize is the statements of t's fold: its body's and its operator's,
// nested ones counted.
func foldSize(t *kernel.Tiled) int {
	n := 0
	for _, ss := range [][]kernel.Stmt{t.Body, t.Op.Body} {
		n += countStmts(ss)
	}
	return n
}

func countStmts(ss []kernel.Stmt) int {
	n := len(ss)
	for _, s := range ss {
		switch s := s.(type) {
		case *kernel.If:
			n += countStmts(s.Then) + countStmts(s.Else)
		case *kernel.Loop:
			n += countStmts(s.Body)
		}
	}
	return n
}

// tileStore writes the registers pre of each tiled buffer into its
// local memory: a step of T by row, each of the blk points of the block
// padded to S.
func (g *gen) tileStore(t *kernel.Tiled, roles map[*kernel.Param]*tileRole, pre map[*kernel.Param]string) {
	sh := g.tsh
	G, tk := sh.G, sh.tk
	for _, buf := range t.Tiles {
		r := roles[buf]
		n := sh.tileSize(r)
		if r.ptr != "" {
			g.line("for (int q = 0; q < %d; q++) %s[q * %d] = %s[q];", n/G, r.slot, r.sstep, pre[buf])
			continue
		}
		g.line("for (int q = 0; q < %d; q++) {", (n+G-1)/G)
		g.indent++
		g.line("int e = lid + q * %d;", G)
		switch {
		case r.dim < 0:
			g.line("if (e < %d) %s[e] = %s[q];", n, r.local, pre[buf])
		case r.kLast:
			g.line("if (e < %d) %s[(e %% %d) * %d + e / %d] = %s[q];", n, r.local, tk, sh.S(r.dim), tk, pre[buf])
		default:
			blk := sh.blk[r.dim]
			g.line("if (e < %d) %s[(e / %d) * %d + e %% %d] = %s[q];", n, r.local, blk, sh.S(r.dim), blk, pre[buf])
		}
		g.indent--
		g.line("}")
	}
}

// tileSize is the elements of a step's tile of a buffer in r's role.
func (sh *tileShape) tileSize(r *tileRole) int {
	if r.dim < 0 {
		return sh.tk
	}
	return sh.blk[r.dim] * sh.tk
}

// tileFetch reads the step at t0 (a C expression) of each tiled buffer
// from global memory into its registers pre: element e = lid + q·G of
// the step's tile into pre[q], coalesced along the buffer's contiguous
// dimension, 0 outside the buffer.
func (g *gen) tileFetch(t *kernel.Tiled, roles map[*kernel.Param]*tileRole, pre map[*kernel.Param]string, dims []string, K string, t0 string) {
	// a whole step of a block inside Dims: the loads of lanes unchecked
	lanes := false
	for _, buf := range t.Tiles {
		lanes = lanes || roles[buf].ptr != ""
	}
	if lanes {
		g.line("if (tin && %s + %d <= %s) {", t0, g.tsh.tk, K)
		g.indent++
		g.tileFetchBy(t, roles, pre, dims, K, t0, true)
		g.indent--
		g.line("} else {")
		g.indent++
	}
	g.tileFetchBy(t, roles, pre, dims, K, t0, false)
	if lanes {
		g.indent--
		g.line("}")
	}
}

// tileLanes sets the lanes of the tiled buffers whose loads keep their
// places in the tile from step to step, and declares them: where a
// work-group's loads of a step cover whole rows of the tile (kLast: G a
// multiple of tk; else of the block's points along the buffer's
// dimension) and the tile is a whole number of such loads. A load is
// then a pointer plus a constant distance per q plus the step's, not an
// element number taken apart by division and remainder each step: on an
// H100, fut bench's 4096² f32 product took 3.35 ms of kernel time
// against 4.13 (cuBLAS 2.70 in the same lease). Capping its registers at
// 128 (FUT_CL_OPTIONS= -cl-nv-maxrregcount=128) changed nothing.
func (g *gen) tileLanes(t *kernel.Tiled, roles map[*kernel.Param]*tileRole, dims []string, K string) {
	sh := g.tsh
	G, tk := sh.G, sh.tk
	for _, buf := range t.Tiles {
		r := roles[buf]
		if r.dim < 0 {
			continue
		}
		blk := sh.blk[r.dim]
		n := sh.tileSize(r)
		if n%G != 0 || (r.kLast && G%tk != 0) || (!r.kLast && G%blk != 0) {
			continue
		}
		bn, bt := g.name(buf.Name), btype(buf.T)
		r.lo, r.lk = g.fresh("lo"), g.fresh("lk")
		o, c := r.lo, r.lk
		extent := dims[r.dim]
		r.ptr, r.stride, r.slot = g.fresh("lp"), g.fresh("ls"), g.fresh("lt")
		if r.kLast { // buf[o][k]: G/tk rows of the block a load
			r.rows, r.cols = G/tk, 0
			r.sstep = r.rows
			g.line("int %s = lid / %d, %s = lid %% %d;", o, tk, c, tk)
			g.line("__global const %s *%s = %s + (b%d + %s) * %s + %s;", bt, r.ptr, bn, r.dim, o, K, c)
			g.line("long %s = %d * %s;", r.stride, r.rows, K)
		} else { // buf[k][o]: G/blk steps of T a load
			r.rows, r.cols = 0, G/blk
			r.sstep = r.cols * sh.S(r.dim)
			g.line("int %s = lid %% %d, %s = lid / %d;", o, blk, c, blk)
			g.line("__global const %s *%s = %s + %s * %s + b%d + %s;", bt, r.ptr, bn, c, extent, r.dim, o)
			g.line("long %s = %d * %s;", r.stride, r.cols, extent)
		}
		g.line("__local %s *%s = &%s[%s * %d + %s];", bt, r.slot, r.local, c, sh.S(r.dim), o)
	}
	g.line("bool tin = b0 + %d <= %s && b1 + %d <= %s;", sh.blk[0], dims[0], sh.blk[1], dims[1])
}

// tileFetchBy is tileFetch's loads: of the lanes unchecked (whole) or
// checked, and of the other buffers as their elements e.
func (g *gen) tileFetchBy(t *kernel.Tiled, roles map[*kernel.Param]*tileRole, pre map[*kernel.Param]string, dims []string, K string, t0 string, whole bool) {
	sh := g.tsh
	G, tk := sh.G, sh.tk
	for _, buf := range t.Tiles {
		r := roles[buf]
		if r.ptr != "" {
			// the step's place in the buffer: t0 elements along a row
			// (kLast), or t0 rows
			at := t0
			if !r.kLast {
				at = fmt.Sprintf("(%s) * %s", t0, dims[r.dim])
			}
			src := fmt.Sprintf("%s[q * %s + %s]", r.ptr, r.stride, at)
			n := sh.tileSize(r) / G
			if whole {
				g.line("for (int q = 0; q < %d; q++) %s[q] = %s;", n, pre[buf], src)
			} else {
				g.line("for (int q = 0; q < %d; q++) %s[q] = (%s) ? %s : 0;", n, pre[buf], laneIn(r, "q", t0, dims[r.dim], K), src)
			}
			continue
		}
		bn := g.name(buf.Name)
		n := sh.tileSize(r)
		g.line("for (int q = 0; q < %d; q++) {", (n+G-1)/G)
		g.indent++
		g.line("int e = lid + q * %d;", G)
		if r.dim < 0 {
			g.line("long kk = %s + e;", t0)
			g.line("%s[q] = (e < %d && kk < %s) ? %s[kk] : 0;", pre[buf], n, K, bn)
			g.indent--
			g.line("}")
			continue
		}
		blk := sh.blk[r.dim]
		if r.kLast { // buf[o][k]: consecutive threads along k
			g.line("int c = e %% %d, rr = e / %d;", tk, tk)
		} else { // buf[k][o]: consecutive threads along o
			g.line("int rr = e %% %d, c = e / %d;", blk, blk)
		}
		extent := dims[r.dim]
		g.line("long o = b%d + rr, kk = %s + c;", r.dim, t0)
		src := fmt.Sprintf("%s[o * %s + kk]", bn, K)
		if !r.kLast {
			src = fmt.Sprintf("%s[kk * %s + o]", bn, extent)
		}
		g.line("%s[q] = (e < %d && o < %s && kk < %s) ? %s : 0;", pre[buf], n, extent, K, src)
		g.indent--
		g.line("}")
	}
}

// contractible reports whether a tiled kernel's fold may contract a*b+c
// into one rounding (FP_CONTRACT ON in the fold's loop; the rest of the
// program keeps contraction off, so that it rounds as the reference
// evaluator does): where the fold's components are all f32 or f64 and
// no float in the fold or in Post flows into anything but floats by a
// continuous operation (no comparison, conversion to an integer,
// rounding function, sign, remainder or floor division of floats). The
// results then differ from the reference only by rounding, within the
// tolerance floats are compared with, and no integer, bool or branch
// depends on a contracted value. A matrix product's fold of products is
// such a fold: contracted, a 4096² f32 product took 5.79 ms against
// 7.93 ms on an H100.
func contractible(t *kernel.Tiled, ts []kernel.Type) bool {
	for _, ty := range ts {
		if ty != kernel.F32 && ty != kernel.F64 {
			return false
		}
	}
	ok := true
	visit := func(e kernel.Exp) {
		kernel.WalkExp(e, func(x kernel.Exp) {
			switch x := x.(type) {
			case kernel.BinOp:
				if !x.X.Type().IsFloat() {
					return
				}
				switch x.Op {
				case "+", "-", "*", "/", "min", "max", "**":
				default:
					ok = false
				}
			case kernel.UnOp:
				if x.X.Type().IsFloat() && x.Op != "neg" && x.Op != "abs" {
					ok = false
				}
			case kernel.Conv:
				if x.X.Type().IsFloat() && !x.To.IsFloat() {
					ok = false
				}
			case kernel.Call:
				switch x.Fn {
				case "floor", "ceil", "trunc", "round", "isnan", "isinf", "to_bits", "fmod", "nextafter", "copysign", "mul_hi":
					ok = false
				}
				if !x.Type().IsFloat() {
					ok = false
				}
			}
		})
	}
	for _, ss := range [][]kernel.Stmt{t.Body, t.Op.Body, t.Post} {
		kernel.WalkStmts(ss, visit)
	}
	for _, es := range [][]kernel.Exp{t.Elems, t.Op.Res, t.PostRes} {
		for _, e := range es {
			visit(e)
		}
	}
	return ok
}
