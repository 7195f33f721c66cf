package value

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// DataError is malformed input data, at a byte offset (and line:col for text).
type DataError struct {
	Offset    int
	Line, Col int // 0 for binary input
	Msg       string
}

func (e *DataError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("byte %d: %s", e.Offset, e.Msg)
}

// Read reads every value in src: text or binary, each detected on its
// own. Unsuffixed literals default to i32 and f64.
func Read(src []byte) ([]Value, error) { return ReadTyped(src, nil) }

// ReadTyped is Read where want[i] (when given and not NoPrim) is the
// element type of the i'th value, used for unsuffixed literals.
func ReadTyped(src []byte, want []PrimType) ([]Value, error) {
	return ReadWith(src, want, ReadOptions{})
}

// ReadOptions are ReadWith's choices.
type ReadOptions struct {
	// Alloc, when not nil, gives the memory of a large binary array's
	// elements (at least BulkMin bytes): a buffer of n bytes, aligned to
	// 8, or nil to take Go memory. fut gives pinned host memory there
	// when the arrays will stream to a device.
	Alloc func(n int) []byte
}

// BulkMin is the size from which ReadOptions.Alloc is asked.
const BulkMin = 64 << 20

// ReadWith is ReadTyped with options.
func ReadWith(src []byte, want []PrimType, opts ReadOptions) ([]Value, error) {
	r := &reader{src: src, alloc: opts.Alloc}
	var out []Value
	for {
		r.skip()
		if r.pos >= len(src) {
			return out, nil
		}
		t := NoPrim
		if len(out) < len(want) {
			t = want[len(out)]
		}
		v, err := r.value(t)
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
}

type reader struct {
	src   []byte
	pos   int
	depth int // nesting of [ and ( at pos
	alloc func(n int) []byte
}

// maxDepth is the deepest nesting of arrays and tuples read (the binary
// format cannot state a rank above 255 either).
const maxDepth = 255

func (r *reader) errf(format string, args ...any) error {
	line, col := 1, 1
	for i := 0; i < r.pos && i < len(r.src); i++ {
		if r.src[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &DataError{Offset: r.pos, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// skip skips white space and -- comments.
func (r *reader) skip() {
	for r.pos < len(r.src) {
		c := r.src[r.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			r.pos++
		case c == '-' && r.pos+1 < len(r.src) && r.src[r.pos+1] == '-':
			for r.pos < len(r.src) && r.src[r.pos] != '\n' {
				r.pos++
			}
		default:
			return
		}
	}
}

func (r *reader) peek() byte {
	if r.pos < len(r.src) {
		return r.src[r.pos]
	}
	return 0
}

func (r *reader) expect(c byte, what string) error {
	r.skip()
	if r.peek() != c {
		return r.errf("expected %s, found %s", what, r.found())
	}
	r.pos++
	return nil
}

func (r *reader) found() string {
	if r.pos >= len(r.src) {
		return "end of input"
	}
	end := r.pos + 1
	for end < len(r.src) && end-r.pos < 12 && isWordByte(r.src[end]) && isWordByte(r.src[r.pos]) {
		end++
	}
	return strconv.Quote(string(r.src[r.pos:end]))
}

func isWordByte(c byte) bool {
	return c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// node is a parsed text value before literal types are settled.
type node struct {
	kind   byte // 's' scalar, 'a' array, 't' tuple, 'e' empty, 'v' ready value
	lit    lit
	kids   []*node
	v      Value
	offset int

	suffix      PrimType // firstSuffix, once suffixKnown
	suffixKnown bool
}

type lit struct {
	float   bool
	neg     bool
	text    string // digits, without sign or suffix
	suffix  PrimType
	bool    bool
	isBool  bool
	special string // "nan", "inf"
}

func (r *reader) value(want PrimType) (Value, error) {
	if r.peek() == 'b' && !strings.HasPrefix(string(r.src[r.pos:min(r.pos+5, len(r.src))]), "bool") {
		return r.binary()
	}
	n, err := r.node()
	if err != nil {
		return nil, err
	}
	t := want
	if t == NoPrim {
		t = n.firstSuffix()
	}
	return r.build(n, t)
}

func (r *reader) node() (*node, error) {
	r.skip()
	start := r.pos
	if c := r.peek(); c == '[' || c == '(' {
		if r.depth >= maxDepth {
			return nil, r.errf("value nested more than %d deep", maxDepth)
		}
		r.depth++
		defer func() { r.depth-- }()
	}
	switch c := r.peek(); {
	case c == '[':
		r.pos++
		n := &node{kind: 'a', offset: start}
		r.skip()
		if r.peek() == ']' {
			return nil, r.errf("expected a value (write an empty array as empty([0]t))")
		}
		for {
			k, err := r.node()
			if err != nil {
				return nil, err
			}
			n.kids = append(n.kids, k)
			r.skip()
			if r.peek() == ',' {
				r.pos++
				continue
			}
			if err := r.expect(']', "',' or ']'"); err != nil {
				return nil, err
			}
			return n, nil
		}
	case c == '(':
		r.pos++
		n := &node{kind: 't', offset: start}
		for {
			k, err := r.node()
			if err != nil {
				return nil, err
			}
			n.kids = append(n.kids, k)
			r.skip()
			if r.peek() == ',' {
				r.pos++
				continue
			}
			if err := r.expect(')', "',' or ')'"); err != nil {
				return nil, err
			}
			if len(n.kids) == 1 {
				return n.kids[0], nil
			}
			return n, nil
		}
	case c == '"':
		// a string is its UTF-8 bytes, a []u8
		r.pos++
		for r.pos < len(r.src) && r.src[r.pos] != '"' {
			if r.src[r.pos] == '\\' {
				r.pos++
			}
			r.pos++
		}
		if r.pos >= len(r.src) {
			r.pos = start
			return nil, r.errf("unterminated string")
		}
		r.pos++
		str, err := strconv.Unquote(string(r.src[start:r.pos]))
		if err != nil {
			r.pos = start
			return nil, r.errf("bad string literal %s", string(r.src[start:r.pos]))
		}
		a := NewPrimArray(U8, []int64{int64(len(str))})
		for i := 0; i < len(str); i++ {
			DataSet(a.Data, i, MkInt(U8, int64(str[i])))
		}
		return &node{kind: 'v', v: a, offset: start}, nil
	case c == 'b' && !bytes.HasPrefix(r.src[r.pos:], []byte("bool")):
		v, err := r.binary()
		if err != nil {
			return nil, err
		}
		return &node{kind: 'v', v: v, offset: start}, nil
	case strings.HasPrefix(string(r.src[r.pos:min(r.pos+6, len(r.src))]), "empty("):
		r.pos += 6
		var shape []int64
		for r.skip(); r.peek() == '['; r.skip() {
			r.pos++
			r.skip()
			s := r.pos
			for r.pos < len(r.src) && r.src[r.pos] >= '0' && r.src[r.pos] <= '9' {
				r.pos++
			}
			d, err := strconv.ParseInt(string(r.src[s:r.pos]), 10, 64)
			if err != nil {
				r.pos = s
				return nil, r.errf("expected a dimension size, found %s", r.found())
			}
			shape = append(shape, d)
			if err := r.expect(']', "']'"); err != nil {
				return nil, err
			}
		}
		r.skip()
		s := r.pos
		for r.pos < len(r.src) && isWordByte(r.src[r.pos]) {
			r.pos++
		}
		t := ParsePrimType(string(r.src[s:r.pos]))
		if t == NoPrim || len(shape) == 0 {
			r.pos = s
			return nil, r.errf("expected a primitive type after the shape in empty(…), found %s", r.found())
		}
		if prod(shape) != 0 {
			r.pos = start
			return nil, r.errf("empty array with a non-empty shape %s", ShapeString(shape))
		}
		if err := r.expect(')', "')'"); err != nil {
			return nil, err
		}
		return &node{kind: 'v', v: NewPrimArray(t, shape), offset: start}, nil
	}
	l, err := r.scalar()
	if err != nil {
		return nil, err
	}
	return &node{kind: 's', lit: l, offset: start}, nil
}

func (r *reader) scalar() (lit, error) {
	var l lit
	if r.peek() == '-' {
		l.neg = true
		r.pos++
	}
	s := r.pos
	for r.pos < len(r.src) {
		c := r.src[r.pos]
		if isWordByte(c) {
			r.pos++
			continue
		}
		if (c == '+' || c == '-') && r.pos > s {
			p := r.src[r.pos-1]
			hex := strings.HasPrefix(string(r.src[s:r.pos]), "0x")
			if !hex && (p == 'e' || p == 'E') || hex && (p == 'p' || p == 'P') {
				r.pos++
				continue
			}
		}
		break
	}
	word := string(r.src[s:r.pos])
	if word == "" {
		return l, r.errf("expected a value, found %s", r.found())
	}
	switch word {
	case "true", "false":
		if l.neg {
			break
		}
		l.isBool, l.bool = true, word == "true"
		return l, nil
	}
	for _, ty := range []PrimType{F16, F32, F64} {
		for _, sp := range []string{"nan", "inf"} {
			if word == ty.String()+"."+sp {
				l.float, l.special, l.suffix = true, sp, ty
				return l, nil
			}
		}
	}
	// split off a suffix
	for _, ty := range []PrimType{I8, I16, I32, I64, U8, U16, U32, U64, F16, F32, F64} {
		suf := ty.String()
		if strings.HasSuffix(word, suf) && len(word) > len(suf) && !strings.HasPrefix(word, "0x") {
			l.suffix = ty
			word = word[:len(word)-len(suf)]
			break
		}
		if strings.HasPrefix(word, "0x") && strings.HasSuffix(word, suf) && (suf[0] == 'i' || suf[0] == 'u') {
			l.suffix = ty
			word = word[:len(word)-len(suf)]
			break
		}
	}
	word = strings.ReplaceAll(word, "_", "")
	l.text = word
	isHex := strings.HasPrefix(word, "0x") || strings.HasPrefix(word, "0X")
	l.float = strings.ContainsAny(word, ".pP") || !isHex && strings.ContainsAny(word, "eE") || l.suffix.IsFloat()
	if _, err := strconv.ParseFloat(strings.TrimSuffix(word, "."), 64); err != nil {
		if _, err2 := strconv.ParseUint(word, 0, 64); err2 != nil {
			r.pos = s
			return l, r.errf("expected a number, true or false, found %s", strconv.Quote(string(r.src[s:s+len(word)])))
		}
	}
	return l, nil
}

// firstSuffix is the type of the first suffixed literal among n's
// elements (NoPrim without one): it types the unsuffixed ones. It is
// remembered, since tuples ask it of each component and a component may
// be asked again by an enclosing tuple.
func (n *node) firstSuffix() PrimType {
	if !n.suffixKnown {
		n.suffix, n.suffixKnown = n.findSuffix(), true
	}
	return n.suffix
}

func (n *node) findSuffix() PrimType {
	switch n.kind {
	case 's':
		if n.lit.isBool {
			return Bool
		}
		return n.lit.suffix
	case 'a':
		for _, k := range n.kids {
			if t := k.firstSuffix(); t != NoPrim {
				return t
			}
		}
	case 'v':
		if a, ok := n.v.(*Array); ok && a.Kind == KPrim {
			return a.T
		}
	}
	return NoPrim
}

func (r *reader) build(n *node, t PrimType) (Value, error) {
	switch n.kind {
	case 'v':
		return n.v, nil
	case 's':
		return r.buildScalar(n, t)
	case 't':
		out := make(Tuple, len(n.kids))
		for i, k := range n.kids {
			v, err := r.build(k, k.firstSuffix())
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
	return r.buildArray(n, t)
}

// buildArray builds the array node n in one pass over its elements. The
// outer shape is read off the first row at each level, every row is
// checked against it, and the elements (the nodes below the last array
// level) go into one buffer: stacking rows level by level, as FromValues
// does, would copy the data once per level.
func (r *reader) buildArray(n *node, t PrimType) (Value, error) {
	var dims []int64
	for x := n; x.kind == 'a'; x = x.kids[0] {
		dims = append(dims, int64(len(x.kids)))
	}
	var elems []*node
	var walk func(x *node, level int) error
	walk = func(x *node, level int) error {
		for _, k := range x.kids {
			isRow := k.kind == 'a'
			if isRow != (level+1 < len(dims)) || isRow && int64(len(k.kids)) != dims[level+1] {
				r.pos = x.offset
				return r.errf("%s", irregular(dims[level+1:], rowShape(k)))
			}
			if isRow {
				if err := walk(k, level+1); err != nil {
					return err
				}
			} else {
				elems = append(elems, k)
			}
		}
		return nil
	}
	if err := walk(n, 0); err != nil {
		return nil, err
	}
	scalars := true
	for _, e := range elems {
		scalars = scalars && e.kind == 's'
	}
	if !scalars {
		// tuples, strings, empty(…) and binary values: built one by one
		// and stacked once, then given the outer shape
		vs := make([]Value, len(elems))
		for i, e := range elems {
			v, err := r.build(e, t)
			if err != nil {
				return nil, err
			}
			vs[i] = v
		}
		a, err := FromValues(vs, nil)
		if err != nil {
			r.pos = n.offset
			return nil, r.errf("%v", err)
		}
		return a.Reshape(append(dims, a.Shape[1:]...)), nil
	}
	var data any
	var et PrimType
	for i, e := range elems {
		v, err := r.buildScalar(e, t)
		if err != nil {
			return nil, err
		}
		p := v.(Prim)
		if i == 0 {
			et, data = p.T, MakeData(p.T, len(elems))
		} else if p.T != et {
			r.pos = e.offset
			return nil, r.errf("array elements of different types: %s and %s", et, p.T)
		}
		DataSet(data, i, p)
	}
	return &Array{Shape: dims, T: et, Data: data}, nil
}

// irregular says that rows of shapes a and b meet in one array.
func irregular(a, b []int64) string {
	if len(a) > 0 && len(b) > 0 {
		return "irregular array: rows of shape " + ShapeString(a) + " and " + ShapeString(b)
	}
	text := func(s []int64) string {
		if len(s) == 0 {
			return "elements that are not arrays"
		}
		return "rows of shape " + ShapeString(s)
	}
	return "irregular array: " + text(a) + " and " + text(b)
}

// rowShape is the shape of a row as its first elements give it ([] for a
// scalar or tuple).
func rowShape(x *node) []int64 {
	var s []int64
	for ; x.kind == 'a'; x = x.kids[0] {
		s = append(s, int64(len(x.kids)))
	}
	if x.kind == 'v' {
		s = append(s, ShapeOf(x.v)...)
	}
	return s
}

func (r *reader) buildScalar(n *node, t PrimType) (Value, error) {
	l := n.lit
	if l.isBool {
		if t != NoPrim && t != Bool {
			r.pos = n.offset
			return nil, r.errf("expected a value of type %s, found a bool", t)
		}
		return MkBool(l.bool), nil
	}
	if l.suffix != NoPrim {
		t = l.suffix
	}
	if t == NoPrim || t == Bool {
		if l.float {
			t = F64
		} else {
			t = I32
		}
	}
	if l.special != "" {
		x := math.NaN()
		if l.special == "inf" {
			x = math.Inf(1)
			if l.neg {
				x = -x
			}
		}
		return MkFloat(t, x), nil
	}
	if t.IsFloat() {
		x, err := strconv.ParseFloat(strings.TrimSuffix(l.text, "."), 64)
		if err != nil && !strings.Contains(err.Error(), "range") {
			u, err2 := strconv.ParseUint(l.text, 0, 64)
			if err2 != nil {
				r.pos = n.offset
				return nil, r.errf("malformed number %q", l.text)
			}
			x = float64(u)
		}
		if l.neg {
			x = -x
		}
		return MkFloat(t, x), nil
	}
	if l.float {
		r.pos = n.offset
		return nil, r.errf("expected an integer of type %s, found %q", t, l.text)
	}
	u, err := strconv.ParseUint(l.text, 0, 64)
	if err != nil {
		r.pos = n.offset
		return nil, r.errf("malformed integer %q", l.text)
	}
	if l.neg {
		u = -u
	}
	return MkUint(t, u), nil
}
