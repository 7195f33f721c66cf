package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Compiled patterns: the irrefutable patterns of parameters, lets and
// loops bind into slots as bindPat binds into an environment (eval_pat.go),
// failing with its messages at the same positions. The [n] parameters
// of a closure read their sizes off the arguments' shapes into slots
// where the types are plain (sizedFast); elsewhere (an abbreviation, a
// dimension n + m, let [n] and loop [n]) bindPat binds them
// and the compiled code moves what it bound into slots (sizedParams,
// walkedPat).

// pat compiles an irrefutable pattern without size binders, as bindPat
// binds it.
func (cc *ccomp) pat(p syntax.Pat, sc *cscope) (cbind, *cscope) {
	b, sc, _ := cc.patS(p, sc, nil) // without sizes, patS binds every pattern
	return b, sc
}

// patS is pat for a parameter of a closure with size parameters, whose
// slots sizes gives: an ascription binds the sizes its type's dimensions
// name, as bindPat binds them, where that is a plain reading of the
// value's shape (shapePlan); ok is false where it is not (never where
// sizes is nil).
func (cc *ccomp) patS(p syntax.Pat, sc *cscope, sizes map[string]int) (cbind, *cscope, bool) {
	switch p := p.(type) {
	case *syntax.PId:
		s := cc.slot()
		cc.notePat(p, &pshape{kind: pName, slot: s})
		return func(t *thread, bp int, v value.Value) error {
			t.slots[bp+s] = v
			return nil
		}, &cscope{name: p.Name, slot: s, next: sc}, true
	case *syntax.PWild:
		cc.notePat(p, &pshape{kind: pWild})
		return func(*thread, int, value.Value) error { return nil }, sc, true
	case *syntax.PParen:
		b, sc2, ok := cc.patS(p.P, sc, sizes)
		cc.notePatAs(p, p.P)
		return b, sc2, ok
	case *syntax.PAttr:
		b, sc2, ok := cc.patS(p.P, sc, sizes)
		cc.notePatAs(p, p.P)
		return b, sc2, ok
	case *syntax.PAscript:
		if sizes == nil {
			b, sc2, ok := cc.patS(p.P, sc, sizes)
			cc.notePatAs(p, p.P)
			return b, sc2, ok
		}
		plan, ok := cc.shapePlan(p.Type, sizes)
		if !ok {
			return nil, nil, false
		}
		// the sizes it binds come into scope here, before the inner
		// pattern's names, as bindPat binds them: the frame's locals
		// (a #[break]'s) are listed in bindPat's order
		for _, s := range plan {
			for name, slot := range sizes {
				if s >= 0 && slot == s {
					sc = &cscope{name: name, slot: s, next: sc, maybe: true}
				}
			}
		}
		inner, sc2, ok := cc.patS(p.P, sc, sizes)
		cc.notePatAs(p, p.P) // the sizes it binds besides are a closure's [n]
		if !ok || plan == nil {
			return inner, sc2, ok
		}
		return func(t *thread, bp int, v value.Value) error {
			if a, ok := v.(*value.Array); ok {
				shape := a.FullShape()
				for k, s := range plan {
					if k >= len(shape) {
						break
					}
					if s >= 0 {
						t.slots[bp+s] = value.I64Val(shape[k])
					}
				}
			}
			return inner(t, bp, v)
		}, sc2, true
	case *syntax.PTuple:
		bs := make([]cbind, len(p.Elems))
		for i, q := range p.Elems {
			b, sc2, ok := cc.patS(q, sc, sizes)
			if !ok {
				return nil, nil, false
			}
			bs[i], sc = b, sc2
		}
		cc.noteParts(p, pTuple, nil, p.Elems)
		return tupleBinder(p.Pos(), bs), sc, true
	case *syntax.PRecord:
		bs := make([]cbind, len(p.Fields))
		names, qs := make([]string, len(p.Fields)), make([]syntax.Pat, len(p.Fields))
		for i, f := range p.Fields {
			q := f.Pat
			if q == nil {
				q = &syntax.PId{Loc: f.Loc, Name: f.Name} // a pun
			}
			b, sc2, ok := cc.patS(q, sc, sizes)
			if !ok {
				return nil, nil, false
			}
			bs[i], sc = b, sc2
			names[i], qs[i] = f.Name, q
		}
		cc.noteParts(p, pRecord, names, qs)
		return func(t *thread, bp int, v value.Value) error {
			for i, f := range p.Fields {
				fv, ok := recordField(v, f.Name)
				if !ok {
					return t.errf(p.Pos(), "value has no field %s", f.Name)
				}
				if err := bs[i](t, bp, fv); err != nil {
					return err
				}
			}
			return nil
		}, sc, true
	case *syntax.PLit, *syntax.PConstr:
		// as bindPat: the match must succeed
		m, sc2 := cc.matcher(p, sc)
		return func(t *thread, bp int, v value.Value) error {
			ok, err := m(t, bp, v)
			if err != nil {
				return err
			}
			if !ok {
				return t.errf(p.Pos(), "value does not match the pattern")
			}
			return nil
		}, sc2, true
	}
	return func(t *thread, bp int, v value.Value) error {
		return t.errf(p.Pos(), "cannot bind pattern %T", p) // as bindPat
	}, sc, true
}

