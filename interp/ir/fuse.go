package ir

import (
	"strconv"

	"fut/eval/value"
)

// Fusion.
//
// Vertical (producer-consumer) fusion takes a statement P whose results
// feed only the inputs of one later SOAC C over the same number of
// elements, and moves P's per-element work into C's map lambda, so that
// P's arrays are never built. P may be a map (a Screma with no scans or
// reductions), an iota (C's lambda then reads its element index) or a
// replicate (C's lambda reads the replicated value). C may be any Screma,
// a scatter or a hist. Two rules keep it safe: P's results must have no
// other use (fusing would otherwise duplicate P's work), and no statement
// between P and C, nor C itself, may consume an array that P reads
// (fusion never moves a read across a consumption).
//
// Horizontal fusion merges two Scremas of the same size that read a
// common input and do not depend on each other into one, which traverses
// the input once; the later one moves up to the earlier one, so all its
// free variables must already be bound there.
//
// Both work on every body, innermost first, until nothing changes.

// FuseVertical is producer-consumer fusion. It runs over the whole
// program again while that changes something: fusing into a stream makes
// a new map inside the stream's fold, which may fuse further.
func FuseVertical(p *Prog) (*Prog, error) {
	q := p.copyWith(subst{})
	text := q.String()
	for round := 0; round < 10; round++ {
		f := &fuser{names: allNames(q), types: AllTypes(q)}
		q.Body = f.bodies(q.Body, f.vertical)
		next := q.String()
		if next == text {
			break
		}
		text = next
	}
	return q, nil
}

// FuseHorizontal merges sibling Scremas over a common input.
func FuseHorizontal(p *Prog) (*Prog, error) {
	q := p.copyWith(subst{})
	f := &fuser{names: allNames(q), types: AllTypes(q)}
	q.Body = f.bodies(q.Body, f.horizontal)
	return q, nil
}

type fuser struct {
	names map[string]bool
	types map[string]Type // of every variable bound outside lambdas' own params
	n     int
}

func (f *fuser) fresh(base string) string {
	for {
		f.n++
		name := base + "_f" + strconv.Itoa(f.n)
		if !f.names[name] {
			f.names[name] = true
			return name
		}
	}
}

func allNames(p *Prog) map[string]bool {
	names := map[string]bool{}
	for _, prm := range p.Params {
		names[prm.Name] = true
	}
	for _, st := range p.Body.Stms {
		for _, prm := range st.Pat {
			names[prm.Name] = true
		}
		binds(st.E, func(n string) { names[n] = true })
	}
	return names
}

// bodies applies step to b and every nested body, innermost first, each
// until it reports no change.
func (f *fuser) bodies(b *Body, step func(*Body) (*Body, bool)) *Body {
	for _, st := range b.Stms {
		f.nestedBodies(st.E, step)
	}
	for i := 0; i < 1000; i++ {
		nb, changed := step(b)
		if !changed {
			break
		}
		b = nb
	}
	return b
}

func (f *fuser) nestedBodies(e Exp, step func(*Body) (*Body, bool)) {
	lam := func(l *Lambda) { l.Body = f.bodies(l.Body, step) }
	switch e := e.(type) {
	case *IfE:
		e.Then = f.bodies(e.Then, step)
		e.Else = f.bodies(e.Else, step)
	case *LoopE:
		e.Body = f.bodies(e.Body, step)
	case *ScremaE:
		lam(e.Map)
	case *ScatterE:
		lam(e.Map)
	case *HistE:
		lam(e.Map)
	case *FilterE:
		lam(e.Map)
	case *StreamE:
		lam(e.Fold)
	}
}

// soacParts gives a consumer's input side, to be rewritten in place.
type soacParts struct {
	w     Atom
	arrs  *[]string
	index *string
	gens  *int
	lam   **Lambda
	dest  string // consumed by the consumer, "" for a Screma
}

func parts(e Exp) (soacParts, bool) {
	switch e := e.(type) {
	case *ScremaE:
		return soacParts{e.W, &e.Arrs, &e.Index, &e.Gens, &e.Map, ""}, true
	case *ScatterE:
		return soacParts{e.W, &e.Arrs, &e.Index, &e.Gens, &e.Map, e.Dest}, true
	case *HistE:
		return soacParts{e.W, &e.Arrs, &e.Index, &e.Gens, &e.Map, e.Dest}, true
	case *FilterE:
		return soacParts{e.W, &e.Arrs, &e.Index, &e.Gens, &e.Map, ""}, true
	}
	return soacParts{}, false
}

