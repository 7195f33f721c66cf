package ir_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fut/eval/value"
	"fut/interp/ir"
)

// AD tests from text: testdata/ad/NAME.ir holds a program (the function
// to differentiate) and "-- args: …" (Futhark data: the point). JVP and
// VJPByForward must give programs that verify, print as
// NAME.jvp.golden and NAME.vjp.golden, and parse back; the JVP's primal
// results must be the program's; its tangents must match central finite
// differences (in f64 parameters only; integer ones get the zero
// direction) along a few directions; the VJP's adjoints must satisfy
// <xbar, d> = <ybar, jvp(d)> for those directions, and its primal results
// be the program's.

// freshNames gives names no test program uses (they end in "_" and a
// number, as the lowerer's do, above any number in src).
func freshNames() func(string) string {
	n := 1000
	return func(base string) string {
		n++
		return fmt.Sprintf("%s_%d", base, n)
	}
}

func lambdaOf(p *ir.Prog) *ir.Lambda {
	return &ir.Lambda{Params: p.Params, Ret: p.Ret, Body: p.Body}
}

func progOf(l *ir.Lambda) *ir.Prog {
	return &ir.Prog{Params: l.Params, Ret: l.Ret, Body: l.Body}
}

// mapScalars is v with every scalar p replaced by f(k, p), k counting the
// scalars in order.
func mapScalars(v value.Value, k *int, f func(int, value.Prim) value.Prim) value.Value {
	switch v := v.(type) {
	case value.Prim:
		r := f(*k, v)
		*k++
		return r
	case *value.Array:
		if v.Len() == 0 {
			return v
		}
		rows := make([]value.Value, v.Len())
		for i := range rows {
			rows[i] = mapScalars(v.Index(int64(i)), k, f)
		}
		a, err := value.FromValues(rows, nil)
		if err != nil {
			panic(err)
		}
		return a
	case value.Tuple:
		out := make(value.Tuple, len(v))
		for i := range v {
			out[i] = mapScalars(v[i], k, f)
		}
		return out
	}
	panic(fmt.Sprintf("mapScalars: %T", v))
}

// scalars lists v's numeric scalars as f64 (bools skipped).
func scalars(v value.Value) []float64 {
	var out []float64
	k := 0
	mapScalars(v, &k, func(_ int, p value.Prim) value.Prim {
		switch {
		case p.T == value.Bool:
		case p.T.IsFloat():
			out = append(out, p.Float())
		default:
			out = append(out, float64(p.AsInt64()))
		}
		return p
	})
	return out
}

// direction is a value of v's shape along a fixed pseudo-random
// direction (seed s), bools false. With ints, integers move too and
// every scalar is a whole number (so that the adjoint of an integer,
// converted from f64 as the reference path does, is exact); without,
// integers are zero.
func direction(v value.Value, s int, ints bool) value.Value {
	k := 0
	return mapScalars(v, &k, func(i int, p value.Prim) value.Prim {
		x := math.Sin(float64(7*i+13*s+1)) * 1.5
		if ints {
			x = math.Round(x * 2)
		}
		switch {
		case p.T == value.Bool:
			return value.MkBool(false)
		case p.T.IsFloat():
			return value.MkFloat(p.T, x)
		case ints:
			return value.MkInt(p.T, int64(x))
		}
		return value.MkInt(p.T, 0)
	})
}

// axpy is x + h·d on the floats of x.
func axpy(x, d value.Value, h float64) value.Value {
	ds := scalars(d)
	k, j := 0, 0
	return mapScalars(x, &k, func(_ int, p value.Prim) value.Prim {
		if p.T == value.Bool {
			return p
		}
		dj := ds[j]
		j++
		if !p.T.IsFloat() {
			return p
		}
		return value.MkFloat(p.T, p.Float()+h*dj)
	})
}

func near(x, y, tol float64) bool {
	if math.IsNaN(x) || math.IsNaN(y) {
		return math.IsNaN(x) && math.IsNaN(y)
	}
	return math.Abs(x-y) <= tol*math.Max(1, math.Max(math.Abs(x), math.Abs(y)))
}

func TestADFromText(t *testing.T) {
	files, _ := filepath.Glob("testdata/ad/*.ir")
	if len(files) == 0 {
		t.Fatal("no AD tests")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".ir")
		t.Run(name, func(t *testing.T) { adFromText(t, f, name) })
	}
}

