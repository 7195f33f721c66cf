package types

// Inference for expressions.

import (
	"fmt"

	"fut/interp/syntax"
)

var builtinOps = []string{"+", "-", "*", "/", "%", "//", "%%", "**",
	"==", "!=", "<", ">", "<=", ">=", "&&", "||",
	"&", "|", "^", "<<", ">>", ">>>", "|>", "<|"}

func (c *Checker) inferExpr(e syntax.Expr, sc *scope) Type {
	saved := c.curExpr
	c.curExpr = e
	t := c.infer1(e, sc)
	c.curExpr = saved
	c.info.Types[e] = t
	c.pendExprs = append(c.pendExprs, e)
	return t
}

func (c *Checker) intLitType(sp syntax.Span, suffix syntax.PrimType) Type {
	if suffix != "" {
		return &Prim{suffix}
	}
	v := c.newOverloaded(sp, numPrims, "integer literal")
	v.lit = true
	c.overloaded = append(c.overloaded, v)
	return v
}

func (c *Checker) overloadedVar(sp syntax.Span, ps []syntax.PrimType, why string) TVar {
	v := c.newOverloaded(sp, ps, why)
	c.overloaded = append(c.overloaded, v)
	return v
}

func (c *Checker) infer1(e syntax.Expr, sc *scope) Type {
	switch e := e.(type) {
	case *syntax.IntLit:
		return c.intLitType(e.Span, e.Suffix)
	case *syntax.CharLit:
		return c.intLitType(e.Span, "")
	case *syntax.FloatLit:
		if e.Suffix != "" {
			if !IsFloat(e.Suffix) {
				c.errorf(e.Span, "A floating-point literal cannot have the type \"%s\".", e.Suffix)
			}
			return &Prim{e.Suffix}
		}
		v := c.overloadedVar(e.Span, floatPrims, "float literal")
		v.lit = true
		return v
	case *syntax.BoolLit:
		return Bool
	case *syntax.StringLit:
		return &Array{Dim: &SizeConst{N: int64(len(e.Value))}, Elem: U8}
	case *syntax.Var:
		return c.inferVar(e, sc)
	case *syntax.Paren:
		return c.inferExpr(e.X, sc)
	case *syntax.TupleLit:
		ts := make([]Type, len(e.Elems))
		for i, x := range e.Elems {
			ts[i] = c.inferExpr(x, sc)
		}
		return TupleType(ts...)
	case *syntax.RecordLit:
		var fs []Field
		seen := map[string]bool{}
		for _, f := range e.Fields {
			t := c.inferExpr(f.Value, sc)
			if seen[f.Name] {
				c.errorf(f.Span, "Field \"%s\" previously defined in this record.", f.Name)
				continue
			}
			seen[f.Name] = true
			fs = append(fs, Field{f.Name, t})
		}
		return NewRecord(fs)
	case *syntax.ArrayLit:
		elem := Type(c.newTVar(e.Span))
		elem.(TVar).lifted = syntax.Unlifted
		for i, x := range e.Elems {
			t := c.inferExpr(x, sc)
			if i == 0 {
				if isFunctional(t) {
					c.errorf(syntax.SpanOf(x), "Cannot create array with elements of lifted type %s (arrays of functional values are not allowed).", quoteT(t))
					return c.newTVar(e.Span)
				}
				if !c.unifyAt(syntax.SpanOf(x), "Cannot create an array of elements of this type.", elem, t, false) {
					// The other elements would only repeat the error.
					for _, y := range e.Elems[1:] {
						c.inferExpr(y, sc)
					}
					break
				}
				continue
			}
			c.unifyAt(syntax.SpanOf(x), "Array elements differ in type.", elem, t, false)
		}
		return &Array{Dim: &SizeConst{N: int64(len(e.Elems))}, Elem: elem}
	case *syntax.Range:
		return c.inferRange(e, sc)
	case *syntax.Project:
		t := c.inferExpr(e.X, sc)
		return c.project(t, e.Field, e.Span)
	case *syntax.QualParen:
		m := c.lookupModPath(e.Quals, sc, e.Span)
		inner := newScope(sc)
		if m != nil {
			merge(&inner.ns, &m.ns)
		}
		return c.inferExpr(e.X, inner)
	case *syntax.Binary:
		return c.inferBinary(e, sc)
	case *syntax.Negate:
		t := c.inferExpr(e.X, sc)
		v := c.overloadedVar(e.Span, numPrims, "negation")
		c.unify(syntax.SpanOf(e.X), v, t)
		return t
	case *syntax.Not:
		t := c.inferExpr(e.X, sc)
		v := c.overloadedVar(e.Span, append(append([]syntax.PrimType{}, intPrims...), "bool"), "!")
		c.unify(syntax.SpanOf(e.X), v, t)
		return t
	case *syntax.Apply:
		ft := c.inferExpr(e.Fn, sc)
		type lateArg struct {
			lam *syntax.Lambda
			arg syntax.Expr
			tv  Type
		}
		var late []lateArg
		for i, a := range e.Args {
			var at Type
			if lam := lateLambda(e.Args, i); lam != nil {
				// its parameters' types come from the later arguments
				at = c.newTVar(syntax.SpanOf(a))
				late = append(late, lateArg{lam, a, at})
			} else {
				at = c.inferExpr(a, sc)
			}
			if i > 0 && !canApply(ft) {
				c.errorf(syntax.SpanOf(a), "Cannot apply %s to %d arguments: it takes only %d arguments, and its result after them has type %s.", fnName(e.Fn), len(e.Args), i, quoteT(ft))
				return c.newTVar(e.Span)
			}
			ft = c.applyArrow(ft, a, at, sc, e.Fn)
		}
		for _, l := range late {
			if c.lambdaWant == nil {
				c.lambdaWant = map[*syntax.Lambda]Type{}
			}
			c.lambdaWant[l.lam] = l.tv
			lt := c.inferExpr(l.arg, sc)
			delete(c.lambdaWant, l.lam)
			if err := c.unifyT(l.tv, lt, false); err != nil {
				c.errorf(syntax.SpanOf(l.arg), "%s", c.mismatchIn(fmt.Sprintf("Cannot apply %s to %s (invalid type).", fnName(e.Fn), c.exprName(l.arg, "argument")), l.tv, lt, err))
			}
		}
		return ft
	case *syntax.Constr:
		ps := make([]Type, len(e.Args))
		for i, a := range e.Args {
			ps[i] = c.inferExpr(a, sc)
		}
		return c.constrVar(e.Span, e.Name, ps)
	case *syntax.OpSection:
		v := &syntax.Var{Loc: syntax.Loc{Span: e.Span}, Name: e.Op}
		t := c.inferVar(v, sc)
		c.opUses[e] = c.uses[v]
		c.copyUse(e, v)
		return t
	case *syntax.LeftSection:
		ft := c.opType(e.Op, e.Backtick, sc, e.Span, e)
		c.sectionOps[e] = ft
		lt := c.inferExpr(e.L, sc)
		return c.applyArrow(ft, e.L, lt, sc, e)
	case *syntax.RightSection:
		ft := c.opType(e.Op, e.Backtick, sc, e.Span, e)
		c.sectionOps[e] = ft
		rt := c.inferExpr(e.R, sc)
		from, rest := c.splitArrow(ft, e.Span)
		from2, res := c.splitArrow(rest, e.Span)
		c.unify(syntax.SpanOf(e.R), from2, rt)
		return &Arrow{From: from, To: res}
	case *syntax.ProjectSection:
		v := c.newTVar(e.Span)
		t := Type(v)
		for _, f := range e.Fields {
			t = c.project(t, f, e.Span)
		}
		return &Arrow{From: v, To: t}
	case *syntax.IndexSection:
		v := c.newTVar(e.Span)
		t := c.followPath(v, e.Path, sc, e.Span)
		return &Arrow{From: v, To: t}
	case *syntax.Lambda:
		return c.inferLambdaAs(e, sc, c.lambdaWant[e])
	case *syntax.If:
		ct := c.inferExpr(e.Cond, sc)
		c.unify(syntax.SpanOf(e.Cond), Bool, ct)
		tt := c.inferExpr(e.Then, sc)
		et := c.inferExpr(e.Else, sc)
		if !c.unifyNoSizes(syntax.SpanOf(e.Else), tt, et) {
			return tt
		}
		// Whether the branches are functions is checked once the
		// definition's types are known (endDef), as Futhark does.
		return c.joinBranches(e.Span, tt, et)
	case *syntax.LetIn:
		return c.inferLetIn(e, sc)
	case *syntax.LetFun:
		inner := newScope(sc)
		sch := c.checkFunBind(e.Fun, sc, false)
		inner.vals[e.Fun.Name] = &valBind{name: e.Fun.Name, scheme: sch, span: e.Fun.NameSpan, local: true, level: c.level, id: c.freshID()}
		c.funBinds[e.Fun] = inner.vals[e.Fun.Name]
		return c.inferExpr(e.Body, inner)
	case *syntax.LetWith:
		dt := c.inferExpr(e.Dest, sc)
		target := c.followPath(dt, e.Path, sc, e.Dest.Span)
		vt := c.inferExpr(e.Value, sc)
		c.unifyAt(syntax.SpanOf(e.Value), updateWhat(e.Path), target, vt, true)
		inner := newScope(sc)
		old := c.uses[e.Dest]
		if old != nil {
			nb := &valBind{name: old.name, scheme: &Scheme{Type: dt}, span: e.Dest.Span, local: true, level: c.level, id: c.freshID()}
			inner.vals[old.name] = nb
			c.withBinds[e] = nb
		}
		return c.inferExpr(e.Body, inner)
	case *syntax.Update:
		xt := c.inferExpr(e.X, sc)
		if len(e.Path) > 0 && e.Path[0].Indices == nil {
			if _, unknown := Resolve(xt).(TVar); unknown {
				// As in Futhark, a record update needs the record's
				// whole type (a type with a field x is not enough).
				c.errorf(syntax.SpanOf(e.X), "Full type of %s is not known at this point: a record update needs the whole record type (add a type annotation) (record-type-not-known).", c.exprName(e.X, "the record"))
			}
		}
		target := c.followPath(xt, e.Path, sc, e.Span)
		vt := c.inferExpr(e.Value, sc)
		if !c.unifyAt(syntax.SpanOf(e.Value), updateWhat(e.Path), target, vt, true) {
			return xt
		}
		// As in Futhark, a record update (fields only) gives the field
		// the new value's type, sizes included: r with a = sized m r.a
		// has a field of size m. An in-place update keeps the array's.
		if nt := withFieldType(xt, e.Path, vt); nt != nil {
			return nt
		}
		return xt
	case *syntax.Index:
		xt := c.inferExpr(e.X, sc)
		return c.indexType(xt, e.Indices, sc, e.Span)
	case *syntax.Loop:
		return c.inferLoop(e, sc)
	case *syntax.Match:
		return c.inferMatch(e, sc)
	case *syntax.Assert:
		ct := c.inferExpr(e.Cond, sc)
		c.unify(syntax.SpanOf(e.Cond), Bool, ct)
		return c.inferExpr(e.X, sc)
	case *syntax.Ascript:
		t := c.inferExpr(e.X, sc)
		savedFlex := c.anonFlex
		c.anonFlex = anonAscribed
		d := c.typeExp(e.Type, sc, dimFlex)
		c.anonFlex = savedFlex
		c.unifyAt(syntax.SpanOf(e.X), "Expression does not have expected type.", d, t, false)
		return d
	case *syntax.Coerce:
		t := c.inferExpr(e.X, sc)
		d := c.typeExp(e.Type, sc, dimFlex)
		// The sizes are checked at run time, against the value's, which
		// must therefore be known (flexsizes.go).
		if target := c.coercionTarget(d, e.Span); target != nil {
			anon := map[*svar]bool{} // the sizes written [] in the type
			c.mapArraySizes(d, false, func(z Size) Size {
				if v, ok := resolveSize(z).(SizeVar); ok {
					anon[v.svar] = true
				}
				return z
			})
			if err := c.unifyT(target, t, false); err != nil {
				c.errorf(syntax.SpanOf(e.X), "%s", c.mismatchIn("Expression cannot be coerced to the given type.", d, t, err))
			}
			// the value decides those sizes (above), but the coercion's
			// type does not state them: sizes of their own, as a branch
			// of an if whose other branch differs needs (sumtypes/coerce0)
			return c.mapArraySizes(d, false, func(z Size) Size {
				for w, ok := z.(SizeVar); ok; w, ok = w.link.(SizeVar) {
					if anon[w.svar] {
						return c.newSizeVar()
					}
					if w.link == nil {
						break
					}
				}
				return z
			})
		} else {
			c.unifyAt(syntax.SpanOf(e.X), "Expression cannot be coerced to the given type.", d, t, true)
		}
		return d
	case *syntax.Attr:
		return c.inferExpr(e.X, sc)
	case *syntax.Hole:
		return c.newTVar(e.Span)
	}
	c.errorf(syntax.SpanOf(e), "Unsupported expression.")
	return c.newTVar(syntax.SpanOf(e))
}

