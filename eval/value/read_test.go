package value

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"
	"time"
)

// Reading is linear in the input. The old reader copied the rest of the
// input for each binary value inside a text one (n², 21 s for 80,000),
// and stacked rows level by level, a copy of the data per level
// (n·depth). Each case is read at n = 320,000 elements, nested 200
// deep: well under a second when linear, many minutes when quadratic; the
// bound of 20 s is a guard against that, not a measurement, so a loaded
// machine does not make it fail.
func TestReadLinear(t *testing.T) {
	row := func(n int) string { return strings.Repeat("1,", n) + "1" }
	gens := map[string]func(n int) string{
		// a long row under levels of arrays
		"deep row": func(n int) string {
			d := min(n/400, 200) // under the reader's depth limit
			return strings.Repeat("[", d) + row(n) + strings.Repeat("]", d)
		},
		// many short rows
		"rows": func(n int) string { return "[" + strings.Repeat("[1,2],", n) + "[1,2]]" },
		// arrays under levels of tuples
		"tuples": func(n int) string {
			d := min(n/1600, 60) // three levels each
			return strings.Repeat("([[", d) + row(n) + strings.Repeat("]],2)", d)
		},
		// many values one after the other
		"values": func(n int) string { return strings.Repeat("1 ", n) },
		// arrays of strings and of tuples (built one by one, stacked once)
		"strings": func(n int) string {
			d := min(n/400, 200) // under the reader's depth limit
			return strings.Repeat("[", d) + strings.Repeat("\"ab\",", n) + "\"ab\"" + strings.Repeat("]", d)
		},
		// binary values inside a text tuple
		"binary": func(n int) string {
			var b bytes.Buffer
			b.WriteString("(")
			for range n {
				WriteBinary(&b, MkInt(I32, 7))
				b.WriteString(", ")
			}
			b.WriteString("1)")
			return b.String()
		},
		"pairs": func(n int) string {
			d := min(n/400, 200) // under the reader's depth limit
			return strings.Repeat("[", d) + strings.Repeat("(1,true),", n) + "(1,true)" + strings.Repeat("]", d)
		},
	}
	for name, g := range gens {
		src := []byte(g(320000))
		t0 := time.Now()
		if _, err := Read(src); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if d := time.Since(t0); d > 20*time.Second {
			t.Errorf("%s: reading 320,000 elements took %v: quadratic again?", name, d)
		}
	}
}

// Values nested deeper than the limit are refused at the bracket that
// passes it, whatever the depth of the input (TestReadDepthLimit has the
// plain case); the shapes of what reads, and the errors of what does not,
// are the values' own, at the array whose rows differ.
func TestReadNesting(t *testing.T) {
	for _, src := range []string{
		strings.Repeat("[", 100000) + "1" + strings.Repeat("]", 100000),
		strings.Repeat("(", 100000) + "1" + strings.Repeat(",1)", 100000),
		strings.Repeat("[(", 50000) + "1",
	} {
		_, err := Read([]byte(src))
		if err == nil || err.Error() != "1:256: value nested more than 255 deep" {
			t.Errorf("%.10s… nested 100000 deep: %v", src, err)
		}
	}
	deep := strings.Repeat("[", 255) + "7i64" + strings.Repeat("]", 255)
	vs, err := Read([]byte(deep))
	if err != nil {
		t.Fatal(err)
	}
	if a := vs[0].(*Array); len(a.Shape) != 255 || a.T != I64 || DataGet(a.T, a.Data, 0).Int() != 7 {
		t.Errorf("255 levels: shape %v, type %v", a.Shape, a.T)
	}
	for src, want := range map[string]string{
		"[[1,2],[3]]":             "1:1: irregular array: rows of shape [2] and [1]",
		"[[[1],[2]],[[3],[4,5]]]": "1:12: irregular array: rows of shape [1] and [2]",
		"[[1,2],3]":               "1:1: irregular array: rows of shape [2] and elements that are not arrays",
		"[1,[2]]":                 "1:1: irregular array: elements that are not arrays and rows of shape [1]",
		"[1i32, 2i64]":            "1:8: array elements of different types: i32 and i64",
		"[[\"ab\"],[\"abc\"]]":    "1:1: irregular array: rows of shape [2] and [3]",
	} {
		if _, err := Read([]byte(src)); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", src, err, want)
		}
	}
	for src, want := range map[string]string{
		"[[1,2],[3,4]]":                  "[[1i32, 2i32], [3i32, 4i32]]",
		"[[\"ab\"],[\"cd\"]]":            "[[[97u8, 98u8]], [[99u8, 100u8]]]",
		"[[(1,true)],[(2,false)]]":       "[[(1i32, true)], [(2i32, false)]]",
		"[empty([0]i32), empty([0]i32)]": "empty([2][0]i32)",
		"((1, [2u8]), 3)":                "((1i32, [2u8]), 3i32)",
	} {
		vs, err := Read([]byte(src))
		if err != nil || len(vs) != 1 || String(vs[0]) != want {
			t.Errorf("%s: %v %v, want %s", src, vs, err, want)
		}
	}
}

