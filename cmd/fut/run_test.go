package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the expected .err and .out files of ../../interp/testdata/badinput")

// TestRunBadInput gives each NAME.in of interp/testdata/badinput to
// `fut run prog.fut` (with the flags in NAME.args, if any) and compares
// what it prints with NAME.out (stdout, status 0) or NAME.err (stderr,
// status 1), exactly. The timing of a timeout is blanked.
func TestRunBadInput(t *testing.T) {
	dir, err := filepath.Abs("../../interp/testdata/badinput")
	if err != nil {
		t.Fatal(err)
	}
	ins, err := filepath.Glob(filepath.Join(dir, "*.in"))
	if err != nil || len(ins) == 0 {
		t.Fatalf("no inputs in %s: %v", dir, err)
	}
	t.Chdir(dir)
	for _, in := range ins {
		name := strings.TrimSuffix(filepath.Base(in), ".in")
		t.Run(name, func(t *testing.T) {
			input, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			args := []string{"prog.fut"}
			if extra, err := os.ReadFile(name + ".args"); err == nil {
				args = append(args, strings.Fields(string(extra))...)
			}
			var stdout, stderr bytes.Buffer
			status := runMain(context.Background(), args, bytes.NewReader(input), &stdout, &stderr)
			got, file, wantStatus := stderr.String(), name+".err", 1
			if status == 0 {
				got, file, wantStatus = stdout.String(), name+".out", 0
			}
			got = timingRE.ReplaceAllString(got, "after TIME")
			if *update {
				os.Remove(name + ".out")
				os.Remove(name + ".err")
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("status %d; no %s: %v\nstdout: %s\nstderr: %s", status, file, err, stdout.String(), stderr.String())
			}
			if status != wantStatus || got != string(want) {
				t.Errorf("status %d (want %d)\ngot:\n%s\nwant:\n%s", status, wantStatus, got, want)
			}
		})
	}
}

var timingRE = regexp.MustCompile(`after [0-9.]+(ms|s|µs)`)
