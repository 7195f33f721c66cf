package session

import (
	"context"
	"path/filepath"
	"testing"

	"fut/eval/value"
)

// BenchmarkCallHost times offloaded calls of the GPU benchmarks on
// small inputs, as fut bench times the large ones (plan made and
// arguments uploaded once, results left on the device, kernels
// untimed): what the host adds to a call beside its kernels. Compare
// with the cl package's BenchmarkLaunchFloor on the same device; the
// allocations are the host path's own (-benchmem).
func BenchmarkCallHost(b *testing.B) {
	if _, err := OffloadDevice(); err != nil {
		b.Skipf("no OpenCL device (%v)", err)
	}
	const n = 4096
	f32s := func(seed int) value.Value {
		xs := make([]float32, n)
		for i := range xs {
			xs[i] = float32((i*seed)%97) / 97
		}
		return value.NewPrimArrayData(value.F32, []int64{n}, xs)
	}
	i32s := make([]int32, n)
	for i := range i32s {
		i32s[i] = int32(i % 7)
	}
	ctx := context.Background()
	for _, c := range []struct {
		prog string
		args []value.Value
	}{
		{"saxpy", []value.Value{f32s(3), f32s(5)}},
		{"dotprod", []value.Value{f32s(3), f32s(5)}},
		{"scan", []value.Value{value.NewPrimArrayData(value.I32, []int64{n}, i32s)}},
		{"filter", []value.Value{f32s(7)}},
		{"mandelbrot", []value.Value{value.I64Val(16), value.I64Val(16)}},
	} {
		b.Run(c.prog, func(b *testing.B) {
			s, err := NewSession(Options{})
			if err != nil {
				b.Fatal(err)
			}
			if err := s.LoadFile(ctx, filepath.Join("..", "..", "examples", "bench", c.prog+".fut")); err != nil {
				b.Fatal(s.FormatError(err))
			}
			call, why := s.PrepareOffload(BackendOpenCL, "main", c.args)
			if call == nil {
				b.Fatal(why)
			}
			resident, err := call.Upload()
			if err != nil {
				b.Fatal(err)
			}
			defer func() {
				for _, a := range resident {
					if a != nil {
						a.Release()
					}
				}
			}()
			run := func() {
				res, _, why, err := call.Run(ctx, resident, true)
				if res == nil || err != nil {
					b.Fatal(why, err)
				}
				res.Release()
			}
			run() // builds the kernels
			call.SetKernelTiming(false)
			defer call.SetKernelTiming(true)
			b.ReportAllocs()
			for b.Loop() {
				run()
			}
		})
	}
}
