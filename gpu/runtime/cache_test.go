package runtime

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fut/eval/value"
	. "fut/gpu/kernel"
)

func TestDiskCache(t *testing.T) {
	device(t)
	dir := t.TempDir()
	k := saxpyKernel(F32)
	d1, err := Open(Config{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer d1.Close()
	if _, err := d1.Prepare(k); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.bin"))
	if len(files) != 1 {
		t.Fatalf("want one cached binary, found %v", files)
	}
	d2, err := Open(Config{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	if _, err := d2.Prepare(k); err != nil {
		t.Fatal(err)
	}
	if !d2.byKern[kernMemo{k: k}].FromDisk {
		t.Fatal("second device did not load the kernel from the disk cache")
	}
	if !strings.Contains(d2.Profile.Table(), "(disk cache)") {
		t.Fatalf("profile does not show the cached build:\n%s", d2.Profile.Table())
	}
	// and it runs
	x := up(t, d2, F32, []float32{1, 2}, 2)
	o := alloc(t, d2, F32, 2)
	if err := d2.Run(k, int64(2), float32(3), x, x, o); err != nil {
		t.Fatal(err)
	}
	if got := down[float32](t, o); got[0] != 4 || got[1] != 8 {
		t.Fatalf("got %v", got)
	}
	// a corrupt cache file falls back to building from source
	os.WriteFile(files[0], []byte("garbage"), 0o644)
	d3, err := Open(Config{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer d3.Close()
	if _, err := d3.Prepare(k); err != nil || d3.byKern[kernMemo{k: k}].FromDisk {
		t.Fatalf("corrupt cache: %v", err)
	}
	// --no-cache has no directory
	if (&Device{cfg: Config{NoCache: true}}).CacheDir() != "" {
		t.Fatal("NoCache still has a cache directory")
	}
}

func TestProfileAndSource(t *testing.T) {
	d := device(t)
	k := saxpyKernel(F32)
	src, err := d.Source(k)
	if err != nil || !strings.Contains(src, "__kernel void saxpy_f32_map(") {
		t.Fatalf("source: %v", err)
	}
	d.Profile.Reset()
	x := up(t, d, F32, []float32{1, 2, 3}, 3)
	o := alloc(t, d, F32, 3)
	for i := 0; i < 3; i++ {
		if err := d.Run(k, int64(3), float32(1), x, x, o); err != nil {
			t.Fatal(err)
		}
	}
	es := d.Profile.Entries()
	if len(es) != 1 || es[0].Name != "saxpy_f32_map" || es[0].Calls != 3 {
		t.Fatalf("profile entries %+v", es)
	}
	tab := d.Profile.Table()
	if !strings.Contains(tab, "saxpy_f32_map") || !strings.Contains(tab, "calls") || !strings.Contains(tab, "mean") {
		t.Fatalf("table:\n%s", tab)
	}
	// arguments are checked
	if err := d.Run(k, int64(3), true, x, x, o); err == nil {
		t.Fatal("bool given for an f32 scalar was accepted")
	}
	if err := d.Run(k, int64(3), float32(1), x, x); err == nil {
		t.Fatal("missing argument accepted")
	}
	if err := d.Run(k, int64(3), float32(1), x, x, int64(3)); err == nil {
		t.Fatal("scalar for a buffer accepted")
	}
}

func TestUploadDownloadEveryType(t *testing.T) {
	d := device(t)
	for _, vt := range []value.PrimType{value.Bool, value.I8, value.I16, value.I32, value.I64, value.U8, value.U16, value.U32, value.U64, value.F16, value.F32, value.F64} {
		data := value.MakeData(vt, 6)
		for i := 0; i < 6; i++ {
			var p value.Prim
			switch {
			case vt == value.Bool:
				p = value.MkBool(i%2 == 1)
			case vt.IsFloat():
				p = value.MkFloat(vt, float64(i)*1.5-2)
			default:
				p = value.MkInt(vt, int64(i*37-100))
			}
			value.DataSet(data, i, p)
		}
		v := value.NewPrimArrayData(vt, []int64{2, 3}, data)
		a, err := d.UploadValue(v)
		if err != nil {
			t.Fatalf("%v: %v", vt, err)
		}
		b, err := a.Copy()
		if err != nil {
			t.Fatal(err)
		}
		back, err := b.Value()
		if err != nil {
			t.Fatal(err)
		}
		if back.T != vt || len(back.Shape) != 2 || back.Shape[1] != 3 {
			t.Fatalf("%v: came back as %v %v", vt, back.T, back.Shape)
		}
		for i := 0; i < 6; i++ {
			if g, w := value.DataGet(vt, back.Data, i), value.DataGet(vt, data, i); g != w {
				t.Fatalf("%v element %d: %v, want %v", vt, i, g, w)
			}
		}
		a.Release()
		b.Release()
	}
	if _, err := d.Upload(I32, []int64{3}, []int32{1, 2}); err == nil {
		t.Fatal("wrong element count accepted")
	}
	if _, err := d.Upload(I32, []int64{2}, []float32{1, 2}); err == nil {
		t.Fatal("wrong element type accepted")
	}
}

// TestCacheBounded checks that a long session (a new kernel value per
// offloaded call, new programs now and then) keeps a bounded number of
// built programs and memos, and that an evicted program is rebuilt and
// still right when its kernel comes back.
func TestCacheBounded(t *testing.T) {
	device(t)
	d, err := Open(Config{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	d.maxPrograms, d.maxKernels = 2, 3
	types := []Type{F32, F64, I32}
	for round := 0; round < 3; round++ {
		for _, ty := range types {
			k := saxpyKernel(ty) // a new kernel value every time
			if _, err := d.Prepare(k); err != nil {
				t.Fatal(err)
			}
			if p, m := d.Cached(); p > 2 || m > 3 {
				t.Fatalf("cache holds %d programs and %d kernel memos, bounds 2 and 3", p, m)
			}
		}
	}
	// the program of F32 was evicted along the way; it runs again
	k := saxpyKernel(F32)
	x := up(t, d, F32, []float32{1, 2}, 2)
	o := alloc(t, d, F32, 2)
	if err := d.Run(k, int64(2), float32(3), x, x, o); err != nil {
		t.Fatal(err)
	}
	if got := down[float32](t, o); got[0] != 4 || got[1] != 8 {
		t.Fatalf("got %v", got)
	}
}

// TestLoadedLimit: on an implementation that keeps every kernel it builds
// loaded (PoCL), new programs past the per-process limit are refused with
// a *ProgramLimitError that says why, while programs built before (kept,
// or evicted and built again from the same source) still run.
func TestLoadedLimit(t *testing.T) {
	device(t)
	d, err := Open(Config{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if !d.keepsKernels {
		t.Skipf("%s releases the kernels it builds: no limit", d.Info.Platform.Name)
	}
	d.maxPrograms = 1
	loaded.mu.Lock()
	old := loadedLimit
	loadedLimit = len(loaded.keys) + 2
	loaded.mu.Unlock()
	defer func() { loadedLimit = old }()
	prog := func(i int64) *Kernel {
		// min with a different bound above the data: distinct sources
		return mapReduceKernel(fmt.Sprintf("limit%d", i), I64, "min", Int(I64, 987650+i), true, false)
	}
	x := up(t, d, I64, []int64{1, 2, 3}, 3)
	o := alloc(t, d, I64, 1)
	run := func(i int64) error {
		if err := d.Run(prog(i), int64(3), x, o); err != nil {
			return err
		}
		if got := down[int64](t, o)[0]; got != 1 {
			t.Fatalf("program %d: %d, want 1", i, got)
		}
		return nil
	}
	for i := int64(0); i < 2; i++ {
		if err := run(i); err != nil {
			t.Fatalf("program %d under the limit: %v", i, err)
		}
	}
	err = run(2)
	var le *ProgramLimitError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "keeps every kernel it builds loaded") {
		t.Fatalf("a new program past the limit: %v", err)
	}
	// program 0 was evicted (one program kept): built again, it runs
	for _, i := range []int64{0, 1} {
		if err := run(i); err != nil {
			t.Fatalf("program %d built before the limit: %v", i, err)
		}
	}
}
