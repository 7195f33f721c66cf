package ir

// Traversals shared by the passes: which names an expression uses and
// binds, and substitution of atoms for names.

// uses calls f for every name e reads, in nested bodies too (names bound
// inside e included).
func uses(e Exp, f func(string)) { walkUses(e, f, true) }

// directUses calls f for every name e reads itself, outside its nested
// bodies and lambdas: what e needs before any of them runs.
func directUses(e Exp, f func(string)) { walkUses(e, f, false) }

func walkUses(e Exp, f func(string), deep bool) {
	atom := func(a Atom) {
		if a.Name != "" {
			f(a.Name)
		}
	}
	atoms := func(as []Atom) {
		for _, a := range as {
			atom(a)
		}
	}
	typ := func(t Type) { atoms(t.Shape) }
	var body func(b *Body)
	lambda := func(l *Lambda) {
		if !deep {
			return
		}
		for _, p := range l.Params {
			typ(p.T)
		}
		for _, t := range l.Ret {
			typ(t)
		}
		body(l.Body)
	}
	body = func(b *Body) {
		if !deep {
			return
		}
		for _, st := range b.Stms {
			for _, p := range st.Pat {
				typ(p.T)
			}
			uses(st.E, f)
		}
		atoms(b.Res)
	}
	segops := func(ops []*SegOp) {
		for _, op := range ops {
			lambda(op.Lam)
			atoms(op.Nes)
		}
	}
	switch e := e.(type) {
	case *AtomE:
		atom(e.X)
	case *BinOpE:
		atom(e.X)
		atom(e.Y)
	case *UnOpE:
		atoms(e.Args)
	case *ConvE:
		atom(e.X)
	case *AssertE:
		atom(e.Cond)
	case *IfE:
		atom(e.Cond)
		body(e.Then)
		body(e.Else)
		for _, t := range e.Ret {
			typ(t)
		}
	case *LoopE:
		for _, p := range e.Params {
			typ(p.T)
		}
		atoms(e.Init)
		atom(e.Bound)
		if e.While != nil {
			body(e.While)
		}
		for _, a := range e.Over {
			f(a)
		}
		for _, p := range e.Elems {
			typ(p.T)
		}
		body(e.Body)
	case *IndexE:
		f(e.Arr)
		atoms(e.Idx)
	case *UpdateE:
		f(e.Arr)
		atoms(e.Idx)
		atom(e.X)
	case *IotaE:
		atom(e.N)
		atom(e.Start)
	case *SliceE:
		f(e.Arr)
		atom(e.Start)
		atom(e.Len)
	case *ReplicateE:
		atom(e.N)
		atom(e.X)
	case *ArrayE:
		typ(e.Elem)
		atoms(e.Elems)
	case *TransposeE:
		f(e.Arr)
	case *CopyE:
		f(e.Arr)
	case *ReverseE:
		f(e.Arr)
	case *ConcatE:
		atom(e.N)
		for _, a := range e.Arrs {
			f(a)
		}
	case *ReshapeE:
		atoms(e.Shape)
		f(e.Arr)
	case *ScremaE:
		atom(e.W)
		for _, a := range e.Arrs {
			f(a)
		}
		segops(e.Scans)
		segops(e.Reds)
		lambda(e.Map)
	case *FilterE:
		atom(e.W)
		for _, a := range e.Arrs {
			f(a)
		}
		lambda(e.Map)
	case *StreamE:
		atom(e.W)
		for _, a := range e.Arrs {
			f(a)
		}
		if e.Red != nil {
			lambda(e.Red)
		}
		lambda(e.Fold)
	case *ScatterE:
		f(e.Dest)
		atom(e.W)
		for _, a := range e.Arrs {
			f(a)
		}
		lambda(e.Map)
	case *HistE:
		f(e.Dest)
		atom(e.W)
		for _, a := range e.Arrs {
			f(a)
		}
		segops([]*SegOp{e.Op})
		lambda(e.Map)
	}
}

