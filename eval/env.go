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
// rebind a name already in the current level starts a new level, so that
// closures made earlier keep seeing the old binding.
type scope struct {
	vals   map[string]value.Value
	mods   map[string]*module
	types  map[string]*syntax.TypeDecl  // abbreviations, for sizes in types
	sigs   map[string]syntax.ModTypeExp // module types, to restrict ascribed modules (sigs.go)
	parent *scope
	// A level is sealed once a newer level is stacked on it: it then
	// never changes, and neither does anything it can see, so its
	// lookups go through flat, a merged copy of the whole chain made at
	// the first lookup (the chain grows with every file and REPL entry).
	sealed   bool
	flat     map[string]value.Value
	flatMods map[string]*module
}

// child starts a new level over s, sealing s.
func (s *scope) child() *scope {
	s.sealed = true
	return newScope(s)
}

func (s *scope) flatten() {
	s.flat = map[string]value.Value{}
	s.flatMods = map[string]*module{}
	var chain []*scope
	for x := s; x != nil; x = x.parent {
		chain = append(chain, x)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		for k, v := range chain[i].vals {
			s.flat[k] = v
		}
		for k, m := range chain[i].mods {
			s.flatMods[k] = m
		}
	}
}

func newScope(parent *scope) *scope {
	return &scope{vals: map[string]value.Value{}, mods: map[string]*module{}, types: map[string]*syntax.TypeDecl{}, parent: parent}
}

func (s *scope) lookup(name string) (value.Value, bool) {
	for x := s; x != nil; x = x.parent {
		if x.sealed {
			if x.flat == nil {
				x.flatten()
			}
			v, ok := x.flat[name]
			return v, ok
		}
		if v, ok := x.vals[name]; ok {
			return v, true
		}
	}
	return nil, false
}

func (s *scope) lookupMod(name string) (*module, bool) {
	for x := s; x != nil; x = x.parent {
		if x.sealed {
			if x.flat == nil {
				x.flatten()
			}
			m, ok := x.flatMods[name]
			return m, ok
		}
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
	functor *functor
}

func newModule() *module {
	return &module{vals: map[string]value.Value{}, mods: map[string]*module{}, types: map[string]*syntax.TypeDecl{}}
}

// functor is a parametric module waiting for its argument.
type functor struct {
	param string
	body  func(t *thread, arg *module) (*module, error)
}
