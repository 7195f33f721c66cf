package types

// Unification of types and sizes. Type variables carry constraints
// (overloaded primitive, equality, required record fields, required
// constructors, liftedness) that are checked when the variable is bound
// and merged when two variables meet. Sizes unify by identity of names,
// value of constants and canonical text of size expressions; SizeAny
// matches anything.

import (
	"fmt"

	"fut/interp/syntax"
)

func (c *Checker) newTVar(sp syntax.Span) TVar {
	c.nextID++
	v := TVar{&tvar{id: c.nextID, level: c.level, lifted: syntax.Lifted, span: sp}}
	return v
}

func (c *Checker) newOverloaded(sp syntax.Span, ps []syntax.PrimType, why string) TVar {
	v := c.newTVar(sp)
	v.overload = ps
	v.why = why
	v.lifted = syntax.Unlifted
	return v
}

func (c *Checker) newSizeVar() SizeVar {
	c.nextID++
	return SizeVar{&svar{id: c.nextID, level: c.level}}
}

func (c *Checker) newSizeName(name string) *SizeName {
	c.nextID++
	return &SizeName{Name: name, id: c.nextID}
}

func (c *Checker) newUnknown(name string) *SizeName {
	s := c.newSizeName(name)
	s.Unknown = true
	return s
}

// unifyError is a failed unification, with the innermost mismatch.
type unifyError struct {
	msg  string
	path string // the record field where it was found, if any
}

// unify makes want and got equal, or reports at sp that they differ.
func (c *Checker) unify(sp syntax.Span, want, got Type) bool {
	return c.unifyAt(sp, "Type mismatch.", want, got, false)
}

// unifyNoSizes unifies ignoring sizes (for branches and loops, whose
// differing sizes become unknown).
func (c *Checker) unifyNoSizes(sp syntax.Span, want, got Type) bool {
	return c.unifyAt(sp, "Type mismatch.", want, got, true)
}

// unifyAt unifies, and on failure reports what (a sentence saying where
// the mismatch is) followed by both types and the reason.
func (c *Checker) unifyAt(sp syntax.Span, what string, want, got Type, noSizes bool) bool {
	if err := c.unifyT(want, got, noSizes); err != nil {
		c.errorf(sp, "%s", c.mismatchIn(what, want, got, err))
		return false
	}
	return true
}

