package runtime

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"fut/gpu/cl"
	"fut/gpu/kernel"
	"fut/gpu/opencl"
)

// Tile sizes chosen per device (issue 12).
//
// A Tiled kernel's sizes (threads, points a thread, the step of T: an
// opencl.TileConfig) are the generator's to vary and the device's to
// judge. At the first run of a tiled kernel on a device, on sizes large
// enough for the choice to matter (tileSearchMinWork), the run measures
// each of opencl.TileCandidates on its own arguments, writing into
// scratch buffers in place of its outputs (a tiled kernel writes nothing
// else, so the call's results are the chosen kernel's alone): each is
// built, launched up to tileLaunches times and timed by its events (by
// the host's clock around a finish where the device runs untimed), the
// first launch a warm-up where there are more; the fastest is kept, in
// memory for the process and on disk beside the built kernels
// (<cache>/<key>.tile), keyed by the device, its driver, the build
// options, the kernel's source with its default sizes and the sizes of
// the run, so that a later process takes it without measuring. Every
// candidate folds in the same order (opencl's tile_config.go says why), so
// the choice changes the time and not the result.
//
// Candidates the device cannot run (more local memory than it has, a
// group larger than the kernel takes) or that fail to build or launch
// are left out; a search whose kernel fails (a bounds check) keeps
// nothing, and the run that follows reports the failure. The search
// measures at most tileSearchBudget of launches.
//
// Switches, to compare: FUT_TILE=NAME (opencl.ParseTile's names) runs
// every tiled kernel of NAME's form with those sizes; FUT_TILE_REG=R
// runs two-dimensional ones with the default sizes but R×R points a
// thread; FUT_TILE_SEARCH=0 runs the defaults, FUT_TILE_SEARCH=always
// searches whatever the sizes (the tests, on small problems).

// tileSearchMinWork is the fewest points·K for which a tiled kernel's
// sizes are searched: below it a launch takes microseconds on a GPU and
// the search's builds cost more than any choice could save.
var tileSearchMinWork = int64(1) << 28

// tileLaunches is the launches of each candidate, the first a warm-up;
// tileSearchBudget bounds the time the launches of one search take.
const (
	tileLaunches     = 3
	tileSearchBudget = 2 * time.Second
)

// maxTileChoices bounds the choices a device keeps in memory (a memo of
// the disk's), maxTileNotes the notes kept for -v until taken.
const (
	maxTileChoices = 1024
	maxTileNotes   = 64
)

// tileFormat marks a choice's file; one of another format is ignored.
const tileFormat = "fut tile choice 1"

// tileState is a device's chosen tile sizes.
type tileState struct {
	chosen map[string]opencl.TileConfig // by tileKey
	// byRun memoises chosen by kernel and sizes: finding the key takes
	// the default kernel's source, whose generation and hash took about
	// 0.5 ms of each call of a matmul or n-body on an H100
	byRun    map[tileRun]opencl.TileConfig
	notes    []string
	searches int               // searches run (tests)
	last     opencl.TileConfig // the sizes of the last tiled kernel run (tests)
}

// tileRun is a tiled kernel with the sizes of a run (its dimensions,
// then K).
type tileRun struct {
	k     *kernel.Kernel
	sizes [3]int64
}

// tileFile is the JSON of a choice on disk.
type tileFile struct {
	Format string             `json:"format"`
	Key    string             `json:"key"`
	Kernel string             `json:"kernel"`
	Tile   string             `json:"tile"`
	MS     map[string]float64 `json:"ms,omitempty"` // the figures measured, by candidate
}

// TileNotes returns what the tile searches and the cache chose since the
// last call (for -v), and forgets it.
func (d *Device) TileNotes() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := d.tiles.notes
	d.tiles.notes = nil
	return n
}

// TileSearches is how many tile searches d has run.
func (d *Device) TileSearches() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.tiles.searches
}

// LastTile is the sizes the last tiled kernel run on d was built with.
func (d *Device) LastTile() opencl.TileConfig {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.tiles.last
}

func (d *Device) tileNote(format string, args ...any) {
	if len(d.tiles.notes) >= maxTileNotes {
		d.tiles.notes = d.tiles.notes[1:]
	}
	d.tiles.notes = append(d.tiles.notes, fmt.Sprintf(format, args...))
}

func (d *Device) keepTile(key string, c opencl.TileConfig) {
	if d.tiles.chosen == nil || len(d.tiles.chosen) >= maxTileChoices {
		d.tiles.chosen = map[string]opencl.TileConfig{}
	}
	d.tiles.chosen[key] = c
}

