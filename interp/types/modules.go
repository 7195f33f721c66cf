package types

// Modules: structures, parametric modules and their application, open,
// local and import.
//
// A parametric module is checked once, with its parameter bound to a fresh
// instance of the parameter's module type (whose abstract types are new
// rigid constructors). Applying it matches the argument against that
// module type, which gives a substitution of the abstract types by the
// argument's types, and applies the substitution to the checked body.

import (
	"fut/interp/syntax"
)

// Module is the contents of a module, or a parametric module.
type Module struct {
	ns
	functor *Functor
}

// Functor is a parametric module.
type Functor struct {
	param    *Module    // the parameter as seen by the body
	paramAbs []*TypeCon // the parameter's abstract types
	result   *Module    // the body, checked against param
	resAbs   []*TypeCon // abstract types made by the body's ascription
	sig      *Sig       // the parameter's module type
}

func (c *Checker) checkDecls(decls []syntax.Decl, sc *scope, exp *scope) {
	var en *ns
	if exp != nil {
		en = &exp.ns
	}
	c.checkDuplicateDecls(decls)
	for _, d := range decls {
		ok, done := c.guardDecl(d) // depth.go
		if ok {
			c.checkDecl(d, sc, en)
		}
		done()
	}
}

// checkDuplicateDecls reports a name defined twice by the declarations of
// one list (a file or a module body), as Futhark does before checking
// them: values and modules share one namespace, types and module types
// have their own. What open, import and local bring in may be redefined.
func (c *Checker) checkDuplicateDecls(decls []syntax.Decl) {
	type key struct{ space, name string }
	seen := map[key]syntax.Span{}
	for _, d := range decls {
		var k key
		var sp syntax.Span
		switch d := d.(type) {
		case *syntax.ValDecl:
			k, sp = key{"", d.Fun.Name}, d.Fun.NameSpan
		case *syntax.ModDecl:
			k, sp = key{"", d.Name}, syntax.SpanOf(d) // the values' namespace
		case *syntax.TypeDecl:
			k, sp = key{"type ", d.Name}, syntax.SpanOf(d)
		case *syntax.ModTypeDecl:
			k, sp = key{"module type ", d.Name}, syntax.SpanOf(d)
		default:
			continue
		}
		if prev, dup := seen[k]; dup {
			c.errorf(sp, "Duplicate definition of %s\"%s\" in this scope (it is also defined at %s).", k.space, k.name, c.fset.Position(prev.Start))
			continue
		}
		seen[k] = sp
	}
}

func (c *Checker) checkDecl(d syntax.Decl, sc *scope, exp *ns) {
	switch d := d.(type) {
	case *syntax.ValDecl:
		c.checkValDecl(d, sc, exp)
	case *syntax.TypeDecl:
		c.checkTypeDecl(d, sc, exp)
	case *syntax.ModDecl:
		var m *Module
		if len(d.Params) > 0 {
			m = c.checkFunctor(d.Params, d.Sig, d.Body, sc)
		} else {
			m = c.checkModExp(d.Body, sc)
			if d.Sig != nil && m != nil {
				sig := c.checkSigExp(d.Sig, sc)
				if sig != nil {
					m = c.ascribe(m, sig, syntax.SpanOf(d.Body))
				}
			}
		}
		if m == nil {
			m = &Module{ns: newNS()}
		}
		qualifyAbstract(m, d.Name+".")
		sc.mods[d.Name] = m
		if exp != nil {
			exp.mods[d.Name] = m
		}
	case *syntax.ModTypeDecl:
		sig := c.checkSigExp(d.Def, sc)
		if sig == nil {
			sig = &Sig{mod: &Module{ns: newNS()}}
		}
		sc.sigs[d.Name] = sig
		if exp != nil {
			exp.sigs[d.Name] = sig
		}
	case *syntax.OpenDecl:
		m := c.checkModExp(d.Mod, sc)
		if m == nil {
			return
		}
		if m.functor != nil {
			c.errorf(d.Span, "Cannot open a parametric module.")
			return
		}
		mergeOpened(&sc.ns, &m.ns)
		if exp != nil {
			merge(exp, &m.ns)
		}
	case *syntax.ImportDecl:
		// As in Futhark, what an import brings in is in scope but is not
		// part of what this file or module defines (open's names are).
		m := c.importModule(d.Path, d.Span)
		if m != nil {
			merge(&sc.ns, &m.ns)
		}
	case *syntax.LocalDecl:
		c.checkDecl(d.D, sc, nil)
	default:
		c.errorf(syntax.SpanOf(d), "Unsupported declaration.")
	}
}

