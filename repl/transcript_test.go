package repl

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"fut/interp/costs"
	"fut/interp/lower"
	"fut/interp/session"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts in testdata")

// The prompts that mark a transcript's input lines (numbered main and
// break prompts, and continuation prompts as wide as the entry's first);
// every other line is output the REPL must print. Unnumbered prompts
// (fut> , a transcript written before they were numbered) are read too,
// so that -update numbers them.
var entryPromptRE = regexp.MustCompile(`^fut(\[break\])?( [0-9]+)?> `)

// inputOf extracts the lines typed at prompts from a transcript.
func inputOf(transcript string) string {
	var b strings.Builder
	cont := contFor(fmt.Sprintf(mainPrompt, 1))
	for _, l := range strings.Split(transcript, "\n") {
		if p := entryPromptRE.FindString(l); p != "" {
			cont = contFor(p)
			b.WriteString(l[len(p):] + "\n")
		} else if strings.HasPrefix(l, cont) || l == strings.TrimRight(cont, " ") {
			b.WriteString(strings.TrimPrefix(l, cont) + "\n")
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

// sourceStages replaces the programs that :ir prints after each source
// stage (lower.Stages) by "defs …": like the core IR's text, they belong
// to the package that makes them.
func sourceStages(out string) string {
	lines := strings.SplitAfter(out, "\n")
	var b strings.Builder
	skipping := false
	for _, l := range lines {
		if skipping {
			if !strings.HasPrefix(l, "-- ") && !strings.HasPrefix(l, "fut ") {
				continue
			}
			b.WriteString("defs …\n")
			skipping = false
		}
		b.WriteString(l)
		for _, st := range lower.Stages {
			if strings.TrimRight(l, "\n") == "-- after "+st.Name {
				skipping = true
			}
		}
	}
	if skipping {
		b.WriteString("defs …\n")
	}
	return b.String()
}

func normalise(out, dir string) string {
	out = sourceStages(out)
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
	return runTranscriptOn(t, transcript, session.BackendInterp)
}

// runTranscriptOn is runTranscript with the session's backend set.
func runTranscriptOn(t *testing.T, transcript string, backend session.Backend) string {
	t.Helper()
	sess, err := session.NewSession(session.Options{Cost: true})
	if err != nil {
		t.Fatal(err)
	}
	sess.SetBackend(backend)
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
			checkEntryNumbers(t, got)
			if got != want {
				t.Errorf("transcript differs (go test ./repl -run Transcripts -update rewrites it):\n%s", diffLines(want, got))
			}
		})
	}
}

// TestEntryNumbersAuto runs the numbering transcript under the auto
// backend, where an entry is parsed more than once (for the offload plan,
// then for the reference path): the numbers must not move. Its entries are
// small, so they run on the reference path and print what they print there.
func TestEntryNumbersAuto(t *testing.T) {
	data, err := os.ReadFile("testdata/numbering.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := string(data)
	got := runTranscriptOn(t, want, session.BackendAuto)
	checkEntryNumbers(t, got)
	if got != want {
		t.Errorf("under auto, the numbering transcript differs:\n%s", diffLines(want, got))
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

// A message's <repl:N>:L:C names entry N, the one typed at the prompt
// numbered N, and the source line an error quotes under it is line L of
// that entry as it was typed.
var (
	replPosRE   = regexp.MustCompile(`<repl:([0-9]+)>:([0-9]+):[0-9]+`)
	promptNumRE = regexp.MustCompile(`^fut(?:\[break\])? ([0-9]+)> (.*)$`)
)

func checkEntryNumbers(t *testing.T, transcript string) {
	t.Helper()
	entries := map[string][]string{}
	last, cont := "", ""
	lines := strings.Split(transcript, "\n")
	for i, l := range lines {
		if m := promptNumRE.FindStringSubmatch(l); m != nil {
			if strings.TrimSpace(m[2]) == "" || strings.HasPrefix(strings.TrimSpace(m[2]), "--") {
				continue // no entry: the next prompt has the same number
			}
			if _, dup := entries[m[1]]; dup {
				t.Errorf("line %d: a second entry numbered %s", i+1, m[1])
			}
			if last != "" && m[1] != strconv.Itoa(mustAtoi(last)+1) {
				t.Errorf("line %d: entry %s follows entry %s", i+1, m[1], last)
			}
			last, cont = m[1], contFor(l[:len(l)-len(m[2])])
			entries[last] = []string{strings.TrimPrefix(m[2], ":{")}
			if strings.HasPrefix(m[2], ":") {
				// a command: its argument is the entry's text
				_, arg, _ := strings.Cut(m[2], " ")
				arg = strings.TrimSpace(arg)
				for _, f := range []string{"2 ", "-p 4 ", "3 "} {
					arg = strings.TrimPrefix(arg, f)
				}
				entries[last] = []string{arg}
				if m[2] == ":{" {
					entries[last] = nil
				}
			}
			continue
		}
		if last != "" && strings.HasPrefix(l, cont) {
			if l[len(cont):] != ":}" {
				entries[last] = append(entries[last], l[len(cont):])
			}
			continue
		}
		for _, m := range replPosRE.FindAllStringSubmatch(l, -1) {
			src, ok := entries[m[1]]
			if !ok {
				t.Errorf("line %d names <repl:%s>, which no prompt showed:\n%s", i+1, m[1], l)
				continue
			}
			n := mustAtoi(m[2])
			if n > len(src) {
				t.Errorf("line %d names line %d of entry %s, which has %d:\n%s", i+1, n, m[1], len(src), l)
				continue
			}
			quoted := i+1 < len(lines) && strings.HasPrefix(l, "error: ") && strings.HasPrefix(lines[i+1], "  ")
			if quoted && strings.Index(l, m[0]) == len("error: ") && lines[i+1][2:] != src[n-1] && !strings.Contains(src[n-1], lines[i+1][2:]) {
				t.Errorf("line %d quotes %q as line %d of entry %s, which is %q", i+2, lines[i+1][2:], n, m[1], src[n-1])
			}
		}
	}
}

func mustAtoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(err)
	}
	return n
}
