package ir_test

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fut/eval/value"
	"fut/interp/ir"
	"fut/interp/session"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// A case is testdata/cases/NAME.fut: declarations, a comment line
// "-- ir: EXPR" naming the expression to lower, and "-- expect: soacs=K",
// the number of SOAC statements (nested ones included) after fusion.
// NAME.golden holds every stage's text.
type irCase struct {
	name, file, expr string
	soacs            int
}

func loadCases(t *testing.T) []irCase {
	files, err := filepath.Glob("testdata/cases/*.fut")
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	var cs []irCase
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c := irCase{name: strings.TrimSuffix(filepath.Base(f), ".fut"), file: f, soacs: -1}
		for _, line := range strings.Split(string(src), "\n") {
			if e, ok := strings.CutPrefix(line, "-- ir: "); ok {
				c.expr = e
			}
			if e, ok := strings.CutPrefix(line, "-- expect: soacs="); ok {
				c.soacs, _ = strconv.Atoi(e)
			}
		}
		if c.expr == "" {
			t.Fatalf("%s: no -- ir: line", f)
		}
		cs = append(cs, c)
	}
	return cs
}

func newSession(t *testing.T, file string) *session.Session {
	t.Helper()
	s, err := session.NewSession(session.Options{Cost: true})
	if err != nil {
		t.Fatal(err)
	}
	if file != "" {
		if err := s.LoadFile(context.Background(), file); err != nil {
			t.Fatal(s.FormatError(err))
		}
	}
	return s
}

func TestCases(t *testing.T) {
	for _, c := range loadCases(t) {
		t.Run(c.name, func(t *testing.T) {
			s := newSession(t, c.file)
			ctx := context.Background()
			want, err := s.EvalExpr(ctx, c.expr)
			if err != nil {
				t.Fatalf("reference: %s", s.FormatError(err))
			}
			p, args, err := s.LowerIR(c.expr)
			if err != nil {
				t.Fatalf("lowering: %v", err)
			}
			final, stages, err := ir.Run(p, "")
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "testdata/cases/"+c.name+".golden", stagesText(stages))
			for i, st := range stages {
				// Every stage parses back to itself, runs, and gives the
				// reference evaluator's value.
				q, err := ir.Parse(st.Text)
				if err != nil {
					t.Fatalf("stage %s does not parse: %v\n%s", st.Name, err, st.Text)
				}
				if q.String() != st.Text {
					t.Errorf("stage %s does not print as it was parsed:\n%s", st.Name, q)
				}
				if err := ir.Verify(q); err != nil {
					t.Errorf("stage %s: %v", st.Name, err)
				}
				got, err := ir.Eval(ctx, q, args)
				if err != nil {
					t.Fatalf("stage %s: eval: %v", st.Name, err)
				}
				if !close(got, want.Value) {
					t.Errorf("stage %s gives %s, the reference %s", st.Name, value.String(got), value.String(want.Value))
				}
				// Text to text: the pass applied to the previous stage's
				// text gives this stage's text.
				if i > 0 {
					prev, _ := ir.Parse(stages[i-1].Text)
					next, err := ir.Passes[i-1].Run(prev)
					if err != nil {
						t.Fatal(err)
					}
					if next.String() != st.Text {
						t.Errorf("pass %s from text differs:\n%s", st.Name, next)
					}
				}
			}
			if c.soacs >= 0 {
				if n := countSOACs(final); n != c.soacs {
					t.Errorf("%d SOACs after fusion, want %d", n, c.soacs)
				}
			}
			fc, err := ir.FusedCost(ctx, final, args)
			if err != nil {
				t.Fatal(err)
			}
			rc := want.Cost
			if fc.Depth > fc.Work || fc.SpaceSeq > fc.SpacePar || fc.Work < 0 {
				t.Errorf("fused cost breaks the invariants: %+v", fc)
			}
			if fc.Work > rc.Work || fc.Depth > rc.Depth || fc.SpaceSeq > rc.SpaceSeq {
				t.Errorf("fused cost %+v exceeds the reference %v", fc, rc)
			}
			t.Logf("reference %v, fused %+v", rc, fc)
		})
	}
}

