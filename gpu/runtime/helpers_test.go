package runtime

import (
	"os"
	"strconv"
	"testing"

	. "fut/gpu/kernel"
	"fut/gpu/opencl"
)

var testDev *Device

// device opens the first device once (skipping without OpenCL).
func device(t testing.TB) *Device {
	t.Helper()
	if testDev != nil {
		return testDev
	}
	cfg := Config{NoCache: true}
	if g, err := strconv.Atoi(os.Getenv("FUT_GROUPS_PER_CU")); err == nil {
		cfg.GroupsPerCU = g
	}
	if g, err := strconv.Atoi(os.Getenv("FUT_GROUP_SIZE")); err == nil {
		cfg.GroupSize = g
	}
	if k, err := strconv.Atoi(os.Getenv("FUT_SCAN_LOOKBACK")); err == nil {
		cfg.ScanLookBack = k
	}
	if k, err := strconv.Atoi(os.Getenv("FUT_SCAN_K")); err == nil {
		opencl.MaxScanK = k
	}
	d, err := Open(cfg)
	if err != nil {
		t.Skipf("no OpenCL device here (%v): install pocl-opencl-icd to run these tests", err)
	}
	testDev = d
	return d
}

func up(t testing.TB, d *Device, ty Type, data any, shape ...int64) *Array {
	t.Helper()
	a, err := d.Upload(ty, shape, data)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func alloc(t testing.TB, d *Device, ty Type, shape ...int64) *Array {
	t.Helper()
	a, err := d.Alloc(ty, shape...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func down[T any](t testing.TB, a *Array) []T {
	t.Helper()
	x, err := a.Download()
	if err != nil {
		t.Fatal(err)
	}
	return x.([]T)
}

// saxpyKernel: out[i] = a*x[i] + y[i].
func saxpyKernel(ty Type) *Kernel {
	n := Scalar("n", I64)
	a := Scalar("a", ty)
	x, y, out := Buf("x", ty, n.V()), Buf("y", ty, n.V()), Buf("out", ty, n.V())
	i := NewVar("i", I64)
	return &Kernel{Name: "saxpy_" + ty.String(), Params: []*Param{n, a, x, y, out}, Shape: &Map{
		Dims: []Exp{n.V()}, Idx: []Var{i},
		Body: []Stmt{
			Wr(out, Bin("+", Bin("*", a.V(), Rd(x, i)), Rd(y, i)), i),
		},
	}}
}

// mapReduceKernel: reduce op ne (map (\i -> f x[i] y[i]) (iota n)).
func mapReduceKernel(name string, ty Type, op string, ne Exp, comm bool, twoInputs bool) *Kernel {
	n := Scalar("n", I64)
	x, y, out := Buf("x", ty, n.V()), Buf("y", ty, n.V()), Buf("out", ty, Int(I64, 1))
	i := NewVar("i", I64)
	var e Exp = Rd(x, i)
	ps := []*Param{n, x, out}
	if twoInputs {
		e = Bin("*", Rd(x, i), Rd(y, i))
		ps = []*Param{n, x, y, out}
	}
	return &Kernel{Name: name, Params: ps, Shape: &Reduce{
		N: n.V(), I: i, Elems: []Exp{e}, Op: BinLambda(op, ty), Neutral: []Exp{ne}, Comm: comm, Out: []*Param{out},
	}}
}