// withFieldType is the record type t with the field at path (fields
// only) of type vt, or nil where path is not one of fields of records
// known here.
func withFieldType(t Type, path []syntax.PathElem, vt Type) Type {
	if len(path) == 0 {
		return vt
	}
	if path[0].Indices != nil {
		return nil
	}
	r, ok := Resolve(t).(*Record)
	if !ok {
		return nil
	}
	fs := make([]Field, len(r.Fields))
	found := false
	for i, f := range r.Fields {
		fs[i] = f
		if f.Name == path[0].Field {
			ft := withFieldType(f.Type, path[1:], vt)
			if ft == nil {
				return nil
			}
			fs[i].Type, found = ft, true
		}
	}
	if !found {
		return nil
	}
	return &Record{Fields: fs}
}

func (c *Checker) freshID() int {
	c.nextID++
	return c.nextID
}

// constrVar is a type known to be a sum type with constructor name.
func (c *Checker) constrVar(sp syntax.Span, name string, ps []Type) Type {
	v := c.newTVar(sp)
	v.constrs = map[string][]Type{name: ps}
	v.openCons = c.countOpen(ps...)
	c.constrVars = append(c.constrVars, v)
	return v
}

func (c *Checker) project(t Type, field string, sp syntax.Span) Type {
	switch r := Resolve(t).(type) {
	case *Record:
		if ft, ok := r.Field(field); ok {
			return ft
		}
		c.errorf(sp, "Record type %s has no field \"%s\".", quoteT(r), field)
		return c.newTVar(sp)
	case TVar:
		ft := c.newTVar(sp)
		v := c.newTVar(sp)
		v.fields = map[string]Type{field: ft}
		v.openCons = 1
		c.fieldVars = append(c.fieldVars, v)
		if c.unify(sp, v, r) {
			return ft
		}
		return c.newTVar(sp)
	default:
		c.errorf(sp, "Cannot access field \"%s\" of a value of type %s, which is not a record.", field, quoteT(r))
		return c.newTVar(sp)
	}
}

