package types

// Module types: specifications, refinement with `with`, instantiation,
// and matching a module against a module type (ascription and functor
// application).

import (
	"fut/interp/syntax"
)

// Sig is a module type: a template module whose abstract types (abs) are
// replaced when it is instantiated or matched.
type Sig struct {
	mod *Module
	abs []*TypeCon
}

func (c *Checker) checkSigExp(st syntax.ModTypeExp, sc *scope) *Sig {
	switch st := st.(type) {
	case *syntax.SigVar:
		if len(st.Name.Quals) == 0 {
			if s := sc.lookupSig(st.Name.Name); s != nil {
				return s
			}
			c.errorf(st.Span, "Unknown module type \"%s\".", st.Name.Name)
			return nil
		}
		m := c.lookupModPath(st.Name.Quals, sc, st.Span)
		if m == nil {
			return nil
		}
		if s, ok := m.sigs[st.Name.Name]; ok {
			return s
		}
		c.errorf(st.Span, "Unknown module type \"%s\": module %s has none of that name.", st.Name.String(), joinQuals(st.Name.Quals))
		return nil
	case *syntax.SigParen:
		return c.checkSigExp(st.S, sc)
	case *syntax.SigSpecs:
		return c.checkSpecs(st.Specs, sc)
	case *syntax.SigWith:
		return c.refineSig(st, sc)
	case *syntax.SigArrow:
		ps := c.checkSigExp(st.From, sc)
		if ps == nil {
			return nil
		}
		inst, abs := c.freshSig(ps)
		inner := newScope(sc)
		if st.Param != "" {
			inner.mods[st.Param] = inst
		}
		before := c.nextID
		rs := c.checkSigExp(st.To, inner)
		if rs == nil {
			return nil
		}
		res, _ := c.freshSig(rs)
		var resAbs []*TypeCon
		collectNewCons(res, before, &resAbs, map[*TypeCon]bool{})
		return &Sig{mod: &Module{ns: newNS(), functor: &Functor{param: inst, paramAbs: abs, result: res, resAbs: resAbs, sig: ps}}}
	}
	c.errorf(syntax.SpanOf(st), "Unsupported module type.")
	return nil
}

func (c *Checker) checkSpecs(specs []syntax.Spec, sc *scope) *Sig {
	inner := newScope(sc)
	m := &Module{ns: newNS()}
	var abs []*TypeCon
	for _, sp := range specs {
		switch sp := sp.(type) {
		case *syntax.ValSpec:
			if _, dup := m.vals[sp.Name]; dup {
				c.errorf(sp.Span, "Duplicate specification of value \"%s\".", sp.Name)
			}
			m.vals[sp.Name] = &valBind{name: sp.Name, scheme: c.valSpecScheme(sp, inner), span: sp.Span, id: c.freshID(), obj: &Object{Kind: ObjSpec, Name: sp.Name}}
			inner.vals[sp.Name] = m.vals[sp.Name]
		case *syntax.TypeSpec:
			var td *TypeDef
			if sp.Def != nil {
				td = c.typeDef(sp.Name, sp.Lifted, sp.Params, sp.Def, inner, sp.Span)
			} else {
				c.nextID++
				tc := &TypeCon{Name: sp.Name, Arity: len(sp.Params), Lifted: sp.Lifted, id: c.nextID}
				td = &TypeDef{Name: sp.Name, Lifted: sp.Lifted}
				var args []TypeArg
				seenP := map[string]bool{}
				for _, tp := range sp.Params {
					if seenP[tp.Name] {
						c.errorf(tp.Span, "Type parameter \"%s\" of \"%s\" is also bound previously in the same list.", tp.Name, sp.Name)
					}
					seenP[tp.Name] = true
					if tp.Kind == syntax.TPSize {
						sn := c.newSizeName(tp.Name)
						td.Params = append(td.Params, TypeParam{Size: sn})
						args = append(args, TypeArg{Size: sn})
					} else {
						c.nextID++
						p := &TypeCon{Name: tp.Name, Lifted: liftedOf(tp.Kind), id: c.nextID}
						td.Params = append(td.Params, TypeParam{Con: p})
						args = append(args, TypeArg{Type: &Con{Con: p}})
					}
				}
				td.Body = &Con{Con: tc, Args: args}
				td.absCon = tc
				abs = append(abs, tc)
			}
			m.types[sp.Name] = td
			inner.types[sp.Name] = td
		case *syntax.ModSpec:
			s := c.checkSigExp(sp.Sig, inner)
			if s == nil {
				continue
			}
			inst, a := c.freshSig(s)
			m.mods[sp.Name] = inst
			inner.mods[sp.Name] = inst
			abs = append(abs, a...)
		case *syntax.IncludeSpec:
			s := c.checkSigExp(sp.S, inner)
			if s == nil {
				continue
			}
			inst, a := c.freshSig(s)
			// A type already specified stays as it is (include S with
			// t = t restates it).
			incl := &Module{ns: newNS()}
			merge(&incl.ns, &inst.ns)
			for n := range incl.types {
				if _, ok := m.types[n]; ok {
					delete(incl.types, n)
				}
			}
			merge(&m.ns, &incl.ns)
			merge(&inner.ns, &incl.ns)
			abs = append(abs, a...)
		}
	}
	return &Sig{mod: m, abs: abs}
}

