package repl

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"fut/interp/session"
)

// After a :load (or declarations typed at the prompt) that fails, every
// command sees the definitions evaluation sees: the old ones. The same
// questions (the value, :type, :cost with its fused row, :ir fused and
// flattened) are asked after a good load, after each kind of failure, and
// after a good load of new definitions: the answers must be the first
// ones until the last, and differ there in every part.
func TestFailedLoadSameDefinitions(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	old := write("old.fut", "def c : i64 = 10\ndef f (n: i64) : i64 = reduce (+) 0 (iota n)\n")
	const newDefs = "def c : i64 = 20\ndef f (n: i64) : i64 = reduce (+) 0 (map (\\x -> x * x) (iota n))\n"
	write("lib.fut", newDefs+"def broken : i64 = [1, 2][c]\n")
	failures := [][]string{
		{":load " + write("evalfail.fut", newDefs+"def broken : i64 = [1, 2][c]\n")},
		{":load " + write("typefail.fut", newDefs+"def broken : bool = c\n")},
		{":load " + write("parsefail.fut", newDefs+"def (\n")},
		{":load " + write("importfail.fut", "open import \"lib\"\n")},
		{"def c : i64 = [1, 2][5]"},
		{":{", newDefs, "def broken : i64 = [1, 2][c]", ":}"},
		{"module M = { def c : i64 = 20 def broken : i64 = [1, 2][c] }", "open M"},
	}
	questions := []string{"f c", ":type f", ":cost f c", ":ir f c fused", ":ir f c flattened"}
	var in []string
	in = append(in, ":load "+old, "-- answers")
	in = append(in, questions...)
	for _, f := range failures {
		in = append(in, f...)
		in = append(in, "-- answers")
		in = append(in, questions...)
	}
	in = append(in, ":load "+write("new.fut", newDefs), "-- answers")
	in = append(in, questions...)

	sess, err := session.NewSession(session.Options{Cost: true})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	r, err := New(sess, Config{In: strings.NewReader(strings.Join(in, "\n") + "\n"), Out: &out, Echo: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.Run(context.Background())

	// The answers after each failure: the lines after "-- answers" up to
	// the next failure, without the prompts.
	prompt := regexp.MustCompile(`(?m)^fut [0-9]+> (:load|:\{|def|module|open).*\n(\.\.\..*\n)*`)
	blocks := strings.Split(out.String(), "-- answers\n")[1:]
	if len(blocks) != len(failures)+2 {
		t.Fatalf("%d blocks of answers, want %d:\n%s", len(blocks), len(failures)+2, out.String())
	}
	answers := func(b string) []string {
		if loc := prompt.FindStringIndex(b); loc != nil {
			b = b[:loc[0]] // the next failure starts here
		}
		return strings.Split(regexp.MustCompile(`(?m)^fut [0-9]+> `).ReplaceAllString(b, "> "), "\n")
	}
	want := answers(blocks[0])
	if strings.Contains(strings.Join(want, "\n"), "error") {
		t.Fatalf("the first answers hold an error:\n%s", strings.Join(want, "\n"))
	}
	for i, f := range failures {
		if got := answers(blocks[i+1]); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("after %q the answers changed:\n%s", f, diffLines(strings.Join(want, "\n"), strings.Join(got, "\n")))
		}
		if !strings.Contains(blocks[i], "error") && !strings.Contains(blocks[i+1], "error") {
			t.Errorf("%q did not fail", f)
		}
	}
	// The new definitions change every answer: the questions can tell.
	got := answers(blocks[len(blocks)-1])
	for _, q := range []string{"> f c", "> :cost f c", "> :ir f c fused", "> :ir f c flattened"} {
		if section(got, q) == section(want, q) {
			t.Errorf("the answer to %s did not change with the definitions:\n%s", q, section(got, q))
		}
	}
}

// section is the output after the question q, up to the next question.
func section(lines []string, q string) string {
	var b strings.Builder
	in := false
	for _, l := range lines {
		if strings.HasPrefix(l, "> ") {
			in = l == q
			continue
		}
		if in {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}
