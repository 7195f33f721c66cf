package opencl

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"fut/gpu/kernel"
)

// The sizes a Tiled kernel is generated with, and the few that are worth
// measuring on a device (the runtime's search, gpu/runtime/tile_search.go,
// times them at a kernel's first run and keeps the fastest).
//
// Every candidate folds each point's elements in the order of T, from the
// neutral element, whatever its sizes: two dimensions split nothing (a
// point is one thread's accumulator over every step), and one dimension
// splits T into nsplit ranges, which the launch chooses from the device
// and the sizes alone (launch.go's tileSplit), not from the candidate; the
// candidates of one dimension differ only in the group's threads and the
// elements staged between barriers, neither of which moves a range's
// bounds. So the candidates of a kernel give the same integers and, up to
// the contraction that contractible allows the compiler (which it may use
// or not in any of them, as already between a block's checked and
// unchecked folds), the same floats.

// TileConfig is the sizes of a Tiled kernel. Two dimensions: a group of
// Threads×Threads work items computes a block of Threads·RegY by
// Threads·RegX points, RegY×RegX points a thread, staging Step elements
// of T between barriers. One dimension: a group of Threads work items,
// each staging Step elements of its range a step (0: by the rule of
// tileStep1 and tileStepM). The zero value is the kernel's default
// (DefaultTile, with FUT_TILE_REG).
type TileConfig struct {
	Threads    int
	RegY, RegX int
	Step       int
}

// IsZero says whether c is the zero value (the default).
func (c TileConfig) IsZero() bool { return c == TileConfig{} }

// Group is the work items of a work-group.
func (c TileConfig) Group() int {
	if c.RegY > 0 {
		return c.Threads * c.Threads
	}
	return c.Threads
}

// Block is the points of a block along dimension dim (two dimensions).
func (c TileConfig) Block(dim int) int {
	if dim == 0 {
		return c.Threads * c.RegY
	}
	return c.Threads * c.RegX
}

// String names c as FUT_TILE takes it: t16r8x4k16 (two dimensions:
// threads, points of a thread, step), g256 or g256m2 (one dimension:
// the group, the elements a thread stages).
func (c TileConfig) String() string {
	switch {
	case c.IsZero():
		return "default"
	case c.RegY > 0:
		return fmt.Sprintf("t%dr%dx%dk%d", c.Threads, c.RegY, c.RegX, c.Step)
	case c.Step > 0:
		return fmt.Sprintf("g%dm%d", c.Threads, c.Step)
	}
	return fmt.Sprintf("g%d", c.Threads)
}

// ParseTile reads a name of String's form. Two dimensions take 4 to 32
// threads a dimension (a power of two), 1 to 8 points a thread along
// each and steps of 1 to 64; one dimension groups of 32 to 1024 (a power
// of two) and 1 to 8 elements staged a thread.
func ParseTile(s string) (TileConfig, error) {
	bad := fmt.Errorf("not a tile configuration: %q (write e.g. t16r8x8k16 for two dimensions, g256 or g256m2 for one)", s)
	num := func(s string, lo, hi int, pow2 bool) (int, bool) {
		n, err := strconv.Atoi(s)
		return n, err == nil && n >= lo && n <= hi && (!pow2 || n&(n-1) == 0)
	}
	switch {
	case strings.HasPrefix(s, "t"):
		th, rest, ok1 := strings.Cut(s[1:], "r")
		ry, rest, ok2 := strings.Cut(rest, "x")
		rx, k, ok3 := strings.Cut(rest, "k")
		if !ok1 || !ok2 || !ok3 {
			return TileConfig{}, bad
		}
		var c TileConfig
		var ok [4]bool
		c.Threads, ok[0] = num(th, 4, 32, true)
		c.RegY, ok[1] = num(ry, 1, 8, false)
		c.RegX, ok[2] = num(rx, 1, 8, false)
		c.Step, ok[3] = num(k, 1, 64, false)
		if ok != [4]bool{true, true, true, true} {
			return TileConfig{}, bad
		}
		return c, nil
	case strings.HasPrefix(s, "g"):
		g, m, hasM := strings.Cut(s[1:], "m")
		var c TileConfig
		var ok bool
		if c.Threads, ok = num(g, 32, 1024, true); !ok {
			return TileConfig{}, bad
		}
		if hasM {
			if c.Step, ok = num(m, 1, 8, false); !ok {
				return TileConfig{}, bad
			}
		}
		return c, nil
	}
	return TileConfig{}, bad
}

