package types

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fut/interp/syntax"
	"fut/prelude"
)

// newPreludeChecker returns a checker with the intrinsics and the whole
// prelude loaded; it fails the test if the prelude does not check.
func newPreludeChecker(t testing.TB, imp Importer) (*Checker, *syntax.FileSet) {
	t.Helper()
	fset := syntax.NewFileSet()
	c := NewChecker(fset, imp)
	specs, err := syntax.ParseSpecs(fset, prelude.IntrinsicsFile, prelude.Intrinsics())
	if err != nil {
		t.Fatalf("parsing intrinsics: %s", fset.FormatAll(err))
	}
	if err := c.LoadIntrinsics(specs); err != nil {
		t.Fatalf("intrinsics: %s", fset.FormatAll(err))
	}
	for _, name := range prelude.Files {
		p, err := syntax.ParseFile(fset, "/prelude/"+name, prelude.Source(name))
		if err != nil {
			t.Fatalf("parsing prelude: %s", fset.FormatAll(err))
		}
		p.File.Library = true // as the session marks it
		if err := c.CheckProgram(p); err != nil {
			t.Fatalf("prelude: %s", fset.FormatAll(err))
		}
	}
	return c, fset
}

// fileImporter resolves imports relative to the importing file.
func fileImporter(fset *syntax.FileSet) Importer {
	cache := map[string]*syntax.Program{}
	return func(from, path string) (*syntax.Program, error) {
		var full string
		if strings.HasPrefix(path, "/") {
			full = path + ".fut"
		} else {
			full = filepath.Join(filepath.Dir(from), path+".fut")
		}
		full = filepath.Clean(full)
		if p, ok := cache[full]; ok {
			return p, nil
		}
		src, err := os.ReadFile(full)
		if err != nil {
			return nil, err
		}
		p, err := syntax.ParseFile(fset, full, src)
		if err != nil {
			return nil, err
		}
		cache[full] = p
		return p, nil
	}
}
