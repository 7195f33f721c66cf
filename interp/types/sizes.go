package types

// Sizes of array expressions: what a size argument, a range or a slice
// stands for, sizes going out of scope, and the sizes of branches that
// differ. A size the checker cannot express is a fresh unknown size
// (distinct from every other) when Futhark would make one, and an
// untracked size (SizeAny, matching anything) where fut is less precise
// than Futhark, so that fut never rejects a program for its own
// imprecision.

import (
	"fmt"

	"fut/interp/syntax"
)

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
		if isI64(v) {
			if d := c.exprSize(e.Stop, sc); sizeKey(d) != "" {
				return &Array{Dim: d, Elem: v}
			}
		}
	}
	if e.Second == nil && e.Op != syntax.RangeDownExcl && isI64(v) {
		start, end := c.exprSize(e.Start, sc), c.exprSize(e.Stop, sc)
		if sizeKey(start) != "" && sizeKey(end) != "" {
			d := mkSizeExpr("-", end, start)
			if e.Op == syntax.RangeIncl {
				d = mkSizeExpr("+", d, &SizeConst{N: 1})
			}
			return &Array{Dim: d, Elem: v}
		}
	}
	return &Array{Dim: c.unknownFrom("unknown length of range", e.Span), Elem: v}
}

// unknownFrom is a fresh unknown size whose origin, for messages, is what
// at sp.
func (c *Checker) unknownFrom(what string, sp syntax.Span) Size {
	u := c.freshUnknown("")
	if n, ok := u.(*SizeName); ok && c.fset != nil {
		p := c.fset.Position(sp.Start)
		n.Origin = fmt.Sprintf("%s at %d:%d", what, p.Line, p.Col)
	}
	return u
}

// isI64 reports whether t is known to be i64: only then does a range
// have a size given by its bounds, as in Futhark.
func isI64(t Type) bool {
	p, ok := Resolve(t).(*Prim)
	return ok && p.Kind == "i64"
}

// freshUnknown is a new size, distinct from every other.
func (c *Checker) freshUnknown(name string) Size {
	u := c.newUnknown(name)
	c.localSizes[u] = c.level
	c.noteOrigin(u)
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
		var start, end Size = &SizeConst{N: 0}, d
		if ix.Start != nil {
			start = c.exprSize(ix.Start, sc)
		}
		if ix.End != nil {
			end = c.exprSize(ix.End, sc)
		}
		if sizeKey(start) != "" && (sizeKey(end) != "" || isSizeVar(end)) {
			if isIntLit(ix.Start, 0) || ix.Start == nil {
				return end
			}
			return mkSizeExpr("-", end, start)
		}
	}
	return c.unknownFrom("size produced by slice", ix.Span)
}

// isSizeVar reports whether z is a size not yet decided: a slice of it
// has a size given by it, as in Futhark.
func isSizeVar(z Size) bool {
	_, ok := resolveSize(z).(SizeVar)
	return ok
}

// forgetLocalSizes replaces the sizes named by variables of inner, which
// go out of scope, by untracked sizes.
func (c *Checker) forgetLocalSizes(t Type, inner *scope) Type {
	s := &subst{sizes: map[*SizeName]Size{}}
	t = zonk(t)
	for _, v := range inner.vals {
		if v.size == nil || !mentionsSize(t, v.size) {
			continue
		}
		if d, ok := c.letSizes[v]; ok {
			// let m = n + 1 in iota m: [n + 1], as in Futhark.
			s.sizes[v.size] = d
			continue
		}
		// As in Futhark, a size whose name goes out of scope becomes a
		// size of its own, known only where it was.
		u := c.unknownFrom(fmt.Sprintf("an unknown size arising from \"%s\" going out of scope", v.name), v.span)
		if n, ok := u.(*SizeName); ok {
			n.scoped = v.name
		}
		s.sizes[v.size] = u
	}
	if len(s.sizes) == 0 {
		return t
	}
	// A definition may speak of another name of the same scope.
	for k, d := range s.sizes {
		s.sizes[k] = substSize(d, s)
	}
	return substType(t, s)
}

