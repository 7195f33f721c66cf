package opencl

import (
	"strings"
	"testing"

	. "fut/gpu/kernel"
)

func mapOf(t Type) *Kernel {
	n := Scalar("n", I64)
	x, out := Buf("x", t, n.V()), Buf("out", t, n.V())
	i := NewVar("i", I64)
	return &Kernel{Name: "copy_" + t.String(), Params: []*Param{n, x, out}, Shape: &Map{
		Dims: []Exp{n.V()}, Idx: []Var{i}, Body: []Stmt{Wr(out, Rd(x, i), i)}}}
}

func TestCapabilities(t *testing.T) {
	if _, err := Generate(mapOf(F64), Caps{}); err == nil || !strings.Contains(err.Error(), "f64 is not supported") {
		t.Fatalf("f64 without cl_khr_fp64: %v", err)
	}
	p, err := Generate(mapOf(F16), Caps{F64: true})
	if err != nil || strings.Contains(p.Source, "cl_khr_fp16") || !strings.Contains(p.Source, "__global half *v_x") || !strings.Contains(p.Source, "vload_half(") {
		t.Fatalf("f16 without cl_khr_fp16 is emulated: %v", err)
	}
	p, err = Generate(mapOf(F16), Caps{F16: true})
	if err != nil || !strings.Contains(p.Source, "cl_khr_fp16") || !strings.Contains(p.Source, "__global half *v_x") {
		t.Fatalf("f16 with cl_khr_fp16: %v", err)
	}
	p, err = Generate(mapOf(Bool), Caps{})
	if err != nil || !strings.Contains(p.Source, "__global uchar *v_out") || strings.Contains(p.Source, "double") {
		t.Fatalf("bool buffers are uchar, no doubles without f64: %v\n%s", err, p.Source)
	}
}

func TestMalformedKernelsAreErrors(t *testing.T) {
	n := Scalar("n", I64)
	x := Buf("x", I32, n.V())
	i := NewVar("i", I64)
	bad := []*Kernel{
		{Name: "noshape", Params: []*Param{n}},
		{Name: "rank", Params: []*Param{n, x}, Shape: &Map{Dims: []Exp{n.V()}, Idx: []Var{i}, Body: []Stmt{Wr(x, Int(I32, 0), i, i)}}},
		{Name: "types", Params: []*Param{n, x}, Shape: &Map{Dims: []Exp{n.V()}, Idx: []Var{i}, Body: []Stmt{Wr(x, Bin("+", Int(I32, 0), Int(I64, 1)), i)}}},
		{Name: "store", Params: []*Param{n, x}, Shape: &Map{Dims: []Exp{n.V()}, Idx: []Var{i}, Body: []Stmt{Wr(x, Float(F32, 1), i)}}},
		{Name: "op", Params: []*Param{n, x}, Shape: &Map{Dims: []Exp{n.V()}, Idx: []Var{i}, Body: []Stmt{Wr(x, Bin("<<", Float(F32, 1), Float(F32, 1)), i)}}},
		{Name: "red", Params: []*Param{n, x}, Shape: &Reduce{N: n.V(), I: i, Elems: []Exp{Rd(x, i)}, Op: BinLambda("+", I64), Neutral: []Exp{Int(I32, 0)}, Out: []*Param{x}}},
		{Name: "fn", Params: []*Param{n, x}, Shape: &Map{Dims: []Exp{n.V()}, Idx: []Var{i}, Body: []Stmt{Wr(x, Call{Fn: "sqrt", Args: []Exp{Int(I32, 4)}}, i)}}},
	}
	for _, k := range bad {
		if _, err := Generate(k, Caps{F64: true}); err == nil {
			t.Errorf("kernel %s: no error", k.Name)
		}
	}
}

func TestShapesGenerate(t *testing.T) {
	n := Scalar("n", I64)
	for _, ty := range []Type{Bool, I8, I16, I32, I64, U8, U16, U32, U64, F16, F32, F64} {
		x, out := Buf("x", ty, n.V()), Buf("out", ty, n.V())
		i := NewVar("i", I64)
		op := "max"
		if ty == Bool {
			op = "||"
		}
		for _, k := range []*Kernel{
			{Name: "r", Params: []*Param{n, x, out}, Shape: &Reduce{N: n.V(), I: i, Elems: []Exp{Rd(x, i)}, Op: BinLambda(op, ty), Neutral: []Exp{MinValue(ty)}, Out: []*Param{out}}},
			{Name: "s", Params: []*Param{n, x, out}, Shape: &Scan{N: n.V(), I: i, Elems: []Exp{Rd(x, i)}, Op: BinLambda(op, ty), Neutral: []Exp{MinValue(ty)}, Out: []*Param{out}}},
			{Name: "h", Params: []*Param{n, x, out}, Shape: &Hist{N: n.V(), I: i, Dest: out, Bin: Cv(I64, Rd(x, i)), Val: Rd(x, i), Op: BinLambda(op, ty), OpName: op, Neutral: MinValue(ty)}},
			{Name: "sc", Params: []*Param{n, x, out}, Shape: &Scatter{N: n.V(), I: i, Dest: []*Param{out}, Idx: []Exp{i}, Vals: []Exp{Rd(x, i)}}},
		} {
			p, err := Generate(k, Caps{F64: true, F16: true, Int64Atomics: true})
			if err != nil {
				t.Fatalf("%v %s: %v", ty, k.Name, err)
			}
			if len(p.Entries) == 0 || !strings.Contains(p.Source, "__kernel void "+p.Entries[0].Name+"(") {
				t.Fatalf("%v %s: entries %v", ty, k.Name, p.Entries)
			}
		}
	}
}

