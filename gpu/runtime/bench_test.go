package runtime

import (
	"os"
	"sort"
	"strconv"
	"testing"
	"time"

	. "fut/gpu/kernel"
)

// benchN is the problem size: $FUT_BENCH_N, else 2^22 (2^27 is the GPU size
// of shared/BENCHMARKS.md).
func benchN() int {
	if s := os.Getenv("FUT_BENCH_N"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			return n
		}
	}
	return 1 << 22
}

// benchKernel runs k once to warm up, then b.N times, and reports the
// median device time of the kernel (all its OpenCL kernels) and the
// bandwidth for the given bytes moved.
func benchKernel(b *testing.B, d *Device, k *Kernel, bytes int64, args ...any) {
	if _, err := d.Prepare(k); err != nil {
		b.Fatal(err)
	}
	if err := d.Run(k, args...); err != nil {
		b.Fatal(err)
	}
	var times []time.Duration
	b.Cleanup(func() { b.Logf("last run:\n%s", d.Profile.Table()) })
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d.Profile.Reset()
		if err := d.Run(k, args...); err != nil {
			b.Fatal(err)
		}
		var t time.Duration
		for _, e := range d.Profile.Entries() {
			t += e.Total
		}
		times = append(times, t)
	}
	b.StopTimer()
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	med := times[len(times)/2]
	b.ReportMetric(float64(med)/1e6, "device-ms")
	if med > 0 {
		b.ReportMetric(float64(bytes)/float64(med), "GB/s")
	}
}

func BenchmarkSaxpy(b *testing.B) {
	d := device(b)
	n := benchN()
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i), 1
	}
	ax, ay, out := up(b, d, F32, x, int64(n)), up(b, d, F32, y, int64(n)), alloc(b, d, F32, int64(n))
	defer ax.Release()
	defer ay.Release()
	defer out.Release()
	benchKernel(b, d, saxpyKernel(F32), int64(12*n), int64(n), float32(2), ax, ay, out)
}

func BenchmarkDotprod(b *testing.B) {
	d := device(b)
	n := benchN()
	x := make([]float32, n)
	for i := range x {
		x[i] = 1
	}
	ax, ay, out := up(b, d, F32, x, int64(n)), up(b, d, F32, x, int64(n)), alloc(b, d, F32, 1)
	defer ax.Release()
	defer ay.Release()
	benchKernel(b, d, mapReduceKernel("dot", F32, "+", Float(F32, 0), true, true), int64(8*n), int64(n), ax, ay, out)
}

func BenchmarkScan(b *testing.B) {
	d := device(b)
	n := benchN()
	x := make([]int32, n)
	for i := range x {
		x[i] = 1
	}
	ax, out := up(b, d, I32, x, int64(n)), alloc(b, d, I32, int64(n))
	defer ax.Release()
	defer out.Release()
	benchKernel(b, d, scanKernel("prefix", I32, "+"), int64(8*n), int64(n), ax, out)
}

// BenchmarkFilter: a compaction keeping half the elements (bytes: the
// input read, the kept half written).
func BenchmarkFilter(b *testing.B) {
	d := device(b)
	n := benchN()
	x := make([]int32, n)
	for i := range x {
		x[i] = int32(i*7919) % 1000
	}
	k := compactKernel(I32, func(x, i Exp) Exp { return Bin("<", x, Int(I32, 500)) })
	ax := up(b, d, I32, x, int64(n))
	dx, di, cnt := alloc(b, d, I32, int64(n)), alloc(b, d, F32, int64(n)), alloc(b, d, I64, 1)
	defer ax.Release()
	defer dx.Release()
	defer di.Release()
	benchKernel(b, d, k, int64(4*n+8*n/2), int64(n), ax, dx, di, cnt)
}

func BenchmarkHist(b *testing.B) {
	d := device(b)
	n := benchN()
	idx := make([]int32, n)
	for i := range idx {
		idx[i] = int32(i*7919) % 256
	}
	// hist (+) 0 256 is (replicate n 1)
	np, bp := Scalar("n", I64), Scalar("b", I64)
	is, dest := Buf("is", I32, np.V()), Buf("dest", I32, bp.V())
	i := NewVar("i", I64)
	k := &Kernel{Name: "hist", Params: []*Param{np, bp, is, dest}, Shape: &Hist{
		N: np.V(), I: i, Dest: dest, Bin: Cv(I64, Rd(is, i)), Val: Int(I32, 1),
		Op: BinLambda("+", I32), OpName: "+", Neutral: Int(I32, 0)}}
	ai, ad := up(b, d, I32, idx, int64(n)), alloc(b, d, I32, 256)
	defer ai.Release()
	benchKernel(b, d, k, int64(4*n), int64(n), int64(256), ai, ad)
}
