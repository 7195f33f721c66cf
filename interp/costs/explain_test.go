package costs

import (
	"context"
	"strings"
	"testing"
)

// TestExplain: the parts' work and depth add up to the whole, the shares
// to one, and the peaks are placed where they happen.
func TestExplain(t *testing.T) {
	s := newSession(t, acceptanceDefs)
	cases := []struct {
		src   string
		parts []string // the parts' texts, trimmed
		holds map[string]string
	}{
		{`let xs = iota 1000 in let ys = map (*2) xs in reduce (+) 0 ys`,
			[]string{"let xs = iota 1000", "let ys = map (*2) xs", "0", "the application of reduce"},
			map[string]string{"W": "let ys = map (*2) xs", "D": "the application of reduce", "S1": "let ys = map (*2) xs"}},
		{`sumlogs 1000 + f64.sum (replicate 10 1)`,
			[]string{"sumlogs 1000", "f64.sum (replicate 10 1)", "the operator +"},
			map[string]string{"W": "sumlogs 1000", "S1": "sumlogs 1000"}},
		{`loop acc = 0 for i < 100 do acc + i`,
			[]string{"0", "100", "the loop's iterations"},
			map[string]string{"W": "the loop's iterations", "D": "the loop's iterations"}},
		{`1 + 2`, []string{"1", "2", "the operator +"}, map[string]string{"S1": "the operator +"}},
		{`iota 5`, []string{"5", "the application of iota"}, map[string]string{"S1": "the application of iota"}},
		{`42`, []string{"42"}, map[string]string{"W": "42"}},
	}
	for _, c := range cases {
		ex, err := Explain(context.Background(), s, c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		var texts []string
		var w, d int64
		var share float64
		for _, p := range ex.Parts {
			texts = append(texts, strings.TrimSpace(p.Text))
			w += p.W
			d += p.D
			share += p.WShare
		}
		if strings.Join(texts, "; ") != strings.Join(c.parts, "; ") {
			t.Errorf("%s: parts %q, want %q", c.src, texts, c.parts)
		}
		if w != ex.Total.W || d != ex.Total.D {
			t.Errorf("%s: parts add up to W %d, D %d; the whole is %+v", c.src, w, d, ex.Total)
		}
		if ex.Total.W > 0 && (share < 0.97 || share > 1.03) {
			t.Errorf("%s: the shares of W add up to %.2f", c.src, share)
		}
		for fig, want := range c.holds {
			if got := strings.TrimSpace(ex.Holds[fig]); got != want {
				t.Errorf("%s: %s is held by %q, want %q", c.src, fig, got, want)
			}
		}
		if whole, _ := s.EvalExpr(context.Background(), c.src); FromCost(whole.Cost) != ex.Total {
			t.Errorf("%s: total %+v, the expression costs %+v", c.src, ex.Total, FromCost(whole.Cost))
		}
	}
}

// TestExplainApart: a body whose operands cannot be costed apart (here
// the right operand of ||, which fails when evaluated but is never
// needed) is one part, and the breakdown says so.
func TestExplainApart(t *testing.T) {
	s := newSession(t, "")
	ex, err := Explain(context.Background(), s, `let x = 1 in x == 1 || ???`)
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Parts) != 2 || ex.Parts[0].Text != "let x = 1" || ex.Parts[1].Text != "the body" ||
		!strings.Contains(ex.Note, "cannot be costed apart") {
		t.Errorf("parts %+v, note %q", ex.Parts, ex.Note)
	}
	var b strings.Builder
	WriteExplain(&b, ex, Paint{})
	if !strings.Contains(b.String(), "the body") || !strings.Contains(b.String(), "total") {
		t.Errorf("the table:\n%s", b.String())
	}
}
