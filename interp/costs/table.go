package costs

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Paint colours the parts of a table; the zero Paint leaves text plain.
type Paint struct {
	Head, Num, Dim func(string) string
}

func (p Paint) head(s string) string { return apply(p.Head, s) }
func (p Paint) num(s string) string  { return apply(p.Num, s) }
func (p Paint) dim(s string) string  { return apply(p.Dim, s) }

func apply(f func(string) string, s string) string {
	if f == nil {
		return s
	}
	return f(s)
}

// Row is one line of a cost table: a label and the figures, or a note in
// their place (the fused plan of an expression the IR cannot take), or,
// with Heading set, only the label (the expression of a group of rows).
type Row struct {
	Label   string
	Fig     Figures
	Note    string
	Heading bool
}

// tableHeads are the columns: the model's symbols, and their units on a
// second line.
func tableHeads() (names, units []string) {
	names = []string{"W", "D", "W/D", "S1", "S∞", "W/P + D"}
	units = []string{"steps", "steps", "", "words", "words", "steps"}
	return
}

// WriteTable prints rows as aligned columns: W, D, parallelism W/D, S1,
// S∞ and Brent's bound W/P + D, units under the names, and a line saying
// which P.
func WriteTable(w io.Writer, rows []Row, p Procs, paint Paint) {
	names, units := tableHeads()
	widths := make([]int, len(names))
	for i := range names {
		widths[i] = max(width(names[i]), width(units[i]))
	}
	labelW := 0
	cells := make([][]string, len(rows))
	for i, r := range rows {
		if !r.Heading {
			labelW = max(labelW, width(r.Label))
		}
		if r.Heading || r.Note != "" {
			continue
		}
		f := r.Fig
		par := "-"
		if f.D > 0 {
			par = strconv.FormatFloat(f.Parallelism(), 'f', 2, 64)
		}
		cells[i] = []string{itoa(f.W), itoa(f.D), par, itoa(f.S1), itoa(f.Sinf),
			strconv.FormatFloat(f.Brent(p.P), 'f', 2, 64)}
		for j, c := range cells[i] {
			widths[j] = max(widths[j], width(c))
		}
	}
	line := func(cols []string) string {
		var b strings.Builder
		b.WriteString(strings.Repeat(" ", labelW))
		for j, c := range cols {
			b.WriteString("  " + pad(c, widths[j]))
		}
		return strings.TrimRight(b.String(), " ")
	}
	fmt.Fprintln(w, paint.head(line(names)))
	fmt.Fprintln(w, paint.dim(line(units)))
	for i, r := range rows {
		switch {
		case r.Heading:
			fmt.Fprintln(w, r.Label)
		case r.Note != "":
			fmt.Fprintf(w, "%s  %s\n", padRight(r.Label, labelW), paint.dim(r.Note))
		default:
			var b strings.Builder
			b.WriteString(padRight(r.Label, labelW))
			for j, c := range cells[i] {
				b.WriteString("  " + paint.num(pad(c, widths[j])))
			}
			fmt.Fprintln(w, b.String())
		}
	}
	fmt.Fprintln(w, paint.dim(p.String()))
}

func itoa(x int64) string { return strconv.FormatInt(x, 10) }

func width(s string) int { return utf8.RuneCountInString(s) }

// pad right-aligns s in n columns.
func pad(s string, n int) string { return strings.Repeat(" ", max(0, n-width(s))) + s }

// padRight left-aligns s in n columns.
func padRight(s string, n int) string { return s + strings.Repeat(" ", max(0, n-width(s))) }

// Shorten keeps an expression's text on one line of at most n runes.
func Shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if width(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
