package types

// Uniqueness and aliasing through loops (see unique.go for the model): a
// loop's parameters are bound to its initial value; a body that consumes
// a parameter consumes the initial value as the loop starts, so nothing
// aliasing it may be used in the loop; what the body returns for a
// consumed parameter may not alias what is bound outside the loop nor
// what it returns for an earlier parameter; and the loop's result keeps
// its parts apart.

import (
	"fut/interp/syntax"
)

func (u *uniq) loop(e *syntax.Loop) *aliases {
	var ia *aliases
	if e.Init != nil {
		ia = u.expr(e.Init)
	} else {
		ia = u.patInit(e.Pat)
	}
	u.depth++
	u.loopDepth++
	firstUse := len(u.uses)
	declaredUnique := false
	for _, id := range patNames(e.Pat) {
		if vb := u.c.patBinds[id]; vb != nil {
			u.bindRoot(vb)
			if annotated(e.Pat, id) {
				if isUnique(vb.scheme.Type) {
					declaredUnique = true
				} else if hasArray(vb.scheme.Type) {
					u.params[vb] = true
				}
			}
		}
	}
	switch f := e.Form.(type) {
	case *syntax.For:
		u.depth--
		u.expr(f.Bound)
		u.depth++
		if vb := u.c.identBinds[f.I]; vb != nil {
			u.bindRoot(vb)
		}
	case *syntax.ForIn:
		u.depth--
		aa := u.expr(f.Arr)
		u.depth++
		u.bindPat(f.Pat, aa)
	case *syntax.While:
		u.expr(f.Cond)
	}
	before := copyConsumed(u.consumed)
	ba := u.expr(e.Body)
	if uniqueParams(u, e.Pat) > 1 {
		// Each unique parameter is consumed separately in the next
		// iteration, so the body's results for them must not share.
		u.checkDisjointFields(ba, syntax.SpanOf(e.Body), "A loop parameter aliases other consumed loop parameter (loop-parameter-aliases-other)")
	} else {
		u.checkLoopReturn(e, ba, before)
	}
	// Consuming a loop parameter consumes the initial value.
	consumedParam := false
	for _, id := range patNames(e.Pat) {
		if vb := u.c.patBinds[id]; vb != nil {
			if _, was := before[vb]; !was {
				if _, now := u.consumed[vb]; now {
					consumedParam = true
				}
			}
		}
	}
	u.depth--
	u.loopDepth--
	beforeInit := copyConsumed(u.consumed)
	if consumedParam {
		u.consumeInit(e.Pat, ia, before)
	} else if declaredUnique {
		u.consumeDeclared(e.Pat, ia)
		consumedParam = true
	}
	u.usedAfterInit(e, beforeInit, firstUse)
	// The result aliases what the body's result aliases from outside the
	// loop, and the initial value unless the loop consumed it; part by
	// part. A value made inside the loop becomes a value of the loop's
	// own (one per inner root), so that parts sharing it still share.
	inner := map[*valBind]*valBind{}
	outside := func(a *aliases) *aliases {
		if a == nil {
			return nil
		}
		var r *aliases
		for _, v := range sortedBinds(a.all) {
			if f, ok := u.frame[v]; ok && f > u.depth {
				w := inner[v]
				if w == nil {
					w = &valBind{name: "the result of the loop", local: true, id: u.c.freshID()}
					u.bindRoot(w)
					inner[v] = w
				}
				v = w
			}
			r = r.union(setOf(v))
		}
		return r
	}
	part := func(b, i *aliases) *aliases {
		r := outside(b)
		if i != nil && !consumedParam {
			r = r.union(i)
		}
		return r
	}
	res := part(ba, ia)
	var names []string
	if tp, ok := unparenPat(stripAscript(e.Pat)).(*syntax.PTuple); ok {
		for i := range tp.Elems {
			names = append(names, itoa(i))
		}
	} else if ba != nil {
		for k := range ba.fields {
			names = append(names, k)
		}
	}
	if res != nil && len(names) > 0 {
		res = &aliases{all: res.all, fields: map[string]*aliases{}}
		for _, k := range names {
			res.fields[k] = part(ba.field(k), ia.field(k))
		}
	}
	return res
}

// patInit is the aliases of the variables a loop pattern without initial
// value takes its values from.
func (u *uniq) patInit(p syntax.Pat) *aliases {
	switch q := unparenPat(p).(type) {
	case *syntax.PId:
		v := u.c.loopInit[q]
		if v == nil {
			return nil
		}
		if t, ok := u.c.info.PatTypes[p]; ok && !hasAliases(t) {
			return nil
		}
		return u.use(v, q.Span)
	case *syntax.PAscript:
		return u.patInit(q.P)
	case *syntax.PTuple:
		r := &aliases{all: map[*valBind]bool{}, fields: map[string]*aliases{}}
		for i, e := range q.Elems {
			a := u.patInit(e)
			r.fields[itoa(i)] = a
			r = mergeInto(r, a)
		}
		return r
	}
	return nil
}