func (c *Checker) unifyT(a, b Type, noSizes bool) *unifyError {
	if !c.sizeLifted && (viaSizeLifted(a) || viaSizeLifted(b)) {
		// What a size-lifted type parameter ('~a) stands for may have
		// other sizes at each use: no occurs check on its sizes.
		c.sizeLifted = true
		defer func() { c.sizeLifted = false }()
	}
	a, b = Resolve(a), Resolve(b)
	if va, ok := a.(TVar); ok {
		if vb, ok := b.(TVar); ok && va.tvar == vb.tvar {
			return nil
		}
		return c.bindVar(va, b, noSizes)
	}
	if vb, ok := b.(TVar); ok {
		return c.bindVar(vb, a, noSizes)
	}
	switch a := a.(type) {
	case *Prim:
		if b, ok := b.(*Prim); ok && a.Kind == b.Kind {
			return nil
		}
	case *Array:
		if b, ok := b.(*Array); ok {
			if !noSizes {
				if err := c.unifySize(a.Dim, b.Dim); err != nil {
					return err
				}
			}
			return c.unifyT(a.Elem, b.Elem, noSizes)
		}
	case *Record:
		if b, ok := b.(*Record); ok {
			if d := unsharedFields(a, b); d != "" {
				return &unifyError{msg: fmt.Sprintf("Cannot unify record types %s and %s: unshared fields: %s.", quoteT(a), quoteT(b), d)}
			}
			for i := range a.Fields {
				if err := c.unifyT(a.Fields[i].Type, b.Fields[i].Type, noSizes); err != nil {
					return err.inField(a.Fields[i].Name)
				}
			}
			return nil
		}
	case *Sum:
		if b, ok := b.(*Sum); ok {
			if d := unsharedConstrs(a, b); d != "" {
				return &unifyError{msg: fmt.Sprintf("Cannot unify sum types %s and %s: Unshared constructors: %s.", quoteT(a), quoteT(b), d)}
			}
			for i := range a.Constrs {
				ca, cb := a.Constrs[i], b.Constrs[i]
				if len(ca.Payload) != len(cb.Payload) {
					return &unifyError{msg: fmt.Sprintf("The payloads of constructor #%s differ in arity (%d and %d).", ca.Name, len(ca.Payload), len(cb.Payload))}
				}
				for j := range ca.Payload {
					if err := c.unifyT(ca.Payload[j], cb.Payload[j], noSizes); err != nil {
						return err
					}
				}
			}
			return nil
		}
	case *Arrow:
		if b, ok := b.(*Arrow); ok {
			if err := c.unifyT(a.From, b.From, noSizes); err != nil {
				return err
			}
			// A named parameter on one side only: substitute so that the
			// result types speak of the same size.
			at, bt := a.To, b.To
			var free SizeVar // stands for a parameter only one side names
			var named *SizeName
			if a.Param != nil && b.Param != nil && a.Param != b.Param {
				bt = substType(bt, &subst{sizes: map[*SizeName]Size{b.Param: a.Param}})
			} else if a.Param != nil && b.Param == nil {
				free, named = c.newSizeVar(), a.Param
				free.stands = a.Param.Name
				at = substType(at, &subst{sizes: map[*SizeName]Size{a.Param: free}})
			} else if b.Param != nil && a.Param == nil {
				free, named = c.newSizeVar(), b.Param
				free.stands = b.Param.Name
				bt = substType(bt, &subst{sizes: map[*SizeName]Size{b.Param: free}})
			}
			if err := c.unifyT(at, bt, noSizes || len(a.Exist) > 0 || len(b.Exist) > 0); err != nil {
				return err
			}
			if named != nil {
				// The other side cannot fix what the value of a named
				// parameter is: its sizes are the argument's.
				// (Only a constant is caught here: a name may be one
				// that the other side binds itself, which fut does not
				// always record.)
				if d, ok := resolveSize(free).(*SizeConst); ok {
					return &unifyError{msg: fmt.Sprintf("Sizes \"%s\" and %s do not match: the size is the value of the parameter \"%s\", whatever the argument is.", named.Name, sizeText(d), named.Name)}
				}
			}
			return nil
		}
	case *Con:
		if b, ok := b.(*Con); ok && a.Con == b.Con && len(a.Args) == len(b.Args) {
			for i := range a.Args {
				if a.Args[i].Type != nil && b.Args[i].Type != nil {
					if err := c.unifyT(a.Args[i].Type, b.Args[i].Type, noSizes); err != nil {
						return err
					}
				} else if !noSizes && a.Args[i].Size != nil && b.Args[i].Size != nil {
					if err := c.unifySize(a.Args[i].Size, b.Args[i].Size); err != nil {
						return err
					}
				}
			}
			return nil
		}
	}
	return &unifyError{msg: fmt.Sprintf("Cannot unify %s with %s.", quoteT(a), quoteT(b))}
}

func occurs(v *tvar, t Type) bool {
	switch t := Resolve(t).(type) {
	case TVar:
		if t.tvar == v {
			return true
		}
		if t.openCons == 0 {
			return false
		}
		for _, f := range t.fields {
			if occurs(v, f) {
				return true
			}
		}
		for _, ps := range t.constrs {
			for _, p := range ps {
				if occurs(v, p) {
					return true
				}
			}
		}
	case *Array:
		return occurs(v, t.Elem)
	case *Record:
		for _, f := range t.Fields {
			if occurs(v, f.Type) {
				return true
			}
		}
	case *Sum:
		for _, cn := range t.Constrs {
			for _, p := range cn.Payload {
				if occurs(v, p) {
					return true
				}
			}
		}
	case *Arrow:
		return occurs(v, t.From) || occurs(v, t.To)
	case *Con:
		for _, a := range t.Args {
			if a.Type != nil && occurs(v, a.Type) {
				return true
			}
		}
	}
	return false
}

// adjustLevels lowers the level of every variable in t to at most lvl.
func adjustLevels(t Type, lvl int) {
	switch t := Resolve(t).(type) {
	case TVar:
		if t.level > lvl {
			t.level = lvl
		}
		if t.openCons == 0 {
			return
		}
		for _, f := range t.fields {
			adjustLevels(f, lvl)
		}
		for _, ps := range t.constrs {
			for _, p := range ps {
				adjustLevels(p, lvl)
			}
		}
	case *Array:
		adjustLevels(t.Elem, lvl)
	case *Record:
		for _, f := range t.Fields {
			adjustLevels(f.Type, lvl)
		}
	case *Sum:
		for _, cn := range t.Constrs {
			for _, p := range cn.Payload {
				adjustLevels(p, lvl)
			}
		}
	case *Arrow:
		adjustLevels(t.From, lvl)
		adjustLevels(t.To, lvl)
	case *Con:
		for _, a := range t.Args {
			if a.Type != nil {
				adjustLevels(a.Type, lvl)
			}
		}
	}
}

