package eval

import (
	"context"
	"testing"

	"fut/eval/value"
	"fut/interp/syntax"
	"fut/interp/types"
	"fut/prelude"
)

// session is a test interpreter with the real prelude loaded, and the
// type checker when it accepts the prelude.
type session struct {
	t     testing.TB
	fset  *syntax.FileSet
	in    *Interp
	check *types.Checker
	n     int
}

func newSession(t testing.TB, cost bool) *session {
	t.Helper()
	fset := syntax.NewFileSet()
	specs, err := syntax.ParseSpecs(fset, "intrinsics.fut", prelude.Intrinsics())
	if err != nil {
		t.Fatalf("parsing intrinsics: %v", err)
	}
	in := New(fset, nil, Options{Cost: cost})
	if err := in.LoadIntrinsics(specs); err != nil {
		t.Logf("LoadIntrinsics: %v", err)
	}
	s := &session{t: t, fset: fset, in: in}
	chk := types.NewChecker(fset, nil)
	checkOK := true
	if err := chk.LoadIntrinsics(specs); err != nil {
		t.Logf("checker LoadIntrinsics: %v", err)
		checkOK = false
	}
	if checkOK {
		in.SetTypeInfo(chk.Info())
	}
	for _, name := range prelude.Files {
		prog, err := syntax.ParseFile(fset, name, prelude.Source(name))
		if err != nil {
			t.Fatalf("parsing prelude %s: %v", name, fset.FormatAll(err))
		}
		if checkOK {
			if err := chk.CheckProgram(prog); err != nil {
				t.Logf("checker rejects prelude %s: %v", name, fset.FormatAll(err))
				checkOK = false
				in.SetTypeInfo(nil)
			}
		}
		if err := in.EvalProgram(context.Background(), prog); err != nil {
			t.Fatalf("evaluating prelude %s: %v", name, err)
		}
	}
	in.MarkPrelude()
	if checkOK {
		s.check = chk
		in.SetTypeInfo(chk.Info())
	}
	return s
}

// run evaluates a REPL-like entry: declarations or one expression.
func (s *session) run(src string) (value.Value, Cost, error) {
	s.t.Helper()
	s.n++
	decls, expr, err := syntax.ParseEntry(s.fset, "<test>", []byte(src))
	if err != nil {
		s.t.Fatalf("parse %q: %v", src, s.fset.FormatAll(err))
	}
	ctx := context.Background()
	if decls != nil {
		if s.check != nil {
			if err := s.check.CheckDecls(decls); err != nil {
				s.t.Logf("type check %q: %v", src, s.fset.FormatAll(err))
			}
		}
		return nil, Cost{}, s.in.EvalDecls(ctx, decls)
	}
	if s.check != nil {
		if _, err := s.check.CheckExpr(expr); err != nil {
			s.t.Logf("type check %q: %v", src, s.fset.FormatAll(err))
		}
	}
	return s.in.EvalExpr(ctx, expr)
}

// val evaluates src and prints its value.
func (s *session) val(src string) string {
	s.t.Helper()
	v, _, err := s.run(src)
	if err != nil {
		if re, ok := err.(*RuntimeError); ok {
			s.t.Fatalf("%s: %s", src, re.Format(s.fset))
		}
		s.t.Fatalf("%s: %v", src, err)
	}
	return value.String(v)
}

// Value and valueString are shorthands for tests.
type Value = value.Value

func valueString(v value.Value) string { return value.String(v) }
