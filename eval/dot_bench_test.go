package eval

import "testing"

func BenchmarkDot128(b *testing.B) {
	s := benchSession(b, false)
	// matData(128)'s first two rows, defined in the program (typed by the checker)
	if _, _, err := s.run(`def r = map (\i -> f64.sin (f64.i64 i)) (iota 128) def c = map (\i -> f64.sin (f64.i64 (128 + i))) (iota 128)`); err != nil {
		b.Fatal(err)
	}
	benchExpr(b, s, `reduce (+) 0 (map2 (*) r c)`)
}
