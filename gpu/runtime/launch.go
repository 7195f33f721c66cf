package runtime

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"

	"fut/gpu/cl"
	"fut/gpu/kernel"
	"fut/gpu/opencl"
)

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

// run launches the kernels of the shape.
func (l *launch) run() error {
	L := int64(l.c.group)
	switch s := l.k.Shape.(type) {
	case *kernel.Map:
		if _, _, ok := kernel.TransposeOf(s); ok {
			R, err := l.size(s.Dims[0], 0)
			if err != nil {
				return err
			}
			C, err := l.size(s.Dims[1], 0)
			if err != nil {
				return err
			}
			T := int64(kernel.TransposeTile)
			tiles := (R + T - 1) / T * ((C + T - 1) / T)
			return l.enqueueLocal(0, nil, tiles*kernel.TransposeGroup, kernel.TransposeGroup)
		}
		total := int64(1)
		var dims []int64    // for the magic numbers of the divisions (MapDivs)
		var dimBuf [8]int64 // on the stack for up to eight dimensions
		if l.c.gen.MapDivs > 0 {
			dims = slices.Grow(dimBuf[:0], len(s.Dims))[:len(s.Dims)]
		}
		for i, e := range s.Dims {
			n, err := l.size(e, 0)
			if err != nil {
				return err
			}
			if dims != nil {
				dims[i] = n
			}
			total *= n
		}
		if k := int64(l.c.gen.MapK); k > 1 {
			total = ceilDiv(total, k)
		}
		var extras map[string]any
		if dims != nil {
			extras = l.c.mapExtras(dims)
		}
		return l.enqueue(0, extras, total)
	case *kernel.Scatter:
		n, err := l.size(s.N, 0)
		if err != nil {
			return err
		}
		return l.enqueue(0, nil, n)
	case *kernel.Tiled:
		return l.tiled(s)
	case *kernel.Reduce:
		return l.reduce(s, L)
	case *kernel.Scan:
		return l.scan(s, L)
	case *kernel.Hist:
		return l.hist(s, L)
	}
	return fmt.Errorf("runtime: kernel %s has no shape", l.k.Name)
}

// tupleExtras allocates part<k> (count elements each) and local<k>.
func (l *launch) tupleExtras(ts []kernel.Type, count, L int64, groups int64) (map[string]any, error) {
	ex := map[string]any{"groups": groups}
	for k, t := range ts {
		b, err := l.scratchBuf(int(count) * t.Size())
		if err != nil {
			return nil, err
		}
		ex[extraName("part", k)] = b
		ex[extraName("local", k)] = cl.LocalMem{Size: int(L) * t.Size()}
	}
	return ex, nil
}

// extraNames are the names of the extras of the first components
// (opencl's extras), made once rather than at each launch.
var extraNames = map[string][]string{}

func init() {
	for _, p := range []string{"part", "local", "tile"} {
		for k := range 8 {
			extraNames[p] = append(extraNames[p], fmt.Sprintf("%s%d", p, k))
		}
	}
}

// extraName is prefix followed by k ("part0").
func extraName(prefix string, k int) string {
	if ns := extraNames[prefix]; k < len(ns) {
		return ns[k]
	}
	return fmt.Sprintf("%s%d", prefix, k)
}

func types(es []kernel.Exp) []kernel.Type {
	ts := make([]kernel.Type, len(es))
	for i, e := range es {
		ts[i] = e.Type()
	}
	return ts
}

func (l *launch) reduce(s *kernel.Reduce, L int64) error {
	segs, err := l.size(s.Segments, 1)
	if err != nil {
		return err
	}
	n, err := l.size(s.N, 0)
	if err != nil {
		return err
	}
	if segs == 0 {
		return nil
	}
	for _, o := range s.Out {
		if a := l.outLen(o); a < segs {
			return fmt.Errorf("runtime: kernel %s: output %s holds %d of %d segments", l.k.Name, o.Name, a, segs)
		}
	}
	per := int64(32)
	if l.c.gen.Interleaved {
		per = 8
	}
	groups := max(1, min(ceilDiv(n, L), ceilDiv(l.targetGroups(per), segs)))
	ex, err := l.tupleExtras(types(s.Elems), segs*groups, L, groups)
	if err != nil {
		return err
	}
	if segs == 1 && opencl.RedOnePass {
		// one kernel: its last group reduces the partial results
		counter, cbase, err := l.d.lookBack.tickets(l.d, groups)
		if err != nil {
			return err
		}
		ex["counter"], ex["cbase"], ex["single"] = counter, cbase, int64(1)
		if err := l.enqueue(0, ex, groups*L); err != nil {
			l.d.lookBack.failed()
			return err
		}
		return nil
	}
	// the counter is not read without single
	ex["counter"], ex["cbase"], ex["single"] = l.d.errBuf, uint32(0), int64(0)
	if err := l.enqueue(0, ex, segs*groups*L); err != nil {
		return err
	}
	return l.enqueue(1, ex, segs*L)
}

