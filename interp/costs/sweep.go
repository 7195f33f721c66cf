package costs

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"fut/interp/session"
)

// Range is the sizes of a sweep: VAR=A..B (A, 2A, 4A, … up to B) or
// VAR=a,b,c. A size may be written 2^k.
type Range struct {
	Var   string
	Sizes []int64
}

func (r Range) String() string {
	parts := make([]string, len(r.Sizes))
	for i, n := range r.Sizes {
		parts[i] = strconv.FormatInt(n, 10)
	}
	return r.Var + " = " + strings.Join(parts, ", ")
}

const maxSizes = 40

// ParseRange reads VAR=A..B or VAR=a,b,c (spaces allowed around = and ,).
func ParseRange(s string) (Range, error) {
	name, spec, ok := strings.Cut(s, "=")
	name, spec = strings.TrimSpace(name), strings.TrimSpace(spec)
	if !ok || name == "" || !isIdent(name) {
		return Range{}, fmt.Errorf("a sweep is VAR=A..B (doubling from A to B) or VAR=a,b,c, not %q", s)
	}
	r := Range{Var: name}
	if a, b, ok := strings.Cut(spec, ".."); ok {
		lo, err1 := parseSize(a)
		hi, err2 := parseSize(b)
		if err1 != nil || err2 != nil {
			return Range{}, fmt.Errorf("%q: the bounds of A..B are integers ≥ 1 (or 2^k)", s)
		}
		if hi < lo {
			return Range{}, fmt.Errorf("%q: B is less than A", s)
		}
		for n := lo; n <= hi; n *= 2 {
			r.Sizes = append(r.Sizes, n)
			if len(r.Sizes) > maxSizes {
				return Range{}, fmt.Errorf("%q: more than %d sizes", s, maxSizes)
			}
		}
		return r, nil
	}
	for _, f := range strings.Split(spec, ",") {
		n, err := parseSize(f)
		if err != nil {
			return Range{}, fmt.Errorf("%q: %v", s, err)
		}
		if len(r.Sizes) > 0 && n <= r.Sizes[len(r.Sizes)-1] {
			return Range{}, fmt.Errorf("%q: the sizes must increase", s)
		}
		r.Sizes = append(r.Sizes, n)
	}
	if len(r.Sizes) > maxSizes {
		return Range{}, fmt.Errorf("%q: more than %d sizes", s, maxSizes)
	}
	return r, nil
}

func parseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if b, k, ok := strings.Cut(s, "^"); ok {
		base, err1 := strconv.ParseInt(strings.TrimSpace(b), 10, 64)
		exp, err2 := strconv.ParseInt(strings.TrimSpace(k), 10, 64)
		if err1 != nil || err2 != nil || base < 1 || exp < 0 || exp > 62 {
			return 0, fmt.Errorf("%q is not a size", s)
		}
		n := int64(1)
		for range exp {
			n *= base
			if n > 1<<40 {
				return 0, fmt.Errorf("%q is too large", s)
			}
		}
		return n, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%q is not a size (an integer ≥ 1)", s)
	}
	return n, nil
}

func isIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isIdentByte(c) && (i > 0 || (c != '\'' && (c < '0' || c > '9')))) {
			return false
		}
	}
	return s != ""
}

// Binding is a name defined before each evaluation of a sweep, from an
// expression in the sweep variable: the inputs of an entry point. Its
// evaluation is not part of the figures (as an argument read from a file
// would not be).
type Binding struct {
	Name, Expr string
}

// ParseBinding reads NAME = EXPR.
func ParseBinding(s string) (Binding, error) {
	name, e, ok := strings.Cut(s, "=")
	name, e = strings.TrimSpace(name), strings.TrimSpace(e)
	if !ok || !isIdent(name) || e == "" {
		return Binding{}, fmt.Errorf("a given input is NAME = EXPR, not %q", s)
	}
	return Binding{name, e}, nil
}

// Point is the figures at one size.
type Point struct {
	N          int64    `json:"n"`
	AsWritten  Figures  `json:"as_written"`
	Fused      *Figures `json:"fused,omitempty"`
	FusedError string   `json:"fused_error,omitempty"`
}

// GrowthRow is the fitted class of each figure of one row.
type GrowthRow struct {
	W    string `json:"W"`
	D    string `json:"D"`
	S1   string `json:"S1"`
	Sinf string `json:"Sinf"`
}

func (g GrowthRow) Get(k int) string { return [4]string{g.W, g.D, g.S1, g.Sinf}[k] }

// Growth is the fitted growth of both rows; Fused is nil when some size
// had no fused plan.
type Growth struct {
	AsWritten GrowthRow  `json:"as_written"`
	Fused     *GrowthRow `json:"fused,omitempty"`
}

// Sweep is an expression's figures at every size of a range, and their
// growth.
type Sweep struct {
	Expr   string            `json:"expr"`
	Var    string            `json:"var"`
	Given  []string          `json:"given,omitempty"`
	Points []Point           `json:"points"`
	Growth Growth            `json:"growth"`
	Units  map[string]string `json:"units"`
	// Fits are the fits behind Growth: [0] as written, [1] fused.
	Fits [2][4]Fit `json:"-"`
}

