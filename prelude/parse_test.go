package prelude

import (
	"testing"

	"fut/interp/syntax"
)

// The prelude and the intrinsics' signature parse with fut's own parser.
func TestParses(t *testing.T) {
	fset := syntax.NewFileSet()
	specs, err := syntax.ParseSpecs(fset, IntrinsicsFile, Intrinsics())
	if err != nil {
		t.Errorf("%s", fset.FormatAll(err))
	}
	for _, s := range specs {
		if v, ok := s.(*syntax.ValSpec); ok && v.Doc == "" {
			t.Errorf("%s: intrinsic without a doc comment", fset.Position(v.Pos()))
		}
	}
	if len(specs) == 0 {
		t.Errorf("%s: no specifications", IntrinsicsFile)
	}
	for _, name := range Files {
		if _, err := syntax.ParseFile(fset, name, Source(name)); err != nil {
			t.Errorf("%s", fset.FormatAll(err))
		}
	}
}
