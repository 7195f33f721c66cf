package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// define binds name in sc (starting a new level when it would rebind a
// name of the current level) and exports it through mod when mod is set.
func define(sc *scope, mod *module, name string, v value.Value) *scope {
	_, exists := sc.lookup(name)
	if _, isOp := value.LookupBinOp(name); exists || isOp {
		// an operator symbol may have been resolved to the built-in by
		// code already run; a new level keeps that code as it was
		sc = sc.childFor(name)
	}
	sc.vals[name] = v
	delete(sc.consts, name)
	if mod != nil {
		mod.vals[name] = v
		delete(mod.consts, name)
	}
	return sc
}

func defineMod(sc *scope, mod *module, name string, m *module) *scope {
	if _, exists := sc.lookupMod(name); exists {
		sc = sc.child()
	}
	sc.mods[name] = m
	if mod != nil {
		mod.mods[name] = m
	}
	return sc
}

// decl evaluates one declaration into sc, exporting into mod (nil at the
// top level or for local declarations). It returns the scope to continue in.
func (t *thread) decl(d syntax.Decl, sc *scope, mod *module) (*scope, error) {
	switch d := d.(type) {
	case *syntax.ValDecl:
		fb := d.Fun
		if len(fb.Params) == 0 && !hasSizeParams(fb) {
			t.live, t.pk1, t.pkP = 0, 0, 0
			cs, _ := t.in.closureScope(fb, sc)
			v, err := t.evalCompiled(fb.Body, rootEnv(cs))
			if err != nil {
				return sc, err
			}
			if fb.RetType != nil {
				if err := t.checkType(v, fb.RetType, rootEnv(sc), fb.Pos()); err != nil {
					return sc, err
				}
			}
			freeze(v)
			e := t.in.noteConst(fb, v)
			sc = define(sc, mod, fb.Name, v)
			sc.setConst(fb.Name, e)
			if mod != nil {
				mod.setConst(fb.Name, e)
			}
			return sc, nil
		}
		// a function: its closure sees what sc binds now of the names
		// it uses (its own name among them is the definition it
		// replaces); define puts it in a new level when it shadows one
		cs, self := t.in.closureScope(fb, sc)
		f := t.funClosure(fb, rootEnv(cs))
		if _, old := cs.vals[fb.Name]; !old && self {
			// not Futhark, but the evaluator stops recursion cleanly
			// (call stack too deep) rather than say the name is unknown
			cs.vals[fb.Name] = f
		}
		return define(sc, mod, fb.Name, f), nil
	case *syntax.TypeDecl:
		if _, exists := sc.types[d.Name]; exists {
			sc = sc.child()
		}
		sc.types[d.Name] = d
		if mod != nil {
			mod.types[d.Name] = d
		}
		return sc, nil
	case *syntax.ModTypeDecl:
		return defineSig(sc, mod, d.Name, d.Def), nil
	case *syntax.LocalDecl:
		return t.decl(d.D, sc, nil)
	case *syntax.OpenDecl:
		m, err := t.modExp(d.Mod, sc)
		if err != nil {
			return sc, err
		}
		sc = sc.child()
		openInto(sc, m)
		if mod != nil {
			for k, v := range m.vals {
				mod.vals[k] = v
				delete(mod.consts, k)
				if e := m.consts[k]; e != nil {
					mod.setConst(k, e)
				}
			}
			for k, v := range m.mods {
				mod.mods[k] = v
			}
			for k, v := range m.types {
				mod.types[k] = v
			}
		}
		return sc, nil
	case *syntax.ImportDecl:
		m, err := t.importMod(d.Path, d.Pos(), sc)
		if err != nil {
			return sc, err
		}
		sc = sc.child()
		openInto(sc, m)
		return sc, nil
	case *syntax.ModDecl:
		var m *module
		var err error
		if len(d.Params) > 0 {
			m = t.mkFunctor(d.Params, d.Body, sc, d.Sig)
		} else if m, err = t.modExp(d.Body, sc); err != nil {
			return sc, err
		} else if d.Sig != nil {
			m = restrictMod(m, d.Sig, sc)
		}
		return defineMod(sc, mod, d.Name, m), nil
	}
	return sc, t.errf(d.Pos(), "cannot evaluate declaration %T", d)
}