// outLen is the number of elements of the array bound to parameter o.
func (l *launch) outLen(o *kernel.Param) int64 {
	for i, p := range l.k.Params {
		if p == o {
			if b, ok := l.args[i].(*cl.Buffer); ok {
				return int64(b.Size / max(1, o.T.Size()))
			}
		}
	}
	return math.MaxInt64
}

func (l *launch) scan(s *kernel.Scan, L int64) error {
	n, err := l.size(s.N, 0)
	if err != nil {
		return err
	}
	if n == 0 {
		if s.Keep != nil { // nothing kept
			for i, p := range l.k.Params {
				if b, ok := l.args[i].(*cl.Buffer); ok && p == s.Keep.Count && b.Size >= 8 {
					return l.d.ctx.Fill(b, make([]byte, 8), 0, 8)
				}
			}
			return fmt.Errorf("runtime: kernel %s: no room for the count", l.k.Name)
		}
		return nil
	}
	outs := s.Out
	if s.Keep != nil {
		// a compaction's destinations hold as many as can be kept
		outs = s.Keep.Dest
		if l.outLen(s.Keep.Count) < 1 {
			return fmt.Errorf("runtime: kernel %s: no room for the count", l.k.Name)
		}
	}
	for _, o := range outs {
		if a := l.outLen(o); a < n {
			return fmt.Errorf("runtime: kernel %s: output %s holds %d of %d elements", l.k.Name, o.Name, a, n)
		}
	}
	ts := types(s.Elems)
	k := l.scanK(ts, L)
	if l.useLookBack() {
		tsize := ts[0].Size()
		tile0 := opencl.TileElems(int(L), int(k)) * tsize
		if kk := l.c.gen.KeepK; kk > 0 { // the compaction's own tiles, of uint ranks
			k, tsize, tile0 = int64(kk), 4, l.c.gen.KeepLocal(int(L))
			if need := int64(tile0) + L*4; need > int64(l.d.Info.LocalMem) {
				return fmt.Errorf("runtime: kernel %s: a compaction's tile of %d·%d elements needs %d bytes of local memory; the device has %d (FUT_FILTER_K sets fewer per work item)", l.k.Name, L, kk, need, l.d.Info.LocalMem)
			}
			if l.c.gen.KeepWarp && L%32 != 0 {
				return fmt.Errorf("runtime: kernel %s: a compaction ranked by warps needs work-groups of a multiple of 32 work items, not %d (FUT_FILTER_ONEPASS=1 ranks without)", l.k.Name, L)
			}
		}
		tiles := ceilDiv(n, L*k)
		local0 := int(L) * tsize
		if l.c.gen.KeepAsync > 0 {
			local0 = 16 // not used by the streamed compaction
		}
		state, counter, epoch, cbase, err := l.d.lookBack.next(l.d, tiles)
		if err != nil {
			return err
		}
		err = l.enqueue(3, map[string]any{
			"state": state, "counter": counter, "groups": tiles, "scank": k, "epoch": epoch, "cbase": cbase,
			"local0": cl.LocalMem{Size: local0},
			"tile0":  cl.LocalMem{Size: tile0},
		}, tiles*L)
		if err != nil {
			l.d.lookBack.failed()
		}
		return err
	}
	groups := max(1, min(ceilDiv(n, L*k), l.targetGroups(32)))
	ex, err := l.tupleExtras(ts, groups, L, groups)
	if err != nil {
		return err
	}
	ex["scank"] = k
	for c, t := range ts {
		ex[extraName("tile", c)] = cl.LocalMem{Size: opencl.TileElems(int(L), int(k)) * t.Size()}
	}
	if err := l.enqueue(0, ex, groups*L); err != nil {
		return err
	}
	if err := l.enqueue(1, ex, L); err != nil {
		return err
	}
	return l.enqueue(2, ex, groups*L)
}

