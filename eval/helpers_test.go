package eval

import (
	"context"
	"os"
	"path/filepath"
	"strings"
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
	// illTyped: entries the checker rejects are evaluated all the same
	// (a test of what the evaluator does without the checker); otherwise
	// such an entry fails the test, lest it quietly test something else
	illTyped bool
}

func newSession(t testing.TB, cost bool) *session {
	return newSessionImporting(t, cost, "")
}

// newSessionImporting is newSession where import "p" reads dir/p.fut
// (relative to the importing file's directory); each file is parsed once,
// so that the checker and the evaluator see the same nodes.
func newSessionImporting(t testing.TB, cost bool, dir string) *session {
	t.Helper()
	fset := syntax.NewFileSet()
	parsed := map[string]*syntax.Program{}
	load := func(fromFile, path string) (*syntax.Program, error) {
		base := dir
		if fromFile != "" && !strings.HasPrefix(fromFile, "<") && strings.Contains(fromFile, "/") {
			base = filepath.Dir(fromFile)
		}
		full := filepath.Clean(filepath.Join(base, path) + ".fut")
		if p, ok := parsed[full]; ok {
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
		parsed[full] = p
		return p, nil
	}
	specs, err := syntax.ParseSpecs(fset, "intrinsics.fut", prelude.Intrinsics())
	if err != nil {
		t.Fatalf("parsing intrinsics: %v", err)
	}
	opts := Options{Cost: cost}
	if dir != "" {
		opts.Import = func(pos syntax.Pos, path string) (*syntax.Program, error) {
			from := ""
			if f := fset.File(pos); f != nil {
				from = f.Name
			}
			return load(from, path)
		}
	}
	in := New(fset, nil, opts)
	if err := in.LoadIntrinsics(specs); err != nil {
		t.Logf("LoadIntrinsics: %v", err)
	}
	s := &session{t: t, fset: fset, in: in}
	var imp types.Importer
	if dir != "" {
		imp = load
	}
	chk := types.NewChecker(fset, imp)
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
				s.typeError(src, err)
			}
		}
		return nil, Cost{}, s.in.EvalDecls(ctx, decls)
	}
	if s.check != nil {
		if _, err := s.check.CheckExpr(expr); err != nil {
			s.typeError(src, err)
		}
	}
	return s.in.EvalExpr(ctx, expr)
}

// agree checks that sessions a and b (named an and bn in messages) give
// the same value and cost for each of srcs, and the same error for each
// of bad.
func agree(t *testing.T, an string, a *session, bn string, b *session, srcs, bad []string) {
	t.Helper()
	for _, src := range srcs {
		v1, c1, err1 := a.run(src)
		v2, c2, err2 := b.run(src)
		if err1 != nil || err2 != nil {
			t.Errorf("%s: errors %v / %v", src, err1, err2)
			continue
		}
		if value.String(v1) != value.String(v2) {
			t.Errorf("%s: %s %s, %s %s", src, an, short(value.String(v1)), bn, short(value.String(v2)))
		}
		if c1 != c2 {
			t.Errorf("%s (cost %v): %s cost %v, %s cost %v", src, a.in.Options().Cost, an, c1, bn, c2)
		}
	}
	for _, src := range bad {
		_, _, err1 := a.run(src)
		_, _, err2 := b.run(src)
		if err1 == nil || err2 == nil || err1.Error() != err2.Error() {
			t.Errorf("%s: %s error %v, %s error %v", src, an, err1, bn, err2)
		}
	}
}

// typeError reports that the checker rejects src.
func (s *session) typeError(src string, err error) {
	s.t.Helper()
	if s.illTyped {
		s.t.Logf("type check %q: %v", src, s.fset.FormatAll(err))
		return
	}
	s.t.Errorf("type check %q: %v", src, s.fset.FormatAll(err))
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