// valSpecScheme is the scheme of val f 'a [n]: t.
func (c *Checker) valSpecScheme(vs *syntax.ValSpec, sc *scope) *Scheme {
	inner := newScope(sc)
	sch := &Scheme{}
	for _, tp := range vs.TypeParams {
		if tp.Kind == syntax.TPSize {
			sn := c.newSizeName(tp.Name)
			inner.vals[tp.Name] = &valBind{name: tp.Name, scheme: &Scheme{Type: I64}, size: sn, span: tp.Span}
			sch.SParams = append(sch.SParams, sn)
			continue
		}
		c.nextID++
		tc := &TypeCon{Name: tp.Name, Lifted: liftedOf(tp.Kind), id: c.nextID}
		inner.types[tp.Name] = &TypeDef{Name: tp.Name, Body: &Con{Con: tc}, Lifted: tc.Lifted}
		sch.TParams = append(sch.TParams, tc)
	}
	saved := c.anonParams
	c.anonParams = nil
	c.resultUnknowns = nil
	sch.Type = c.typeExp(vs.Type, inner, dimParam)
	if len(c.resultUnknowns) > 0 {
		// A constant with anonymous sizes: not tracked.
		s := existToAny(c.resultUnknowns)
		sch.Type = substType(sch.Type, s)
		c.resultUnknowns = nil
	}
	if len(c.anonParams) > 0 && !c.loadingIntrinsics {
		c.errorf(vs.Span, "The parameter types of val \"%s\" have anonymous sizes ([]); use non-anonymous size parameters ([n]) instead.", vs.Name)
	}
	sch.SParams = append(sch.SParams, c.anonParams...)
	c.anonParams = saved
	return sch
}

// freshSig instantiates a module type: its abstract types become new
// rigid constructors.
func (c *Checker) freshSig(s *Sig) (*Module, []*TypeCon) {
	if len(s.abs) == 0 {
		// Each instance has specifications of its own (resolve.go), so
		// that two uses of one module type are never confused.
		return freshSpecs(s.mod), nil
	}
	sub := &subst{types: map[*TypeCon]*TypeDef{}, sizes: map[*SizeName]Size{}}
	var abs []*TypeCon
	for _, tc := range s.abs {
		c.nextID++
		ntc := &TypeCon{Name: tc.Name, Arity: tc.Arity, Lifted: tc.Lifted, id: c.nextID}
		sub.types[tc] = conDef(ntc, tc)
		abs = append(abs, ntc)
	}
	return freshSpecs(substModule(s.mod, sub)), abs
}