// keepRun memoises the sizes run r takes.
func (d *Device) keepRun(r tileRun, c opencl.TileConfig) {
	if d.tiles.byRun == nil || len(d.tiles.byRun) >= maxTileChoices {
		d.tiles.byRun = map[tileRun]opencl.TileConfig{}
	}
	d.tiles.byRun[r] = c
}

// tileFor is the sizes k (of shape s) runs with, its scalar arguments
// bound in l: forced by FUT_TILE or FUT_TILE_REG, known, read from the
// disk, or searched. The zero value is the default. Callers hold d.mu.
func (d *Device) tileFor(k *kernel.Kernel, s *kernel.Tiled, l *launch) (opencl.TileConfig, error) {
	forced, err := opencl.TileEnv()
	if err != nil {
		return opencl.TileConfig{}, fmt.Errorf("runtime: kernel %s: %v", k.Name, err)
	}
	if forced.Fits(s) {
		return forced, nil
	}
	mode := os.Getenv("FUT_TILE_SEARCH")
	if mode == "0" || mode == "off" || len(s.Dims) == 2 && os.Getenv("FUT_TILE_REG") != "" {
		return opencl.TileConfig{}, nil
	}
	sizes := make([]int64, 0, 3)
	work := int64(1)
	for _, e := range append(append([]kernel.Exp{}, s.Dims...), s.K) {
		n, err := l.size(e, 0)
		if err != nil {
			return opencl.TileConfig{}, err
		}
		sizes = append(sizes, n)
		if n = max(n, 1); work > (1<<62)/n {
			work = 1 << 62
		} else {
			work *= n
		}
	}
	if work < tileSearchMinWork && mode != "always" {
		return opencl.TileConfig{}, nil
	}
	run := tileRun{k: k}
	copy(run.sizes[:], sizes)
	if c, ok := d.tiles.byRun[run]; ok && len(sizes) <= len(run.sizes) {
		return c, nil
	}
	c, err := d.tileChoice(k, s, l, sizes)
	if err == nil {
		d.keepRun(run, c)
	}
	return c, err
}

// tileChoice is tileFor's choice for a run of sizes not memoised: known
// by its key, read from the disk, or searched.
func (d *Device) tileChoice(k *kernel.Kernel, s *kernel.Tiled, l *launch, sizes []int64) (opencl.TileConfig, error) {
	def := opencl.DefaultTile(s)
	gen, err := opencl.GenerateTile(k, d.Caps, def)
	if err != nil {
		return opencl.TileConfig{}, nil // the build reports it
	}
	key := d.tileKey(gen.Source, sizes)
	if c, ok := d.tiles.chosen[key]; ok {
		return c, nil
	}
	what := fmt.Sprintf("kernel %s (%s)", k.Name, sizeList(sizes))
	cands := opencl.TileCandidates(s)
	path := ""
	if dir := d.CacheDir(); dir != "" {
		path = filepath.Join(dir, key+".tile")
		if c, ok := readTile(path, key, cands); ok {
			d.keepTile(key, c)
			d.tileNote("%s: tile %s, from the cache (%s)", what, c, path)
			return c, nil
		}
	}
	best, ms, why, err := d.tileSearch(k, l, cands)
	if err != nil {
		return opencl.TileConfig{}, err
	}
	if why != "" {
		// the default for the process, not measured again each call
		d.keepTile(key, opencl.TileConfig{})
		d.tileNote("%s: tile %s (the default): %s", what, def, why)
		return opencl.TileConfig{}, nil
	}
	d.keepTile(key, best)
	var figs []string
	for _, c := range cands {
		if t, ok := ms[c.String()]; ok {
			figs = append(figs, fmt.Sprintf("%s %.3f ms", c, t))
		} else {
			figs = append(figs, fmt.Sprintf("%s not run", c))
		}
	}
	d.tileNote("%s: tile %s, by a search (%s)", what, best, strings.Join(figs, ", "))
	if path != "" {
		data, err := json.Marshal(tileFile{Format: tileFormat, Key: key, Kernel: k.Name, Tile: best.String(), MS: ms})
		if err == nil {
			writeAtomic(filepath.Dir(path), path, data) // a failed write only costs a search
		}
	}
	return best, nil
}

