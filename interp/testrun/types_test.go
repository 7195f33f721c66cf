package testrun

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fut/interp/session"
)

// TestInputTypes: a case whose input or expected output does not have the
// entry point's types fails with run's message, even where the values
// would compare equal after a conversion.
func TestInputTypes(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "wrongtype.fut")
	src := `-- ==
-- input { 1.5f32 } output { 2 }
-- input { [1.0f32] } output { 2 }
-- input { 1 } output { 2.0f32 }
-- input { 1 } output { 2 }
def main (x: i32) : i32 = x + 1
`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r := RunFile(context.Background(), file, Options{})
	if len(r.Cases) != 4 {
		t.Fatalf("%d cases, want 4", len(r.Cases))
	}
	wants := []string{"input: argument 1 of main: expected a value of type i32, found a scalar of type f32",
		"input: argument 1 of main: expected a value of type i32, found an array",
		"expected output: result 1 of main: expected a value of type i32, found a scalar of type f32", ""}
	for i, c := range r.Cases {
		if wants[i] == "" {
			if c.Status != Passed {
				t.Errorf("case %d: %s %s", i, c.Status, c.Msg)
			}
			continue
		}
		if c.Status != Failed || !strings.Contains(c.Msg, wants[i]) {
			t.Errorf("case %d: %s %q, want a failure saying %q", i, c.Status, c.Msg, wants[i])
		}
	}
}

// TestBenchChecksOutput: a benchmark whose result differs from the case's
// output block is an error, not a timing.
func TestBenchChecksOutput(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "wrong.fut")
	src := "-- ==\n-- input { 3 } output { 7 }\n-- input { 2 } output { 4 }\ndef main (x: i32) = x * 2\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r := BenchFile(context.Background(), file, BenchOptions{Runs: 2})
	if len(r.Datasets) != 2 {
		t.Fatalf("%d datasets, want 2", len(r.Datasets))
	}
	if d := r.Datasets[0]; !strings.Contains(d.Err, "result 0 differs") || len(d.Runtimes) != 0 {
		t.Errorf("a wrong result was timed: %+v", d)
	}
	if d := r.Datasets[1]; d.Err != "" || !d.OutputChecked || len(d.Runtimes) != 2 {
		t.Errorf("a right result: %+v", d)
	}
}

// TestMismatchIndex: a mismatch in a long or nested array names the first
// differing element and the two values there.
func TestMismatchIndex(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "nested.fut")
	src := "-- ==\n-- input { 2i64 } output { [[0i64, 1i64], [1i64, 3i64]] }\nentry main (n: i64) = map (\\i -> map (+i) (iota n)) (iota n)\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r := RunFile(context.Background(), file, Options{})
	if len(r.Cases) != 1 || r.Cases[0].Msg != "result 0 differs at [1, 1]: expected 3i64, got 2i64" {
		t.Errorf("got %+v", r.Cases)
	}
}

// TestAutoOutputCompared: with auto output, a case run by another path
// is compared with the reference path (and passes when they agree).
func TestAutoOutputCompared(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "auto.fut")
	src := "-- ==\n-- input { 10i64 } auto output\ndef main (n: i64) = map (\\i -> i * 2) (iota n)\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r := RunFile(context.Background(), file, Options{Pipeline: "fused"})
	if len(r.Cases) != 1 || r.Cases[0].Status != Passed || r.Cases[0].Pipeline != "fused" {
		t.Errorf("got %+v", r.Cases)
	}
}

// TestExclude: --exclude skips the programs and cases with a tag.
func TestExclude(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "tags.fut")
	src := "-- ==\n-- tags { slow }\n-- input { 1 } output { 2 }\n-- nobench input { 2 } output { 3 }\ndef main (x: i32) = x + 1\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := RunFile(context.Background(), file, Options{Exclude: []string{"slow"}}); r.Status != Skipped || !strings.Contains(r.Msg, "--exclude") {
		t.Errorf("program tag: %s %s", r.Status, r.Msg)
	}
	r := RunFile(context.Background(), file, Options{Exclude: []string{"nobench"}})
	if r.Status != Passed || len(r.Cases) != 2 || r.Cases[1].Status != Skipped {
		t.Errorf("case tag: %+v", r.Cases)
	}
}

// TestTypeCheckOnly: -t passes a program that type-checks without
// running it (a wrong output goes unnoticed, a type error does not), and
// an expected compile-time error still decides; -s skips, saying why.
func TestTypeCheckOnly(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	wrong := write("wrong.fut", "-- ==\n-- input { 1 } output { 7 }\ndef main (x: i32) = x + 1\n")
	bad := write("bad.fut", "-- ==\n-- input { 1 } output { 2 }\ndef main (x: i32) = x + true\n")
	expected := write("expected.fut", "-- ==\n-- error: Cannot\ndef main (x: i32) = x + true\n")
	opts := Options{TypeCheckOnly: true}
	if r := RunFile(context.Background(), wrong, opts); r.Status != Passed || len(r.Cases) != 0 {
		t.Errorf("-t on a program with a wrong output: %s %s, %d cases run", r.Status, r.Msg, len(r.Cases))
	}
	if r := RunFile(context.Background(), wrong, Options{}); r.Status != Failed {
		t.Errorf("without -t the wrong output must fail: %s", r.Status)
	}
	if r := RunFile(context.Background(), bad, opts); r.Status != Failed {
		t.Errorf("-t on a type error: %s", r.Status)
	}
	if r := RunFile(context.Background(), expected, opts); r.Status != Passed {
		t.Errorf("-t on an expected compile-time error: %s %s", r.Status, r.Msg)
	}
	if r := RunFile(context.Background(), wrong, Options{Structure: true}); r.Status != Skipped || !strings.Contains(r.Msg, "structure") {
		t.Errorf("-s: %s %s", r.Status, r.Msg)
	}
}

// TestBenchOffload: on the device, a benchmark times the call with its
// arguments on the device (wall time, kernel time beside it, the upload
// and download apart), checks the warm-up run's results, and a wrong
// result on the device is an error there too.
func TestBenchOffload(t *testing.T) {
	if _, err := session.OffloadDevice(); err != nil {
		t.Skipf("no OpenCL device (%v): install pocl-opencl-icd", err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "saxpy.fut")
	src := "-- ==\n-- input { [1f32, 2f32, 3f32] [4f32, 5f32, 6f32] } output { [6f32, 9f32, 12f32] }\n" +
		"-- input { [1f32, 2f32] [1f32, 1f32] } output { [3f32, 4f32] }\n" +
		"entry main [n] (xs: [n]f32) (ys: [n]f32) : [n]f32 = map2 (\\x y -> 2 * x + y) xs ys\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r := BenchFile(context.Background(), file, BenchOptions{Runs: 3, Backend: session.BackendOpenCL})
	if len(r.Datasets) != 2 {
		t.Fatalf("%d datasets, want 2", len(r.Datasets))
	}
	d := r.Datasets[0]
	if d.Err != "" || !d.OutputChecked || len(d.Runtimes) != 3 || len(d.KernelTimes) != 3 || !d.Resident || d.Launches != 1 {
		t.Errorf("the device run: %+v", d)
	}
	for i := range d.Runtimes {
		if d.KernelTimes[i] > d.Runtimes[i] {
			t.Errorf("run %d: kernels %v longer than the call %v", i, d.KernelTimes[i], d.Runtimes[i])
		}
	}
	if d := r.Datasets[1]; !strings.Contains(d.Err, "differs") || len(d.Runtimes) != 0 {
		t.Errorf("a wrong result on the device was timed: %+v", d)
	}
}
