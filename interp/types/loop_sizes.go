package types

// Sizes of loop parameters, as Futhark infers them.
//
// A loop behaves like a function f p = body applied over and over to the
// initial value. Every size of the initial value's type first becomes a
// fresh size variable of the parameter (one per occurrence, so that two
// parameters that start out equal may still evolve apart). Once the body
// is checked, each variable is compared with the size the body returns
// in its place: the initial size again, or the current size of another
// parameter that started out at that size (a swap), keeps it invariant;
// any other size makes it variant, and so does copying a variant one.
// Invariant sizes become their initial sizes. Variant sizes become rigid
// sizes of the loop (the body must then return values of the parameter's
// type for any of them) and existential sizes of the loop's result,
// computed by the loop. A variant size that something outside the loop
// came to depend on has escaped (an error), as has a size that only
// exists inside the body. Where fut does not track a size (the initial
// one or the one the body returns), the size stays untracked.

import "fut/interp/syntax"

// loopDims is the state of one loop's size inference.
type loopDims struct {
	fresh []SizeVar // one per size of the initial value's type
	init  []Size    // the size each replaced
	level int       // the level of the fresh variables
	start int       // the first id made for the loop
}

// freshLoopDims replaces every size of t by a fresh size variable.
func (c *Checker) freshLoopDims(t Type, ld *loopDims) Type {
	return mapTypeSizes(t, func(z Size) Size {
		v := c.newSizeVar()
		ld.fresh = append(ld.fresh, v)
		ld.init = append(ld.init, zonkSize(z))
		return v
	})
}

// mapTypeSizes is t with every size z replaced by f(z).
func mapTypeSizes(t Type, f func(Size) Size) Type {
	switch x := Resolve(t).(type) {
	case *Array:
		return &Array{Unique: x.Unique, Dim: f(x.Dim), Elem: mapTypeSizes(x.Elem, f)}
	case *Record:
		fs := make([]Field, len(x.Fields))
		for i, fl := range x.Fields {
			fs[i] = Field{fl.Name, mapTypeSizes(fl.Type, f)}
		}
		return &Record{fs}
	case *Sum:
		cs := make([]Constr, len(x.Constrs))
		for i, cn := range x.Constrs {
			ps := make([]Type, len(cn.Payload))
			for j, p := range cn.Payload {
				ps[j] = mapTypeSizes(p, f)
			}
			cs[i] = Constr{cn.Name, ps}
		}
		return &Sum{cs}
	case *Con:
		args := make([]TypeArg, len(x.Args))
		for i, a := range x.Args {
			if a.Type != nil {
				args[i] = TypeArg{Type: mapTypeSizes(a.Type, f)}
			} else {
				args[i] = TypeArg{Size: f(a.Size)}
			}
		}
		return &Con{Con: x.Con, Args: args, Unique: x.Unique}
	}
	return t
}

// matchSizes calls f on the sizes at the same places of a and b.
func matchSizes(a, b Type, f func(x, y Size)) {
	switch x := Resolve(a).(type) {
	case *Array:
		if y, ok := Resolve(b).(*Array); ok {
			f(x.Dim, y.Dim)
			matchSizes(x.Elem, y.Elem, f)
		}
	case *Record:
		if y, ok := Resolve(b).(*Record); ok {
			for _, fl := range x.Fields {
				if yt, ok := y.Field(fl.Name); ok {
					matchSizes(fl.Type, yt, f)
				}
			}
		}
	case *Sum:
		if y, ok := Resolve(b).(*Sum); ok && len(x.Constrs) == len(y.Constrs) {
			for i, cn := range x.Constrs {
				if len(cn.Payload) == len(y.Constrs[i].Payload) {
					for j := range cn.Payload {
						matchSizes(cn.Payload[j], y.Constrs[i].Payload[j], f)
					}
				}
			}
		}
	case *Con:
		if y, ok := Resolve(b).(*Con); ok && len(x.Args) == len(y.Args) {
			for i, a := range x.Args {
				if a.Type != nil && y.Args[i].Type != nil {
					matchSizes(a.Type, y.Args[i].Type, f)
				} else if a.Type == nil && y.Args[i].Type == nil {
					f(a.Size, y.Args[i].Size)
				}
			}
		}
	}
}

