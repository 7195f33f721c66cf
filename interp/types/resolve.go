package types

// Resolution: what every name denotes.
//
// The checker resolves each use of a name (a variable, a qualified name, an
// operator in a binary expression or a section) to an Object and records it
// in Info.Uses, as go/types does with Info.Uses. Later stages (the lowering
// to the core IR, the evaluator's fast paths, completion) ask this table
// instead of working out meaning from a name's spelling, so that a user's
// definition that shadows a prelude function, an operator or a numeric
// module is never mistaken for the built-in one.
//
// Parametric modules are checked once, so a use inside a functor body of a
// member of the functor's parameter resolves to that parameter's
// specification (an ObjSpec), which is only known per application. Each
// application records how the parameter's specifications are bound (an
// Instance) and every value of the applied module carries the chain of
// instances that its body needs: resolving a use inside that body looks the
// specification up in the chain (see Object.Resolve). This is
// defunctorisation done lazily, at the point where a stage needs the body.

import "fut/interp/syntax"

// ObjKind says what kind of thing an Object is.
type ObjKind uint8

const (
	// ObjLocal is a variable bound inside an expression or function body:
	// a parameter, a let or loop pattern, a local function, a size
	// parameter. Stages keep these in their own environments.
	ObjLocal ObjKind = iota
	// ObjDecl is a value or function declared with def (or let, or entry)
	// at the top level or in a module; Fun is its declaration.
	ObjDecl
	// ObjOp is one of the checker's built-in overloaded operators (+, ==,
	// &&, |>, …, on any type they allow); Name is the operator.
	ObjOp
	// ObjIntrinsic is a member of the intrinsics module; Name is its name.
	ObjIntrinsic
	// ObjSpec is a value specified by the parameter of a parametric module
	// (val f: …), bound only when the module is applied.
	ObjSpec
)

var objKindNames = [...]string{"local", "decl", "op", "intrinsic", "spec"}

func (k ObjKind) String() string { return objKindNames[k] }

// Object is what a name denotes.
type Object struct {
	Kind ObjKind
	Name string
	// Fun is the declaration of an ObjDecl (its parameters, body and
	// position); nil for the others.
	Fun *syntax.FunBind
	// Inst is the chain of functor applications that the body of an
	// ObjDecl needs, innermost first: a use inside the body that resolves
	// to an ObjSpec is looked up in it. Nil outside parametric modules.
	Inst []*Instance
}

// Instance binds the specifications of one functor application's
// parameter to the argument's objects.
type Instance struct {
	Binds map[*Object]*Object
	// types is the application's substitution of the parameter's abstract
	// types and the result's fresh ones (stages.go).
	types *subst
}

// Resolve looks o up in the instance chain inst (innermost first) when o is
// an ObjSpec, and returns the object it stands for with the chain that the
// object's body needs. An ObjDecl found on the way keeps the rest of the
// chain after it, since its body was checked in the context that the rest
// describes. ok is false for a specification that no instance binds (a
// parametric module's body used without an application).
func (o *Object) Resolve(inst []*Instance) (obj *Object, chain []*Instance, ok bool) {
	i := 0
	for o.Kind == ObjSpec {
		found := false
		for ; i < len(inst); i++ {
			if t, ok := inst[i].Binds[o]; ok {
				o = t
				i++
				found = true
				break
			}
		}
		if !found {
			return o, nil, false
		}
	}
	rest := inst[i:]
	if len(o.Inst) == 0 {
		return o, rest, true
	}
	if len(rest) == 0 {
		return o, o.Inst, true
	}
	return o, append(append([]*Instance{}, o.Inst...), rest...), true
}

// IsIntrinsic reports whether o is the intrinsic of the given name.
func (o *Object) IsIntrinsic(name string) bool {
	return o != nil && o.Kind == ObjIntrinsic && o.Name == name
}

// Use returns the object that a use of a name denotes: n is a *syntax.Var,
// a *syntax.Binary (its operator), an *syntax.OpSection, a
// *syntax.LeftSection or a *syntax.RightSection.
func (i *Info) Use(n syntax.Node) (*Object, bool) {
	o, ok := i.Uses[n]
	return o, ok
}

// Fields returns the record fields that a qualified use v projects from
// the object it denotes: ["x", "y"] for r.x.y with r a variable, or for
// M.r.x.y with r a member of module M; nil when v names the object itself.
func (i *Info) Fields(v *syntax.Var) []string { return i.fields[v] }

func (c *Checker) recordFields(v *syntax.Var, fields []string) {
	if len(fields) == 0 {
		return
	}
	if c.info.fields == nil {
		c.info.fields = map[*syntax.Var][]string{}
	}
	c.info.fields[v] = fields
}

// object returns the object a binding denotes, making one for a local
// binding on first use.
func (v *valBind) object() *Object {
	if v.obj == nil {
		k := ObjLocal
		if v.builtin != "" {
			k = ObjOp
		}
		v.obj = &Object{Kind: k, Name: v.name}
		if v.builtin != "" {
			v.obj.Name = v.builtin
		}
	}
	return v.obj
}

// recordUse notes that n denotes v's object.
func (c *Checker) recordUse(n syntax.Node, v *valBind) {
	if c.info.Uses == nil {
		c.info.Uses = map[syntax.Node]*Object{}
	}
	c.info.Uses[n] = v.object()
	c.noteCustomAdjoint(n, v)
}