func (c *Checker) refineSig(st *syntax.SigWith, sc *scope) *Sig {
	base := c.checkSigExp(st.S, sc)
	if base == nil {
		return nil
	}
	m := base.mod
	for _, q := range st.Path.Quals {
		sub, ok := m.mods[q]
		if !ok {
			c.errorf(st.Span, "The module type has no module \"%s\".", q)
			return base
		}
		m = sub
	}
	td, ok := m.types[st.Path.Name]
	if !ok {
		c.errorf(st.Span, "Cannot refine a type: the module type has no type \"%s\".", st.Path)
		return base
	}
	idx := -1
	var con *Con
	if td.absCon != nil {
		for i, a := range base.abs {
			if a == td.absCon {
				idx = i
			}
		}
		con = &Con{Con: td.absCon}
	}
	if idx < 0 {
		c.errorf(st.Span, "Cannot refine the type \"%s\": it is not an abstract type in the module type.", st.Path)
		return base
	}
	if len(st.Params) != len(td.Params) {
		c.errorf(st.Span, "Cannot refine a type with a different number of parameters: \"%s\" takes %d, but the refinement gives %d.", st.Path, len(td.Params), len(st.Params))
		return base
	}
	for i, p := range st.Params {
		if orig := td.Params[i].Con; orig != nil && liftedOf(p.Kind) < orig.Lifted {
			c.errorf(p.Span, "Cannot refine a type with a parameter that is less lifted than the one it had (\"%s\").", p.Name)
			return base
		}
	}
	// As in Futhark, a refinement may give an abstract type a type with
	// anonymous sizes ([]t) or a size-lifted one: only a function type
	// needs a lifted one. The refined type keeps the liftedness the module
	// type declares.
	// A parameter more lifted than the original's (t '^a = a) may make
	// the type functional only by what it is given: the refinement
	// expands the type, as Futhark allows.
	lifted := con.Con.Lifted
	if lifted == syntax.Unlifted {
		lifted = syntax.SizeLifted
	}
	for _, p := range st.Params {
		if liftedOf(p.Kind) == syntax.Lifted {
			lifted = syntax.Lifted
		}
	}
	def := c.typeDef(st.Path.Name, lifted, st.Params, st.Type, sc, st.Span)
	def.Lifted = con.Con.Lifted
	own := map[*TypeCon]bool{}
	for _, p := range def.Params {
		if p.Con != nil {
			own[p.Con] = true
		}
	}
	if con.Con.Lifted == syntax.Unlifted && isFunctionalBut(def.Body, own) && len(c.errs) == 0 {
		c.errorf(st.Span, "Cannot refine the non-lifted abstract type \"%s\" to the function type %s.", st.Path, quoteT(def.Body))
	}
	s := &subst{types: map[*TypeCon]*TypeDef{con.Con: def}, sizes: map[*SizeName]Size{}}
	abs := append(append([]*TypeCon{}, base.abs[:idx]...), base.abs[idx+1:]...)
	return &Sig{mod: substModule(base.mod, s), abs: abs}
}

// ascribe checks m against sig and returns m as sig shows it: its
// abstract types are opaque.
func (c *Checker) ascribe(m *Module, sig *Sig, sp syntax.Span) *Module {
	if mf, sf := m.functor, sig.mod.functor; mf != nil && sf != nil {
		// A parametric module ascribed a parametric module type must
		// accept every argument the module type accepts: the module
		// type's parameter must match the module's.
		if _, ok := c.matchModule(sf.param, mf.param, mf.paramAbs, sp); !ok {
			return m
		}
	}
	s, ok := c.matchModule(m, sig.mod, sig.abs, sp)
	if !ok {
		return m
	}
	inst, abs := c.freshSig(sig)
	c.info.noteAbstract(sig.abs, abs, s) // stages.go
	return withObjects(inst, m)
}

