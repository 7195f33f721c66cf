//go:build unix

package eval

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime is the CPU time the process has used (all threads, the
// collector's included): on a shared machine a benchmark's CPU time per
// op varies far less with the load than its wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds the CPU time per op since c0 to b's results.
func reportCPU(b *testing.B, c0 time.Duration) {
	b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "cpu-ns/op")
}
