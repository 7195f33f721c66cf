package repl

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"fut/interp/session"
)

func TestComplete(t *testing.T) {
	sess, err := session.NewSession(session.Options{Cost: true})
	if err != nil {
		t.Fatal(err)
	}
	input := "def my_function (x: i32) = x\nmodule my_mod = { def inner = 1 def (+++) (a: i32) (b: i32) = a }\n"
	var out bytes.Buffer
	r, err := New(sess, Config{In: strings.NewReader(input), Out: &out})
	if err != nil {
		t.Fatal(err)
	}
	r.Run(context.Background())
	if out.Len() != 0 {
		t.Fatalf("declarations printed %q", out.String())
	}
	for _, tc := range []struct {
		before, word string
		want         []string // each must be offered
		not          []string // none of these may be
	}{
		{":lo", ":lo", []string{":load "}, nil},
		{":", ":", []string{":help ", ":type ", ":quit "}, []string{":continue "}},
		{"f64.sq", "f64.sq", []string{"f64.sqrt"}, []string{"f64.sin"}},
		{"map (\\x -> f32.", "f32.", []string{"f32.sqrt", "f32.pi"}, []string{"f32.+"}},
		{"1 + my_", "my_", []string{"my_function", "my_mod."}, nil},
		{"my_mod.", "my_mod.", []string{"my_mod.inner"}, []string{"my_mod.+++"}},
		{"redu", "redu", []string{"reduce", "reduce_by_index"}, nil},
		{":load testdata/pr", "testdata/pr", []string{"testdata/prog.fut"}, nil},
		{":load testd", "testd", []string{"testdata/"}, nil},
		{":cd test", "test", []string{"testdata/"}, nil},
		{":cd testdata/", "testdata/", nil, []string{"testdata/prog.fut"}},
		{":set el", "el", []string{"elide "}, nil},
		{":help ty", "ty", []string{"type"}, nil},
		{":type i32.ma", "i32.ma", []string{"i32.max"}, nil},
		{"1.5", "", nil, nil},
	} {
		word, cands := r.complete(tc.before)
		if word != tc.word {
			t.Errorf("complete(%q): word %q, want %q", tc.before, word, tc.word)
		}
		for _, w := range tc.want {
			if !slices.Contains(cands, w) {
				t.Errorf("complete(%q) = %q: lacks %q", tc.before, cands, w)
			}
		}
		for _, n := range tc.not {
			if slices.Contains(cands, n) {
				t.Errorf("complete(%q) = %q: should not offer %q", tc.before, cands, n)
			}
		}
	}
	// The readline adapter returns what is left to type.
	got, n := (&completer{r: r}).Do([]rune("f64.sqr"), 7)
	if n != 7 || len(got) != 1 || string(got[0]) != "t" {
		t.Errorf("Do(f64.sqr) = %q, %d; want [t], 7", got, n)
	}
}
