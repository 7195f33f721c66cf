package testrun

import (
	"bytes"
	"testing"

	"fut/eval/value"
)

// TestWriteBinaryAsValue: the block-at-a-time writer gives the bytes of
// the values Value makes from the same state, with and without bounds.
func TestWriteBinaryAsValue(t *testing.T) {
	for _, ty := range []string{"[7]f32", "[3][5]i32", "[9]u8", "[4]bool", "[6]f16", "[5]f64", "[3]i64", "[2][2]u32", "[4]i16"} {
		for _, bounded := range []bool{false, true} {
			a, b := NewGenerator(7), NewGenerator(7)
			if bounded {
				for _, g := range []*Generator{a, b} {
					g.SetBounds(value.F32, -2, 3)
					g.SetBounds(value.I32, -10, 10)
					g.SetBounds(value.U8, 1, 9)
				}
			}
			var got, want bytes.Buffer
			for range 2 {
				if ok, err := a.WriteBinary(&got, ty); !ok || err != nil {
					t.Fatalf("%s: %v %v", ty, ok, err)
				}
				v, err := b.Value(ty)
				if err != nil {
					t.Fatal(err)
				}
				if err := value.WriteBinary(&want, v); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("%s (bounded %v): WriteBinary differs from Value", ty, bounded)
			}
		}
	}
}