// scanK is the elements per work item of a scan tile: at most
// opencl.MaxScanK, with the tiles and the work-group arrays in at most
// 40 KiB of local memory.
func (l *launch) scanK(ts []kernel.Type, L int64) int64 {
	per := int64(0)
	for _, t := range ts {
		per += int64(t.Size())
	}
	budget := min(int64(l.d.Info.LocalMem), 40<<10) - L*per - 64
	k := budget * 32 / (33 * L * per)
	return max(1, min(k, int64(opencl.MaxScanK)))
}

// useLookBack says whether a scan runs as one pass (see opencl's
// genScanLookBack): where generated, on GPUs unless configured otherwise.
func (l *launch) useLookBack() bool {
	if !l.c.gen.LookBack {
		return false
	}
	if l.d.cfg.ScanLookBack == 0 {
		// FUT_SCAN_LOOKBACK=1 or -1 chooses as the configuration would
		// (to run the single pass on a CPU device, in tests)
		if v, err := strconv.Atoi(os.Getenv("FUT_SCAN_LOOKBACK")); err == nil && v != 0 {
			return v > 0
		}
	}
	switch {
	case l.d.cfg.ScanLookBack > 0:
		return true
	case l.d.cfg.ScanLookBack < 0:
		return false
	}
	return l.d.Info.Type&cl.TypeGPU != 0
}

func (l *launch) hist(s *kernel.Hist, L int64) error {
	n, err := l.size(s.N, 0)
	if err != nil {
		return err
	}
	bins, err := l.size(s.Dest.Shape[0], 0)
	if err != nil {
		return err
	}
	if l.c.gen.Atomic {
		t := s.Dest.T
		if lm := bins * int64(t.Size()); lm <= min(int64(l.d.Info.LocalMem)/2, 32<<10) {
			groups := max(1, min(ceilDiv(n, L), l.targetGroups(8)))
			return l.enqueue(1, map[string]any{"histlocal": cl.LocalMem{Size: int(max(lm, 8))}, "groups": groups}, groups*L)
		}
		return l.enqueue(0, nil, n)
	}
	if n == 0 || bins == 0 {
		return nil
	}
	t := s.Dest.T
	// the sub-histograms take at most 256 MiB
	maxGroups := max(1, (256<<20)/(bins*int64(t.Size())))
	groups := max(1, min(ceilDiv(n, L), l.targetGroups(8), maxGroups))
	sub, err := l.scratchBuf(int(groups*bins) * t.Size())
	if err != nil {
		return err
	}
	ex := map[string]any{
		"sub": sub, "groups": groups,
		"binlocal": cl.LocalMem{Size: int(L) * 8},
		"local0":   cl.LocalMem{Size: int(L) * t.Size()},
	}
	if err := l.enqueue(0, ex, groups*L); err != nil {
		return err
	}
	return l.enqueue(1, ex, bins)
}

// scalarArg converts a Go number to the Go type of the kernel type.
func scalarArg(t kernel.Type, v any) (any, error) {
	var i int64
	var u uint64
	var f float64
	isFloat, isBool := false, false
	var b bool
	switch x := v.(type) {
	case int:
		i = int64(x)
	case int8:
		i = int64(x)
	case int16:
		i = int64(x)
	case int32:
		i = int64(x)
	case int64:
		i = x
	case uint:
		i = int64(x)
	case uint8:
		i = int64(x)
	case uint16:
		i = int64(x)
	case uint32:
		i = int64(x)
	case uint64:
		i = int64(x)
	case float32:
		f, isFloat = float64(x), true
	case float64:
		f, isFloat = x, true
	case bool:
		b, isBool = x, true
	default:
		return nil, fmt.Errorf("%T is not a scalar", v)
	}
	u = uint64(i)
	if isBool != (t == kernel.Bool) || isFloat != t.IsFloat() {
		return nil, fmt.Errorf("%T given for %v", v, t)
	}
	switch t {
	case kernel.Bool:
		return b, nil
	case kernel.I8:
		return int8(i), nil
	case kernel.I16:
		return int16(i), nil
	case kernel.I32:
		return int32(i), nil
	case kernel.I64:
		return i, nil
	case kernel.U8:
		return uint8(u), nil
	case kernel.U16:
		return uint16(u), nil
	case kernel.U32:
		return uint32(u), nil
	case kernel.U64:
		return u, nil
	case kernel.F16:
		return f16Bits([]float32{float32(f)})[0], nil
	case kernel.F32:
		return float32(f), nil
	case kernel.F64:
		return f, nil
	}
	return nil, fmt.Errorf("no scalar of %v", t)
}