// tileKey names a choice: the device, its driver, the build options, the
// kernel's source with its default sizes and the run's sizes (with
// FUT_TILE_SPLIT, which changes a one-dimensional kernel's launch).
func (d *Device) tileKey(source string, sizes []int64) string {
	h := sha256.New()
	for _, s := range []string{tileFormat, source, d.cfg.Options, d.Info.Platform.Name, d.Info.Name, d.Info.Version, d.Info.DriverVersion, sizeList(sizes), os.Getenv("FUT_TILE_SPLIT")} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

func sizeList(sizes []int64) string {
	ss := make([]string, len(sizes))
	for i, n := range sizes {
		ss[i] = fmt.Sprint(n)
	}
	return strings.Join(ss, "×")
}

// readTile reads the choice of key at path: one of cands, or nothing
// where the file is missing, unreadable, of another format or key, or
// names sizes that are not candidates now.
func readTile(path, key string, cands []opencl.TileConfig) (opencl.TileConfig, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return opencl.TileConfig{}, false
	}
	var f tileFile
	if json.Unmarshal(data, &f) != nil || f.Format != tileFormat || f.Key != key {
		return opencl.TileConfig{}, false
	}
	c, err := opencl.ParseTile(f.Tile)
	if err != nil {
		return opencl.TileConfig{}, false
	}
	for _, o := range cands {
		if o == c {
			return c, true
		}
	}
	return opencl.TileConfig{}, false
}

// tileSearch measures cands on l's arguments, the outputs of k replaced
// by scratch buffers: the fastest, the milliseconds of each measured (by
// name), or why nothing was chosen.
func (d *Device) tileSearch(k *kernel.Kernel, l *launch, cands []opencl.TileConfig) (opencl.TileConfig, map[string]float64, string, error) {
	// an earlier kernel's failure comes first, and its work is not timed
	if err := d.flushLocked(); err != nil {
		return opencl.TileConfig{}, nil, "", err
	}
	d.tiles.searches++
	s := k.Shape.(*kernel.Tiled)
	args := append([]any(nil), l.args...)
	var scratch []*cl.Buffer
	defer func() {
		for _, b := range scratch {
			b.Release()
		}
	}()
	var bytes int64
	for i, p := range k.Params {
		for _, o := range s.Out {
			b, ok := l.args[i].(*cl.Buffer)
			if p != o || !ok {
				continue
			}
			if bytes += int64(b.Size); bytes > int64(d.Info.GlobalMem/8) {
				return opencl.TileConfig{}, nil, "its outputs are too large to measure on scratch buffers", nil
			}
			sb, err := d.ctx.CreateBuffer(cl.MemReadWrite, b.Size)
			if err != nil {
				return opencl.TileConfig{}, nil, fmt.Sprintf("no scratch buffer for the search (%v)", err), nil
			}
			scratch = append(scratch, sb)
			args[i] = sb
		}
	}
	ms := map[string]float64{}
	best, bestT := opencl.TileConfig{}, time.Duration(-1)
	var spent time.Duration
	for _, cand := range cands {
		if spent >= tileSearchBudget {
			break
		}
		c, err := d.compileTile(k, cand)
		if err != nil || c.gen.TileLocal > int(d.Info.LocalMem) || c.gen.Tile.Group() > c.maxGroup {
			continue // not for this device
		}
		lc := &launch{d: d, c: c, k: k, args: args, sizes: l.sizes}
		t, n, err := d.timeTiled(lc, &spent)
		if err != nil {
			continue
		}
		ms[cand.String()] = float64(t) / 1e6
		if n > 0 && (bestT < 0 || t < bestT) {
			best, bestT = cand, t
		}
	}
	if err := d.checkError(k); err != nil {
		return opencl.TileConfig{}, nil, "the kernel failed while its sizes were measured", nil
	}
	if bestT < 0 {
		return opencl.TileConfig{}, nil, "no candidate ran", nil
	}
	return best, ms, "", nil
}

// timeTiled launches lc up to tileLaunches times, adding their time to
// spent: the fastest launch after the first (the first alone where the
// budget allowed no more), and how many launches were timed.
func (d *Device) timeTiled(lc *launch, spent *time.Duration) (time.Duration, int, error) {
	var times []time.Duration
	for i := 0; i < tileLaunches && (i == 0 || *spent < tileSearchBudget); i++ {
		lc.events, lc.evName = nil, nil
		t0 := time.Now()
		err := lc.run()
		if err == nil {
			err = d.ctx.Finish()
		}
		wall := time.Since(t0)
		t, timed := time.Duration(0), len(lc.events) > 0
		for _, ev := range lc.events {
			if s, e, terr := ev.Times(); err == nil && terr == nil && e >= s {
				t += time.Duration(e - s)
			} else {
				timed = false
			}
			ev.Release()
		}
		if err != nil {
			return 0, 0, err
		}
		if !timed { // untimed: the host's clock
			t = wall
		}
		*spent += t
		times = append(times, t)
	}
	best := times[0]
	if len(times) > 1 {
		best = times[1]
		for _, t := range times[2:] {
			best = min(best, t)
		}
	}
	return best, len(times), nil
}