func stagesText(stages []ir.Stage) string {
	var b strings.Builder
	for _, st := range stages {
		fmt.Fprintf(&b, "== %s\n%s", st.Name, st.Text)
	}
	return b.String()
}

func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (run with -update to accept):\n%s", path, got)
	}
}

// countSOACs counts the SOAC statements of p, nested ones included.
func countSOACs(p *ir.Prog) int {
	n := 0
	var body func(b *ir.Body)
	body = func(b *ir.Body) {
		for _, st := range b.Stms {
			switch e := st.E.(type) {
			case *ir.ScremaE:
				n++
				body(e.Map.Body)
			case *ir.ScatterE:
				n++
				body(e.Map.Body)
			case *ir.HistE:
				n++
				body(e.Map.Body)
			case *ir.FilterE:
				n++
				body(e.Map.Body)
			case *ir.StreamE:
				n++
				body(e.Fold.Body)
			case *ir.IfE:
				body(e.Then)
				body(e.Else)
			case *ir.LoopE:
				body(e.Body)
			}
		}
	}
	body(p.Body)
	return n
}

// checkStages checks src through the offload pipeline: the reference
// value, the lowering, and every pass's program, which must print and
// parse back, verify, and evaluate to the reference's value. It returns
// the final program, its arguments and the reference's result, or ok
// false after reporting what failed.
func checkStages(ctx context.Context, t *testing.T, s *session.Session, src string) (final *ir.Prog, args []value.Value, want *session.Result, ok bool) {
	t.Helper()
	want, err := s.EvalExpr(ctx, src)
	if err != nil {
		t.Errorf("%s: reference: %s", src, s.FormatError(err))
		return nil, nil, nil, false
	}
	p, args, err := s.LowerIR(src)
	if err != nil {
		t.Errorf("%s: %v", src, err)
		return nil, nil, nil, false
	}
	final, stages, err := ir.Run(p, "")
	if err != nil {
		t.Errorf("%s: %v", src, err)
		return nil, nil, nil, false
	}
	w := value.Tuple(flatRecords(want.Value))
	for _, st := range stages {
		q, err := ir.Parse(st.Text)
		if err != nil {
			t.Errorf("%s: %s does not parse: %v", src, st.Name, err)
			return nil, nil, nil, false
		}
		if err := ir.Verify(q); err != nil {
			t.Errorf("%s: %s: %v", src, st.Name, err)
			return nil, nil, nil, false
		}
		got, err := ir.EvalAll(ctx, q, args)
		if err != nil {
			t.Errorf("%s: %s: %v", src, st.Name, err)
			return nil, nil, nil, false
		}
		if !close(value.Tuple(got), w) {
			t.Errorf("%s: %s gives %s, the reference %s", src, st.Name, value.String(value.Tuple(got)), value.String(want.Value))
			return nil, nil, nil, false
		}
	}
	return final, args, want, true
}

// close compares values, floats within a relative 1e-5 (reductions may
// associate differently).
func close(a, b value.Value) bool {
	switch a := a.(type) {
	case value.Prim:
		bp, ok := b.(value.Prim)
		if !ok || a.T != bp.T {
			return false
		}
		if a.T.IsFloat() {
			x, y := a.Float(), bp.Float()
			return x == y || math.Abs(x-y) <= 1e-5*math.Max(math.Abs(x), math.Abs(y)) || math.IsNaN(x) && math.IsNaN(y)
		}
		return a == bp
	case value.Tuple:
		var bs []value.Value
		switch b := b.(type) {
		case value.Tuple:
			bs = b
		case *value.Record:
			bs = b.Fields
		default:
			return false
		}
		if len(a) != len(bs) {
			return false
		}
		for i := range a {
			if !close(a[i], bs[i]) {
				return false
			}
		}
		return true
	case *value.Array:
		ba, ok := b.(*value.Array)
		if !ok || value.ShapeString(a.FullShape()) != value.ShapeString(ba.FullShape()) {
			return false
		}
		ae, be := a.Elems(), ba.Elems()
		if len(ae) != len(be) {
			return false
		}
		for i := range ae {
			if !close(ae[i], be[i]) {
				return false
			}
		}
		return true
	}
	return false
}