// splitArrow views t as a function type.
func (c *Checker) splitArrow(t Type, sp syntax.Span) (Type, Type) {
	switch f := Resolve(t).(type) {
	case *Arrow:
		return f.From, f.To
	case TVar:
		a, b := c.newTVar(sp), c.newTVar(sp)
		c.unify(sp, f, &Arrow{From: a, To: b})
		return a, b
	}
	c.errorf(sp, "Expected a function, but found a value of type %s.", quoteT(t))
	return c.newTVar(sp), c.newTVar(sp)
}

// applyArrow applies a function of type ft to arg (of type at).
func (c *Checker) applyArrow(ft Type, arg syntax.Expr, at Type, sc *scope, fn syntax.Node) Type {
	sp := syntax.SpanOf(arg)
	switch f := Resolve(ft).(type) {
	case TVar:
		if f.overload != nil || f.fields != nil || f.constrs != nil {
			break
		}
		res := c.newTVar(sp)
		c.unify(syntax.SpanOf(fn), f, &Arrow{From: at, To: res})
		return res
	case *Arrow:
		badDependent := dependentArrow(at) && !dependentArrow(f.From) && !hasExistResult(f.From) && resultIsUnliftedVar(f.From)
		firstID := c.nextID
		if err := c.unifyT(f.From, setUnique(at, false), false); err != nil {
			c.errorf(sp, "%s", c.mismatchIn(fmt.Sprintf("Cannot apply %s to %s (invalid type).", fnName(fn), c.exprName(arg, "argument")), f.From, at, err))
		} else if dependentArrow(at) && !badDependent && existInParam(f.To, firstID) {
			c.errorf(sp, "Existential size would appear in function parameter of return type %s, applying %s to %s, whose result size depends on its argument (existential-param-ret).", quoteT(zonk(f.To)), fnName(fn), c.exprName(arg, "argument"))
		} else if ex := resultExists(at); len(ex) > 0 && existNameInParam(f.To, ex) {
			c.errorf(sp, "Existential size would appear in function parameter of return type %s, applying %s to %s, a function whose result has an existential size (existential-param-ret); apply the functions in turn instead (xs |> f |> g, not f >-> g).", quoteT(zonk(f.To)), fnName(fn), c.exprName(arg, "argument"))
		}
		to := f.To
		s := &subst{sizes: map[*SizeName]Size{}}
		if f.Param != nil && bindingIn(arg) != nil && mentionsSize(f.To, f.Param) {
			// As in Futhark: a size may not bind names, so the result
			// has a size of its own (iota (let n = 10 in n + n)).
			c.warnf(sp, "Size expression with binding is replaced by unknown size (size-expression-bind).")
			s.sizes[f.Param] = c.freshUnknown("")
		} else if f.Param != nil {
			d := c.sizeOfExpr(arg, sc)
			if _, unknown := d.(*SizeAny); unknown {
				if t := c.canonSize(arg, sc); t != nil {
					d = t
				} else {
					// Not expressible as a size: a size of its own.
					d = c.freshUnknown("")
				}
			}
			s.sizes[f.Param] = d
		}
		if badDependent {
			c.errorf(sp, "Cannot apply %s to %s, a function whose result size depends on its own argument (%s): the result would have a type containing anonymous sizes.", fnName(fn), c.exprName(arg, "an argument"), quoteT(at))
		}
		for _, ex := range f.Exist {
			u := c.newUnknown(ex.Name)
			c.noteOrigin(u)
			c.localSizes[u] = c.level
			s.sizes[ex] = u
		}
		return substType(to, s)
	}
	c.errorf(syntax.SpanOf(fn), "Cannot apply expression as function: it has type %s, which is not a function type.", quoteT(ft))
	return c.newTVar(sp)
}

