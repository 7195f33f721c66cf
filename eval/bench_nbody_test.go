package eval

import (
	"math"
	"testing"

	"fut/eval/value"
)

// The all-pairs n-body accelerations written as people write Futhark:
// a record vector type, small helper functions in a module, and a map of
// reduces over maps of a partially applied function.
const nbodySrc = `
type vec3 = {x: f32, y: f32, z: f32}
module V = {
  def vadd (a: vec3) (b: vec3) : vec3 = {x = a.x + b.x, y = a.y + b.y, z = a.z + b.z}
  def vsub (a: vec3) (b: vec3) : vec3 = {x = a.x - b.x, y = a.y - b.y, z = a.z - b.z}
  def vscale (s: f32) (a: vec3) : vec3 = {x = s * a.x, y = s * a.y, z = s * a.z}
  def dot (a: vec3) (b: vec3) : f32 = a.x * b.x + a.y * b.y + a.z * b.z
  def zero : vec3 = {x = 0, y = 0, z = 0}
}
type body = {pos: vec3, mass: f32}
def accel (bi: body) (bj: body) : vec3 =
  let d = V.vsub bj.pos bi.pos
  let r2 = V.dot d d + 1e-6f32
  let inv = 1f32 / f32.sqrt r2
  in V.vscale (bj.mass * inv * inv * inv) d
def accels [n] (bodies: [n]body) : [n]vec3 =
  map (\b -> reduce V.vadd V.zero (map (accel b) bodies)) bodies
def mkbodies (n: i64) : [n]body =
  map (\i -> {pos = {x = f32.i64 (i % 17) * 0.1f32, y = f32.i64 (i % 13) * 0.2f32, z = f32.i64 (i % 11) * 0.3f32},
              mass = f32.i64 (i % 5) + 1f32}) (iota n)
def bodies = mkbodies 1024
`

func BenchmarkNbody(b *testing.B) {
	costRuns(b, func(b *testing.B, cost bool) {
		s := benchSession(b, cost)
		if _, _, err := s.run(nbodySrc); err != nil {
			b.Fatal(err)
		}
		if _, _, err := s.run(`length bodies`); err != nil {
			b.Fatal(err)
		}
		benchExpr(b, s, `accels bodies`)
	})
}

// BenchmarkNbodyLambda is BenchmarkNbody with the inner function a
// lambda over the outer body, a new closure for each outer element.
func BenchmarkNbodyLambda(b *testing.B) {
	costRuns(b, func(b *testing.B, cost bool) {
		s := benchSession(b, cost)
		if _, _, err := s.run(nbodySrc); err != nil {
			b.Fatal(err)
		}
		benchExpr(b, s, `map (\b -> reduce V.vadd V.zero (map (\bj -> accel b bj) bodies)) bodies`)
	})
}

type vec3 struct{ x, y, z float32 }

func nbodyData(n int) ([]vec3, []float32) {
	ps := make([]vec3, n)
	ms := make([]float32, n)
	for i := range ps {
		ps[i] = vec3{float32(i%17) * 0.1, float32(i%13) * 0.2, float32(i%11) * 0.3}
		ms[i] = float32(i%5) + 1
	}
	return ps, ms
}

func nbodyGo(ps []vec3, ms []float32, acc []vec3) {
	for i := range ps {
		var a vec3
		for j := range ps {
			d := vec3{ps[j].x - ps[i].x, ps[j].y - ps[i].y, ps[j].z - ps[i].z}
			r2 := d.x*d.x + d.y*d.y + d.z*d.z + 1e-6
			inv := 1 / float32(math.Sqrt(float64(r2)))
			s := ms[j] * inv * inv * inv
			a = vec3{a.x + s*d.x, a.y + s*d.y, a.z + s*d.z}
		}
		acc[i] = a
	}
}

func BenchmarkNbodyGo(b *testing.B) {
	ps, ms := nbodyData(1024)
	acc := make([]vec3, len(ps))
	b.ResetTimer()
	defer reportCPU(b, cpuTime())
	for i := 0; i < b.N; i++ {
		nbodyGo(ps, ms, acc)
		sink = float64(acc[len(acc)/2].x)
	}
}

// TestNbodyAgrees checks the benchmark program against the Go loop (up to
// rounding: fut reduces in a balanced tree, the loop from left to right).
func TestNbodyAgrees(t *testing.T) {
	s := newSession(t, false)
	if _, _, err := s.run(nbodySrc); err != nil {
		t.Fatal(err)
	}
	v, _, err := s.run(`accels (mkbodies 64)`)
	if err != nil {
		t.Fatal(err)
	}
	ps, ms := nbodyData(64)
	want := make([]vec3, 64)
	nbodyGo(ps, ms, want)
	a := v.(*value.Array)
	for i, w := range want {
		r := a.Index(int64(i))
		var got [3]float64
		for k, f := range []string{"x", "y", "z"} {
			rec, ok := r.(*value.Record)
			if !ok {
				t.Fatalf("body %d: %s is not a record", i, value.String(r))
			}
			fv, _ := rec.Field(f)
			got[k] = fv.(value.Prim).Float()
		}
		for k, wk := range []float32{w.x, w.y, w.z} {
			if d := math.Abs(got[k] - float64(wk)); d > 1e-3*math.Max(1, math.Abs(float64(wk))) {
				t.Fatalf("body %d component %d = %g, want %g", i, k, got[k], wk)
			}
		}
	}
}