// joinTypes is the type of a conditional whose branches have types a and b
// (already unified up to sizes): sizes that differ become unknown.
func (c *Checker) joinTypes(a, b Type) Type {
	return c.join(a, b, map[[2]string]Size{})
}

// joinBranches is joinTypes for the branches of a conditional at sp: a
// size that differs says so where it is reported.
func (c *Checker) joinBranches(sp syntax.Span, a, b Type) Type {
	saved := c.joinAt
	c.joinAt = &joinSite{sp: sp, a: a, b: b}
	defer func() { c.joinAt = saved }()
	return c.join(a, b, map[[2]string]Size{})
}

// joinSite is the conditional whose branches are being joined.
type joinSite struct {
	sp   syntax.Span
	a, b Type
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
				} else if j := c.joinAt; j != nil {
					d = c.unknownFrom(fmt.Sprintf("unknown due to the conditional, one of whose branches returns an array of type %s and the other one of type %s,", quoteT(zonk(j.a)), quoteT(zonk(j.b))), j.sp)
					memo[[2]string{ka, kb}] = d
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

func containsSizeName(ss []*SizeName, s *SizeName) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// dependentArrow reports whether t is a function whose result size
// depends on the value of its parameter.
func dependentArrow(t Type) bool {
	for {
		a, ok := Resolve(t).(*Arrow)
		if !ok {
			return false
		}
		if a.Param != nil && mentionsSize(a.To, a.Param) {
			return true
		}
		t = a.To
	}
}

// resultIsUnliftedVar reports whether t is a function type whose final
// result is a type variable that may not hold anonymous sizes.
func resultIsUnliftedVar(t Type) bool {
	for {
		switch x := Resolve(t).(type) {
		case *Arrow:
			t = x.To
		default:
			return hasUnliftedVar(x)
		}
	}
}

// hasExistResult reports whether the function type t has existential
// sizes in its result (a -> ?[k].([k]b, c)): a function whose result size
// depends on its argument fits it.
func hasExistResult(t Type) bool {
	for {
		a, ok := Resolve(t).(*Arrow)
		if !ok {
			return false
		}
		if len(a.Exist) > 0 {
			return true
		}
		t = a.To
	}
}

// hasUnliftedVar reports whether t is or holds (as a field, payload or
// type argument; an array's element may have a size of its own) a type
// variable that may not hold anonymous sizes.
func hasUnliftedVar(t Type) bool {
	switch x := Resolve(t).(type) {
	case TVar:
		return x.lifted == syntax.Unlifted
	case *Record:
		for _, f := range x.Fields {
			if hasUnliftedVar(f.Type) {
				return true
			}
		}
	case *Sum:
		for _, cn := range x.Constrs {
			for _, p := range cn.Payload {
				if hasUnliftedVar(p) {
					return true
				}
			}
		}
	case *Con:
		for _, a := range x.Args {
			if a.Type != nil && hasUnliftedVar(a.Type) {
				return true
			}
		}
	}
	return false
}

// canonSize is the size a pure expression stands for when used as a
// size, so that the same expression gives the same size; nil when it has
// none.
func (c *Checker) canonSize(e syntax.Expr, sc *scope) Size {
	switch e := e.(type) {
	case *syntax.Paren:
		return c.canonSize(e.X, sc)
	case *syntax.IntLit:
		if e.Value != nil && e.Value.IsInt64() {
			return &SizeConst{N: e.Value.Int64()}
		}
	case *syntax.Var:
		if v := c.uses[e]; v != nil && v.builtin == "" {
			if len(e.Name.Quals) > 0 && v.name == e.Name.Quals[0] {
				// a field of a record variable (s.1): a term of its
				// own, the same wherever the same field of the same
				// variable is named
				return &SizeTerm{Head: fmt.Sprintf("%s#%d", e.Name, v.id), Name: e.Name.String()}
			}
			return c.sizeOfBinding(v)
		}
	case *syntax.Apply:
		fv, ok := unparenExpr(e.Fn).(*syntax.Var)
		if !ok || c.uses[fv] == nil {
			return nil
		}
		t := &SizeTerm{Head: fmt.Sprintf("%s#%d", fv.Name, c.uses[fv].id), Name: fv.Name.String()}
		for _, a := range e.Args {
			s := c.canonSize(a, sc)
			if s == nil {
				return nil
			}
			t.Args = append(t.Args, s)
		}
		return t
	case *syntax.Project:
		// x.f with x a size term (count[0].0): a term of its own.
		inner := c.canonSize(e.X, sc)
		if sizeKey(inner) == "" {
			return nil
		}
		return &SizeTerm{Head: "." + e.Field, Args: []Size{inner}}
	case *syntax.Index:
		// xs[i, j] with xs a variable and the indices sizes: a term of
		// the array and the indices (see indexHead).
		av, ok := unparenExpr(e.X).(*syntax.Var)
		if !ok || c.uses[av] == nil || len(av.Name.Quals) > 0 {
			return nil
		}
		t := &SizeTerm{Head: indexHead, Args: []Size{c.sizeOfBinding(c.uses[av])}}
		for _, ix := range e.Indices {
			if ix.Fix == nil {
				return nil
			}
			d := c.canonSize(ix.Fix, sc)
			if sizeKey(d) == "" {
				return nil
			}
			t.Args = append(t.Args, d)
		}
		return t
	case *syntax.Binary:
		if d := c.sizeOfExpr(e, sc); sizeKey(d) != "" {
			return d
		}
		l, r := c.canonSize(e.L, sc), c.canonSize(e.R, sc)
		if l == nil || r == nil || len(e.Op.Quals) > 0 {
			return nil
		}
		return mkSizeExpr(e.Op.Name, l, r)
	}
	return nil
}

// exprSize is the size an index or bound expression stands for: a size
// the checker tracks, else the expression itself as a size (a pure
// application such as i64.i32 m, as Futhark keeps it), else SizeAny.
func (c *Checker) exprSize(e syntax.Expr, sc *scope) Size {
	d := c.sizeOfExpr(e, sc)
	if _, unknown := d.(*SizeAny); unknown {
		if t := c.canonSize(e, sc); t != nil {
			return t
		}
	}
	return d
}

// sizeOfBinding returns the size a variable stands for.
func (c *Checker) sizeOfBinding(v *valBind) Size { return c.sizeOfBindingNamed(v, v.name) }

// sizeOfBindingNamed is sizeOfBinding, the size named name if this is
// its first use as one.
func (c *Checker) sizeOfBindingNamed(v *valBind, name string) Size {
	if v.sizeAlias != nil {
		return v.sizeAlias
	}
	if v.size == nil {
		c.nextID++
		v.size = &SizeName{Name: name, id: c.nextID}
		if v.local {
			c.localSizes[v.size] = v.level
		}
	}
	return v.size
}

// sizeOfExpr returns the size an argument expression stands for, or
// SizeAny when it is not one the checker tracks.
func (c *Checker) sizeOfExpr(e syntax.Expr, sc *scope) Size {
	switch e := e.(type) {
	case *syntax.IntLit:
		if e.Value != nil && e.Value.IsInt64() {
			return &SizeConst{N: e.Value.Int64()}
		}
	case *syntax.Paren:
		return c.sizeOfExpr(e.X, sc)
	case *syntax.Var:
		if v, ok := c.uses[e]; ok && v.builtin == "" && v.scheme != nil && len(v.scheme.TParams) == 0 {
			if p, ok := Resolve(v.scheme.Type).(*Prim); ok && p.Kind == "i64" {
				return c.sizeOfBinding(v)
			}
		}
	case *syntax.Binary:
		switch e.Op.Name {
		case "+", "-", "*", "/", "%", "**", "//", "%%", "<<", ">>", "&", "|", "^":
			if len(e.Op.Quals) == 0 {
				if v := sc.lookupVal(e.Op.Name); v != nil && v.builtin != "" {
					l, r := c.sizeOfExpr(e.L, sc), c.sizeOfExpr(e.R, sc)
					if sizeKey(l) != "" && sizeKey(r) != "" {
						return &SizeExpr{Op: e.Op.Name, L: l, R: r} // as written (sizeargs.go: [2 * 3] gives n = 2, m = 3)
					}
				}
			}
		}
	}
	return &SizeAny{}
}