// sizeVarsIn lists the unsolved size variables of z.
func sizeVarsIn(z Size) []*svar {
	switch z := resolveSize(z).(type) {
	case SizeVar:
		return []*svar{z.svar}
	case *SizeExpr:
		if z.Op != "" {
			return append(sizeVarsIn(z.L), sizeVarsIn(z.R)...)
		}
	case *SizeTerm:
		var out []*svar
		for _, a := range z.Args {
			out = append(out, sizeVarsIn(a)...)
		}
		return out
	}
	return nil
}

// sameSize reports whether two sizes are known to be equal.
func sameSize(a, b Size) bool {
	a, b = resolveSize(a), resolveSize(b)
	if va, ok := a.(SizeVar); ok {
		vb, ok := b.(SizeVar)
		return ok && va.svar == vb.svar
	}
	ka := sizeKey(a)
	return ka != "" && ka == sizeKey(b)
}

// loopSizeParams decides, once the body has type bt, which sizes of the
// loop parameter (of type pt, its initial sizes fresh in lt) are variant,
// and returns them as rigid sizes; the invariant ones are linked to their
// initial sizes. It reports at sp a size created inside the body that the
// parameter's type needs, and a variant size something outside the loop
// depends on.
func (c *Checker) loopSizeParams(ld *loopDims, pt, lt, bt Type, sp, patSp syntax.Span, pat syntax.Pat) []*SizeName {
	pz := zonk(pt)
	bad := false
	// A size given by a parameter itself (length xs) names a variable
	// that is not in scope where the parameter's size is decided.
	own := map[*SizeName]string{}
	for _, id := range patNames(pat) {
		if vb := c.patBinds[id]; vb != nil && vb.size != nil {
			own[vb.size] = vb.name
		}
	}
	if len(own) > 0 {
		walkSizes(pz, func(z Size) {
			walkSizeNames(z, func(n *SizeName) {
				if name, ok := own[n]; ok && !bad {
					bad = true
					c.errorf(sp, "Cannot link a size of the loop parameter to %s (scope violation).\nThis is because \"%s\" is not in scope when the loop parameter's size is introduced.", sizeText(z), name)
				}
			})
		})
	}
	walkSizes(pz, func(z Size) {
		walkSizeNames(z, func(n *SizeName) {
			if !bad && n.Unknown && n.id > ld.start {
				bad = true
				c.errorf(patSp, "Inferred type for loop parameter is %s, but %s is an existential size created inside the loop body.", quoteT(pz), sizeText(n))
			}
		})
	})
	if bad {
		return nil
	}
	// Which fresh variable (by the variable it is now) stands for which
	// initial size.
	initOf := map[*svar]Size{}
	isNew := map[*svar]bool{}
	for i, v := range ld.fresh {
		if r, ok := resolveSize(v).(SizeVar); ok {
			isNew[r.svar] = true
			if _, seen := initOf[r.svar]; !seen {
				initOf[r.svar] = ld.init[i]
			}
		}
	}
	// Let the body's type settle against the parameter's, each of its
	// fresh sizes free to take what the body returns.
	pf := mapTypeSizes(pz, func(z Size) Size {
		if r, ok := resolveSize(z).(SizeVar); ok && isNew[r.svar] {
			return c.newSizeVar()
		}
		return z
	})
	if err := c.unifyT(pf, bt, false); err != nil {
		c.errorf(sp, "%s", c.mismatchIn("Loop body does not have expected type.", pf, bt, err))
		return nil
	}
	const (
		reproduces = iota + 1
		untracked
		fresh
	)
	class := map[*svar]int{}
	copies := map[*svar][]*svar{} // v copies the current size of each of these
	matchSizes(zonk(lt), zonk(bt), func(e, d Size) {
		if sameSize(e, d) {
			return
		}
		for _, v := range sizeVarsIn(e) {
			e0, ok := initOf[v]
			if !ok {
				continue
			}
			k := fresh
			switch {
			case hasSizeAny(e0) || hasSizeAny(d):
				k = untracked
			case sameSize(e0, d):
				k = reproduces
			default:
				if u, ok := resolveSize(d).(SizeVar); ok && isNew[u.svar] && sameSize(initOf[u.svar], e0) {
					k = reproduces
					copies[v] = append(copies[v], u.svar)
				}
			}
			if k > class[v] {
				class[v] = k
			}
		}
	})
	closure := func(k int) map[*svar]bool {
		set := map[*svar]bool{}
		for v, kv := range class {
			if kv == k {
				set[v] = true
			}
		}
		for changed := true; changed; {
			changed = false
			for v, us := range copies {
				for _, u := range us {
					if set[u] && !set[v] {
						set[v], changed = true, true
					}
				}
			}
		}
		return set
	}
	variant, loose := closure(fresh), closure(untracked)
	var sparams []*SizeName
	escaped := false
	for v := range class {
		switch {
		case variant[v]:
			if v.level < ld.level && !escaped {
				escaped = true
				c.errorf(sp, "Loop-variant size has escaped into type that occurs outside of loop (loop-variant-escape).\nThis is likely because the loop body uses a variable whose type\ndepends on the loop parameter.")
			}
			n := c.newUnknown("loop_d")
			n.Origin = "the size of a loop parameter that changes across iterations"
			v.link = n
			sparams = append(sparams, n)
		case loose[v]:
			v.link = &SizeAny{}
		default:
			v.link = initOf[v]
		}
	}
	// Keep the order of the parameter's sizes, for stable messages.
	order := map[*SizeName]int{}
	for i, v := range ld.fresh {
		if n, ok := resolveSize(v).(*SizeName); ok {
			if _, seen := order[n]; !seen {
				order[n] = i
			}
		}
	}
	sortSizeNames(sparams, order)
	return sparams
}

