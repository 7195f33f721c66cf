package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The command line as a user meets it, run through this test binary (which
// becomes fut when FUT_RUN_MAIN is set).
func init() {
	if os.Getenv("FUT_RUN_MAIN") == "1" {
		os.Args = append([]string{"fut"}, strings.Fields(os.Getenv("FUT_ARGS"))...)
		main()
		os.Exit(0)
	}
}

func runFut(t *testing.T, args string) (string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "FUT_RUN_MAIN=1", "FUT_ARGS="+args)
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

func TestVersionAndMissingFile(t *testing.T) {
	for _, a := range []string{"--version", "-V", "version"} {
		if out, code := runFut(t, a); code != 0 || !strings.HasPrefix(out, "fut "+version) {
			t.Errorf("fut %s: %d %q", a, code, out)
		}
	}
	out, code := runFut(t, "nonexist.fut")
	if code != 1 || !strings.Contains(out, "nonexist.fut: no such file") {
		t.Errorf("fut nonexist.fut: %d %q", code, out)
	}
	out, code = runFut(t, "frobnicate")
	if code != 2 || !strings.Contains(out, `unknown command "frobnicate"`) {
		t.Errorf("fut frobnicate: %d %q", code, out)
	}
}

// TestTimeoutSyntax: every --timeout takes plain seconds and Go durations.
func TestTimeoutSyntax(t *testing.T) {
	for in, want := range map[string]string{"2": "2s", "0.5": "500ms", "2s": "2s", "1m": "1m0s", "250ms": "250ms", "0": "0s"} {
		var f durationFlag
		if err := f.Set(in); err != nil || f.d.String() != want {
			t.Errorf("--timeout %s: %v %v, want %s", in, f.d, err, want)
		}
	}
	for _, in := range []string{"abc", "-1", "-2s"} {
		var f durationFlag
		if err := f.Set(in); err == nil {
			t.Errorf("--timeout %s accepted", in)
		}
	}
}

// TestHelpAndHabits: per-command help on standard output with every flag,
// and the flags futhark's users type by habit.
func TestHelpAndHabits(t *testing.T) {
	out, code := runFut(t, "test --help")
	if code != 0 || !strings.Contains(out, "-pipeline") || !strings.Contains(out, "--device") {
		t.Errorf("fut test --help: %d %q", code, out)
	}
	for _, args := range []string{"check -w --Werror ../../examples/logsum.fut", "test -i ../../examples/logsum.fut", "bench -r 1 ../../examples/logsum.fut"} {
		if out, code := runFut(t, args); code != 0 {
			t.Errorf("fut %s: %d %q", args, code, out)
		}
	}
}

// TestDataset: fut dataset generates by type with bounds and a seed, the
// same values for the same seed, converts text and binary; fut datacmp
// finds the first difference.
func TestDataset(t *testing.T) {
	a, code := runFut(t, "dataset -s 3 --i32-bounds=0:9 -g [100]i32")
	b, _ := runFut(t, "dataset -s 3 --i32-bounds=0:9 -g [100]i32")
	if code != 0 || a != b || !strings.HasPrefix(a, "[") {
		t.Fatalf("dataset: %d %q / %q", code, a, b)
	}
	for _, f := range strings.Split(strings.Trim(a, "[]\n"), ", ") {
		n, err := strconv.Atoi(strings.TrimSuffix(f, "i32"))
		if err != nil || n < 0 || n > 9 {
			t.Fatalf("value %q outside the bounds 0:9", f)
		}
	}
	dir := t.TempDir()
	x, y := filepath.Join(dir, "x"), filepath.Join(dir, "y")
	os.WriteFile(x, []byte("[1, 2, 3] 4.0f32"), 0o644)
	os.WriteFile(y, []byte("[1, 2, 5] 4.0f32"), 0o644)
	if out, code := runFut(t, "datacmp "+x+" "+x); code != 0 || out != "" {
		t.Errorf("datacmp of a file with itself: %d %q", code, out)
	}
	if out, code := runFut(t, "datacmp "+x+" "+y); code != 1 || !strings.Contains(out, "value 0 differs at [2]: 3i32 against 5i32") {
		t.Errorf("datacmp: %d %q", code, out)
	}
}

// TestPipedSessionStatus: a session read from a pipe that reported an
// error exits with status 1, one without errors with 0. Comment lines are
// no errors, and a script needs no empty lines after a definition
// continued over several lines.
func TestPipedSessionStatus(t *testing.T) {
	for in, want := range map[string]int{
		"1 + 2\n":      0,
		"1 + 2\nfoo\n": 1,
		"-- a comment\n1 + 2 -- three\n  -- indented\n":                     0,
		"def g (x: i32) =\n  x\n  + 1\nassert (g 1 == 2) true\n":            0,
		"def g (x: i32) =\n  x\n  + 1\ndef h = g 1\nassert (h == 2) true\n": 0,
		"def g (x: i32) =\n  x\n  + true\ng 1\n":                            1,
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "FUT_RUN_MAIN=1", "FUT_ARGS=repl")
		cmd.Stdin = strings.NewReader(in)
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if code != want {
			t.Errorf("%q: status %d, want %d (%s)", in, code, want, out)
		}
	}
}

