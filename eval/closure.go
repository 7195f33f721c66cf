package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// What a top-level closure holds. A definition's closure, and the
// closures its value makes, need only the module-level names its text
// uses; holding the whole level would hold every value visible when it
// was made, and so, through the functions among them, every value ever
// defined: a REPL that redefines a large array and a function that uses
// it kept each generation alive through the previous function.
//
// closureScope is that smaller scope: the values and modules whose names
// occur in the definition's text after its name (as words, or, for
// operator symbols, as part of a run of symbol characters), those that
// the type abbreviations it names use (type vec = [n]i64 needs n), those
// of the size arguments the checker wrote for its uses (which name things
// the text may not), and every type and module type (syntax, no values). The text over-approximates
// the names used, which is what matters: a name is only ever looked up
// because the program text or a size argument says it. A definition
// without source text (a tree built by a program) keeps the whole scope.
//
// self reports whether the text names the definition itself.
func (in *Interp) closureScope(fb *syntax.FunBind, sc *scope) (cs *scope, self bool) {
	text, ok := in.declText(fb)
	if !ok {
		return sc, false
	}
	cs = &scope{vals: map[string]value.Value{}, mods: map[string]*module{}, types: map[string]*syntax.TypeDecl{}, sealed: true}
	seen := map[string]bool{}
	var add func(name string)
	add = func(name string) {
		self = self || name == fb.Name
		if seen[name] {
			return
		}
		seen[name] = true
		if d := sc.lookupType(name); d != nil {
			// a type abbreviation's sizes and types are looked up where
			// it is used: [n]i64 needs n
			typeNames(d, add)
		}
		if v, e, ok := sc.lookupConst(name); ok {
			cs.vals[name] = v
			if e != nil {
				cs.setConst(name, e)
			}
		}
		if m, ok := sc.lookupMod(name); ok {
			cs.mods[name] = m
		}
	}
	words(text, add)
	in.sizeArgNames(fb, add)
	var chain []*scope
	for x := sc; x != nil; x = x.parent {
		chain = append(chain, x)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		for k, d := range chain[i].types {
			cs.types[k] = d
		}
		for k, d := range chain[i].sigs {
			if cs.sigs == nil {
				cs.sigs = map[string]syntax.ModTypeExp{}
			}
			cs.sigs[k] = d
		}
	}
	return cs, self
}

// declText is the source of fb after its name.
func (in *Interp) declText(fb *syntax.FunBind) (string, bool) {
	if in.fset == nil || !fb.NameSpan.End.IsValid() {
		return "", false
	}
	f := in.fset.File(fb.NameSpan.End)
	if f == nil {
		return "", false
	}
	lo, hi := int(fb.NameSpan.End)-f.Base, min(int(fb.Span.End)-f.Base, len(f.Src))
	if lo < 0 || lo > hi {
		return "", false
	}
	return string(f.Src[lo:hi]), true
}

// words calls add with every identifier in text, and with every substring
// of every run of symbol characters (an operator's name).
func words(text string, add func(string)) {
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case isIdentStart(c):
			j := i + 1
			for j < len(text) && isIdentChar(text[j]) {
				j++
			}
			add(text[i:j])
			i = j
		case isSymbolChar(c):
			j := i + 1
			for j < len(text) && isSymbolChar(text[j]) {
				j++
			}
			for a := i; a < j; a++ {
				for b := a + 1; b <= j && b-a <= 8; b++ {
					add(text[a:b])
				}
			}
			i = j
		default:
			i++
		}
	}
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentChar(c byte) bool {
	return isIdentStart(c) || c >= '0' && c <= '9' || c == '\''
}

func isSymbolChar(c byte) bool {
	switch c {
	case '+', '-', '*', '/', '%', '=', '!', '>', '<', '|', '&', '^', '.', '@', '~', '?', ':', '$', '#':
		return true
	}
	return false
}

// typeNames calls add with the names a type declaration's definition uses.
func typeNames(d *syntax.TypeDecl, add func(string)) {
	if d.Def == nil {
		return
	}
	syntax.Inspect(d.Def, func(n syntax.Node) bool {
		var q syntax.QualName
		switch x := n.(type) {
		case *syntax.Var:
			q = x.Name
		case *syntax.TEVar:
			q = x.Name
		default:
			return true
		}
		if len(q.Quals) > 0 {
			add(q.Quals[0])
		} else {
			add(q.Name)
		}
		return true
	})
}

// sizeArgNames calls add with the names in the size arguments of the uses
// in fb's body.
func (in *Interp) sizeArgNames(fb *syntax.FunBind, add func(string)) {
	sa, ok := in.info.(SizeArger)
	if !ok || fb.Body == nil {
		return
	}
	syntax.Inspect(fb.Body, func(n syntax.Node) bool {
		v, ok := n.(*syntax.Var)
		if !ok {
			return true
		}
		for _, e := range sa.SizeArgs(v) {
			syntax.Inspect(e, func(n syntax.Node) bool {
				if w, ok := n.(*syntax.Var); ok {
					if len(w.Name.Quals) > 0 {
						add(w.Name.Quals[0])
					} else {
						add(w.Name.Name)
					}
				}
				return true
			})
		}
		return true
	})
}
