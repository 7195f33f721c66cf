package costs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseClaims(t *testing.T) {
	src := `-- | A program.
--
-- cost of f xs
--   where xs = iota n, ys = map (+1) (iota (n, 2).0)
--   fused: S1 1
--   for m = 2^4 .. 2^6
--   as written: W m log m, D log^2 m, S∞ n²
-- ==
def f = 1
-- cost of g n
--   for n = 4, 8, 16
--   as written: Sinf Θ(n)
`
	cs, err := ParseClaims([]byte(src))
	if err != nil || len(cs) != 2 {
		t.Fatalf("ParseClaims: %v, %v", cs, err)
	}
	c := cs[0]
	if c.Line != 3 || c.Expr != "f xs" || len(c.Given) != 2 || c.Given[1].Expr != "map (+1) (iota (n, 2).0)" ||
		c.Range.Var != "m" || len(c.Range.Sizes) != 3 {
		t.Errorf("first claim: %+v", c)
	}
	if c.Want[0][0] != "n log n" || c.Want[0][1] != "log^2 n" || c.Want[0][3] != "n^2" || c.Want[1][2] != "1" {
		t.Errorf("first claim's classes: %v", c.Want)
	}
	if cs[1].Want[0][3] != "n" || cs[1].Range.Sizes[2] != 16 {
		t.Errorf("second claim: %+v", cs[1])
	}
	for _, bad := range []string{
		"-- cost of f n\n--   as written: W n\n",                     // no sweep
		"-- cost of f n\n--   for n = 1..8\n",                        // no claim
		"-- cost of f n\n--   for n = 1..8\n--   as written: X n\n",  // no such figure
		"-- cost of f n\n--   for n = 1..8\n--   as written: W n!\n", // no such class
		"-- cost of f n\n--   for n = 8..1\n--   as written: W n\n",
	} {
		if _, err := ParseClaims([]byte(bad)); err == nil {
			t.Errorf("ParseClaims accepted %q", bad)
		}
	}
}

// TestCheckFile: a claim that holds passes, one that does not fails and
// says what the figures are.
func TestCheckFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "p.fut")
	src := `-- cost of sum xs
--   where xs = iota n
--   for n = 2^6..2^10
--   as written: W n, D log n, S1 1
--   fused: W n
-- cost of loop s = 0 for i < n do s + i
--   for n = 2^6..2^10
--   as written: W n, D log n
def sum [n] (xs: [n]i64) : i64 = reduce (+) 0 xs
`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := CheckFile(context.Background(), file, CheckOptions{})
	if err != nil || len(res) != 2 {
		t.Fatalf("CheckFile: %v %v", res, err)
	}
	if !res[0].Passed {
		t.Errorf("a true claim failed: %s", res[0].Msg)
	}
	if res[1].Passed || !strings.Contains(res[1].Msg, "as written D is n, not log n as claimed") {
		t.Errorf("a false claim: passed %v, %q", res[1].Passed, res[1].Msg)
	}
}