func toInt64(v any) int64 {
	switch x := v.(type) {
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case int64:
		return x
	case uint8:
		return int64(x)
	case uint16:
		return int64(x)
	case uint32:
		return int64(x)
	case uint64:
		return int64(x)
	}
	return 0
}

// tiled launches a Tiled kernel: one work-group of its TileConfig's
// work items per block of points.
func (l *launch) tiled(s *kernel.Tiled) error {
	tc := l.c.gen.Tile
	G := int64(tc.Group())
	if G <= 0 || !tc.Fits(s) {
		return fmt.Errorf("runtime: kernel %s: a tiled program without its sizes", l.k.Name)
	}
	if G > int64(l.c.maxGroup) {
		return fmt.Errorf("runtime: kernel %s: tiled with %s, in work-groups of %d work items; the device allows %d", l.k.Name, tc, G, l.c.maxGroup)
	}
	if lm := l.c.gen.TileLocal; lm > int(l.d.Info.LocalMem) {
		return fmt.Errorf("runtime: kernel %s: tiled with %s, it needs %d bytes of local memory; the device has %d", l.k.Name, tc, lm, l.d.Info.LocalMem)
	}
	dims := make([]int64, len(s.Dims))
	points := int64(1)
	for i, e := range s.Dims {
		n, err := l.size(e, 0)
		if err != nil {
			return err
		}
		dims[i] = n
		points *= n
	}
	k, err := l.size(s.K, 0)
	if err != nil {
		return err
	}
	for _, o := range s.Out {
		if a := l.outLen(o); a < points {
			return fmt.Errorf("runtime: kernel %s: output %s holds %d of %d elements", l.k.Name, o.Name, a, points)
		}
	}
	if points == 0 {
		return nil
	}
	if len(dims) == 1 {
		// nsplit is the launch's, of the device and the sizes alone:
		// every TileConfig folds the same ranges (opencl's tile_config.go)
		ns := min(l.tileSplit(dims[0], k), G)
		per := G / ns
		return l.enqueueLocal(0, map[string]any{"nsplit": int32(ns)}, ceilDiv(dims[0], per)*G, G)
	}
	nbi, nbj := ceilDiv(dims[0], int64(tc.Block(0))), ceilDiv(dims[1], int64(tc.Block(1)))
	return l.enqueueLocal(0, map[string]any{"nbj": nbj}, nbi*nbj*G, G)
}

// TileSplitMax is the most threads that share a point of a one-dimensional
// tiled kernel.
const TileSplitMax = 32

// tileSplit is how many threads share each of a one-dimensional tiled
// kernel's points: doubled from 1 while the threads would fill less than
// half of what the device runs at once (UnitThreads per compute unit)
// and each thread still folds at least tileSplitMinK of the K elements
// (n-body's 2^15 bodies on an H100: 8, which took 1.71 ms against 3.75
// with 1, 1.78 with 4 and 1.77 with 16). FUT_TILE_SPLIT (a power of two
// up to TileSplitMax) sets it, to compare and to test.
func (l *launch) tileSplit(points, k int64) int64 {
	if s, err := strconv.Atoi(os.Getenv("FUT_TILE_SPLIT")); err == nil && s >= 1 && s <= TileSplitMax && s&(s-1) == 0 {
		return int64(s)
	}
	busy := int64(max(1, l.d.Info.ComputeUnits)) * UnitThreads
	ns := int64(1)
	for ns < TileSplitMax && 2*points*ns < busy && k/(2*ns) >= tileSplitMinK {
		ns *= 2
	}
	return ns
}

// tileSplitMinK is the fewest elements of K a thread of a split tiled
// kernel folds.
const tileSplitMinK = 64

// UnitThreads is how many threads a compute unit runs at once (an
// NVIDIA multiprocessor's 2,048).
const UnitThreads = 2048
