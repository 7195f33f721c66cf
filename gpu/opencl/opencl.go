// Package opencl generates OpenCL C from the kernel IR.
//
// Input: a *kernel.Kernel and the device's capabilities. Output: a Program
// (source text and the names of its OpenCL kernels, in launch order).
// Every generated OpenCL kernel takes the IR kernel's parameters in order
// (buffers as __global pointers, bools stored as uchar), then
// `__global long *err` (ErrWords words: the error flag and what failed),
// then the extra arguments of its shape (see Entry). Work-group sizes are
// chosen by the runtime and must be powers of two.
package opencl

import (
	"fmt"
	"math"
	"math/bits"
	"os"
	"regexp"
	"strconv"
	"strings"

	"fut/gpu/kernel"
)

// Caps are the device facts code generation depends on.
type Caps struct {
	F64, F16     bool
	Int64Atomics bool // cl_khr_int64_base_atomics and _extended_atomics
	// WarpVote: an NVIDIA GPU, whose OpenCL takes inline PTX (the
	// warp vote of a compaction's ranks, FilterPass 2)
	WarpVote bool
	// AsyncCopy: an NVIDIA GPU of compute capability 8.0 or above, whose
	// PTX has cp.async (global to shared memory without registers) and
	// redux.sync (a warp's sum in one instruction): the streamed
	// compaction (genFilterAsync)
	AsyncCopy bool
}

// Program is the generated code of one kernel.
type Program struct {
	Source  string
	Kernel  *kernel.Kernel
	Entries []Entry
	Atomic  bool // Hist only: the single-kernel atomic version
	// LookBack (Scan only): Entries[3] is the single-pass scan "_scanlb".
	LookBack bool
	// KeepK (a compaction's LookBack only): where not 0, "_scanlb" is
	// genFilterLookBack's, whose tiles are KeepK·L elements and whose
	// tile0 holds TileElems(L, KeepK) uints.
	KeepK int
	// KeepWarp (with KeepK): the compaction ranks with warp ballots
	// (FilterPass 2): work groups of a multiple of 32 work items, tile0
	// of KeepK·L/32 uints.
	KeepWarp bool
	// KeepStage (with KeepWarp): where not 0, the kept values of a tile
	// go through local memory on their way out (FilterStage), KeepStage
	// bytes for each of the tile's KeepK·L elements, after the ranks'
	// counts in tile0 (KeepLocal says how many bytes tile0 then takes).
	KeepStage int
	// KeepAsync (with KeepWarp): where not 0, "_scanlb" is the streamed
	// compaction (genFilterAsync) of KeepAsync arrays, whose tile0 holds
	// a tile's KeepK·L 4-byte elements of each.
	KeepAsync int
	// MaxRegs, where not 0, bounds the registers a work item of the
	// program's kernels takes where the device compiles through CUDA
	// (cl.Program.SetMaxRegisters): more work groups fit a
	// multiprocessor, at the cost of spilling some.
	MaxRegs int
	// Tile (Tiled): the sizes the kernel was generated with (never the
	// zero value); TileLocal the bytes of local memory it declares.
	Tile      TileConfig
	TileLocal int
	// MayFail says whether the program's kernels can record an error
	// (a failed bounds check, division by zero, assertion): false where
	// nothing in their code writes the error buffer or passes it on, so
	// that the runtime need not read the flag after them.
	MayFail bool
	// MapK (Map only): where above 1, each work item computes MapK
	// elements (genMapK), so that the launch takes a MapK-th of the
	// map's elements in work items.
	MapK int
	// Interleaved (Reduce only): the groups of a segment take
	// interleaved blocks of its elements (RedLayout), with fewer groups
	// than contiguous chunks need.
	Interleaved bool
	// MapDivs (Map only): where above 0, the map's kernel takes the
	// extras "dm1" … "dm<MapDivs>", one for each dimension after the
	// first (MapDivisors says what they hold).
	MapDivs int
}

