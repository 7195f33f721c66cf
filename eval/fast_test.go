package eval

import (
	"testing"

	"fut/eval/value"
)

// TestKernelsAgree checks that the specialised SOAC paths (typed loops
// and compiled kernels) give exactly the values and costs of the general
// tree-walking path.
func TestKernelsAgree(t *testing.T) {
	for _, cost := range []bool{true, false} {
		kernelsAgree(t, cost)
	}
}

func kernelsAgree(t *testing.T, cost bool) {
	fast := newSession(t, cost)
	slow := newSession(t, cost)
	slow.in.noFast = true
	decls := []string{
		`def xs = map f64.i64 (iota 37)`,
		`def ys = map (\i -> i32.i64 (i * 7 % 13) - 6) (iota 41)`,
		`def mandel (limit: i32) (cx: f32) (cy: f32) : i32 =
		   let (_, _, i) = loop (x, y, i) = (0f32, 0f32, 0) while i < limit && x*x + y*y < 4 do
		                     (x*x - y*y + cx, 2*x*y + cy, i + 1)
		   in i`,
		`def sq (x: f64) = x * x`,
	}
	for _, d := range decls {
		for _, s := range []*session{fast, slow} {
			if _, _, err := s.run(d); err != nil {
				t.Fatalf("%s: %v", d, err)
			}
		}
	}
	exprs := []string{
		`reduce (+) 0 (map (\x -> x * x) xs)`,
		`reduce (+) 0.0 xs`,
		`reduce (*) 1 ys`,
		`reduce i32.max i32.lowest ys`,
		`reduce (\a b -> a + b) 0 ys`,
		`reduce (\a b -> if a > b then a else b) 0 ys`,
		`reduce (\a b -> a * 0.5 + b) 0.0 xs`,
		`scan (+) 0 ys`,
		`scan (+) 0.0 xs`,
		`map (* 2) ys`,
		`map (2 -) ys`,
		`map sq xs`,
		`map (\x -> f64.sqrt x + 1) xs`,
		`map (\x -> if x > 3 then x - 1 else x + 1) ys`,
		`map (\x -> let y = x * 2 in y + y) ys`,
		`map (\x -> (x, x + 1)) ys`,
		`map2 (+) ys ys`,
		`map2 (\a b -> a * b + 1) xs xs`,
		`map (\x -> loop acc = 0 for i < x do acc + i) ys`,
		`map (\x -> loop (a, b) = (0, 1) for i < 10 do (b, a + b + x)) ys`,
		`map (\i -> mandel 50 (f32.i64 i / 20 - 1.5) 0.3) (iota 40)`,
		`map (\i -> ys[i] + ys[40 - i]) (iota 41)`,
		`map (\x -> x / 2 + x % 3) ys`,
		`map (\x -> f32.f64 x) xs`,
		`hist (+) 0 5 (map (\i -> i % 7) (iota 41)) ys`,
		`reduce_by_index (replicate 4 0.0) (+) 0.0 (map (\i -> i % 5) (iota 37)) xs`,
		`map (\x -> x && true) [true, false]`,
		`reduce (&&) true [true, false, true]`,
		`reduce (+) 0 (map (\x -> x * 3) ys)`,
		`reduce (+) 0.0 (map2 (*) xs xs)`,
		`reduce (*) 1 (map2 (\a b -> a - b + 2) ys ys)`,
		`reduce f64.max (-f64.inf) (map f64.sqrt xs)`,
		`let z = 3 in reduce (+) 0 (map (\x -> x + z) (iota 10))`,
		`reduce (+) 0 (map (+ 1) (iota 0))`,
		`map (\x -> 2 * x - x * x + 0.5 * x > x - 1) xs`,
		`map (\x -> f32.f64 x * 2f32 - f32.f64 x * f32.f64 x + 1f32 < 3f32) xs`,
		`map2 (\a b -> (a + b) * (a - b) + 1.5 - a) xs xs`,
		`reduce (\(a, i) (b, j) -> if a < b then (a, i) else (b, j)) (f64.inf, -1) (zip xs (iota 37))`,
		`reduce (\(a, i) (b, j) -> if a >= b then (a, i) else (b, j)) (i32.lowest, -1) (zip ys (iota 41))`,
		`reduce (\(a, b) (c, d) -> (a + c, b * d)) (0.0, 1.0) (zip xs xs)`,
	}
	for _, src := range exprs {
		v1, c1, err1 := fast.run(src)
		v2, c2, err2 := slow.run(src)
		if err1 != nil || err2 != nil {
			t.Errorf("%s: errors %v / %v", src, err1, err2)
			continue
		}
		if value.String(v1) != value.String(v2) {
			t.Errorf("%s: fast %s, slow %s", src, short(value.String(v1)), short(value.String(v2)))
		}
		if c1 != c2 {
			t.Errorf("%s: fast cost %v, slow cost %v", src, c1, c2)
		}
	}
	// errors inside kernels are the same errors
	for _, src := range []string{`map (\i -> ys[i + 1]) (iota 41)`, `map (\x -> 10 / (x - x)) ys`} {
		_, _, err1 := fast.run(src)
		_, _, err2 := slow.run(src)
		if err1 == nil || err2 == nil || err1.Error() != err2.Error() {
			t.Errorf("%s: fast error %v, slow error %v", src, err1, err2)
		}
	}
}
