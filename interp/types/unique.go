package types

// Uniqueness and aliasing.
//
// This pass runs over a definition after inference, with every type known.
// Each expression's value gets an alias set: the variables whose arrays it
// may share (tuples and records keep one set per field). A variable bound
// to a fresh value (a literal, the result of a function with a unique
// return type, an in-place update) is its own root. Consuming a value
// (an in-place update, or passing it for a unique parameter) consumes the
// roots it aliases: each must be consumable (a unique parameter, or a
// fresh local, bound in the same function or lambda and outside any loop
// whose body this is), and is marked consumed at that place. Using a
// variable whose roots are consumed is an error. Branches consume the
// union of what their arms consume. A function whose declared result is
// unique must not return an alias of a non-unique parameter or of a
// variable from outside; a top-level function without a declared result
// type returns unique parts where its body's value is fresh (as Futhark
// infers it). The arguments of an application are checked from right to
// left, as Futhark evaluates them. A top-level function aliases nothing;
// a lambda, section or local function aliases what it captured, and so
// does the result of applying it.

import (
	"sort"
	"strings"

	"fut/interp/syntax"
)

// aliases is the alias set of a value: all for the whole, fields for the
// parts of a tuple or record when known.
type aliases struct {
	all    map[*valBind]bool
	fields map[string]*aliases
}

func (a *aliases) union(b *aliases) *aliases {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	r := &aliases{all: map[*valBind]bool{}}
	for v := range a.all {
		r.all[v] = true
	}
	for v := range b.all {
		r.all[v] = true
	}
	return r
}

func setOf(vs ...*valBind) *aliases {
	a := &aliases{all: map[*valBind]bool{}}
	for _, v := range vs {
		a.all[v] = true
	}
	return a
}

type uniq struct {
	c        *Checker
	captures []map[*valBind]bool // free variables used by the lambdas being checked
	capDepth []int
	roots    map[*valBind]*aliases // a variable's aliases; itself when a root
	consumed map[*valBind]syntax.Span
	frame    map[*valBind]int // the lambda/loop nesting where a root was bound
	depth    int
	reported map[*valBind]bool
	params   map[*valBind]bool // non-unique parameters of the function
	uparams  map[*valBind]bool // unique parameters

	// uses records every use inside a loop (the variable, its roots,
	// where), so that a loop that consumes its initial value can report
	// the uses in its body of what that value aliases.
	uses      []loopUse
	loopDepth int
	inSize    int // inside a size expression of a type

	call       syntax.Expr              // the application whose arguments are being checked
	consumedBy map[*valBind]syntax.Expr // the application whose argument consumed a root
}

func (c *Checker) newUniq() *uniq {
	return &uniq{c: c, roots: map[*valBind]*aliases{}, consumed: map[*valBind]syntax.Span{},
		frame: map[*valBind]int{}, reported: map[*valBind]bool{}, params: map[*valBind]bool{}, uparams: map[*valBind]bool{}}
}

// checkUniqueFun checks a top-level function.
func (c *Checker) checkUniqueFun(fb *syntax.FunBind, sch *Scheme) {
	u := c.newUniq()
	u.fun(fb, sch.Type)
}

func (c *Checker) checkUniqueExpr(e syntax.Expr) {
	u := c.newUniq()
	u.expr(e)
}

func (u *uniq) typeOf(e syntax.Expr) Type {
	if t, ok := u.c.info.Types[e]; ok {
		return t
	}
	return nil
}

// hasAliases reports whether values of t can alias anything.
func hasAliases(t Type) bool {
	if t == nil {
		return true
	}
	switch t := Resolve(t).(type) {
	case *Prim:
		return false
	case *Record:
		for _, f := range t.Fields {
			if hasAliases(f.Type) {
				return true
			}
		}
		return false
	case *Sum:
		for _, cn := range t.Constrs {
			for _, p := range cn.Payload {
				if hasAliases(p) {
					return true
				}
			}
		}
		return false
	}
	return true
}

