package eval

// Module types at run time: a module ascribed a module type (M : S, a
// functor's result type, module m : S = …) shows only the values and
// submodules S names, so that local opens and `open` do not see its
// hidden definitions. A module type the evaluator cannot resolve leaves
// the module as it is (the checker has already done the real checking).

import "fut/interp/syntax"

// defineSig binds the module type name in sc (and exports it into mod).
func defineSig(sc *scope, mod *module, name string, s syntax.ModTypeExp) *scope {
	if _, exists := sc.sigs[name]; exists || sc.sealed {
		sc = sc.child()
	}
	if sc.sigs == nil {
		sc.sigs = map[string]syntax.ModTypeExp{}
	}
	sc.sigs[name] = s
	if mod != nil {
		if mod.sigs == nil {
			mod.sigs = map[string]syntax.ModTypeExp{}
		}
		mod.sigs[name] = s
	}
	return sc
}

// lookupSig finds a (qualified) module type name.
func lookupSig(q syntax.QualName, sc *scope) (syntax.ModTypeExp, bool) {
	if len(q.Quals) == 0 {
		for s := sc; s != nil; s = s.parent {
			if d, ok := s.sigs[q.Name]; ok {
				return d, true
			}
		}
		return nil, false
	}
	m, ok := sc.lookupMod(q.Quals[0])
	if !ok {
		return nil, false
	}
	for _, n := range q.Quals[1:] {
		if m, ok = m.mods[n]; !ok {
			return nil, false
		}
	}
	d, ok := m.sigs[q.Name]
	return d, ok
}

// sigNames collects the value and module names that s specifies; ok is
// false when s cannot be resolved or is a functor type.
func sigNames(s syntax.ModTypeExp, sc *scope, vals, mods map[string]bool, depth int) bool {
	if depth > 50 {
		return false
	}
	switch x := s.(type) {
	case *syntax.SigVar:
		d, ok := lookupSig(x.Name, sc)
		return ok && sigNames(d, sc, vals, mods, depth+1)
	case *syntax.SigParen:
		return sigNames(x.S, sc, vals, mods, depth+1)
	case *syntax.SigWith:
		return sigNames(x.S, sc, vals, mods, depth+1)
	case *syntax.SigSpecs:
		for _, sp := range x.Specs {
			switch y := sp.(type) {
			case *syntax.ValSpec:
				vals[y.Name] = true
			case *syntax.ModSpec:
				mods[y.Name] = true
			case *syntax.IncludeSpec:
				if !sigNames(y.S, sc, vals, mods, depth+1) {
					return false
				}
			}
		}
		return true
	}
	return false
}

// restrictMod is m showing only what s names (m itself when s cannot be
// resolved, or hides nothing).
func restrictMod(m *module, s syntax.ModTypeExp, sc *scope) *module {
	if m == nil || m.functor != nil || s == nil {
		return m
	}
	vals, mods := map[string]bool{}, map[string]bool{}
	if !sigNames(s, sc, vals, mods, 0) {
		return m
	}
	hides := false
	for k := range m.vals {
		if !vals[k] {
			hides = true
		}
	}
	for k := range m.mods {
		if !mods[k] {
			hides = true
		}
	}
	if !hides {
		return m
	}
	r := newModule()
	for k, v := range m.vals {
		if vals[k] {
			r.vals[k] = v
			if e := m.consts[k]; e != nil {
				r.setConst(k, e)
			}
		}
	}
	for k, v := range m.mods {
		if mods[k] {
			r.mods[k] = v
		}
	}
	r.types = m.types
	r.sigs = m.sigs
	return r
}
