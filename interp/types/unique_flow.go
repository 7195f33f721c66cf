package types

// Uniqueness and aliasing through calls, branches and loops, and the
// checks on what functions return (see unique.go for the model).

import (
	"sort"

	"fut/interp/syntax"
)

func (u *uniq) checkSelfAlias(target, value *aliases, sp syntax.Span, name string) {
	if target == nil || value == nil {
		return
	}
	for _, v := range sortedBinds(value.all) {
		if target.all[v] {
			u.c.errorf(sp, "the value written by this in-place update aliases the array being updated (through %s)", v.name)
			return
		}
	}
}

// apply checks the arguments of a call; parameters of unique type consume
// their argument.
func (u *uniq) apply(call syntax.Expr, ft Type, fa *aliases, args []syntax.Expr) *aliases {
	var res *aliases
	t := ft
	consumed := false
	savedCall := u.call
	u.call = call
	defer func() { u.call = savedCall }()
	// Futhark evaluates the arguments of an application from right to
	// left: an argument for a unique parameter is consumed after the
	// arguments to its right were evaluated, and must not alias them.
	froms := make([]Type, len(args))
	for i := range args {
		if a, ok := Resolve(t).(*Arrow); ok {
			froms[i], t = a.From, a.To
		}
	}
	argAls := make([]*aliases, len(args))
	for i := len(args) - 1; i >= 0; i-- {
		arg, from := args[i], froms[i]
		aa := u.expr(arg)
		argAls[i] = aa
		if from != nil && isUnique(from) {
			u.checkDisjointFields(aa, syntax.SpanOf(arg), "this argument is self-aliased: two of its parts share an array, so they cannot both be consumed")
			u.checkOtherArgs(aa, args, argAls, i)
			u.consume(aa, syntax.SpanOf(arg), argConsumption)
			if aa != nil && len(aa.all) > 0 {
				consumed = true
			}
			continue
		}
		if from != nil && namedCallee(call) && u.weakerResult(arg, from) {
			u.c.errorf(syntax.SpanOf(arg), "Cannot pass %s, whose result is not unique, where a function with a unique result (%s) is expected.", u.c.exprName(arg, "this function"), quoteT(from))
		}
		if from != nil && u.argConsumes(arg) && !consumesParam(from) {
			u.c.errorf(syntax.SpanOf(arg), "A consuming function cannot be passed where a function that does not consume its argument is expected (contains-consumption).")
		}
		res = res.union(aa)
	}
	if _, isFun := Resolve(t).(*Arrow); isFun && consumed {
		u.c.errorf(syntax.SpanOf(call), "A partial application that has consumed an argument is not allowed, as the resulting function could be called more than once (contains-consumption).")
	}
	rt := u.typeOf(call)
	if rec, ok := Resolve(rt).(*Record); ok && isUnique(rec) {
		// The unique parts of a record result are fresh; the others
		// alias the arguments.
		r := u.apply1(call, t, fa, res, rt)
		out := &aliases{all: map[*valBind]bool{}, fields: map[string]*aliases{}}
		for _, f := range rec.Fields {
			if isUnique(f.Type) {
				out.fields[f.Name] = nil
				continue
			}
			out.fields[f.Name] = r.field(f.Name)
			out = mergeInto(out, out.fields[f.Name])
		}
		return out
	}
	if rt != nil && isUnique(rt) {
		return nil
	}
	return u.apply1(call, t, fa, res, rt)
}

// apply1 is the aliases of a call's result of type rt that is not unique:
// what the arguments alias (res), the function when it is local, and a
// root of its own.
func (u *uniq) apply1(call syntax.Expr, t Type, fa, res *aliases, rt Type) *aliases {
	// The result may alias what the function value aliases: a lambda or
	// section what it captured, a local function value itself. A global
	// (a top-level function, or one inside a top-level constant) aliases
	// nothing, as in Futhark.
	if fa != nil {
		for v := range fa.all {
			if v.local {
				res = res.union(setOf(v))
			}
		}
	}
	if rt != nil && hasArray(rt) {
		if _, isFun := Resolve(rt).(*Arrow); !isFun {
			// The parts of a non-unique result may alias each other.
			r := &valBind{name: "the result of " + callName(call), local: true, id: u.c.freshID()}
			u.bindRoot(r)
			res = res.union(setOf(r))
			if rec, ok := Resolve(rt).(*Record); ok {
				res.fields = map[string]*aliases{}
				for _, f := range rec.Fields {
					res.fields[f.Name] = &aliases{all: res.all}
				}
			}
		}
	}
	return res
}

// checkOtherArgs reports an argument a (the i'th of args) for a unique
// parameter that aliases one of the arguments to its right, whose
// aliases are in argAls.
func (u *uniq) checkOtherArgs(a *aliases, args []syntax.Expr, argAls []*aliases, i int) {
	if a == nil {
		return
	}
	for j := i + 1; j < len(args); j++ {
		if argAls[j] == nil {
			continue
		}
		for _, v := range sortedBinds(a.all) {
			if argAls[j].all[v] {
				u.c.errorf(syntax.SpanOf(args[i]), "Argument is consumed, but aliases %s, which is also aliased by the argument at %s.", bindName(v), u.c.fset.Position(syntax.SpanOf(args[j]).Start))
				return
			}
		}
	}
}

