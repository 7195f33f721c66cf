package main

import (
	"encoding/json"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// fut with arguments that may hold spaces (runFut splits at spaces).
func init() {
	if os.Getenv("FUT_RUN_MAIN") == "argv" {
		os.Args = append([]string{"fut"}, strings.Split(os.Getenv("FUT_ARGV"), "\x1f")...)
		main()
		os.Exit(0)
	}
}

func futArgs(t *testing.T, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "FUT_RUN_MAIN=argv", "FUT_ARGV="+strings.Join(args, "\x1f"))
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

// fields matches a table row: the label, then numbers.
func rowOf(out, label string) []string {
	re := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(label) + `((?:\s+[-0-9.]+)+)\s*$`)
	m := re.FindStringSubmatch(out)
	if m == nil {
		return nil
	}
	return strings.Fields(m[1])
}

// TestCostTable: the model's names with units, the figures of
// COST_MODEL.md's worked example, Brent's bound for the P given, and
// which P.
func TestCostTable(t *testing.T) {
	out, code := futArgs(t, "cost", "-p", "4", "reduce (+) 0 (iota 4)")
	if code != 0 {
		t.Fatalf("status %d: %s", code, out)
	}
	for _, want := range []string{"W      D   W/D     S1     S∞  W/P + D", "steps  steps        words  words    steps", "P = 4: set by -p"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if got := strings.Join(rowOf(out, "as written"), " "); got != "13 6 2.17 7 8 9.25" {
		t.Errorf("as written: %q\n%s", got, out)
	}
	if len(rowOf(out, "fused")) != 6 {
		t.Errorf("no fused row:\n%s", out)
	}
	// Without -p: the device's processing elements or the CPU's cores, said.
	out, _ = futArgs(t, "cost", "1 + 2")
	if !regexp.MustCompile(`(?m)^P = \d+: (the OpenCL device's processing elements|the CPU's \d+ cores)`).MatchString(out) {
		t.Errorf("P is not explained:\n%s", out)
	}
}

// TestCostSideBySide: several expressions, as arguments or split by |.
func TestCostSideBySide(t *testing.T) {
	out, code := futArgs(t, "cost", "-p", "1", "iota 4", "1 + 2 | (1 | 2)")
	if code != 0 {
		t.Fatalf("status %d: %s", code, out)
	}
	for _, want := range []string{"[1] [0i64, 1i64, 2i64, 3i64]", "[2] 3i32", "[3] 3i32", "[1] iota 4", "[2] 1 + 2", "[3] (1 | 2)"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if n := len(regexp.MustCompile(`(?m)^  as written`).FindAllString(out, -1)); n != 3 {
		t.Errorf("%d rows as written, want 3:\n%s", n, out)
	}
}

func TestCostJSON(t *testing.T) {
	out, code := futArgs(t, "cost", "--json", "-p", "2", "reduce (+) 0 (iota 4)")
	if code != 0 {
		t.Fatalf("status %d: %s", code, out)
	}
	var got struct {
		Value     string
		AsWritten map[string]float64 `json:"as_written"`
		Fused     map[string]float64
		P         int64
		Units     map[string]string
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := map[string]float64{"W": 13, "D": 6, "S1": 7, "Sinf": 8, "parallelism": 2.17, "brent": 12.5}
	for k, v := range want {
		if got.AsWritten[k] != v {
			t.Errorf("as_written.%s = %v, want %v (%s)", k, got.AsWritten[k], v, out)
		}
	}
	if got.Value != "6i64" || got.P != 2 || got.Units["S1"] != "words" || got.Units["W"] != "steps" || got.Fused["W"] == 0 {
		t.Errorf("JSON: %s", out)
	}
	// fut eval --json uses the same names.
	out, _ = futArgs(t, "eval", "--json", "reduce (+) 0 (iota 4)")
	if !strings.Contains(out, `"as_written":{"W":13,"D":6,"S1":7,"Sinf":8`) {
		t.Errorf("fut eval --json: %s", out)
	}
	out, _ = futArgs(t, "eval", "--cost", "reduce (+) 0 (iota 4)")
	if !strings.Contains(out, "as written: W 13 steps, D 6 steps, S1 7 words, S∞ 8 words") {
		t.Errorf("fut eval --cost: %s", out)
	}
}

// TestCostSweep: the table, the JSON with the growth of each figure, and
// the plots.
func TestCostSweep(t *testing.T) {
	logsum := `reduce (+) 0 (map (\i -> f64.log (f64.i64 (i + 1))) (iota n))`
	out, code := futArgs(t, "cost", "--sweep", "n=256..4096", logsum)
	if code != 0 {
		t.Fatalf("status %d: %s", code, out)
	}
	if !regexp.MustCompile(`(?m)^growth\s+n\s+log n\s+n\s+n\s+│\s+n\s+log n\s+1\s+n$`).MatchString(out) {
		t.Errorf("growth row:\n%s", out)
	}
	out, code = futArgs(t, "cost", "--json", "--sweep", "n=256..4096", logsum)
	if code != 0 {
		t.Fatalf("status %d: %s", code, out)
	}
	var sw struct {
		Points []struct {
			N         int64
			AsWritten map[string]int64 `json:"as_written"`
		}
		Growth struct {
			AsWritten map[string]string `json:"as_written"`
			Fused     map[string]string
		}
	}
	if err := json.Unmarshal([]byte(out), &sw); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(sw.Points) != 5 || sw.Points[4].N != 4096 || sw.Points[0].AsWritten["W"] == 0 {
		t.Errorf("points: %+v", sw.Points)
	}
	want := map[string]string{"W": "n", "D": "log n", "S1": "n", "Sinf": "n"}
	for k, v := range want {
		if sw.Growth.AsWritten[k] != v {
			t.Errorf("growth.as_written.%s = %q, want %q", k, sw.Growth.AsWritten[k], v)
		}
	}
	if sw.Growth.Fused["S1"] != "1" {
		t.Errorf("growth.fused.S1 = %q, want 1", sw.Growth.Fused["S1"])
	}

	dir := t.TempDir()
	for _, name := range []string{"p.svg", "p.png"} {
		path := filepath.Join(dir, name)
		out, code := futArgs(t, "cost", "--sweep", "n=64,128,256", "--plot", path, logsum, "iota n")
		if code != 0 || !strings.Contains(out, "plot written to") {
			t.Fatalf("status %d: %s", code, out)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if name == "p.png" {
			if _, err := png.Decode(f); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		} else {
			head := make([]byte, 5)
			f.Read(head)
			if string(head) != "<?xml" {
				t.Errorf("%s begins %q", name, head)
			}
		}
		f.Close()
	}
}

func TestCostExplainHelpAndErrors(t *testing.T) {
	out, code := futArgs(t, "cost", "--explain", "let xs = iota 100 in reduce (+) 0 (map (*2) xs)")
	if code != 0 || !strings.Contains(out, "let xs = iota 100") || !strings.Contains(out, "total") || !strings.Contains(out, "most work in") {
		t.Errorf("--explain: %d\n%s", code, out)
	}
	out, code = futArgs(t, "cost", "--help")
	if code != 0 || !strings.Contains(out, "-sweep") || !strings.Contains(out, "The cost model, in short") || !strings.Contains(out, "docs/cost.md") {
		t.Errorf("--help: %d\n%s", code, out)
	}
	out, code = futArgs(t, "cost", "--model")
	if code != 0 || !strings.HasPrefix(out, "# ") {
		t.Errorf("--model: %d\n%.200s", code, out)
	}
	for _, args := range [][]string{
		{"cost"},
		{"cost", "--sweep", "n=8..4", "iota n"},
		{"cost", "--plot", "x.svg", "iota 3"},
		{"cost", "--sweep", "n=4..8", "--plot", "x.pdf", "iota n"},
		{"cost", "-p", "-3", "1"},
		{"cost", "1 |"},
	} {
		if out, code := futArgs(t, args...); code != 2 {
			t.Errorf("fut %q: status %d, want 2: %s", args, code, out)
		}
	}
	if out, code := futArgs(t, "cost", "[1][3]"); code != 1 || !strings.Contains(out, "out of bounds") {
		t.Errorf("a run-time error: %d %s", code, out)
	}
	if out, code := futArgs(t, "cost", "--sweep", "n=4..16", "iota 3"); code != 1 || !strings.Contains(out, "does not mention") {
		t.Errorf("a sweep without its variable: %d %s", code, out)
	}
}

// TestTestCostClaims: fut test checks the growth that a program claims,
// and --no-cost skips it.
func TestTestCostClaims(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "claims.fut")
	src := `-- cost of main n
--   for n = 2^6..2^9
--   as written: W n, D n
-- ==
-- input { 3i64 }
-- output { 3i64 }
entry main (n: i64) : i64 = reduce (+) 0 (iota n)
`
	os.WriteFile(file, []byte(src), 0o644)
	out, code := futArgs(t, "test", file)
	if code != 1 || !strings.Contains(out, "as written D is log n, not n as claimed") {
		t.Errorf("a false claim: %d\n%s", code, out)
	}
	if out, code := futArgs(t, "test", "--no-cost", file); code != 0 {
		t.Errorf("--no-cost: %d\n%s", code, out)
	}
	os.WriteFile(file, []byte(strings.Replace(src, "D n", "D log n", 1)), 0o644)
	if out, code := futArgs(t, "test", file); code != 0 || !strings.Contains(out, "cases: 2 passed") {
		t.Errorf("a true claim: %d\n%s", code, out)
	}
}
