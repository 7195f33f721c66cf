package kernel

import (
	"fmt"
	"strings"
)

// String prints the kernel in a readable text form (for :ir).
func (k *Kernel) String() string {
	var p printer
	var ps []string
	for _, prm := range k.Params {
		if prm.Buffer {
			dims := ""
			for _, d := range prm.Shape {
				dims += "[" + ExpString(d) + "]"
			}
			ps = append(ps, fmt.Sprintf("%s: %s%v", prm.Name, dims, prm.T))
		} else {
			ps = append(ps, fmt.Sprintf("%s: %v", prm.Name, prm.T))
		}
	}
	p.line("kernel %s(%s)", k.Name, strings.Join(ps, ", "))
	switch s := k.Shape.(type) {
	case *Map:
		var ix []string
		for i, v := range s.Idx {
			if i < len(s.Dims) {
				ix = append(ix, fmt.Sprintf("%s < %s", v.Name, ExpString(s.Dims[i])))
			}
		}
		p.line("map (%s) {", strings.Join(ix, ", "))
		p.body(s.Body)
		p.line("}")
	case *Reduce:
		segs := ""
		if s.Segments != nil {
			segs = fmt.Sprintf("%s < %s, ", s.Seg.Name, ExpString(s.Segments))
		}
		comm := ""
		if s.Comm {
			comm = "_comm"
		}
		p.line("reduce%s (%s%s < %s) {", comm, segs, s.I.Name, ExpString(s.N))
		p.body(s.Body)
		p.line("  yield %s", exps(s.Elems))
		p.line("} with %s from %s into %s", lambdaString(s.Op), exps(s.Neutral), params(s.Out))
	case *Tiled:
		var ix []string
		for i, v := range s.Idx {
			if i < len(s.Dims) {
				ix = append(ix, fmt.Sprintf("%s < %s", v.Name, ExpString(s.Dims[i])))
			}
		}
		p.line("tiled (%s) fold (%s < %s) tiling %s {", strings.Join(ix, ", "), s.T.Name, ExpString(s.K), params(s.Tiles))
		p.body(s.Body)
		p.line("  yield %s", exps(s.Elems))
		if s.PostRes != nil {
			p.line("} with %s from %s then \\(%s) -> {", lambdaString(s.Op), exps(s.Neutral), vars(s.PostIn))
			p.body(s.Post)
			p.line("  yield %s", exps(s.PostRes))
			p.line("} into %s", params(s.Out))
		} else {
			p.line("} with %s from %s into %s", lambdaString(s.Op), exps(s.Neutral), params(s.Out))
		}
	case *Scan:
		p.line("scan (%s < %s) {", s.I.Name, ExpString(s.N))
		p.body(s.Body)
		p.line("  yield %s", exps(s.Elems))
		if k := s.Keep; k != nil {
			p.line("} with %s from %s keeping %s into %s counted in %s", lambdaString(s.Op), exps(s.Neutral), exps(k.Vals), params(k.Dest), k.Count.Name)
		} else {
			p.line("} with %s from %s into %s", lambdaString(s.Op), exps(s.Neutral), params(s.Out))
		}
	case *Scatter:
		p.line("scatter (%s < %s) {", s.I.Name, ExpString(s.N))
		p.body(s.Body)
		for k := range s.Dest {
			if k < len(s.Idx) && k < len(s.Vals) {
				p.line("  %s[%s] <- %s", s.Dest[k].Name, ExpString(s.Idx[k]), ExpString(s.Vals[k]))
			}
		}
		p.line("}")
	case *Hist:
		p.line("hist (%s < %s) {", s.I.Name, ExpString(s.N))
		p.body(s.Body)
		p.line("  %s[%s] <- %s", s.Dest.Name, ExpString(s.Bin), ExpString(s.Val))
		p.line("} with %s from %s", lambdaString(s.Op), ExpString(s.Neutral))
	}
	return p.b.String()
}

type printer struct {
	b      strings.Builder
	indent int
}

func (p *printer) line(format string, args ...any) {
	p.b.WriteString(strings.Repeat("  ", p.indent))
	fmt.Fprintf(&p.b, format, args...)
	p.b.WriteByte('\n')
}

