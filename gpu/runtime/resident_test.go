package runtime

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"fut/gpu/cl"
	. "fut/gpu/kernel"
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
			rss := procField("VmRSS:")
			cl.TrimHostMemory()
			trimmed := procField("VmRSS:")
			at = append(at, trimmed)
			p, _ := d.Cached()
			t.Logf("%4d programs (%3d kept) at %5.0fs: VmRSS %4d MiB, %4d MiB after trimming, %4d kernel libraries mapped",
				i+1, p, time.Since(start).Seconds(), rss>>20, trimmed>>20, kernelLibraries())
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

// procField reads a field of /proc/self/status in bytes.
func procField(field string) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field); ok {
			var kb int64
			fmt.Sscan(rest, &kb)
			return kb << 10
		}
	}
	return 0
}

// kernelLibraries counts the libraries of PoCL's kernel cache mapped in
// the process.
func kernelLibraries() int {
	b, _ := os.ReadFile("/proc/self/maps")
	seen := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if i := strings.Index(l, "/kcache/"); i >= 0 {
			seen[l[i:]] = true
		}
	}
	return len(seen)
}
