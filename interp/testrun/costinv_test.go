package testrun

import (
	"bufio"
	"context"
	"os"
	"sort"
	"strings"
	"testing"
	"time"
)

// knownBroken lists the cases whose fused plan still breaks an invariant
// of the cost model, one "file entry case" per line with the reason after
// " # ". Each is a defect to mend; the list may only shrink.
const knownBroken = "testdata/cost_invariants_known.txt"

// TestCostInvariants checks the cost model's invariants (D ≤ W, S1 ≤ S∞,
// fused W and D no greater than written) on every case of the examples
// and the repository's test programs, as fut test --cost-invariants
// does: a case that breaks one and is not in knownBroken fails, and so
// does a case of the list that no longer breaks one (strike it).
func TestCostInvariants(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every repository program with costs")
	}
	files, err := Collect([]string{"../../examples", "../../prelude/testdata", "../../interp/session/testdata/shadow", "../../interp/session/testdata/stages", "../../interp/session/testdata/cost"})
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	f, err := os.Open(knownBroken)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), " # ")
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "--") {
			known[line] = true
		}
	}
	f.Close()
	broken := map[string]string{}
	checked := 0
	for _, file := range files {
		r := RunFile(context.Background(), file, Options{CostInvariants: true, Timeout: 120 * time.Second})
		for _, c := range r.Cases {
			key := strings.TrimPrefix(file, "../../") + " " + c.Entry + " " + c.Name
			switch {
			case c.Status == Failed && strings.HasPrefix(c.Msg, "cost invariants: "):
				broken[key] = c.Msg
			case c.Status == Failed:
				t.Errorf("%s: %s", key, c.Msg)
			case c.Cost != nil || c.FusedCost != nil:
				checked++
			}
		}
	}
	var keys []string
	for k := range broken {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !known[k] {
			t.Errorf("%s: %s (not among the known cases of %s)", k, broken[k], knownBroken)
		}
	}
	for k := range known {
		if _, ok := broken[k]; !ok {
			t.Errorf("%s: listed in %s but its invariants hold now: strike it", k, knownBroken)
		}
	}
	t.Logf("invariants hold in %d cases; %d known cases break one", checked, len(broken))
}
