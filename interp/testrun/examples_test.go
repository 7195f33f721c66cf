package testrun

import (
	"context"
	"path/filepath"
	"testing"
	"time"
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
