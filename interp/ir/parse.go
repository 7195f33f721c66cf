package ir

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"fut/eval/value"
)

// Parse reads the text form that (*Prog).String writes.
func Parse(src string) (prog *Prog, err error) {
	p := &parser{toks: lex(src)}
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(parseError)
			if !ok {
				panic(r)
			}
			prog, err = nil, pe
		}
	}()
	p.word("prog")
	p.expect("(")
	params := p.paramList(")")
	p.expect(":")
	ret := p.typeList()
	body := p.body()
	if p.peek().text != "" {
		p.fail("unexpected %q after the program", p.peek().text)
	}
	return &Prog{Params: params, Ret: ret, Body: body}, nil
}

type token struct {
	text string
	line int
}

type parseError string

func (e parseError) Error() string { return string(e) }

type parser struct {
	toks []token
	pos  int
}

var opTokens = []string{">>>", "**", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "//", "%%",
	"+", "-", "*", "/", "%", "<", ">", "&", "|", "^", "(", ")", "[", "]", "{", "}", ",", ":", "=", `\`}

func IsIdentChar(c byte) bool {
	return c == '_' || c == '\'' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func lex(src string) []token {
	var out []token
	line := 1
	atomEnd := false // the previous token ends an operand: '-' is then an operator
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c == '-' && i+1 < len(src) && src[i+1] == '-':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		}
		start := i
		if c == '"' {
			// a string literal, with Go's escapes
			for i++; i < len(src) && src[i] != '"' && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
			if i < len(src) {
				i++
			}
			out = append(out, token{src[start:i], line})
			atomEnd = true
			continue
		}
		// '-' starts a negative literal where no operand precedes it, or
		// after a space with none after it (the printer writes x - y with
		// spaces, and a negative constant operand as -c)
		sign := c == '-' && i+1 < len(src) && IsIdentChar(src[i+1]) && (!atomEnd || i > 0 && src[i-1] == ' ')
		if IsIdentChar(c) || sign {
			i++
			for i < len(src) && (IsIdentChar(src[i]) ||
				((src[i] == '+' || src[i] == '-') && (src[i-1] == 'e' || src[i-1] == 'E') && src[start] >= '0' && src[start] <= '9')) {
				i++
			}
			out = append(out, token{src[start:i], line})
			atomEnd = true
			continue
		}
		matched := false
		for _, op := range opTokens {
			if strings.HasPrefix(src[i:], op) {
				out = append(out, token{op, line})
				i += len(op)
				matched = true
				atomEnd = op == ")" || op == "]"
				break
			}
		}
		if !matched {
			out = append(out, token{string(c), line})
			i++
		}
	}
	return out
}

func (p *parser) fail(format string, args ...any) {
	line := 0
	if p.pos < len(p.toks) {
		line = p.toks[p.pos].line
	} else if len(p.toks) > 0 {
		line = p.toks[len(p.toks)-1].line
	}
	panic(parseError(fmt.Sprintf("ir text:%d: %s", line, fmt.Sprintf(format, args...))))
}

func (p *parser) peek() token {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return token{}
}

func (p *parser) next() string {
	t := p.peek()
	if t.text == "" {
		p.fail("unexpected end of text")
	}
	p.pos++
	return t.text
}

func (p *parser) expect(s string) {
	if t := p.next(); t != s {
		p.pos--
		p.fail("expected %q, found %q", s, t)
	}
}

func (p *parser) word(s string) { p.expect(s) }

func (p *parser) accept(s string) bool {
	if p.peek().text == s {
		p.pos++
		return true
	}
	return false
}

// str reads a string literal (Go's quoting).
func (p *parser) str() string {
	t := p.next()
	s, err := strconv.Unquote(t)
	if err != nil || len(t) == 0 || t[0] != '"' {
		p.pos--
		p.fail("expected a string literal")
	}
	return s
}

func (p *parser) ident() string {
	t := p.next()
	if t == "" || !IsIdentChar(t[0]) || (t[0] >= '0' && t[0] <= '9') {
		p.pos--
		p.fail("expected a name, found %q", t)
	}
	return t
}

func (p *parser) paramList(close string) []Param {
	var ps []Param
	for !p.accept(close) {
		if len(ps) > 0 {
			p.expect(",")
		}
		name := p.ident()
		p.expect(":")
		ps = append(ps, Param{name, p.typ()})
	}
	return ps
}

func (p *parser) typ() Type {
	var t Type
	t.Unique = p.accept("*")
	for p.accept("[") {
		t.Shape = append(t.Shape, p.atom())
		p.expect("]")
	}
	name := p.next()
	t.Elem = value.ParsePrimType(name)
	if t.Elem == value.NoPrim {
		p.pos--
		p.fail("expected a primitive type, found %q", name)
	}
	return t
}

func (p *parser) typeList() []Type {
	p.expect("(")
	var ts []Type
	for !p.accept(")") {
		if len(ts) > 0 {
			p.expect(",")
		}
		ts = append(ts, p.typ())
	}
	return ts
}

func (p *parser) atomList(open, close string) []Atom {
	p.expect(open)
	var as []Atom
	for !p.accept(close) {
		if len(as) > 0 {
			p.expect(",")
		}
		as = append(as, p.atom())
	}
	return as
}

func (p *parser) nameList() []string {
	p.expect("(")
	var ns []string
	for !p.accept(")") {
		if len(ns) > 0 {
			p.expect(",")
		}
		ns = append(ns, p.ident())
	}
	return ns
}

func (p *parser) atom() Atom {
	t := p.next()
	if c, ok := parseConst(t); ok {
		return C(c)
	}
	if t == "" || !IsIdentChar(t[0]) || t[0] >= '0' && t[0] <= '9' || t[0] == '-' {
		p.pos--
		p.fail("expected an operand, found %q", t)
	}
	return V(t)
}

// parseConst reads a constant as ConstString prints it.
func parseConst(s string) (value.Prim, bool) {
	switch s {
	case "true":
		return value.MkBool(true), true
	case "false":
		return value.MkBool(false), true
	}
	neg := strings.HasPrefix(s, "-")
	body := strings.TrimPrefix(s, "-")
	for _, ft := range []value.PrimType{value.F16, value.F32, value.F64} {
		var f float64
		switch body {
		case ft.String() + ".inf":
			f = math.Inf(1)
		case ft.String() + ".nan":
			f = math.NaN()
		default:
			continue
		}
		if neg {
			f = -f
		}
		return value.MkFloat(ft, f), true
	}
	if body == "" || body[0] < '0' || body[0] > '9' {
		return value.Prim{}, false
	}
	for _, t := range []value.PrimType{value.I8, value.I16, value.I32, value.I64, value.U8, value.U16, value.U32, value.U64, value.F16, value.F32, value.F64} {
		if !strings.HasSuffix(s, t.String()) {
			continue
		}
		num := strings.TrimSuffix(s, t.String())
		switch {
		case t.IsFloat():
			f, err := strconv.ParseFloat(num, 64)
			if err != nil {
				return value.Prim{}, false
			}
			return value.MkFloat(t, f), true
		case t.IsUnsigned():
			u, err := strconv.ParseUint(num, 10, 64)
			if err != nil {
				return value.Prim{}, false
			}
			return value.MkUint(t, u), true
		default:
			i, err := strconv.ParseInt(num, 10, 64)
			if err != nil {
				return value.Prim{}, false
			}
			return value.MkInt(t, i), true
		}
	}
	return value.Prim{}, false
}

func (p *parser) body() *Body {
	p.expect("{")
	b := &Body{}
	for p.accept("let") {
		hoisted := p.accept("hoisted")
		p.expect("(")
		pat := p.paramList(")")
		p.expect("=")
		st := &Stm{Pat: pat, E: p.exp(), Hoisted: hoisted}
		if p.accept("@") {
			st.Where = p.str()
		}
		b.Stms = append(b.Stms, st)
	}
	p.word("return")
	b.Res = p.atomList("(", ")")
	p.expect("}")
	return b
}

func (p *parser) lambda() *Lambda {
	p.expect(`\`)
	p.expect("(")
	params := p.paramList(")")
	p.expect(":")
	ret := p.typeList()
	return &Lambda{Params: params, Ret: ret, Body: p.body()}
}

func (p *parser) segop() *SegOp {
	l := p.lambda()
	return &SegOp{Lam: l, Nes: p.atomList("(", ")")}
}

func (p *parser) header() (w Atom, arrs []string, index string, gens int) {
	w = p.atom()
	arrs = p.nameList()
	if p.accept("index") {
		index = p.ident()
	}
	if p.accept("gens") {
		n, err := strconv.Atoi(p.next())
		if err != nil {
			p.pos--
			p.fail("expected a count after gens")
		}
		gens = n
	}
	return
}

func (p *parser) exp() Exp {
	switch p.peek().text {
	case "un":
		p.next()
		op := p.ident()
		return &UnOpE{Op: op, Args: p.atomList("(", ")")}
	case "implicit":
		p.next()
		x := p.atom()
		if p.peek().text == "[" {
			if x.IsConst() {
				p.fail("cannot index a constant")
			}
			return &IndexE{Arr: x.Name, Idx: p.atomList("[", "]"), Implicit: true}
		}
		op := p.next()
		if _, ok := value.LookupBinOp(op); !ok && op != "min" && op != "max" {
			p.fail("implicit: not a binary operator: %s", op)
		}
		return &BinOpE{Op: op, X: x, Y: p.atom(), Implicit: true}
	case "conv", "cast":
		implicit := p.next() == "cast"
		t := p.typ()
		return &ConvE{To: t.Elem, X: p.atom(), Implicit: implicit}
	case "assert":
		p.next()
		c := p.atom()
		msg := p.str()
		a := &AssertE{Cond: c, Msg: msg, Where: p.str()}
		a.Approx = p.accept("approx")
		return a
	case "if":
		p.next()
		implicit := p.accept("implicit")
		c := p.atom()
		p.word("then")
		th := p.body()
		p.word("else")
		el := p.body()
		p.expect(":")
		return &IfE{Cond: c, Then: th, Else: el, Ret: p.typeList(), Implicit: implicit}
	case "loop":
		p.next()
		p.expect("(")
		e := &LoopE{}
		for !p.accept(")") {
			if len(e.Params) > 0 {
				p.expect(",")
			}
			name := p.ident()
			p.expect(":")
			t := p.typ()
			p.expect("=")
			e.Params = append(e.Params, Param{name, t})
			e.Init = append(e.Init, p.atom())
		}
		if p.accept("while") {
			e.While = p.body()
			p.word("do")
		} else {
			p.word("for")
			e.I = p.ident()
			p.expect("<")
			e.Bound = p.atom()
			if p.accept("over") {
				p.expect("(")
				for !p.accept(")") {
					if len(e.Elems) > 0 {
						p.expect(",")
					}
					name := p.ident()
					p.expect(":")
					t := p.typ()
					p.word("in")
					e.Elems = append(e.Elems, Param{name, t})
					e.Over = append(e.Over, p.ident())
				}
			}
		}
		e.Body = p.body()
		return e
	case "slice":
		p.next()
		arr := p.ident()
		start := p.atom()
		return &SliceE{Arr: arr, Start: start, Len: p.atom()}
	case "iota":
		p.next()
		e := &IotaE{N: p.atom()}
		if p.accept("from") {
			e.Start = p.atom()
		}
		return e
	case "replicate":
		p.next()
		n := p.atom()
		return &ReplicateE{N: n, X: p.atom()}
	case "array":
		p.next()
		elems := p.atomList("[", "]")
		p.expect(":")
		return &ArrayE{Elem: p.typ(), Elems: elems}
	case "transpose":
		p.next()
		return &TransposeE{Arr: p.ident()}
	case "copy", "copy_part":
		part := p.next() == "copy_part"
		return &CopyE{Arr: p.ident(), Part: part}
	case "concat":
		p.next()
		n := p.atom()
		return &ConcatE{N: n, Arrs: p.nameList()}
	case "reshape", "coerce":
		coerce := p.next() == "coerce"
		shape := p.atomList("[", "]")
		return &ReshapeE{Arr: p.ident(), Shape: shape, Coerce: coerce}
	case "reverse":
		p.next()
		return &ReverseE{Arr: p.ident()}
	case "screma", "gather":
		e := &ScremaE{View: p.next() == "gather"}
		e.W, e.Arrs, e.Index, e.Gens = p.header()
		p.expect("{")
		for {
			switch {
			case p.accept("scan"):
				e.Scans = append(e.Scans, p.segop())
				continue
			case p.accept("reduce"):
				e.Reds = append(e.Reds, p.segop())
				continue
			}
			break
		}
		p.word("map")
		e.Map = p.lambda()
		p.expect("}")
		return e
	case "stream":
		p.next()
		e := &StreamE{W: p.atom(), Arrs: p.nameList()}
		if p.accept("reduce") {
			e.Red = p.lambda()
		}
		p.word("fold")
		e.Fold = p.lambda()
		return e
	case "filter", "partition":
		e := &FilterE{Partition: p.next() == "partition"}
		e.W, e.Arrs, e.Index, e.Gens = p.header()
		p.word("map")
		e.Map = p.lambda()
		return e
	case "scatter", "scatter_slice", "scatter_part", "scatter_slice_part":
		kw := p.next()
		e := &ScatterE{Slice: strings.HasPrefix(kw, "scatter_slice"), Part: strings.HasSuffix(kw, "_part")}
		e.Dest = p.ident()
		e.W, e.Arrs, e.Index, e.Gens = p.header()
		p.word("map")
		e.Map = p.lambda()
		return e
	case "hist":
		p.next()
		e := &HistE{Dest: p.ident()}
		e.W, e.Arrs, e.Index, e.Gens = p.header()
		p.word("op")
		e.Op = p.segop()
		p.word("map")
		e.Map = p.lambda()
		return e
	}
	x := p.atom()
	switch t := p.peek().text; {
	case t == "[":
		if x.IsConst() {
			p.fail("cannot index a constant")
		}
		return &IndexE{Arr: x.Name, Idx: p.atomList("[", "]")}
	case t == "with":
		p.next()
		idx := p.atomList("[", "]")
		p.expect("=")
		return &UpdateE{Arr: x.Name, Idx: idx, X: p.atom()}
	case t == "min" || t == "max":
		p.next()
		return &BinOpE{Op: t, X: x, Y: p.atom()}
	default:
		if _, ok := value.LookupBinOp(t); ok {
			p.next()
			return &BinOpE{Op: t, X: x, Y: p.atom()}
		}
	}
	return &AtomE{X: x}
}