// matchModule checks that m has everything target (a module type
// instance with abstract types abs) asks for, and returns the
// substitution of the abstract types by m's types.
func (c *Checker) matchModule(m, target *Module, abs []*TypeCon, sp syntax.Span) (*subst, bool) {
	s := &subst{types: map[*TypeCon]*TypeDef{}, sizes: map[*SizeName]Size{}}
	absSet := map[*TypeCon]bool{}
	for _, a := range abs {
		absSet[a] = true
	}
	n := len(c.errs)
	c.matchTypes(m, target, absSet, s, sp, "")
	if len(c.errs) > n {
		return s, false
	}
	c.matchVals(m, target, absSet, s, sp, "")
	return s, len(c.errs) == n
}

func (c *Checker) matchTypes(m, target *Module, absSet map[*TypeCon]bool, s *subst, sp syntax.Span, path string) {
	for name, td := range target.types {
		mtd, ok := m.types[name]
		if !ok {
			c.errorf(sp, "Module does not define the type \"%s%s\" that the module type requires.", path, name)
			continue
		}
		if td.absCon != nil && absSet[td.absCon] {
			con := &Con{Con: td.absCon}
			if len(mtd.Params) != len(td.Params) {
				c.errorf(sp, "Module type mismatch: the module type requires type %s%s with %d parameters, but the module defines it with %d.", path, name, len(td.Params), len(mtd.Params))
				continue
			}
			if con.Con.Lifted == syntax.Unlifted && isFunctional(mtd.Body) {
				c.errorf(sp, "The type \"%s%s\" is functional in the module, but the module type declares it non-lifted.", path, name)
				continue
			}
			if mtd.Lifted > con.Con.Lifted {
				c.errorf(sp, "The type \"%s%s\" is more lifted in the module than the module type allows.", path, name)
				continue
			}
			// A value of an abstract type t [n] must hold an array of
			// size n, as in Futhark.
			witnessed := map[*SizeName]bool{}
			witnessedSizes(mtd.Body, witnessed)
			bad := false
			for _, p := range mtd.Params {
				if p.Size != nil && !witnessed[p.Size] {
					c.errorf(sp, "Type \"%s%s\" (%s) cannot be made abstract because size parameter \"%s\" is not used constructively as an array size in the definition.", path, name, quoteT(mtd.Body), p.Size.Name)
					bad = true
					break
				}
			}
			if bad {
				continue
			}
			s.types[con.Con] = mtd
		}
	}
	for name, v := range target.vals {
		if mv, ok := m.vals[name]; ok && v.size != nil && mv.builtin == "" {
			s.sizes[v.size] = c.sizeOfBinding(mv)
		}
	}
	for name, sub := range target.mods {
		msub, ok := m.mods[name]
		if !ok {
			c.errorf(sp, "Module does not define the module \"%s%s\" that the module type requires.", path, name)
			continue
		}
		if sub.functor != nil || msub.functor != nil {
			if (sub.functor == nil) != (msub.functor == nil) {
				c.errorf(sp, "The module \"%s%s\" is parametric in one of the module and its module type, but not in the other.", path, name)
			} else {
				// The module type's parameter must match the module's
				// (named by the module's path in messages).
				s2 := &subst{types: map[*TypeCon]*TypeDef{}, sizes: map[*SizeName]Size{}}
				abs2 := map[*TypeCon]bool{}
				for _, a := range msub.functor.paramAbs {
					abs2[a] = true
				}
				n := len(c.errs)
				c.matchTypes(sub.functor.param, msub.functor.param, abs2, s2, sp, path+name+".")
				if len(c.errs) == n {
					c.matchVals(sub.functor.param, msub.functor.param, abs2, s2, sp, path+name+".")
				}
			}
			continue
		}
		c.matchTypes(msub, sub, absSet, s, sp, path+name+".")
	}
}

