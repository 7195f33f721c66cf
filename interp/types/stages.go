package types

// What the source stages of the lowering (package interp/lower:
// defunctorise, monomorphise, defunctionalise) read from the checker
// besides the resolution of names: the type arguments of each use of a
// polymorphic value, the type substitution that each functor application
// makes, and the definitions of the abstract types that module-type
// ascription hides. With these a stage can copy a definition for one
// functor instance or one instantiation and give every copied node its
// type, without checking the copy again.

import "fut/interp/syntax"

// stageTables is Info's record for the stages.
type stageTables struct {
	// targs are the type arguments of uses, as the unification variables
	// instantiate made (read back resolved by TypeArgs).
	targs map[syntax.Node][]Type
	// abstract holds the definition of each abstract type that an
	// ascription made, in terms of the implementation's types.
	abstract map[*TypeCon]*TypeDef
}

func (i *Info) stages() *stageTables {
	if i.stage == nil {
		i.stage = &stageTables{targs: map[syntax.Node][]Type{}, abstract: map[*TypeCon]*TypeDef{}}
	}
	return i.stage
}

// noteTypeArgs records the type arguments of the use v of sc.
func (i *Info) noteTypeArgs(v *syntax.Var, sc *Scheme, s *subst) {
	args := make([]Type, len(sc.TParams))
	for k, tp := range sc.TParams {
		if d, ok := s.types[tp]; ok {
			args[k] = d.Body
		}
	}
	i.stages().targs[v] = args
}

// moveTypeArgs gives n the type arguments recorded for the synthetic
// variable from (operators are checked as variables; see copyUse).
func (i *Info) moveTypeArgs(n syntax.Node, from *syntax.Var) {
	if i.stage == nil {
		return
	}
	if a, ok := i.stage.targs[from]; ok {
		i.stage.targs[n] = a
		delete(i.stage.targs, from)
	}
}

// TypeArgs returns the types that the use n (a *syntax.Var, or the
// operator of a *syntax.Binary or a section) instantiated its object's
// type parameters with, in the order of the scheme's TParams; nil when the
// object is not polymorphic in types.
func (i *Info) TypeArgs(n syntax.Node) []Type {
	if i.stage == nil {
		return nil
	}
	a, ok := i.stage.targs[n]
	if !ok {
		return nil
	}
	out := make([]Type, len(a))
	for k, t := range a {
		if t != nil {
			out[k] = zonk(t)
		}
	}
	return out
}

// noteAbstract records that the abstract types abs (made fresh for an
// ascription, in the order of the module type's own abstract types sig)
// stand for the types s gives sig's.
func (i *Info) noteAbstract(sig, abs []*TypeCon, s *subst) {
	for k, tc := range sig {
		if k >= len(abs) {
			break
		}
		if d, ok := s.types[tc]; ok && d.renameTo == nil {
			i.stages().abstract[abs[k]] = d
		}
	}
}

// noteApplied records the definitions of the abstract types that a functor
// application made fresh (ntc for the body's tc), as the body's
// definitions under the application's substitution.
func (i *Info) noteApplied(tc, ntc *TypeCon, s *subst) {
	if i.stage == nil {
		return
	}
	if d, ok := i.stage.abstract[tc]; ok {
		i.stage.abstract[ntc] = &TypeDef{Name: d.Name, Params: d.Params, Body: substType(d.Body, s), Lifted: d.Lifted}
	}
}

// Subst applies the functor application's substitution of its
// parameter's abstract types (and of the fresh abstract types of its
// result) to a type of the functor's body.
func (in *Instance) Subst(t Type) Type {
	if in == nil || in.types == nil {
		return t
	}
	return substType(t, in.types)
}

// Transparent replaces, in t, every abstract type that an ascription made
// by its definition, until none is left: after defunctorisation there are
// no modules to hide a type's definition.
func (i *Info) Transparent(t Type) Type {
	if i.stage == nil || len(i.stage.abstract) == 0 {
		return t
	}
	s := &subst{types: i.stage.abstract}
	for k := 0; k < 64 && mentionsCon(t, i.stage.abstract); k++ {
		t = substType(t, s)
	}
	return t
}