func (p *printer) body(ss []Stmt) {
	p.indent++
	for _, s := range ss {
		p.stmt(s)
	}
	p.indent--
}

func (p *printer) stmt(s Stmt) {
	switch s := s.(type) {
	case *Let:
		p.line("let %s: %v = %s", s.V.Name, s.V.T, ExpString(s.E))
	case *Write:
		p.line("%s%s <- %s", s.Buf.Name, indices(s.Idx), ExpString(s.V))
	case *Assert:
		if len(s.Idx) > 0 {
			p.line("assert %s -- bounds %s of %s", ExpString(s.Cond), indices(s.Idx), indices(s.Shape))
		} else {
			p.line("assert %s", ExpString(s.Cond))
		}
	case *If:
		p.line("let (%s) = if %s then {", vars(s.Res), ExpString(s.Cond))
		p.body(s.Then)
		p.line("  %s", exps(s.ThenRes))
		p.line("} else {")
		p.body(s.Else)
		p.line("  %s", exps(s.ElseRes))
		p.line("}")
	case *Loop:
		var ps []string
		for i, v := range s.Params {
			if i < len(s.Init) {
				ps = append(ps, fmt.Sprintf("%s = %s", v.Name, ExpString(s.Init[i])))
			}
		}
		if s.While != nil {
			p.line("loop (%s) while %s do {", strings.Join(ps, ", "), ExpString(s.While))
		} else {
			p.line("loop (%s) for %s < %s do {", strings.Join(ps, ", "), s.I.Name, ExpString(s.N))
		}
		p.body(s.Body)
		p.line("  %s", exps(s.Next))
		p.line("}")
	}
}

func lambdaString(l Lambda) string {
	var p printer
	p.indent = 1
	for _, s := range l.Body {
		p.stmt(s)
	}
	body := ""
	if p.b.Len() > 0 {
		body = "\n" + p.b.String()
	}
	return fmt.Sprintf("\\(%s) (%s) ->%s %s", vars(l.X), vars(l.Y), body, exps(l.Res))
}

func vars(vs []Var) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = v.Name
	}
	return strings.Join(s, ", ")
}

func exps(es []Exp) string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = ExpString(e)
	}
	if len(s) == 1 {
		return s[0]
	}
	return "(" + strings.Join(s, ", ") + ")"
}

func params(ps []*Param) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.Name
	}
	return strings.Join(s, ", ")
}

func indices(es []Exp) string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = ExpString(e)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// ExpString prints an expression.
func ExpString(e Exp) string {
	switch e := e.(type) {
	case Var:
		return e.Name
	case Const:
		switch {
		case e.T == Bool:
			return fmt.Sprint(e.Bits != 0)
		case e.T.IsFloat():
			return fmt.Sprintf("%g%v", e.F, e.T)
		case e.T.IsSigned():
			return fmt.Sprintf("%d%v", e.Int64(), e.T)
		}
		return fmt.Sprintf("%d%v", uint64(e.Int64())&(^uint64(0)>>(64-e.T.Bits())), e.T)
	case BinOp:
		if e.Op == "min" || e.Op == "max" {
			return fmt.Sprintf("%s(%s, %s)", e.Op, ExpString(e.X), ExpString(e.Y))
		}
		return fmt.Sprintf("(%s %s %s)", ExpString(e.X), e.Op, ExpString(e.Y))
	case UnOp:
		return fmt.Sprintf("%s(%s)", e.Op, ExpString(e.X))
	case Conv:
		return fmt.Sprintf("%v(%s)", e.To, ExpString(e.X))
	case Call:
		s := make([]string, len(e.Args))
		for i, a := range e.Args {
			s[i] = ExpString(a)
		}
		return fmt.Sprintf("%s(%s)", e.Fn, strings.Join(s, ", "))
	case Select:
		return fmt.Sprintf("(%s ? %s : %s)", ExpString(e.C), ExpString(e.T), ExpString(e.F))
	case Read:
		return e.Buf.Name + indices(e.Idx)
	case nil:
		return "<nil>"
	}
	return fmt.Sprintf("%v", e)
}