// binds calls f for every name bound inside e.
func binds(e Exp, f func(string)) {
	var body func(b *Body)
	lambda := func(l *Lambda) {
		for _, p := range l.Params {
			f(p.Name)
		}
		body(l.Body)
	}
	body = func(b *Body) {
		for _, st := range b.Stms {
			for _, p := range st.Pat {
				f(p.Name)
			}
			binds(st.E, f)
		}
	}
	switch e := e.(type) {
	case *IfE:
		body(e.Then)
		body(e.Else)
	case *LoopE:
		for _, p := range e.Elems {
			f(p.Name)
		}
		if e.While == nil {
			f(e.I)
		} else {
			body(e.While)
		}
		for _, p := range e.Params {
			f(p.Name)
		}
		body(e.Body)
	case *ScremaE:
		if e.Index != "" {
			f(e.Index)
		}
		for _, op := range append(append([]*SegOp{}, e.Scans...), e.Reds...) {
			lambda(op.Lam)
		}
		lambda(e.Map)
	case *StreamE:
		if e.Red != nil {
			lambda(e.Red)
		}
		lambda(e.Fold)
	case *FilterE:
		if e.Index != "" {
			f(e.Index)
		}
		lambda(e.Map)
	case *ScatterE:
		if e.Index != "" {
			f(e.Index)
		}
		lambda(e.Map)
	case *HistE:
		if e.Index != "" {
			f(e.Index)
		}
		lambda(e.Op.Lam)
		lambda(e.Map)
	}
}

// freeVars is the set of names e uses but does not bind.
func freeVars(e Exp) map[string]bool {
	used := map[string]bool{}
	uses(e, func(n string) { used[n] = true })
	binds(e, func(n string) { delete(used, n) })
	return used
}

// subst is a substitution of atoms for names.
type subst map[string]Atom

func (s subst) atom(a Atom) Atom {
	for i := 0; a.Name != "" && i < 100; i++ {
		b, ok := s[a.Name]
		if !ok {
			break
		}
		a = b
	}
	return a
}

func (s subst) atoms(as []Atom) []Atom {
	out := make([]Atom, len(as))
	for i, a := range as {
		out[i] = s.atom(a)
	}
	return out
}

func (s subst) name(n string) string {
	if a := s.atom(V(n)); a.Name != "" {
		return a.Name
	}
	return n
}

func (s subst) names(ns []string) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = s.name(n)
	}
	return out
}

func (s subst) typ(t Type) Type {
	return Type{Elem: t.Elem, Shape: s.atoms(t.Shape), Unique: t.Unique}
}

func (s subst) params(ps []Param) []Param {
	out := make([]Param, len(ps))
	for i, p := range ps {
		out[i] = Param{p.Name, s.typ(p.T)}
	}
	return out
}

func (s subst) types(ts []Type) []Type {
	out := make([]Type, len(ts))
	for i, t := range ts {
		out[i] = s.typ(t)
	}
	return out
}

// body returns a copy of b with s applied.
func (s subst) body(b *Body) *Body {
	out := &Body{Res: s.atoms(b.Res)}
	for _, st := range b.Stms {
		out.Stms = append(out.Stms, &Stm{Pat: s.params(st.Pat), E: s.exp(st.E), Where: st.Where, Hoisted: st.Hoisted})
	}
	return out
}

func (s subst) lambda(l *Lambda) *Lambda {
	return &Lambda{Params: s.params(l.Params), Ret: s.types(l.Ret), Body: s.body(l.Body)}
}

func (s subst) segops(ops []*SegOp) []*SegOp {
	var out []*SegOp
	for _, op := range ops {
		out = append(out, &SegOp{Lam: s.lambda(op.Lam), Nes: s.atoms(op.Nes)})
	}
	return out
}

