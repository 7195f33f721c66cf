package types

// Uniqueness and aliasing through calls and branches (loops are in
// unique_loop.go), the inference of unique results, and the
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

// argConsumption says that an argument is consumed by a unique parameter.
const argConsumption = "this argument (for a unique parameter)"

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

// checkLetConsumption reports a let-bound value of a type with functions
// in it whose evaluation consumed a variable bound outside it (not before):
// as in Futhark, a function that may be called more than once must not
// stand for a consumption. (What a lambda's body consumes is its own
// parameters'.)
func (u *uniq) checkLetConsumption(value syntax.Expr, before map[*valBind]bool) {
	vsp := syntax.SpanOf(value)
	outside := map[*valBind]bool{}
	for r := range u.consumed {
		if !before[r] && (r.span.Start < vsp.Start || r.span.Start >= vsp.End) {
			outside[r] = true
		}
	}
	for _, r := range sortedBinds(outside) {
		u.c.errorf(vsp, "Let-bound expression of higher-order type %s consumes %s, which is not allowed (contains-consumption): the function could be called more than once. Consume a copy instead.", quoteT(u.typeOf(value)), bindName(r))
		return
	}
}

// hasFunction reports whether values of t hold a function.
func hasFunction(t Type) bool {
	switch t := Resolve(t).(type) {
	case *Arrow:
		return true
	case *Array:
		return hasFunction(t.Elem)
	case *Record:
		for _, f := range t.Fields {
			if hasFunction(f.Type) {
				return true
			}
		}
	case *Sum:
		for _, cn := range t.Constrs {
			for _, p := range cn.Payload {
				if hasFunction(p) {
					return true
				}
			}
		}
	}
	return false
}