// Entry is one OpenCL kernel of a program. Extra lists its arguments after
// err: "part<k>" a temporary global buffer of component k (one element per
// group), "local<k>" local memory of one element of component k per work
// item, "groups" an i64 (groups per segment, or groups in all),
// "binlocal" local i64 per work item, "sub" a global buffer of
// groups×bins elements of the histogram's type.
type Entry struct {
	Name  string
	Extra []string
}

// Generate produces the OpenCL C of k (a Tiled kernel with its default
// sizes).
func Generate(k *kernel.Kernel, caps Caps) (*Program, error) {
	return GenerateTile(k, caps, TileConfig{})
}

// GenerateTile produces the OpenCL C of k, a Tiled kernel with the sizes
// tile (the zero value: its default; see TileCandidates), any other
// kernel as Generate does.
func GenerateTile(k *kernel.Kernel, caps Caps, tile TileConfig) (*Program, error) {
	if err := kernel.Verify(k); err != nil {
		return nil, fmt.Errorf("opencl: %w", err)
	}
	g := newGen(k, caps)
	g.tile = tile
	p := &Program{Kernel: k}
	for _, prm := range k.Params {
		g.checkType(prm.T)
		g.name(prm.Name)
	}
	switch s := k.Shape.(type) {
	case *kernel.Map:
		g.genMap(p, s)
	case *kernel.Reduce:
		g.genReduce(p, s)
	case *kernel.Scan:
		g.genScan(p, s)
	case *kernel.Scatter:
		g.genScatter(p, s)
	case *kernel.Hist:
		g.genHist(p, s)
	case *kernel.Tiled:
		g.genTiled(p, s)
	default:
		return nil, fmt.Errorf("opencl: kernel %s has no shape", k.Name)
	}
	if g.err != nil {
		return nil, g.err
	}
	// the prelude last: it has the emulated f16 helpers only where used
	p.MayFail = usesErr(g.b.String())
	p.Source = prelude(caps, g.f16) + "\n" + g.b.String()
	return p, nil
}

// errParam is how every kernel declares the error buffer (header).
const errParam = "__global long *err"

// errUse is a use of the error buffer by name: in a check, or passed to
// a function of the prelude that may fail.
var errUse = regexp.MustCompile(`\berr\b`)

// usesErr reports whether kernel code (without the prelude) names the
// error buffer anywhere but in its kernels' parameter lists. Any other
// mention counts, so that a check is never taken for absent.
func usesErr(code string) bool {
	return errUse.MatchString(strings.ReplaceAll(code, errParam, ""))
}

// header opens an OpenCL kernel with the parameters, err and extras.
func (g *gen) header(p *Program, suffix string, extras []string, extraDecls []string) {
	name := cident(g.k.Name) + suffix
	p.Entries = append(p.Entries, Entry{Name: name, Extra: extras})
	var ps []string
	var unpack []string
	for _, prm := range g.k.Params {
		n := g.name(prm.Name)
		switch {
		case prm.Buffer:
			ps = append(ps, fmt.Sprintf("__global %s *%s", btype(prm.T), n))
		case prm.T == kernel.Bool:
			ps = append(ps, "uchar a_"+n)
			unpack = append(unpack, fmt.Sprintf("bool %s = a_%s != 0;", n, n))
		case g.emu(prm.T): // the half's bits (a half argument needs cl_khr_fp16)
			ps = append(ps, "ushort a_"+n)
			unpack = append(unpack, fmt.Sprintf("float %s = fut_f16_from_bits(a_%s);", n, n))
		default:
			ps = append(ps, fmt.Sprintf("%s %s", ctype(prm.T), n))
		}
	}
	ps = append(ps, errParam)
	ps = append(ps, extraDecls...)
	g.line("__kernel void %s(%s) {", name, strings.Join(ps, ", "))
	g.indent++
	for _, u := range unpack {
		g.line("%s", u)
	}
}