// isFunctional reports whether t is or contains a function type (or a
// lifted type parameter, which may be one).
func isFunctional(t Type) bool { return isFunctionalBut(t, nil) }

// isFunctionalBut is isFunctional, the lifted type constructors of but
// (a refinement's own parameters) not counted.
func isFunctionalBut(t Type, but map[*TypeCon]bool) bool {
	switch t := Resolve(t).(type) {
	case *Arrow:
		return true
	case *Array:
		return isFunctionalBut(t.Elem, but)
	case *Record:
		for _, f := range t.Fields {
			if isFunctionalBut(f.Type, but) {
				return true
			}
		}
	case *Sum:
		for _, cn := range t.Constrs {
			for _, p := range cn.Payload {
				if isFunctionalBut(p, but) {
					return true
				}
			}
		}
	case *Con:
		return t.Con.Lifted == syntax.Lifted && !but[t.Con]
	}
	return false
}

func hasArray(t Type) bool {
	switch t := Resolve(t).(type) {
	case *Array:
		return true
	case *Record:
		for _, f := range t.Fields {
			if hasArray(f.Type) {
				return true
			}
		}
	case *Sum:
		for _, cn := range t.Constrs {
			for _, p := range cn.Payload {
				if hasArray(p) {
					return true
				}
			}
		}
	case *Con:
		return t.Con.Lifted != syntax.Unlifted
	}
	return false
}

func containsPrim(ps []syntax.PrimType, p syntax.PrimType) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}

