package types

// Inference for expressions.

import (
	"fut/interp/syntax"
)

var builtinOps = []string{"+", "-", "*", "/", "%", "//", "%%", "**",
	"==", "!=", "<", ">", "<=", ">=", "&&", "||",
	"&", "|", "^", "<<", ">>", ">>>", "|>", "<|"}

func (c *Checker) inferExpr(e syntax.Expr, sc *scope) Type {
	t := c.infer1(e, sc)
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
				c.errorf(e.Span, "a floating-point literal cannot have the type %s", e.Suffix)
			}
			return &Prim{e.Suffix}
		}
		v := c.overloadedVar(e.Span, floatPrims, "float literal")
		v.lit = true
		return v
	case *syntax.BoolLit:
		return Bool
	case *syntax.StringLit:
		return &Array{Dim: &SizeConst{int64(len(e.Value))}, Elem: U8}
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
				c.errorf(f.Span, "field %s is given more than once in the record", f.Name)
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
					c.errorf(syntax.SpanOf(x), "arrays of functions are not allowed (element type %s)", t)
					return c.newTVar(e.Span)
				}
				c.unify(syntax.SpanOf(x), elem, t)
				continue
			}
			c.unify(syntax.SpanOf(x), elem, t)
		}
		return &Array{Dim: &SizeConst{int64(len(e.Elems))}, Elem: elem}
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
		for _, a := range e.Args {
			at := c.inferExpr(a, sc)
			ft = c.applyArrow(ft, a, at, sc, e.Fn)
		}
		return ft
	case *syntax.Constr:
		ps := make([]Type, len(e.Args))
		for i, a := range e.Args {
			ps[i] = c.inferExpr(a, sc)
		}
		return c.constrVar(e.Span, e.Name, ps)
	case *syntax.OpSection:
		return c.opType(e.Op, e.Backtick, sc, e.Span)
	case *syntax.LeftSection:
		ft := c.opType(e.Op, e.Backtick, sc, e.Span)
		lt := c.inferExpr(e.L, sc)
		return c.applyArrow(ft, e.L, lt, sc, e)
	case *syntax.RightSection:
		ft := c.opType(e.Op, e.Backtick, sc, e.Span)
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
		return c.inferLambda(e, sc)
	case *syntax.If:
		ct := c.inferExpr(e.Cond, sc)
		c.unify(syntax.SpanOf(e.Cond), Bool, ct)
		tt := c.inferExpr(e.Then, sc)
		et := c.inferExpr(e.Else, sc)
		if !c.unifyNoSizes(syntax.SpanOf(e.Else), tt, et) {
			return tt
		}
		if isFunctional(tt) {
			c.errorf(e.Span, "a conditional cannot return a function (its type is %s)", zonk(tt))
		}
		return c.joinTypes(tt, et)
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
		c.unifyNoSizes(syntax.SpanOf(e.Value), target, vt)
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
		target := c.followPath(xt, e.Path, sc, e.Span)
		vt := c.inferExpr(e.Value, sc)
		c.unifyNoSizes(syntax.SpanOf(e.Value), target, vt)
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
		d := c.typeExp(e.Type, sc, dimFlex)
		c.unify(syntax.SpanOf(e.X), d, t)
		return d
	case *syntax.Coerce:
		t := c.inferExpr(e.X, sc)
		d := c.typeExp(e.Type, sc, dimFlex)
		c.unifyNoSizes(syntax.SpanOf(e.X), d, t)
		return d
	case *syntax.Attr:
		return c.inferExpr(e.X, sc)
	case *syntax.Hole:
		return c.newTVar(e.Span)
	}
	c.errorf(syntax.SpanOf(e), "unsupported expression")
	return c.newTVar(syntax.SpanOf(e))
}

func (c *Checker) freshID() int {
	c.nextID++
	return c.nextID
}

// constrVar is a type known to be a sum type with constructor name.
func (c *Checker) constrVar(sp syntax.Span, name string, ps []Type) Type {
	v := c.newTVar(sp)
	v.constrs = map[string][]Type{name: ps}
	c.constrVars = append(c.constrVars, v)
	return v
}