// qualifyAbstract names the abstract types of m that have no module path
// yet by the path prefix (for messages: M1.M.t).
func qualifyAbstract(m *Module, prefix string) {
	for name, td := range m.types {
		if con, ok := td.Body.(*Con); ok && con.Con.Name == name && con.Con.qual == "" {
			con.Con.qual = prefix + name
		}
	}
	for name, sub := range m.mods {
		if sub != nil && sub.functor == nil {
			qualifyAbstract(sub, prefix+name+".")
		}
	}
}

func (c *Checker) importModule(path string, sp syntax.Span) *Module {
	if c.imp == nil {
		c.errorf(sp, "Cannot import \"%s\": imports are not available here.", path)
		return nil
	}
	prog, err := c.imp(c.curFile, path)
	if err != nil {
		c.errorf(sp, "Cannot import \"%s\": %v", path, err)
		return nil
	}
	key := path
	if prog.File != nil {
		key = prog.File.Name
	}
	if m, ok := c.imported[key]; ok {
		return m
	}
	if c.importing[key] {
		c.errorf(sp, "Import cycle through \"%s\".", path)
		return nil
	}
	c.importing[key] = true
	saved, guarded := c.curFile, c.depthGuarded
	c.curFile, c.depthGuarded = key, false // another tree: measured on its own
	inner := newScope(c.top)
	exp := newScope(nil)
	c.checkDecls(prog.Decls, inner, exp)
	c.curFile, c.depthGuarded = saved, guarded
	delete(c.importing, key)
	m := &Module{ns: exp.ns}
	c.imported[key] = m
	return m
}

func (c *Checker) lookupModPath(quals []string, sc *scope, sp syntax.Span) *Module {
	m := sc.lookupMod(quals[0])
	if m == nil {
		c.errorf(sp, "Unknown module \"%s\".", quals[0])
		return nil
	}
	for i, q := range quals[1:] {
		sub, ok := m.mods[q]
		if !ok {
			c.errorf(sp, "Unknown module \"%s.%s\": module %s has no submodule of that name.", joinQuals(quals[:i+1]), q, joinQuals(quals[:i+1]))
			return nil
		}
		m = sub
	}
	return m
}

func (c *Checker) checkModExp(me syntax.ModExp, sc *scope) *Module {
	switch me := me.(type) {
	case *syntax.ModVar:
		q := me.Name
		if len(q.Quals) == 0 && q.Name == "intrinsics" {
			c.errorf(me.Span, "The 'intrinsics' module may not be used in module expressions.")
			return nil
		}
		return c.lookupModPath(append(append([]string{}, q.Quals...), q.Name), sc, me.Span)
	case *syntax.ModParen:
		return c.checkModExp(me.M, sc)
	case *syntax.ModStruct:
		inner := newScope(sc)
		exp := newScope(nil)
		c.modDepth++
		c.checkDecls(me.Decls, inner, exp)
		c.modDepth--
		return &Module{ns: exp.ns}
	case *syntax.ModImport:
		return c.importModule(me.Path, me.Span)
	case *syntax.ModAscript:
		m := c.checkModExp(me.M, sc)
		sig := c.checkSigExp(me.Sig, sc)
		if m == nil || sig == nil {
			return m
		}
		return c.ascribe(m, sig, me.Span)
	case *syntax.ModLambda:
		return c.checkFunctor([]*syntax.ModParam{me.Param}, me.Sig, me.Body, sc)
	case *syntax.ModApply:
		f := c.checkModExp(me.Fn, sc)
		a := c.checkModExp(me.Arg, sc)
		if f == nil || a == nil {
			return nil
		}
		return c.applyFunctor(f, a, me.Span)
	}
	c.errorf(syntax.SpanOf(me), "Unsupported module expression.")
	return nil
}

