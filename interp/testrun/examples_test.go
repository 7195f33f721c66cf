package testrun

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"fut/interp/session"
)

// TestExamples runs the test blocks of every seed program in examples/:
// each must pass on the reference evaluator.
func TestExamples(t *testing.T) {
	files, err := Collect([]string{filepath.Join("..", "..", "examples")})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 13 {
		t.Fatalf("expected at least 13 example programs, found %d", len(files))
	}
	for _, f := range files {
		r := RunFile(context.Background(), f, Options{Timeout: 60 * time.Second})
		if r.Status != Passed {
			t.Errorf("%s: %s %s", f, r.Status, r.Msg)
			for _, c := range r.Cases {
				if c.Status == Failed {
					t.Errorf("  entry %s, case %s: %s", c.Entry, c.Name, c.Msg)
				}
			}
		}
	}
}

// TestExamplesFused runs the seed programs through the core IR after
// fusion: each must still pass, and most must really run fused (not fall
// back to the reference path).
func TestExamplesFused(t *testing.T) {
	files, err := Collect([]string{filepath.Join("..", "..", "examples")})
	if err != nil {
		t.Fatal(err)
	}
	fused, total := 0, 0
	for _, f := range files {
		r := RunFile(context.Background(), f, Options{Timeout: 60 * time.Second, Pipeline: "fused"})
		if r.Status != Passed {
			t.Errorf("%s: %s %s", f, r.Status, r.Msg)
		}
		for _, c := range r.Cases {
			if c.Status == Failed {
				t.Errorf("  %s: entry %s, case %s (%s): %s", f, c.Entry, c.Name, c.Pipeline, c.Msg)
			}
			if c.Status != Skipped {
				total++
				if c.Pipeline == "fused" {
					fused++
				}
			}
		}
	}
	t.Logf("%d of %d cases ran through the fused IR", fused, total)
	if fused*2 < total {
		t.Errorf("only %d of %d cases ran through the fused IR", fused, total)
	}
}

// TestExamplesOpenCL runs the seed programs with --backend=opencl: on a
// machine with an OpenCL device (CI installs PoCL) every program that
// passes on the reference path passes there too, and most cases really
// run as kernels. Without a device it says so and skips.
func TestExamplesOpenCL(t *testing.T) {
	if _, err := session.OffloadDevice(); err != nil {
		t.Skipf("no OpenCL device here (%v): install pocl-opencl-icd", err)
	}
	files, err := Collect([]string{filepath.Join("..", "..", "examples")})
	if err != nil {
		t.Fatal(err)
	}
	onDevice, total := 0, 0
	for _, f := range files {
		r := RunFile(context.Background(), f, Options{Timeout: 300 * time.Second, Backend: session.BackendOpenCL})
		if r.Status != Passed {
			t.Errorf("%s: %s %s", f, r.Status, r.Msg)
		}
		for _, c := range r.Cases {
			if c.Status == Failed {
				t.Errorf("  %s: entry %s, case %s (%s): %s", f, c.Entry, c.Name, c.Pipeline, c.Msg)
			}
			if c.Status != Skipped {
				total++
				if c.Pipeline == string(session.BackendOpenCL) {
					onDevice++
				}
			}
		}
	}
	t.Logf("%d of %d cases ran as OpenCL kernels", onDevice, total)
	if onDevice*2 < total {
		t.Errorf("only %d of %d cases ran as OpenCL kernels", onDevice, total)
	}
}
