package lower

import (
	"fmt"
	"strings"

	"fut/interp/syntax"
	"fut/interp/types"
)

// Monomorphisation: type polymorphism becomes specialised copies.
//
// Each definition the root reaches is copied once per list of type
// arguments it is used with (types.Info.TypeArgs of each use, under the
// substitution of the copy the use is in); the copy has no type
// parameters, and its types are the instantiated ones. Sizes stay values:
// a function is not copied per size. Sizes that a type argument brings
// (t instantiated with [k]i32) become size parameters of the copy, bound
// like the others from the arguments' shapes. A local function with type
// parameters is copied likewise, in place, once per instantiation its
// uses need. The intrinsics stay polymorphic: they are the primitives of
// the core IR, which takes any element type.

type mkey struct {
	fb  *syntax.FunBind
	key string
}

type monomorphiser struct {
	src    *Prog
	dst    *Info
	copies map[mkey]*dcopy
	todo   []*dcopy
	names  []named
	fresh  int
	taken  map[string]bool // the program's names, which size names avoid
}

// sizeName is a new size name, unlike any name of the program.
func (m *monomorphiser) sizeName() *types.SizeName {
	for {
		m.fresh++
		name := fmt.Sprintf("d_%d", m.fresh)
		if !m.taken[name] {
			return &types.SizeName{Name: name}
		}
	}
}

// Monomorphise specialises every polymorphic definition of p (a
// defunctorised program) to the types it is used at.
func Monomorphise(fset *syntax.FileSet, p *Prog) (prog *Prog, err error) {
	defer catch(fset, &err)
	m := &monomorphiser{src: p, dst: newInfo(), copies: map[mkey]*dcopy{}, taken: namesIn(p.Defs)}
	top := m.copyOf(p.Root, nil, "")
	for len(m.todo) > 0 {
		dc := m.todo[len(m.todo)-1]
		m.todo = m.todo[:len(m.todo)-1]
		if !dc.done {
			dc.done = true
			m.copyDef(dc)
		}
	}
	defs := order(top)
	spells := map[*syntax.FunBind]string{}
	for _, dc := range m.copies {
		spells[dc.out] = dc.spell
	}
	nameDefs(defs, spells)
	setNames(m.names)
	for _, fb := range defs {
		if o, ok := p.Info.consts[m.origin(fb)]; ok {
			m.dst.consts[fb] = o
		}
	}
	return &Prog{Stage: "monomorphise", Defs: defs, Root: top.out, Entry: p.Entry, Info: m.dst}, nil
}

// origin is the definition of the program before that fb copies.
func (m *monomorphiser) origin(fb *syntax.FunBind) *syntax.FunBind {
	for k, dc := range m.copies {
		if dc.out == fb {
			return k.fb
		}
	}
	return nil
}

// copyOf is the copy of fb for the type arguments targs (in the order of
// its scheme's type parameters).
func (m *monomorphiser) copyOf(fb *syntax.FunBind, targs []types.Type, key string) *dcopy {
	k := mkey{fb, key}
	if dc, ok := m.copies[k]; ok {
		return dc
	}
	dc := &dcopy{fb: fb, out: &syntax.FunBind{}, spell: fb.Name, targs: targs}
	dc.obj = &types.Object{Kind: types.ObjDecl, Name: fb.Name, Fun: dc.out}
	m.copies[k] = dc
	m.todo = append(m.todo, dc)
	return dc
}

// instance is the substitution of a copy's type parameters by its type
// arguments, whose sizes become new size parameters of the copy.
func (m *monomorphiser) instance(tparams []*types.TypeCon, targs []types.Type) (types.ConSubst, []*types.SizeName) {
	s := types.ConSubst{}
	var fresh []*types.SizeName
	seen := map[types.Size]*types.SizeName{}
	freshen := func(z types.Size) types.Size {
		switch z := z.(type) {
		case *types.SizeConst:
			return z
		case *types.SizeName:
			if z.Unknown {
				return z
			}
		}
		if sn, ok := seen[z]; ok {
			return sn
		}
		sn := m.sizeName()
		seen[z] = sn
		fresh = append(fresh, sn)
		return sn
	}
	for i, tp := range tparams {
		if i < len(targs) && targs[i] != nil {
			s[tp] = types.MapSizes(types.Shared(targs[i]), freshen)
		}
	}
	return s, fresh
}

