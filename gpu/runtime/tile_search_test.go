package runtime

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	. "fut/gpu/kernel"
	"fut/gpu/opencl"
)

// matmulTiled: out[i, j] = sum over t < k of a[i, t] * b[t, j], a Tiled
// kernel of i64 (so that every candidate must give the exact sum).
func matmulTiled() (*Kernel, *Tiled) {
	n, m, k := Scalar("n", I64), Scalar("m", I64), Scalar("k", I64)
	a, b := Buf("a", I64, n.V(), k.V()), Buf("b", I64, k.V(), m.V())
	out := Buf("out", I64, n.V(), m.V())
	i, j, t := NewVar("i", I64), NewVar("j", I64), NewVar("t", I64)
	e := NewVar("e", I64)
	tl := &Tiled{
		Dims: []Exp{n.V(), m.V()}, Idx: []Var{i, j}, K: k.V(), T: t,
		Body:    []Stmt{&Let{V: e, E: Bin("*", Rd(a, i, t), Rd(b, t, j))}},
		Elems:   []Exp{e},
		Op:      BinLambda("+", I64),
		Neutral: []Exp{Int(I64, 0)},
		Out:     []*Param{out},
		Tiles:   []*Param{a, b},
	}
	return &Kernel{Name: "mm", Params: []*Param{n, m, k, a, b, out}, Shape: tl}, tl
}

// runMatmul runs a fresh matmulTiled of n×k by k×m on d and checks its
// result against the host's.
func runMatmul(t *testing.T, d *Device, n, m, k int64) {
	t.Helper()
	av, bv := make([]int64, n*k), make([]int64, k*m)
	for x := range av {
		av[x] = int64(x*7%19) - 9
	}
	for x := range bv {
		bv[x] = int64(x*5%23) - 11
	}
	kern, _ := matmulTiled()
	a, b := up(t, d, I64, av, n, k), up(t, d, I64, bv, k, m)
	out := alloc(t, d, I64, n, m)
	defer func() { a.Release(); b.Release(); out.Release() }()
	if err := d.Run(kern, n, m, k, a, b, out); err != nil {
		t.Fatal(err)
	}
	got := down[int64](t, out)
	for i := range n {
		for j := range m {
			var s int64
			for x := range k {
				s += av[i*k+x] * bv[x*m+j]
			}
			if got[i*m+j] != s {
				t.Fatalf("%d×%d×%d with %s: out[%d, %d] = %d, want %d", n, m, k, d.LastTile(), i, j, got[i*m+j], s)
			}
		}
	}
}

