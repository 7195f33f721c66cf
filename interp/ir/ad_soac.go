package ir

import "fut/eval/value"

// The forward-mode rules for control flow and SOACs (see ad.go).

// lamJ is a lambda after differentiation: its parameters (the original
// ones, then tangents for those that have them), its statements, its
// results and their tangents (the zero Atom for a result without one).
type lamJ struct {
	params []Param
	stms   []*Stm
	res    []Atom
	dres   []Atom
}

// lam differentiates l; withTan says which parameters get a tangent
// parameter (the others have the zero tangent).
func (j *jvper) lam(l *Lambda, withTan []bool) lamJ {
	out := lamJ{params: append([]Param{}, l.Params...)}
	for i, p := range l.Params {
		j.typ[p.Name] = p.T
		if withTan[i] && diff(p.T) {
			dp := Param{j.fresh("d_" + p.Name), p.T}
			out.params = append(out.params, dp)
			j.tan[p.Name] = V(dp.Name)
		}
	}
	saved := j.out
	j.out = nil
	for _, st := range l.Body.Stms {
		j.stm(st)
	}
	out.res = l.Body.Res
	for i, a := range l.Body.Res {
		if diff(l.Ret[i]) {
			out.dres = append(out.dres, j.tanOf(a, l.Ret[i]))
		} else {
			out.dres = append(out.dres, Atom{})
		}
	}
	out.stms = j.out
	j.out = saved
	return out
}

// tanInputs gives, for arrays arrs (the inputs of a SOAC), the tangent
// arrays to add as inputs and which of the lambda's parameters get them.
func (j *jvper) tanInputs(arrs []string) (extra []string, with []bool) {
	with = make([]bool, len(arrs))
	for i, a := range arrs {
		if j.hasTan(V(a)) {
			extra = append(extra, j.tan[a].Name)
			with[i] = true
		}
	}
	return
}

// bindTans binds tangent names for the differentiable results of pat
// and returns the parameters to append to the pattern.
func (j *jvper) bindTans(pat []Param) []Param {
	var out []Param
	for _, p := range pat {
		if diff(p.T) {
			dp := Param{j.fresh("d_" + p.Name), p.T}
			out = append(out, dp)
			j.tan[p.Name] = V(dp.Name)
		}
	}
	return out
}

func (j *jvper) ifStm(st *Stm, e *IfE) {
	th := j.body(e.Then, e.Ret, true)
	el := j.body(e.Else, e.Ret, true)
	ret := append(append([]Type{}, e.Ret...), tanTypes(e.Ret)...)
	pat := append(append([]Param{}, st.Pat...), j.bindTans(st.Pat)...)
	j.emit(pat, &IfE{Cond: e.Cond, Then: th, Else: el, Ret: ret, Implicit: e.Implicit})
}

func (j *jvper) loopStm(st *Stm, e *LoopE) {
	// size parameters (named in other parameters' shapes) have no tangent
	sizes := map[string]bool{}
	for _, p := range e.Params {
		for _, d := range p.T.Shape {
			sizes[d.Name] = true
		}
	}
	want := make([]bool, len(e.Params))
	var dparams []Param
	var dinit []Atom
	for i, p := range e.Params {
		j.typ[p.Name] = p.T
		if diff(p.T) && !sizes[p.Name] {
			want[i] = true
			dp := Param{j.fresh("d_" + p.Name), p.T}
			dparams = append(dparams, dp)
			dinit = append(dinit, j.tanOf(e.Init[i], sizeSubst(p.T, e.Params, e.Init)))
			j.tan[p.Name] = V(dp.Name)
		}
	}
	ne := &LoopE{Params: append(append([]Param{}, e.Params...), dparams...), Init: append(append([]Atom{}, e.Init...), dinit...),
		I: e.I, Bound: e.Bound, While: e.While, Elems: append([]Param{}, e.Elems...), Over: append([]string{}, e.Over...)}
	if e.I != "" {
		j.typ[e.I] = Scalar(value.I64)
	}
	for k, p := range e.Elems {
		j.typ[p.Name] = p.T
		if j.hasTan(V(e.Over[k])) && diff(p.T) {
			dp := Param{j.fresh("d_" + p.Name), p.T}
			ne.Elems = append(ne.Elems, dp)
			ne.Over = append(ne.Over, j.tan[e.Over[k]].Name)
			j.tan[p.Name] = V(dp.Name)
		}
	}
	saved := j.out
	j.out = nil
	for _, s := range e.Body.Stms {
		j.stm(s)
	}
	res := append([]Atom{}, e.Body.Res...)
	for i, a := range e.Body.Res {
		if want[i] {
			res = append(res, j.tanOf(a, sizeSubst(e.Params[i].T, e.Params, e.Body.Res)))
		}
	}
	ne.Body = &Body{Stms: j.out, Res: res}
	j.out = saved
	pat := append([]Param{}, st.Pat...)
	for i, p := range st.Pat {
		if want[i] {
			dp := Param{j.fresh("d_" + p.Name), p.T}
			pat = append(pat, dp)
			j.tan[p.Name] = V(dp.Name)
		}
	}
	j.emit(pat, ne)
}

