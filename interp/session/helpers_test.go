package session

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"fut/eval/value"
)

// fileSession is a session with opts that has loaded src, written to the
// file name in a temporary folder (its path is the second result).
func fileSession(t *testing.T, name, src string, opts Options) (*Session, string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.LoadFile(context.Background(), file); err != nil {
		t.Fatal(s.FormatError(err))
	}
	return s, file
}

// randomVectors draws from rng n floats in [-1, 1), n more, and n
// non-negative i32s, element by element.
func randomVectors(rng *rand.Rand, n int) (xs, ys []float32, is []int32) {
	xs, ys, is = make([]float32, n), make([]float32, n), make([]int32, n)
	for i := range xs {
		xs[i] = float32(rng.Float64()*2 - 1)
		ys[i] = float32(rng.Float64()*2 - 1)
		is[i] = int32(rng.Uint32() >> 1)
	}
	return xs, ys, is
}

// f32s and i32s are one-dimensional arrays of the values.
func f32s(x []float32) value.Value {
	return value.NewPrimArrayData(value.F32, []int64{int64(len(x))}, x)
}
func i32s(x []int32) value.Value { return value.NewPrimArrayData(value.I32, []int64{int64(len(x))}, x) }
