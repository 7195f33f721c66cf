package syntax

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden parses each testdata/*.fut, checks spans and that printing is
// stable, and compares the printed program with testdata/*.golden.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.fut")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		fset := NewFileSet()
		prog, err := ParseFile(fset, path, src)
		if err != nil {
			t.Errorf("%s", fset.FormatAll(err))
			continue
		}
		if msg := checkSpans(prog); msg != "" {
			t.Errorf("%s: %s", path, msg)
		}
		if msg := checkStable(prog); msg != "" {
			t.Errorf("%s: %s", path, msg)
		}
		// The printed program means the same as the source.
		fset2 := NewFileSet()
		prog2, err := ParseFile(fset2, path, []byte(Print(prog)))
		if err == nil && dump(prog2.Decls) != dump(prog.Decls) {
			t.Errorf("%s: printed program parses to a different tree", path)
		}
		got := Print(prog)
		golden := strings.TrimSuffix(path, ".fut") + ".golden"
		if *update {
			os.WriteFile(golden, []byte(got), 0o644)
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Errorf("%s (run go test -update)", err)
			continue
		}
		if got != string(want) {
			t.Errorf("%s: printed text differs from %s:\n%s", path, golden, firstDiff(got, string(want)))
		}
	}
}

// TestPrintSynthesised checks that trees built by hand get the
// parentheses they need.
func TestPrintSynthesised(t *testing.T) {
	v := func(s string) Expr { return &Var{Name: QualName{Name: s}} }
	ifE := &If{Cond: v("c"), Then: v("a"), Else: v("b")}
	for _, c := range []struct {
		e    Expr
		want string
	}{
		{&Binary{Op: QualName{Name: "*"}, L: &Binary{Op: QualName{Name: "+"}, L: v("a"), R: v("b")}, R: v("c")}, "(a + b) * c"},
		{&Binary{Op: QualName{Name: "-"}, L: v("a"), R: &Binary{Op: QualName{Name: "-"}, L: v("b"), R: v("c")}}, "a - (b - c)"},
		{&Binary{Op: QualName{Name: "+"}, L: ifE, R: v("d")}, "(if c then a else b) + d"},
		{&Binary{Op: QualName{Name: "+"}, L: v("d"), R: ifE}, "d + if c then a else b"},
		{&Apply{Fn: v("f"), Args: []Expr{&Apply{Fn: v("g"), Args: []Expr{v("x")}}, &Negate{X: v("y")}}}, "f (g x) (-y)"},
		{&Negate{X: &Negate{X: v("x")}}, "- -x"},
		{&Not{X: &Negate{X: v("x")}}, "! -x"},
		{&Index{X: &Apply{Fn: v("f"), Args: []Expr{v("x")}}, Indices: []*DimIndex{{Fix: v("i")}}}, "(f x)[i]"},
		{&Apply{Fn: v("f"), Args: []Expr{&Lambda{Params: []Pat{&PId{Name: "x"}}, Body: v("x")}, v("y")}}, `f (\x -> x) y`},
		{&Ascript{X: &Binary{Op: QualName{Name: "+"}, L: v("a"), R: v("b")}, Type: &TEVar{Name: QualName{Name: "i32"}}}, "a + b : i32"},
	} {
		if got := Print(c.e); got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
		fset := NewFileSet()
		back, err := ParseExpr(fset, "p", []byte(Print(c.e)))
		if err != nil {
			t.Errorf("%s: %v", Print(c.e), err)
		} else if dump(back) != dump(c.e) {
			t.Errorf("%s parses back as %s", Print(c.e), dump(back))
		}
	}
}