// liftOp differentiates an associative operator of k components into one
// on (value, tangent) pairs: its parameters are x…, dx…, y…, dy… and its
// results z…, dz… (tangents for the differentiable components only).
func (j *jvper) liftOp(op *SegOp) *SegOp {
	k := len(op.Lam.Ret)
	withTan := make([]bool, 2*k)
	for i := range withTan {
		withTan[i] = true
	}
	l := j.lam(op.Lam, withTan)
	// l.params: x…, y…, then the tangents of the differentiable ones, in
	// that order; regroup them as x…, dx…, y…, dy….
	var dxs, dys []Param
	n := 0
	for i := 0; i < 2*k; i++ {
		if diff(op.Lam.Params[i].T) {
			if i < k {
				dxs = append(dxs, l.params[2*k+n])
			} else {
				dys = append(dys, l.params[2*k+n])
			}
			n++
		}
	}
	params := append(append(append(append([]Param{}, l.params[:k]...), dxs...), l.params[k:2*k]...), dys...)
	res := append([]Atom{}, l.res...)
	ret := append([]Type{}, op.Lam.Ret...)
	nes := append([]Atom{}, op.Nes...)
	for i, d := range l.dres {
		if d != (Atom{}) {
			res = append(res, d)
			ret = append(ret, op.Lam.Ret[i])
			if op.Nes != nil {
				// the neutral element's tangent: zero (an array of zeros
				// for a component that is an array)
				t := op.Lam.Ret[i]
				if t.Rank() == 0 {
					nes = append(nes, C(ZeroOf(t.Elem)))
				} else {
					nes = append(nes, j.zeroArr(t))
				}
			}
		}
	}
	return &SegOp{Lam: &Lambda{Params: params, Ret: ret, Body: &Body{Stms: l.stms, Res: res}}, Nes: nes}
}

func (j *jvper) scremaStm(st *Stm, e *ScremaE) {
	extra, with := j.tanInputs(e.Arrs)
	if e.Index != "" {
		j.typ[e.Index] = Scalar(value.I64)
	}
	m := j.lam(e.Map, with)
	var res []Atom
	var ret []Type
	var pat []Param
	var scans, reds []*SegOp
	pos := 0
	section := func(ops []*SegOp, lifted *[]*SegOp) {
		for _, op := range ops {
			k := op.Arity()
			*lifted = append(*lifted, j.liftOp(op))
			res = append(res, m.res[pos:pos+k]...)
			ret = append(ret, e.Map.Ret[pos:pos+k]...)
			pat = append(pat, st.Pat[pos:pos+k]...)
			for i := pos; i < pos+k; i++ {
				if diff(e.Map.Ret[i]) {
					res = append(res, m.dres[i])
					ret = append(ret, e.Map.Ret[i])
					dp := Param{j.fresh("d_" + st.Pat[i].Name), st.Pat[i].T}
					pat = append(pat, dp)
					j.tan[st.Pat[i].Name] = V(dp.Name)
				}
			}
			pos += k
		}
	}
	section(e.Scans, &scans)
	section(e.Reds, &reds)
	res = append(res, m.res[pos:]...)
	ret = append(ret, e.Map.Ret[pos:]...)
	pat = append(pat, st.Pat[pos:]...)
	for i := pos; i < len(m.res); i++ {
		if diff(e.Map.Ret[i]) {
			res = append(res, m.dres[i])
			ret = append(ret, e.Map.Ret[i])
			dp := Param{j.fresh("d_" + st.Pat[i].Name), st.Pat[i].T}
			pat = append(pat, dp)
			j.tan[st.Pat[i].Name] = V(dp.Name)
		}
	}
	lam := &Lambda{Params: m.params, Ret: ret, Body: &Body{Stms: m.stms, Res: res}}
	j.emit(pat, &ScremaE{W: e.W, Arrs: append(append([]string{}, e.Arrs...), extra...), Index: e.Index, Gens: e.Gens, Scans: scans, Reds: reds, Map: lam, View: e.View})
}