func (c *Checker) project(t Type, field string, sp syntax.Span) Type {
	switch r := Resolve(t).(type) {
	case *Record:
		if ft, ok := r.Field(field); ok {
			return ft
		}
		c.errorf(sp, "the record type %s has no field %s", r, field)
		return c.newTVar(sp)
	case TVar:
		ft := c.newTVar(sp)
		v := c.newTVar(sp)
		v.fields = map[string]Type{field: ft}
		c.fieldVars = append(c.fieldVars, v)
		if c.unify(sp, v, r) {
			return ft
		}
		return c.newTVar(sp)
	default:
		c.errorf(sp, "cannot access field %s of a value of type %s, which is not a record", field, r)
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
	c.errorf(sp, "expected a function, but found a value of type %s", t)
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
		if err := c.unifyT(f.From, setUnique(at, false), false); err != nil {
			c.errorf(sp, "argument has the wrong type: %s", c.mismatch(f.From, at, err))
		}
		to := f.To
		s := &subst{sizes: map[*SizeName]Size{}}
		if f.Param != nil {
			s.sizes[f.Param] = c.sizeOfExpr(arg, sc)
		}
		for _, ex := range f.Exist {
			u := c.newUnknown(ex.Name)
			c.localSizes[u] = c.level
			s.sizes[ex] = u
		}
		return substType(to, s)
	}
	c.errorf(syntax.SpanOf(fn), "cannot apply a value of type %s to an argument: it is not a function", zonk(ft))
	return c.newTVar(sp)
}

