package types

// The sizes of a definition's result: the sizes local to its body become
// existential sizes of the result (one for each size, however often the
// result has it, also inside a function it returns), and a size that a
// function in the result needs in its parameter must be one a caller could
// know.

import (
	"fmt"
)

// localInFunction is a size of a parameter of a function type in t that
// is bound inside the definition (above level outer, not allowed), or
// nil: no caller could give an argument of that size.
func (c *Checker) localInFunction(t Type, allowed map[*SizeName]bool, outer int) *SizeName {
	var found *SizeName
	bound := map[*SizeName]bool{} // named parameters of the arrows around
	var size func(z Size)
	size = func(z Size) {
		switch x := resolveSize(z).(type) {
		case *SizeName:
			if lvl, local := c.localSizes[x]; local && lvl > outer && !allowed[x] && !bound[x] && found == nil {
				found = x
			}
		case *SizeExpr:
			if x.Op != "" {
				size(x.L)
				size(x.R)
			}
		case *SizeTerm:
			for _, a := range x.Args {
				size(a)
			}
		}
	}
	var walk func(t Type, inFun bool)
	walk = func(t Type, inFun bool) {
		switch x := Resolve(t).(type) {
		case *Arrow:
			walk(x.From, true)
			if x.Param != nil && !bound[x.Param] {
				bound[x.Param] = true
				defer delete(bound, x.Param)
			}
			walk(x.To, inFun)
		case *Array:
			if inFun {
				size(x.Dim)
			}
			walk(x.Elem, inFun)
		case *Record:
			for _, f := range x.Fields {
				walk(f.Type, inFun)
			}
		case *Sum:
			for _, cn := range x.Constrs {
				for _, p := range cn.Payload {
					walk(p, inFun)
				}
			}
		}
	}
	walk(t, false)
	return found
}

// sizesByPosition calls leaf with each size name or variable in the
// array sizes of t (inside size expressions too), saying whether it is in
// a function's parameter type (or, with resultsInParam, anywhere in a
// function type) rather than a position a value of t produces.
func sizesByPosition(t Type, resultsInParam bool, leaf func(z Size, param bool)) {
	var size func(z Size, param bool)
	size = func(z Size, param bool) {
		switch x := resolveSize(z).(type) {
		case *SizeExpr:
			if x.Op != "" {
				size(x.L, param)
				size(x.R, param)
			}
		case *SizeTerm:
			for _, a := range x.Args {
				size(a, param)
			}
		default:
			leaf(x, param)
		}
	}
	var walk func(t Type, param bool)
	walk = func(t Type, param bool) {
		switch x := Resolve(t).(type) {
		case *Arrow:
			walk(x.From, true)
			walk(x.To, param || resultsInParam)
		case *Array:
			size(x.Dim, param)
			walk(x.Elem, param)
		case *Record:
			for _, f := range x.Fields {
				walk(f.Type, param)
			}
		case *Sum:
			for _, cn := range x.Constrs {
				for _, p := range cn.Payload {
					walk(p, param)
				}
			}
		}
	}
	walk(t, false)
}

// existOnlyInParam is the name of an existential size of the result type
// t that occurs in a parameter type of a function in t but in no position
// a value of t produces, or "".
func existOnlyInParam(t Type, exist []*SizeName) string {
	if len(exist) == 0 {
		return ""
	}
	isExist := map[*SizeName]bool{}
	for _, e := range exist {
		isExist[e] = true
	}
	inParam, produced := map[*SizeName]bool{}, map[*SizeName]bool{}
	// A function produces no value until applied: its sizes, parameter or
	// result, are no size a value of t shows.
	sizesByPosition(t, true, func(z Size, param bool) {
		if x, ok := z.(*SizeName); ok && isExist[x] {
			if param {
				inParam[x] = true
			} else {
				produced[x] = true
			}
		}
	})
	for _, e := range exist {
		if inParam[e] && !produced[e] {
			return e.Name
		}
	}
	return ""
}

func existToAny(ex []*SizeName) *subst {
	s := &subst{sizes: map[*SizeName]Size{}}
	for _, e := range ex {
		s.sizes[e] = &SizeAny{}
	}
	return s
}

// declaredOpen reports whether the open size v is one of the sizes vs
// of a declared result.
func declaredOpen(v SizeVar, vs []*svar) bool {
	for _, w := range vs {
		if r, ok := resolveSize(SizeVar{w}).(SizeVar); ok && r.svar == v.svar {
			return true
		}
	}
	return false
}