func (g *gen) end() {
	g.indent--
	g.line("}")
	g.line("")
}

func cident(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '_' || r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 || b.String()[0] >= '0' && b.String()[0] <= '9' {
		return "k_" + b.String()
	}
	return b.String()
}

// scalar emits e as a long-valued local and returns its name.
func (g *gen) long(prefix string, e kernel.Exp) string {
	s := g.exp(e)
	g.flushPre()
	n := g.fresh(prefix)
	g.line("long %s = (long)%s;", n, s)
	return n
}

// LoadBarrier is what a map kernel puts after the reads its body starts
// with: "asm", an empty inline assembly that clobbers memory, which the
// compiler moves no read across, so that all are in flight before the
// first use; "fence", mem_fence(CLK_LOCAL_MEM_FENCE); "none". Unless
// FUT_LOAD_BARRIER says, "asm" on an NVIDIA GPU (Caps.WarpVote: its
// OpenCL takes inline assembly) and "none" elsewhere. Without it,
// NVIDIA's compiler moved blackscholes' reads each next to its first
// use, behind a square root and a division (one H100, kernel ms: none
// 0.290, 0.290; asm 0.263, 0.263; fence 0.263, 0.263; saxpy, whose
// body is two reads and an add, 0.586-0.587 with none or asm, 0.591-
// 0.594 with fence).
var LoadBarrier = os.Getenv("FUT_LOAD_BARRIER")

func (g *gen) loadBarrier() string {
	switch {
	case LoadBarrier != "":
		return LoadBarrier
	case g.caps.WarpVote:
		return "asm"
	}
	return "none"
}

// compilerBarrier emits the barrier of LoadBarrier ("asm" or "fence";
// nothing for "none").
func (g *gen) compilerBarrier() {
	switch g.loadBarrier() {
	case "asm":
		g.line(`__asm__ __volatile__("" ::: "memory");`)
	case "fence":
		g.line("mem_fence(CLK_LOCAL_MEM_FENCE);")
	}
}

func (g *gen) genMap(p *Program, m *kernel.Map) {
	var extras, decls []string
	if _, _, ok := kernel.TransposeOf(m); !ok && MapDivMagic {
		for i := 1; i < len(m.Dims); i++ {
			extras = append(extras, dmName(i))
			decls = append(decls, fmt.Sprintf("ulong dm%d", i))
		}
		p.MapDivs = len(extras)
	}
	g.header(p, "_map", extras, decls)
	if len(m.Dims) != len(m.Idx) || len(m.Dims) == 0 {
		g.fail("map with %d dimensions and %d indices", len(m.Dims), len(m.Idx))
		return
	}
	g.divMagic = p.MapDivs > 0
	dims := make([]string, len(m.Dims))
	for i, d := range m.Dims {
		dims[i] = g.long("d", d)
	}
	if out, in, ok := kernel.TransposeOf(m); ok {
		g.transpose(out, in, dims[0], dims[1])
		return
	}
	// the runtime launches no thread where a dimension is negative
	// (launch.size), so each index lies in [0, its dimension)
	g.below = map[string]string{}
	for i, x := range m.Idx {
		g.below[x.Name] = kernel.ExpString(m.Dims[i])
	}
	if tail, ok := mapKFits(m.Body); ok && MapK > 1 {
		if reads, writes, ok := g.mapVecFits(m, tail); ok && MapVec > 0 {
			g.genMapVec(p, m, dims, tail, MapVec, reads, writes)
		} else {
			g.genMapK(p, m, dims, m.Body, tail, MapK)
		}
		g.end()
		return
	}
	g.line("long gtid = get_global_id(0);")
	g.line("if (gtid >= %s) return;", strings.Join(dims, " * "))
	g.splitIndex(m.Idx, dims, "gtid")
	body := m.Body
	if barrier := g.loadBarrier(); barrier == "asm" || barrier == "fence" {
		// the reads the body starts with, then a barrier the compiler
		// does not move them across (LoadBarrier)
		if k := leadingReads(body); k >= 2 && k < len(body) {
			g.stmts(body[:k])
			g.compilerBarrier()
			body = body[k:]
		}
	}
	g.stmts(body)
	g.end()
}

