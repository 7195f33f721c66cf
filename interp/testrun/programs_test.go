package testrun

import (
	"context"
	"testing"
	"time"

	"fut/interp/session"
)

// TestRepositoryPrograms runs the test blocks of every Futhark program in
// the repository that is not an example (examples_test.go has those) on
// every path: the reference evaluator, the fused core IR and OpenCL (when
// a device exists). The prelude's own test programs are among them.
func TestRepositoryPrograms(t *testing.T) {
	dirs := []string{"../../prelude/testdata", "../../interp/session/testdata/shadow", "../../interp/session/testdata/stages", "../../interp/session/testdata/offload"}
	var files []string
	for _, d := range dirs {
		fs, err := Collect([]string{d})
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	if len(files) < 15 {
		t.Fatalf("expected the prelude's, the shadowing and the stage test programs, found %d", len(files))
	}
	paths := []Options{{}, {Pipeline: "fused"}}
	if _, err := session.OffloadDevice(); err == nil {
		paths = append(paths, Options{Backend: session.BackendOpenCL})
	} else {
		t.Logf("no OpenCL device (%v): the OpenCL path is not run", err)
	}
	for _, f := range files {
		for _, o := range paths {
			o.Timeout = 120 * time.Second
			r := RunFile(context.Background(), f, o)
			if r.Status != Passed {
				t.Errorf("%s (pipeline %q, backend %q): %s %s", f, o.Pipeline, o.Backend, r.Status, r.Msg)
				for _, c := range r.Cases {
					if c.Status == Failed {
						t.Errorf("  entry %s, case %s: %s", c.Entry, c.Name, c.Msg)
					}
				}
			}
		}
	}
}

// TestOffloadedPrograms: the cases of the programs in testdata/offload
// run on OpenCL (as kernels, not on the reference path), but those whose
// entry point is named in offloadExceptions, each with its reason.
func TestOffloadedPrograms(t *testing.T) {
	if _, err := session.OffloadDevice(); err != nil {
		t.Skipf("no OpenCL device (%v): install pocl-opencl-icd", err)
	}
	files, err := Collect([]string{"../../interp/session/testdata/offload"})
	if err != nil || len(files) == 0 {
		t.Fatalf("no programs in testdata/offload (%v)", err)
	}
	for _, f := range files {
		r := RunFile(context.Background(), f, Options{Backend: session.BackendOpenCL, Timeout: 120 * time.Second})
		if len(r.Cases) == 0 {
			t.Errorf("%s: no cases ran: %s %s", f, r.Status, r.Msg)
		}
		for _, c := range r.Cases {
			_, excepted := offloadExceptions[c.Entry]
			if c.Status != Passed {
				t.Errorf("%s: entry %s, case %s: %s %s", f, c.Entry, c.Name, c.Status, c.Msg)
			} else if c.Pipeline != string(session.BackendOpenCL) && !excepted {
				t.Errorf("%s: entry %s, case %s ran on %s", f, c.Entry, c.Name, c.Pipeline)
			}
		}
	}
}

var offloadExceptions = map[string]string{
	"msid": "a map_stream that returns its chunk is a copy: no SOAC to run",
}
