package types

// The causality restriction for sizes.
//
// A size that is only known once some expression has been evaluated (the
// existential size of a function's result, the size of a filter, of a
// range with unknown bounds, of a conditional whose branches differ) can
// be used only by values computed after it. Unification does not see
// evaluation order, so this check runs over a definition once every type
// is known: it walks the expressions in evaluation order (a let-bound
// value before the body, the arguments of an application before the
// function, from the last argument to the first, the left operand before
// the right) and reports an expression whose type needs a size that its
// creating expression has not computed yet. An operator section ((e op),
// (op e)) is a function value made before its operand is evaluated: the
// operator's type may not need a size that the operand computes, as in
// Futhark ((filter p xs ++) is rejected; let-bind the filter first).

import (
	"fmt"

	"fut/interp/syntax"
)

// noteOrigin records that the unknown size u is computed by the
// expression being inferred.
func (c *Checker) noteOrigin(u *SizeName) {
	switch c.curExpr.(type) {
	case nil, *syntax.Update, *syntax.LetWith:
		// An update's path only names the part it replaces.
		return
	}
	{
		if c.sizeOrigin == nil {
			c.sizeOrigin = map[*SizeName]syntax.Expr{}
		}
		c.sizeOrigin[u] = c.curExpr
		c.originSizes[c.curExpr] = append(c.originSizes[c.curExpr], u)
	}
}

type causality struct {
	c        *Checker
	known    map[*SizeName]bool
	reported map[*SizeName]bool
	// depth counts the lambdas around the expression being visited;
	// owner gives, for a size computed inside a lambda's body, the depth
	// of that lambda.
	depth int
	owner map[*SizeName]int
}

// checkCausality checks a definition (its parameters, then its body).
func (c *Checker) checkCausality(name string, params []syntax.Pat, body syntax.Expr) {
	if len(c.originSizes) == 0 || body == nil {
		return
	}
	k := &causality{c: c, known: map[*SizeName]bool{}, reported: map[*SizeName]bool{}, owner: map[*SizeName]int{}}
	if mentionsName(body, name) {
		if t, ok := c.info.Types[body]; ok {
			k.markKnown(t)
		}
	}
	for _, p := range params {
		// A declared parameter type has sizes of its own; an inferred one
		// may have been unified with sizes the body computes.
		if _, declared := unparenPat(p).(*syntax.PAscript); declared {
			continue
		}
		if t, ok := c.info.PatTypes[p]; ok {
			k.need(t, syntax.SpanOf(p))
		}
	}
	k.visit(body)
}

// children lists the direct children of n in source order.
func children(n syntax.Node) []syntax.Node {
	var out []syntax.Node
	syntax.Inspect(n, func(m syntax.Node) bool {
		if m == n {
			return true
		}
		if m != nil {
			out = append(out, m)
		}
		return false
	})
	return out
}

func (k *causality) visit(n syntax.Node) {
	switch e := n.(type) {
	case *syntax.Apply:
		// A lambda argument is a value whose body runs inside the
		// function: the sizes its body computes become sizes of the
		// application, known to the other arguments and the function. The
		// lambdas do not see each other's sizes.
		var inner []map[*SizeName]bool
		for i := len(e.Args) - 1; i >= 0; i-- {
			if lam, wrappers := unparenLambda(e.Args[i]); lam != nil {
				inner = append(inner, k.lambda(lam, wrappers))
			}
		}
		for _, in := range inner {
			for u := range in {
				k.known[u] = true
			}
		}
		for i := len(e.Args) - 1; i >= 0; i-- {
			if lam, _ := unparenLambda(e.Args[i]); lam == nil {
				k.visit(e.Args[i])
			}
		}
		k.visit(e.Fn)
	case *syntax.FunBind:
		// A recursive function's references to itself have its result
		// type, which may mention sizes its body computes.
		if e.Body != nil && mentionsName(e.Body, e.Name) {
			if t, ok := k.c.info.Types[e.Body]; ok {
				k.markKnown(t)
			}
		}
		for _, ch := range children(n) {
			k.visit(ch)
		}
	case *syntax.Lambda:
		k.lambda(e, nil)
		return
	case *syntax.Paren:
		if lam, wrappers := unparenLambda(e); lam != nil {
			k.lambda(lam, wrappers)
			return
		}
		k.visit(e.X)
	case *syntax.LeftSection, *syntax.RightSection:
		if t, ok := k.c.sectionOps[e.(syntax.Expr)]; ok {
			k.needFor(t, syntax.SpanOf(e.(syntax.Expr)), "the operator of this section")
		}
		for _, ch := range children(n) {
			k.visit(ch)
		}
	case *syntax.If:
		k.visit(e.Cond)
		k.scoped(func() { k.visit(e.Then) })
		k.scoped(func() { k.visit(e.Else) })
	case *syntax.Match:
		k.visit(e.X)
		for _, cs := range e.Cases {
			k.scoped(func() { k.visit(cs.Body) })
		}
	default:
		for _, ch := range children(n) {
			k.visit(ch)
		}
	}
	if e, ok := n.(syntax.Expr); ok {
		k.finish(e)
	}
}

