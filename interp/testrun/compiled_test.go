package testrun

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"fut/interp/session"
)

// TestCompiledCasesOnDevice: cases tagged compiled are skipped by an
// interpreter, and run on the device with RunCompiled (fut test -c), but
// skipped, saying so, where their entry point would stay on the
// reference path.
func TestCompiledCasesOnDevice(t *testing.T) {
	src := `-- ==
-- entry: sums
-- input { [1, 2, 3] }
-- output { [1, 3, 6] }
-- compiled input { [5, 5, 5, 5] }
-- output { [5, 10, 15, 20] }
-- compiled input { [1, 1] }
-- output { [1, 3] }

-- ==
-- entry: inc
-- compiled input { 1 }
-- output { 2 }

entry sums (xs: []i32) = scan (+) 0 xs
entry inc (x: i32) = x + 1
`
	file := filepath.Join(t.TempDir(), "compiled.fut")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	status := func(r *Result) []string {
		var ss []string
		for _, c := range r.Cases {
			ss = append(ss, c.Entry+" "+c.Name+": "+string(c.Status)+" "+c.Msg)
		}
		return ss
	}
	r := RunFile(context.Background(), file, Options{Timeout: time.Minute})
	if got := status(r); len(got) != 4 || r.Cases[0].Status != Passed || r.Cases[1].Status != Skipped || r.Cases[2].Status != Skipped || r.Cases[3].Status != Skipped {
		t.Errorf("reference path: %q", got)
	}
	if _, err := session.OffloadDevice(); err != nil {
		t.Skipf("no OpenCL device (%v)", err)
	}
	// without RunCompiled the device backend skips them too
	r = RunFile(context.Background(), file, Options{Timeout: time.Minute, Backend: session.BackendOpenCL})
	if r.Cases[1].Status != Skipped || r.Cases[3].Status != Skipped {
		t.Errorf("opencl without RunCompiled: %q", status(r))
	}
	r = RunFile(context.Background(), file, Options{Timeout: time.Minute, Backend: session.BackendOpenCL, RunCompiled: true})
	got := status(r)
	if r.Cases[1].Status != Passed || r.Cases[1].Pipeline != string(session.BackendOpenCL) {
		t.Errorf("a compiled case on the device: %q (pipeline %s)", got, r.Cases[1].Pipeline)
	}
	// its expected output is wrong: a compiled case is checked as any other
	if r.Cases[2].Status != Failed {
		t.Errorf("a compiled case with a wrong output passed: %q", got)
	}
	if r.Cases[3].Status != Skipped || r.Cases[3].Msg != "compiled only, and its entry point stays on the reference path" {
		t.Errorf("a compiled case whose entry stays on the reference path: %q", got)
	}
	if r.Status != Failed {
		t.Errorf("program status %s, want failed", r.Status)
	}
}

// TestArgumentErrorExpected: an input that does not fit the entry
// point's sizes fails a case that expects a result, and passes one that
// expects an error matching the check's message.
func TestArgumentErrorExpected(t *testing.T) {
	src := `-- ==
-- input { [1, 2] } output { [1, 2] }
-- input { [1, 2, 3] } error: type \[2\]i32
-- input { [1, 2, 3] } error: nothing like this
-- input { [1, 2, 3] } output { [1, 2] }

def main (xs: []i32) : [2]i32 = xs
`
	file := filepath.Join(t.TempDir(), "argerr.fut")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r := RunFile(context.Background(), file, Options{Timeout: time.Minute})
	want := []Status{Passed, Passed, Failed, Failed}
	if len(r.Cases) != len(want) {
		t.Fatalf("%d cases, want %d", len(r.Cases), len(want))
	}
	for i, c := range r.Cases {
		if c.Status != want[i] {
			t.Errorf("case %d: %s %s, want %s", i, c.Status, c.Msg, want[i])
		}
	}
}