func (c *Checker) bindVar(v TVar, t Type, noSizes bool) *unifyError {
	if w, ok := t.(TVar); ok {
		if len(v.fields)+len(v.constrs) > len(w.fields)+len(w.constrs) {
			// merge the smaller constraints into the larger: an array
			// of n different constructors costs n, not n²
			v, w = w, v
		}
		if constraintOccurs(v.tvar, w) || constraintOccurs(w.tvar, v) {
			return &unifyError{msg: fmt.Sprintf("Occurs check: %s and %s would form an infinite type.", v, w)}
		}
		// Merge constraints into w.
		if v.overload != nil {
			if w.overload == nil {
				w.overload = v.overload
			} else {
				var both []syntax.PrimType
				for _, p := range w.overload {
					if containsPrim(v.overload, p) {
						both = append(both, p)
					}
				}
				if len(both) == 0 {
					return &unifyError{msg: fmt.Sprintf("Cannot unify %s with %s: no type is both.", v, w)}
				}
				w.overload = both
			}
			w.lit = w.lit || v.lit
		}
		w.index = w.index || v.index
		if (v.fields != nil || v.constrs != nil) && w.overload != nil {
			return primVersusStructured(w, v)
		}
		if (w.fields != nil || w.constrs != nil) && v.overload != nil {
			return primVersusStructured(v, w)
		}
		w.equality = w.equality || v.equality
		if v.fields != nil {
			if w.constrs != nil {
				return &unifyError{msg: "Cannot unify type that must be a record with type that must be a sum type."}
			}
			if w.fields == nil {
				w.fields = map[string]Type{}
				w.span = v.span
			}
			for n, ft := range v.fields {
				if wt, ok := w.fields[n]; ok {
					if err := c.unifyT(wt, ft, noSizes); err != nil {
						return err
					}
				} else {
					w.fields[n] = ft
					w.openCons += c.countOpen(ft)
				}
			}
		}
		if v.constrs != nil {
			if w.fields != nil {
				return &unifyError{msg: "Cannot unify type that must be a record with type that must be a sum type."}
			}
			if w.constrs == nil {
				w.constrs = map[string][]Type{}
				w.span = v.span
			} else if v.span.Start.IsValid() && v.span.Start < w.span.Start {
				w.span = v.span
			}
			for n, ps := range v.constrs {
				if wps, ok := w.constrs[n]; ok {
					if len(wps) != len(ps) {
						return &unifyError{msg: fmt.Sprintf("The payloads of constructor #%s differ in arity (%d and %d).", n, len(wps), len(ps))}
					}
					for i := range ps {
						if err := c.unifyT(wps[i], ps[i], noSizes); err != nil {
							return err
						}
					}
				} else {
					w.constrs[n] = ps
					w.openCons += c.countOpen(ps...)
				}
			}
		}
		if v.lifted < w.lifted {
			w.lifted = v.lifted
		}
		if v.level < w.level {
			w.level = v.level
		}
		v.link = w
		return nil
	}
	tf := c.facts(t) // facts.go: lets the walks below skip a large ground type
	if tf.open && occurs(v.tvar, t) {
		return &unifyError{msg: fmt.Sprintf("Occurs check: cannot unify %s with %s, which contains it (an infinite type).", v, quoteT(t))}
	}
	if v.overload != nil {
		p, ok := t.(*Prim)
		if !ok || !containsPrim(v.overload, p.Kind) {
			return &unifyError{msg: fmt.Sprintf("Cannot unify %s with %s: it is not one of the types allowed here.", quoteT(t), overloadText(v.tvar))}
		}
	}
	if v.equality && tf.con && hasCon(t) {
		return &unifyError{msg: fmt.Sprintf("Type %s does not support equality (it is a type parameter or abstract type).", quoteT(t))}
	}
	if v.equality && tf.fun && isFunctional(t) {
		return &unifyError{msg: fmt.Sprintf("Type %s does not support equality (it is a function type).", quoteT(t))}
	}
	if v.lifted == syntax.Unlifted && tf.con && !isFunctional(t) {
		if tc := liftedCon(t); tc != nil {
			return &unifyError{msg: fmt.Sprintf("Cannot instantiate a non-lifted type variable (such as an array element type) with %s: the type \"%s\" is lifted (its values may have different sizes).", quoteT(t), tc.Name)}
		}
	}
	if v.lifted == syntax.Unlifted && tf.fun && isFunctional(t) {
		return &unifyError{msg: fmt.Sprintf("A non-lifted type variable cannot be instantiated with the function type %s: functional values may not be used here.", quoteT(t))}
	}
	if v.fields != nil {
		r, ok := t.(*Record)
		if !ok {
			return &unifyError{msg: fmt.Sprintf("Cannot unify %s with type that must be a record with fields %s.", quoteT(t), TVar{v.tvar})}
		}
		for n, ft := range v.fields {
			rt, ok := r.Field(n)
			if !ok {
				return &unifyError{msg: fmt.Sprintf("Cannot unify record type %s with a record that has field \"%s\".", quoteT(t), n)}
			}
			if err := c.unifyT(ft, rt, noSizes); err != nil {
				return err
			}
		}
	}
	if v.constrs != nil {
		s, ok := t.(*Sum)
		if !ok {
			return &unifyError{msg: fmt.Sprintf("Cannot unify type with constructors %s with type %s (not a sum type).", TVar{v.tvar}, quoteT(t))}
		}
		for n, ps := range v.constrs {
			sps, ok := s.Constr(n)
			if !ok {
				return &unifyError{msg: fmt.Sprintf("Cannot unify sum type %s with a sum type that has #%s: Unshared constructors: #%s.", quoteT(t), n, n)}
			}
			if len(sps) != len(ps) {
				return &unifyError{msg: fmt.Sprintf("The payloads of constructor #%s differ in arity (%d and %d).", n, len(sps), len(ps))}
			}
			for i := range ps {
				if err := c.unifyT(ps[i], sps[i], noSizes); err != nil {
					return err
				}
			}
		}
	}
	if tf.con {
		if err := c.typeEscapes(v, t); err != nil {
			return err
		}
	}
	if tf.open {
		adjustLevels(t, v.level)
	}
	v.link = t
	return nil
}

