package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"fut/eval/value"
)

// The differential tests (TestCompiledAgrees, TestFlatAgrees,
// TestBreakLocalsAgree) compare compiled code with what the tree walker,
// the evaluator that defined the semantics node by node until it was
// retired, gave on the same entries, recorded in testdata/walker/TEST.json:
// for each expression its value, its four cost figures (with costs on and
// off, as the test runs it) and its error with its position. go test
// -run 'Agrees' -update writes the files again from compiled code, for a
// new entry or a deliberate change of a figure: read the diff.
var update = flag.Bool("update", false, "write testdata/walker/*.json from compiled code")

// outcome is what one entry gave.
type outcome struct {
	Src   string `json:"src"`
	Value string `json:"value,omitempty"`
	Cost  string `json:"cost,omitempty"`
	Err   string `json:"err,omitempty"`
	Pos   string `json:"pos,omitempty"` // the error's file:line:col
}

// golden is one test's recorded outcomes, by key (a part of the test and
// its cost setting), in the order they were run.
type golden struct {
	t    *testing.T
	path string
	want map[string][]outcome
	got  map[string][]outcome
}

// loadGolden reads t's file; with -update it collects the outcomes and
// writes the file when t ends.
func loadGolden(t *testing.T) *golden {
	t.Helper()
	g := &golden{t: t, path: filepath.Join("testdata", "walker", t.Name()+".json"), got: map[string][]outcome{}}
	if *update {
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("not writing %s: the test failed", g.path)
				return
			}
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "\t")
			if err := enc.Encode(g.got); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Dir(g.path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(g.path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		})
		return g
	}
	b, err := os.ReadFile(g.path)
	if err != nil {
		t.Fatalf("%v (go test -run %s -update writes it)", err, t.Name())
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&g.want); err != nil {
		t.Fatalf("%s: %v", g.path, err)
	}
	return g
}

// session returns a session for the test.
func (g *golden) session(cost bool) *session {
	return newSession(g.t, cost)
}

// outcomeOf runs src in s.
func outcomeOf(s *session, src string) outcome {
	o := outcome{Src: src}
	v, c, err := s.run(src)
	if err != nil {
		o.Err = err.Error()
		var re *RuntimeError
		if errors.As(err, &re) && re.Pos.IsValid() {
			o.Pos = s.fset.Position(re.Pos).String()
		}
		return o
	}
	o.Value = value.String(v)
	o.Cost = c.String()
	return o
}

// check runs srcs (which must succeed) and bad (which must fail) in s,
// in this order, and compares each outcome with the one recorded under
// key; while updating, it records them.
func (g *golden) check(key string, s *session, srcs, bad []string) {
	g.t.Helper()
	var got []outcome
	for _, src := range srcs {
		o := outcomeOf(s, src)
		if o.Err != "" {
			g.t.Errorf("%s: %s: error %s at %s", key, src, o.Err, o.Pos)
		}
		got = append(got, o)
	}
	for _, src := range bad {
		o := outcomeOf(s, src)
		if o.Err == "" {
			g.t.Errorf("%s: %s: no error (value %s)", key, src, short(o.Value))
		}
		got = append(got, o)
	}
	g.compare(key, got)
}

// compare compares got with the outcomes recorded under key, or records
// them while updating.
func (g *golden) compare(key string, got []outcome) {
	g.t.Helper()
	if *update {
		if _, dup := g.got[key]; dup {
			g.t.Fatalf("key %s recorded twice", key)
		}
		g.got[key] = got
		return
	}
	want, ok := g.want[key]
	if !ok {
		g.t.Errorf("%s: nothing recorded under %s (go test -run %s -update)", g.path, key, g.t.Name())
		return
	}
	if len(want) != len(got) {
		g.t.Errorf("%s: %d entries recorded, %d run (go test -run %s -update)", key, len(want), len(got), g.t.Name())
		return
	}
	for i, w := range want {
		o := got[i]
		if w.Src != o.Src {
			g.t.Errorf("%s: entry %d is %q, recorded %q (go test -run %s -update)", key, i, o.Src, w.Src, g.t.Name())
			continue
		}
		if w != o {
			g.t.Errorf("%s: %s:\n  got      %s\n  recorded %s", key, o.Src, o, w)
		}
	}
}

func (o outcome) String() string {
	if o.Err != "" {
		return fmt.Sprintf("error at %s: %s", o.Pos, o.Err)
	}
	return fmt.Sprintf("%s (%s)", short(o.Value), o.Cost)
}