// consumes is the array a statement consumes, if any.
func consumes(e Exp) string {
	switch e := e.(type) {
	case *UpdateE:
		return e.Arr
	case *ScatterE:
		return e.Dest
	case *HistE:
		return e.Dest
	}
	return ""
}

// vertical performs one fusion in b, if it finds one.
func (f *fuser) vertical(b *Body) (*Body, bool) {
	// Where each name is used: statement indices (len(b.Stms) for the result).
	useSites := map[string][]int{}
	for j, st := range b.Stms {
		seen := map[string]bool{}
		uses(st.E, func(n string) {
			if !seen[n] {
				seen[n] = true
				useSites[n] = append(useSites[n], j)
			}
		})
		for _, p := range st.Pat {
			for _, d := range p.T.Shape {
				useSites[d.Name] = append(useSites[d.Name], j)
			}
		}
	}
	for _, a := range b.Res {
		useSites[a.Name] = append(useSites[a.Name], len(b.Stms))
	}
	for i, pst := range b.Stms {
		if !isProducer(pst.E) {
			continue
		}
		// The consumer C is P's first user; users after C may still
		// read P's arrays, which C (a Screma) then produces as well.
		c := -1
		for _, prm := range pst.Pat {
			for _, j := range useSites[prm.Name] {
				if c == -1 || j < c {
					c = j
				}
			}
		}
		if c == -1 || c >= len(b.Stms) {
			continue
		}
		var later []int // P's results used after C
		for k, prm := range pst.Pat {
			for _, j := range useSites[prm.Name] {
				if j > c {
					later = append(later, k)
					break
				}
			}
		}
		cst := b.Stms[c]
		if st, ok := cst.E.(*StreamE); ok {
			if f.fuseIntoStream(b.Stms, i, c, st, later) {
				out := &Body{Res: b.Res}
				out.Stms = append(append([]*Stm{}, b.Stms[:i]...), b.Stms[i+1:]...)
				return out, true
			}
			continue
		}
		cp, isSOAC := parts(cst.E)
		if !isSOAC || cp.w != producerWidth(pst.E) {
			continue
		}
		if _, isScrema := cst.E.(*ScremaE); len(later) > 0 && !isScrema {
			continue
		}
		if !onlyInputs(cst.E, pst.Pat, cp) {
			continue
		}
		reads := freeVars(pst.E)
		blocked := cp.dest != "" && reads[cp.dest]
		for k := i + 1; k < c && !blocked; k++ {
			if n := consumes(b.Stms[k].E); n != "" && reads[n] {
				blocked = true
			}
		}
		if blocked {
			continue
		}
		elem := f.fuseInto(pst, cp)
		if len(later) > 0 {
			lam := *cp.lam
			for _, k := range later {
				prm := pst.Pat[k]
				cst.Pat = append(cst.Pat, prm)
				lam.Ret = append(lam.Ret, prm.T.Row())
				lam.Body.Res = append(lam.Body.Res, elem[prm.Name])
			}
		}
		out := &Body{Res: b.Res}
		out.Stms = append(append([]*Stm{}, b.Stms[:i]...), b.Stms[i+1:]...)
		return out, true
	}
	return b, false
}

func isProducer(e Exp) bool {
	switch e := e.(type) {
	case *ScremaE:
		return len(e.Scans) == 0 && len(e.Reds) == 0
	case *IotaE, *ReplicateE:
		return true
	}
	return false
}

func producerWidth(e Exp) Atom {
	switch e := e.(type) {
	case *ScremaE:
		return e.W
	case *IotaE:
		return e.N
	case *ReplicateE:
		return e.N
	}
	return Atom{}
}

// onlyInputs reports whether the consumer uses the producer's results only
// as whole inputs (not in its lambdas, neutral elements or destination).
func onlyInputs(e Exp, pat []Param, cp soacParts) bool {
	produced := map[string]bool{}
	for _, p := range pat {
		produced[p.Name] = true
	}
	inputs := 0
	for _, a := range *cp.arrs {
		if produced[a] {
			inputs++
		}
	}
	other := 0
	uses(e, func(n string) {
		if produced[n] {
			other++
		}
	})
	return inputs > 0 && other == inputs && !produced[cp.dest]
}

