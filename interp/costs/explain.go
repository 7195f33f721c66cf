package costs

// Breaking an expression's cost down by its parts.
//
// The cost model composes: a let-binding's figures add to its body's (W
// and D), and an application's arguments are evaluated before the step
// that applies the function (docs/cost.md, Composition). So the parts of
// an expression can be costed from outside the evaluator, by costing
// prefixes of it:
//
//	let a = A in let b = B in f x y
//	C0 = ()                                          (costs nothing)
//	C1 = let a = A in ()
//	C2 = let a = A in let b = B in ()
//	C3 = let a = A in let b = B in let p1 = (x) in ()
//	C4 = let a = A in let b = B in let p1 = (x) in let p2 = (y) in ()
//	C5 = the whole expression
//
// The work and depth of part k are W(Ck) − W(Ck−1) and D(Ck) − D(Ck−1);
// the last part, the step itself (f's body, a SOAC's applications, a
// loop's iterations), is what the whole costs beyond C4. Space does not
// add up: S(Ck) is the peak of everything up to part k with the results
// of earlier parts live, so the part at which S first reaches the whole
// expression's peak is the one that holds the peak.
//
// A prefix that does not type-check on its own (a part that consumes a
// variable another part uses) leaves the body as one part.

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"fut/eval/value"
	"fut/interp/session"
	"fut/interp/syntax"
)

// Part is one row of a breakdown.
type Part struct {
	Text string `json:"part"`
	// Kind is "let", "argument" (an operand of the body's top-level
	// construct) or "step" (the construct itself).
	Kind   string  `json:"kind"`
	W      int64   `json:"W"`
	D      int64   `json:"D"`
	WShare float64 `json:"W_share"`
	DShare float64 `json:"D_share"`
	// S1 and Sinf are the peaks of the evaluation up to the end of this
	// part, with the results of the parts before it live.
	S1   int64 `json:"S1_so_far"`
	Sinf int64 `json:"Sinf_so_far"`
}

// Explanation is an expression's cost broken down by part.
type Explanation struct {
	Expr  string  `json:"expr"`
	Value string  `json:"value"`
	Total Figures `json:"total"`
	Parts []Part  `json:"parts"`
	// Where each figure is mostly held: the part with the most work, the
	// most depth, and the parts where S1 and S∞ reach their peaks.
	Holds map[string]string `json:"holds"`
	Note  string            `json:"note,omitempty"`
	Units map[string]string `json:"units"`

	value value.Value
}

// The value of the explained expression, for printing.
func (ex *Explanation) ValueOf() value.Value { return ex.value }

type piece struct {
	text   string // as written, for the table
	prefix string // what it adds to the prefix
	kind   string
}

