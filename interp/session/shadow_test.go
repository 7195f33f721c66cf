package session_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fut/interp/session"
	"fut/interp/testrun"
)

// TestShadowing runs the programs of testdata/shadow, in which a user's
// names shadow built-in ones (an operator, a numeric module, prelude
// functions, an opened module, parameters and local bindings), on every
// path: the reference evaluator, the fused core IR, OpenCL and the default
// policy (auto, which offloads the large cases). Each must give the
// reference answer, and the fused path must really lower every case: the
// lowering resolves names by what the checker says they denote, so
// shadowing is no reason to fall back.
func TestShadowing(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "shadow", "*.fut"))
	if err != nil || len(files) < 5 {
		t.Fatalf("expected the shadowing programs in testdata/shadow, found %d (%v)", len(files), err)
	}
	_, devErr := session.OffloadDevice()
	paths := []struct {
		name string
		opts testrun.Options
	}{
		{"reference", testrun.Options{}},
		{"fused", testrun.Options{Pipeline: "fused"}},
		{"opencl", testrun.Options{Backend: session.BackendOpenCL}},
		{"auto", testrun.Options{Backend: session.BackendAuto}},
	}
	for _, f := range files {
		for _, p := range paths {
			if p.opts.Backend != "" && devErr != nil {
				t.Logf("%s: no OpenCL device (%v): install pocl-opencl-icd", p.name, devErr)
				continue
			}
			p.opts.Timeout = 120 * time.Second
			r := testrun.RunFile(context.Background(), f, p.opts)
			if r.Status != testrun.Passed {
				t.Errorf("%s on the %s path: %s %s", f, p.name, r.Status, r.Msg)
			}
			offloaded := 0
			for _, c := range r.Cases {
				if c.Status == testrun.Failed {
					t.Errorf("%s on the %s path: entry %s, case %s: %s", f, p.name, c.Entry, c.Name, c.Msg)
				}
				if p.name == "fused" && c.Pipeline != "fused" {
					t.Errorf("%s: entry %s, case %s did not run through the fused IR: %s", f, c.Entry, c.Name, c.Pipeline)
				}
				if c.Pipeline != "" && !strings.HasPrefix(c.Pipeline, "reference") && p.opts.Backend != "" {
					offloaded++
				}
			}
			if p.opts.Backend != "" && offloaded == 0 {
				// opencl offloads every case, auto the large one
				t.Errorf("%s: no case ran on the device with --backend=%s", f, p.name)
			}
		}
	}
}
