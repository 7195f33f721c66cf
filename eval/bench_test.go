package eval

import (
	"context"
	"fmt"
	"math"
	"testing"

	"fut/eval/value"
	"fut/interp/syntax"
)

// Benchmarks of the reference evaluator beside the plain Go loop that
// computes the same thing. Run with: go test ./eval -bench . -run XXX

const benchN = 10_000_000

func benchSession(b *testing.B, cost bool) *session {
	s := newSession(b, cost)
	return s
}

func benchExpr(b *testing.B, s *session, src string) {
	e, err := syntax.ParseExpr(s.fset, "<bench>", []byte(src))
	if err != nil {
		b.Fatal(err)
	}
	if s.check != nil {
		// an expression the checker rejects would run untyped, on other
		// paths than a program's
		if _, err := s.check.CheckExpr(e); err != nil {
			b.Fatalf("type check %q: %v", src, s.fset.FormatAll(err))
		}
	}
	b.ResetTimer()
	c0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if _, _, err := s.in.EvalExpr(context.Background(), e); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, c0)
}

func sumSquaresData() []float64 {
	d := make([]float64, benchN)
	for i := range d {
		d[i] = float64(i%1000) / 1000
	}
	return d
}

func BenchmarkSumSquares(b *testing.B) {
	costRuns(b, func(b *testing.B, cost bool) {
		s := benchSession(b, cost)
		// the data as the Go side's (sumSquaresData), defined in the
		// program so that the checker knows its type
		if _, _, err := s.run(fmt.Sprintf(`def xs = map (\i -> f64.i64 (i %% 1000) / 1000) (iota %d)`, benchN)); err != nil {
			b.Fatal(err)
		}
		benchExpr(b, s, `reduce (+) 0 (map (\x -> x * x) xs)`)
	})
}

var sink float64

func BenchmarkSumSquaresGo(b *testing.B) {
	d := sumSquaresData()
	b.ResetTimer()
	defer reportCPU(b, cpuTime())
	for i := 0; i < b.N; i++ {
		sq := make([]float64, len(d))
		for j, x := range d {
			sq[j] = x * x
		}
		s := 0.0
		for _, x := range sq {
			s += x
		}
		sink = s
	}
}

const mandelSrc = `
def mandel (limit: i32) (cx: f32) (cy: f32) : i32 =
  let (_, _, i) = loop (x, y, i) = (0f32, 0f32, 0) while i < limit && x * x + y * y < 4f32 do
                    (x * x - y * y + cx, 2f32 * x * y + cy, i + 1)
  in i
def mandelbrot (n: i64) (limit: i32) =
  map (\j -> map (\i -> mandel limit (f32.i64 i * 3f32 / f32.i64 n - 2f32) (f32.i64 j * 2f32 / f32.i64 n - 1f32)) (iota n)) (iota n)
`

// costRuns runs f as two sub-benchmarks, without and with cost accounting.
func costRuns(b *testing.B, f func(b *testing.B, cost bool)) {
	for _, cost := range []bool{false, true} {
		name := "nocost"
		if cost {
			name = "cost"
		}
		b.Run(name, func(b *testing.B) { f(b, cost) })
	}
}

func BenchmarkMandelbrot(b *testing.B) {
	costRuns(b, func(b *testing.B, cost bool) {
		s := benchSession(b, cost)
		if _, _, err := s.run(mandelSrc); err != nil {
			b.Fatal(err)
		}
		benchExpr(b, s, `mandelbrot 256 255`)
	})
}

func mandelGo(n int, limit int32) []int32 {
	out := make([]int32, n*n)
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			cx := float32(i)*3/float32(n) - 2
			cy := float32(j)*2/float32(n) - 1
			var x, y float32
			var k int32
			for k < limit && x*x+y*y < 4 {
				x, y = x*x-y*y+cx, 2*x*y+cy
				k++
			}
			out[j*n+i] = k
		}
	}
	return out
}

func BenchmarkMandelbrotGo(b *testing.B) {
	defer reportCPU(b, cpuTime())
	for i := 0; i < b.N; i++ {
		sink = float64(mandelGo(256, 255)[0])
	}
}

const matmulSrc = `
def matmul [n][m][p] (a: [n][m]f64) (b: [m][p]f64) : [n][p]f64 =
  map (\row -> map (\col -> reduce (+) 0 (map2 (*) row col)) (transpose b)) a
`

func matData(n int) []float64 {
	d := make([]float64, n*n)
	for i := range d {
		d[i] = math.Sin(float64(i))
	}
	return d
}

func BenchmarkMatmul(b *testing.B) {
	costRuns(b, func(b *testing.B, cost bool) {
		s := benchSession(b, cost)
		if _, _, err := s.run(matmulSrc); err != nil {
			b.Fatal(err)
		}
		// matData(128), defined in the program (typed by the checker)
		if _, _, err := s.run(`def a = tabulate_2d 128 128 (\i j -> f64.sin (f64.i64 (i * 128 + j)))`); err != nil {
			b.Fatal(err)
		}
		benchExpr(b, s, `matmul a a`)
	})
}

func BenchmarkMatmulGo(b *testing.B) {
	n := 128
	a := matData(n)
	b.ResetTimer()
	defer reportCPU(b, cpuTime())
	for it := 0; it < b.N; it++ {
		c := make([]float64, n*n)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				s := 0.0
				for k := 0; k < n; k++ {
					s += a[i*n+k] * a[k*n+j]
				}
				c[i*n+j] = s
			}
		}
		sink = c[0]
	}
}

// TestMandelbrotAgrees checks the benchmark program against the Go loop.
func TestMandelbrotAgrees(t *testing.T) {
	s := newSession(t, false)
	if _, _, err := s.run(mandelSrc); err != nil {
		t.Fatal(err)
	}
	v, _, err := s.run(`mandelbrot 32 100`)
	if err != nil {
		t.Fatal(err)
	}
	a := v.(*value.Array)
	want := mandelGo(32, 100)
	got := value.Replicate(0, nil)
	_ = got
	flat := a.Reshape([]int64{32 * 32})
	for i, w := range want {
		if g := flat.Index(int64(i)).(value.Prim).Int(); g != int64(w) {
			t.Fatalf("mandelbrot pixel %d = %d, want %d", i, g, w)
		}
	}
}

// BenchmarkInPlaceLoop shows that a loop of n in-place updates takes time
// linear in n (no copy per update): compare the per-op times at two sizes.
func BenchmarkInPlaceLoop(b *testing.B) {
	for _, n := range []string{"100000", "1000000"} {
		b.Run("n="+n, func(b *testing.B) {
			s := benchSession(b, true)
			benchExpr(b, s, `loop a = replicate `+n+` 0i64 for i < `+n+` do a with [i] = i * 2`)
		})
	}
}
