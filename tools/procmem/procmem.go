// Package procmem reads what Linux says of the process's memory, for the
// tests that measure it (the soak, the resident growth of PoCL's
// programs): a field of /proc/self/status and the kernel libraries of
// PoCL's cache mapped into the process. Elsewhere both read as 0.
package procmem

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// Status is a field of /proc/self/status ("VmRSS:", "VmHWM:", …) in
// bytes.
func Status(field string) int64 {
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

// KernelLibraries counts the libraries of PoCL's kernel cache mapped in
// the process (one per kernel and work-group size it built).
func KernelLibraries() int {
	b, _ := os.ReadFile("/proc/self/maps")
	seen := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if i := strings.Index(l, "/kcache/"); i >= 0 {
			seen[l[i:]] = true
		}
	}
	return len(seen)
}