// fun checks a function definition (top-level or local).
func (u *uniq) fun(fb *syntax.FunBind, ft Type) {
	u.depth++
	t := ft
	for _, p := range fb.Params {
		if a, ok := Resolve(t).(*Arrow); ok {
			t = a.To
		}
		for _, id := range patNames(p) {
			vb := u.c.patBinds[id]
			if vb == nil {
				continue
			}
			u.bindRoot(vb)
			if annotated(p, id) && isUnique(vb.scheme.Type) {
				u.uparams[vb] = true
			} else {
				u.params[vb] = true
			}
		}
	}
	// Size expressions in the parameters' types may not consume.
	for _, p := range fb.Params {
		for _, te := range patAnnotations(p) {
			for _, d := range dimExprs(te) {
				u.inSize++
				u.expr(d)
				u.inSize--
			}
		}
	}
	res := u.expr(fb.Body)
	if len(fb.Params) > 0 {
		u.checkResult(res, t, syntax.SpanOf(fb.Body), fb.RetType != nil)
	}
	if fb.RetType == nil && len(fb.Params) > 0 && u.depth == 1 {
		u.inferUnique(ft, len(fb.Params), res)
	}
	if fb.RetType != nil && isUnique(t) && res != nil {
		reported := map[*valBind]bool{}
		for _, part := range uniqueParts(t, res) {
			for _, v := range sortedBinds(part.all) {
				if reported[v] {
					continue
				}
				if u.params[v] {
					reported[v] = true
					u.c.errorf(syntax.SpanOf(fb.Body), "Unique-typed return value of \"%s\" is aliased to \"%s\", which is not consumable: it is a parameter that is not unique.", fb.Name, v.name)
				} else if _, mine := u.frame[v]; !mine && !v.local {
					reported[v] = true
					u.c.errorf(syntax.SpanOf(fb.Body), "Unique-typed return value of \"%s\" is aliased to \"%s\", which is not consumable: it is bound outside the function.", fb.Name, v.name)
				}
			}
		}
	}
	u.depth--
}

// uniqueParts is the aliases of the unique parts of a value of type t
// with aliases a (a record's fields apart, else the whole).
func uniqueParts(t Type, a *aliases) []*aliases {
	if r, ok := Resolve(t).(*Record); ok {
		var out []*aliases
		for _, f := range r.Fields {
			out = append(out, uniqueParts(f.Type, a.field(f.Name))...)
		}
		return out
	}
	if a != nil && isUnique(t) {
		return []*aliases{a}
	}
	return nil
}

