package repl

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"

	"fut/eval/value"
	"fut/interp/session"
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

// On a terminal (Wrap), a row wider than the width breaks between
// elements, numbers right-aligned, later lines under the first element;
// rows of a multi-dimensional array that do not fit go on lines of their
// own and wrap under their own bracket. Without Wrap (piped output) a
// row stays on one line.
func TestFormatWrapped(t *testing.T) {
	wrap := PrintOptions{Elide: 1000, Edge: 3, Width: 30, Wrap: true}
	for _, tc := range []struct {
		v    value.Value
		opts PrintOptions
		want string
	}{
		{iotaArray(5), wrap, "[0, 1, 2, 3, 4]"},
		{iotaArray(12), wrap, "" +
			"[ 0,  1,  2,  3,  4,  5,  6,\n" +
			"  7,  8,  9, 10, 11]"},
		{iotaArray(2, 12), wrap, "" +
			"[[ 0,  1,  2,  3,  4,  5,  6,\n" +
			"   7,  8,  9, 10, 11],\n" +
			" [12, 13, 14, 15, 16, 17, 18,\n" +
			"  19, 20, 21, 22, 23]]"},
		{iotaArray(2000), PrintOptions{Elide: 1000, Edge: 3, Width: 20, Wrap: true}, "" +
			"[   0,    1,    2,\n" +
			" ..., 1997, 1998,\n" +
			" 1999]"},
		{value.Tuple{value.I32Val(1), iotaArray(12)}, wrap, "" +
			"(1, [ 0,  1,  2,  3,  4,  5,\n" +
			"      6,  7,  8,  9, 10, 11])"},
		{iotaArray(12), PrintOptions{Elide: 1000, Edge: 3, Width: 30}, "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]"},
		{iotaArray(2, 12), PrintOptions{Elide: 1000, Edge: 3, Width: 30}, "" +
			"[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],\n" +
			" [12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23]]"},
	} {
		got, _ := FormatValue(tc.v, tc.opts)
		if got != tc.want {
			t.Errorf("FormatValue(%.40s…, width %d, wrap %v) =\n%s\nwant\n%s", value.String(tc.v), tc.opts.Width, tc.opts.Wrap, got, tc.want)
		}
		if !tc.opts.Wrap {
			continue
		}
		for _, l := range strings.Split(got, "\n") {
			if len(l) > tc.opts.Width {
				t.Errorf("line %q is wider than %d", l, tc.opts.Width)
			}
		}
	}
}

// With Out a terminal (TermWidth set), values wrap at the terminal's
// width as it is when each is printed, a trace under its label; :set
// width fixes a width and :set width 0 follows the terminal again (the
// window is widened from 40 to 60 columns after the first value).
func TestTerminalWidth(t *testing.T) {
	sess, err := session.NewSession(session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	width := 40
	in := strings.Join([]string{
		"iota 20",
		":set width 30",
		"iota 20",
		":set width 0",
		"#[trace(t)] iota 20",
		"iota 5",
	}, "\n") + "\n"
	var out bytes.Buffer
	r, err := New(sess, Config{In: strings.NewReader(in), Out: &out, TermWidth: func() int { w := width; width = 60; return w }})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.Run(context.Background())
	want := "" +
		"[ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9,\n" +
		" 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]\n" +
		"[ 0,  1,  2,  3,  4,  5,  6,\n" +
		"  7,  8,  9, 10, 11, 12, 13,\n" +
		" 14, 15, 16, 17, 18, 19]\n" +
		"trace <repl:5>:1:1 (t): [ 0,  1,  2,  3,  4,  5,  6,  7,  8,\n" +
		"                          9, 10, 11, 12, 13, 14, 15, 16, 17,\n" +
		"                         18, 19]\n" +
		"[ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14,\n" +
		" 15, 16, 17, 18, 19]\n" +
		"[0, 1, 2, 3, 4]\n"
	if got := out.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
