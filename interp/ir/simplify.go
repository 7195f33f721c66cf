package ir

import "fut/eval/value"

// Simplify folds constants, propagates copies, removes common
// subexpressions and dead code, and hoists loop- and lambda-invariant
// scalar code out of loops and SOAC lambdas. It repeats until nothing
// changes (or a few rounds).
func Simplify(p *Prog) (*Prog, error) {
	q := p.copyWith(subst{})
	prev := q.String()
	for round := 0; round < 8; round++ {
		s := &simplifier{sub: subst{}, consumed: consumedIn(q.Body), shapes: map[string][]Atom{}}
		for _, prm := range q.Params {
			s.shapes[prm.Name] = prm.T.Shape
		}
		q.Body = s.body(q.Body, map[string][]Atom{})
		q.Ret = s.sub.types(q.Ret)
		q.Body = dce(q.Body)
		q.Body = hoistBody(q.Body, s.consumed)
		text := q.String()
		if text == prev {
			break
		}
		prev = text
	}
	return q, nil
}

type simplifier struct {
	sub      subst
	consumed map[string]bool // arrays some statement consumes
	// shapes are the shapes of the arrays bound so far (of the program's
	// parameters and the statements kept), for views that change none.
	shapes map[string][]Atom
}

// consumedIn lists the arrays that statements in b (nested ones too) consume.
func consumedIn(b *Body) map[string]bool {
	out := map[string]bool{}
	var body func(b *Body)
	body = func(b *Body) {
		for _, st := range b.Stms {
			if n := consumes(st.E); n != "" {
				out[n] = true
			}
			switch e := st.E.(type) {
			case *IfE:
				body(e.Then)
				body(e.Else)
			case *LoopE:
				body(e.Body)
			case *ScremaE:
				body(e.Map.Body)
			case *ScatterE:
				body(e.Map.Body)
			case *HistE:
				body(e.Map.Body)
			case *FilterE:
				body(e.Map.Body)
			case *StreamE:
				body(e.Fold.Body)
			}
		}
	}
	body(b)
	return out
}

// identityMap sees a Screma that only copies (some of) its inputs: its
// outputs may be replaced by the inputs unless something consumes them.
func (s *simplifier) identityMap(pat []Param, e Exp) ([]Atom, bool) {
	m, ok := e.(*ScremaE)
	if !ok || len(m.Scans) > 0 || len(m.Reds) > 0 || m.Gens > 0 || len(m.Map.Body.Stms) > 0 {
		return nil, false
	}
	arrOf := map[string]string{}
	for k, p := range m.Map.Params {
		arrOf[p.Name] = m.Arrs[k]
	}
	var out []Atom
	for k, r := range m.Map.Body.Res {
		a, ok := arrOf[r.Name]
		if !ok || s.consumed[pat[k].Name] || s.consumed[a] {
			return nil, false
		}
		out = append(out, V(a))
	}
	return out, true
}

// body simplifies b; cse maps an expression's text to the atoms that
// already hold its value (inherited by nested bodies, never passed out).
func (s *simplifier) body(b *Body, cse map[string][]Atom) *Body {
	out := &Body{}
	for _, st := range b.Stms {
		e := s.sub.exp(st.E)
		pat := s.sub.params(st.Pat)
		e = s.nested(e, cse)
		if a, ok := s.fold(e); ok {
			s.sub[pat[0].Name] = a
			continue
		}
		if as, ok := s.identityMap(pat, e); ok {
			for i, p := range pat {
				s.sub[p.Name] = as[i]
			}
			continue
		}
		if r, ok := e.(*ReshapeE); ok && !s.consumed[pat[0].Name] && !s.consumed[r.Arr] {
			// a reshape to the shape the array has (a coercion whose
			// sizes folded to the array's own) is the array
			if sh, ok := s.shapes[r.Arr]; ok && sameAtoms(sh, r.Shape) {
				s.sub[pat[0].Name] = V(r.Arr)
				continue
			}
		}
		if ie, ok := e.(*IfE); ok && ie.Cond.IsConst() {
			br := ie.Else
			if ie.Cond.Val.Bool() {
				br = ie.Then
			}
			out.Stms = append(out.Stms, br.Stms...)
			for i, p := range pat {
				s.sub[p.Name] = br.Res[i]
			}
			continue
		}
		if key, ok := cseKey(e); ok {
			if prev, ok := cse[key]; ok {
				for i, p := range pat {
					s.sub[p.Name] = prev[i]
				}
				continue
			}
			var as []Atom
			for _, p := range pat {
				as = append(as, V(p.Name))
			}
			cse[key] = as
		}
		out.Stms = append(out.Stms, &Stm{Pat: pat, E: e, Where: st.Where, Hoisted: st.Hoisted})
		for _, p := range pat {
			s.shapes[p.Name] = p.T.Shape
		}
	}
	out.Res = s.sub.atoms(b.Res)
	return out
}