// A program may skip its error flag only where no kernel of it can
// record an error: a plain map cannot, one with an integer division, a
// bounds check or an assertion can, and so can a reduction whose
// operator divides.
func TestMayFail(t *testing.T) {
	n := Scalar("n", I64)
	x, y, out := Buf("x", I32, n.V()), Buf("y", I32, n.V()), Buf("out", I32, n.V())
	i := NewVar("i", I64)
	mapBody := func(body ...Stmt) *Kernel {
		return &Kernel{Name: "m", Params: []*Param{n, x, y, out}, Shape: &Map{Dims: []Exp{n.V()}, Idx: []Var{i}, Body: body}}
	}
	cases := []struct {
		name string
		k    *Kernel
		want bool
	}{
		{"copy", mapOf(F32), false},
		{"add", mapBody(Wr(out, Bin("+", Rd(x, i), Rd(y, i)), i)), false},
		{"div", mapBody(Wr(out, Bin("/", Rd(x, i), Rd(y, i)), i)), true},
		{"rem", mapBody(Wr(out, Bin("%%", Rd(x, i), Rd(y, i)), i)), true},
		{"assert", mapBody(&Assert{Cond: Bin("<", Rd(x, i), Int(I32, 9)), Site: 1}, Wr(out, Rd(x, i), i)), true},
		{"reduce div", &Kernel{Name: "r", Params: []*Param{n, x, out}, Shape: &Reduce{N: n.V(), I: i, Elems: []Exp{Rd(x, i)}, Op: BinLambda("/", I32), Neutral: []Exp{Int(I32, 1)}, Out: []*Param{out}}}, true},
		{"reduce add", &Kernel{Name: "r", Params: []*Param{n, x, out}, Shape: &Reduce{N: n.V(), I: i, Elems: []Exp{Rd(x, i)}, Op: BinLambda("+", I32), Neutral: []Exp{Int(I32, 0)}, Out: []*Param{out}}}, false},
	}
	for _, c := range cases {
		p, err := Generate(c.k, Caps{F64: true})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if p.MayFail != c.want {
			t.Errorf("%s: MayFail %v, want %v\n%s", c.name, p.MayFail, c.want, p.Source)
		}
	}
}

// TestLoadBarrier: on an NVIDIA GPU a map whose body starts with several
// reads has the compiler barrier right after them, before any use;
// elsewhere, or where the body starts with fewer than two reads, none.
func TestLoadBarrier(t *testing.T) {
	defer func(k int) { MapK = k }(MapK)
	MapK = 1 // one element a work item (genMapK has the barrier after the reads of all)
	n := Scalar("n", I64)
	x, y, out := Buf("x", F32, n.V()), Buf("y", F32, n.V()), Buf("out", F32, n.V())
	i := NewVar("i", I64)
	a, b := NewVar("a", F32), NewVar("b", F32)
	two := &Kernel{Name: "m", Params: []*Param{n, x, y, out}, Shape: &Map{Dims: []Exp{n.V()}, Idx: []Var{i}, Body: []Stmt{
		&Let{V: a, E: Rd(x, i)}, &Let{V: b, E: Rd(y, i)}, Wr(out, Call{Fn: "sqrt", Args: []Exp{Bin("+", a, b)}}, i)}}}
	one := &Kernel{Name: "m1", Params: []*Param{n, x, out}, Shape: &Map{Dims: []Exp{n.V()}, Idx: []Var{i}, Body: []Stmt{
		&Let{V: a, E: Rd(x, i)}, Wr(out, Call{Fn: "sqrt", Args: []Exp{a}}, i)}}}
	const asm = `__asm__ __volatile__("" ::: "memory");`
	for _, c := range []struct {
		k      *Kernel
		nvidia bool
		want   bool
	}{{two, true, true}, {two, false, false}, {one, true, false}} {
		p, err := Generate(c.k, Caps{WarpVote: c.nvidia})
		if err != nil {
			t.Fatal(err)
		}
		src := p.Source
		at := strings.Index(src, asm)
		if got := at >= 0; got != c.want {
			t.Fatalf("%s on NVIDIA %v: barrier %v, want %v\n%s", c.k.Name, c.nvidia, got, c.want, src)
		}
		if c.want && (at < strings.LastIndex(src, "v_y[") || at > strings.Index(src, "sqrt(")) {
			t.Errorf("the barrier is not between the reads and their use:\n%s", src)
		}
	}
}