// Fits says whether c is of t's form (two dimensions or one).
func (c TileConfig) Fits(t *kernel.Tiled) bool {
	return !c.IsZero() && (c.RegY > 0) == (len(t.Dims) == 2)
}

// DefaultTile is t's default sizes: TileThreads² work items of
// tileReg(ts) points each by TileK steps (two dimensions); TileGroup
// work items staging by the rule (one). FUT_TILE_REG does not change it.
func DefaultTile(t *kernel.Tiled) TileConfig {
	if len(t.Dims) != 2 {
		return TileConfig{Threads: TileGroup}
	}
	r := defaultReg(componentTypes(t.Elems))
	return TileConfig{Threads: TileThreads, RegY: r, RegX: r, Step: TileK}
}

// resolveTile is the sizes t is generated with for c: c, or for the zero
// value the default with FUT_TILE_REG's points a thread (two dimensions).
func resolveTile(t *kernel.Tiled, c TileConfig) TileConfig {
	if !c.IsZero() {
		return c
	}
	c = DefaultTile(t)
	if r := envInt("FUT_TILE_REG", 1, 8, 0); r > 0 && c.RegY > 0 {
		c.RegY, c.RegX = r, r
	}
	return c
}

// maxTileCandidates bounds TileCandidates: each is built and run a few
// times by the search.
const maxTileCandidates = 6

// TileCandidates are the sizes the runtime's search measures for t, the
// default first: in two dimensions steps of half and twice the default's,
// half the points a thread along the second dimension, and a quarter as
// many threads or points (more, smaller groups: for products whose blocks
// would leave compute units idle, and where the default's registers
// spill); in one dimension groups of half, twice and four times the
// default's and staging one or four elements a thread. Local memory and
// the work-group's size are the device's to check (Program.TileLocal,
// Program.Tile.Group); a variant whose accumulators would take more than
// the default's registers is left out.
func TileCandidates(t *kernel.Tiled) []TileConfig {
	def := DefaultTile(t)
	out := []TileConfig{def}
	add := func(c TileConfig) {
		for _, o := range out {
			if o == c {
				return
			}
		}
		if len(out) < maxTileCandidates {
			out = append(out, c)
		}
	}
	if def.RegY == 0 {
		for _, c := range []TileConfig{{Threads: 128}, {Threads: 512}, {Threads: 1024}, {Threads: TileGroup, Step: 1}, {Threads: TileGroup, Step: 4}} {
			add(c)
		}
		return out
	}
	r, th, k := def.RegY, def.Threads, def.Step
	half := max(1, r/2)
	for _, c := range []TileConfig{
		{th, r, r, k / 2},
		{th, r, r, 2 * k},
		{th, r, half, k},
		{th / 2, r, r, k},
		{th, half, half, k},
	} {
		add(c)
	}
	return out
}

// defaultReg is the points a thread computes along each dimension by
// default: 8×8 where the accumulators of a point take at most 8 bytes
// (on an H100, a 4096² f32 product took 17.2 ms with 2×2, 11.5 with
// 4×4, 7.9 with 8×8), else TileReg×TileReg, to stay within the
// registers.
func defaultReg(ts []kernel.Type) int {
	bytes := 0
	for _, t := range ts {
		bytes += t.Size()
	}
	if bytes <= 8 {
		return 8
	}
	return TileReg
}

// TileEnv is FUT_TILE's sizes, for comparisons: the zero value where it
// is unset; an error where it does not parse.
func TileEnv() (TileConfig, error) {
	s := os.Getenv("FUT_TILE")
	if s == "" {
		return TileConfig{}, nil
	}
	c, err := ParseTile(s)
	if err != nil {
		return TileConfig{}, fmt.Errorf("FUT_TILE: %v", err)
	}
	return c, nil
}