// splitIndex declares the index variables idx of the element number gt
// (a long variable, which it changes) of a map of dimensions dims, the
// last varying fastest. With g.divMagic, where the runtime gave the
// divisors' magic numbers (the extras dm1 …, MapDivisors: the elements
// are fewer than 2^31), each division is a multiplication and a shift
// of 32-bit numbers, where a 64-bit division takes some twenty
// instructions even on its 32-bit path. It also keeps the element
// number, so that a write at the map's indices into an array of the
// map's shape goes to it (index) without computing it again.
func (g *gen) splitIndex(idx []kernel.Var, dims []string, gt string) {
	if len(idx) > 1 {
		en := g.fresh("en")
		g.line("long %s = %s;", en, gt)
		g.names[elemKey], g.elemIdx = en, idx
	}
	// by 64-bit divisions (changing gt), each index declared with ty
	split64 := func(ty string) {
		for i := len(idx) - 1; i >= 1; i-- {
			g.line("%s%s = %s %% %s; %s /= %s;", ty, g.name(idx[i].Name), gt, dims[i], gt, dims[i])
		}
		g.line("%s%s = %s;", ty, g.name(idx[0].Name), gt)
	}
	if !g.divMagic || len(idx) == 1 {
		split64("long ")
		return
	}
	ns := make([]string, len(idx))
	for i := range idx {
		ns[i] = g.name(idx[i].Name)
	}
	g.line("long %s;", strings.Join(ns, ", "))
	g.line("if (dm1 != 0) {")
	g.indent++
	t := g.fresh("t")
	g.line("uint %s = (uint)%s;", t, gt)
	for i := len(idx) - 1; i >= 1; i-- {
		q := g.fresh("q")
		g.line("uint %s = (uint)(((ulong)%s * (uint)dm%d) >> (uint)(dm%d >> 32));", q, t, i, i)
		g.line("%s = (long)(%s - %s * (uint)%s); %s = %s;", ns[i], t, q, dims[i], t, q)
	}
	g.line("%s = (long)%s;", ns[0], t)
	g.indent--
	g.line("} else {")
	g.indent++
	split64("")
	g.indent--
	g.line("}")
}

// elemKey is the key of g.names under which splitIndex keeps the C
// name of the element number (no IR name has a NUL).
const elemKey = "\x00elem"

// MapDivMagic makes maps of several dimensions split the element number
// into indices with the divisors' magic numbers (splitIndex);
// FUT_MAP_DIV=0 turns it off, to compare.
var MapDivMagic = os.Getenv("FUT_MAP_DIV") != "0"

// MapDivFallback (for tests) makes MapDivisors give 0s, as for 2^31
// elements or more, so that the kernels divide 64-bit numbers.
var MapDivFallback = false

// MapDivisors is the value of the extras dm1 … of a map of dimensions
// dims (Program.MapDivs): for dimension i, m | s<<32, where q = n·m >>
// s is n / dims[i] for every n below 2^31 (l = ⌈log2 d⌉, s = 31 + l, m
// = ⌈2^s / d⌉ < 2^32, so that m·d - 2^s < d ≤ 2^l and the error of
// n·m/2^s against n/d stays under 1/d); all 0 where the elements are
// 2^31 or more, or none.
func MapDivisors(dims []int64) map[string]any {
	ex := make(map[string]any, len(dims))
	small := !MapDivFallback // fewer than 2^31 elements
	total := int64(1)
	for _, d := range dims {
		// total < 2^31 and d < 2^31: the product does not overflow
		if d <= 0 || d >= math.MaxInt32 || total*d >= math.MaxInt32 {
			small = false
			break
		}
		total *= d
	}
	for i := 1; i < len(dims); i++ {
		var v uint64
		if d := uint64(dims[i]); small {
			l := uint(bits.Len64(d - 1))
			s := 31 + l
			m := (uint64(1)<<s + d - 1) / d
			v = m | uint64(s)<<32
		}
		ex[dmName(i)] = int64(v)
	}
	return ex
}

