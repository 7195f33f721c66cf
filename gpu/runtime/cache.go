package runtime

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"fut/gpu/cl"
	"fut/gpu/kernel"
	"fut/gpu/opencl"
)

// What a built program costs the process, and how the cache bounds it.
//
// A program kept built holds host memory in the OpenCL implementation
// (its LLVM module, binaries and kernel metadata): on PoCL (the CPU
// device of the development and CI machines) about 0.13 MiB for a
// reduction's two kernels, beyond what any program built leaves (below),
// and more for the larger programs of a REPL session. The cache keeps
// defaultMaxPrograms of them (the least recently used go first), where it
// kept 512. Released programs leave their memory free in the C
// allocator's heaps, which glibc does not give back by itself; every
// trimEvery evictions, and when the device closes, the allocator is asked
// to (cl.TrimHostMemory: 25 to 35 MiB given back in a process that has
// built 50 to 300 programs). TestResidentGrowth measures it (FUT_RSS=1):
// 300 reductions built one after another add 0.237 MiB each to the
// resident size with 512 kept, 0.106 MiB each past the 128 kept.
//
// PoCL also keeps every kernel it has built loaded (a shared library
// compiled for each kernel and work-group size, dlopened and never
// closed, in the process and not the context: releasing the programs and
// the context leaves them mapped, measured) at about 50 KiB of resident
// memory (the 0.106 MiB of a two-kernel program above) and four memory
// mappings per kernel; the mappings alone would reach the kernel's limit
// per process (vm.max_map_count, 65530) after about 16000 kernels. Nothing fut can release frees them, so on such an
// implementation fut builds at most loadedLimit programs of distinct
// sources per process; past that, new programs are refused with a
// *ProgramLimitError (the call runs on the reference path) while those
// built still run.
const (
	defaultMaxPrograms = 128
	trimEvery          = 16
)

// loadedLimit is the most programs of distinct sources built per process
// on an implementation that keeps its kernels loaded (a variable for the
// tests).
var loadedLimit = 2048

// loaded is the sources of the programs built in this process on such
// implementations (their kernels stay loaded whatever fut releases).
var loaded struct {
	mu   sync.Mutex
	keys map[string]bool
}

// keepsKernelsLoaded says whether the implementation of d keeps the
// kernels it builds loaded until the process ends: PoCL's CPU devices.
func keepsKernelsLoaded(d *cl.Device) bool {
	return d.Platform != nil && strings.Contains(d.Platform.Name, "Portable Computing Language") && d.Type&cl.TypeCPU != 0
}

// ProgramLimitError is the refusal to build a new program on an
// implementation that keeps its kernels loaded, past loadedLimit.
type ProgramLimitError struct {
	Platform string
	Limit    int
}

func (e *ProgramLimitError) Error() string {
	return fmt.Sprintf("%s keeps every kernel it builds loaded until the process ends (about 50 KiB and 4 memory mappings each): "+
		"this process has built %d programs of distinct sources on it, the most fut builds there; new ones are not built", e.Platform, e.Limit)
}

// admitLoaded says whether a program of source key may be built: always
// where the implementation releases kernels, else if it was built before
// or the process is under loadedLimit.
func (d *Device) admitLoaded(key string) error {
	if !d.keepsKernels {
		return nil
	}
	loaded.mu.Lock()
	defer loaded.mu.Unlock()
	if loaded.keys[key] || len(loaded.keys) < loadedLimit {
		return nil
	}
	return &ProgramLimitError{Platform: d.Info.Platform.Name, Limit: loadedLimit}
}

// noteLoaded records that a program of source key is built.
func (d *Device) noteLoaded(key string) {
	if !d.keepsKernels {
		return
	}
	loaded.mu.Lock()
	defer loaded.mu.Unlock()
	if loaded.keys == nil {
		loaded.keys = map[string]bool{}
	}
	loaded.keys[key] = true
}

// compiled is a built program with its kernels.
type compiled struct {
	gen     *opencl.Program
	prog    *cl.Program
	kernels map[string]*cl.Kernel
	group   int // work-group size usable by every kernel of the program
	// maxGroup is the largest work-group every kernel of the program
	// takes (a tiled kernel's own size is its TileConfig's)
	maxGroup int
	// BuildTime is how long generation and build (or the disk cache load) took.
	BuildTime time.Duration
	FromDisk  bool
	key       string // in bySrc
	// the extras of the last map launched (mapExtras), under the
	// device's mu
	divDims     []int64
	divExtras   map[string]any
	divFallback bool // opencl.MapDivFallback when divExtras was made
}

// mapExtras is opencl.MapDivisors(dims), the same map as the last
// launch's where its dimensions were the same (the device's mu held;
// the map is read, never changed).
func (c *compiled) mapExtras(dims []int64) map[string]any {
	if c.divExtras == nil || !slices.Equal(dims, c.divDims) || c.divFallback != opencl.MapDivFallback {
		c.divDims, c.divExtras, c.divFallback = slices.Clone(dims), opencl.MapDivisors(dims), opencl.MapDivFallback
	}
	return c.divExtras
}

func (c *compiled) release() {
	for _, k := range c.kernels {
		k.Release()
	}
	c.prog.Release()
}