func (m *monomorphiser) copyDef(dc *dcopy) {
	fb := dc.fb
	sch, _ := m.src.Info.Scheme(fb)
	var s types.ConSubst
	var fresh []*types.SizeName
	var implicit map[*types.SizeName]types.Size
	if sch != nil {
		s, fresh = m.instance(sch.TParams, dc.targs)
		implicit, fresh = m.implicitSizes(fb, sch, fresh)
	}
	c := m.copier(s)
	if len(implicit) > 0 {
		typ := c.typ
		c.typ = func(t types.Type) types.Type { return types.SubstSizes(typ(t), implicit) }
	}
	out := dc.out
	*out = syntax.FunBind{Loc: fb.Loc, Name: fb.Name, NameSpan: fb.NameSpan, Attrs: fb.Attrs}
	for _, tp := range fb.TypeParams {
		if tp.Kind == syntax.TPSize {
			out.TypeParams = append(out.TypeParams, &syntax.TypeParam{Loc: tp.Loc, Name: tp.Name, Kind: tp.Kind})
		}
	}
	for _, z := range fresh {
		out.TypeParams = append(out.TypeParams, &syntax.TypeParam{Loc: fb.Loc, Name: z.Name, Kind: syntax.TPSize})
	}
	c.decl = func(n syntax.Node, obj *types.Object) ref {
		callee := obj.Fun
		targs := c.types(m.src.Info.TypeArgs(n))
		k := typesKey(targs)
		cp := m.copyOf(callee, targs, k)
		dc.deps = append(dc.deps, cp)
		return ref{obj: cp.obj, def: cp.out}
	}
	c.fill(out, fb)
	c.ascribe(out.Params)
	if sc, ok := m.dst.schemes[out]; ok {
		sc.TParams = nil
		sc.SParams = append(append([]*types.SizeName(nil), sc.SParams...), fresh...)
	}
	m.dst.origin[out] = m.src.Info.Origin(fb)
}

// implicitSizes names the size parameters that the checker gave fb beyond
// those it declares (of [] in a parameter's type, of a size left open):
// the copy declares them, each under a name of its own. It returns the
// renaming and the size parameters to declare (fresh's and these).
func (m *monomorphiser) implicitSizes(fb *syntax.FunBind, sch *types.Scheme, fresh []*types.SizeName) (map[*types.SizeName]types.Size, []*types.SizeName) {
	k := 0
	for _, tp := range fb.TypeParams {
		if tp.Kind == syntax.TPSize {
			k++
		}
	}
	if k >= len(sch.SParams) {
		return nil, fresh
	}
	// only those the parameters' types name (a point-free definition's
	// type has sizes its parameters cannot bind)
	named := map[*types.SizeName]bool{}
	for _, p := range fb.Params {
		if t, ok := m.src.Info.PatType(p); ok {
			types.MapSizes(t, func(z types.Size) types.Size {
				if sn, ok := z.(*types.SizeName); ok {
					named[sn] = true
				}
				return z
			})
		}
	}
	out := map[*types.SizeName]types.Size{}
	for _, z := range sch.SParams[k:] {
		if !named[z] {
			continue
		}
		sn := m.sizeName()
		out[z] = sn
		fresh = append(fresh, sn)
	}
	return out, fresh
}

func (m *monomorphiser) copier(s types.ConSubst) *copier {
	c := &copier{src: m.src.Info, dst: m.dst, names: &m.names, scoped: true}
	c.typ = func(t types.Type) types.Type { return types.SubstCons(t, s) }
	c.letFun = m.letFun
	return c
}

