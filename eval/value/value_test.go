package value

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestArith(t *testing.T) {
	i32 := func(x int32) Prim { return I32Val(x) }
	cases := []struct {
		op   BinOp
		a, b Prim
		want Prim
	}{
		{OpDiv, i32(-7), i32(2), i32(-4)},
		{OpMod, i32(-7), i32(2), i32(1)},
		{OpMod, i32(7), i32(-2), i32(-1)},
		{OpQuot, i32(-7), i32(2), i32(-3)},
		{OpRem, i32(-7), i32(2), i32(-1)},
		{OpAdd, i32(math.MaxInt32), i32(1), i32(math.MinInt32)},
		{OpDiv, i32(math.MinInt32), i32(-1), i32(math.MinInt32)},
		{OpPow, i32(3), i32(4), i32(81)},
		{OpShr, i32(-8), i32(1), i32(-4)},
		{OpUShr, i32(-8), i32(28), i32(15)},
		{OpShl, i32(1), i32(32), i32(0)},
		{OpShr, MkUint(U8, 255), MkUint(U8, 1), MkUint(U8, 127)},
		{OpAdd, MkUint(U8, 255), MkUint(U8, 1), MkUint(U8, 0)},
		{OpSub, MkUint(U16, 0), MkUint(U16, 1), MkUint(U16, 65535)},
		{OpLt, MkUint(U32, 1), MkUint(U32, math.MaxUint32), MkBool(true)},
		{OpMod, F64Val(-7.5), F64Val(2), F64Val(0.5)},
		{OpMin, F64Val(math.NaN()), F64Val(1), F64Val(1)},
		{OpAdd, MkFloat(F16, 2048), MkFloat(F16, 1), MkFloat(F16, 2048)},
	}
	for _, c := range cases {
		got, err := Binary(c.op, c.a, c.b)
		if err != nil {
			t.Errorf("%v %v %v: %v", c.a, c.op, c.b, err)
			continue
		}
		if got != c.want {
			t.Errorf("op %d on %s, %s = %s, want %s", c.op, PrimString(c.a), PrimString(c.b), PrimString(got), PrimString(c.want))
		}
	}
	if _, err := Binary(OpDiv, i32(1), i32(0)); err != ErrDivByZero {
		t.Errorf("1/0: got %v, want division by zero", err)
	}
	if _, err := Binary(OpMod, MkUint(U64, 1), MkUint(U64, 0)); err != ErrDivByZero {
		t.Errorf("1u64%%0: got %v", err)
	}
}

func TestConvert(t *testing.T) {
	cases := []struct {
		p    Prim
		to   PrimType
		want string
	}{
		{I32Val(-1), U8, "255u8"},
		{MkUint(U8, 255), I32, "255i32"},
		{MkInt(I8, -1), I64, "-1i64"},
		{MkInt(I8, -1), U16, "255u16"},
		{MkUint(U8, 200), I8, "-56i8"},
		{MkInt(I16, -2), I64, "-2i64"},
		{F64Val(-3.7), I32, "-3i32"},
		{F64Val(3.7), U8, "3u8"},
		{F64Val(math.NaN()), I32, "0i32"},
		{I32Val(16777217), F32, "1.6777216e7f32"},
		{MkBool(true), F32, "1.0f32"},
		{F64Val(0.5), Bool, "true"},
		{F64Val(65520), F16, "f16.inf"},
		{F64Val(0.1), F16, "0.1f16"},
		{MkUint(U64, math.MaxUint64), F64, "1.8446744073709552e19f64"},
	}
	for _, c := range cases {
		if got := PrimString(Convert(c.p, c.to)); got != c.want {
			t.Errorf("%s to %s = %s, want %s", PrimString(c.p), c.to, got, c.want)
		}
	}
	if b := F16Bits(RoundF16(1.0)); b != 0x3c00 {
		t.Errorf("f16 bits of 1.0 = %#x", b)
	}
	if x := F16FromBits(0x7bff); x != 65504 {
		t.Errorf("largest f16 = %v", x)
	}
	if c := Clz(I32Val(1)); c != 31 {
		t.Errorf("clz 1i32 = %d", c)
	}
	if c := Popc(MkInt(I8, -1)); c != 8 {
		t.Errorf("popc -1i8 = %d", c)
	}
	if m := MulHi(MkUint(U32, 0xffffffff), MkUint(U32, 2)); m.B != 1 {
		t.Errorf("mul_hi = %d", m.B)
	}
	if m := MulHi(MkInt(I64, -1), MkInt(I64, 2)); m.Int() != -1 {
		t.Errorf("mul_hi i64 -1*2 = %d", m.Int())
	}
}

