package deps

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// allowed lists, for each package of the module (without "fut/"), the
// packages of the module it may import; a package not listed may import
// none. Test files are not checked: tests may reach up to drive a
// package through the session.
var allowed = map[string][]string{
	// the bottom: values, the syntax tree, the embedded prelude
	"eval/value":      nil,
	"interp/syntax":   nil,
	"prelude":         nil,
	"docs":            nil,
	"interp":          nil,
	"interp/testspec": nil,
	// the front end and the reference evaluator
	"interp/types": {"interp/syntax"},
	"eval":         {"eval/value", "interp/syntax", "interp/types"},
	// the core IR knows neither the syntax tree nor the checker
	"interp/ir":    {"eval/value"},
	"interp/lower": {"eval/value", "interp/ir", "interp/syntax", "interp/types"},
	// the device: kernels know neither the checker nor the lowering
	"gpu/cl":      nil,
	"gpu/kernel":  {"eval/value"},
	"gpu/opencl":  {"eval/value", "gpu/kernel"},
	"gpu/runtime": {"eval/value", "gpu/cl", "gpu/kernel", "gpu/opencl"},
	"gpu/flatten": {"eval/value", "gpu/kernel", "gpu/opencl", "gpu/runtime", "interp/ir"},
	// the one entry point into the device: the packages above import
	// gpu and none of the packages under it (their tests may)
	"gpu": {"gpu/cl", "gpu/flatten", "gpu/kernel", "gpu/opencl", "gpu/runtime", "interp/ir"},
	// the session ties the stages together
	"interp/session": {"eval", "eval/value", "gpu", "interp/ir", "interp/lower", "interp/syntax", "interp/types",
		"prelude"},
	"interp/costs":   {"eval", "eval/value", "gpu", "interp/lower", "interp/session", "interp/syntax"},
	"interp/testrun": {"eval", "eval/value", "interp/costs", "interp/session", "interp/testspec"},
	// the top
	"repl": {"docs", "eval", "eval/value", "gpu", "interp/costs", "interp/ir", "interp/lower",
		"interp/session", "interp/syntax", "interp/types", "prelude"},
	"cmd/fut": {"docs", "eval/value", "gpu", "interp/costs", "interp/ir",
		"interp/lower", "interp/session", "interp/testrun", "interp/types", "repl"},
	"tools/deps":    nil,
	"tools/soak":    nil,
	"tools/procmem": nil,
}

func TestImports(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		seen[pkg] = true
		ok, listed := allowed[pkg]
		if !listed {
			t.Errorf("%s: package %s is not in the import rule (tools/deps); add it with the imports it may make", path, pkg)
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			dep, ours := strings.CutPrefix(p, "fut/")
			if !ours {
				continue
			}
			if !contains(ok, dep) {
				t.Errorf("%s: %s imports %s, which the rule does not allow (tools/deps)", fset.Position(im.Pos()), pkg, dep)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var stale []string
	for pkg := range allowed {
		if !seen[pkg] {
			stale = append(stale, pkg)
		}
	}
	sort.Strings(stale)
	for _, pkg := range stale {
		t.Errorf("the rule names %s, which has no Go files any more", pkg)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestOneDeviceEntry keeps the rule itself honest about the device: a
// package outside gpu/ may import gpu, the facade, and nothing under it.
func TestOneDeviceEntry(t *testing.T) {
	for pkg, deps := range allowed {
		if pkg == "gpu" || strings.HasPrefix(pkg, "gpu/") {
			continue
		}
		for _, dep := range deps {
			if strings.HasPrefix(dep, "gpu/") {
				t.Errorf("the rule lets %s import %s; outside gpu/, the device is reached through package gpu only", pkg, dep)
			}
		}
	}
}