func (j *jvper) filterStm(st *Stm, e *FilterE) {
	extra, with := j.tanInputs(e.Arrs)
	if e.Index != "" {
		j.typ[e.Index] = Scalar(value.I64)
	}
	m := j.lam(e.Map, with)
	res := append([]Atom{}, m.res...)
	ret := append([]Type{}, e.Map.Ret...)
	pat := append([]Param{}, st.Pat...)
	j.typ[st.Pat[0].Name] = st.Pat[0].T
	for i := 1; i < len(m.res); i++ {
		if diff(e.Map.Ret[i]) {
			res = append(res, m.dres[i])
			ret = append(ret, e.Map.Ret[i])
			dp := Param{j.fresh("d_" + st.Pat[i].Name), st.Pat[i].T}
			pat = append(pat, dp)
			j.tan[st.Pat[i].Name] = V(dp.Name)
		}
	}
	lam := &Lambda{Params: m.params, Ret: ret, Body: &Body{Stms: m.stms, Res: res}}
	j.emit(pat, &FilterE{W: e.W, Arrs: append(append([]string{}, e.Arrs...), extra...), Index: e.Index, Gens: e.Gens, Map: lam})
}

func (j *jvper) scatterStm(st *Stm, e *ScatterE) {
	extra, with := j.tanInputs(e.Arrs)
	p := st.Pat[0]
	if !diff(p.T) || (!j.hasTan(V(e.Dest)) && len(extra) == 0) {
		j.emit(st.Pat, e)
		return
	}
	// the tangents go to the same indices of the destination's tangent
	dDest := j.tanOf(V(e.Dest), p.T)
	j.emit(st.Pat, e)
	if e.Index != "" {
		j.typ[e.Index] = Scalar(value.I64)
	}
	lam, idx := j.indexTanLambda(e.Map, e.Index, with)
	dp := Param{j.fresh("d_" + p.Name), p.T}
	j.emit([]Param{dp}, &ScatterE{Dest: dDest.Name, W: e.W, Arrs: append(append([]string{}, e.Arrs...), extra...), Index: idx, Gens: e.Gens, Map: lam, Slice: e.Slice, Part: e.Part})
	j.tan[p.Name] = V(dp.Name)
}

// indexTanLambda is the lambda of a scatter's or histogram's tangent: it
// gives each element's index and its value's tangent (the lambda lam
// differentiated, with the tangent inputs with), under a fresh index
// name (returned) where lam has one.
func (j *jvper) indexTanLambda(lam *Lambda, index string, with []bool) (*Lambda, string) {
	m := j.lam(freshLambda(lam, j.fresh), with)
	out := &Lambda{Params: m.params, Ret: lam.Ret, Body: &Body{Stms: m.stms, Res: []Atom{m.res[0], m.dres[1]}}}
	if index == "" {
		return out, ""
	}
	idx := j.fresh(index)
	return subst{index: V(idx)}.lambda(out), idx
}