// cacheKey hashes the source, the options and the device.
func (d *Device) cacheKey(source, options string) string {
	h := sha256.New()
	for _, s := range []string{source, options, d.Info.Platform.Name, d.Info.Name, d.Info.Version, d.Info.DriverVersion} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// CacheDir is the directory of the disk cache ("" when disabled).
func (d *Device) CacheDir() string {
	if d.cfg.NoCache {
		return ""
	}
	if d.cfg.CacheDir != "" {
		return d.cfg.CacheDir
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "fut", "kernels")
}

// kernMemo is a kernel value with the tile sizes it is built with (the
// zero value for every kernel but a Tiled one of chosen sizes).
type kernMemo struct {
	k    *kernel.Kernel
	tile opencl.TileConfig
}

// Compile generates and builds k (memoised per kernel value, per source
// in memory, and per source hash on disk). Callers hold d.mu.
func (d *Device) compile(k *kernel.Kernel) (*compiled, error) {
	return d.compileTile(k, opencl.TileConfig{})
}

// compileTile is compile of a Tiled kernel with the sizes tile.
func (d *Device) compileTile(k *kernel.Kernel, tile opencl.TileConfig) (*compiled, error) {
	d.uses++
	m := kernMemo{k, tile}
	if c, ok := d.byKern[m]; ok {
		d.lastUse[c.key] = d.uses
		return c, nil
	}
	t0 := time.Now()
	gen, err := opencl.GenerateTile(k, d.Caps, tile)
	if err != nil {
		return nil, err
	}
	key := d.cacheKey(gen.Source, d.cfg.Options)
	if c, ok := d.bySrc[key]; ok {
		d.remember(m, c)
		return c, nil
	}
	if err := d.admitLoaded(key); err != nil {
		return nil, err
	}
	c := &compiled{gen: gen, kernels: map[string]*cl.Kernel{}, key: key}
	dir := d.CacheDir()
	path := ""
	if dir != "" {
		path = filepath.Join(dir, key+".bin")
		if bin, err := os.ReadFile(path); err == nil {
			if p, err := d.ctx.ProgramFromBinary(bin, d.cfg.Options); err == nil {
				c.prog, c.FromDisk = p, true
			}
		}
	}
	if dump := os.Getenv("FUT_CL_DUMP"); dump != "" {
		// the source of every program built or loaded, by its cache key
		writeAtomic(dump, filepath.Join(dump, key+".cl"), []byte(gen.Source))
	}
	if c.prog == nil {
		p, err := d.ctx.BuildProgram(gen.Source, d.cfg.Options)
		if err != nil {
			return nil, err
		}
		c.prog = p
		if os.Getenv("FUT_CL_BUILD_LOG") == "1" {
			fmt.Fprintf(os.Stderr, "fut: built %s (%s):\n%s\n", k.Name, d.cfg.Options, p.BuildLog())
		}
		if path != "" {
			if bin, err := p.Binary(); err == nil && len(bin) > 0 {
				writeAtomic(dir, path, bin) // a failed cache write only costs a rebuild
			}
		}
	}
	c.prog.SetMaxRegisters(gen.MaxRegs)
	c.group, c.maxGroup = d.group, d.Info.MaxWorkGroup
	for _, e := range gen.Entries {
		kr, err := c.prog.Kernel(e.Name)
		if err != nil {
			c.release()
			return nil, err
		}
		c.kernels[e.Name] = kr
		for c.group > 1 && c.group > kr.WorkGroupSize() {
			c.group /= 2
		}
		c.maxGroup = min(c.maxGroup, kr.WorkGroupSize())
	}
	d.noteLoaded(key)
	c.BuildTime = time.Since(t0)
	d.Profile.addBuild(k.Name, c.BuildTime, c.FromDisk)
	d.evict()
	d.bySrc[key] = c
	d.remember(m, c)
	return c, nil
}

// remember notes that kernel m.k is built with m.tile as c.
func (d *Device) remember(m kernMemo, c *compiled) {
	if len(d.byKern) >= d.maxKernels {
		clear(d.byKern) // only a memo: the programs stay in bySrc
	}
	d.byKern[m] = c
	d.lastUse[c.key] = d.uses
}

// evict releases the least recently used program when bySrc is full.
// Callers hold d.mu, and a launch holds it from its compile to its end,
// so no program in use is ever released.
func (d *Device) evict() {
	for len(d.bySrc) >= d.maxPrograms && len(d.bySrc) > 0 {
		oldest, at := "", int64(-1)
		for key := range d.bySrc {
			if u := d.lastUse[key]; at < 0 || u < at {
				oldest, at = key, u
			}
		}
		d.bySrc[oldest].release()
		delete(d.bySrc, oldest)
		delete(d.lastUse, oldest)
		clear(d.byKern)
		if d.evictions++; d.evictions%trimEvery == 0 {
			cl.TrimHostMemory()
		}
	}
}

// Cached is the number of programs and kernel memos the device holds.
func (d *Device) Cached() (programs, kernels int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.bySrc), len(d.byKern)
}

func writeAtomic(dir, path string, data []byte) {
	if os.MkdirAll(dir, 0o755) != nil {
		return
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil || os.Rename(f.Name(), path) != nil {
		os.Remove(f.Name())
	}
}

// Source returns the OpenCL C generated for k on this device (for :ir).
func (d *Device) Source(k *kernel.Kernel) (string, error) {
	gen, err := opencl.Generate(k, d.Caps)
	if err != nil {
		return "", err
	}
	return gen.Source, nil
}

// Prepare builds k ahead of its first Run and returns the build time.
func (d *Device) Prepare(k *kernel.Kernel) (time.Duration, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	c, err := d.compile(k)
	if err != nil {
		return 0, err
	}
	return c.BuildTime, nil
}