func (c *Checker) unifySize(a, b Size) *unifyError {
	a, b = resolveSize(a), resolveSize(b)
	if va, ok := a.(SizeVar); ok {
		if vb, ok := b.(SizeVar); ok && va.svar == vb.svar {
			return nil
		}
		if err := c.sizeEscapes(va, b); err != nil {
			return err
		}
		// A size that would contain itself (n = n+n) is an error, but
		// under a size-lifted type, which may take different sizes at
		// different uses, it is left alone.
		if sizeOccurs(va.svar, b) && !c.sizeLifted {
			return &unifyError{msg: fmt.Sprintf("Occurs check: cannot instantiate %s with %s.", sizeText(va), sizeText(b))}
		}
		if !sizeOccurs(va.svar, b) {
			lowerSizeLevels(b, va.level)
			va.link = b
			if w, ok := b.(SizeVar); ok && w.stands == "" {
				w.stands = va.stands
			}
		}
		return nil
	}
	if vb, ok := b.(SizeVar); ok {
		if err := c.sizeEscapes(vb, a); err != nil {
			return err
		}
		// A size that would contain itself (n = n+n) is an error, but
		// under a size-lifted type, which may take different sizes at
		// different uses, it is left alone.
		if sizeOccurs(vb.svar, a) && !c.sizeLifted {
			return &unifyError{msg: fmt.Sprintf("Occurs check: cannot instantiate %s with %s.", sizeText(vb), sizeText(a))}
		}
		if !sizeOccurs(vb.svar, a) {
			lowerSizeLevels(a, vb.level)
			vb.link = a
		}
		return nil
	}
	if _, ok := a.(*SizeAny); ok {
		return nil
	}
	if _, ok := b.(*SizeAny); ok {
		return nil
	}
	// n + m against 5 folded from 2 + 3: against what it was folded from.
	if ka, ok := a.(*SizeConst); ok && ka.from != nil {
		if eb, ok := b.(*SizeExpr); ok && eb.Op == ka.from.Op {
			a = ka.from
		}
	}
	if kb, ok := b.(*SizeConst); ok && kb.from != nil {
		if ea, ok := a.(*SizeExpr); ok && ea.Op == kb.from.Op {
			b = kb.from
		}
	}
	// f n' against f n: unify the arguments, which may solve variables.
	if ta, ok := a.(*SizeTerm); ok {
		if tb, ok := b.(*SizeTerm); ok && ta.Head == tb.Head && len(ta.Args) == len(tb.Args) {
			var err *unifyError
			for i := range ta.Args {
				if e := c.unifySize(ta.Args[i], tb.Args[i]); e != nil && err == nil {
					err = e
				}
			}
			if err == nil {
				return nil
			}
		}
	}
	// n' * m' against n * m: unify the parts, which may solve variables.
	if ea, ok := a.(*SizeExpr); ok && ea.Op != "" {
		if eb, ok := b.(*SizeExpr); ok && eb.Op == ea.Op {
			if c.unifySize(ea.L, eb.L) == nil && c.unifySize(ea.R, eb.R) == nil {
				return nil
			}
		}
	}
	ka, kb := sizeKey(a), sizeKey(b)
	if ka != "" && ka == kb {
		return nil
	}
	if (ka == "" || kb == "") && (hasSizeAny(a) || hasSizeAny(b)) {
		return nil // fut does not track one of them
	}
	// Otherwise an expression with unsolved variables in it: Futhark
	// unifies sizes without arithmetic, so n + m never equals 10 (nor
	// n * m), whatever n and m become.
	return &unifyError{msg: fmt.Sprintf("Sizes %s and %s do not match.", sizeText(a), sizeText(b))}
}

// viaSizeLifted reports whether t is a type variable bound through a
// size-lifted one.
func viaSizeLifted(t Type) bool {
	for {
		v, ok := t.(TVar)
		if !ok || v.link == nil {
			return false
		}
		if v.lifted == syntax.SizeLifted {
			return true
		}
		t = v.link
	}
}

// lowerSizeLevels lowers the level of every size variable in s to at
// most lvl: a variable of that level now depends on them.
func lowerSizeLevels(s Size, lvl int) {
	for _, v := range sizeVarsIn(s) {
		if v.level > lvl {
			v.level = lvl
		}
	}
}

// hasSizeAny reports whether s has a size fut does not track in it.
func hasSizeAny(s Size) bool {
	switch s := resolveSize(s).(type) {
	case *SizeAny:
		return true
	case *SizeExpr:
		if s.Op != "" {
			return hasSizeAny(s.L) || hasSizeAny(s.R)
		}
	case *SizeTerm:
		for _, a := range s.Args {
			if hasSizeAny(a) {
				return true
			}
		}
	}
	return false
}

func sizeOccurs(v *svar, s Size) bool {
	switch s := resolveSize(s).(type) {
	case SizeVar:
		return s.svar == v
	case *SizeExpr:
		if s.Op != "" {
			return sizeOccurs(v, s.L) || sizeOccurs(v, s.R)
		}
	case *SizeTerm:
		for _, a := range s.Args {
			if sizeOccurs(v, a) {
				return true
			}
		}
	}
	return false
}