// Explain costs the parts of src in s.
func Explain(ctx context.Context, s *session.Session, src string) (*Explanation, error) {
	whole, err := s.EvalExpr(ctx, src)
	if err != nil {
		return nil, err
	}
	ex := &Explanation{Expr: src, Value: value.String(whole.Value), value: whole.Value, Total: FromCost(whole.Cost), Units: Units}
	lets, args, step := split(src)
	costOf := func(pieces []piece) (Figures, error) {
		var b strings.Builder
		for _, p := range pieces {
			b.WriteString(p.prefix)
			b.WriteString(" ")
		}
		b.WriteString("()")
		r, err := s.EvalExpr(ctx, b.String())
		if err != nil {
			return Figures{}, err
		}
		return FromCost(r.Cost), nil
	}
	pieces := append(append([]piece{}, lets...), args...)
	var prefixCosts []Figures
	for k := range pieces {
		f, err := costOf(pieces[:k+1])
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if k >= len(lets) {
				// The arguments cannot be costed apart: the body is one part.
				ex.Note = "the body's parts cannot be costed apart (" + firstLine(s.FormatError(err)) + "); it is one part"
				pieces, prefixCosts = pieces[:len(lets)], prefixCosts[:len(lets)]
				step = "the body"
				break
			}
			return nil, fmt.Errorf("costing %s: %s", lets[k].text, firstLine(s.FormatError(err)))
		}
		prefixCosts = append(prefixCosts, f)
	}
	prev := Figures{}
	for k, p := range pieces {
		c := prefixCosts[k]
		ex.Parts = append(ex.Parts, Part{Text: p.text, Kind: p.kind, W: c.W - prev.W, D: c.D - prev.D, S1: c.S1, Sinf: c.Sinf})
		prev = c
	}
	if step != "" {
		ex.Parts = append(ex.Parts, Part{Text: step, Kind: "step", W: ex.Total.W - prev.W, D: ex.Total.D - prev.D,
			S1: max(prev.S1, ex.Total.S1), Sinf: max(prev.Sinf, ex.Total.Sinf)})
	}
	ex.Holds = map[string]string{}
	var mostW, mostD int
	for i := range ex.Parts {
		p := &ex.Parts[i]
		p.WShare = share(p.W, ex.Total.W)
		p.DShare = share(p.D, ex.Total.D)
		if p.W > ex.Parts[mostW].W {
			mostW = i
		}
		if p.D > ex.Parts[mostD].D {
			mostD = i
		}
	}
	if len(ex.Parts) > 0 {
		ex.Holds["W"] = ex.Parts[mostW].Text
		ex.Holds["D"] = ex.Parts[mostD].Text
		for _, p := range ex.Parts {
			if p.S1 >= ex.Total.S1 && ex.Holds["S1"] == "" {
				ex.Holds["S1"] = p.Text
			}
			if p.Sinf >= ex.Total.Sinf && ex.Holds["Sinf"] == "" {
				ex.Holds["Sinf"] = p.Text
			}
		}
	}
	return ex, nil
}

func share(x, total int64) float64 {
	if total == 0 {
		return 0
	}
	return round2(float64(x) / float64(total))
}

// split takes src apart: its let-bindings, the operands of the
// construct at the top of the body, and a name for that construct's own
// step ("" when the body is a single part). Where src does not parse,
// everything is one part.
func split(src string) (lets, args []piece, step string) {
	fset := syntax.NewFileSet()
	e, err := syntax.ParseExpr(fset, "<explain>", []byte(src))
	if err != nil {
		return nil, nil, "the expression"
	}
	file := fset.File(e.Pos())
	text := func(n syntax.Node) string { return src[file.Offset(n.Pos()):file.Offset(n.End())] }
	from := func(a, b syntax.Node) string { return src[file.Offset(a.Pos()):file.Offset(b.End())] }
	for {
		e = unparen(e)
		switch x := e.(type) {
		case *syntax.LetIn:
			t := from(x, x.Value)
			lets = append(lets, piece{text: Shorten(t, 50), prefix: t + " in", kind: "let"})
			e = x.Body
			continue
		case *syntax.LetFun:
			t := from(x, x.Fun)
			lets = append(lets, piece{text: Shorten(t, 50), prefix: t + " in", kind: "let"})
			e = x.Body
			continue
		case *syntax.LetWith:
			t := from(x, x.Value)
			lets = append(lets, piece{text: Shorten(t, 50), prefix: t + " in", kind: "let"})
			e = x.Body
			continue
		}
		break
	}
	arg := func(n syntax.Expr) {
		switch unparen(n).(type) {
		case *syntax.Var, *syntax.Lambda, *syntax.OpSection, *syntax.LeftSection, *syntax.RightSection,
			*syntax.ProjectSection, *syntax.IndexSection:
			return // variables and functions cost nothing until applied
		}
		t := text(n)
		name := "cost_part_" + strconv.Itoa(len(args)+1) + "'"
		args = append(args, piece{text: "  " + Shorten(t, 48), prefix: "let " + name + " = (" + t + ") in", kind: "argument"})
	}
	switch x := e.(type) {
	case *syntax.Apply:
		if _, ok := unparen(x.Fn).(*syntax.Var); !ok {
			arg(x.Fn)
		}
		for _, a := range x.Args {
			arg(a)
		}
		step = "the application of " + Shorten(text(x.Fn), 30)
	case *syntax.Binary:
		arg(x.L)
		arg(x.R)
		step = "the operator " + x.Op.String()
	case *syntax.If:
		arg(x.Cond)
		step = "the branch taken"
	case *syntax.Loop:
		if x.Init != nil {
			arg(x.Init)
		}
		switch f := x.Form.(type) {
		case *syntax.For:
			arg(f.Bound)
		case *syntax.ForIn:
			arg(f.Arr)
		}
		step = "the loop's iterations"
	case *syntax.TupleLit:
		for _, a := range x.Elems {
			arg(a)
		}
		step = "the tuple"
	case *syntax.ArrayLit:
		for _, a := range x.Elems {
			arg(a)
		}
		step = "the array literal"
	default:
		step = Shorten(text(e), 50)
	}
	if len(args) == 0 {
		step = Shorten(text(e), 50)
	}
	return lets, args, step
}

