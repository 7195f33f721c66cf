package repl

// Printing values at the prompt: Futhark syntax, large arrays elided in
// the middle as NumPy does, rows of big multi-dimensional arrays on lines
// of their own, on a terminal long rows wrapped at its width (NumPy's
// layout: breaks between elements, the numbers right-aligned, later lines
// indented under the first element), floats with just enough digits to
// read back.

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"fut/eval/value"
)

// PrintOptions are the :set options that shape printed values.
type PrintOptions struct {
	// Elide: arrays with more elements than this (in all) are shown with
	// only Edge elements at each end of every dimension; 0 never elides.
	Elide int64
	// Edge is how many elements are kept at each end when eliding.
	Edge int64
	// Precision is the number of significant digits of floats; 0 means
	// the fewest digits that read back as the same number.
	Precision int
	// Suffixes prints type suffixes on numbers (1i64, 2.0f32).
	Suffixes bool
	// Width is the line width beyond which the rows of a multi-dimensional
	// array go on lines of their own (0: 80).
	Width int
	// Wrap breaks a row of elements wider than Width over several lines.
	// It is for a terminal: piped output keeps a row on one line, for
	// tools that read it line by line.
	Wrap bool
}

// DefaultPrintOptions are NumPy's defaults (threshold 1000, 3 edge items).
var DefaultPrintOptions = PrintOptions{Elide: 1000, Edge: 3, Width: 80}

// printer renders one value.
type printer struct {
	opts   PrintOptions
	elided bool // whether anything was left out
}

// FormatValue renders v; elided says whether some elements were left out.
func FormatValue(v value.Value, opts PrintOptions) (s string, elided bool) {
	return formatValueAt(v, opts, 0)
}

// formatValueAt renders v to be printed from column col on (after a
// label such as "trace …: "): wrapped lines are indented to match.
func formatValueAt(v value.Value, opts PrintOptions, col int) (s string, elided bool) {
	if opts.Width <= 0 {
		opts.Width = 80
	}
	p := &printer{opts: opts}
	summarise := opts.Elide > 0 && countElems(v) > opts.Elide
	s = p.value(v, summarise, col)
	return s, p.elided
}

// countElems is the number of scalars in v's arrays (the NumPy size).
func countElems(v value.Value) int64 {
	switch v := v.(type) {
	case *value.Array:
		switch v.Kind {
		case value.KPrim:
			return v.NumElems()
		case value.KTuple, value.KRecord:
			var n int64
			for _, f := range v.Fields {
				n += countElems(f)
			}
			return n
		}
		var n int64
		for _, x := range v.Boxed {
			n += countElems(x)
		}
		return max(n, v.NumElems())
	case value.Tuple:
		var n int64
		for _, x := range v {
			n += countElems(x)
		}
		return n
	case *value.Record:
		var n int64
		for _, x := range v.Fields {
			n += countElems(x)
		}
		return n
	case *value.Sum:
		var n int64
		for _, x := range v.Payload {
			n += countElems(x)
		}
		return n
	}
	return 1
}

func (p *printer) value(v value.Value, summarise bool, indent int) string {
	switch v := v.(type) {
	case value.Prim:
		return p.prim(v)
	case value.Tuple:
		return p.fields("(", ")", nil, v, summarise, indent)
	case *value.Record:
		if value.IsTupleRecord(v.Names) && len(v.Names) > 0 {
			return p.value(value.Tuple(v.Fields), summarise, indent)
		}
		return p.fields("{", "}", v.Names, v.Fields, summarise, indent)
	case *value.Sum:
		if len(v.Payload) == 0 {
			return "#" + v.Constr
		}
		s := "#" + v.Constr
		for _, x := range v.Payload {
			s += " " + p.value(x, summarise, indent)
		}
		return "(" + s + ")"
	case *value.Array:
		return p.array(v, summarise, indent)
	}
	return value.String(v)
}