// existInParam reports whether t, the result of an application, has in a
// function parameter's type a size made while unifying the argument (a
// size variable numbered after first, standing for the argument's own
// parameter) that no positive position of t has: nothing could give it.
func existInParam(t Type, first int) bool {
	inParam, produced := map[*svar]bool{}, map[*svar]bool{}
	sizesByPosition(t, false, func(z Size, param bool) {
		if x, ok := z.(SizeVar); ok && x.id > first {
			if param {
				inParam[x.svar] = true
			} else {
				produced[x.svar] = true
			}
		}
	})
	for v := range inParam {
		if !produced[v] {
			return true
		}
	}
	return false
}

// resultExists lists the existential sizes of the results of the
// function types in t (filter p : [n]t -> ?[m].[m]t has m).
func resultExists(t Type) map[*SizeName]bool {
	ex := map[*SizeName]bool{}
	var walk func(t Type)
	walk = func(t Type) {
		switch x := Resolve(t).(type) {
		case *Arrow:
			for _, e := range x.Exist {
				ex[e] = true
			}
			walk(x.To)
		case *Record:
			for _, f := range x.Fields {
				walk(f.Type)
			}
		}
	}
	walk(t)
	return ex
}

// existNameInParam reports whether t, the result of an application, has
// in a function parameter's type one of the existential sizes ex of the
// argument's results, which no positive position of t has: each call of
// the argument makes a size of its own, so none could be given there
// ((>->) (filter p) : ([m]t -> c) -> [n]t -> c).
func existNameInParam(t Type, ex map[*SizeName]bool) bool {
	inParam, produced := map[*SizeName]bool{}, map[*SizeName]bool{}
	sizesByPosition(t, false, func(z Size, param bool) {
		if x, ok := z.(*SizeName); ok && ex[x] {
			if param {
				inParam[x] = true
			} else {
				produced[x] = true
			}
		}
	})
	for v := range inParam {
		if !produced[v] {
			return true
		}
	}
	return false
}