// hasCon reports whether t has a rigid type constructor (type parameter or
// abstract type) in it.
func hasCon(t Type) bool {
	switch t := Resolve(t).(type) {
	case *Con:
		return true
	case *Array:
		return hasCon(t.Elem)
	case *Record:
		for _, f := range t.Fields {
			if hasCon(f.Type) {
				return true
			}
		}
	case *Sum:
		for _, cn := range t.Constrs {
			for _, p := range cn.Payload {
				if hasCon(p) {
					return true
				}
			}
		}
	}
	return false
}

// constraintOccurs reports whether x occurs in the field or constructor
// constraints of w.
func constraintOccurs(x *tvar, w TVar) bool {
	if w.openCons == 0 {
		return false
	}
	for _, f := range w.fields {
		if occurs(x, f) {
			return true
		}
	}
	for _, ps := range w.constrs {
		for _, p := range ps {
			if occurs(x, p) {
				return true
			}
		}
	}
	return false
}

// sizeEscapes reports a size variable of an outer level that would be
// bound to a size parameter of an inner function: the outer type would
// then speak of a size that is not in its scope.
func (c *Checker) sizeEscapes(v SizeVar, s Size) *unifyError {
	if v.declared {
		// def f : i64 -> []t = \n -> iota n: the declared size would be
		// n, which is bound by the function inside the declared type, so
		// not in scope where the declared size is introduced (as in
		// Futhark). The variable standing for n is made after v.
		for _, w := range sizeVarsIn(s) {
			if w.stands != "" && w.id > v.id {
				return &unifyError{msg: fmt.Sprintf("Cannot link an anonymous size of the declared type to %s (scope-violation).\nThis is because \"%s\" is the parameter of a function inside the declared type, not in scope where the declared type's size is introduced.", sizeText(nameStandIns(s)), w.stands)}
			}
		}
	}
	z, ok := s.(*SizeName)
	if !ok || z.Unknown {
		return nil
	}
	if lvl, local := c.sizeParams[z]; local && lvl > v.level {
		return &unifyError{msg: fmt.Sprintf("The size \"%s\" is bound inside a local function, but would appear in a type outside it (scope-violation).", z.Name)}
	}
	return nil
}

// typeEscapes reports a type variable of an outer level that would be
// bound to a type mentioning a type parameter of an inner function.
func (c *Checker) typeEscapes(v TVar, t Type) *unifyError {
	var bad *TypeCon
	var walk func(t Type)
	walk = func(t Type) {
		switch t := Resolve(t).(type) {
		case *Con:
			if lvl, ok := c.typeParams[t.Con]; ok && lvl > v.level && bad == nil {
				bad = t.Con
			}
			for _, a := range t.Args {
				if a.Type != nil {
					walk(a.Type)
				}
			}
		case *Array:
			walk(t.Elem)
		case *Record:
			for _, f := range t.Fields {
				walk(f.Type)
			}
		case *Sum:
			for _, k := range t.Constrs {
				for _, p := range k.Payload {
					walk(p)
				}
			}
		case *Arrow:
			walk(t.From)
			walk(t.To)
		}
	}
	walk(t)
	if bad != nil {
		return &unifyError{msg: fmt.Sprintf("The type parameter \"%s\" is bound inside a local function, but would appear in a type outside it (scope-violation).", bad.Name)}
	}
	return nil
}

// liftedCon finds, in t, a type parameter or abstract type that is
// declared lifted or size-lifted.
func liftedCon(t Type) *TypeCon {
	switch t := Resolve(t).(type) {
	case *Con:
		if t.Con.Lifted != syntax.Unlifted {
			return t.Con
		}
		for _, a := range t.Args {
			if a.Type != nil {
				if tc := liftedCon(a.Type); tc != nil {
					return tc
				}
			}
		}
	case *Array:
		return liftedCon(t.Elem)
	case *Record:
		for _, f := range t.Fields {
			if tc := liftedCon(f.Type); tc != nil {
				return tc
			}
		}
	case *Sum:
		for _, k := range t.Constrs {
			for _, p := range k.Payload {
				if tc := liftedCon(p); tc != nil {
					return tc
				}
			}
		}
	}
	return nil
}