func TestFloatPrinting(t *testing.T) {
	cases := map[float64]string{1: "1.0", 0.1: "0.1", 0.01: "1.0e-2", 123.456: "123.456", 1e7: "1.0e7", 1234567: "1234567.0", -2.5: "-2.5", 0: "0.0"}
	for x, want := range cases {
		if got := FloatString(x, F64); got != want+"f64" {
			t.Errorf("FloatString(%v) = %s, want %sf64", x, got, want)
		}
	}
	if got := FloatString(float64(float32(0.1)), F32); got != "0.1f32" {
		t.Errorf("f32 0.1 printed %s", got)
	}
}

func TestTextRoundTrip(t *testing.T) {
	inputs := []string{
		"[1i32, 2i32, 3i32]",
		"empty([0][3]i32)",
		"[[1.5f32, -2.0f32], [f32.nan, -f32.inf]]",
		"(1i32, true, [2u8])",
		"-3i8",
		"[true, false]",
		"1.0e-2f64",
	}
	for _, in := range inputs {
		vs, err := Read([]byte(in))
		if err != nil || len(vs) != 1 {
			t.Errorf("Read(%q): %v %v", in, vs, err)
			continue
		}
		if got := String(vs[0]); got != in {
			t.Errorf("Read/print %q gave %q", in, got)
		}
	}
	vs, err := ReadTyped([]byte("[1, 2] 3 -- comment\n 4.5"), []PrimType{I64, F32})
	if err != nil || len(vs) != 3 {
		t.Fatalf("ReadTyped: %v %v", vs, err)
	}
	if got := String(vs[0]) + " " + String(vs[1]) + " " + String(vs[2]); got != "[1i64, 2i64] 3.0f32 4.5f64" {
		t.Errorf("ReadTyped gave %s", got)
	}
	vs, _ = Read([]byte("0xffu8 1_000i32 2e3f32"))
	if got := String(Tuple(vs)); got != "(255u8, 1000i32, 2000.0f32)" {
		t.Errorf("hex/underscore/exponent gave %s", got)
	}
}

