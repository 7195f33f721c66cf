package repl

import (
	"strconv"
	"strings"
	"testing"

	"fut/eval/value"
)

func iotaArray(shape ...int64) *value.Array {
	n := int64(1)
	for _, d := range shape {
		n *= d
	}
	data := make([]int64, n)
	for i := range data {
		data[i] = int64(i)
	}
	return value.NewPrimArrayData(value.I64, shape, data)
}

func TestFormatValue(t *testing.T) {
	for _, tc := range []struct {
		v      value.Value
		opts   PrintOptions
		want   string
		elided bool
	}{
		{iotaArray(5), DefaultPrintOptions, "[0, 1, 2, 3, 4]", false},
		{iotaArray(2000), DefaultPrintOptions, "[0, 1, 2, ..., 1997, 1998, 1999]", true},
		{iotaArray(1000), PrintOptions{Elide: 999, Edge: 1, Width: 80}, "[0, ..., 999]", true},
		{iotaArray(3, 3), DefaultPrintOptions, "[[0, 1, 2], [3, 4, 5], [6, 7, 8]]", false},
		{iotaArray(3, 3), PrintOptions{Elide: 4, Edge: 1, Width: 80}, "[[0, ..., 2], ..., [6, ..., 8]]", true},
		{iotaArray(3, 3), PrintOptions{Width: 10}, "[[0, 1, 2],\n [3, 4, 5],\n [6, 7, 8]]", false},
		{value.F64Val(0.1), DefaultPrintOptions, "0.1", false},
		{value.F32Val(0.1), DefaultPrintOptions, "0.1", false},
		{value.F64Val(1.0 / 3), PrintOptions{Precision: 4}, "0.3333", false},
		{value.F64Val(2), PrintOptions{Precision: 4}, "2.0", false},
		{value.F64Val(1e300), PrintOptions{Precision: 2}, "1.0e300", false},
		{value.F32Val(2.5), PrintOptions{Suffixes: true}, "2.5f32", false},
		{value.I64Val(-7), DefaultPrintOptions, "-7", false},
		{value.I64Val(-7), PrintOptions{Suffixes: true}, "-7i64", false},
		{value.Tuple{value.I32Val(1), value.MkBool(true)}, DefaultPrintOptions, "(1, true)", false},
		{&value.Sum{Constr: "some", Payload: []value.Value{value.I32Val(3)}}, DefaultPrintOptions, "(#some 3)", false},
	} {
		got, elided := FormatValue(tc.v, tc.opts)
		if got != tc.want || elided != tc.elided {
			t.Errorf("FormatValue(%s) = %q, %v; want %q, %v", value.String(tc.v), got, elided, tc.want, tc.elided)
		}
	}
}

// Every printed float reads back as the same number.
func TestFloatsReadBack(t *testing.T) {
	for _, x := range []float64{0.1, 1.0 / 3, 2.0 / 3, 1e-7, 123456789.123, 6.02214076e23, 5e-324} {
		s, _ := FormatValue(value.F64Val(x), DefaultPrintOptions)
		y, err := strconv.ParseFloat(s, 64)
		if err != nil || y != x {
			t.Errorf("%v printed as %q reads back as %v (%v)", x, s, y, err)
		}
		if strings.ContainsAny(s, "f") {
			t.Errorf("%v printed with a suffix: %q", x, s)
		}
	}
}