func sameAtoms(a, b []Atom) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func copyCSE(m map[string][]Atom) map[string][]Atom {
	out := make(map[string][]Atom, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// nested simplifies the bodies inside e.
func (s *simplifier) nested(e Exp, cse map[string][]Atom) Exp {
	lam := func(l *Lambda) *Lambda {
		return &Lambda{Params: l.Params, Ret: s.sub.types(l.Ret), Body: s.body(l.Body, copyCSE(cse))}
	}
	switch e := e.(type) {
	case *IfE:
		e.Then = s.body(e.Then, copyCSE(cse))
		e.Else = s.body(e.Else, copyCSE(cse))
		e.Ret = s.sub.types(e.Ret)
	case *LoopE:
		if e.While != nil {
			e.While = s.body(e.While, copyCSE(cse))
		}
		e.Body = s.body(e.Body, copyCSE(cse))
	case *ScremaE:
		for _, op := range append(append([]*SegOp{}, e.Scans...), e.Reds...) {
			op.Lam = lam(op.Lam)
		}
		e.Map = lam(e.Map)
	case *ScatterE:
		e.Map = lam(e.Map)
	case *FilterE:
		e.Map = lam(e.Map)
	case *HistE:
		e.Op.Lam = lam(e.Op.Lam)
		e.Map = lam(e.Map)
	case *StreamE:
		if e.Red != nil {
			e.Red = lam(e.Red)
		}
		e.Fold = lam(e.Fold)
	}
	return e
}

// fold evaluates a scalar operation on constants, or sees a copy.
func (s *simplifier) fold(e Exp) (Atom, bool) {
	switch e := e.(type) {
	case *AtomE:
		return e.X, true
	case *BinOpE:
		if e.X.IsConst() && e.Y.IsConst() {
			if r, err := BinOp(e.Op, e.X.Val, e.Y.Val); err == nil {
				return C(r), true
			}
		}
	case *UnOpE:
		args := make([]value.Prim, len(e.Args))
		for i, a := range e.Args {
			if !a.IsConst() {
				return Atom{}, false
			}
			args[i] = a.Val
		}
		if r, err := unop(e.Op, args); err == nil {
			return C(r), true
		}
	case *AssertE:
		if e.Cond.IsConst() && e.Cond.Val.Bool() {
			return e.Cond, true
		}
	case *ConvE:
		if e.X.IsConst() {
			return C(value.Convert(e.X.Val, e.To)), true
		}
	}
	return Atom{}, false
}

// cseKey is the text of an expression whose result may be shared: scalar
// operations and reads (never a fresh array, which might be consumed).
func cseKey(e Exp) (string, bool) {
	switch e.(type) {
	case *BinOpE, *UnOpE, *ConvE, *IndexE:
		var pr printer
		pr.exp(e)
		return pr.b.String(), true
	}
	return "", false
}

// dce removes statements whose results nobody uses, and the mapped outputs
// of a Screma that nobody uses.
func dce(b *Body) *Body {
	live := map[string]bool{}
	for _, a := range b.Res {
		live[a.Name] = true
	}
	var kept []*Stm
	for i := len(b.Stms) - 1; i >= 0; i-- {
		st := b.Stms[i]
		used := false
		for _, p := range st.Pat {
			used = used || live[p.Name]
		}
		// A statement that can fail stays, used or not: the reference
		// path fails there, and so must the plan (an index out of bounds
		// in a tuple component nobody reads still fails).
		if !used && !canFail(st.E) {
			continue
		}
		if s, ok := st.E.(*ScremaE); ok && used {
			st = trimScrema(st, s, live)
		}
		dceNested(st.E)
		uses(st.E, func(n string) { live[n] = true })
		for _, p := range st.Pat {
			for _, d := range p.T.Shape {
				live[d.Name] = true
			}
		}
		kept = append(kept, st)
	}
	for i, j := 0, len(kept)-1; i < j; i, j = i+1, j-1 {
		kept[i], kept[j] = kept[j], kept[i]
	}
	return &Body{Stms: kept, Res: b.Res}
}

func trimScrema(st *Stm, s *ScremaE, live map[string]bool) *Stm {
	k := 0
	for _, op := range s.Scans {
		k += op.Arity()
	}
	for _, op := range s.Reds {
		k += op.Arity()
	}
	pat := append([]Param{}, st.Pat[:k]...)
	lam := &Lambda{Params: s.Map.Params, Ret: append([]Type{}, s.Map.Ret[:k]...),
		Body: &Body{Stms: s.Map.Body.Stms, Res: append([]Atom{}, s.Map.Body.Res[:k]...)}}
	for i := k; i < len(st.Pat); i++ {
		if live[st.Pat[i].Name] {
			pat = append(pat, st.Pat[i])
			lam.Ret = append(lam.Ret, s.Map.Ret[i])
			lam.Body.Res = append(lam.Body.Res, s.Map.Body.Res[i])
		}
	}
	ns := *s
	ns.Map = lam
	return &Stm{Pat: pat, E: &ns}
}

func dceNested(e Exp) {
	lam := func(l *Lambda) { l.Body = dce(l.Body) }
	switch e := e.(type) {
	case *IfE:
		e.Then = dce(e.Then)
		e.Else = dce(e.Else)
	case *LoopE:
		if e.While != nil {
			e.While = dce(e.While)
		}
		e.Body = dce(e.Body)
	case *ScremaE:
		for _, op := range append(append([]*SegOp{}, e.Scans...), e.Reds...) {
			lam(op.Lam)
		}
		lam(e.Map)
	case *ScatterE:
		lam(e.Map)
	case *FilterE:
		lam(e.Map)
	case *HistE:
		lam(e.Op.Lam)
		lam(e.Map)
	case *StreamE:
		if e.Red != nil {
			lam(e.Red)
		}
		lam(e.Fold)
	}
}

// hoistBody moves invariant scalar statements out of the loops and SOAC
// lambdas in b, to just before the statement that holds them.
func hoistBody(b *Body, consumed map[string]bool) *Body {
	out := &Body{Res: b.Res}
	for _, st := range b.Stms {
		var inner []*Body
		var bound []string
		switch e := st.E.(type) {
		case *LoopE:
			inner = []*Body{e.Body}
			if e.While != nil {
				inner = append(inner, e.While)
			}
			bound = append(bound, e.I)
			for _, p := range e.Elems {
				bound = append(bound, p.Name)
			}
			for _, p := range e.Params {
				bound = append(bound, p.Name)
			}
		case *ScremaE:
			inner = []*Body{e.Map.Body}
			bound = append(bound, e.Index)
			for _, p := range e.Map.Params {
				bound = append(bound, p.Name)
			}
		case *ScatterE:
			inner = []*Body{e.Map.Body}
			bound = append(bound, e.Index)
			for _, p := range e.Map.Params {
				bound = append(bound, p.Name)
			}
		case *HistE:
			inner = []*Body{e.Map.Body}
			bound = append(bound, e.Index)
			for _, p := range e.Map.Params {
				bound = append(bound, p.Name)
			}
		case *FilterE:
			inner = []*Body{e.Map.Body}
			bound = append(bound, e.Index)
			for _, p := range e.Map.Params {
				bound = append(bound, p.Name)
			}
		case *StreamE:
			inner = []*Body{e.Fold.Body}
			for _, p := range e.Fold.Params {
				bound = append(bound, p.Name)
			}
		case *IfE:
			e.Then = hoistBody(e.Then, consumed)
			e.Else = hoistBody(e.Else, consumed)
		}
		for _, ib := range inner {
			h := hoistBody(ib, consumed)
			local := map[string]bool{}
			for _, n := range bound {
				local[n] = true
			}
			var stay []*Stm
			for _, s := range h.Stms {
				if hoistable(s.E) && !dependsOn(s.E, local) && !consumed[s.Pat[0].Name] {
					s.Hoisted = true
					out.Stms = append(out.Stms, s)
					continue
				}
				stay = append(stay, s)
				for _, p := range s.Pat {
					local[p.Name] = true
				}
			}
			*ib = Body{Stms: stay, Res: h.Res}
		}
		out.Stms = append(out.Stms, st)
	}
	return out
}

func dependsOn(e Exp, local map[string]bool) bool {
	for n := range freeVars(e) {
		if local[n] {
			return true
		}
	}
	return false
}

// hoistable: operations that cannot fail (so that running them once
// outside, even for zero iterations, changes no outcome): scalar
// operations and transpose (a view in the source, never consumed).
func hoistable(e Exp) bool {
	switch e := e.(type) {
	case *BinOpE:
		if e.X.IsConst() && e.Y.IsConst() {
			return false
		}
		switch e.Op {
		case "/", "%", "//", "%%", "**":
			// integer division and power can fail; floats cannot
			return isFloatAtom(e.X) || isFloatAtom(e.Y)
		}
		return true
	case *UnOpE, *ConvE, *TransposeE:
		return true
	}
	return false
}

func isFloatAtom(a Atom) bool { return a.IsConst() && a.Val.T.IsFloat() }

// canFail reports whether evaluating e can fail: a check, an index, an
// update or a view that is checked, a size that may be negative, integer
// division or power, or any of those inside e's bodies.
func canFail(e Exp) bool {
	body := func(b *Body) bool {
		for _, st := range b.Stms {
			if canFail(st.E) {
				return true
			}
		}
		return false
	}
	lam := func(l *Lambda) bool { return l != nil && body(l.Body) }
	size := func(n Atom) bool { return !n.IsConst() || n.Val.AsInt64() < 0 }
	switch e := e.(type) {
	case *AssertE, *IndexE, *UpdateE, *SliceE, *ReshapeE, *ConcatE:
		return true
	case *IotaE:
		return size(e.N)
	case *ReplicateE:
		return size(e.N)
	case *BinOpE:
		switch e.Op {
		case "/", "%", "//", "%%":
			if isFloatAtom(e.X) || isFloatAtom(e.Y) {
				return false
			}
			return !e.Y.IsConst() || e.Y.Val.B == 0
		case "**":
			if isFloatAtom(e.X) || isFloatAtom(e.Y) {
				return false
			}
			return !e.Y.IsConst() || e.Y.Val.AsInt64() < 0
		}
		return false
	case *IfE:
		return body(e.Then) || body(e.Else)
	case *LoopE:
		return (e.While != nil && body(e.While)) || body(e.Body)
	case *ScremaE:
		for _, op := range append(append([]*SegOp{}, e.Scans...), e.Reds...) {
			if lam(op.Lam) {
				return true
			}
		}
		return lam(e.Map)
	case *ScatterE:
		return lam(e.Map)
	case *FilterE:
		return lam(e.Map)
	case *HistE:
		return lam(e.Op.Lam) || lam(e.Map)
	case *StreamE:
		return lam(e.Red) || lam(e.Fold)
	}
	return false
}