func (c *Checker) inferVar(e *syntax.Var, sc *scope) Type {
	c.info.noteVar(e) // sizeargs.go
	q := e.Name
	if len(q.Quals) == 0 {
		v := sc.lookupVal(q.Name)
		if v == nil {
			c.errorf(e.Span, "Unknown name \"%s\".", q.Name)
			return c.newTVar(e.Span)
		}
		if v.local && len(q.Name) > 1 && q.Name[0] == '_' {
			c.errorf(e.Span, "Variable \"%s\" starts with an underscore, which marks it as unused: it may not be used.", q.Name)
		}
		c.uses[e] = v
		c.recordUse(e, v)
		if v.builtin != "" {
			return c.builtinOpType(v.builtin, e.Span)
		}
		return c.instantiate(v.scheme, e.Span)
	}
	// r.x.y where r is a variable: field access.
	if v := sc.lookupVal(q.Quals[0]); v != nil && v.builtin == "" {
		if sc.lookupMod(q.Quals[0]) == nil || c.valShadowsMod(sc, q.Quals[0]) {
			c.uses[e] = v
			c.recordUse(e, v)
			c.recordFields(e, append(append([]string{}, q.Quals[1:]...), q.Name))
			t := c.instantiate(v.scheme, e.Span)
			for _, f := range append(q.Quals[1:], q.Name) {
				t = c.project(t, f, e.Span)
			}
			return t
		}
	}
	m := sc.lookupMod(q.Quals[0])
	if m == nil {
		c.errorf(e.Span, "Unknown name \"%s\".", q.String())
		return c.newTVar(e.Span)
	}
	rest := append(append([]string{}, q.Quals[1:]...), q.Name)
	for i, n := range rest {
		if i < len(rest)-1 {
			if sub, ok := m.mods[n]; ok {
				m = sub
				continue
			}
		}
		v, ok := m.vals[n]
		if !ok && m.functor != nil {
			c.errorf(e.Span, "Module %s is a parametric module: apply it to an argument before using its contents (module-is-parametric).", joinQuals(q.Quals[:min(i+1, len(q.Quals))]))
			return c.newTVar(e.Span)
		}
		if !ok {
			c.errorf(e.Span, "Unknown name \"%s\": module %s has no value \"%s\".", q.String(), joinQuals(q.Quals[:min(i+1, len(q.Quals))]), n)
			return c.newTVar(e.Span)
		}
		c.uses[e] = v
		c.recordUse(e, v)
		var t Type
		if v.builtin != "" {
			t = c.builtinOpType(v.builtin, e.Span)
		} else {
			t = c.instantiate(v.scheme, e.Span)
		}
		c.recordFields(e, rest[i+1:])
		for _, f := range rest[i+1:] {
			t = c.project(t, f, e.Span)
		}
		return t
	}
	return c.newTVar(e.Span)
}