func (t *thread) mkFunctor(params []*syntax.ModParam, body syntax.ModExp, sc *scope, result syntax.ModTypeExp) *module {
	p := params[0]
	return &module{functor: &functor{param: p.Name, body: func(t *thread, arg *module) (*module, error) {
		inner := newScope(sc)
		inner.mods[p.Name] = arg
		if len(params) > 1 {
			return t.mkFunctor(params[1:], body, inner, result), nil
		}
		m, err := t.modExp(body, inner)
		if err == nil && result != nil {
			m = restrictMod(m, result, inner)
		}
		return m, err
	}}}
}

// modExp evaluates a module expression.
func (t *thread) modExp(me syntax.ModExp, sc *scope) (*module, error) {
	switch me := me.(type) {
	case *syntax.ModVar:
		q := me.Name
		path := append(append([]string(nil), q.Quals...), q.Name)
		m, ok := sc.lookupMod(path[0])
		if !ok {
			return nil, t.errf(me.Pos(), "unknown module %s", path[0])
		}
		for _, n := range path[1:] {
			if m, ok = m.mods[n]; !ok {
				return nil, t.errf(me.Pos(), "unknown module %s", q)
			}
		}
		return m, nil
	case *syntax.ModParen:
		return t.modExp(me.M, sc)
	case *syntax.ModAscript:
		m, err := t.modExp(me.M, sc)
		if err != nil {
			return nil, err
		}
		return restrictMod(m, me.Sig, sc), nil
	case *syntax.ModStruct:
		m := newModule()
		inner := newScope(sc)
		var err error
		for _, d := range me.Decls {
			if inner, err = t.decl(d, inner, m); err != nil {
				return nil, err
			}
		}
		return m, nil
	case *syntax.ModApply:
		f, err := t.modExp(me.Fn, sc)
		if err != nil {
			return nil, err
		}
		if f.functor == nil {
			return nil, t.errf(me.Pos(), "applying a module that is not parametric")
		}
		arg, err := t.modExp(me.Arg, sc)
		if err != nil {
			return nil, err
		}
		return f.functor.body(t, arg)
	case *syntax.ModLambda:
		return t.mkFunctor([]*syntax.ModParam{me.Param}, me.Body, sc, me.Sig), nil
	case *syntax.ModImport:
		return t.importMod(me.Path, me.Pos(), sc)
	}
	return nil, t.errf(me.Pos(), "cannot evaluate module expression %T", me)
}

// importMod evaluates an imported file once, in a scope over the
// prelude (the root of sc), and returns its declarations as a module.
func (t *thread) importMod(path string, pos syntax.Pos, sc *scope) (*module, error) {
	if t.in.opts.Import == nil {
		return nil, t.errf(pos, "import %q: imports are not available here", path)
	}
	prog, err := t.in.opts.Import(pos, path)
	if err != nil {
		return nil, err
	}
	if m, ok := t.in.imports[prog]; ok {
		return m, nil
	}
	base := t.in.preludeScope
	if base == nil {
		base = sc
	}
	m := newModule()
	inner := newScope(base)
	for _, d := range prog.Decls {
		if inner, err = t.decl(d, inner, m); err != nil {
			return nil, err
		}
	}
	t.in.imports[prog] = m
	return m, nil
}

// MarkPrelude records the current top-level environment as the prelude:
// imported files are evaluated over it. With a memory limit, the live
// heap now is the session's footprint, which the limit does not count.
func (in *Interp) MarkPrelude() {
	in.preludeScope = in.top
	in.markPreludeSOACs()
	if in.opts.MaxMemory > 0 {
		in.measureBase()
	}
}

// hasSizeParams reports whether fb has [n] parameters. A constant with
// them (def iiota [n] : [n]i64 = iota n) is evaluated at each use, with
// the sizes that use fixes (see evalVar).
func hasSizeParams(fb *syntax.FunBind) bool {
	for _, tp := range fb.TypeParams {
		if tp.Kind == syntax.TPSize {
			return true
		}
	}
	return false
}