// fuseInto moves producer P into consumer C's lambda, and returns the
// atom that holds each of P's results' elements there.
func (f *fuser) fuseInto(pst *Stm, cp soacParts) map[string]Atom {
	lam := *cp.lam
	s := subst{}
	var keepArrs []string
	var keepParams []Param
	var pre []*Stm
	index := func() string {
		if *cp.index == "" {
			*cp.index = f.fresh("i")
		}
		return *cp.index
	}
	// Element of P's result k, as C's lambda will see it.
	elem := map[string]Atom{}
	switch p := pst.E.(type) {
	case *IotaE:
		x := V(index())
		if st := p.start(); st != I64(0) {
			t := pst.Pat[0].T.Row()
			if t.Elem != value.I64 {
				c := Param{f.fresh("conv"), t}
				pre = append(pre, &Stm{Pat: []Param{c}, E: &ConvE{To: t.Elem, X: x, Implicit: true}})
				x = V(c.Name)
			}
			e := Param{f.fresh("elem"), t}
			pre = append(pre, &Stm{Pat: []Param{e}, E: &BinOpE{Op: "+", X: x, Y: st, Implicit: true}})
			x = V(e.Name)
		}
		elem[pst.Pat[0].Name] = x
		*cp.gens++
	case *ReplicateE:
		elem[pst.Pat[0].Name] = p.X
		*cp.gens++
	case *ScremaE:
		*cp.gens += p.Gens
		if p.Index != "" {
			s[p.Index] = V(index())
		}
		// P's inputs join C's; an input C already reads is shared.
		have := map[string]int{}
		for k, a := range *cp.arrs {
			have[a] = k
		}
		for k, a := range p.Arrs {
			if ck, ok := have[a]; ok {
				s[p.Map.Params[k].Name] = V(lam.Params[ck].Name)
				continue
			}
			keepArrs = append(keepArrs, a)
			keepParams = append(keepParams, p.Map.Params[k])
		}
		pre = p.Map.Body.Stms
		for k, prm := range pst.Pat {
			elem[prm.Name] = p.Map.Body.Res[k]
		}
	}
	var arrs []string
	var params []Param
	for k, a := range *cp.arrs {
		if x, ok := elem[a]; ok {
			s[lam.Params[k].Name] = x
			continue
		}
		arrs = append(arrs, a)
		params = append(params, lam.Params[k])
	}
	*cp.arrs = append(arrs, keepArrs...)
	body := &Body{Stms: append(append([]*Stm{}, pre...), lam.Body.Stms...), Res: lam.Body.Res}
	*cp.lam = s.lambda(&Lambda{Params: append(params, keepParams...), Ret: lam.Ret, Body: body})
	for n, a := range elem {
		elem[n] = s.atom(a)
	}
	return elem
}

// horizontal performs one merge of two Scremas in b, if it finds one.
func (f *fuser) horizontal(b *Body) (*Body, bool) {
	boundBefore := map[string]int{} // name → index of the statement binding it
	for j, st := range b.Stms {
		for _, p := range st.Pat {
			boundBefore[p.Name] = j
		}
	}
	for i, s1 := range b.Stms {
		a, ok := s1.E.(*ScremaE)
		if !ok {
			continue
		}
		ins := map[string]bool{}
		for _, x := range a.Arrs {
			ins[x] = true
		}
		for j := i + 1; j < len(b.Stms); j++ {
			c, ok := b.Stms[j].E.(*ScremaE)
			if !ok || c.W != a.W {
				continue
			}
			shared := false
			for _, x := range c.Arrs {
				shared = shared || ins[x]
			}
			if !shared {
				continue
			}
			movable := true
			for n := range freeVars(c) {
				if k, ok := boundBefore[n]; ok && k >= i {
					movable = false
				}
			}
			for _, p := range b.Stms[j].Pat {
				for _, d := range p.T.Shape {
					if k, ok := boundBefore[d.Name]; ok && k >= i {
						movable = false
					}
				}
			}
			if !movable {
				continue
			}
			merged := f.merge(s1, b.Stms[j])
			out := &Body{Res: b.Res}
			for k, st := range b.Stms {
				switch k {
				case i:
					out.Stms = append(out.Stms, merged)
				case j:
				default:
					out.Stms = append(out.Stms, st)
				}
			}
			return out, true
		}
	}
	return b, false
}

