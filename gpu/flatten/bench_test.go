package flatten_test

import (
	"context"
	"testing"

	"fut/interp/session"
)

// BenchmarkOffload compares the reference evaluator with the offload path
// (lower, fuse, flatten, run; kernels cached after the first iteration)
// on whole REPL expressions.
func BenchmarkOffload(b *testing.B) {
	s, err := session.NewSession(session.Options{})
	if err != nil {
		b.Fatal(err)
	}
	d, err := session.OffloadDevice()
	if err != nil {
		b.Skipf("no OpenCL device: %v", err)
	}
	b.Logf("device: %s (%s)", d.Name(), d.Info.Platform.Name)
	ctx := context.Background()
	for _, c := range []struct{ name, src string }{
		{"logsum_1e6", `reduce (+) 0 (map (\i -> f32.log (f32.i64 i)) (1...1000000))`},
		{"mandel_64k", `map (\p -> let (cr, ci) = (f32.i64 (p % 256) / 128 - 1.5, f32.i64 (p / 256) / 128 - 1) in (loop (x, y, k) = (0f32, 0f32, 0i32) while k < 100 && x*x + y*y < 4 do (x*x - y*y + cr, 2*x*y + ci, k+1)).2) (iota 65536)`},
	} {
		b.Run(c.name+"/reference", func(b *testing.B) {
			for b.Loop() {
				if _, err := s.EvalExpr(ctx, c.src); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/offload", func(b *testing.B) {
			for b.Loop() {
				if _, off, why, err := s.EvalOffload(ctx, c.src); err != nil || !off {
					b.Fatal(why, err)
				}
			}
		})
	}
}