// noteCustomAdjoint warns at a use of the prelude's with_vjp or
// with_vjp_tape: fut evaluates f x but does not use the adjoint given
// (prelude.go's known gaps), so a program's derivatives can differ from
// Futhark's, and the user is told where.
func (c *Checker) noteCustomAdjoint(n syntax.Node, v *valBind) {
	if v.name != "with_vjp" && v.name != "with_vjp_tape" {
		return
	}
	if f := c.fset.File(v.span.Start); f == nil || !f.Library {
		return // the user's own with_vjp
	}
	c.warnf(syntax.SpanOf(n), "%s's custom adjoint is not used yet: vjp differentiates the function itself, so derivatives through it can differ from Futhark's.", v.name)
}

// copyUse gives n the object already recorded for the synthetic variable
// from (operators are checked as variables).
func (c *Checker) copyUse(n syntax.Node, from *syntax.Var) {
	if o, ok := c.info.Uses[from]; ok {
		c.info.Uses[n] = o
		delete(c.info.Uses, from)
	}
	c.info.moveTypeArgs(n, from)
}

// declObject is the object of a def, the same for the declaration and for
// recursive uses inside its own body.
func (c *Checker) declObject(fb *syntax.FunBind) *Object {
	if c.declObjs == nil {
		c.declObjs = map[*syntax.FunBind]*Object{}
	}
	o, ok := c.declObjs[fb]
	if !ok {
		o = &Object{Kind: ObjDecl, Name: fb.Name, Fun: fb}
		c.declObjs[fb] = o
	}
	return o
}

// withObjects returns a copy of the module m (a module type's instance)
// whose values denote the objects of impl's values of the same names:
// ascription keeps the implementation's meaning while the types come from
// the module type.
func withObjects(m, impl *Module) *Module {
	if m == nil || impl == nil {
		return m
	}
	out := &Module{ns: newNS(), functor: m.functor}
	if m.functor != nil && impl.functor != nil {
		// A parametric module ascribed a parametric module type: its
		// applications bind the implementation's parameter and give the
		// implementation's values.
		fn := *m.functor
		fn.param = withObjects(fn.param, impl.functor.param)
		fn.result = withObjects(fn.result, impl.functor.result)
		out.functor = &fn
	}
	for n, v := range m.vals {
		nv := *v
		if iv, ok := impl.vals[n]; ok {
			nv.obj = iv.object()
		}
		out.vals[n] = &nv
	}
	for n, td := range m.types {
		out.types[n] = td
	}
	for n, sub := range m.mods {
		out.mods[n] = withObjects(sub, impl.mods[n])
	}
	for n, sg := range m.sigs {
		out.sigs[n] = sg
	}
	return out
}

// freshSpecs returns a copy of a functor parameter's instance whose values
// denote new ObjSpec objects, so that two parameters made from the same
// module type are told apart.
func freshSpecs(m *Module) *Module {
	out := &Module{ns: newNS(), functor: m.functor}
	for n, v := range m.vals {
		nv := *v
		nv.obj = &Object{Kind: ObjSpec, Name: n}
		out.vals[n] = &nv
	}
	for n, td := range m.types {
		out.types[n] = td
	}
	for n, sub := range m.mods {
		out.mods[n] = freshSpecs(sub)
	}
	for n, sg := range m.sigs {
		out.sigs[n] = sg
	}
	return out
}

// bindSpecs records in binds how the specifications of param are bound by
// the argument module arg.
func bindSpecs(param, arg *Module, binds map[*Object]*Object) {
	if param == nil || arg == nil {
		return
	}
	for n, v := range param.vals {
		if av, ok := arg.vals[n]; ok && v.obj != nil && v.obj.Kind == ObjSpec {
			binds[v.obj] = av.object()
		}
	}
	for n, sub := range param.mods {
		bindSpecs(sub, arg.mods[n], binds)
	}
}

// instantiate gives the values of an applied functor's result (a copy made
// by substModule) the objects they denote in this application: a
// declaration of the body gets the application's instance appended to its
// chain; a specification of the parameter re-exported by the body is the
// argument's object.
func instantiate(m *Module, in *Instance, seen map[*Module]bool) {
	if seen[m] {
		return
	}
	seen[m] = true
	for n, v := range m.vals {
		o := v.obj
		if o == nil {
			continue
		}
		switch o.Kind {
		case ObjSpec:
			if t, ok := in.Binds[o]; ok {
				nv := *v
				nv.obj = t
				m.vals[n] = &nv
			}
		case ObjDecl:
			nv := *v
			nv.obj = &Object{Kind: ObjDecl, Name: o.Name, Fun: o.Fun, Inst: append(append([]*Instance{}, o.Inst...), in)}
			m.vals[n] = &nv
		}
	}
	for _, sub := range m.mods {
		instantiate(sub, in, seen)
	}
	if m.functor != nil {
		// A parametric module inside the applied one (substModule made
		// its result a copy): its applications need this instance too.
		instantiate(m.functor.result, in, seen)
	}
}

// TopLevel returns the object that a name denotes at the top level of the
// environment as it is now (after every file and entry checked so far).
func (c *Checker) TopLevel(name string) (*Object, bool) {
	v := c.top.lookupVal(name)
	if v == nil {
		return nil, false
	}
	return v.object(), true
}

// ResolveSize follows a size's unification links to what it stands for
// (a *SizeConst, a *SizeName, a *SizeExpr, a *SizeTerm, or a SizeVar left
// open).
func ResolveSize(s Size) Size { return resolveSize(s) }

// PatType returns the type of a checked pattern.
func (i *Info) PatType(p syntax.Pat) (Type, bool) {
	t, ok := i.PatTypes[p]
	return t, ok
}
