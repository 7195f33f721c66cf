package eval

import (
	"testing"

	"fut/eval/value"
)

func BenchmarkDot128(b *testing.B) {
	s := benchSession(b, false)
	s.in.Bind("r", value.NewPrimArrayData(value.F64, []int64{128}, matData(128)[:128]))
	s.in.Bind("c", value.NewPrimArrayData(value.F64, []int64{128}, matData(128)[128:256]))
	benchExpr(b, s, `reduce (+) 0 (map2 (*) r c)`)
}