func (c *Checker) matchVals(m, target *Module, absSet map[*TypeCon]bool, s *subst, sp syntax.Span, path string) {
	for name, td := range target.types {
		if td.absCon != nil && absSet[td.absCon] {
			continue
		}
		mtd, ok := m.types[name]
		if !ok {
			continue
		}
		var args []TypeArg
		for _, p := range td.Params {
			if p.Con != nil {
				args = append(args, TypeArg{Type: &Con{Con: p.Con}})
			} else {
				args = append(args, TypeArg{Size: p.Size})
			}
		}
		want := substType(td.Body, s)
		got := applyTypeDef(mtd, args)
		if err := c.unifyT(want, got, false); err != nil {
			c.errorf(sp, "Module type mismatch: the module type requires \"type %s%s = %s\", but the module defines it as %s.\n%s", path, name, zonk(want), quoteT(got), err.msg)
		}
	}
	for name, vb := range target.vals {
		mv, ok := m.vals[name]
		if !ok {
			c.errorf(sp, "Module does not define the value \"%s%s\" that the module type requires.", path, name)
			continue
		}
		if topLevelSize(vb.scheme.Type, s) {
			// Futhark's limitation (its #2120): the value would need a
			// size of its own, which a value specification cannot give.
			c.errorf(sp, "Type substitution in \"%s%s\" results in a top-level size: the module's definition of its type has a size of its own, which a value cannot have.", path, name)
			continue
		}
		want := substType(vb.scheme.Type, s)
		var got Type
		if mv.builtin != "" {
			got = c.builtinOpType(mv.builtin, sp)
		} else {
			got = c.instantiate(mv.scheme, sp)
		}
		if err := c.unifyT(want, got, false); err != nil {
			c.errorf(sp, "Module type mismatch: the module type requires \"val %s%s : %s\", but the module defines \"val %s%s : %s\".\n%s", path, name, zonk(want), path, name, zonk(got), err.msg)
		} else if !uniqueCompatible(want, got) {
			c.errorf(sp, "Module type mismatch: the module type requires \"val %s%s : %s\", but the module defines \"val %s%s : %s\", whose uniqueness differs.", path, name, zonk(want), path, name, zonk(got))
		}
	}
	for name, sub := range target.mods {
		if msub, ok := m.mods[name]; ok && sub.functor == nil && msub.functor == nil {
			c.matchVals(msub, sub, absSet, s, sp, path+name+".")
		}
	}
}

// topLevelSize reports whether t, outside any function type, has an
// abstract type that s defines with an array of anonymous size (type~ t =
// []bool).
func topLevelSize(t Type, s *subst) bool {
	switch x := t.(type) {
	case *Record:
		for _, f := range x.Fields {
			if topLevelSize(f.Type, s) {
				return true
			}
		}
	case *Con:
		if d, ok := s.types[x.Con]; ok && d.Lifted == syntax.SizeLifted {
			return anonArray(d.Body)
		}
	}
	return false
}

// anonArray reports whether t, outside any function type, has an array
// whose size is anonymous.
func anonArray(t Type) bool {
	switch x := Resolve(t).(type) {
	case *Array:
		if _, ok := resolveSize(x.Dim).(*SizeAny); ok {
			return true
		}
		if n, ok := resolveSize(x.Dim).(*SizeName); ok && n.Unknown {
			return true
		}
		return anonArray(x.Elem)
	case *Record:
		for _, f := range x.Fields {
			if anonArray(f.Type) {
				return true
			}
		}
	}
	return false
}

// uniqueCompatible reports whether a value of type got may be used as one
// of type want: it may not consume a parameter that want does not, and
// it must return unique results where want does.
func uniqueCompatible(want, got Type) bool {
	w, g := Resolve(want), Resolve(got)
	wa, ok1 := w.(*Arrow)
	ga, ok2 := g.(*Arrow)
	if ok1 && ok2 {
		if isUnique(ga.From) && !isUnique(wa.From) {
			return false
		}
		return uniqueCompatible(wa.To, ga.To)
	}
	if ok1 || ok2 {
		return true
	}
	return !isUnique(w) || isUnique(g)
}
