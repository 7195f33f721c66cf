package main

import (
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The fused plan's figures belong to package ir and are tested there; the
// documentation's examples are compared without them.
var (
	docFusedRow   = regexp.MustCompile(`(?m)^( *)fused( +[-0-9.]+)+$`)
	docSweepFused = regexp.MustCompile(`(?m)│.*$`)
	docFusedJSON  = regexp.MustCompile(`"fused":\{[^}]*\}`)
)

func docNormalise(s string) string {
	s = docFusedRow.ReplaceAllString(s, "${1}fused …")
	s = docSweepFused.ReplaceAllString(s, "│ …")
	s = docFusedJSON.ReplaceAllString(s, `"fused":{…}`)
	return strings.TrimRight(s, "\n")
}

// shellWords splits a command line of the documentation: words separated
// by spaces, single quotes keep theirs.
func shellWords(line string) []string {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range line {
		switch {
		case r == '\'':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
			}
			inWord = false
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// TestDocExamples runs every `$ fut …` of docs/cost.md and compares its
// output with the document's; and checks every row of its table of
// worked examples against fut cost --json.
func TestDocExamples(t *testing.T) {
	data, err := os.ReadFile("../../docs/cost.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	blocks := regexp.MustCompile("(?s)```console\n(.*?)```").FindAllStringSubmatch(doc, -1)
	if len(blocks) < 5 {
		t.Fatalf("only %d console examples in docs/cost.md", len(blocks))
	}
	for _, b := range blocks {
		cmd, want, _ := strings.Cut(b[1], "\n")
		args := shellWords(strings.TrimPrefix(cmd, "$ fut "))
		for i, a := range args {
			if a == "-f" && i+1 < len(args) {
				args[i+1] = "../../" + args[i+1]
			}
		}
		got, code := futArgs(t, args...)
		if code != 0 {
			t.Errorf("%s: status %d\n%s", cmd, code, got)
			continue
		}
		if docNormalise(got) != docNormalise(want) {
			t.Errorf("%s: the output differs from docs/cost.md's\n--- doc\n%s\n--- fut\n%s", cmd, want, got)
		}
	}
	table := regexp.MustCompile("(?m)^\\| `([^`]+)` \\| (\\d+) \\| (\\d+) \\| (\\d+) \\| (\\d+) \\|$").FindAllStringSubmatch(doc, -1)
	if len(table) < 8 {
		t.Fatalf("only %d worked examples in docs/cost.md", len(table))
	}
	for _, row := range table {
		out, code := futArgs(t, "cost", "--json", row[1])
		var got struct {
			AsWritten map[string]float64 `json:"as_written"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &got) != nil {
			t.Errorf("%s: %d %s", row[1], code, out)
			continue
		}
		for i, k := range []string{"W", "D", "S1", "Sinf"} {
			if want, _ := strconv.ParseFloat(row[2+i], 64); got.AsWritten[k] != want {
				t.Errorf("%s: %s is %v, docs/cost.md says %v", row[1], k, got.AsWritten[k], want)
			}
		}
	}
}