// valShadowsMod reports whether the nearest binding of name is a value.
func (c *Checker) valShadowsMod(sc *scope, name string) bool {
	for s := sc; s != nil; s = s.parent {
		if _, ok := s.vals[name]; ok {
			return true
		}
		if _, ok := s.mods[name]; ok {
			return false
		}
	}
	return false
}

func joinQuals(qs []string) string {
	s := ""
	for i, q := range qs {
		if i > 0 {
			s += "."
		}
		s += q
	}
	return s
}

// builtinOpType is the type of a built-in overloaded operator, as a
// curried function.
func (c *Checker) builtinOpType(op string, sp syntax.Span) Type {
	bin := func(ps []syntax.PrimType, res Type) Type {
		v := c.overloadedVar(sp, ps, op)
		r := res
		if r == nil {
			r = v
		}
		return &Arrow{From: v, To: &Arrow{From: v, To: r}}
	}
	switch op {
	case "+", "-", "*", "/", "%", "//", "%%", "**":
		return bin(numPrims, nil)
	case "&", "|", "^", "<<", ">>", ">>>":
		return bin(intPrims, nil)
	case "<", ">", "<=", ">=":
		return bin(allPrims, Bool)
	case "&&", "||":
		return &Arrow{From: Bool, To: &Arrow{From: Bool, To: Bool}}
	case "==", "!=":
		v := c.newTVar(sp)
		v.equality = true
		v.lifted = syntax.Unlifted
		return &Arrow{From: v, To: &Arrow{From: v, To: Bool}}
	case "|>":
		a, b := c.newTVar(sp), c.newTVar(sp)
		return &Arrow{From: a, To: &Arrow{From: &Arrow{From: a, To: b}, To: b}}
	case "<|":
		a, b := c.newTVar(sp), c.newTVar(sp)
		return &Arrow{From: &Arrow{From: a, To: b}, To: &Arrow{From: a, To: b}}
	}
	return c.newTVar(sp)
}

