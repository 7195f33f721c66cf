package kernel

// WalkExp calls f on e and on each of its subexpressions.
func WalkExp(e Exp, f func(Exp)) {
	f(e)
	switch e := e.(type) {
	case BinOp:
		WalkExp(e.X, f)
		WalkExp(e.Y, f)
	case UnOp:
		WalkExp(e.X, f)
	case Conv:
		WalkExp(e.X, f)
	case Call:
		for _, a := range e.Args {
			WalkExp(a, f)
		}
	case Select:
		WalkExp(e.C, f)
		WalkExp(e.T, f)
		WalkExp(e.F, f)
	case Read:
		for _, i := range e.Idx {
			WalkExp(i, f)
		}
	}
}

// WalkStmts calls f on every expression of the statements ss, nested
// bodies included.
func WalkStmts(ss []Stmt, f func(Exp)) {
	for _, s := range ss {
		switch s := s.(type) {
		case *Let:
			f(s.E)
		case *Write:
			for _, i := range s.Idx {
				f(i)
			}
			f(s.V)
		case *Assert:
			f(s.Cond)
			for _, i := range s.Idx {
				f(i)
			}
			for _, d := range s.Shape {
				f(d)
			}
		case *If:
			f(s.Cond)
			WalkStmts(s.Then, f)
			WalkStmts(s.Else, f)
			for _, r := range s.ThenRes {
				f(r)
			}
			for _, r := range s.ElseRes {
				f(r)
			}
		case *Loop:
			for _, i := range s.Init {
				f(i)
			}
			if s.N != nil {
				f(s.N)
			}
			if s.While != nil {
				f(s.While)
			}
			WalkStmts(s.Body, f)
			for _, n := range s.Next {
				f(n)
			}
		}
	}
}

// TileForm says whether the read r is of a form a Tiled kernel stages
// through local memory: buf[t] (dim -1), buf[idx[d], t] (dim d, kLast) or
// buf[t, idx[d]] (dim d).
func TileForm(r Read, idx []Var, t Var) (dim int, kLast bool, ok bool) {
	isVar := func(e Exp, v Var) bool {
		w, ok := e.(Var)
		return ok && w.Name == v.Name
	}
	switch len(r.Idx) {
	case 1:
		if isVar(r.Idx[0], t) {
			return -1, false, true
		}
	case 2:
		for d, v := range idx {
			if isVar(r.Idx[0], v) && isVar(r.Idx[1], t) {
				return d, true, true
			}
			if isVar(r.Idx[0], t) && isVar(r.Idx[1], v) {
				return d, false, true
			}
		}
	}
	return 0, false, false
}

// TransposeOf reports whether a Map kernel is the transpose of a
// two-dimensional array: index space [R, C] and one statement
// out[i, j] <- in[j, i], with out of shape [R][C] and in of [C][R]. Such
// a kernel is generated as a tiled transpose (tiles staged in local
// memory, so that both the reads and the writes are coalesced) and
// launched in work-groups of TransposeGroup items, TransposeTile² points
// each.
func TransposeOf(m *Map) (out, in *Param, ok bool) {
	if len(m.Dims) != 2 || len(m.Idx) != 2 || len(m.Body) != 1 {
		return nil, nil, false
	}
	w, isW := m.Body[0].(*Write)
	isIdx := func(e Exp, v Var) bool { x, ok := e.(Var); return ok && x == v }
	if !isW || len(w.Idx) != 2 || !isIdx(w.Idx[0], m.Idx[0]) || !isIdx(w.Idx[1], m.Idx[1]) {
		return nil, nil, false
	}
	r, isR := w.V.(Read)
	if !isR || len(r.Idx) != 2 || !isIdx(r.Idx[0], m.Idx[1]) || !isIdx(r.Idx[1], m.Idx[0]) {
		return nil, nil, false
	}
	out, in = w.Buf, r.Buf
	if out == in || !out.Buffer || !in.Buffer || out.T != in.T || len(out.Shape) != 2 || len(in.Shape) != 2 {
		return nil, nil, false
	}
	same := func(a, b Exp) bool { // sizes that are variables or constants
		switch a.(type) {
		case Var, Const:
			return a == b
		}
		return false
	}
	if !same(out.Shape[0], m.Dims[0]) || !same(out.Shape[1], m.Dims[1]) || !same(in.Shape[0], m.Dims[1]) || !same(in.Shape[1], m.Dims[0]) {
		return nil, nil, false
	}
	return out, in, true
}

// TransposeTile is the side of a tiled transpose's tile; TransposeGroup
// the work items of its work-group (each moves TransposeTile² /
// TransposeGroup points).
const (
	TransposeTile  = 32
	TransposeGroup = 256
)