// fields prints the fields of a tuple or (with names) a record, each
// from the column it starts at, so that a wrapped array in a field
// lines up under its own bracket.
func (p *printer) fields(open, close string, names []string, vs []value.Value, summarise bool, indent int) string {
	var b strings.Builder
	b.WriteString(open)
	col := indent + len(open)
	for i, x := range vs {
		if i > 0 {
			b.WriteString(", ")
			col += 2
		}
		if names != nil {
			b.WriteString(names[i] + " = ")
			col += len(names[i]) + 3
		}
		s := p.value(x, summarise, col)
		b.WriteString(s)
		if j := strings.LastIndexByte(s, '\n'); j >= 0 {
			col = utf8.RuneCountInString(s[j+1:])
		} else {
			col += utf8.RuneCountInString(s)
		}
	}
	b.WriteString(close)
	return b.String()
}

func (p *printer) array(a *value.Array, summarise bool, indent int) string {
	if a.NumElems() == 0 {
		return value.String(a) // empty([0]i32): the shape and type in full
	}
	n := a.Len()
	edge := p.opts.Edge
	if edge < 1 {
		edge = 1
	}
	cut := summarise && n > 2*edge
	var rows []string
	add := func(i int64) { rows = append(rows, p.value(a.Index(i), summarise, indent+1)) }
	if cut {
		p.elided = true
		for i := int64(0); i < edge; i++ {
			add(i)
		}
		rows = append(rows, "...")
		for i := n - edge; i < n; i++ {
			add(i)
		}
	} else {
		for i := int64(0); i < n; i++ {
			add(i)
		}
	}
	flat := "[" + strings.Join(rows, ", ") + "]"
	fits := indent+utf8.RuneCountInString(flat) <= p.opts.Width
	if len(a.Shape) < 2 && !multiline(rows) {
		if p.opts.Wrap && !fits {
			return p.wrap(rows, a.Kind == value.KPrim, indent)
		}
		return flat
	}
	if fits && !multiline(rows) {
		return flat
	}
	// One row per line, aligned under the opening bracket.
	sep := ",\n" + strings.Repeat(" ", indent+1)
	return "[" + strings.Join(rows, sep) + "]"
}

// wrap lays out the elements of a row from column indent (its opening
// bracket) on lines of at most Width columns, breaking only between
// elements; continuation lines start under the first element. Numbers
// are right-aligned to the widest, so that they stand in columns.
func (p *printer) wrap(elems []string, numbers bool, indent int) string {
	w := 0
	if numbers {
		for _, e := range elems {
			if e != "..." {
				w = max(w, utf8.RuneCountInString(e))
			}
		}
	}
	var b strings.Builder
	b.WriteByte('[')
	col := indent + 1
	for i, e := range elems {
		if n := utf8.RuneCountInString(e); n < w && e != "..." {
			e = strings.Repeat(" ", w-n) + e
		}
		n := utf8.RuneCountInString(e)
		if i > 0 {
			// the element, and the comma or bracket after it, must fit
			if col+2+n+1 > p.opts.Width && col > indent+1 {
				b.WriteString(",\n" + strings.Repeat(" ", indent+1))
				col = indent + 1
			} else {
				b.WriteString(", ")
				col += 2
			}
		}
		b.WriteString(e)
		col += n
	}
	b.WriteByte(']')
	return b.String()
}

func multiline(rows []string) bool {
	for _, r := range rows {
		if strings.Contains(r, "\n") {
			return true
		}
	}
	return false
}

func (p *printer) prim(x value.Prim) string {
	if !x.T.IsFloat() {
		if p.opts.Suffixes || x.T == value.Bool {
			return value.PrimString(x)
		}
		s := value.PrimString(x)
		return strings.TrimSuffix(s, x.T.String())
	}
	f := x.Float()
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return value.FloatString(f, x.T) // f64.nan, -f32.inf: already Futhark syntax
	}
	var s string
	if p.opts.Precision > 0 {
		s = strconv.FormatFloat(f, 'g', p.opts.Precision, 64)
		if !strings.ContainsAny(s, ".eEn") {
			s += ".0"
		} else if i := strings.IndexAny(s, "eE"); i >= 0 && !strings.Contains(s[:i], ".") {
			s = s[:i] + ".0" + s[i:]
		}
		s = strings.Replace(s, "e+", "e", 1)
	} else {
		s = strings.TrimSuffix(value.FloatString(f, x.T), x.T.String())
	}
	if p.opts.Suffixes {
		s += x.T.String()
	}
	return s
}
