package eval

import "testing"

func TestAD(t *testing.T) {
	s := newSession(t, false)
	cases := []struct{ src, want string }{
		{`jvp (\x -> x * x) 3.0 1.0`, "6.0f64"},
		{`vjp (\x -> x * x) 3.0 1.0`, "6.0f64"},
		{`jvp f32.sin 0f32 1f32`, "1.0f32"},
		{`jvp (\x -> f64.exp (2 * x)) 0.0 1.0`, "2.0f64"},
		{`vjp (\xs -> reduce (+) 0 (map (\x -> x * x) xs)) [1.0, 2.0] 1.0`, "[2.0f64, 4.0f64]"},
		{`jvp (\(x, y) -> x * y) (2.0, 5.0) (1.0, 0.0)`, "5.0f64"},
		{`vjp (\(x, y) -> (x * y, x + y)) (2.0, 5.0) (1.0, 1.0)`, "(6.0f64, 3.0f64)"},
		{`jvp (\xs -> map (\x -> x / 2) xs) [2.0, 4.0] [1.0, 1.0]`, "[0.5f64, 0.5f64]"},
		{`vjp (\x -> let a = replicate 3 0.0 let a[1] = x * 3 in reduce (+) 0 a) 1.0 1.0`, "3.0f64"},
		{`jvp (\x -> if x > 0 then x * 2 else 0) 1.0 1.0`, "2.0f64"},
		{`jvp (\x -> f64.i32 (i32.f64 x) + x) 1.5 1.0`, "2.0f64"}, // the tangent converted too, as in Futhark
		{`jvp2 (\x -> x ** 3) 2.0 1.0`, "(8.0f64, 12.0f64)"},
		// nested: each jvp has its own perturbation (d/dx of d/dy x·y is
		// 1, not 2), second derivatives, a vjp inside a jvp and inside a vjp
		{`jvp (\x -> jvp (\y -> x * y) 2.0 1.0) 3.0 1.0`, "1.0f64"},
		{`jvp (\x -> jvp (\y -> y * y * y) x 1.0) 2.0 1.0`, "12.0f64"},
		{`jvp (\x -> jvp (\y -> f64.sin y) x 1.0) 0.5 1.0`, "-0.479425538604203f64"},
		{`jvp (\x -> vjp (\y -> x * y * y) 3.0 1.0) 2.0 1.0`, "6.0f64"},
		{`vjp (\x -> vjp (\y -> x * x * y) 3.0 1.0) 2.0 1.0`, "4.0f64"},
		{`jvp (\a -> jvp (\x -> (x - a) ** 2) 1.0 1.0) 5.0 1.0`, "-2.0f64"},
		// sum types: the payload carries the tangents (vjp gave the input
		// back as its adjoint)
		{`vjp (\(x: #a f64 | #b f64) -> match x case #a y -> y ** 2 case #b y -> y ** 3) (#b 2.0) 1.0`, "(#b 12.0f64)"},
		{`jvp (\(x: #a f64 | #b f64) -> match x case #a y -> y ** 2 case #b y -> y ** 3) (#b 2.0) (#b 1.0)`, "12.0f64"},
		{`vjp (\(x: f64) -> (#b (x * x)) : (#a f64 | #b f64)) 3.0 (#b 1.0)`, "6.0f64"},
		{`vjp (\(x: f64) -> (#b (x * x)) : (#a f64 | #b f64)) 3.0 (#a 1.0)`, "0.0f64"},
	}
	for _, c := range cases {
		if got := s.val(c.src); got != c.want {
			t.Errorf("%s = %s, want %s", c.src, got, c.want)
		}
	}
}

// The cotangent of a bool input is false, whatever the input.
func TestVJPBoolCotangent(t *testing.T) {
	s := newSession(t, false)
	got := s.val(`vjp (\(b: bool, x: f64) -> if b then x * 2 else x) (true, 3.0) 1.0`)
	if got != "(false, 2.0f64)" {
		t.Errorf("vjp with a bool input = %s", got)
	}
}
