package repl

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"fut/interp"
)

// :devices, :backend opencl and :time on the device depend on the
// machine, so they are checked here rather than in a transcript: with an
// OpenCL device the expression runs there and gives the reference value;
// without one, fut says so and stays on the reference interpreter.
func TestBackendOpenCL(t *testing.T) {
	sess, err := interp.NewSession(interp.Options{Cost: true})
	if err != nil {
		t.Fatal(err)
	}
	input := strings.Join([]string{
		":devices",
		":backend opencl",
		`reduce (+) 0 (map (\x -> x * 2) (iota 100000))`,
		`:time 2 reduce (+) 0 (map (\x -> x * 2) (iota 100000))`,
		`1 + 2`,
		":backend",
		":backend interp",
		`reduce (+) 0 (map (\x -> x * 2) (iota 100000))`,
	}, "\n") + "\n"
	var out bytes.Buffer
	r, err := New(sess, Config{In: strings.NewReader(input), Out: &out})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.Run(context.Background())
	got := out.String()
	if strings.Count(got, "9999900000") != 3 {
		t.Errorf("expected the sum three times (device, :time, reference):\n%s", got)
	}
	if _, derr := interp.OffloadDevice(); derr != nil {
		if !strings.Contains(got, "no OpenCL device") {
			t.Errorf("without a device, :backend opencl should say so:\n%s", got)
		}
		if !strings.Contains(got, "on interp") {
			t.Errorf(":time should report the interpreter:\n%s", got)
		}
		return
	}
	// an entry that stays on the reference path under opencl says why
	for _, want := range []string{"* is the device opencl and auto use", "using ", "backend: opencl", "on opencl (", "backend: interp", "(on the reference path: not flattened"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}