func (c *Checker) checkFunctor(params []*syntax.ModParam, resSig syntax.ModTypeExp, body syntax.ModExp, sc *scope) *Module {
	p := params[0]
	sig := c.checkSigExp(p.Sig, sc)
	if sig == nil {
		return nil
	}
	inst, abs := c.freshSig(sig)
	inner := newScope(sc)
	inner.mods[p.Name] = inst
	var res *Module
	before := c.nextID
	if len(params) > 1 {
		res = c.checkFunctor(params[1:], resSig, body, inner)
	} else {
		res = c.checkModExp(body, inner)
		if res != nil && resSig != nil {
			rs := c.checkSigExp(resSig, inner)
			if rs != nil {
				res = c.ascribe(res, rs, syntax.SpanOf(body))
			}
		}
	}
	if res == nil {
		return nil
	}
	var resAbs []*TypeCon
	collectNewCons(res, before, &resAbs, map[*TypeCon]bool{})
	return &Module{ns: newNS(), functor: &Functor{param: inst, paramAbs: abs, result: res, resAbs: resAbs, sig: sig}}
}

// collectNewCons finds the abstract type constructors made after id
// `after` that m's types refer to (they must be made anew at each
// application).
func collectNewCons(m *Module, after int, out *[]*TypeCon, seen map[*TypeCon]bool) {
	for _, td := range m.types {
		if con, ok := td.Body.(*Con); ok && con.Con.id > after && !seen[con.Con] {
			seen[con.Con] = true
			*out = append(*out, con.Con)
		}
	}
	for _, sub := range m.mods {
		collectNewCons(sub, after, out, seen)
	}
}

func (c *Checker) applyFunctor(f, arg *Module, sp syntax.Span) *Module {
	if f.functor == nil {
		c.errorf(sp, "Cannot apply a module that is not parametric.")
		return nil
	}
	fn := f.functor
	s, ok := c.matchModule(arg, fn.param, fn.paramAbs, sp)
	if !ok {
		return nil
	}
	for _, tc := range fn.resAbs {
		c.nextID++
		ntc := &TypeCon{Name: tc.Name, Arity: tc.Arity, Lifted: tc.Lifted, id: c.nextID}
		s.types[tc] = conDef(ntc, tc)
		c.info.noteApplied(tc, ntc, s) // stages.go
	}
	res := substModule(fn.result, s)
	in := &Instance{Binds: map[*Object]*Object{}, types: s}
	bindSpecs(fn.param, arg, in.Binds)
	instantiate(res, in, map[*Module]bool{})
	return res
}

// conDef is a TypeDef that maps the applied old constructor to the new one.
func conDef(ntc, old *TypeCon) *TypeDef {
	// Parameters are passed through positionally by applyTypeDef with no
	// parameters: the body is rebuilt in substType.
	return &TypeDef{Name: ntc.Name, Body: &Con{Con: ntc}, Lifted: ntc.Lifted, Params: nil, renameTo: ntc}
}

// substModule applies s to every type in m.
func substModule(m *Module, s *subst) *Module {
	out := &Module{ns: newNS()}
	for n, v := range m.vals {
		if v.builtin != "" || v.scheme == nil {
			out.vals[n] = v
			continue
		}
		nv := *v
		nv.scheme = &Scheme{TParams: v.scheme.TParams, SParams: v.scheme.SParams, Type: substType(v.scheme.Type, s)}
		out.vals[n] = &nv
	}
	for n, td := range m.types {
		nd := &TypeDef{Name: td.Name, Params: td.Params, Body: substType(td.Body, s), Lifted: td.Lifted, absCon: td.absCon}
		if td.absCon != nil {
			if r, ok := s.types[td.absCon]; ok {
				nd.absCon = r.renameTo
			}
		}
		out.types[n] = nd
	}
	for n, sub := range m.mods {
		out.mods[n] = substModule(sub, s)
	}
	for n, sg := range m.sigs {
		out.sigs[n] = sg
	}
	if m.functor != nil {
		fn := *m.functor
		fn.result = substModule(fn.result, s)
		fn.param = substModule(fn.param, s)
		out.functor = &fn
	}
	return out
}

// mergeOpened brings opened names into a scope: they shadow what is there
// but are not definitions of that scope.
func mergeOpened(dst, src *ns) {
	for k, v := range src.vals {
		if v.declared {
			nv := *v
			nv.declared = false
			// keep the identity for sizes and uses: share the size
			dst.vals[k] = &nv
			continue
		}
		dst.vals[k] = v
	}
	for k, v := range src.types {
		dst.types[k] = v
	}
	for k, v := range src.mods {
		dst.mods[k] = v
	}
	for k, v := range src.sigs {
		dst.sigs[k] = v
	}
}