// branches checks alternative expressions: each starts from the same
// state, and afterwards everything any of them consumed is consumed.
func (u *uniq) branches(es []syntax.Expr, bind func(int)) *aliases {
	return u.branchesWith(es, bind)
}

func (u *uniq) branchesWith(es []syntax.Expr, bind func(int)) *aliases {
	start := copyConsumed(u.consumed)
	all := copyConsumed(u.consumed)
	var res *aliases
	fresh := true
	for i, e := range es {
		u.consumed = copyConsumed(start)
		if bind != nil {
			bind(i)
		}
		a := u.expr(e)
		if a != nil && len(a.all) > 0 {
			fresh = false
		}
		res = res.union(a)
		for k, v := range u.consumed {
			all[k] = v
		}
	}
	u.consumed = all
	if fresh || res == nil {
		return nil
	}
	// What one branch consumed is not aliased by the result of another.
	kept := &aliases{all: map[*valBind]bool{}}
	for v := range res.all {
		if _, before := start[v]; before || all[v] == (syntax.Span{}) {
			kept.all[v] = true
			continue
		}
		if _, gone := all[v]; !gone {
			kept.all[v] = true
		}
	}
	return kept
}

func copyConsumed(m map[*valBind]syntax.Span) map[*valBind]syntax.Span {
	r := make(map[*valBind]syntax.Span, len(m))
	for k, v := range m {
		r[k] = v
	}
	return r
}

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

