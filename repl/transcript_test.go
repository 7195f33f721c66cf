package repl

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"fut/interp"
	"fut/interp/costs"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts in testdata")

// The prompts that mark a transcript's input lines; every other line is
// output the REPL must print.
var prompts = []string{mainPrompt, contPrompt, breakPrompt}

// inputOf extracts the lines typed at prompts from a transcript.
func inputOf(transcript string) string {
	var b strings.Builder
	for _, l := range strings.Split(transcript, "\n") {
		for _, p := range prompts {
			if strings.HasPrefix(l, p) || l == strings.TrimRight(p, " ") {
				b.WriteString(strings.TrimPrefix(strings.TrimPrefix(l, p), strings.TrimRight(p, " ")))
				b.WriteByte('\n')
				break
			}
		}
	}
	return b.String()
}

// Timings and the working directory differ from run to run. The core
// IR's text and the fused plan's cost belong to package ir, which has
// tests of its own; here only their place in the output is checked.
var (
	timingRE   = regexp.MustCompile(`[0-9.]+ (ns|µs|ms|s) on interp`)
	irProgRE   = regexp.MustCompile(`(?ms)^prog .*?^}\n`)
	irProgsRE  = regexp.MustCompile(`(prog …\n)+`)
	irPassRE   = regexp.MustCompile(`(?m)^-- after [a-z-]+(: unchanged)?\n`)
	fusedRowRE = regexp.MustCompile(`(?m)^( *)fused( +[-0-9.]+)+$`)
	// A sweep's fused columns follow the │.
	sweepFusedRE = regexp.MustCompile(`(?m)│.*$`)
)

func normalise(out, dir string) string {
	out = timingRE.ReplaceAllString(out, "TIME on interp")
	out = irPassRE.ReplaceAllString(out, "")
	out = irProgRE.ReplaceAllString(out, "prog …\n")
	out = irProgsRE.ReplaceAllString(out, "prog …\n")
	out = fusedRowRE.ReplaceAllString(out, "${1}fused       …")
	out = sweepFusedRE.ReplaceAllString(out, "│ …")
	return strings.ReplaceAll(out, dir, "$TESTDIR")
}

// runTranscript feeds the input of a transcript to a REPL and returns
// what it printed, prompts and input included.
func runTranscript(t *testing.T, transcript string) string {
	t.Helper()
	sess, err := interp.NewSession(interp.Options{Cost: true})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	// P is fixed: the machine's processors would change the figures of Brent's bound.
	r, err := New(sess, Config{In: strings.NewReader(inputOf(transcript)), Out: &out, Echo: true,
		Procs: costs.Procs{P: 1, Why: "fixed by the test"}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.Run(context.Background())
	return out.String()
}

// TestTranscripts runs every testdata/*.txt: the lines after a prompt
// are typed, the rest is the expected output. -update rewrites them.
func TestTranscripts(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts: %v", err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			t.Chdir(wd) // :cd must not leak into the next transcript
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want := string(data)
			got := normalise(runTranscript(t, want), wd)
			if *update {
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if got != want {
				t.Errorf("transcript differs (go test ./repl -run Transcripts -update rewrites it):\n%s", diffLines(want, got))
			}
		})
	}
}

// diffLines shows the first lines where want and got differ.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(w), len(g)) && shown < 12; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("line " + strconv.Itoa(i+1) + ":\n  want: " + wl + "\n  got:  " + gl + "\n")
			shown++
		}
	}
	return b.String()
}
