package costs

import (
	"bytes"
	"context"
	"encoding/xml"
	"image/png"
	"io"
	"reflect"
	"strings"
	"testing"

	"fut/interp/session"
)

func newSession(t *testing.T, defs string) *session.Session {
	t.Helper()
	s, err := session.NewSession(session.Options{Cost: true})
	if err != nil {
		t.Fatal(err)
	}
	if defs != "" {
		if _, err := s.Enter(context.Background(), defs); err != nil {
			t.Fatal(s.FormatError(err))
		}
	}
	return s
}

const acceptanceDefs = `
def sumlogs (n: i64) : f64 = reduce (+) 0 (map (\i -> f64.log (f64.i64 (i + 1))) (iota n))
def allpairs (n: i64) : i64 = reduce (+) 0 (map (\i -> reduce (+) 0 (map (\j -> i * j) (iota n))) (iota n))
def matmul [n][m][p] (a: [n][m]i64) (b: [m][p]i64) : [n][p]i64 =
  map (\row -> map (\col -> reduce (+) 0 (map2 (*) row col)) (transpose b)) a
def bubble [n] (xs: [n]i64) : [n]i64 =
  loop xs = copy xs for i < n do
    loop xs for j < n - 1 do
      if xs[j] > xs[j+1] then
        let a = xs[j]
        let b = xs[j+1]
        in xs with [j] = b with [j+1] = a
      else xs
`

// TestSweepAcceptance: the growth of the four programs of issue 15, as
// fut cost --sweep fits it.
func TestSweepAcceptance(t *testing.T) {
	cases := []struct {
		expr, sweep string
		given       []Binding
		want        map[string]string // figure key: class, as written
	}{
		{"sumlogs n", "n=256..16384", nil, map[string]string{"W": "n", "D": "log n", "S1": "n"}},
		{"allpairs n", "n=16..512", nil, map[string]string{"W": "n^2", "D": "log n"}},
		{"matmul a a", "n=4..64", []Binding{{"a", `map (\i -> map (\j -> i + j) (iota n)) (iota n)`}},
			map[string]string{"W": "n^3", "D": "log n", "S1": "n^2", "Sinf": "n^3"}},
		{"bubble xs", "n=8..256", []Binding{{"xs", "reverse (iota n)"}}, map[string]string{"W": "n^2", "D": "n^2", "S1": "n"}},
	}
	s := newSession(t, acceptanceDefs)
	for _, c := range cases {
		r, err := ParseRange(c.sweep)
		if err != nil {
			t.Fatal(err)
		}
		sw, err := RunSweep(context.Background(), s, c.expr, r, c.given, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		got := map[string]string{}
		for k, f := range FigureInfo {
			got[f.Key] = sw.Growth.AsWritten.Get(k)
		}
		for k, want := range c.want {
			if got[k] != want {
				t.Errorf("%s: %s grows as %s, want %s (all: %v)", c.expr, k, got[k], want, got)
			}
		}
		t.Logf("%-12s as written %+v, fused %+v", c.expr, sw.Growth.AsWritten, sw.Growth.Fused)
	}
}

func TestParseRange(t *testing.T) {
	for in, want := range map[string][]int64{
		"n=256..2048":   {256, 512, 1024, 2048},
		"n = 3..20":     {3, 6, 12},
		"k=2^3..2^5":    {8, 16, 32},
		"m=10,100,1000": {10, 100, 1000},
	} {
		r, err := ParseRange(in)
		if err != nil || !reflect.DeepEqual(r.Sizes, want) {
			t.Errorf("ParseRange(%q) = %v, %v; want %v", in, r.Sizes, err, want)
		}
	}
	for _, in := range []string{"n", "=1..2", "n=0..4", "n=8..4", "n=1,1", "n=a..b", "3x=1..2", "n=1..2^50"} {
		if r, err := ParseRange(in); err == nil {
			t.Errorf("ParseRange(%q) = %v, want an error", in, r)
		}
	}
}

// TestSweepErrors: a sweep says what is wrong with its expression.
func TestSweepErrors(t *testing.T) {
	s := newSession(t, "")
	r, _ := ParseRange("n=4..16")
	for src, want := range map[string]string{
		"iota 3":         "does not mention the sweep variable n",
		"iota (n - 8)":   "at n = 4",
		"iota n +":       "",
		"xs where xs = ": "",
	} {
		e, given, err := SplitWhere(src)
		if err == nil {
			_, err = RunSweep(context.Background(), s, e, r, given, nil)
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("sweep of %q: %v, want an error with %q", src, err, want)
		}
	}
}

// TestPlot draws a sweep as SVG and as PNG and reads them back.
func TestPlot(t *testing.T) {
	s := newSession(t, acceptanceDefs)
	r, _ := ParseRange("n=64..1024")
	a, err := RunSweep(context.Background(), s, "sumlogs n", r, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := RunSweep(context.Background(), s, "loop s = 0 for i < n do s + i", r, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var svg bytes.Buffer
	if err := DrawPlot(&svg, "svg", []*Sweep{a, b}); err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(svg.Bytes()))
	var texts []string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not XML: %v", err)
		}
		if cd, ok := tok.(xml.CharData); ok && strings.TrimSpace(string(cd)) != "" {
			texts = append(texts, strings.TrimSpace(string(cd)))
		}
	}
	all := strings.Join(texts, "|")
	for _, want := range []string{"W: work (steps)", "D: depth (steps)", "S1: sequential space (words)", "S∞: parallel space (words)",
		"[1] sumlogs n", "[2] as written: n", "[1] fused: 1", "1024"} {
		if !strings.Contains(all, want) {
			t.Errorf("the SVG has no text %q", want)
		}
	}
	var pngData bytes.Buffer
	if err := DrawPlot(&pngData, "png", []*Sweep{a}); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&pngData)
	if err != nil {
		t.Fatalf("the PNG does not decode: %v", err)
	}
	if bd := img.Bounds(); bd.Dx() != 1056 || bd.Dy() != 816 {
		t.Errorf("the PNG is %v, want 1056×816 (11×8.5 in at 96 dpi)", bd)
	}
	if err := CheckPlotName("x.pdf"); err == nil {
		t.Errorf("a .pdf plot was accepted")
	}
}