func (j *jvper) histStm(st *Stm, e *HistE) {
	extra, with := j.tanInputs(e.Arrs)
	p := st.Pat[0]
	if !diff(p.T) || (!j.hasTan(V(e.Dest)) && len(extra) == 0) {
		j.emit(st.Pat, e)
		return
	}
	dDest := j.tanOf(V(e.Dest), p.T)
	if !isPlus(e.Op.Lam) {
		j.histLoop(st, e, dDest, extra, with)
		return
	}
	j.emit(st.Pat, e)
	if e.Index != "" {
		j.typ[e.Index] = Scalar(value.I64)
	}
	lam, idx := j.indexTanLambda(e.Map, e.Index, with)
	op := freshLambda(e.Op.Lam, j.fresh)
	dp := Param{j.fresh("d_" + p.Name), p.T}
	j.emit([]Param{dp}, &HistE{Dest: dDest.Name, W: e.W, Arrs: append(append([]string{}, e.Arrs...), extra...), Index: idx, Gens: e.Gens,
		Op: &SegOp{Lam: op, Nes: []Atom{C(ZeroOf(p.T.Elem))}}, Map: lam})
	j.tan[p.Name] = V(dp.Name)
}

// isPlus reports whether an operator is \x y -> x + y.
func isPlus(l *Lambda) bool {
	if len(l.Params) != 2 || len(l.Body.Stms) != 1 || len(l.Body.Res) != 1 {
		return false
	}
	b, ok := l.Body.Stms[0].E.(*BinOpE)
	return ok && b.Op == "+" && l.Body.Res[0] == V(l.Body.Stms[0].Pat[0].Name) &&
		(b.X == V(l.Params[0].Name) && b.Y == V(l.Params[1].Name) || b.X == V(l.Params[1].Name) && b.Y == V(l.Params[0].Name))
}

func (j *jvper) streamStm(st *Stm, e *StreamE) {
	extra, with := j.tanInputs(e.Arrs)
	// the fold's first parameter is the chunk's size
	fw := append([]bool{false}, with...)
	f := j.lam(e.Fold, fw)
	res := append([]Atom{}, f.res...)
	ret := append([]Type{}, e.Fold.Ret...)
	pat := append([]Param{}, st.Pat...)
	for i := range f.res {
		if diff(e.Fold.Ret[i]) {
			res = append(res, f.dres[i])
			ret = append(ret, e.Fold.Ret[i])
			dp := Param{j.fresh("d_" + st.Pat[i].Name), st.Pat[i].T}
			pat = append(pat, dp)
			j.tan[st.Pat[i].Name] = V(dp.Name)
		}
	}
	ns := &StreamE{W: e.W, Arrs: append(append([]string{}, e.Arrs...), extra...), Fold: &Lambda{Params: f.params, Ret: ret, Body: &Body{Stms: f.stms, Res: res}}}
	if e.Red != nil {
		ns.Red = j.liftOp(&SegOp{Lam: e.Red}).Lam
	}
	j.emit(pat, ns)
}

// freshLambda is a copy of l whose bound names are all new.
func freshLambda(l *Lambda, fresh func(string) string) *Lambda {
	s := subst{}
	for _, p := range l.Params {
		s[p.Name] = V(fresh(p.Name))
	}
	binds(&ScremaE{Map: l}, func(n string) {
		if _, ok := s[n]; !ok {
			s[n] = V(fresh(n))
		}
	})
	out := s.lambda(l) // renames the uses; the binders follow
	renameBinders(out, s)
	return out
}

