package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Compiled patterns: the irrefutable patterns of parameters, lets and
// loops bind into slots as bindPat binds into an environment (eval_pat.go),
// failing with its messages at the same positions. Where sizes are bound
// too ([n] parameters, let [n] and loop [n]), the walker's bindPat binds
// them and the compiled code moves what it bound into slots
// (sizedParams, walkedPat).

// pat compiles an irrefutable pattern without size binders, as bindPat
// binds it; ok is false for the patterns that need the walker.
func (cc *ccomp) pat(p syntax.Pat, sc *cscope) (cbind, *cscope, bool) {
	switch p := p.(type) {
	case *syntax.PId:
		s := cc.slot()
		return func(t *thread, bp int, v value.Value) error {
			t.slots[bp+s] = v
			return nil
		}, &cscope{name: p.Name, slot: s, next: sc}, true
	case *syntax.PWild:
		return func(*thread, int, value.Value) error { return nil }, sc, true
	case *syntax.PParen:
		return cc.pat(p.P, sc)
	case *syntax.PAttr:
		return cc.pat(p.P, sc)
	case *syntax.PAscript:
		return cc.pat(p.P, sc)
	case *syntax.PTuple:
		bs := make([]cbind, len(p.Elems))
		for i, q := range p.Elems {
			b, sc2, ok := cc.pat(q, sc)
			if !ok {
				return nil, nil, false
			}
			bs[i], sc = b, sc2
		}
		return tupleBinder(p.Pos(), bs), sc, true
	case *syntax.PRecord:
		bs := make([]cbind, len(p.Fields))
		for i, f := range p.Fields {
			q := f.Pat
			if q == nil {
				q = &syntax.PId{Loc: f.Loc, Name: f.Name}
			}
			b, sc2, ok := cc.pat(q, sc)
			if !ok {
				return nil, nil, false
			}
			bs[i], sc = b, sc2
		}
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
		m, sc2, ok := cc.matcher(p, sc)
		if !ok {
			return nil, nil, false
		}
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
	return nil, nil, false
}

// sizedParams binds the parameters of a closure with size parameters
// ([n]) as the walker binds them (bindPat: sizes read off the
// arguments' shapes, through type abbreviations, n + m solved from the
// names bound so far, in the parameters' order), then moves the values
// that the bindings give the body's names into their slots. A size that
// no argument's shape gives is left nil: the body then finds it where
// the walker would, in the closure's environment (withSizes binds
// context sizes there), or reports it unknown.
func (cc *ccomp) sizedParams(c *closure) (*cscope, func(*thread, int, *closure, []value.Value) error) {
	var sc *cscope
	var names []string
	var slots []int
	add := func(name string, maybe bool) {
		s := cc.slot()
		sc = &cscope{name: name, slot: s, next: sc, maybe: maybe}
		names, slots = append(names, name), append(slots, s)
	}
	for _, n := range c.sizeParams {
		add(n, true)
	}
	for _, p := range c.params {
		patNames(p, func(n string) { add(n, false) })
	}
	return sc, func(t *thread, bp int, c *closure, args []value.Value) error {
		e := c.env
		for i, p := range c.params {
			var err error
			if e, err = t.bindPat(p, args[i], e, c.sizeParams); err != nil {
				return err
			}
		}
		for i, n := range names {
			v, _ := e.lookupLocal(n)
			t.slots[bp+slots[i]] = v
		}
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
	var names []string
	var slots []int
	add := func(name string, maybe bool) {
		s := cc.slot()
		sc = &cscope{name: name, slot: s, next: sc, maybe: maybe}
		names, slots = append(names, name), append(slots, s)
	}
	for _, z := range sizes {
		add(z.Name, true)
	}
	patNames(p, func(n string) { add(n, false) })
	return func(t *thread, bp int, v value.Value) error {
		e, err := t.bindLet(sizes, p, v, t.envAt(bp, outer))
		if err != nil {
			return err
		}
		for i, n := range names {
			v, _ := e.lookupLocal(n)
			t.slots[bp+slots[i]] = v
		}
		return nil
	}, sc
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

// tupleBinder binds a tuple's parts with bs, as the walker's PTuple
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