// TestUnrollFor: a reduction's element body that reads global memory
// and runs no loop is unrolled by 8; one that reads nothing, or loops,
// is not; FUT_RED_UNROLL (RedUnroll) overrides both.
func TestUnrollFor(t *testing.T) {
	defer func(u int) { RedUnroll = u }(RedUnroll)
	RedUnroll = 0
	n := Scalar("n", I64)
	x := Buf("x", F32, n.V())
	i, v, acc, j := NewVar("i", I64), NewVar("v", F32), NewVar("acc", I64), NewVar("j", I64)
	read := []Stmt{L(v, Rd(x, i))}
	arith := []Stmt{L(v, Cv(F32, Bin("+", i, I64C(1))))}
	looping := []Stmt{&Loop{Params: []Var{acc}, Init: []Exp{I64C(0)}, I: j, N: I64C(4), Body: []Stmt{}, Next: []Exp{Bin("+", acc, j)}}, L(v, Rd(x, i))}
	for _, c := range []struct {
		name  string
		body  []Stmt
		elems []Exp
		want  int
	}{
		{"a read in the body", read, []Exp{v}, 8},
		{"a read in the element", nil, []Exp{Rd(x, i)}, 8},
		{"arithmetic", arith, []Exp{v}, 1},
		{"a loop", looping, []Exp{v}, 1},
	} {
		if got := unrollFor(c.body, c.elems); got != c.want {
			t.Errorf("%s: unroll %d, want %d", c.name, got, c.want)
		}
	}
	RedUnroll = 3
	if got := unrollFor(arith, []Exp{v}); got != 3 {
		t.Errorf("FUT_RED_UNROLL=3: unroll %d", got)
	}
}

// TestVecReads: the buffers a body reads at the element's number alone,
// of 4 or 8 bytes and as long as the elements, all of the size of the
// first such, in the order of their first reads.
func TestVecReads(t *testing.T) {
	n := Scalar("n", I64)
	x, y, z, b := Buf("x", F32, n.V()), Buf("y", F32, n.V()), Buf("z", I64, n.V()), Buf("b", Bool, n.V())
	w := Buf("w", F32, Scalar("m", I64).V())
	i := NewVar("i", I64)
	names := func(ps []*Param) string {
		var s []string
		for _, p := range ps {
			s = append(s, p.Name)
		}
		return strings.Join(s, " ")
	}
	for _, c := range []struct {
		elems []Exp
		want  string
	}{
		{[]Exp{Bin("*", Rd(x, i), Rd(y, i))}, "x y"},
		{[]Exp{Bin("*", Rd(x, i), Rd(x, Bin("+", i, I64C(1)))), Rd(y, i)}, "y"},
		{[]Exp{Rd(b, i), Rd(x, i)}, "x"},
		{[]Exp{Rd(z, i), Rd(x, i)}, "z"},
		{[]Exp{Rd(x, i), Rd(z, i), Rd(y, i)}, "x y"},
		{[]Exp{Rd(x, I64C(0))}, ""},
		// w's length is not the elements': its reads are checked
		{[]Exp{Rd(w, i), Rd(x, i)}, "x"},
	} {
		g := &gen{below: map[string]string{i.Name: ExpString(n.V())}}
		if got := names(g.vecReads(i, nil, c.elems)); got != c.want {
			t.Errorf("%v: %q, want %q", c.elems, got, c.want)
		}
	}
}

// TestMapDivisors checks the magic numbers of splitIndex against
// division: every divisor up to 2^12 with numerators near its multiples
// and near 2^31, and divisors near powers of two up to 2^31 - 1.
func TestMapDivisors(t *testing.T) {
	check := func(d int64, n uint64) {
		t.Helper()
		v := uint64(MapDivisors([]int64{1, d})["dm1"].(int64))
		if v == 0 {
			t.Fatalf("d = %d: no magic number", d)
		}
		m, s := v&0xffffffff, v>>32
		if q := n * m >> s; q != n/uint64(d) {
			t.Fatalf("d = %d, n = %d: %d, want %d", d, n, q, n/uint64(d))
		}
	}
	const top = 1<<31 - 1
	var ds []int64
	for d := int64(1); d <= 1<<12; d++ {
		ds = append(ds, d)
	}
	for b := 13; b <= 31; b++ {
		for _, e := range []int64{-3, -1, 0, 1, 3} {
			if d := int64(1)<<b + e; d >= 1 && d < top {
				ds = append(ds, d)
			}
		}
	}
	for _, d := range ds {
		for _, k := range []uint64{0, 1, 2, 1000, uint64(top / d), uint64(top/d) - 1} {
			for _, r := range []int64{-1, 0, 1, d - 1} {
				if n := int64(k)*d + r; n >= 0 && n < top {
					check(d, uint64(n))
				}
			}
		}
		for n := uint64(top - 2*d); n < top; n += uint64(max(d/7, 1)) {
			check(d, n)
		}
	}
	// 2^31 elements or more: no magic numbers, the kernel divides
	ex := MapDivisors([]int64{1 << 16, 1 << 15, 3})
	if ex["dm1"].(int64) != 0 || ex["dm2"].(int64) != 0 {
		t.Errorf("2^31·3 elements: magic numbers %v, want 0", ex)
	}
}