// shapePlan reads the type of an ascription in a parameter of a closure
// with size parameters as bindPat's bindSizes reads it, where that is
// simple: an array type [d1]…[dk]t whose dimensions are names or
// literals and whose element t is not an abbreviation (expand finds none
// in the closure's scope, which is the scope at every call), or a type
// that binds no size. plan[k] is the slot of the size that dimension k
// names, -1 for another dimension; nil binds nothing. ok is false for the
// other types (an abbreviation, a dimension n + m to solve, a tuple or
// record of arrays): sizedParams binds those with bindPat.
func (cc *ccomp) shapePlan(te syntax.TypeExp, sizes map[string]int) (plan []int, ok bool) {
	te = stripParens(te)
	if _, isArr := te.(*syntax.TEArray); !isArr {
		return nil, cc.bindsNoSizes(te)
	}
	for {
		te = stripParens(te)
		arr, isArr := te.(*syntax.TEArray)
		if !isArr {
			if _, _, expands := cc.t.expand(te, cc.env, nil); expands {
				return nil, false
			}
			return plan, true
		}
		s := -1
		switch d := arr.Dim.(type) {
		case *syntax.Var:
			if len(d.Name.Quals) == 0 {
				if slot, isSize := sizes[d.Name.Name]; isSize {
					s = slot
				}
			}
		case *syntax.Binary:
			return nil, false
		}
		plan = append(plan, s)
		te = arr.Elem
	}
}

// bindsNoSizes reports whether bindSizes binds nothing for te, whatever
// the value: no array type in it, and no abbreviation to expand.
func (cc *ccomp) bindsNoSizes(te syntax.TypeExp) bool {
	switch x := te.(type) {
	case *syntax.TEParen:
		return cc.bindsNoSizes(x.T)
	case *syntax.TEUnique:
		return cc.bindsNoSizes(x.T)
	case *syntax.TEVar, *syntax.TEApply:
		_, _, expands := cc.t.expand(te, cc.env, nil)
		return !expands
	case *syntax.TETuple:
		for _, el := range x.Elems {
			if !cc.bindsNoSizes(el) {
				return false
			}
		}
		return true
	case *syntax.TERecord:
		for _, f := range x.Fields {
			if !cc.bindsNoSizes(f.Type) {
				return false
			}
		}
		return true
	case *syntax.TEArray:
		return false
	}
	return true
}

// sizedFast compiles the parameters of a closure with size parameters
// where each reads its sizes plainly off its argument's shape
// (shapePlan): the sizes have slots, nil until an argument gives them,
// and the parameters bind as patS binds them, in bindPat's order. It
// returns nil params where one parameter needs bindPat (sizedParams).
// init, run first, gives each size the value bindPat would start from:
// the closure environment's local of its name (withSizes binds the
// context sizes there), nil without one.
func (cc *ccomp) sizedFast(c *closure) (params []cbind, sc *cscope, init func(*thread, int, *closure, []value.Value) error) {
	sizes := map[string]int{}
	names := make([]string, len(c.sizeParams))
	slots := make([]int, len(c.sizeParams))
	for i, n := range c.sizeParams {
		s := cc.slot()
		sc = &cscope{name: n, slot: s, next: sc, maybe: true}
		sizes[n] = s
		names[i], slots[i] = n, s
	}
	for _, p := range c.params {
		b, sc2, ok := cc.patS(p, sc, sizes)
		if !ok {
			return nil, nil, nil
		}
		params, sc = append(params, b), sc2
	}
	return params, sc, func(t *thread, bp int, c *closure, _ []value.Value) error {
		for i, n := range names {
			t.slots[bp+slots[i]], _ = c.env.lookupLocal(n)
		}
		return nil
	}
}

