package prelude

import (
	"os"
	"path/filepath"
	"testing"

	"fut/interp/testspec"
)

// The prelude's own test programs (testdata/*.fut, run by `fut test`)
// have well-formed test blocks, and every entry point has cases.
func TestTestdataSpecs(t *testing.T) {
	paths, err := filepath.Glob("testdata/*.fut")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no test programs in testdata: %v", err)
	}
	total := 0
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		spec, err := testspec.Parse(src, p)
		if err != nil {
			t.Error(err)
			continue
		}
		for _, b := range spec.Blocks {
			if len(b.Cases) == 0 {
				t.Errorf("%s:%d: a block without cases", p, b.Line)
			}
		}
		total += spec.Cases()
	}
	t.Logf("%d programs, %d cases", len(paths), total)
}
