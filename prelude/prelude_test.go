package prelude

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var (
	intrinsicUse = regexp.MustCompile(`intrinsics\.([a-z_0-9]+)`)
	valSpec      = regexp.MustCompile(`(?m)^val ([a-z_0-9]+)`)
	// A definition or specification at the top level or one level into a module.
	binding = regexp.MustCompile(`^(?:  )?(?:def|val|module|module type|type) `)
	// A top-level definition's name, operator or identifier.
	topDef = regexp.MustCompile(`(?m)^(?:def|let) (\([^)]+\)|[a-zA-Z_][a-zA-Z_0-9']*)`)
	topMod = regexp.MustCompile(`(?m)^module ([a-z_0-9]+)`)
)

func TestFilesExist(t *testing.T) {
	for _, name := range append([]string{IntrinsicsFile}, Files...) {
		if len(Source(name)) == 0 {
			t.Errorf("%s: missing or empty", name)
		}
	}
	if Source("no-such-file.fut") != nil {
		t.Errorf("Source of a missing file is not nil")
	}
	if string(Intrinsics()) != string(Source(IntrinsicsFile)) {
		t.Errorf("Intrinsics() differs from Source(IntrinsicsFile)")
	}
}

// Every intrinsic the prelude calls is declared, and every declared one is used.
func TestIntrinsicsDeclaredAndUsed(t *testing.T) {
	declared := map[string]bool{}
	for _, m := range valSpec.FindAllStringSubmatch(string(Intrinsics()), -1) {
		if declared[m[1]] {
			t.Errorf("intrinsic %s declared twice", m[1])
		}
		declared[m[1]] = true
	}
	used := map[string]bool{}
	for _, name := range Files {
		for _, m := range intrinsicUse.FindAllStringSubmatch(string(Source(name)), -1) {
			used[m[1]] = true
			if !declared[m[1]] {
				t.Errorf("%s: intrinsics.%s is not declared in %s", name, m[1], IntrinsicsFile)
			}
		}
	}
	for name := range declared {
		if !used[name] {
			t.Errorf("intrinsic %s is declared but no prelude file uses it", name)
		}
	}
}

// Every definition and specification has a `-- |` doc comment, and every
// function definition and intrinsic states its cost.
func TestDocComments(t *testing.T) {
	for _, name := range append([]string{IntrinsicsFile}, Files...) {
		lines := strings.Split(string(Source(name)), "\n")
		for i, line := range lines {
			if !binding.MatchString(line) || strings.HasPrefix(strings.TrimSpace(line), "type t") {
				continue
			}
			j := i - 1
			for j >= 0 && strings.HasPrefix(strings.TrimSpace(lines[j]), "--") && !strings.HasPrefix(strings.TrimSpace(lines[j]), "-- |") {
				j--
			}
			if j < 0 || !strings.HasPrefix(strings.TrimSpace(lines[j]), "-- |") {
				t.Errorf("%s:%d: %q has no -- | doc comment", name, i+1, strings.TrimSpace(line))
				continue
			}
			doc := strings.Join(lines[j:i], " ")
			isFunc := strings.Contains(line, "->") || (strings.Contains(line, "def ") && strings.Contains(line, "("))
			if isFunc && !strings.Contains(doc, "Work") && !strings.Contains(doc, "Cost") && !strings.Contains(doc, "cost") {
				t.Errorf("%s:%d: the doc comment of %q gives no cost", name, i+1, strings.TrimSpace(line))
			}
		}
	}
}

// The prelude defines at the top level every function and module that
// Futhark's own prelude does (read from a checkout, when there is one).
func TestCoversFutharkPrelude(t *testing.T) {
	dir := "/tmp/futhark/prelude"
	paths, _ := filepath.Glob(filepath.Join(dir, "*.fut"))
	if len(paths) == 0 {
		t.Skip("no Futhark checkout at " + dir)
	}
	ours := map[string]bool{}
	for _, name := range Files {
		src := string(Source(name))
		for _, m := range topDef.FindAllStringSubmatch(src, -1) {
			ours[m[1]] = true
		}
		for _, m := range topMod.FindAllStringSubmatch(src, -1) {
			ours[m[1]] = true
		}
	}
	// Left out on purpose: a helper that Futhark's prelude keeps local.
	notCovered := map[string]bool{"internal_map": true}
	var missing []string
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, re := range []*regexp.Regexp{topDef, topMod} {
			for _, m := range re.FindAllStringSubmatch(string(src), -1) {
				if !ours[m[1]] && !notCovered[m[1]] {
					missing = append(missing, filepath.Base(p)+": "+m[1])
				}
			}
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("not defined by fut's prelude: %s", m)
	}
}

// ints.fut, uints.fut and floats.fut are what gen_math.go makes of its tables.
func TestGeneratedFilesUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir := t.TempDir()
	out, err := exec.Command("go", "run", "gen_math.go", "-dir", dir).CombinedOutput()
	if err != nil {
		t.Skipf("cannot run gen_math.go: %v\n%s", err, out)
	}
	for _, name := range []string{"ints.fut", "uints.fut", "floats.fut"} {
		want, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if string(Source(name)) != string(want) {
			t.Errorf("%s differs from what gen_math.go generates: run go generate ./prelude", name)
		}
	}
}
