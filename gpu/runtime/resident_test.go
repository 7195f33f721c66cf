package runtime

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"fut/gpu/cl"
	. "fut/gpu/kernel"
	"fut/tools/procmem"
)

// TestResidentGrowth measures what building new programs one after
// another (as a long REPL session does: every offloaded call with new
// constants is a new program) costs the process's resident size, and
// checks that past the cache's bound each new program adds only what the
// OpenCL implementation keeps whatever fut releases (PoCL: its kernels'
// libraries, about 50 KiB each). It takes minutes (PoCL compiles each
// program with LLVM), so it runs only when asked:
//
//	FUT_RSS=1 go test ./gpu/runtime -run TestResidentGrowth -v -timeout 30m
//
// FUT_RSS_PROGRAMS (default 300) sets how many programs it builds and
// FUT_RSS_KEEP the cache's bound (default defaultMaxPrograms; 512 was
// the bound before, for a comparison).
func TestResidentGrowth(t *testing.T) {
	if os.Getenv("FUT_RSS") != "1" {
		t.Skip("minutes of program builds: FUT_RSS=1 runs it")
	}
	device(t)
	n := envInt("FUT_RSS_PROGRAMS", 300)
	d, err := Open(Config{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	d.maxPrograms = envInt("FUT_RSS_KEEP", defaultMaxPrograms)
	xs := make([]int64, 1000)
	x := up(t, d, I64, xs, 1000)
	o := alloc(t, d, I64, 1)
	// sources new to the process and to PoCL's disk cache of kernels
	salt := time.Now().UnixNano() % 1e9 * 1000
	var at []int64 // resident size (after trimming) after each tenth
	start := time.Now()
	for i := 0; i < n; i++ {
		k := mapReduceKernel(fmt.Sprintf("rss%d", i), I64, "min", Int(I64, salt+int64(i)), true, false)
		if err := d.Run(k, int64(1000), x, o); err != nil {
			t.Fatal(err)
		}
		if (i+1)%(n/10) == 0 {
			rss := procmem.Status("VmRSS:")
			cl.TrimHostMemory()
			trimmed := procmem.Status("VmRSS:")
			at = append(at, trimmed)
			p, _ := d.Cached()
			t.Logf("%4d programs (%3d kept) at %5.0fs: VmRSS %4d MiB, %4d MiB after trimming, %4d kernel libraries mapped",
				i+1, p, time.Since(start).Seconds(), rss>>20, trimmed>>20, procmem.KernelLibraries())
		}
	}
	// over the last half, past the cache's bound when n > 2·keep
	half := at[len(at)/2-1]
	per := float64(at[len(at)-1]-half) / float64(n-n/2) / (1 << 20)
	t.Logf("%.3f MiB per program over the last %d programs", per, n-n/2)
	if n/2 >= d.maxPrograms && per > 0.15 {
		t.Errorf("each new program adds %.3f MiB past the cache's bound of %d programs", per, d.maxPrograms)
	}
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}
