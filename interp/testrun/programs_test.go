package testrun

import (
	"context"
	"testing"
	"time"

	"fut/interp"
)

// TestRepositoryPrograms runs the test blocks of every Futhark program in
// the repository that is not an example (examples_test.go has those) on
// every path: the reference evaluator, the fused core IR and OpenCL (when
// a device exists). The prelude's own test programs are among them.
func TestRepositoryPrograms(t *testing.T) {
	dirs := []string{"../../prelude/testdata", "../../interp/testdata/shadow", "../../interp/testdata/stages"}
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
	if _, err := interp.OffloadDevice(); err == nil {
		paths = append(paths, Options{Backend: interp.BackendOpenCL})
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
