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

	"fut/interp/session"
)

var update = flag.Bool("update", false, "rewrite the expected .err and .out files of ../../interp/session/testdata/badinput")

// TestRunBadInput gives each NAME.in of interp/session/testdata/badinput to
// `fut run prog.fut` (with the flags in NAME.args, if any) and compares
// what it prints with NAME.out (stdout, status 0) or NAME.err (stderr,
// status 1), exactly. The timing of a timeout is blanked.
func TestRunBadInput(t *testing.T) {
	dir, err := filepath.Abs("../../interp/session/testdata/badinput")
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

// TestRunDevices: fut run --devices 2 -v splits an offloaded map across
// two (logical) devices, says so, and prints the reference path's
// values; with one device it says nothing of a split.
func TestRunDevices(t *testing.T) {
	if _, err := session.OffloadDevice(); err != nil {
		t.Skipf("no OpenCL device (%v)", err)
	}
	defer session.SetDevices("")
	prog := filepath.Join(t.TempDir(), "p.fut")
	if err := os.WriteFile(prog, []byte("entry main (n: i64) = map (\\i -> i * i % 1000) (iota n)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var want string
	for _, devs := range []string{"1", "2"} {
		args, ok := deviceFlags("run", []string{"--devices", devs, prog, "-v", "--backend=opencl"})
		if !ok {
			t.Fatal("flags refused")
		}
		var stdout, stderr bytes.Buffer
		if status := runMain(context.Background(), args, strings.NewReader("1000i64"), &stdout, &stderr); status != 0 {
			t.Fatalf("--devices %s: status %d: %s", devs, status, stderr.String())
		}
		split := strings.Contains(stderr.String(), "fut: split across 2 devices: map by ranges of the outer dimension")
		if split != (devs == "2") {
			t.Errorf("--devices %s: -v says %q", devs, stderr.String())
		}
		if want == "" {
			want = stdout.String()
		} else if stdout.String() != want {
			t.Errorf("--devices %s prints %q, one device %q", devs, stdout.String(), want)
		}
	}
}

// TestRunWarnings: fut run prints the checker's warnings on stderr before
// it runs (with_vjp's unused adjoint here), and -w leaves them out.
func TestRunWarnings(t *testing.T) {
	file := filepath.Join(t.TempDir(), "w.fut")
	src := "def primal (x: f64) = with_vjp (\\x -> x * 2) (\\c a -> a + f64.sqrt c) x\nentry main x = vjp primal x 1\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, quiet := range []bool{false, true} {
		args := []string{file, "--backend", "interp"}
		if quiet {
			args = append(args, "-w")
		}
		var stdout, stderr bytes.Buffer
		if status := runMain(context.Background(), args, strings.NewReader("2.5"), &stdout, &stderr); status != 0 {
			t.Fatalf("status %d: %s", status, stderr.String())
		}
		warned := strings.Contains(stderr.String(), "warning: with_vjp's custom adjoint is not used yet")
		if warned == quiet || stdout.String() != "2.0f64\n" {
			t.Errorf("-w %v: stdout %q, stderr %q", quiet, stdout.String(), stderr.String())
		}
	}
}