// exp returns a copy of e with s applied (nested bodies copied too).
func (s subst) exp(e Exp) Exp {
	switch e := e.(type) {
	case *AtomE:
		return &AtomE{s.atom(e.X)}
	case *BinOpE:
		return &BinOpE{e.Op, s.atom(e.X), s.atom(e.Y), e.Implicit}
	case *UnOpE:
		return &UnOpE{e.Op, s.atoms(e.Args)}
	case *ConvE:
		return &ConvE{e.To, s.atom(e.X), e.Implicit}
	case *AssertE:
		return &AssertE{s.atom(e.Cond), e.Msg, e.Where, e.Approx}
	case *IfE:
		return &IfE{s.atom(e.Cond), s.body(e.Then), s.body(e.Else), s.types(e.Ret), e.Implicit}
	case *LoopE:
		l := &LoopE{s.params(e.Params), s.atoms(e.Init), e.I, s.atom(e.Bound), nil, s.body(e.Body), s.params(e.Elems), s.names(e.Over)}
		if e.While != nil {
			l.While = s.body(e.While)
		}
		return l
	case *SliceE:
		return &SliceE{s.name(e.Arr), s.atom(e.Start), s.atom(e.Len)}
	case *IndexE:
		return &IndexE{s.name(e.Arr), s.atoms(e.Idx), e.Implicit}
	case *UpdateE:
		return &UpdateE{s.name(e.Arr), s.atoms(e.Idx), s.atom(e.X)}
	case *IotaE:
		return &IotaE{s.atom(e.N), s.atom(e.Start)}
	case *ReplicateE:
		return &ReplicateE{s.atom(e.N), s.atom(e.X)}
	case *ArrayE:
		return &ArrayE{s.typ(e.Elem), s.atoms(e.Elems)}
	case *TransposeE:
		return &TransposeE{s.name(e.Arr)}
	case *CopyE:
		return &CopyE{s.name(e.Arr), e.Part}
	case *ReverseE:
		return &ReverseE{s.name(e.Arr)}
	case *ConcatE:
		return &ConcatE{s.atom(e.N), s.names(e.Arrs)}
	case *ReshapeE:
		return &ReshapeE{s.name(e.Arr), s.atoms(e.Shape), e.Coerce}
	case *ScremaE:
		return &ScremaE{W: s.atom(e.W), Arrs: s.names(e.Arrs), Index: e.Index, Gens: e.Gens,
			Scans: s.segops(e.Scans), Reds: s.segops(e.Reds), Map: s.lambda(e.Map), View: e.View}
	case *FilterE:
		return &FilterE{W: s.atom(e.W), Arrs: s.names(e.Arrs), Index: e.Index, Gens: e.Gens, Map: s.lambda(e.Map), Partition: e.Partition}
	case *StreamE:
		out := &StreamE{W: s.atom(e.W), Arrs: s.names(e.Arrs), Fold: s.lambda(e.Fold)}
		if e.Red != nil {
			out.Red = s.lambda(e.Red)
		}
		return out
	case *ScatterE:
		return &ScatterE{Dest: s.name(e.Dest), W: s.atom(e.W), Arrs: s.names(e.Arrs), Index: e.Index, Gens: e.Gens, Map: s.lambda(e.Map), Slice: e.Slice, Part: e.Part}
	case *HistE:
		return &HistE{Dest: s.name(e.Dest), W: s.atom(e.W), Arrs: s.names(e.Arrs), Index: e.Index, Gens: e.Gens,
			Op: s.segops([]*SegOp{e.Op})[0], Map: s.lambda(e.Map)}
	}
	panic("subst: unknown expression")
}

func (p *Prog) copyWith(s subst) *Prog {
	return &Prog{Params: s.params(p.Params), Ret: s.types(p.Ret), Body: s.body(p.Body)}
}

// AllTypes gives the type of every name bound in p (lambda and loop
// parameters included).
func AllTypes(p *Prog) map[string]Type {
	out := map[string]Type{}
	add := func(ps []Param) {
		for _, q := range ps {
			out[q.Name] = q.T
		}
	}
	add(p.Params)
	var body func(b *Body)
	lambda := func(l *Lambda) {
		add(l.Params)
		body(l.Body)
	}
	body = func(b *Body) {
		for _, st := range b.Stms {
			add(st.Pat)
			switch e := st.E.(type) {
			case *IfE:
				body(e.Then)
				body(e.Else)
			case *LoopE:
				add(e.Params)
				add(e.Elems)
				if e.While != nil {
					body(e.While)
				}
				body(e.Body)
			case *ScremaE:
				for _, op := range append(append([]*SegOp{}, e.Scans...), e.Reds...) {
					lambda(op.Lam)
				}
				lambda(e.Map)
			case *ScatterE:
				lambda(e.Map)
			case *FilterE:
				lambda(e.Map)
			case *HistE:
				lambda(e.Op.Lam)
				lambda(e.Map)
			case *StreamE:
				if e.Red != nil {
					lambda(e.Red)
				}
				lambda(e.Fold)
			}
		}
	}
	body(p.Body)
	return out
}

// Uses calls f for every name e reads, in nested bodies too (names bound
// inside e included): a superset of e's free variables, for clients that
// need a conservative liveness test.
func Uses(e Exp, f func(string)) { uses(e, f) }