// letFun copies a local function: one copy per instantiation of its type
// parameters that the body's uses need, each under a name of its own.
func (m *monomorphiser) letFun(c *copier, e *syntax.LetFun) syntax.Expr {
	fb := e.Fun
	poly := false
	for _, tp := range fb.TypeParams {
		poly = poly || tp.Kind != syntax.TPSize
	}
	if !poly {
		nfb := c.funBind(fb)
		mk := c.mark()
		c.push(fb.Name, nil)
		body := c.expr(e.Body)
		c.release(mk)
		return &syntax.LetFun{Loc: e.Loc, Fun: nfb, Body: body}
	}
	sch, _ := m.src.Info.Scheme(fb)
	if sch == nil {
		panic(notLowered(e, "the local function %s has no type from the checker", fb.Name))
	}
	// The instantiations the body's uses need.
	type inst struct {
		targs []types.Type
		name  string
	}
	var insts []*inst
	byKey := map[string]*inst{}
	syntax.Inspect(e.Body, func(n syntax.Node) bool {
		v, ok := n.(*syntax.Var)
		if !ok {
			return true
		}
		if o, ok := m.src.Info.Use(v); ok && o.Kind == types.ObjLocal && o.Name == fb.Name {
			targs := c.types(m.src.Info.TypeArgs(v))
			k := typesKey(targs)
			if byKey[k] == nil {
				in := &inst{targs: targs, name: fmt.Sprintf("%s_%d", fb.Name, len(insts)+1)}
				byKey[k] = in
				insts = append(insts, in)
			}
		}
		return true
	})
	mk := c.mark()
	names := map[string]string{}
	for k, in := range byKey {
		names[k] = in.name
	}
	c.locals = append(c.locals, local{name: fb.Name, poly: names})
	body := c.expr(e.Body)
	c.release(mk)
	// The copies, innermost last, each in the scope of the function's own
	// scope (they do not see each other).
	for i := len(insts) - 1; i >= 0; i-- {
		in := insts[i]
		s, fresh := m.instance(sch.TParams, in.targs)
		inner := m.copier(nil)
		inner.locals = c.locals
		outer := c.typ
		inner.typ = func(t types.Type) types.Type { return types.SubstCons(outer(t), s) }
		inner.decl = c.decl
		nfb := &syntax.FunBind{Loc: fb.Loc, Name: in.name, NameSpan: fb.NameSpan, Attrs: fb.Attrs}
		for _, tp := range fb.TypeParams {
			if tp.Kind == syntax.TPSize {
				nfb.TypeParams = append(nfb.TypeParams, &syntax.TypeParam{Loc: tp.Loc, Name: tp.Name, Kind: tp.Kind})
			}
		}
		for _, z := range fresh {
			nfb.TypeParams = append(nfb.TypeParams, &syntax.TypeParam{Loc: fb.Loc, Name: z.Name, Kind: syntax.TPSize})
		}
		inner.fill(nfb, fb)
		if sc, ok := m.dst.schemes[nfb]; ok {
			sc.TParams = nil
			sc.SParams = append(append([]*types.SizeName(nil), sc.SParams...), fresh...)
		}
		body = &syntax.LetFun{Loc: e.Loc, Fun: nfb, Body: body}
	}
	return body
}

// typesKey identifies a list of type arguments: two lists with the same
// key get the same copy (sizes are not part of it: sizes are values).
func typesKey(ts []types.Type) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 {
			b.WriteString(", ")
		}
		writeKey(&b, t)
	}
	return b.String()
}

func writeKey(b *strings.Builder, t types.Type) {
	if t == nil {
		b.WriteString("?")
		return
	}
	switch t := types.Resolve(t).(type) {
	case *types.Prim:
		b.WriteString(string(t.Kind))
	case *types.Array:
		if t.Unique {
			b.WriteString("*")
		}
		b.WriteString("[]")
		writeKey(b, t.Elem)
	case *types.Record:
		b.WriteString("{")
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(f.Name + ": ")
			writeKey(b, f.Type)
		}
		b.WriteString("}")
	case *types.Sum:
		for i, cn := range t.Constrs {
			if i > 0 {
				b.WriteString(" | ")
			}
			b.WriteString("#" + cn.Name)
			for _, p := range cn.Payload {
				b.WriteString(" (")
				writeKey(b, p)
				b.WriteString(")")
			}
		}
	case *types.Arrow:
		b.WriteString("(")
		writeKey(b, t.From)
		b.WriteString(") -> (")
		writeKey(b, t.To)
		b.WriteString(")")
	case *types.Con:
		if t.Unique {
			b.WriteString("*")
		}
		fmt.Fprintf(b, "%s#%p", t.Con.Name, t.Con)
		for _, a := range t.Args {
			b.WriteString(" (")
			if a.Type != nil {
				writeKey(b, a.Type)
			} else {
				b.WriteString("[]")
			}
			b.WriteString(")")
		}
	default:
		b.WriteString(t.String())
	}
}
