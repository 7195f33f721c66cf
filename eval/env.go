package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// env is a persistent list of local bindings ending in a scope (the
// module-level or top-level names). Closures capture an env.
type env struct {
	name string
	val  value.Value
	next *env
	sc   *scope
}

func rootEnv(sc *scope) *env { return &env{sc: sc} }

func (e *env) bind(name string, v value.Value) *env {
	return &env{name: name, val: v, next: e, sc: e.sc}
}

// lookupLocal finds a local variable only.
func (e *env) lookupLocal(name string) (value.Value, bool) {
	for x := e; x != nil; x = x.next {
		if x.name == name && x.val != nil {
			return x.val, true
		}
	}
	return nil, false
}

// hasLocal reports whether a local variable named name is bound.
func (e *env) hasLocal(name string) bool {
	_, ok := e.lookupLocal(name)
	return ok
}

func (e *env) lookup(name string) (value.Value, bool) {
	if v, ok := e.lookupLocal(name); ok {
		return v, true
	}
	return e.sc.lookup(name)
}

func (e *env) lookupMod(name string) (*module, bool) {
	return e.sc.lookupMod(name)
}

// locals lists the local bindings, innermost first.
func (e *env) locals() []Binding {
	var out []Binding
	seen := map[string]bool{}
	for x := e; x != nil; x = x.next {
		if x.val != nil && !seen[x.name] {
			seen[x.name] = true
			out = append(out, Binding{x.name, x.val})
		}
	}
	return out
}

// scope is one level of module-level names. A declaration that would
// rebind a name already visible starts a new level, so that closures made
// earlier keep seeing the old binding: a closure holds the level it was
// made in.
//
// A new level does not stack on the old one: its parent is a compacted
// copy of everything the old level sees, without the bindings later ones
// shadow. So a lookup is two map lookups however long the session, and a
// value that a newer definition shadows stays alive only while a closure
// made before the newer definition does (a REPL that redefines a 40 MB
// array every entry held them all while the levels were a chain).
type scope struct {
	vals   map[string]value.Value
	mods   map[string]*module
	types  map[string]*syntax.TypeDecl  // abbreviations, for sizes in types
	sigs   map[string]syntax.ModTypeExp // module types, to restrict ascribed modules (sigs.go)
	consts map[string]*constEntry       // the constants among vals, for Interp.ConstValue
	parent *scope
	sealed bool // a newer level exists: this one never changes again
}

// child starts a new level over a compacted copy of what s sees. s itself
// is never changed again.
func (s *scope) child() *scope {
	s.sealed = true
	return newScope(s.compact(""))
}

// childFor is child for a level that is about to bind name (a value):
// the old binding of name is left out of the copy, since nothing that
// looks up through the new level can reach it, and so it is freed once
// nothing else holds it (a definition that uses the one it replaces has
// it in its closure scope, see closure.go).
func (s *scope) childFor(name string) *scope {
	s.sealed = true
	return newScope(s.compact(name))
}

// compact returns a scope without parent that binds what s sees, less
// the value named drop ("" for none).
func (s *scope) compact(drop string) *scope {
	var chain []*scope
	for x := s; x != nil; x = x.parent {
		chain = append(chain, x)
	}
	if _, has := s.vals[drop]; len(chain) == 1 && !has {
		return s // already flat (and sealed)
	}
	c := &scope{sealed: true, vals: map[string]value.Value{}, mods: map[string]*module{}, types: map[string]*syntax.TypeDecl{}}
	for i := len(chain) - 1; i >= 0; i-- {
		x := chain[i]
		openInto(c, &module{vals: x.vals, mods: x.mods, types: x.types, sigs: x.sigs, consts: x.consts})
	}
	delete(c.vals, drop)
	delete(c.consts, drop)
	return c
}

func (s *scope) setConst(name string, e *constEntry) {
	if s.consts == nil {
		s.consts = map[string]*constEntry{}
	}
	s.consts[name] = e
}

func newScope(parent *scope) *scope {
	return &scope{vals: map[string]value.Value{}, mods: map[string]*module{}, types: map[string]*syntax.TypeDecl{}, parent: parent}
}

func (s *scope) lookup(name string) (value.Value, bool) {
	for x := s; x != nil; x = x.parent {
		if v, ok := x.vals[name]; ok {
			return v, true
		}
	}
	return nil, false
}

// lookupType finds a type abbreviation (nil if there is none).
func (s *scope) lookupType(name string) *syntax.TypeDecl {
	for x := s; x != nil; x = x.parent {
		if d, ok := x.types[name]; ok {
			return d
		}
	}
	return nil
}

// lookupConst is lookup that also gives the constant's entry (nil for a
// value that is not a declared constant).
func (s *scope) lookupConst(name string) (value.Value, *constEntry, bool) {
	for x := s; x != nil; x = x.parent {
		if v, ok := x.vals[name]; ok {
			return v, x.consts[name], true
		}
	}
	return nil, nil, false
}

func (s *scope) lookupMod(name string) (*module, bool) {
	for x := s; x != nil; x = x.parent {
		if m, ok := x.mods[name]; ok {
			return m, true
		}
	}
	return nil, false
}

// module is a module value: its exported values and submodules, or a
// functor (parametric module).
type module struct {
	vals    map[string]value.Value
	mods    map[string]*module
	types   map[string]*syntax.TypeDecl
	sigs    map[string]syntax.ModTypeExp
	consts  map[string]*constEntry // the constants among vals
	functor *functor
}

func (m *module) setConst(name string, e *constEntry) {
	if m.consts == nil {
		m.consts = map[string]*constEntry{}
	}
	m.consts[name] = e
}

func newModule() *module {
	return &module{vals: map[string]value.Value{}, mods: map[string]*module{}, types: map[string]*syntax.TypeDecl{}}
}

// functor is a parametric module waiting for its argument.
type functor struct {
	param string
	body  func(t *thread, arg *module) (*module, error)
}
