package eval

import "testing"

// BenchmarkCompiledLoop runs a while loop over tuple state in a compiled
// function body (compile_loop.go).
func BenchmarkCompiledLoop(b *testing.B) {
	compiledRuns(b, `
def collatz (n: i64) = loop (x, k) = (n, 0i64) while x != 1 do (if x % 2 == 0 then x / 2 else 3 * x + 1, k + 1)
def steps (m: i64) = loop s = 0 for i < m do s + (collatz (i + 1)).1
`, `steps 2000`)
}

// BenchmarkCompiledInPlaceLoop is BenchmarkInPlaceLoop's loop of
// in-place updates in a function body.
func BenchmarkCompiledInPlaceLoop(b *testing.B) {
	compiledRuns(b, `def fill (n: i64) = loop a = replicate n 0i64 for i < n do a with [i] = i * 2`, `fill 1000000`)
}

func compiledRuns(b *testing.B, src, expr string) {
	costRuns(b, func(b *testing.B, cost bool) {
		s := benchSession(b, cost)
		if _, _, err := s.run(src); err != nil {
			b.Fatal(err)
		}
		benchExpr(b, s, expr)
	})
}