// TestCheckWarnings: fut check prints the checker's warnings before any
// error, -w silences them and --Werror makes them fail the check; fut test
// matches an expected error against the warnings and the error, as
// futhark test does.
func TestCheckWarnings(t *testing.T) {
	dir := t.TempDir()
	warn := filepath.Join(dir, "warn.fut")
	if err := os.WriteFile(warn, []byte("def twice x = x + x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := runFut(t, "check "+warn); code != 0 || !strings.Contains(out, "warn.fut:1:5-10: warning: Defaulting ambiguous type to i32.") {
		t.Errorf("fut check: %d %q", code, out)
	}
	if out, code := runFut(t, "check -w "+warn); code != 0 || out != "" {
		t.Errorf("fut check -w: %d %q", code, out)
	}
	if out, code := runFut(t, "check --Werror "+warn); code != 1 || !strings.Contains(out, "warning: Defaulting") {
		t.Errorf("fut check --Werror: %d %q", code, out)
	}
	bad := filepath.Join(dir, "bad.fut")
	src := "-- ==\n-- error: Defaulting\ndef plus a b = a + b\ndef use = plus 1 2.5\n"
	if err := os.WriteFile(bad, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := runFut(t, "test "+bad); code != 0 || !strings.Contains(out, "1 passed") {
		t.Errorf("fut test: %d %q", code, out)
	}
}

// TestBenchCompare: --compare prints the peers' rows of both layouts
// (gpu_peers.py's object, expert_cuda.py's list) beside the largest
// dataset of the program named like the workload, fastest first, with
// fut's ratio to the fastest; a file that cannot be read is an error.
func TestBenchCompare(t *testing.T) {
	dir := t.TempDir()
	prog := "-- ==\n-- input { [1f32, 2f32] [3f32, 4f32] }\n-- output { [5f32, 8f32] }\n-- random input { [20000]f32 [20000]f32 }\n" +
		"entry main [n] (xs: [n]f32) (ys: [n]f32) : [n]f32 = map2 (\\x y -> 2 * x + y) xs ys\n"
	files := map[string]string{
		"saxpy.fut":  prog,
		"peers.json": `{"device": "GPU X", "rows": [{"bench": "saxpy", "peer": "torch", "ms": 5.0}, {"bench": "saxpy", "peer": "torch.compile", "ms": 2.5}, {"bench": "dotprod", "peer": "torch", "ms": 1}]}`,
		"cuda.json":  `[{"bench": "saxpy", "peer": "hand CUDA", "ms": 4.0, "note": "expert"}]`,
		"bad.json":   `{"rows": 3}`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, code := runFut(t, "bench -r 2 --compare "+filepath.Join(dir, "peers.json")+" --compare "+filepath.Join(dir, "cuda.json")+" "+filepath.Join(dir, "saxpy.fut"))
	if code != 0 || strings.Count(out, "peers:") != 1 ||
		!strings.Contains(out, "peers: torch.compile 2.500ms, hand CUDA 4.000ms, torch 5.000ms\n") ||
		!strings.Contains(out, "fut / best peer (torch.compile on GPU X): wall ") || strings.Contains(out, "dotprod") {
		t.Errorf("rc %d:\n%s", code, out)
	}
	// the peers' line follows the large dataset's
	if i, j := strings.Index(out, "[20000]f32"), strings.Index(out, "peers:"); i < 0 || j < i {
		t.Errorf("peers not beside the largest dataset:\n%s", out)
	}
	out, code = runFut(t, "bench --compare "+filepath.Join(dir, "bad.json")+" "+filepath.Join(dir, "saxpy.fut"))
	if code != 2 || !strings.Contains(out, "--compare") || !strings.Contains(out, "bad.json") {
		t.Errorf("a bad file: rc %d:\n%s", code, out)
	}
}