func tileDevice(t *testing.T, dir string, localMem uint64) *Device {
	t.Helper()
	base := device(t)
	info := *base.Info
	if localMem > 0 {
		info.LocalMem = localMem
	}
	d, err := OpenDevice(&info, Config{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	return d
}

// TestTileSearch: the first run of a tiled kernel measures the
// candidates the device can run and keeps the fastest, in memory (a
// second run does not search) and on disk (another device of the same
// cache does not search); a damaged, foreign or outdated choice on disk
// is ignored and searched again; the switches force sizes.
func TestTileSearch(t *testing.T) {
	t.Setenv("FUT_TILE_SEARCH", "always")
	t.Setenv("FUT_TILE", "")
	t.Setenv("FUT_TILE_REG", "")
	dir := t.TempDir()
	_, tl := matmulTiled()
	cands := opencl.TileCandidates(tl)
	if len(cands) < 2 || len(cands) > 6 || cands[0] != opencl.DefaultTile(tl) {
		t.Fatalf("candidates %v", cands)
	}
	// local memory for the default's tiles (2 × 16 steps × 132 × 8 bytes)
	// but not for steps of 32
	d := tileDevice(t, dir, 40000)
	const n, m, k = 100, 70, 50
	runMatmul(t, d, n, m, k)
	if s := d.TileSearches(); s != 1 {
		t.Fatalf("%d searches, want 1", s)
	}
	chosen := d.LastTile()
	if !slices.Contains(cands, chosen) {
		t.Fatalf("chose %v, not a candidate of %v", chosen, cands)
	}
	notes := strings.Join(d.TileNotes(), "\n")
	t.Log(notes)
	if !strings.Contains(notes, "tile "+chosen.String()+", by a search (") || !strings.Contains(notes, "t16r8x8k32 not run") || !strings.Contains(notes, cands[0].String()+" ") {
		t.Errorf("notes: %s", notes)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.tile"))
	if len(files) != 1 {
		t.Fatalf("choice files %v", files)
	}
	data, _ := os.ReadFile(files[0])
	if !strings.Contains(string(data), `"tile":"`+chosen.String()+`"`) {
		t.Errorf("choice file: %s", data)
	}

	// the same device, a new kernel value of the same sizes: no search
	runMatmul(t, d, n, m, k)
	if s := d.TileSearches(); s != 1 || d.LastTile() != chosen {
		t.Errorf("second run: %d searches, %v (want 1, %v)", s, d.LastTile(), chosen)
	}
	// other sizes are another choice
	runMatmul(t, d, 64, 65, 17)
	if s := d.TileSearches(); s != 2 {
		t.Errorf("other sizes: %d searches, want 2", s)
	}

	// another device of the same cache (as a later process): from disk
	d2 := tileDevice(t, dir, 40000)
	runMatmul(t, d2, n, m, k)
	if s := d2.TileSearches(); s != 0 || d2.LastTile() != chosen {
		t.Errorf("from the cache: %d searches, %v (want 0, %v)", s, d2.LastTile(), chosen)
	}
	if notes := strings.Join(d2.TileNotes(), "\n"); !strings.Contains(notes, "tile "+chosen.String()+", from the cache") {
		t.Errorf("notes: %s", notes)
	}

	// damaged, of another format, of another key, naming no candidate:
	// ignored, searched again, and written anew
	for _, bad := range []string{
		"{\"format\": \"fut tile ch",
		strings.Replace(string(data), tileFormat, "fut tile choice 0", 1),
		strings.Replace(string(data), filepath.Base(strings.TrimSuffix(files[0], ".tile")), strings.Repeat("0", 64), 1),
		strings.Replace(string(data), `"tile":"`+chosen.String()+`"`, `"tile":"t4r1x1k1"`, 1),
		"\x00\xff",
	} {
		if err := os.WriteFile(files[0], []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		d3 := tileDevice(t, dir, 40000)
		runMatmul(t, d3, n, m, k)
		if s := d3.TileSearches(); s != 1 {
			t.Errorf("choice file %q: %d searches, want 1", bad, s)
		}
		if again, _ := os.ReadFile(files[0]); !strings.Contains(string(again), tileFormat) {
			t.Errorf("choice file %q not written anew: %s", bad, again)
		}
		d3.Close()
	}

	// the switches: no search, the default or the sizes asked for
	t.Setenv("FUT_TILE_SEARCH", "0")
	d4 := tileDevice(t, t.TempDir(), 0)
	runMatmul(t, d4, n, m, k)
	if s := d4.TileSearches(); s != 0 || d4.LastTile() != cands[0] {
		t.Errorf("FUT_TILE_SEARCH=0: %d searches, %v", s, d4.LastTile())
	}
	t.Setenv("FUT_TILE_SEARCH", "always")
	t.Setenv("FUT_TILE_REG", "2")
	runMatmul(t, d4, n, m, k)
	if s, want := d4.TileSearches(), (opencl.TileConfig{Threads: 16, RegY: 2, RegX: 2, Step: 16}); s != 0 || d4.LastTile() != want {
		t.Errorf("FUT_TILE_REG=2: %d searches, %v (want %v)", s, d4.LastTile(), want)
	}
	t.Setenv("FUT_TILE_REG", "")
	t.Setenv("FUT_TILE", "t8r4x2k8")
	runMatmul(t, d4, n, m, k)
	if s, want := d4.TileSearches(), (opencl.TileConfig{Threads: 8, RegY: 4, RegX: 2, Step: 8}); s != 0 || d4.LastTile() != want {
		t.Errorf("FUT_TILE: %d searches, %v (want %v)", s, d4.LastTile(), want)
	}
	t.Setenv("FUT_TILE", "t8r4")
	kern, _ := matmulTiled()
	a, b, out := alloc(t, d4, I64, n, k), alloc(t, d4, I64, k, m), alloc(t, d4, I64, n, m)
	defer func() { a.Release(); b.Release(); out.Release() }()
	if err := d4.Run(kern, int64(n), int64(m), int64(k), a, b, out); err == nil || !strings.Contains(err.Error(), "FUT_TILE") {
		t.Errorf("FUT_TILE=t8r4: %v", err)
	}
}

// TestTileSearchSmall: without FUT_TILE_SEARCH=always a tiled kernel of
// little work runs its default sizes without a search.
func TestTileSearchSmall(t *testing.T) {
	t.Setenv("FUT_TILE_SEARCH", "")
	t.Setenv("FUT_TILE", "")
	t.Setenv("FUT_TILE_REG", "")
	d := tileDevice(t, t.TempDir(), 0)
	runMatmul(t, d, 100, 70, 50)
	_, tl := matmulTiled()
	if s := d.TileSearches(); s != 0 || d.LastTile() != opencl.DefaultTile(tl) {
		t.Errorf("%d searches, %v", s, d.LastTile())
	}
}

// TestTileSearchFails: a search whose kernel fails a bounds check keeps
// no choice on disk, the run reports the failure as the reference path
// would, and the next run does not measure again.
func TestTileSearchFails(t *testing.T) {
	t.Setenv("FUT_TILE_SEARCH", "always")
	t.Setenv("FUT_TILE", "")
	t.Setenv("FUT_TILE_REG", "")
	dir := t.TempDir()
	d := tileDevice(t, dir, 0)
	kern, tl := matmulTiled()
	c := Buf("c", I64, kern.Params[2].V())
	kern.Params = append(kern.Params, c)
	e := tl.Body[0].(*Let)
	e.E = Bin("+", e.E, Rd(c, Bin("+", tl.T, Int(I64, 5)))) // past c's end for the last 5
	const n, m, k = 70, 65, 20
	a, b, out, cb := alloc(t, d, I64, n, k), alloc(t, d, I64, k, m), alloc(t, d, I64, n, m), alloc(t, d, I64, k)
	defer func() { a.Release(); b.Release(); out.Release(); cb.Release() }()
	for run := 0; run < 2; run++ {
		err := d.Run(kern, int64(n), int64(m), int64(k), a, b, out, cb)
		var ke *KernelError
		if !errors.As(err, &ke) || !strings.Contains(err.Error(), "out of bounds") {
			t.Fatalf("run %d: %v, want an index out of bounds", run, err)
		}
		if s := d.TileSearches(); s != 1 {
			t.Errorf("run %d: %d searches, want 1", run, s)
		}
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*.tile")); len(files) != 0 {
		t.Errorf("a failed search kept %v", files)
	}
	if notes := strings.Join(d.TileNotes(), "\n"); !strings.Contains(notes, "the kernel failed while its sizes were measured") {
		t.Errorf("notes: %s", notes)
	}
}