func (c *Checker) inferVar(e *syntax.Var, sc *scope) Type {
	q := e.Name
	if len(q.Quals) == 0 {
		v := sc.lookupVal(q.Name)
		if v == nil {
			c.errorf(e.Span, "unknown name %s", q.Name)
			return c.newTVar(e.Span)
		}
		if v.local && len(q.Name) > 1 && q.Name[0] == '_' {
			c.errorf(e.Span, "the variable %s starts with an underscore, which marks it as unused: it may not be used", q.Name)
		}
		c.uses[e] = v
		if v.builtin != "" {
			return c.builtinOpType(v.builtin, e.Span)
		}
		return c.instantiate(v.scheme, e.Span)
	}
	// r.x.y where r is a variable: field access.
	if v := sc.lookupVal(q.Quals[0]); v != nil && v.builtin == "" {
		if sc.lookupMod(q.Quals[0]) == nil || c.valShadowsMod(sc, q.Quals[0]) {
			c.uses[e] = v
			t := c.instantiate(v.scheme, e.Span)
			for _, f := range append(q.Quals[1:], q.Name) {
				t = c.project(t, f, e.Span)
			}
			return t
		}
	}
	m := sc.lookupMod(q.Quals[0])
	if m == nil {
		c.errorf(e.Span, "unknown name %s", q.Quals[0])
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
		if !ok {
			c.errorf(e.Span, "module %s has no value %s", joinQuals(q.Quals[:min(i+1, len(q.Quals))]), n)
			return c.newTVar(e.Span)
		}
		c.uses[e] = v
		var t Type
		if v.builtin != "" {
			t = c.builtinOpType(v.builtin, e.Span)
		} else {
			t = c.instantiate(v.scheme, e.Span)
		}
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
func (c *Checker) opType(op syntax.QualName, backtick bool, sc *scope, sp syntax.Span) Type {
	v := &syntax.Var{Loc: syntax.Loc{Span: sp}, Name: op}
	return c.inferVar(v, sc)
}

func (c *Checker) inferBinary(e *syntax.Binary, sc *scope) Type {
	if len(e.Op.Quals) == 0 && !e.Backtick && (e.Op.Name == "|>" || e.Op.Name == "<|") {
		if v := sc.lookupVal(e.Op.Name); v != nil && v.builtin != "" {
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

func (c *Checker) inferRange(e *syntax.Range, sc *scope) Type {
	st := c.inferExpr(e.Start, sc)
	v := c.overloadedVar(e.Span, intPrims, "range")
	c.unify(syntax.SpanOf(e.Start), v, st)
	if e.Second != nil {
		c.unify(syntax.SpanOf(e.Second), v, c.inferExpr(e.Second, sc))
	}
	c.unify(syntax.SpanOf(e.Stop), v, c.inferExpr(e.Stop, sc))
	// Only 0..<n and 0..1..<n have a known size (n a variable or a
	// constant); any other range has a size of its own.
	if isIntLit(e.Start, 0) && e.Op == syntax.RangeUpExcl && (e.Second == nil || isIntLit(e.Second, 1)) {
		if d := c.simpleSize(e.Stop, sc); d != nil {
			return &Array{Dim: d, Elem: v}
		}
	}
	if e.Second == nil && e.Op != syntax.RangeDownExcl {
		start, end := c.sizeOfExpr(e.Start, sc), c.sizeOfExpr(e.Stop, sc)
		if sizeKey(start) != "" && sizeKey(end) != "" {
			d := mkSizeExpr("-", end, start)
			if e.Op == syntax.RangeIncl {
				d = mkSizeExpr("+", d, &SizeConst{1})
			}
			return &Array{Dim: d, Elem: v}
		}
	}
	return &Array{Dim: c.freshUnknown(""), Elem: v}
}

// freshUnknown is a new size, distinct from every other.
func (c *Checker) freshUnknown(name string) Size {
	u := c.newUnknown(name)
	c.localSizes[u] = c.level
	return u
}

func isIntLit(e syntax.Expr, n int64) bool {
	for {
		p, ok := e.(*syntax.Paren)
		if !ok {
			break
		}
		e = p.X
	}
	lit, ok := e.(*syntax.IntLit)
	return ok && lit.Value != nil && lit.Value.IsInt64() && lit.Value.Int64() == n
}

// simpleSize is the size a variable or constant expression stands for,
// or nil.
func (c *Checker) simpleSize(e syntax.Expr, sc *scope) Size {
	switch x := e.(type) {
	case *syntax.Paren:
		return c.simpleSize(x.X, sc)
	case *syntax.IntLit, *syntax.Var:
		d := c.sizeOfExpr(e, sc)
		if _, ok := d.(*SizeAny); ok {
			return nil
		}
		return d
	}
	return nil
}

// sliceSize is the size of one sliced dimension of size d: a[:], a[0:n],
// a[:n] and a[0:n:1] are known, other slices have a size of their own.
func (c *Checker) sliceSize(d Size, ix *syntax.DimIndex, sc *scope) Size {
	if ix.Start == nil && ix.End == nil && ix.Stride == nil {
		return d
	}
	if ix.Start == nil && ix.End == nil {
		if neg, ok := ix.Stride.(*syntax.Negate); ok && isIntLit(neg.X, 1) {
			return d
		}
	}
	if ix.Stride == nil || isIntLit(ix.Stride, 1) {
		// a[i:j] has size j-i when i and j are sizes.
		var start, end Size = &SizeConst{0}, d
		if ix.Start != nil {
			start = c.sizeOfExpr(ix.Start, sc)
		}
		if ix.End != nil {
			end = c.sizeOfExpr(ix.End, sc)
		}
		if sizeKey(start) != "" && sizeKey(end) != "" {
			if isIntLit(ix.Start, 0) || ix.Start == nil {
				return end
			}
			return mkSizeExpr("-", end, start)
		}
	}
	return c.freshUnknown("")
}

// indexType is the type of t indexed by idx.
func (c *Checker) indexType(t Type, idx []*syntax.DimIndex, sc *scope, sp syntax.Span) Type {
	var dims []Size
	for _, ix := range idx {
		at := Resolve(t)
		if v, ok := at.(TVar); ok {
			elem := c.newTVar(sp)
			elem.lifted = syntax.Unlifted
			arr := &Array{Dim: &SizeAny{}, Elem: elem}
			c.unify(sp, v, arr)
			at = arr
		}
		a, ok := at.(*Array)
		if !ok {
			c.errorf(sp, "cannot index into a value of type %s: it is not an array (or has fewer than %d dimensions)", zonk(t), len(idx))
			return c.newTVar(sp)
		}
		if !ix.IsSlice {
			c.checkIndex(ix.Fix, sc)
		} else {
			for _, x := range []syntax.Expr{ix.Start, ix.End, ix.Stride} {
				if x != nil {
					c.checkIndex(x, sc)
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

func (c *Checker) checkIndex(x syntax.Expr, sc *scope) {
	t := c.inferExpr(x, sc)
	v := c.overloadedVar(syntax.SpanOf(x), intPrims, "index")
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

func (c *Checker) inferLambda(e *syntax.Lambda, sc *scope) Type {
	inner := newScope(sc)
	var ps []Type
	for _, p := range e.Params {
		ps = append(ps, c.bindPat(p, inner, dimFlex, true))
	}
	bt := c.inferExpr(e.Body, inner)
	if e.RetType != nil {
		rt := c.typeExp(e.RetType, inner, dimFlex)
		c.unify(syntax.SpanOf(e.Body), rt, bt)
		bt = rt
	}
	bt = zonk(bt)
	var named []*SizeName
	for _, p := range e.Params {
		var sn *SizeName
		if id, ok := unparenPat(stripAscript(p)).(*syntax.PId); ok {
			if vb := c.patBinds[id]; vb != nil && vb.size != nil && mentionsSize(bt, vb.size) {
				sn = vb.size
			}
		}
		named = append(named, sn)
	}
	s := &subst{sizes: map[*SizeName]Size{}}
	for _, v := range inner.vals {
		if v.size != nil && !containsSizeName(named, v.size) {
			s.sizes[v.size] = &SizeAny{}
		}
	}
	bt = substType(bt, s)
	for i := len(ps) - 1; i >= 0; i-- {
		bt = &Arrow{From: ps[i], To: bt, Param: named[i]}
	}
	return bt
}

func (c *Checker) inferLetIn(e *syntax.LetIn, sc *scope) Type {
	inner := newScope(sc)
	seen := map[string]syntax.Span{}
	for _, sb := range e.Sizes {
		sn := c.newSizeName(sb.Name)
		c.localSizes[sn] = c.level
		// let [n] p = e: n is whatever size e has there.
		inner.vals[sb.Name] = &valBind{name: sb.Name, scheme: &Scheme{Type: I64}, size: sn, sizeAlias: c.newSizeVar(), span: sb.Span, local: true, level: c.level, id: c.freshID()}
		seen[sb.Name] = sb.Span
	}
	vt := setUnique(c.inferExpr(e.Value, sc), false)
	c.checkIrrefutable(e.Pat)
	pt := c.patType(e.Pat, inner, dimFlex, false, seen)
	c.unify(syntax.SpanOf(e.Value), pt, vt)
	bt := c.inferExpr(e.Body, inner)
	return c.forgetLocalSizes(bt, inner)
}

// forgetLocalSizes replaces the sizes named by variables of inner, which
// go out of scope, by untracked sizes.
func (c *Checker) forgetLocalSizes(t Type, inner *scope) Type {
	s := &subst{sizes: map[*SizeName]Size{}}
	for _, v := range inner.vals {
		if v.size != nil {
			s.sizes[v.size] = &SizeAny{}
		}
	}
	if len(s.sizes) == 0 {
		return t
	}
	return substType(zonk(t), s)
}

// joinTypes is the type of a conditional whose branches have types a and b
// (already unified up to sizes): sizes that differ become unknown.
func (c *Checker) joinTypes(a, b Type) Type {
	return c.join(a, b, map[[2]string]Size{})
}

// join is joinTypes where the same pair of differing sizes becomes the
// same new size.
func (c *Checker) join(a, b Type, memo map[[2]string]Size) Type {
	a, b = Resolve(a), Resolve(b)
	switch x := a.(type) {
	case *Array:
		if y, ok := b.(*Array); ok {
			d := x.Dim
			ka, kb := sizeKey(x.Dim), sizeKey(y.Dim)
			switch {
			case ka != "" && kb != "" && ka != kb:
				// Known and different: a new size, distinct from both.
				if u, ok := memo[[2]string{ka, kb}]; ok {
					d = u
				} else {
					d = c.freshUnknown("")
					memo[[2]string{ka, kb}] = d
				}
			case ka == "" || ka != kb:
				if _, isVar := resolveSize(x.Dim).(SizeVar); !isVar || ka != kb {
					d = &SizeAny{}
				}
			}
			return &Array{Unique: x.Unique && y.Unique, Dim: d, Elem: c.join(x.Elem, y.Elem, memo)}
		}
	case *Record:
		if y, ok := b.(*Record); ok && len(x.Fields) == len(y.Fields) {
			fs := make([]Field, len(x.Fields))
			for i := range fs {
				fs[i] = Field{x.Fields[i].Name, c.join(x.Fields[i].Type, y.Fields[i].Type, memo)}
			}
			return &Record{fs}
		}
	}
	return a
}

func (c *Checker) inferLoop(e *syntax.Loop, sc *scope) Type {
	inner := newScope(sc)
	for _, sb := range e.Sizes {
		sn := c.newSizeName(sb.Name)
		c.localSizes[sn] = c.level
		inner.vals[sb.Name] = &valBind{name: sb.Name, scheme: &Scheme{Type: I64}, size: sn, span: sb.Span, local: true, level: c.level, id: c.freshID()}
	}
	var it Type
	if e.Init != nil {
		it = c.inferExpr(e.Init, sc)
	} else {
		it = c.patVarsType(e.Pat, sc)
	}
	pt := c.bindPat(e.Pat, inner, dimFlex, false)
	c.loopPats[e] = true
	if e.Init != nil {
		c.unifyNoSizes(syntax.SpanOf(e.Init), pt, it)
	} else {
		c.unifyNoSizes(syntax.SpanOf(e.Pat), pt, it)
	}
	if isFunctional(pt) {
		c.errorf(syntax.SpanOf(e.Pat), "a loop parameter cannot be a function (its type is %s)", zonk(pt))
	}
	body := newScope(inner)
	switch f := e.Form.(type) {
	case *syntax.For:
		bt := c.inferExpr(f.Bound, sc)
		v := c.overloadedVar(f.Span, intPrims, "loop bound")
		c.unify(syntax.SpanOf(f.Bound), v, bt)
		body.vals[f.I.Name] = &valBind{name: f.I.Name, scheme: &Scheme{Type: bt}, span: f.I.Span, local: true, level: c.level, id: c.freshID()}
		c.identBinds[f.I] = body.vals[f.I.Name]
	case *syntax.ForIn:
		at := c.inferExpr(f.Arr, sc)
		elem := c.newTVar(f.Span)
		c.unifyNoSizes(syntax.SpanOf(f.Arr), &Array{Dim: &SizeAny{}, Elem: elem}, at)
		pt2 := c.bindPat(f.Pat, body, dimFlex, false)
		c.unify(syntax.SpanOf(f.Pat), pt2, elem)
	case *syntax.While:
		ct := c.inferExpr(f.Cond, inner)
		c.unify(syntax.SpanOf(f.Cond), Bool, ct)
	}
	bt := c.inferExpr(e.Body, body)
	c.unifyNoSizes(syntax.SpanOf(e.Body), pt, bt)
	res := c.joinTypes(pt, bt)
	return c.forgetLocalSizes(res, inner)
}

// patVarsType is the type of a loop pattern without initial value: the
// current types of its variables.
func (c *Checker) patVarsType(p syntax.Pat, sc *scope) Type {
	switch p := p.(type) {
	case *syntax.PId:
		v := sc.lookupVal(p.Name)
		if v == nil || v.builtin != "" {
			c.errorf(p.Span, "unknown name %s", p.Name)
			return c.newTVar(p.Span)
		}
		c.loopInit[p] = v
		return c.instantiate(v.scheme, p.Span)
	case *syntax.PParen:
		return c.patVarsType(p.P, sc)
	case *syntax.PAscript:
		return c.patVarsType(p.P, sc)
	case *syntax.PTuple:
		ts := make([]Type, len(p.Elems))
		for i, q := range p.Elems {
			ts[i] = c.patVarsType(q, sc)
		}
		return TupleType(ts...)
	}
	return c.newTVar(syntax.SpanOf(p))
}

func (c *Checker) inferMatch(e *syntax.Match, sc *scope) Type {
	xt := c.inferExpr(e.X, sc)
	var res Type
	for _, cs := range e.Cases {
		inner := newScope(sc)
		pt := c.bindPat(cs.Pat, inner, dimFlex, false)
		c.unify(syntax.SpanOf(cs.Pat), xt, pt)
		bt := c.inferExpr(cs.Body, inner)
		bt = c.forgetLocalSizes(bt, inner)
		if res == nil {
			res = bt
			continue
		}
		if c.unifyNoSizes(syntax.SpanOf(cs.Body), res, bt) {
			res = c.joinTypes(res, bt)
		}
	}
	if res == nil {
		return c.newTVar(e.Span)
	}
	if isFunctional(res) {
		c.errorf(e.Span, "a match cannot return a function (its type is %s)", zonk(res))
	}
	c.matches = append(c.matches, e)
	return res
}

func containsSizeName(ss []*SizeName, s *SizeName) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