// A binary shape whose product wraps round 2^64 ([2^32][2^32] is 0) is
// refused: it read as an empty array with a shape of 2^64 elements.
func TestReadBinaryShapeOverflow(t *testing.T) {
	b := append([]byte{'b', 2, 2}, " i32"...)
	b = binary.LittleEndian.AppendUint64(b, 1<<32)
	b = binary.LittleEndian.AppendUint64(b, 1<<32)
	if _, err := Read(b); err == nil || !strings.Contains(err.Error(), "binary shape too large") {
		t.Errorf("[2^32][2^32]i32 with no data: %v", err)
	}
	var buf bytes.Buffer
	if err := WriteBinary(&buf, &Array{Shape: []int64{2, 0}, T: I32, Data: []int32{}}); err != nil {
		t.Fatal(err)
	}
	if vs, err := Read(buf.Bytes()); err != nil || String(vs[0]) != "empty([2][0]i32)" {
		t.Errorf("[2][0]i32: %v %v", vs, err)
	}
}

// Binary arrays are read in one copy, into memory that ReadOptions.Alloc
// gives when they are large: the values are those written, whichever
// memory holds them.
func TestReadBinaryBulk(t *testing.T) {
	n := BulkMin/4 + 3 // one array of i32 over the bound
	xs := make([]int32, n)
	for i := range xs {
		xs[i] = int32(i*7 - 5)
	}
	fs := []float64{1.5, -2, math.Inf(1)}
	var buf bytes.Buffer
	for _, v := range []Value{
		&Array{Shape: []int64{int64(n)}, T: I32, Data: xs},
		&Array{Shape: []int64{3}, T: F64, Data: fs},
		&Array{Shape: []int64{2}, T: Bool, Data: []bool{true, false}},
		&Array{Shape: []int64{2}, T: F16, Data: []float32{0.5, 2}},
	} {
		if err := WriteBinary(&buf, v); err != nil {
			t.Fatal(err)
		}
	}
	var given [][]byte
	alloc := func(n int) []byte {
		b := make([]byte, n+8)
		given = append(given, b)
		return b
	}
	for _, opts := range []ReadOptions{{}, {Alloc: alloc}} {
		vs, err := ReadWith(buf.Bytes(), nil, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(vs) != 4 {
			t.Fatalf("read %d values", len(vs))
		}
		got := vs[0].(*Array).Data.([]int32)
		for i := range xs {
			if got[i] != xs[i] {
				t.Fatalf("element %d: %d, want %d", i, got[i], xs[i])
			}
		}
		if opts.Alloc != nil && &DataBytes(got)[0] != &given[0][0] {
			t.Error("the large array is not in the memory Alloc gave")
		}
		if g := vs[1].(*Array).Data.([]float64); g[0] != 1.5 || g[1] != -2 || !math.IsInf(g[2], 1) {
			t.Errorf("f64: %v", g)
		}
		if g := vs[2].(*Array).Data.([]bool); !g[0] || g[1] {
			t.Errorf("bool: %v", g)
		}
		if g := vs[3].(*Array).Data.([]float32); g[0] != 0.5 || g[1] != 2 {
			t.Errorf("f16: %v", g)
		}
	}
	if len(given) != 1 {
		t.Errorf("Alloc asked %d times, want once (the small arrays take Go memory)", len(given))
	}
}
