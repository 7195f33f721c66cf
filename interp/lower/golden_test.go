package lower_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fut/interp/lower"
	"fut/interp/session"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestGolden prints the program after each source stage for the
// expression named by the "-- ir: EXPR" line of each testdata program,
// and compares with NAME.golden (go test -update rewrites them). Whether
// the stages compute the right values is interp/session's TestStagesReadBack's
// and the paths' business; this test shows what they do.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.fut")
	if err != nil || len(files) == 0 {
		t.Fatalf("no programs: %v", err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var expr string
		for _, line := range strings.Split(string(src), "\n") {
			if e, ok := strings.CutPrefix(line, "-- ir: "); ok {
				expr = e
			}
		}
		if expr == "" {
			t.Fatalf("%s: no -- ir: line", f)
		}
		s, err := session.NewSession(session.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.LoadFile(context.Background(), f); err != nil {
			t.Fatal(s.FormatError(err))
		}
		stages, err := s.IR(expr)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var b strings.Builder
		for _, st := range stages {
			for _, ls := range lower.Stages {
				if st.Name == ls.Name {
					b.WriteString("== " + st.Name + "\n" + st.Text)
				}
			}
		}
		golden := strings.TrimSuffix(f, ".fut") + ".golden"
		if *update {
			if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (go test -update writes it)", err)
		}
		if string(want) != b.String() {
			t.Errorf("%s differs (go test ./interp/lower -update rewrites it):\n%s", golden, b.String())
		}
	}
}
