package kernel

// Carry rewrites a loop whose body computes an operation of its
// parameters (zr * zr) that it also computes of their next values
// (the while condition of the next iteration, sum * sum): the value of
// the next values becomes a parameter of the loop, so that the next
// iteration reads it instead of computing it again (mandelbrot's loop:
// zr² and zi² once an iteration, not twice). The operation is one that
// cannot fail (+, - or * of floats or integers), so computing it where
// the body computed it for the next values, and before the loop for the
// initial values, gives the same values the loop gave, bit for bit.
//
// Only a let at the top of the body, of two parameters (or one twice),
// is carried; the next values' operation may be anywhere in the body
// (inside an if: the condition's `&&`), and is then computed at the top,
// once its operands are. The initial values must be constants (isConst
// says why). Carry returns l where nothing is carried.
func Carry(l *Loop) *Loop {
	out := l
	for {
		nl, ok := carryOne(out)
		if !ok {
			return out
		}
		out = nl
	}
}

func carryOne(l *Loop) (*Loop, bool) {
	if len(l.Init) != len(l.Params) || len(l.Next) != len(l.Params) {
		return nil, false
	}
	param := map[string]int{}
	for i, p := range l.Params {
		param[p.Name] = i
	}
	// where each top-level let of the body is
	defAt := map[string]int{}
	for k, s := range l.Body {
		if s, ok := s.(*Let); ok {
			defAt[s.V.Name] = k
		}
	}
	for k, s := range l.Body {
		let, ok := s.(*Let)
		if !ok {
			continue
		}
		b, ok := let.E.(BinOp)
		if !ok || !carriable(b) {
			continue
		}
		x, okx := b.X.(Var)
		y, oky := b.Y.(Var)
		if !okx || !oky {
			continue
		}
		i, oki := param[x.Name]
		j, okj := param[y.Name]
		if !oki || !okj || !isConst(l.Init[i]) || !isConst(l.Init[j]) {
			continue
		}
		nx, okx := l.Next[i].(Var)
		ny, oky := l.Next[j].(Var)
		if !okx || !oky {
			continue
		}
		px, inx := defAt[nx.Name]
		py, iny := defAt[ny.Name]
		if !inx || !iny {
			continue // a parameter, or a value of an if's
		}
		at := max(px, py) + 1
		want := BinOp{Op: b.Op, X: nx, Y: ny}
		if !findLet(l.Body[at:], want) {
			continue // nothing to save
		}
		c := Var{Name: let.V.Name + "_carried", T: let.V.T}
		cn := Var{Name: let.V.Name + "_next", T: let.V.T}
		nl := *l
		nl.Params = append(append([]Var(nil), l.Params...), c)
		nl.Init = append(append([]Exp(nil), l.Init...), BinOp{Op: b.Op, X: l.Init[i], Y: l.Init[j]})
		nl.Next = append(append([]Exp(nil), l.Next...), cn)
		var body []Stmt
		for m, s := range l.Body {
			if m == at {
				body = append(body, &Let{V: cn, E: want})
			}
			switch {
			case m == k:
				body = append(body, &Let{V: let.V, E: c, Site: let.Site})
			case m >= at:
				body = append(body, replaceLet(s, want, cn))
			default:
				body = append(body, s)
			}
		}
		if at == len(l.Body) {
			body = append(body, &Let{V: cn, E: want})
		}
		nl.Body = body
		return &nl, true
	}
	return nil, false
}

// carriable: an operation that cannot fail and gives the same value
// wherever it is computed.
func carriable(b BinOp) bool {
	switch b.Op {
	case "+", "-", "*":
	default:
		return false
	}
	t := b.X.Type()
	return t == b.Y.Type() && t != Bool
}

// isConst: a carried operand's initial value must be a constant. With a
// variable, the carried value's first value is an operation of variables
// (c0re * c0re) as its next value is (nzr * nzr), and NVIDIA's OpenCL
// compiler (H100, driver of 2026-11) folds the two into one operation of
// a new phi of the operands, which it then confused with the loop
// parameter that has the same initial value: Futhark's
// rosettacode/mandelbrot.fut (loop (c, i) = (c0, 0) … c0 + c²) added c²
// to the current c instead of c0, and 12 escape steps became 100; the
// same source without the carry, or with c0 read from a volatile copy,
// or built with -cl-opt-disable, gave the reference path's values. With
// a constant the first value folds to a constant, the phi is not folded,
// and the carry is what saves mandelbrot's second squaring (0.452 →
// 0.377 ms on an H100).
func isConst(e Exp) bool {
	_, ok := e.(Const)
	return ok
}

// sameOp reports whether e computes want: the same operation of the
// same variables (of + and * also in the other order).
func sameOp(e Exp, want BinOp) bool {
	b, ok := e.(BinOp)
	if !ok || b.Op != want.Op {
		return false
	}
	x, okx := b.X.(Var)
	y, oky := b.Y.(Var)
	if !okx || !oky {
		return false
	}
	wx, wy := want.X.(Var), want.Y.(Var)
	if x == wx && y == wy {
		return true
	}
	return (b.Op == "+" || b.Op == "*") && x == wy && y == wx
}

func findLet(ss []Stmt, want BinOp) bool {
	for _, s := range ss {
		switch s := s.(type) {
		case *Let:
			if sameOp(s.E, want) {
				return true
			}
		case *If:
			if findLet(s.Then, want) || findLet(s.Else, want) {
				return true
			}
		}
	}
	return false
}

// replaceLet is s with each let (inside ifs too, not loops) that
// computes want reading v instead.
func replaceLet(s Stmt, want BinOp, v Var) Stmt {
	switch s := s.(type) {
	case *Let:
		if sameOp(s.E, want) {
			return &Let{V: s.V, E: v, Site: s.Site}
		}
	case *If:
		n := *s
		n.Then = make([]Stmt, len(s.Then))
		for i, t := range s.Then {
			n.Then[i] = replaceLet(t, want, v)
		}
		n.Else = make([]Stmt, len(s.Else))
		for i, t := range s.Else {
			n.Else[i] = replaceLet(t, want, v)
		}
		return &n
	}
	return s
}