// RunSweep evaluates src at every size of r in s, each binding of given
// defined first (with the size put in), and fits the growth of the
// figures. progress, if not nil, hears of each size as it is done.
func RunSweep(ctx context.Context, s *session.Session, src string, r Range, given []Binding, progress func(n int64)) (*Sweep, error) {
	sw := &Sweep{Expr: src, Var: r.Var, Units: Units}
	for _, b := range given {
		sw.Given = append(sw.Given, b.Name+" = "+b.Expr)
	}
	mentioned := false
	for _, n := range r.Sizes {
		for _, b := range given {
			e, used, err := Substitute(b.Expr, r.Var, n)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", b.Name, err)
			}
			mentioned = mentioned || used
			if _, err := s.Enter(ctx, "def "+b.Name+" = "+e); err != nil {
				return nil, fmt.Errorf("%s = %s at %s = %d: %s", b.Name, b.Expr, r.Var, n, firstLine(s.FormatError(err)))
			}
		}
		e, used, err := Substitute(src, r.Var, n)
		if err != nil {
			return nil, err
		}
		mentioned = mentioned || used
		if !mentioned {
			return nil, fmt.Errorf("the expression does not mention the sweep variable %s", r.Var)
		}
		res, err := s.EvalExpr(ctx, e)
		if err != nil {
			return nil, fmt.Errorf("at %s = %d: %s", r.Var, n, s.FormatError(err))
		}
		p := Point{N: n, AsWritten: FromCost(res.Cost)}
		p.Fused, p.FusedError = FusedFigures(ctx, s, e)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		sw.Points = append(sw.Points, p)
		if progress != nil {
			progress(n)
		}
	}
	sw.fit()
	return sw, nil
}

// fit fills Growth and Fits from the points.
func (sw *Sweep) fit() {
	ns := make([]int64, len(sw.Points))
	for i, p := range sw.Points {
		ns[i] = p.N
	}
	fused := true
	for _, p := range sw.Points {
		fused = fused && p.Fused != nil
	}
	for row := 0; row < 2; row++ {
		if row == 1 && !fused {
			break
		}
		var g [4]string
		for k := 0; k < 4; k++ {
			ys := make([]int64, len(sw.Points))
			for i, p := range sw.Points {
				f := p.AsWritten
				if row == 1 {
					f = *p.Fused
				}
				ys[i] = f.Get(k)
			}
			sw.Fits[row][k] = FitGrowth(ns, ys)
			g[k] = sw.Fits[row][k].Class
		}
		gr := GrowthRow{W: g[0], D: g[1], S1: g[2], Sinf: g[3]}
		if row == 0 {
			sw.Growth.AsWritten = gr
		} else {
			sw.Growth.Fused = &gr
		}
	}
}

// WriteSweep prints a sweep as a table: a line per size with the figures
// as written and fused, and a last line with the growth of each.
func WriteSweep(w io.Writer, sw *Sweep, paint Paint) {
	hasFused := sw.Growth.Fused != nil
	names := []string{sw.Var, "W", "D", "S1", "S∞"}
	if hasFused {
		names = append(names, "W", "D", "S1", "S∞")
	}
	rows := [][]string{}
	for _, p := range sw.Points {
		r := []string{itoa(p.N), itoa(p.AsWritten.W), itoa(p.AsWritten.D), itoa(p.AsWritten.S1), itoa(p.AsWritten.Sinf)}
		if hasFused {
			r = append(r, itoa(p.Fused.W), itoa(p.Fused.D), itoa(p.Fused.S1), itoa(p.Fused.Sinf))
		}
		rows = append(rows, r)
	}
	growth := []string{"growth"}
	for k := 0; k < 4; k++ {
		growth = append(growth, sw.Growth.AsWritten.Get(k))
	}
	if hasFused {
		for k := 0; k < 4; k++ {
			growth = append(growth, sw.Growth.Fused.Get(k))
		}
	}
	widths := make([]int, len(names))
	for j := range names {
		widths[j] = width(names[j])
		for _, r := range append(rows, growth) {
			widths[j] = max(widths[j], width(r[j]))
		}
	}
	line := func(cells []string, paintCell func(string) string) string {
		var b strings.Builder
		for j, c := range cells {
			if j == 5 {
				b.WriteString("  │")
			}
			if j > 0 {
				b.WriteString("  ")
			}
			if j == 0 {
				b.WriteString(padRight(c, widths[j]))
			} else {
				b.WriteString(paintCell(pad(c, widths[j])))
			}
		}
		return strings.TrimRight(b.String(), " ")
	}
	// The row names over the two groups of columns.
	span := func(from, to int) int {
		n := 0
		for j := from; j < to; j++ {
			n += widths[j] + 2
		}
		return n
	}
	over := padRight("", widths[0]) + "  " + padRight("as written", span(1, 5)-2)
	if hasFused {
		over += "  │  fused"
	} else {
		for _, p := range sw.Points {
			if p.FusedError != "" {
				over += "  (no fused plan at " + sw.Var + " = " + itoa(p.N) + ": " + p.FusedError + ")"
				break
			}
		}
	}
	fmt.Fprintln(w, paint.head(strings.TrimRight(over, " ")))
	fmt.Fprintln(w, paint.head(line(names, func(s string) string { return s })))
	for _, r := range rows {
		fmt.Fprintln(w, line(r, paint.num))
	}
	fmt.Fprintln(w, paint.head(line(growth, func(s string) string { return s })))
	note := "(W and D in steps, S1 and S∞ in words; growth fitted over the largest sizes"
	if sw.Var != "n" {
		note += ", with n for " + sw.Var
	}
	if len(sw.Points) < 3 {
		note += "; a fit needs 3 sizes or more"
	}
	fmt.Fprintln(w, paint.dim(note+")"))
}