func TestTextErrors(t *testing.T) {
	cases := map[string]string{
		"[1, 2":         "1:6: expected ',' or ']'",
		"[1, [2]]":      "1:1:",
		"\n  [1, x]":    "2:7: expected a number",
		"empty([2]i32)": "non-empty shape",
		"[]":            "1:2: expected a value",
		"1.5i32":        "expected an integer",
	}
	for in, want := range cases {
		_, err := Read([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Read(%q) error %v, want containing %q", in, err, want)
		}
	}
}

func TestBinaryFormat(t *testing.T) {
	vals := []Value{
		NewPrimArrayData(I32, []int64{2, 2}, []int32{1, -2, 3, 4}),
		F64Val(2.5),
		NewPrimArrayData(Bool, []int64{3}, []bool{true, false, true}),
		NewPrimArrayData(F16, []int64{2}, []float32{1.5, -0.25}),
		NewPrimArray(U16, []int64{0, 4}),
	}
	var buf bytes.Buffer
	for _, v := range vals {
		if err := WriteBinary(&buf, v); err != nil {
			t.Fatal(err)
		}
		buf.WriteString(" ")
	}
	buf.WriteString("[7i64]") // text mixed with binary
	got, err := Read(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(vals)+1 {
		t.Fatalf("read %d values", len(got))
	}
	for i, v := range vals {
		if !Equal(v, got[i], 0) || String(v) != String(got[i]) {
			t.Errorf("binary round trip: %s became %s", String(v), String(got[i]))
		}
	}
	if _, err := Read([]byte("b\x02\x01 i32\x05\x00\x00\x00\x00\x00\x00\x00\x01\x00")); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("truncated binary: %v", err)
	}
	if _, err := Read([]byte("b\x02\x00 i31")); err == nil || !strings.Contains(err.Error(), "byte 3") {
		t.Errorf("bad type name: %v", err)
	}
}

func TestEqual(t *testing.T) {
	a := NewPrimArrayData(F32, []int64{3}, []float32{1, float32(math.NaN()), 1000})
	b := NewPrimArrayData(F32, []int64{3}, []float32{1.001, float32(math.NaN()), 1001})
	if !Equal(a, b, DefaultTolerance) {
		t.Errorf("close arrays differ")
	}
	c := NewPrimArrayData(F32, []int64{3}, []float32{1.1, 0, 1000})
	if Equal(a, c, DefaultTolerance) {
		t.Errorf("different arrays equal")
	}
	if Equal(NewPrimArray(I32, []int64{0, 2}), NewPrimArray(I32, []int64{0, 3}), 0) {
		t.Errorf("empty arrays of different shapes equal")
	}
	if Equal(I32Val(1), MkInt(I64, 1), 0) {
		t.Errorf("values of different types equal")
	}
}

func TestArrays(t *testing.T) {
	a := NewPrimArrayData(I32, []int64{2, 3}, []int32{1, 2, 3, 4, 5, 6})
	if got := String(a.Transpose()); got != "[[1i32, 4i32], [2i32, 5i32], [3i32, 6i32]]" {
		t.Errorf("transpose: %s", got)
	}
	row := a.Index(1).(*Array)
	if got := String(row); got != "[4i32, 5i32, 6i32]" {
		t.Errorf("row: %s", got)
	}
	if a.Words() != 8 {
		t.Errorf("‖[2][3]i32‖ = %d, want 8", a.Words())
	}
	tup, err := FromValues([]Value{Tuple{I32Val(1), MkBool(true)}, Tuple{I32Val(2), MkBool(false)}}, nil)
	if err != nil || tup.Kind != KTuple || tup.Words() != 6 {
		t.Errorf("array of tuples: %v %v words %d", tup, err, tup.Words())
	}
	if _, err := FromValues([]Value{a.Index(0), NewPrimArray(I32, []int64{2})}, nil); err == nil {
		t.Errorf("irregular array accepted")
	}
	c, _ := Concat([]*Array{a, a})
	if got := String(c.Reshape([]int64{12})); !strings.HasPrefix(got, "[1i32, 2i32, 3i32, 4i32, 5i32, 6i32, 1i32") {
		t.Errorf("concat/reshape: %s", got)
	}
}

func TestReadString(t *testing.T) {
	vs, err := Read([]byte(`"12" "a\n"`))
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2 || String(vs[0]) != "[49u8, 50u8]" || String(vs[1]) != "[97u8, 10u8]" {
		t.Errorf("strings read as %v", vs)
	}
	if _, err := Read([]byte(`"12`)); err == nil {
		t.Errorf("unterminated string accepted")
	}
}

func TestReadDepthLimit(t *testing.T) {
	deep := func(n int) []byte {
		return []byte(strings.Repeat("[", n) + "1" + strings.Repeat("]", n))
	}
	if _, err := Read(deep(200)); err != nil {
		t.Errorf("depth 200: %v", err)
	}
	if _, err := Read(deep(100000)); err == nil || !strings.Contains(err.Error(), "nested") {
		t.Errorf("depth 100000: %v", err)
	}
}

// Rows of plain numbers and rows of duals (inside a jvp) make one boxed
// array.
func TestFromValuesMixedDualRows(t *testing.T) {
	plain, err := FromValues([]Value{MkFloat(F64, 1), MkFloat(F64, 2)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	duals, err := FromValues([]Value{Dual{P: MkFloat(F64, 3), T: MkFloat(F64, 1), Tag: NewTag()}, MkFloat(F64, 4)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, rows := range [][]Value{{plain, duals}, {duals, plain}} {
		a, err := FromValues(rows, nil)
		if err != nil {
			t.Fatalf("mixed rows: %v", err)
		}
		if got := a.FullShape(); len(got) != 2 || got[0] != 2 || got[1] != 2 {
			t.Errorf("shape %v", got)
		}
	}
}

// digamma ends everywhere: its poles, ±∞ and NaN, negative arguments by
// reflection (it looped forever at −∞).
func TestDigamma(t *testing.T) {
	for _, c := range []struct{ x, want float64 }{
		{1, -0.5772156649015329}, {0.5, -1.9635100260214235}, {-0.5, 0.03648997397857652}, {10, 2.251752589066721},
	} {
		if got := digamma(c.x); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("digamma(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	for _, x := range []float64{math.Inf(-1), math.NaN(), 0, -3, -1e300} {
		if got := digamma(x); !math.IsNaN(got) && x != -1e300 {
			t.Errorf("digamma(%v) = %v, want NaN", x, got)
		}
	}
	if got := digamma(math.Inf(1)); !math.IsInf(got, 1) {
		t.Errorf("digamma(+Inf) = %v", got)
	}
}
