package repl

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"fut/interp/session"
)

// :devices, :backend opencl and :time on the device depend on the
// machine, so they are checked here rather than in a transcript: with an
// OpenCL device the expression runs there and gives the reference value;
// without one, fut says so and stays on the reference interpreter.
func TestBackendOpenCL(t *testing.T) {
	sess, err := session.NewSession(session.Options{Cost: true})
	if err != nil {
		t.Fatal(err)
	}
	got := runLines(t, sess,
		":devices",
		":backend opencl",
		`reduce (+) 0 (map (\x -> x * 2) (iota 100000))`,
		`:time 2 reduce (+) 0 (map (\x -> x * 2) (iota 100000))`,
		`1 + 2`,
		":backend",
		":backend interp",
		`reduce (+) 0 (map (\x -> x * 2) (iota 100000))`,
	)
	if strings.Count(got, "9999900000") != 3 {
		t.Errorf("expected the sum three times (device, :time, reference):\n%s", got)
	}
	if _, derr := session.OffloadDevice(); derr != nil {
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

// With costs shown after every expression, a value computed on the device
// shows the program's costs (the reference path's), never zeros, and
// says where the value was computed.
func TestOffloadedCosts(t *testing.T) {
	if _, err := session.OffloadDevice(); err != nil {
		t.Skipf("no OpenCL device (%v): install pocl-opencl-icd", err)
	}
	run := func(lines ...string) string {
		sess, err := session.NewSession(session.Options{Cost: true})
		if err != nil {
			t.Fatal(err)
		}
		return runLines(t, sess, lines...)
	}
	expr := `reduce (+) 0 (map (\x -> x * 2) (iota 100000))`
	dev := run(":set cost on", ":backend opencl", expr)
	ref := run(":set cost on", ":backend interp", expr)
	row := func(s string) string {
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "as written") {
				return l
			}
		}
		return ""
	}
	if row(dev) == "" || row(dev) != row(ref) {
		t.Errorf("the device's cost row %q differs from the reference path's %q:\n%s", row(dev), row(ref), dev)
	}
	if !strings.Contains(dev, "the value was computed on opencl") {
		t.Errorf("the device's value does not say where it was computed:\n%s", dev)
	}
}

// :set device-memory sets the offload path's budget (a size, or default)
// and refuses what is not a size; an expression over more than the budget
// still gives the reference path's value, and :cost says how it streams
// (the chunk's bound of the space on the device).
func TestSetDeviceMemory(t *testing.T) {
	d, err := session.OffloadDevice()
	if err != nil {
		t.Skipf("no OpenCL device (%v): install pocl-opencl-icd", err)
	}
	defer session.SetDeviceMemory(0)
	sess, err := session.NewSession(session.Options{Cost: true})
	if err != nil {
		t.Fatal(err)
	}
	got := runLines(t, sess,
		":set device-memory 256K",
		":set device-memory",
		":backend opencl",
		`reduce (+) 0 (map (\x -> x * 3) (iota 1000000))`,
		":set device-memory 12Q",
		"def xs = map f32.i64 (iota 1000000)",
		":cost f32.sum (map (*2) xs)",
	)
	for _, want := range []string{"device-memory 256 KiB", "1499998500000", `want a size such as 512M or 8G, or default, not "12Q"`,
		"on the device: streamed in 31 chunks of 32768 of its 1000000 elements; a chunk's arrays take 256 KiB at once"} {
		if !strings.Contains(got, want) {
			t.Errorf("the session does not show %q:\n%s", want, got)
		}
	}
	if d.Budget() != 256<<10 {
		t.Errorf("the budget is %d, want 256 KiB", d.Budget())
	}
}

// :set devices chooses the devices expressions are split across (two
// logical devices of the one there is here), refuses what is not a
// spec, and the split expression gives the reference path's value.
func TestSetDevices(t *testing.T) {
	if _, err := session.OffloadDevice(); err != nil {
		t.Skipf("no OpenCL device (%v): install pocl-opencl-icd", err)
	}
	defer session.SetDevices("")
	sess, err := session.NewSession(session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := runLines(t, sess,
		":set devices 2",
		":set devices",
		":backend opencl",
		`reduce (+) 0 (map (\x -> x * 3) (iota 100000))`,
		`scan (+) 0 (map (\x -> x % 7) (iota 1000)) |> last`,
		":set devices two",
		":set devices default",
		":set devices",
	)
	for _, want := range []string{"devices 2", "14999850000", "2997", `a count from 1 to 64, or indices #i,#j, not "two"`, "devices 1"} {
		if !strings.Contains(got, want) {
			t.Errorf("the session does not show %q:\n%s", want, got)
		}
	}
	if session.Devices() != "" {
		t.Errorf("devices %q after :set devices default", session.Devices())
	}
}

// :time on the device says what its last run found there: a value of the
// session given to the device again is not uploaded again.
func TestBackendResident(t *testing.T) {
	if _, err := session.OffloadDevice(); err != nil {
		t.Skipf("no OpenCL device (%v)", err)
	}
	sess, err := session.NewSession(session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := runLines(t, sess,
		":backend opencl",
		// sums of small integers: exact in f32 in any order of addition
		"let xs = map (\\i -> f32.i64 (i % 8)) (iota 100000)",
		"reduce (+) 0 (map (*2) xs)",
		`:time 2 reduce (+) 0 (map (*2) xs)`,
		`:time reduce (+) 0 (map (*2) (map f32.i64 (iota 1000)))`,
		":backend",
	)
	if strings.Count(got, "700000.0") != 2 {
		t.Errorf("expected the sum twice:\n%s", got)
	}
	if !strings.Contains(got, "; 1 argument on the device already (390.6 KiB))") {
		t.Errorf(":time does not say that xs was on the device already:\n%s", got)
	}
	if !strings.Contains(got, "of values given to the device stay") {
		t.Errorf(":backend does not say what stays on the device:\n%s", got)
	}
	if strings.Contains(got, "uploaded") {
		t.Errorf("a call of no arguments says it uploaded some:\n%s", got)
	}
}

// runLines runs the lines in a REPL on sess and returns what it wrote.
func runLines(t *testing.T, sess *session.Session, lines ...string) string {
	t.Helper()
	var out bytes.Buffer
	r, err := New(sess, Config{In: strings.NewReader(strings.Join(lines, "\n") + "\n"), Out: &out})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.Run(context.Background())
	return out.String()
}