func unparen(e syntax.Expr) syntax.Expr {
	for {
		p, ok := e.(*syntax.Paren)
		if !ok {
			return e
		}
		e = p.X
	}
}

// WriteExplain prints a breakdown as a table: each part's work and depth
// with their shares of the whole, the peaks of space so far where the
// part raised them, and which part holds each figure.
func WriteExplain(w io.Writer, ex *Explanation, paint Paint) {
	heads := []string{"part", "W", "share", "D", "share", "S1 peak", "S∞ peak"}
	units := []string{"", "steps", "", "steps", "", "words", "words"}
	var rows [][]string
	prev := Figures{}
	for _, p := range ex.Parts {
		s1, sinf := "", ""
		if p.S1 > prev.S1 {
			s1 = itoa(p.S1)
		}
		if p.Sinf > prev.Sinf {
			sinf = itoa(p.Sinf)
		}
		prev.S1, prev.Sinf = max(prev.S1, p.S1), max(prev.Sinf, p.Sinf)
		rows = append(rows, []string{p.Text, itoa(p.W), percent(p.WShare), itoa(p.D), percent(p.DShare), s1, sinf})
	}
	t := ex.Total
	total := []string{"total", itoa(t.W), "100%", itoa(t.D), "100%", itoa(t.S1), itoa(t.Sinf)}
	widths := make([]int, len(heads))
	for j := range heads {
		widths[j] = max(width(heads[j]), width(units[j]))
		for _, r := range append(rows, total) {
			widths[j] = max(widths[j], width(r[j]))
		}
	}
	line := func(cells []string, num func(string) string) string {
		var b strings.Builder
		b.WriteString(padRight(cells[0], widths[0]))
		for j := 1; j < len(cells); j++ {
			b.WriteString("  " + num(pad(cells[j], widths[j])))
		}
		return strings.TrimRight(b.String(), " ")
	}
	plain := func(s string) string { return s }
	fmt.Fprintln(w, paint.head(line(heads, plain)))
	fmt.Fprintln(w, paint.dim(line(units, plain)))
	for _, r := range rows {
		fmt.Fprintln(w, line(r, paint.num))
	}
	fmt.Fprintln(w, paint.head(line(total, plain)))
	if ex.Note != "" {
		fmt.Fprintln(w, paint.dim(ex.Note))
	}
	if len(ex.Parts) > 0 {
		h := func(k string) string { return strings.TrimSpace(ex.Holds[k]) }
		fmt.Fprintln(w, paint.dim(fmt.Sprintf("most work in %s; most depth in %s; S1 peaks in %s; S∞ peaks in %s",
			h("W"), h("D"), h("S1"), h("Sinf"))))
	}
}

func percent(x float64) string { return strconv.FormatFloat(100*x, 'f', 0, 64) + "%" }
