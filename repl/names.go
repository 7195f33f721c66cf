package repl

// The names in scope, for tab completion and :doc. The type checker keeps
// its environment to itself, so the REPL keeps its own index, built from
// the syntax of what the session has seen: the prelude, loaded files and
// declarations entered at the prompt. It follows modules (structures,
// ascription, open, module types with include) far enough to complete
// `M.` with M's members; it does not apply parametric modules.

import (
	"sort"
	"strings"

	"fut/interp/syntax"
	"fut/prelude"
)

// scope is a module's (or the top level's) names with their doc comments.
type scope struct {
	parent *scope
	vals   map[string]string
	types  map[string]string
	mods   map[string]*scope
	sigs   map[string]*scope
	funs   map[string]*scope // parametric modules: what an application gives
	doc    string            // a module's doc comment
}

func newScope(parent *scope) *scope {
	return &scope{parent: parent, vals: map[string]string{}, types: map[string]string{},
		mods: map[string]*scope{}, sigs: map[string]*scope{}, funs: map[string]*scope{}}
}

func (s *scope) lookupMod(name string) *scope {
	for ; s != nil; s = s.parent {
		if m, ok := s.mods[name]; ok {
			return m
		}
	}
	return nil
}

func (s *scope) lookupFun(name string) *scope {
	for ; s != nil; s = s.parent {
		if m, ok := s.funs[name]; ok {
			return m
		}
	}
	return nil
}

func (s *scope) lookupSig(name string) *scope {
	for ; s != nil; s = s.parent {
		if m, ok := s.sigs[name]; ok {
			return m
		}
	}
	return nil
}

// merge copies src's names into s (open, include).
func (s *scope) merge(src *scope) {
	if src == nil {
		return
	}
	for k, v := range src.vals {
		s.vals[k] = v
	}
	for k, v := range src.types {
		s.types[k] = v
	}
	for k, v := range src.mods {
		s.mods[k] = v
	}
	for k, v := range src.sigs {
		s.sigs[k] = v
	}
	for k, v := range src.funs {
		s.funs[k] = v
	}
}

// qualified resolves a path of module names (M.N) from s.
func (s *scope) qualified(path []string) *scope {
	m := s
	for i, q := range path {
		if i == 0 {
			m = s.lookupMod(q)
		} else {
			m = m.mods[q]
		}
		if m == nil {
			return nil
		}
	}
	return m
}

// addDecls records the names that decls bind in s.
func (s *scope) addDecls(decls []syntax.Decl) {
	for _, d := range decls {
		s.addDecl(d)
	}
}

func (s *scope) addDecl(d syntax.Decl) {
	switch d := d.(type) {
	case *syntax.ValDecl:
		if d.Fun != nil {
			s.vals[d.Fun.Name] = d.Fun.Doc
		}
	case *syntax.TypeDecl:
		s.types[d.Name] = d.Doc
	case *syntax.ModDecl:
		if len(d.Params) > 0 {
			// A parametric module: its result's names, for applications.
			inner := newScope(s)
			for _, p := range d.Params {
				if ps := s.sigNames(p.Sig); ps != nil && p.Name != "" {
					inner.mods[p.Name] = ps
				}
			}
			var m *scope
			if d.Sig != nil {
				m = inner.sigNames(d.Sig)
			}
			if m == nil {
				m = inner.modNames(d.Body)
			}
			if m != nil {
				s.funs[d.Name] = m
			}
			return
		}
		var m *scope
		if d.Sig != nil {
			m = s.sigNames(d.Sig)
		}
		if m == nil {
			m = s.modNames(d.Body)
		}
		if m == nil {
			m = newScope(s)
		}
		if body := s.modNames(d.Body); body != nil && body != m {
			// The signature hides the body's other names, but the body's
			// definitions carry the doc comments.
			for k := range m.vals {
				if doc := body.vals[k]; doc != "" {
					m.vals[k] = doc
				}
			}
		}
		if d.Doc != "" {
			cp := *m
			cp.doc = d.Doc
			m = &cp
		}
		s.mods[d.Name] = m
	case *syntax.ModTypeDecl:
		if m := s.sigNames(d.Def); m != nil {
			s.sigs[d.Name] = m
		}
	case *syntax.OpenDecl:
		s.merge(s.modNames(d.Mod))
	case *syntax.LocalDecl:
		// local names are visible only inside the file
	}
}