// lambda visits a lambda (inside the parentheses wrappers). The sizes its
// body computes are the existential sizes of its result: the lambda's own
// type may mention them, nothing else.
func (k *causality) lambda(e *syntax.Lambda, wrappers []syntax.Expr) map[*SizeName]bool {
	k.depth++
	inner := k.scoped(func() {
		for _, p := range e.Params {
			if t, ok := k.c.info.PatTypes[p]; ok {
				k.need(t, syntax.SpanOf(p))
			}
		}
		k.visit(e.Body)
	})
	k.depth--
	for u := range inner {
		k.known[u] = true
		k.owner[u] = k.depth
	}
	k.finish(e)
	for i := len(wrappers) - 1; i >= 0; i-- {
		k.finish(wrappers[i])
	}
	for u := range inner {
		delete(k.known, u)
	}
	return inner
}

// unparenLambda is e as a lambda inside parentheses (the wrappers), or nil.
func unparenLambda(e syntax.Expr) (*syntax.Lambda, []syntax.Expr) {
	var wrappers []syntax.Expr
	for {
		p, ok := e.(*syntax.Paren)
		if !ok {
			break
		}
		wrappers = append(wrappers, p)
		e = p.X
	}
	lam, _ := e.(*syntax.Lambda)
	return lam, wrappers
}

// mentionsName reports whether e uses the unqualified name.
func mentionsName(e syntax.Expr, name string) bool {
	found := false
	syntax.Inspect(e, func(n syntax.Node) bool {
		if v, ok := n.(*syntax.Var); ok && len(v.Name.Quals) == 0 && v.Name.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// markKnown marks every computed size in t as known.
func (k *causality) markKnown(t Type) {
	visitSizes(t, func(s Size) {
		if u, ok := s.(*SizeName); ok {
			k.known[u] = true
		}
	})
}

// scoped runs f, then forgets the sizes that became known during it (they
// belong to a branch or a lambda body), and returns them.
func (k *causality) scoped(f func()) map[*SizeName]bool {
	before := make(map[*SizeName]bool, len(k.known))
	for u := range k.known {
		before[u] = true
	}
	f()
	inner := map[*SizeName]bool{}
	for u := range k.known {
		if !before[u] {
			inner[u] = true
			delete(k.known, u)
		}
	}
	return inner
}

// finish marks the sizes e computes as known, then checks e's type.
func (k *causality) finish(e syntax.Expr) {
	for _, u := range k.c.originSizes[e] {
		k.known[u] = true
	}
	if t, ok := k.c.info.Types[e]; ok {
		k.need(t, syntax.SpanOf(e))
	}
}

// need reports every size in t that is computed by an expression not yet
// evaluated.
func (k *causality) need(t Type, sp syntax.Span) { k.needFor(t, sp, "this expression") }

// needFor is need for the type of what (at sp).
func (k *causality) needFor(t Type, sp syntax.Span, what string) {
	visitSizes(t, func(s Size) {
		u, ok := s.(*SizeName)
		if !ok || k.known[u] || k.reported[u] {
			return
		}
		origin, ok := k.c.sizeOrigin[u]
		if !ok {
			return
		}
		if d, inLambda := k.owner[u]; inLambda {
			// A lambda's result sizes are existential: they may show in
			// the types of what holds the lambda, or of functions, but
			// another lambda's values may not depend on them.
			if _, fun := Resolve(t).(*Arrow); fun || k.depth <= d {
				return
			}
		}
		k.reported[u] = true
		by := "an expression"
		if txt := k.c.srcText(syntax.SpanOf(origin)); txt != "" {
			by = "\"" + txt + "\""
		}
		k.c.errorf(sp, "%s", fmt.Sprintf("Causality check: the type of %s, %s, needs a size computed by %s at %s, which is evaluated only later (the causality restriction).",
			what, quoteT(t), by, k.c.fset.Position(syntax.SpanOf(origin).Start)))
	})
}

// visitSizes calls f on every size in t, after resolving variables.
func visitSizes(t Type, f func(Size)) {
	var size func(s Size)
	size = func(s Size) {
		switch s := resolveSize(s).(type) {
		case *SizeExpr:
			if s.Op != "" {
				size(s.L)
				size(s.R)
				return
			}
			f(s)
		case *SizeTerm:
			for _, a := range s.Args {
				size(a)
			}
			f(s)
		default:
			f(s)
		}
	}
	var typ func(t Type)
	typ = func(t Type) {
		switch t := Resolve(t).(type) {
		case *Array:
			size(t.Dim)
			typ(t.Elem)
		case *Record:
			for _, fl := range t.Fields {
				typ(fl.Type)
			}
		case *Sum:
			for _, cn := range t.Constrs {
				for _, p := range cn.Payload {
					typ(p)
				}
			}
		case *Arrow:
			typ(t.From)
			typ(t.To)
		case *Con:
			for _, a := range t.Args {
				if a.Type != nil {
					typ(a.Type)
				} else if a.Size != nil {
					size(a.Size)
				}
			}
		}
	}
	typ(t)
}