// walkSizeNames calls f on every size name in z.
func walkSizeNames(z Size, f func(*SizeName)) {
	switch z := resolveSize(z).(type) {
	case *SizeName:
		f(z)
	case *SizeExpr:
		if z.Op != "" {
			walkSizeNames(z.L, f)
			walkSizeNames(z.R, f)
		}
	case *SizeTerm:
		for _, a := range z.Args {
			walkSizeNames(a, f)
		}
	}
}

func sortSizeNames(ns []*SizeName, order map[*SizeName]int) {
	for i := 1; i < len(ns); i++ {
		for j := i; j > 0 && order[ns[j]] < order[ns[j-1]]; j-- {
			ns[j], ns[j-1] = ns[j-1], ns[j]
		}
	}
}

// instLoopSizes is t with the sizes ns each replaced by a new size from
// mk (the same one at every occurrence).
func instLoopSizes(t Type, ns []*SizeName, mk func() Size) Type {
	if len(ns) == 0 {
		return zonk(t)
	}
	s := &subst{sizes: map[*SizeName]Size{}}
	for _, n := range ns {
		s.sizes[n] = mk()
	}
	return substType(zonk(t), s)
}

// uniqueLike is t with the uniqueness of its arrays as in u.
func uniqueLike(t, u Type) Type {
	switch x := t.(type) {
	case *Array:
		if y, ok := Resolve(u).(*Array); ok {
			return &Array{Unique: y.Unique, Dim: x.Dim, Elem: uniqueLike(x.Elem, y.Elem)}
		}
	case *Record:
		if y, ok := Resolve(u).(*Record); ok && len(y.Fields) == len(x.Fields) {
			fs := make([]Field, len(x.Fields))
			for i, f := range x.Fields {
				fs[i] = Field{f.Name, uniqueLike(f.Type, y.Fields[i].Type)}
			}
			return &Record{fs}
		}
	}
	return t
}