// sizedParams binds the parameters of a closure with size parameters
// ([n]) as bindPat binds them (sizes read off the
// arguments' shapes, through type abbreviations, n + m solved from the
// names bound so far, in the parameters' order), then moves the values
// that the bindings give the body's names into their slots. A size that
// no argument's shape gives is left nil: the body then finds it in the
// closure's environment (withSizes binds
// context sizes there), or reports it unknown.
func (cc *ccomp) sizedParams(c *closure) (*cscope, func(*thread, int, *closure, []value.Value) error) {
	var sc *cscope
	var es envSlots
	for _, n := range c.sizeParams {
		es.add(cc, &sc, n, true)
	}
	for _, p := range c.params {
		patNames(p, func(n string) { es.add(cc, &sc, n, false) })
	}
	wc := walkReason("closure: sizes bound by bindPat")
	return sc, func(t *thread, bp int, c *closure, args []value.Value) error {
		if wc != nil {
			wc.entries.Add(1)
		}
		e := c.env
		for i, p := range c.params {
			var err error
			if e, err = t.bindPat(p, args[i], e, c.sizeParams); err != nil {
				return err
			}
		}
		es.load(t, bp, e)
		return nil
	}
}

// walkedPat binds p with the size binders sizes (let [n] (xs: [n]t) =
// …, loop [n] (xs: [n]t) = …) as bindLet binds them, in the frame's
// environment (a size may be solved from the names in scope), then
// moves the names it binds into slots; a size that the value does not
// give stays nil, as in sizedParams.
func (cc *ccomp) walkedPat(sizes []*syntax.SizeBinder, p syntax.Pat, sc *cscope) (cbind, *cscope) {
	outer := sc
	var es envSlots
	for _, z := range sizes {
		es.add(cc, &sc, z.Name, true)
	}
	patNames(p, func(n string) { es.add(cc, &sc, n, false) })
	wc := walkReason("let or loop: sizes bound by bindLet")
	return func(t *thread, bp int, v value.Value) error {
		if wc != nil {
			wc.entries.Add(1)
		}
		e, err := t.bindLet(sizes, p, v, t.envAt(bp, outer))
		if err != nil {
			return err
		}
		es.load(t, bp, e)
		return nil
	}, sc
}

// envSlots are the slots of the names that a binding through an
// environment (bindPat, bindLet) gives, for sizedParams and walkedPat.
type envSlots struct {
	names []string
	slots []int
}

// add gives name a slot and puts it in scope *sc; maybe marks a size
// that may stay unknown.
func (es *envSlots) add(cc *ccomp, sc **cscope, name string, maybe bool) {
	s := cc.slot()
	*sc = &cscope{name: name, slot: s, next: *sc, maybe: maybe}
	es.names, es.slots = append(es.names, name), append(es.slots, s)
}

// load moves what e binds the names to into their slots of the frame at bp.
func (es *envSlots) load(t *thread, bp int, e *env) {
	for i, n := range es.names {
		v, _ := e.lookupLocal(n)
		t.slots[bp+es.slots[i]] = v
	}
}

// patNames calls add with each name that p binds, in bindPat's order.
func patNames(p syntax.Pat, add func(string)) {
	switch p := p.(type) {
	case *syntax.PId:
		add(p.Name)
	case *syntax.PParen:
		patNames(p.P, add)
	case *syntax.PAttr:
		patNames(p.P, add)
	case *syntax.PAscript:
		patNames(p.P, add)
	case *syntax.PTuple:
		for _, q := range p.Elems {
			patNames(q, add)
		}
	case *syntax.PRecord:
		for _, f := range p.Fields {
			if f.Pat == nil {
				add(f.Name)
			} else {
				patNames(f.Pat, add)
			}
		}
	case *syntax.PConstr:
		for _, q := range p.Args {
			patNames(q, add)
		}
	}
}

// tupleBinder binds a tuple's parts with bs, as bindPat binds a PTuple
// (pos: the pattern's).
func tupleBinder(pos syntax.Pos, bs []cbind) cbind {
	n := len(bs)
	return func(t *thread, bp int, v value.Value) error {
		parts, ok := tupleParts(v, n)
		if !ok {
			return t.errf(pos, "cannot match a value against a tuple pattern of %d elements", n)
		}
		for i, b := range bs {
			if err := b(t, bp, parts[i]); err != nil {
				return err
			}
		}
		return nil
	}
}
