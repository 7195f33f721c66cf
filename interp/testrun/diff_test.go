package testrun

import (
	"strings"
	"testing"

	"fut/eval/value"
)

func f32s(xs ...float32) *value.Array {
	return value.NewPrimArrayData(value.F32, []int64{int64(len(xs))}, xs)
}

// TestCloseEnough: the floats of an expected array are matched within one
// absolute tolerance, scaled by its largest magnitude, as futhark test
// matches them; a scalar by its own magnitude.
func TestCloseEnough(t *testing.T) {
	const tol = 0.002
	cases := []struct {
		got, want value.Value
		ok        bool
	}{
		// an element near zero at the scale of its array (fourier.fut)
		{f32s(45, 5.841374e-6), f32s(45, -5.51091e-15), true},
		{f32s(45, 0.08), f32s(45, 0), true},   // 0.08 <= 0.002·45
		{f32s(45, 0.1), f32s(45, 0), false},   // 0.1 > 0.09
		{f32s(1, 1.9e-3), f32s(1, 0), true},   // within tol itself
		{f32s(1, 3e-3), f32s(1, 0), false},    // beyond it
		{f32s(-45, 0.08), f32s(-45, 0), true}, // magnitude, not value
		{f32s(1, 2), f32s(1, 2, 3), false},    // shapes
		{value.F32Val(100.1), value.F32Val(100), true},
		{value.F32Val(100.3), value.F32Val(100), false},
		{value.Tuple{f32s(45, 0.08), value.F32Val(1)}, value.Tuple{f32s(45, 0), value.F32Val(1)}, true},
		{value.Tuple{f32s(45, 0.08), value.F32Val(1.01)}, value.Tuple{f32s(45, 0), value.F32Val(1)}, false},
		{value.I32Val(1), value.I32Val(1), true},
		{value.I32Val(1), value.I32Val(2), false},
	}
	for i, c := range cases {
		if got := closeEnough(c.got, c.want, tol); got != c.ok {
			t.Errorf("case %d: closeEnough(%v, %v) = %v, want %v", i, c.got, c.want, got, c.ok)
		}
		if m := Mismatch(0, c.want, c.got, tol); (m == "") != c.ok {
			t.Errorf("case %d: Mismatch = %q, want a report: %v", i, m, !c.ok)
		}
	}
	// the first element beyond the array's tolerance is the one reported
	m := mismatch(0, f32s(45, 0, 1, 2), f32s(45, 0.05, 1, 2.5), tol)
	if !strings.Contains(m, "at [3]") {
		t.Errorf("mismatch: %s", m)
	}
}