func adFromText(t *testing.T, f, name string) {
	src, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	var argText string
	fd := true
	for _, line := range strings.Split(string(src), "\n") {
		if s, ok := strings.CutPrefix(line, "-- args: "); ok {
			argText = s
		}
		if strings.HasPrefix(line, "-- no finite differences") {
			fd = false // piecewise-constant or integer code
		}
	}
	p, err := ir.Parse(string(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := ir.Verify(p); err != nil {
		t.Fatal(err)
	}
	args, err := value.Read([]byte(argText))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	want, err := ir.EvalAll(ctx, p, args)
	if err != nil {
		t.Fatal(err)
	}
	jl, err := ir.JVP(lambdaOf(p), freshNames())
	if err != nil {
		t.Fatal(err)
	}
	jp := progOf(jl)
	if err := ir.Verify(jp); err != nil {
		t.Fatalf("JVP: %v\n%s", err, jp)
	}
	checkGolden(t, "testdata/ad/"+name+".jvp.golden", jp.String())
	if _, err := ir.Parse(jp.String()); err != nil {
		t.Fatalf("JVP's text does not parse: %v", err)
	}
	vl, err := ir.VJPByForward(lambdaOf(p), freshNames())
	if err != nil {
		t.Fatal(err)
	}
	vp := progOf(vl)
	if err := ir.Verify(vp); err != nil {
		t.Fatalf("VJP: %v\n%s", err, vp)
	}
	checkGolden(t, "testdata/ad/"+name+".vjp.golden", vp.String())
	if _, err := ir.Parse(vp.String()); err != nil {
		t.Fatalf("VJP's text does not parse: %v", err)
	}
	m := len(p.Ret)
	jvpAt := func(ds []value.Value) []value.Value {
		t.Helper()
		r, err := ir.EvalAll(ctx, jp, append(append([]value.Value{}, args...), ds...))
		if err != nil {
			t.Fatalf("JVP: %v", err)
		}
		if !close(value.Tuple(r[:m]), value.Tuple(want)) {
			t.Fatalf("JVP's primal results %v, the program's %v", r[:m], want)
		}
		return r[m:]
	}
	// the adjoint of the results
	ybar := make([]value.Value, m)
	for i, y := range want {
		ybar[i] = direction(y, 100+i, !fd)
	}
	vr, err := ir.EvalAll(ctx, vp, append(append([]value.Value{}, args...), ybar...))
	if err != nil {
		t.Fatalf("VJP: %v", err)
	}
	if !close(value.Tuple(vr[:m]), value.Tuple(want)) {
		t.Fatalf("VJP's primal results %v, the program's %v", vr[:m], want)
	}
	xbar := vr[m:]
	// the definition: scalar j of xbar is <ybar, jvp e_j>, in f64,
	// converted to the scalar's type
	var got []float64
	for _, x := range xbar {
		got = append(got, scalars(x)...)
	}
	for j := range got {
		ds := make([]value.Value, len(args))
		k := 0
		for i, a := range args {
			ds[i] = mapScalars(a, new(int), func(_ int, p value.Prim) value.Prim {
				if p.T == value.Bool {
					return value.MkBool(false)
				}
				one := int64(0)
				if k == j {
					one = 1
				}
				k++
				return value.Convert(value.MkInt(value.I64, one), p.T)
			})
		}
		dy := jvpAt(ds)
		dot := 0.0
		for i := range dy {
			a, b := scalars(ybar[i]), scalars(dy[i])
			for q := range a {
				dot += a[q] * b[q]
			}
		}
		if !near(got[j], dot, 1e-5) {
			t.Errorf("adjoint scalar %d is %g, <ybar, jvp e_%d> = %g", j, got[j], j, dot)
		}
	}
	for s := 0; fd && s < 3; s++ {
		ds := make([]value.Value, len(args))
		for i, a := range args {
			ds[i] = direction(a, 10*s+i, !fd)
		}
		dy := jvpAt(ds)
		// <xbar, d> = <ybar, dy>
		lhs, rhs := 0.0, 0.0
		for i := range ds {
			a, b := scalars(xbar[i]), scalars(ds[i])
			for k := range a {
				lhs += a[k] * b[k]
			}
		}
		for i := range dy {
			a, b := scalars(ybar[i]), scalars(dy[i])
			for k := range a {
				rhs += a[k] * b[k]
			}
		}
		if !near(lhs, rhs, 1e-4) {
			t.Errorf("direction %d: <xbar, d> = %g but <ybar, jvp d> = %g", s, lhs, rhs)
		}
		const h = 1e-6
		xp, xm := make([]value.Value, len(args)), make([]value.Value, len(args))
		for i := range args {
			xp[i], xm[i] = axpy(args[i], ds[i], h), axpy(args[i], ds[i], -h)
		}
		yp, err1 := ir.EvalAll(ctx, p, xp)
		ym, err2 := ir.EvalAll(ctx, p, xm)
		if err1 != nil || err2 != nil {
			t.Fatalf("finite differences: %v %v", err1, err2)
		}
		for i := range dy {
			got, a, b := scalars(dy[i]), scalars(yp[i]), scalars(ym[i])
			for k := range got {
				fdv := (a[k] - b[k]) / (2 * h)
				if !near(got[k], fdv, 1e-4) {
					t.Errorf("direction %d: tangent %d[%d] is %g, finite differences %g", s, i, k, got[k], fdv)
				}
			}
		}
	}
}

// What JVP cannot differentiate is an error that names it.
func TestJVPErrors(t *testing.T) {
	for what, src := range map[string]string{
		"nosuchfn": `prog (x: f64) : (f64) {
  let (y: f64) = un nosuchfn (x)
  return (y)
}`,
		"nosuchfn2": `prog (x: f64, y: f64) : (f64) {
  let (z: f64) = un nosuchfn2 (x, y)
  return (z)
}`,
	} {
		p, err := ir.Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if _, err := ir.JVP(lambdaOf(p), freshNames()); err == nil || !strings.Contains(err.Error(), what) {
			t.Errorf("%s: JVP gives %v", what, err)
		}
		if _, err := ir.VJPByForward(lambdaOf(p), freshNames()); err == nil || !strings.Contains(err.Error(), what) {
			t.Errorf("%s: VJPByForward gives %v", what, err)
		}
	}
}

// checkFD compares the tangents of jp (the JVP of p) at args with
// central finite differences along a direction in p's f64 parameters,
