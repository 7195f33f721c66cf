package syntax

import (
	"testing"
)

// FuzzParse checks that no input makes the parser panic, that every
// error has a position inside the file, and that whatever parses prints
// to text that parses again and prints the same.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"def f x = x + 1",
		"def main (xs: []i32) = map (\\x -> x * 2) xs |> reduce (+) 0",
		"let x = 1 in x",
		"module M = { type t = i32 }",
		"def f = xs[1:2] with [0] = 1",
		"def g = match x case #a 1 -> 'c' case _ -> \"s\"",
		// Regressions: a range's numbers keep their suffixes, a bad suffix
		// is an error, and a long chain of names lexes in linear time.
		"def c = 1...10i32",
		"def x = 1i33 + 0rXIV",
		"def y = a.b.c.d.e.f.g.h + x.0.1 + M.N.+ 1",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		fset := NewFileSet()
		prog, err := ParseFile(fset, "fuzz.fut", src)
		if err != nil {
			l, ok := err.(ErrorList)
			if !ok || len(l) == 0 {
				t.Fatalf("error is not a non-empty ErrorList: %v", err)
			}
			for _, e := range l {
				file := fset.File(e.Span.Start)
				if file == nil || e.Span.End < e.Span.Start || fset.File(e.Span.End) != file {
					t.Fatalf("error %q has a bad span %v", e.Msg, e.Span)
				}
			}
			return
		}
		if msg := checkSpans(prog); msg != "" {
			t.Fatal(msg)
		}
		if msg := checkStable(prog); msg != "" {
			t.Fatal(msg)
		}
		// Expressions and entries must not panic either.
		ParseExpr(NewFileSet(), "e", src)
		ParseEntry(NewFileSet(), "e", src)
	})
}