func sortedBinds(m map[*valBind]bool) []*valBind {
	var out []*valBind
	for v := range m {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

func (u *uniq) bindRoot(vb *valBind) {
	u.roots[vb] = setOf(vb)
	u.frame[vb] = u.depth
}

// bindPat binds the names of p to the value with aliases a (nil: fresh).
func (u *uniq) bindPat(p syntax.Pat, a *aliases) {
	switch q := p.(type) {
	case *syntax.PId:
		vb := u.c.patBinds[q]
		if vb == nil {
			return
		}
		if t, ok := u.c.info.PatTypes[q]; ok && !hasAliases(t) {
			a = nil
		}
		if a == nil || len(a.all) == 0 {
			u.bindRoot(vb)
			return
		}
		u.roots[vb] = &aliases{all: a.all, fields: a.fields}
		u.frame[vb] = u.depth
	case *syntax.PParen:
		u.bindPat(q.P, a)
	case *syntax.PAttr:
		u.bindPat(q.P, a)
	case *syntax.PAscript:
		u.bindPat(q.P, a)
	case *syntax.PTuple:
		for i, e := range q.Elems {
			u.bindPat(e, a.field(itoa(i)))
		}
	case *syntax.PRecord:
		for _, f := range q.Fields {
			u.bindPat(f.Pat, a.field(f.Name))
		}
	case *syntax.PConstr:
		for _, e := range q.Args {
			u.bindPat(e, a)
		}
	}
}

func (a *aliases) field(name string) *aliases {
	if a == nil {
		return nil
	}
	if f, ok := a.fields[name]; ok {
		return f
	}
	return &aliases{all: a.all}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// use checks that no root of v is consumed.
func (u *uniq) use(v *valBind, sp syntax.Span) *aliases {
	a, ok := u.roots[v]
	if !ok || a == nil {
		// A global, or a name bound in a way this pass does not track.
		if !v.local && v.scheme != nil {
			if _, isFun := Resolve(v.scheme.Type).(*Arrow); isFun {
				// A top-level function has no free variables that
				// alias anything: passing it aliases nothing.
				return nil
			}
		}
		return setOf(v)
	}
	u.capture(v, a)
	if u.loopDepth > 0 {
		u.uses = append(u.uses, loopUse{v, a, sp})
	}
	for r := range a.all {
		if at, gone := u.consumed[r]; gone && !u.reported[v] {
			u.reported[v] = true
			if by := u.consumedBy[r]; by != nil && by == u.call {
				u.c.errorf(sp, "Argument is consumed: %s, but this was passed for a unique parameter at %s, in the same application.", useName(v, r), u.c.fset.Position(at.Start))
				break
			}
			u.c.errorf(sp, "%s, but this was consumed at %s.", useName(v, r), u.c.fset.Position(at.Start))
			break
		}
	}
	return a
}

type loopUse struct {
	v  *valBind
	a  *aliases
	sp syntax.Span
}

// bindName names a variable in quotes, or describes a value that has no
// name (the result of a call).
func bindName(v *valBind) string {
	if strings.HasPrefix(v.name, "the result of ") {
		return v.name
	}
	return "\"" + v.name + "\""
}

// useName begins the report of a use of v whose root r was consumed, as
// Futhark words it: Using "xs", or Using "a", which aliases "t".
func useName(v, r *valBind) string {
	if v == r {
		return "Using " + bindName(v)
	}
	return "Using " + bindName(v) + ", which aliases " + bindName(r)
}

// consume consumes the value with aliases a at sp.
func (u *uniq) consume(a *aliases, sp syntax.Span, what string) {
	if a == nil {
		return
	}
	for _, r := range sortedBinds(a.all) {
		switch {
		case u.inSize > 0:
			u.c.errorf(sp, "Consuming variable %s (%s), which is not consumable: a size expression may not consume anything.", bindName(r), what)
		case u.params[r]:
			u.c.errorf(sp, "Consuming variable %s (%s), which is not consumable: it is a parameter that is not unique (declare it with *).", bindName(r), what)
		case !r.local:
			u.c.errorf(sp, "Consuming variable %s (%s), which is not consumable: it is a constant bound outside the function.", bindName(r), what)
		default:
			if f, ok := u.frame[r]; ok && f < u.depth {
				u.c.errorf(sp, "Consuming variable %s (%s), which is not consumable: it is bound outside this lambda or loop body.", bindName(r), what)
			}
		}
		u.consumed[r] = sp
		if u.consumedBy == nil {
			u.consumedBy = map[*valBind]syntax.Expr{}
		}
		if what == argConsumption {
			u.consumedBy[r] = u.call
		} else {
			delete(u.consumedBy, r)
		}
	}
}

func (u *uniq) exprs(es []syntax.Expr) []*aliases {
	out := make([]*aliases, len(es))
	for i, e := range es {
		out[i] = u.expr(e)
	}
	return out
}

// expr checks e and returns the aliases of its value (nil: fresh).
func (u *uniq) expr(e syntax.Expr) *aliases {
	a := u.expr1(e)
	if t := u.typeOf(e); t != nil && !hasAliases(t) {
		return nil
	}
	return a
}

func (u *uniq) expr1(e syntax.Expr) *aliases {
	switch e := e.(type) {
	case *syntax.IntLit, *syntax.FloatLit, *syntax.BoolLit, *syntax.CharLit, *syntax.StringLit, *syntax.Hole:
		return nil
	case *syntax.Var:
		v := u.c.uses[e]
		if v == nil || v.builtin != "" {
			return nil
		}
		a := u.use(v, e.Span)
		if len(e.Name.Quals) > 0 && v.name == e.Name.Quals[0] {
			// Field access r.x: the field's aliases.
			r := a
			for _, f := range append(e.Name.Quals[1:], e.Name.Name) {
				r = r.field(f)
			}
			return r
		}
		return a
	case *syntax.Paren:
		return u.expr(e.X)
	case *syntax.TupleLit:
		r := &aliases{all: map[*valBind]bool{}, fields: map[string]*aliases{}}
		for i, a := range u.exprs(e.Elems) {
			r.fields[itoa(i)] = a
			r = mergeInto(r, a)
		}
		return r
	case *syntax.RecordLit:
		r := &aliases{all: map[*valBind]bool{}, fields: map[string]*aliases{}}
		for _, f := range e.Fields {
			a := u.expr(f.Value)
			r.fields[f.Name] = a
			r = mergeInto(r, a)
		}
		return r
	case *syntax.ArrayLit:
		var r *aliases
		for _, a := range u.exprs(e.Elems) {
			r = r.union(a)
		}
		// An array literal is a fresh array.
		return nil
	case *syntax.Range:
		u.expr(e.Start)
		if e.Second != nil {
			u.expr(e.Second)
		}
		u.expr(e.Stop)
		return nil
	case *syntax.Project:
		return u.expr(e.X).field(e.Field)
	case *syntax.QualParen:
		return u.expr(e.X)
	case *syntax.Binary:
		if len(e.Op.Quals) == 0 && (e.Op.Name == "|>" || e.Op.Name == "<|") {
			x, f := e.L, e.R
			if e.Op.Name == "<|" {
				x, f = e.R, e.L
			}
			fa := u.expr(f)
			return u.apply(e, u.declaredType(f), fa, []syntax.Expr{x})
		}
		l, r := u.expr(e.L), u.expr(e.R)
		if t := u.typeOf(e); t != nil && isUnique(t) {
			return nil
		}
		return l.union(r)
	case *syntax.Negate:
		u.expr(e.X)
		return nil
	case *syntax.Not:
		u.expr(e.X)
		return nil
	case *syntax.Apply:
		fa := u.expr(e.Fn)
		return u.apply(e, u.declaredType(e.Fn), fa, e.Args)
	case *syntax.Constr:
		var r *aliases
		for _, a := range u.exprs(e.Args) {
			r = r.union(a)
		}
		return r
	case *syntax.OpSection:
		if v := u.c.opUses[e]; v != nil && v.builtin == "" {
			return u.use(v, e.Span)
		}
		return nil
	case *syntax.ProjectSection, *syntax.IndexSection:
		return nil
	case *syntax.LeftSection:
		return u.expr(e.L)
	case *syntax.RightSection:
		return u.expr(e.R)
	case *syntax.Lambda:
		u.depth++
		u.pushCapture()
		for _, p := range e.Params {
			for _, id := range patNames(p) {
				if vb := u.c.patBinds[id]; vb != nil {
					u.bindRoot(vb)
					if annotated(p, id) && isUnique(vb.scheme.Type) {
						u.uparams[vb] = true
					} else {
						u.params[vb] = true
					}
				}
			}
		}
		res := u.expr(e.Body)
		u.checkResult(res, u.typeOf(e.Body), syntax.SpanOf(e.Body), e.RetType != nil)
		if e.RetType != nil && res != nil && isUnique(resultType(u.typeOf(e), len(e.Params))) {
			for _, p := range e.Params {
				for _, id := range patNames(p) {
					if vb := u.c.patBinds[id]; vb != nil && res.all[vb] && u.params[vb] {
						u.c.errorf(syntax.SpanOf(e.Body), "Unique-typed return value of this lambda is aliased to \"%s\", which is not consumable: it is a parameter that is not unique.", vb.name)
					}
				}
			}
		}
		caps := u.popCapture()
		u.depth--
		// A function value aliases what it captures.
		return caps
	case *syntax.If:
		u.expr(e.Cond)
		return u.branches([]syntax.Expr{e.Then, e.Else}, nil)
	case *syntax.Match:
		u.expr(e.X)
		xal := u.expr1Cached(e.X)
		var bodies []syntax.Expr
		var pats []syntax.Pat
		for _, cs := range e.Cases {
			bodies = append(bodies, cs.Body)
			pats = append(pats, cs.Pat)
		}
		return u.branchesWith(bodies, func(i int) { u.bindPat(pats[i], xal) })
	case *syntax.LetIn:
		before := make(map[*valBind]bool, len(u.consumed))
		for r := range u.consumed {
			before[r] = true
		}
		nerr := len(u.c.errs)
		a := u.expr(e.Value)
		if len(u.c.errs) == nerr && hasFunction(u.typeOf(e.Value)) {
			u.checkLetConsumption(e.Value, before)
		}
		u.bindPat(e.Pat, a)
		return u.expr(e.Body)
	case *syntax.LetFun:
		if vb := u.c.funBinds[e.Fun]; vb != nil {
			u.pushCaptureAt(u.depth + 1)
			u.fun(e.Fun, vb.scheme.Type)
			u.roots[vb] = u.popCapture()
			if u.roots[vb] == nil {
				u.roots[vb] = &aliases{all: map[*valBind]bool{}}
			}
			u.frame[vb] = u.depth
		}
		return u.expr(e.Body)
	case *syntax.LetWith:
		da := u.expr(e.Dest)
		u.path(e.Path)
		va := u.expr(e.Value)
		if hasIndex(e.Path) && isVarExpr(e.Value) {
			u.checkSelfAlias(da, va, syntax.SpanOf(e.Value), e.Dest.Name.Name)
		}
		if hasIndex(e.Path) {
			u.consume(da, e.Span, "this in-place update")
		}
		if nb := u.c.withBinds[e]; nb != nil {
			if hasIndex(e.Path) {
				u.bindRoot(nb)
			} else {
				u.bindPatAlias(nb, da.union(va))
			}
		}
		return u.expr(e.Body)
	case *syntax.Update:
		xa := u.expr(e.X)
		u.path(e.Path)
		va := u.expr(e.Value)
		if hasIndex(e.Path) && isVarExpr(e.Value) {
			u.checkSelfAlias(xa, va, syntax.SpanOf(e.Value), "")
		}
		if hasIndex(e.Path) {
			u.consume(xa, e.Span, "this in-place update")
			return nil
		}
		return xa.union(va)
	case *syntax.Index:
		a := u.expr(e.X)
		for _, ix := range e.Indices {
			u.dimIndex(ix)
		}
		return a
	case *syntax.Loop:
		return u.loop(e)
	case *syntax.Assert:
		u.expr(e.Cond)
		return u.expr(e.X)
	case *syntax.Ascript:
		return u.expr(e.X)
	case *syntax.Coerce:
		return u.expr(e.X)
	case *syntax.Attr:
		return u.expr(e.X)
	}
	return nil
}

func isVarExpr(e syntax.Expr) bool {
	for {
		switch x := e.(type) {
		case *syntax.Paren:
			e = x.X
		case *syntax.Ascript:
			e = x.X
		case *syntax.Var:
			return true
		case *syntax.Project, *syntax.Index:
			return true
		default:
			return false
		}
	}
}

// expr1Cached gives the aliases of an already checked expression without
// reporting its uses again.
func (u *uniq) expr1Cached(e syntax.Expr) *aliases {
	saved := u.reported
	u.reported = map[*valBind]bool{}
	for k := range saved {
		u.reported[k] = true
	}
	n := len(u.c.errs)
	a := u.expr(e)
	u.c.errs = u.c.errs[:n]
	u.reported = saved
	return a
}

func mergeInto(r *aliases, a *aliases) *aliases {
	if a == nil {
		return r
	}
	for v := range a.all {
		r.all[v] = true
	}
	return r
}

func hasIndex(path []syntax.PathElem) bool {
	for _, pe := range path {
		if pe.Indices != nil {
			return true
		}
	}
	return false
}

func (u *uniq) path(path []syntax.PathElem) {
	for _, pe := range path {
		for _, ix := range pe.Indices {
			u.dimIndex(ix)
		}
	}
}

func (u *uniq) dimIndex(ix *syntax.DimIndex) {
	for _, x := range []syntax.Expr{ix.Fix, ix.Start, ix.End, ix.Stride} {
		if x != nil {
			u.expr(x)
		}
	}
}

func (u *uniq) bindPatAlias(vb *valBind, a *aliases) {
	if a == nil || len(a.all) == 0 {
		u.bindRoot(vb)
		return
	}
	u.roots[vb] = a
	u.frame[vb] = u.depth
}

func (u *uniq) pushCapture() { u.pushCaptureAt(u.depth) }

func (u *uniq) pushCaptureAt(depth int) {
	u.captures = append(u.captures, map[*valBind]bool{})
	u.capDepth = append(u.capDepth, depth)
}

func (u *uniq) popCapture() *aliases {
	n := len(u.captures) - 1
	caps := u.captures[n]
	u.captures, u.capDepth = u.captures[:n], u.capDepth[:n]
	if len(caps) == 0 {
		return nil
	}
	return &aliases{all: caps}
}

// capture records a use of v in the lambdas that v is free in.
func (u *uniq) capture(v *valBind, a *aliases) {
	f, ok := u.frame[v]
	if !ok {
		return
	}
	for i, d := range u.capDepth {
		if f < d {
			for r := range a.all {
				u.captures[i][r] = true
			}
		}
	}
}

// resultType is what a function of type t returns after n arguments, or
// nil.
func resultType(t Type, n int) Type {
	for i := 0; i < n; i++ {
		a, ok := Resolve(t).(*Arrow)
		if !ok {
			return nil
		}
		t = a.To
	}
	return t
}

// dimExprs lists the size expressions written in a type expression.
func dimExprs(te syntax.TypeExp) []syntax.Expr {
	var out []syntax.Expr
	var walk func(te syntax.TypeExp)
	walk = func(te syntax.TypeExp) {
		switch t := te.(type) {
		case *syntax.TEArray:
			if t.Dim != nil {
				out = append(out, t.Dim)
			}
			walk(t.Elem)
		case *syntax.TEParen:
			walk(t.T)
		case *syntax.TEUnique:
			walk(t.T)
		case *syntax.TEExist:
			walk(t.T)
		case *syntax.TEArrow:
			walk(t.From)
			walk(t.To)
		case *syntax.TETuple:
			for _, e := range t.Elems {
				walk(e)
			}
		case *syntax.TERecord:
			for _, f := range t.Fields {
				walk(f.Type)
			}
		case *syntax.TESum:
			for _, k := range t.Constrs {
				for _, p := range k.Payload {
					walk(p)
				}
			}
		case *syntax.TEApply:
			for _, a := range t.Args {
				if a.IsSize && a.Dim != nil {
					out = append(out, a.Dim)
				} else if !a.IsSize {
					walk(a.Type)
				}
			}
		}
	}
	walk(te)
	return out
}