// opType is the type of an operator (or backticked function) as a value.
func (c *Checker) opType(op syntax.QualName, backtick bool, sc *scope, sp syntax.Span, at syntax.Node) Type {
	v := &syntax.Var{Loc: syntax.Loc{Span: sp}, Name: op}
	t := c.inferVar(v, sc)
	c.copyUse(at, v)
	return t
}

func (c *Checker) inferBinary(e *syntax.Binary, sc *scope) Type {
	if len(e.Op.Quals) == 0 && !e.Backtick && (e.Op.Name == "|>" || e.Op.Name == "<|") {
		if v := sc.lookupVal(e.Op.Name); v != nil && v.builtin != "" {
			c.recordUse(e, v)
			x, f := e.L, e.R
			if e.Op.Name == "<|" {
				x, f = e.R, e.L
			}
			ft := c.inferExpr(f, sc)
			xt := c.inferExpr(x, sc)
			return c.applyArrow(ft, x, xt, sc, f)
		}
	}
	opv := &syntax.Var{Loc: syntax.Loc{Span: e.OpSpan}, Name: e.Op}
	if !e.OpSpan.Start.IsValid() {
		opv.Span = e.Span
	}
	ft := c.inferVar(opv, sc)
	c.copyUse(e, opv)
	lt := c.inferExpr(e.L, sc)
	n := len(c.errs)
	ft = c.applyArrow(ft, e.L, lt, sc, opv)
	rt := c.inferExpr(e.R, sc)
	if len(c.errs) > n {
		// The left operand was wrong already: do not report the right
		// one for the same reason.
		m := len(c.errs)
		r := c.applyArrow(ft, e.R, rt, sc, opv)
		c.errs = c.errs[:m]
		return r
	}
	return c.applyArrow(ft, e.R, rt, sc, opv)
}

// indexType is the type of t indexed by idx.
func (c *Checker) indexType(t Type, idx []*syntax.DimIndex, sc *scope, sp syntax.Span) Type {
	var dims []Size
	for _, ix := range idx {
		at := Resolve(t)
		if v, ok := at.(TVar); ok {
			elem := c.newTVar(sp)
			elem.lifted = syntax.Unlifted
			arr := &Array{Dim: c.newSizeVar(), Elem: elem}
			c.unify(sp, v, arr)
			at = arr
		}
		a, ok := at.(*Array)
		if !ok {
			c.errorf(sp, "Cannot index into a value of type %s: it is not an array (or has fewer than %d dimensions).", quoteT(t), len(idx))
			return c.newTVar(sp)
		}
		if !ix.IsSlice {
			c.checkIndex(ix.Fix, sc, false)
		} else {
			for _, x := range []syntax.Expr{ix.Start, ix.End, ix.Stride} {
				if x != nil {
					c.checkIndex(x, sc, true)
				}
			}
			dims = append(dims, c.sliceSize(a.Dim, ix, sc))
		}
		t = a.Elem
	}
	for i := len(dims) - 1; i >= 0; i-- {
		t = &Array{Dim: dims[i], Elem: t}
	}
	return t
}

// checkIndex checks an index or slice bound: any integer type, where a
// slice bound of unknown type is an i64 (it determines a size).
func (c *Checker) checkIndex(x syntax.Expr, sc *scope, sliceBound bool) {
	t := c.inferExpr(x, sc)
	v := c.overloadedVar(syntax.SpanOf(x), intPrims, "index")
	v.index = sliceBound
	c.unify(syntax.SpanOf(x), v, t)
}

// followPath gives the type at an update path (a with [i].f = v).
func (c *Checker) followPath(t Type, path []syntax.PathElem, sc *scope, sp syntax.Span) Type {
	for _, pe := range path {
		if pe.Indices != nil {
			t = c.indexType(t, pe.Indices, sc, pe.Span)
		} else {
			t = c.project(t, pe.Field, pe.Span)
		}
	}
	return t
}