// declaredType is the type of a function as declared (for a name, its
// scheme, where uniqueness is as written), else as inferred.
func (u *uniq) declaredType(f syntax.Expr) Type {
	for {
		p, ok := f.(*syntax.Paren)
		if !ok {
			break
		}
		f = p.X
	}
	if v, ok := f.(*syntax.Var); ok {
		if vb := u.c.uses[v]; vb != nil && vb.scheme != nil && vb.builtin == "" && (len(v.Name.Quals) == 0 || vb.name != v.Name.Quals[0]) {
			return vb.scheme.Type
		}
	}
	return u.typeOf(f)
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

// consumesParam reports whether t is a function with a unique parameter.
func consumesParam(t Type) bool {
	if t == nil {
		return false
	}
	for {
		a, ok := Resolve(t).(*Arrow)
		if !ok {
			return false
		}
		if isUnique(a.From) {
			return true
		}
		t = a.To
	}
}

// namedCallee reports whether call applies a function by its name, so that
// the parameter types apply takes are as declared (not instantiated by
// the arguments).
func namedCallee(call syntax.Expr) bool {
	a, ok := call.(*syntax.Apply)
	if !ok {
		return false
	}
	_, ok = unparenExpr(a.Fn).(*syntax.Var)
	return ok
}

// weakerResult reports whether arg, a function with a known result type,
// is passed where the parameter's type (from) requires a unique result
// that arg's result is not: a top-level function (whose result's
// uniqueness is declared or inferred) or a local one with a declared
// result type.
func (u *uniq) weakerResult(arg syntax.Expr, from Type) bool {
	v, ok := unparenExpr(arg).(*syntax.Var)
	if !ok {
		return false
	}
	vb := u.c.uses[v]
	if vb == nil || vb.scheme == nil || vb.builtin != "" {
		return false
	}
	if _, isFun := Resolve(vb.scheme.Type).(*Arrow); !isFun {
		return false
	}
	if vb.local {
		declared := false
		for fb, b := range u.c.funBinds {
			if b == vb && fb.RetType != nil {
				declared = true
			}
		}
		if !declared {
			return false
		}
	}
	want, got := Resolve(from), Resolve(vb.scheme.Type)
	for {
		wa, ok1 := want.(*Arrow)
		ga, ok2 := got.(*Arrow)
		if !ok1 || !ok2 {
			break
		}
		want, got = Resolve(wa.To), Resolve(ga.To)
	}
	if _, isFun := want.(*Arrow); isFun {
		return false
	}
	return isUnique(want) && !isUnique(got)
}

// argConsumes reports whether a function passed as an argument consumes
// one of its parameters, as declared.
func (u *uniq) argConsumes(arg syntax.Expr) bool {
	switch a := unparenExpr(arg).(type) {
	case *syntax.Lambda:
		for _, p := range a.Params {
			if pa, ok := unparenPat(p).(*syntax.PAscript); ok {
				if t, ok := u.c.info.PatTypes[pa]; ok && isUnique(t) {
					return true
				}
			}
		}
	case *syntax.Var:
		return consumesParam(u.declaredType(a))
	}
	return false
}

func callName(call syntax.Expr) string {
	if a, ok := call.(*syntax.Apply); ok {
		if v, ok := unparenExpr(a.Fn).(*syntax.Var); ok {
			return "applying \"" + v.Name.String() + "\""
		}
	}
	return "a function application"
}

// checkResult checks the value a function or lambda returns: it may not
// alias a global array, and the unique parts of a declared result may not
// alias each other.
func (u *uniq) checkResult(res *aliases, t Type, sp syntax.Span, declared bool) {
	if res == nil {
		return
	}
	for _, v := range sortedBinds(res.all) {
		if !v.local && v.scheme != nil && hasArray(v.scheme.Type) {
			if _, isFun := Resolve(v.scheme.Type).(*Arrow); !isFun {
				u.c.errorf(sp, "the result aliases the free variable \"%s\", a global array; return a copy instead", v.name)
				return
			}
		}
	}
	if declared && t != nil {
		if r, ok := Resolve(t).(*Record); ok && isUnique(r) {
			u.checkUniqueFields(r, res, sp)
		}
	}
}

// checkUniqueFields reports a unique field of a result of record type r
// that shares an array with another field (two non-unique fields may
// share, as in Futhark).
func (u *uniq) checkUniqueFields(r *Record, a *aliases, sp syntax.Span) {
	if a == nil || len(a.fields) < 2 {
		return
	}
	for i, f := range r.Fields {
		if !isUnique(f.Type) {
			continue
		}
		fa := a.fields[f.Name]
		if fa == nil {
			continue
		}
		for j, g := range r.Fields {
			ga := a.fields[g.Name]
			if i == j || ga == nil {
				continue
			}
			for _, v := range sortedBinds(fa.all) {
				if ga.all[v] {
					u.c.errorf(sp, "the unique parts of this result are aliased to some other component (both alias %s).", bindName(v))
					return
				}
			}
		}
	}
}

// checkDisjointFields reports a tuple or record value two of whose parts
// share an array.
func (u *uniq) checkDisjointFields(a *aliases, sp syntax.Span, msg string) {
	if a == nil || len(a.fields) < 2 {
		return
	}
	var names []string
	for n := range a.fields {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		for _, m := range names[i+1:] {
			fa, fb := a.fields[n], a.fields[m]
			if fa == nil || fb == nil {
				continue
			}
			for v := range fa.all {
				if fb.all[v] {
					u.c.errorf(sp, "%s (both alias %s).", msg, bindName(v))
					return
				}
			}
		}
	}
}

// annotated reports whether the name id is under a type ascription in p.
func annotated(p syntax.Pat, id *syntax.PId) bool {
	found := false
	var walk func(p syntax.Pat, under bool)
	walk = func(p syntax.Pat, under bool) {
		switch q := p.(type) {
		case *syntax.PId:
			if q == id && under {
				found = true
			}
		case *syntax.PParen:
			walk(q.P, under)
		case *syntax.PAttr:
			walk(q.P, under)
		case *syntax.PAscript:
			walk(q.P, true)
		case *syntax.PTuple:
			for _, e := range q.Elems {
				walk(e, under)
			}
		case *syntax.PRecord:
			for _, f := range q.Fields {
				walk(f.Pat, under)
			}
		}
	}
	walk(p, false)
	return found
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

// argConsumption says that an argument is consumed by a unique parameter.
const argConsumption = "this argument (for a unique parameter)"

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

// inferUnique makes the result of a top-level function without a declared
// result type unique where the body's value is fresh, as Futhark infers
// it: a part of the result (a field of a record, else the whole) is unique
// when it aliases no parameter but unique ones, nothing global, and no
// other part of the result. ft is the function's type, n its number of
// parameters; its last arrow is updated in place.
func (u *uniq) inferUnique(ft Type, n int, res *aliases) {
	var last *Arrow
	t := ft
	for i := 0; i < n; i++ {
		a, ok := Resolve(t).(*Arrow)
		if !ok {
			return
		}
		last, t = a, a.To
	}
	if last == nil {
		return
	}
	count := map[*valBind]int{}
	var countParts func(t Type, a *aliases)
	countParts = func(t Type, a *aliases) {
		if r, ok := Resolve(t).(*Record); ok {
			for _, f := range r.Fields {
				countParts(f.Type, a.field(f.Name))
			}
			return
		}
		if a != nil && hasAliases(t) {
			for v := range a.all {
				count[v]++
			}
		}
	}
	countParts(t, res)
	fresh := func(a *aliases) bool {
		if a == nil {
			return true
		}
		for v := range a.all {
			_, mine := u.frame[v]
			switch {
			case u.uparams[v]:
			case u.params[v], !v.local, !mine, count[v] > 1:
				return false
			}
		}
		return true
	}
	var infer func(t Type, a *aliases) Type
	infer = func(t Type, a *aliases) Type {
		switch x := Resolve(t).(type) {
		case *Record:
			fs := make([]Field, len(x.Fields))
			for i, f := range x.Fields {
				fs[i] = Field{f.Name, infer(f.Type, a.field(f.Name))}
			}
			return &Record{fs}
		case *Array, *Con:
			if fresh(a) {
				return setUnique(x, true)
			}
		}
		return t
	}
	last.To = infer(t, res)
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