// merge makes one Screma of two independent ones.
func (f *fuser) merge(s1, s2 *Stm) *Stm {
	a, c := s1.E.(*ScremaE), s2.E.(*ScremaE)
	s := subst{}
	index := a.Index
	if c.Index != "" {
		if index == "" {
			index = c.Index
		} else {
			s[c.Index] = V(index)
		}
	}
	have := map[string]int{}
	for k, x := range a.Arrs {
		have[x] = k
	}
	arrs := append([]string{}, a.Arrs...)
	params := append([]Param{}, a.Map.Params...)
	for k, x := range c.Arrs {
		if ak, ok := have[x]; ok {
			s[c.Map.Params[k].Name] = V(a.Map.Params[ak].Name)
			continue
		}
		arrs = append(arrs, x)
		params = append(params, c.Map.Params[k])
	}
	cm := s.lambda(c.Map)
	split := func(e *ScremaE, st *Stm, lam *Lambda) (sc, rd, mp []int) {
		k := 0
		for _, op := range e.Scans {
			for i := 0; i < op.Arity(); i++ {
				sc = append(sc, k)
				k++
			}
		}
		for _, op := range e.Reds {
			for i := 0; i < op.Arity(); i++ {
				rd = append(rd, k)
				k++
			}
		}
		for ; k < len(lam.Ret); k++ {
			mp = append(mp, k)
		}
		return
	}
	asc, ard, amp := split(a, s1, a.Map)
	csc, crd, cmp := split(c, s2, cm)
	var pat []Param
	var ret []Type
	var res []Atom
	add := func(st *Stm, lam *Lambda, idx []int) {
		for _, k := range idx {
			pat = append(pat, st.Pat[k])
			ret = append(ret, lam.Ret[k])
			res = append(res, lam.Body.Res[k])
		}
	}
	add(s1, a.Map, asc)
	add(s2, cm, csc)
	add(s1, a.Map, ard)
	add(s2, cm, crd)
	add(s1, a.Map, amp)
	add(s2, cm, cmp)
	body := &Body{Stms: append(append([]*Stm{}, a.Map.Body.Stms...), cm.Body.Stms...), Res: res}
	m := &ScremaE{W: a.W, Arrs: arrs, Index: index, Gens: a.Gens + c.Gens,
		Scans: append(append([]*SegOp{}, a.Scans...), s.segops(c.Scans)...),
		Reds:  append(append([]*SegOp{}, a.Reds...), s.segops(c.Reds)...),
		Map:   &Lambda{Params: params, Ret: ret, Body: body}}
	return &Stm{Pat: pat, E: m}
}

// fuseIntoStream moves a map P (statement i) into the stream C (statement
// c) that is its only user: C's fold then maps P's lambda over its chunks
// of P's inputs. P must not use its element index (a chunk does not know
// its offset).
func (f *fuser) fuseIntoStream(stms []*Stm, i, c int, st *StreamE, later []int) bool {
	pst := stms[i]
	p, ok := pst.E.(*ScremaE)
	if !ok || p.Index != "" || p.Gens != 0 || len(later) > 0 || p.W != st.W {
		return false
	}
	produced := map[string]bool{}
	for _, prm := range pst.Pat {
		produced[prm.Name] = true
	}
	inputs, other := 0, 0
	for _, a := range st.Arrs {
		if produced[a] {
			inputs++
		}
	}
	uses(st, func(n string) {
		if produced[n] {
			other++
		}
	})
	if inputs == 0 || inputs != other {
		return false
	}
	reads := freeVars(p)
	for k := i + 1; k < c; k++ {
		if n := consumes(stms[k].E); n != "" && reads[n] {
			return false
		}
	}
	chunk := st.Fold.Params[0]
	cv := V(chunk.Name)
	// Chunks of P's inputs become the fold's parameters; inside, a map
	// over them computes P's chunk.
	var arrs []string
	params := []Param{chunk}
	s := subst{}
	outOf := map[string]int{}
	for k, prm := range pst.Pat {
		outOf[prm.Name] = k
	}
	inner := &ScremaE{W: cv, Map: p.Map}
	outs := make([]Param, len(pst.Pat))
	for k, prm := range pst.Pat {
		outs[k] = Param{f.fresh(prm.Name), Type{Elem: prm.T.Elem, Shape: append([]Atom{cv}, prm.T.Shape[1:]...)}}
	}
	for k, a := range st.Arrs {
		if ok := produced[a]; ok {
			s[st.Fold.Params[k+1].Name] = V(outs[outOf[a]].Name)
			continue
		}
		arrs = append(arrs, a)
		params = append(params, st.Fold.Params[k+1])
	}
	for _, a := range p.Arrs {
		t, ok := f.types[a]
		if !ok {
			return false
		}
		cp := Param{f.fresh(a), Type{Elem: t.Elem, Shape: append([]Atom{cv}, t.Shape[1:]...)}}
		arrs = append(arrs, a)
		params = append(params, cp)
		inner.Arrs = append(inner.Arrs, cp.Name)
	}
	body := s.body(st.Fold.Body)
	body.Stms = append([]*Stm{{Pat: outs, E: inner}}, body.Stms...)
	st.Arrs = arrs
	st.Fold = &Lambda{Params: params, Ret: st.Fold.Ret, Body: body}
	return true
}