// modNames is the scope of a module expression, or nil when unknown.
func (s *scope) modNames(me syntax.ModExp) *scope {
	switch me := me.(type) {
	case *syntax.ModStruct:
		m := newScope(s)
		for _, d := range me.Decls {
			m.addDecl(d) // local declarations are skipped there
		}
		return m
	case *syntax.ModVar:
		return s.qualified(append(append([]string(nil), me.Name.Quals...), me.Name.Name))
	case *syntax.ModParen:
		return s.modNames(me.M)
	case *syntax.ModAscript:
		if m := s.sigNames(me.Sig); m != nil {
			return m
		}
		return s.modNames(me.M)
	case *syntax.ModApply:
		// F(A) or F A B: the names of F's result.
		fn := me.Fn
		for {
			switch f := fn.(type) {
			case *syntax.ModApply:
				fn = f.Fn
				continue
			case *syntax.ModParen:
				fn = f.M
				continue
			case *syntax.ModVar:
				if len(f.Name.Quals) == 0 {
					return s.lookupFun(f.Name.Name)
				}
				if m := s.qualified(f.Name.Quals); m != nil {
					return m.funs[f.Name.Name]
				}
			}
			return nil
		}
	}
	return nil
}

// sigNames is the scope a module type specifies, or nil when unknown.
func (s *scope) sigNames(st syntax.ModTypeExp) *scope {
	switch st := st.(type) {
	case *syntax.SigVar:
		if len(st.Name.Quals) == 0 {
			return s.lookupSig(st.Name.Name)
		}
		if m := s.qualified(st.Name.Quals); m != nil {
			return m.sigs[st.Name.Name]
		}
	case *syntax.SigParen:
		return s.sigNames(st.S)
	case *syntax.SigWith:
		return s.sigNames(st.S)
	case *syntax.SigSpecs:
		m := newScope(s)
		for _, sp := range st.Specs {
			switch sp := sp.(type) {
			case *syntax.ValSpec:
				m.vals[sp.Name] = sp.Doc
			case *syntax.TypeSpec:
				m.types[sp.Name] = sp.Doc
			case *syntax.ModSpec:
				if sub := s.sigNames(sp.Sig); sub != nil {
					m.mods[sp.Name] = sub
				} else {
					m.mods[sp.Name] = newScope(m)
				}
			case *syntax.IncludeSpec:
				m.merge(s.sigNames(sp.S))
			}
		}
		return m
	}
	return nil
}

// newPreludeIndex parses the prelude (in a file set of its own) and
// records its top-level names.
func newPreludeIndex() *scope {
	top := newScope(nil)
	fset := syntax.NewFileSet()
	if specs, err := syntax.ParseSpecs(fset, "/prelude/intrinsics.fut", prelude.Source("intrinsics.fut")); err == nil {
		m := newScope(top)
		for _, sp := range specs {
			if v, ok := sp.(*syntax.ValSpec); ok {
				m.vals[v.Name] = v.Doc
			}
		}
		top.mods["intrinsics"] = m
	}
	for _, name := range prelude.Files {
		prog, err := syntax.ParseFile(fset, "/prelude/"+name, prelude.Source(name))
		if err != nil && prog == nil {
			continue
		}
		top.addDecls(prog.Decls)
	}
	return top
}

// completions lists the names visible at the top level that start with
// prefix (which may be qualified: "f64.sq"), sorted, each in full.
func (s *scope) completions(prefix string) []string {
	path := strings.Split(prefix, ".")
	last := path[len(path)-1]
	m := s
	qual := ""
	if len(path) > 1 {
		m = s.qualified(path[:len(path)-1])
		if m == nil {
			return nil
		}
		qual = strings.Join(path[:len(path)-1], ".") + "."
	}
	seen := map[string]bool{}
	var out []string
	add := func(name, suffix string) {
		if strings.HasPrefix(name, last) && isIdent(name) && !seen[name+suffix] {
			seen[name+suffix] = true
			out = append(out, qual+name+suffix)
		}
	}
	for sc := m; sc != nil; sc = sc.parent {
		for k := range sc.vals {
			add(k, "")
		}
		for k := range sc.mods {
			add(k, ".")
		}
		if len(path) > 1 {
			break
		}
	}
	if len(path) == 1 {
		for _, k := range keywords {
			add(k, "")
		}
	}
	sort.Strings(out)
	return out
}

// lookupDoc finds the doc comment of a (qualified) value, type or module name.
func (s *scope) lookupDoc(name string) (doc string, kind string, ok bool) {
	path := strings.Split(name, ".")
	m := s
	if len(path) > 1 {
		m = s.qualified(path[:len(path)-1])
		if m == nil {
			return "", "", false
		}
	}
	last := path[len(path)-1]
	for sc := m; sc != nil; sc = sc.parent {
		if d, ok := sc.vals[last]; ok {
			return d, "value", true
		}
		if d, ok := sc.types[last]; ok {
			return d, "type", true
		}
		if m, ok := sc.mods[last]; ok {
			return m.doc, "module", true
		}
		if len(path) > 1 {
			break
		}
	}
	return "", "", false
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		switch {
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '\''):
		default:
			return false
		}
	}
	return true
}

var keywords = []string{"def", "let", "in", "if", "then", "else", "loop", "for", "while", "do",
	"match", "case", "module", "type", "open", "import", "local", "entry", "with", "val", "include"}