// consumeInit consumes the parts of a loop's initial value whose
// parameters the body consumed.
func (u *uniq) consumeInit(p syntax.Pat, ia *aliases, before map[*valBind]syntax.Span) {
	switch q := unparenPat(p).(type) {
	case *syntax.PAscript:
		u.consumeInit(q.P, ia, before)
		return
	case *syntax.PTuple:
		if ia != nil && ia.fields != nil {
			for i, e := range q.Elems {
				u.consumeInit(e, ia.field(itoa(i)), before)
			}
			return
		}
	}
	for _, id := range patNames(p) {
		if vb := u.c.patBinds[id]; vb != nil {
			if _, was := before[vb]; !was {
				if _, now := u.consumed[vb]; now {
					u.consume(ia, syntax.SpanOf(p), "the loop (whose body consumes its parameter)")
					return
				}
			}
		}
	}
}

// consumeDeclared consumes the parts of a loop's initial value whose
// parameters are declared unique.
func (u *uniq) consumeDeclared(p syntax.Pat, ia *aliases) {
	switch q := unparenPat(p).(type) {
	case *syntax.PTuple:
		if ia != nil && ia.fields != nil {
			for i, e := range q.Elems {
				u.consumeDeclared(e, ia.field(itoa(i)))
			}
			return
		}
	case *syntax.PAscript:
		if t, ok := u.c.info.PatTypes[q]; ok && isUnique(t) {
			u.consume(ia, syntax.SpanOf(p), "the loop (whose parameter is declared unique)")
		}
		return
	}
	for _, id := range patNames(p) {
		if vb := u.c.patBinds[id]; vb != nil && annotated(p, id) && isUnique(vb.scheme.Type) {
			u.consume(ia, syntax.SpanOf(p), "the loop (whose parameter is declared unique)")
			return
		}
	}
}

// uniqueParams counts the parameters of a loop pattern declared unique.
func uniqueParams(u *uniq, p syntax.Pat) int {
	n := 0
	for _, id := range patNames(p) {
		if vb := u.c.patBinds[id]; vb != nil && annotated(p, id) && isUnique(vb.scheme.Type) {
			n++
		}
	}
	return n
}

// usedAfterInit reports a use, inside the loop e, of what the loop's
// initial value aliases when the loop consumes that value: the value is
// consumed as the loop starts, so its aliases are gone in the body (the
// loop parameters take its place). before is what was consumed before
// the initial value; the uses from firstUse on are the loop's.
func (u *uniq) usedAfterInit(e *syntax.Loop, before map[*valBind]syntax.Span, firstUse int) {
	uses := u.uses[firstUse:]
	if u.loopDepth == 0 {
		u.uses = u.uses[:0]
	}
	for _, use := range uses {
		if use.a == nil || u.reported[use.v] {
			continue
		}
		for _, r := range sortedBinds(use.a.all) {
			at, now := u.consumed[r]
			if _, was := before[r]; was || !now {
				continue
			}
			u.reported[use.v] = true
			u.c.errorf(use.sp, "%s, but this was consumed at %s (by the loop, which consumes its initial value).", useName(use.v, r), u.c.fset.Position(at.Start))
			break
		}
	}
}

// checkLoopReturn checks what the body of loop e returns for its
// parameters, in order, as Futhark does: the new value of a parameter
// that the body consumes (or that is declared unique) may not alias
// anything bound outside the loop, nor anything returned for an earlier
// parameter. before is what was consumed before the body.
func (u *uniq) checkLoopReturn(e *syntax.Loop, ba *aliases, before map[*valBind]syntax.Span) {
	sp := syntax.SpanOf(e.Pat)
	seen := map[*valBind]bool{}
	var walk func(p syntax.Pat, a *aliases) bool
	walk = func(p syntax.Pat, a *aliases) bool {
		switch q := p.(type) {
		case *syntax.PParen:
			return walk(q.P, a)
		case *syntax.PAscript:
			return walk(q.P, a)
		case *syntax.PAttr:
			return walk(q.P, a)
		case *syntax.PTuple:
			if a != nil && a.fields == nil && len(q.Elems) > 1 {
				return true // parts not known apart: nothing to say
			}
			for i, el := range q.Elems {
				if !walk(el, a.field(itoa(i))) {
					return false
				}
			}
			return true
		case *syntax.PId:
			vb := u.c.patBinds[q]
			if vb == nil || a == nil {
				return true
			}
			_, was := before[vb]
			_, now := u.consumed[vb]
			consuming := (now && !was) || (annotated(e.Pat, q) && isUnique(vb.scheme.Type))
			if consuming {
				for _, v := range sortedBinds(a.all) {
					if f, ok := u.frame[v]; ok && f < u.depth { // bound outside the loop
						u.c.errorf(sp, "Return value for consuming loop parameter \"%s\" aliases %s (consuming-loop-param-aliases).", vb.name, bindName(v))
						return false
					}
				}
				for v := range a.all {
					if seen[v] {
						u.c.errorf(sp, "Return value for consuming loop parameter \"%s\" aliases previously returned value (aliases-previously-returned).", vb.name)
						return false
					}
				}
			}
			for v := range a.all {
				seen[v] = true
			}
		}
		return true
	}
	walk(e.Pat, ba)
}