// dmNames are the names of MapDivisors' extras, made once.
var dmNames = func() []string {
	ns := make([]string, MaxRank)
	for i := range ns {
		ns[i] = fmt.Sprintf("dm%d", i)
	}
	return ns
}()

func dmName(i int) string {
	if i < len(dmNames) {
		return dmNames[i]
	}
	return fmt.Sprintf("dm%d", i)
}

// transpose emits a tiled transpose (kernel.TransposeOf): out[r, c] =
// in[c, r] for r < R, c < C. Each work-group moves one tile of T×T
// points: it reads the tile's rows of in along their length (coalesced)
// into local memory, then writes the tile's rows of out along theirs,
// reading local memory across (the tile's rows padded by one element so
// that the column reads fall in different banks).
func (g *gen) transpose(out, in *kernel.Param, R, C string) {
	t, T, G := btype(out.T), kernel.TransposeTile, kernel.TransposeGroup
	g.line("__local %s tile[%d][%d];", t, T, T+1)
	g.line("long tilesC = (%s + %d) / %d;", C, T-1, T)
	g.line("long grp = get_group_id(0), tr = grp / tilesC * %d, tc = grp %% tilesC * %d;", T, T)
	g.line("int lx = get_local_id(0) %% %d, ly = get_local_id(0) / %d;", T, T)
	g.line("for (int k = ly; k < %d; k += %d) {", T, G/T)
	g.line("  long c = tc + k, r = tr + lx;")
	g.line("  if (c < %s && r < %s) tile[k][lx] = %s[c * %s + r];", C, R, g.name(in.Name), R)
	g.line("}")
	g.line("barrier(CLK_LOCAL_MEM_FENCE);")
	g.line("for (int k = ly; k < %d; k += %d) {", T, G/T)
	g.line("  long r = tr + k, c = tc + lx;")
	g.line("  if (r < %s && c < %s) %s[r * %s + c] = tile[lx][k];", R, C, g.name(out.Name), C)
	g.line("}")
	g.end()
}

func (g *gen) genScatter(p *Program, s *kernel.Scatter) {
	g.header(p, "_scatter", nil, nil)
	n := g.long("n", s.N)
	g.line("long gtid = get_global_id(0);")
	g.line("if (gtid >= %s) return;", n)
	g.line("long %s = gtid;", g.name(s.I.Name))
	g.below = map[string]string{s.I.Name: kernel.ExpString(s.N)}
	g.stmts(s.Body)
	if len(s.Dest) != len(s.Idx) || len(s.Dest) != len(s.Vals) {
		g.fail("scatter with %d destinations, %d indices, %d values", len(s.Dest), len(s.Idx), len(s.Vals))
		return
	}
	for k, d := range s.Dest {
		if len(d.Shape) != 1 || s.Vals[k].Type() != d.T {
			g.fail("scatter destination %s must be one-dimensional of %v", d.Name, s.Vals[k].Type())
			continue
		}
		i, v := g.exp(s.Idx[k]), g.exp(s.Vals[k])
		g.flushPre()
		ln := g.long("len", d.Shape[0])
		ix := g.fresh("ix")
		g.line("long %s = (long)%s;", ix, i)
		g.line("if (%s >= 0 && %s < %s) %s", ix, ix, ln, g.put(d.T, at(g.name(d.Name), ix), v))
	}
	g.end()
}

// envInt is the environment variable name's value, an integer in [lo,
// hi], or def.
func envInt(name string, lo, hi, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n >= lo && n <= hi {
		return n
	}
	return def
}