// mentionsCon reports whether t applies one of the constructors in cons.
func mentionsCon(t Type, cons map[*TypeCon]*TypeDef) bool {
	switch t := Resolve(t).(type) {
	case *Array:
		return mentionsCon(t.Elem, cons)
	case *Record:
		for _, f := range t.Fields {
			if mentionsCon(f.Type, cons) {
				return true
			}
		}
	case *Sum:
		for _, c := range t.Constrs {
			for _, p := range c.Payload {
				if mentionsCon(p, cons) {
					return true
				}
			}
		}
	case *Arrow:
		return mentionsCon(t.From, cons) || mentionsCon(t.To, cons)
	case *Con:
		if _, ok := cons[t.Con]; ok {
			return true
		}
		for _, a := range t.Args {
			if a.Type != nil && mentionsCon(a.Type, cons) {
				return true
			}
		}
	}
	return false
}

// ConSubst maps type constructors (type parameters) to types.
type ConSubst map[*TypeCon]Type

// SubstCons replaces the constructors of s in t by their types (a
// constructor applied to arguments is replaced whole: type parameters
// take none).
func SubstCons(t Type, s ConSubst) Type {
	if len(s) == 0 {
		return t
	}
	sub := &subst{types: make(map[*TypeCon]*TypeDef, len(s))}
	for tc, u := range s {
		sub.types[tc] = &TypeDef{Name: tc.Name, Body: u}
	}
	return substType(t, sub)
}

// SubstSizes replaces the size names of s in t.
func SubstSizes(t Type, s map[*SizeName]Size) Type {
	if len(s) == 0 {
		return t
	}
	return substType(t, &subst{sizes: s})
}

// Zonk is t with every bound unification variable replaced by what it is
// bound to.
func Zonk(t Type) Type { return zonk(t) }

// MapSizes rebuilds t with f applied to each array dimension and each size
// argument of a constructor (sizes inside a size expression are not
// visited: f sees the whole dimension).
func MapSizes(t Type, f func(Size) Size) Type {
	switch t := Resolve(t).(type) {
	case *Array:
		return &Array{Unique: t.Unique, Dim: f(resolveSize(t.Dim)), Elem: MapSizes(t.Elem, f)}
	case *Record:
		fs := make([]Field, len(t.Fields))
		for i, fl := range t.Fields {
			fs[i] = Field{fl.Name, MapSizes(fl.Type, f)}
		}
		return &Record{fs}
	case *Sum:
		cs := make([]Constr, len(t.Constrs))
		for i, cn := range t.Constrs {
			ps := make([]Type, len(cn.Payload))
			for j, p := range cn.Payload {
				ps[j] = MapSizes(p, f)
			}
			cs[i] = Constr{cn.Name, ps}
		}
		return &Sum{cs}
	case *Arrow:
		return &Arrow{Param: t.Param, From: MapSizes(t.From, f), To: MapSizes(t.To, f), Exist: t.Exist}
	case *Con:
		args := make([]TypeArg, len(t.Args))
		for i, a := range t.Args {
			if a.Type != nil {
				args[i] = TypeArg{Type: MapSizes(a.Type, f)}
			} else {
				args[i] = TypeArg{Size: f(resolveSize(a.Size))}
			}
		}
		return &Con{Con: t.Con, Args: args, Unique: t.Unique}
	}
	return t
}

// Shared is t with no unique part anywhere (type arguments carry no
// uniqueness: a type parameter stands for the type, and a parameter that
// consumes says so with * itself).
func Shared(t Type) Type {
	switch t := Resolve(t).(type) {
	case *Array:
		return &Array{Dim: t.Dim, Elem: Shared(t.Elem)}
	case *Record:
		fs := make([]Field, len(t.Fields))
		for i, f := range t.Fields {
			fs[i] = Field{f.Name, Shared(f.Type)}
		}
		return &Record{fs}
	case *Sum:
		cs := make([]Constr, len(t.Constrs))
		for i, cn := range t.Constrs {
			ps := make([]Type, len(cn.Payload))
			for j, p := range cn.Payload {
				ps[j] = Shared(p)
			}
			cs[i] = Constr{cn.Name, ps}
		}
		return &Sum{cs}
	case *Con:
		args := make([]TypeArg, len(t.Args))
		for i, a := range t.Args {
			if a.Type != nil {
				args[i] = TypeArg{Type: Shared(a.Type)}
			} else {
				args[i] = a
			}
		}
		return &Con{Con: t.Con, Args: args}
	}
	return t
}