// existentialise replaces the sizes of a result type that are local to
// the function (not parameters) by fresh existential sizes.
func (c *Checker) existentialise(t Type, allowed map[*SizeName]bool, outer int, retVars []*svar) (Type, []*SizeName) {
	var exist []*SizeName
	s := &subst{sizes: map[*SizeName]Size{}}
	var bad func(z Size) bool
	bad = func(z Size) bool {
		switch z := resolveSize(z).(type) {
		case *SizeName:
			lvl, local := c.localSizes[z]
			return local && lvl > outer && !allowed[z]
		case *SizeExpr:
			if z.Op != "" {
				return bad(z.L) || bad(z.R)
			}
		case *SizeTerm:
			for _, a := range z.Args {
				if bad(a) {
					return true
				}
			}
		}
		return false
	}
	produced := map[*SizeName]bool{}  // bad sizes a value of t has, not only a function in it
	madeFor := map[string]*SizeName{} // the existential made for a size that is no name (by sizeKey)
	inArrow := 0
	dim := func(d Size) Size {
		d = resolveSize(d)
		if sn, ok := d.(*SizeName); inArrow > 0 && (!ok || !produced[sn]) {
			return d
		}
		if _, ok := d.(SizeVar); ok || bad(d) {
			if sn, ok := d.(*SizeName); ok {
				if r, ok := s.sizes[sn]; ok {
					return r
				}
				u := c.newUnknown(sn.Name)
				s.sizes[sn] = u
				exist = append(exist, u)
				return u
			}
			// One existential per size however often the result has it
			// ({a: [s]t, b: [s]t} with s = length ys is ?[d].{a: [d]t,
			// b: [d]t}).
			key := sizeKey(d)
			if v, open := d.(SizeVar); open {
				key = fmt.Sprintf("?%d", v.id)
			}
			if key != "" {
				if u, ok := madeFor[key]; ok {
					return u
				}
			}
			u := c.newUnknown("d")
			if key != "" {
				madeFor[key] = u
			}
			exist = append(exist, u)
			if v, open := d.(SizeVar); open && declaredOpen(v, retVars) {
				// Nothing in the body decides it: in Futhark a size
				// parameter the caller chooses.
				if c.openExist == nil {
					c.openExist = map[*SizeName]bool{}
				}
				c.openExist[u] = true
			}
			return u
		}
		return d
	}
	var walk func(t Type) Type
	walk = func(t Type) Type {
		switch t := Resolve(t).(type) {
		case *Array:
			return &Array{Unique: t.Unique, Dim: dim(t.Dim), Elem: walk(t.Elem)}
		case *Con:
			// t [y] with y local: an existential too.
			if len(t.Args) == 0 {
				return t
			}
			args := make([]TypeArg, len(t.Args))
			for i, a := range t.Args {
				if a.Type != nil {
					args[i] = TypeArg{Type: walk(a.Type)}
				} else {
					args[i] = TypeArg{Size: dim(a.Size)}
				}
			}
			return &Con{Con: t.Con, Args: args, Unique: t.Unique}
		case *Record:
			fs := make([]Field, len(t.Fields))
			for i, f := range t.Fields {
				fs[i] = Field{f.Name, walk(f.Type)}
			}
			return &Record{fs}
		case *Sum:
			cs := make([]Constr, len(t.Constrs))
			for i, cn := range t.Constrs {
				ps := make([]Type, len(cn.Payload))
				for j, p := range cn.Payload {
					ps[j] = walk(p)
				}
				cs[i] = Constr{cn.Name, ps}
			}
			return &Sum{cs}
		case *Arrow:
			// A function in the result that returns arrays of a size the
			// body made, one a value of the result also has, speaks of
			// the same existential: ?[n].([n]t, u -> [n]t) keeps one n.
			// (Its other sizes are its own; what its parameter speaks of
			// is localInFunction's.)
			inArrow++
			to := walk(t.To)
			inArrow--
			return &Arrow{Param: t.Param, From: t.From, To: to, Exist: t.Exist}
		}
		return t
	}
	sizesByPosition(t, true, func(z Size, param bool) {
		if sn, ok := resolveSize(z).(*SizeName); ok && !param && bad(sn) {
			produced[sn] = true
		}
	})
	return walk(t), exist
}