// renameBinders renames, in a copy made by subst, every name bound inside
// l by s.
func renameBinders(l *Lambda, s subst) {
	ren := func(ps []Param) {
		for i := range ps {
			ps[i].Name = s.name(ps[i].Name)
		}
	}
	var body func(b *Body)
	lam := func(l *Lambda) {
		if l != nil {
			ren(l.Params)
			body(l.Body)
		}
	}
	body = func(b *Body) {
		if b == nil {
			return
		}
		for _, st := range b.Stms {
			ren(st.Pat)
			switch e := st.E.(type) {
			case *IfE:
				body(e.Then)
				body(e.Else)
			case *LoopE:
				ren(e.Params)
				ren(e.Elems)
				if e.I != "" {
					e.I = s.name(e.I)
				}
				body(e.While)
				body(e.Body)
			case *ScremaE:
				if e.Index != "" {
					e.Index = s.name(e.Index)
				}
				for _, op := range append(append([]*SegOp{}, e.Scans...), e.Reds...) {
					lam(op.Lam)
				}
				lam(e.Map)
			case *FilterE:
				if e.Index != "" {
					e.Index = s.name(e.Index)
				}
				lam(e.Map)
			case *ScatterE:
				if e.Index != "" {
					e.Index = s.name(e.Index)
				}
				lam(e.Map)
			case *HistE:
				if e.Index != "" {
					e.Index = s.name(e.Index)
				}
				lam(e.Op.Lam)
				lam(e.Map)
			case *StreamE:
				lam(e.Red)
				lam(e.Fold)
			}
		}
	}
	lam(l)
}

// histLoop differentiates a histogram whose operator is not +: which
// value wins, and so which tangent, depends on the order the reference
// path combines them in (element by element, old value first), so the
// pairs (value, tangent) are combined by the lifted operator in a
// sequential loop over the elements, in that order.
func (j *jvper) histLoop(st *Stm, e *HistE, dDest Atom, extra []string, with []bool) {
	p := st.Pat[0]
	elem := p.T.Row()
	op := j.liftOp(e.Op)
	m := j.lam(freshLambda(e.Map, j.fresh), with)
	i := e.Index // the original statement is replaced: its index is free
	if i == "" {
		i = j.fresh("i")
	}
	acc := Param{j.fresh("hist"), p.T}
	dacc := Param{j.fresh("d_hist"), p.T}
	saved := j.out
	j.out = append([]*Stm{}, m.stms...)
	bucket, v := m.res[0], m.res[1]
	dv := m.dres[1]
	if dv == (Atom{}) {
		dv = j.tanOf(C(ZeroOf(elem.Elem)), elem)
	}
	s := sb{j, Scalar(value.Bool)}
	inside := s.op("&&", s.op("<=", I64(0), bucket), s.op("<", bucket, p.T.Shape[0]))
	// the update, in its own branch
	loopBody := j.out
	j.out = nil
	old := j.let("old", &IndexE{Arr: acc.Name, Idx: []Atom{bucket}}, elem)
	dold := j.let("d_old", &IndexE{Arr: dacc.Name, Idx: []Atom{bucket}}, elem)
	fl := freshLambda(op.Lam, j.fresh)
	for k, a := range []Atom{old, dold, v, dv} {
		j.emit([]Param{fl.Params[k]}, &AtomE{X: a})
	}
	j.out = append(j.out, fl.Body.Stms...)
	nacc := j.let("hist", &UpdateE{Arr: acc.Name, Idx: []Atom{bucket}, X: fl.Body.Res[0]}, p.T)
	ndacc := j.let("d_hist", &UpdateE{Arr: dacc.Name, Idx: []Atom{bucket}, X: fl.Body.Res[1]}, p.T)
	then := &Body{Stms: j.out, Res: []Atom{nacc, ndacc}}
	j.out = loopBody
	r := []Param{{j.fresh("hist"), p.T}, {j.fresh("d_hist"), p.T}}
	j.emit(r, &IfE{Cond: inside, Then: then, Else: &Body{Res: []Atom{V(acc.Name), V(dacc.Name)}}, Ret: []Type{p.T, p.T}})
	body := &Body{Stms: j.out, Res: []Atom{V(r[0].Name), V(r[1].Name)}}
	j.out = saved
	j.typ[i] = Scalar(value.I64)
	dp := Param{j.fresh("d_" + p.Name), p.T}
	loop := &LoopE{Params: []Param{acc, dacc}, Init: []Atom{V(e.Dest), dDest}, I: i, Bound: e.W, Body: body,
		Elems: m.params, Over: append(append([]string{}, e.Arrs...), extra...)}
	j.emit([]Param{p, dp}, loop)
	j.tan[p.Name] = V(dp.Name)
}
