package types

import "fut/interp/syntax"

// Binding a unification variable to a type t walks t several times: the
// occurs check, the level adjustment, the scope check of type parameters,
// the liftedness and equality checks. A declared sum or record type is
// one shared object, and a match over a sum of n constructors binds a
// variable to it once per case: n walks of size n. Most such types are
// ground (no unification variable left in them) and then what the walks
// find never changes, because types are immutable once built and only
// variables are ever bound. typeFacts records it once per large type.

// typeFacts says what a type may hold: each flag is false only when the
// type has none of it, so a false flag lets bindVar skip a walk, and a
// true one sends it to the exact check.
type typeFacts struct {
	open bool // an unbound unification variable (the facts may change)
	con  bool // a type constructor application (parameter, abstract type)
	fun  bool // a function type or a lifted type constructor
}

// factsMemoMin is the number of parts from which a type's facts are
// remembered; smaller ones cost less to walk than to look up.
const factsMemoMin = 16

// facts returns t's facts, from the memo for large ground types.
func (c *Checker) facts(t Type) typeFacts {
	t = Resolve(t)
	var parts int
	switch t := t.(type) {
	case TVar:
		return typeFacts{open: true}
	case *Con:
		f := typeFacts{con: true, fun: t.Con.Lifted == syntax.Lifted}
		for _, a := range t.Args {
			if a.Type != nil {
				f = f.or(c.facts(a.Type))
			}
		}
		return f
	case *Arrow:
		return typeFacts{fun: true}.or(c.facts(t.From)).or(c.facts(t.To))
	case *Array:
		return c.facts(t.Elem)
	case *Record, *Sum:
		if f, ok := c.factsMemo[t]; ok {
			return f
		}
	default:
		return typeFacts{}
	}
	var f typeFacts
	switch t := t.(type) {
	case *Record:
		parts = len(t.Fields)
		for _, fd := range t.Fields {
			f = f.or(c.facts(fd.Type))
		}
	case *Sum:
		for _, cn := range t.Constrs {
			parts += 1 + len(cn.Payload)
			for _, p := range cn.Payload {
				f = f.or(c.facts(p))
			}
		}
	}
	if parts >= factsMemoMin && !f.open {
		if c.factsMemo == nil {
			c.factsMemo = map[Type]typeFacts{}
		}
		c.factsMemo[t] = f
	}
	return f
}

func (f typeFacts) or(g typeFacts) typeFacts {
	return typeFacts{open: f.open || g.open, con: f.con || g.con, fun: f.fun || g.fun}
}

// countOpen is how many of ts may hold a variable.
func (c *Checker) countOpen(ts ...Type) int {
	n := 0
	for _, t := range ts {
		if c.facts(t).open {
			n++
		}
	}
	return n
}
