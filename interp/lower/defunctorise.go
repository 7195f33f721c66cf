package lower

import (
	"fmt"
	"strings"

	"fut/interp/syntax"
	"fut/interp/types"
)

// Defunctorisation: modules, functors, module-type ascriptions and open
// become plain top-level definitions.
//
// The checker resolved every use of a name to the declaration it denotes,
// and a declaration inside a parametric module to the chain of functor
// applications its body needs (types.Object.Resolve). Starting from the
// root, each declaration reached is copied once per chain: the copy's
// uses name the copies of what they denote, the types of the functor's
// parameter are replaced by the application's (types.Instance.Subst), and
// the abstract types of ascriptions by their definitions
// (types.Info.Transparent). Only what the root reaches is copied, in an
// order where each definition comes after those it uses.

// Root is what a program is made for.
type Root struct {
	// Fun is the entry point or function; nil for an expression.
	Fun   *syntax.FunBind
	Entry bool
	// Expr is the expression (a REPL entry), when Fun is nil.
	Expr syntax.Expr
}

type dkey struct {
	fb    *syntax.FunBind
	chain string
}

// dcopy is one definition of the defunctorised program.
type dcopy struct {
	fb    *syntax.FunBind
	chain []*types.Instance
	out   *syntax.FunBind
	obj   *types.Object
	spell string // the name it was first used by
	deps  []*dcopy
	done  bool
	expr  bool // the root made for an expression
	// targs are the type arguments of a monomorphic copy.
	targs []types.Type
}

type defunctoriser struct {
	info   *types.Info
	src    Checked
	dst    *Info
	copies map[dkey]*dcopy
	todo   []*dcopy
	names  []named
	cur    *dcopy
}

// Defunctorise makes the program of the definitions root uses.
func Defunctorise(fset *syntax.FileSet, info *types.Info, root Root) (prog *Prog, err error) {
	defer catch(fset, &err)
	d := &defunctoriser{info: info, src: Checked{info}, dst: newInfo(), copies: map[dkey]*dcopy{}}
	var top *dcopy
	if root.Fun != nil {
		top = d.copyOf(root.Fun, nil, root.Fun.Name)
	} else {
		fb := &syntax.FunBind{Loc: syntax.Loc{Span: syntax.SpanOf(root.Expr)}, Name: "expr", Body: root.Expr}
		top = &dcopy{fb: fb, out: &syntax.FunBind{}, spell: "expr", expr: true}
		top.obj = &types.Object{Kind: types.ObjDecl, Name: "expr", Fun: top.out}
		d.todo = append(d.todo, top)
	}
	for len(d.todo) > 0 {
		dc := d.todo[len(d.todo)-1]
		d.todo = d.todo[:len(d.todo)-1]
		if dc.done {
			continue
		}
		dc.done = true
		d.copyDef(dc)
	}
	defs := order(top)
	spells := map[*syntax.FunBind]string{}
	for _, dc := range d.copies {
		spells[dc.out] = dc.spell
	}
	nameDefs(defs, spells)
	setNames(d.names)
	return &Prog{Stage: "defunctorise", Defs: defs, Root: top.out, Entry: root.Entry, Info: d.dst}, nil
}

func chainKey(chain []*types.Instance) string {
	if len(chain) == 0 {
		return ""
	}
	var b strings.Builder
	for _, in := range chain {
		fmt.Fprintf(&b, "%p;", in)
	}
	return b.String()
}

// copyOf is the copy of fb for chain, made on first request.
func (d *defunctoriser) copyOf(fb *syntax.FunBind, chain []*types.Instance, spell string) *dcopy {
	k := dkey{fb, chainKey(chain)}
	if dc, ok := d.copies[k]; ok {
		return dc
	}
	dc := &dcopy{fb: fb, chain: chain, out: &syntax.FunBind{}, spell: spell}
	dc.obj = &types.Object{Kind: types.ObjDecl, Name: fb.Name, Fun: dc.out}
	d.copies[k] = dc
	d.todo = append(d.todo, dc)
	return dc
}

func (d *defunctoriser) copyDef(dc *dcopy) {
	d.cur = dc
	chain := dc.chain
	c := &copier{src: d.src, dst: d.dst, names: &d.names, scoped: true}
	c.typ = func(t types.Type) types.Type {
		for _, in := range chain {
			t = in.Subst(t)
		}
		return d.info.Transparent(t)
	}
	c.decl = func(n syntax.Node, obj *types.Object) ref {
		o, ch, ok := obj.Resolve(chain)
		if !ok {
			panic(notLowered(n, "%s is a value of a parametric module's parameter, used outside an application", obj.Name))
		}
		switch o.Kind {
		case types.ObjDecl:
			callee := d.copyOf(o.Fun, ch, spelling(n))
			dc.deps = append(dc.deps, callee)
			return ref{obj: callee.obj, def: callee.out}
		case types.ObjSpec:
			panic(notLowered(n, "%s is a value of a parametric module's parameter, used outside an application", obj.Name))
		}
		return c.resolve(n, o)
	}
	fb := dc.fb
	out := dc.out
	*out = syntax.FunBind{Loc: fb.Loc, Name: fb.Name, NameSpan: fb.NameSpan, TypeParams: c.typeParams(fb.TypeParams), Attrs: fb.Attrs}
	c.fill(out, fb)
	d.dst.origin[out] = fb
	if len(chain) == 0 && len(fb.Params) == 0 && !dc.expr {
		d.dst.consts[out] = fb
	}
}

// spelling is how the use n wrote the name it uses, as an identifier.
func spelling(n syntax.Node) string {
	var q syntax.QualName
	switch n := n.(type) {
	case *syntax.Var:
		q = n.Name
	case *syntax.Binary:
		q = n.Op
	case *syntax.OpSection:
		q = n.Op
	case *syntax.LeftSection:
		q = n.Op
	case *syntax.RightSection:
		q = n.Op
	}
	parts := make([]string, 0, len(q.Quals)+1)
	for _, m := range q.Quals {
		parts = append(parts, identOf(m))
	}
	return strings.Join(append(parts, identOf(q.Name)), "_")
}

// order lists the definitions that top reaches, each after those it uses
// (a recursive definition uses itself; Futhark has no mutual recursion).
func order(top *dcopy) []*syntax.FunBind {
	var out []*syntax.FunBind
	state := map[*dcopy]int{} // 1: on the path, 2: done
	var visit func(dc *dcopy)
	visit = func(dc *dcopy) {
		if state[dc] != 0 {
			return
		}
		state[dc] = 1
		for _, x := range dc.deps {
			visit(x)
		}
		state[dc] = 2
		out = append(out, dc.out)
	}
	visit(top)
	return out
}

// nameDefs gives each definition a name of its own: the root keeps its
// name; the others are named as they were first used (M.f becomes M_f, an
// operator a word), with a number added where two would be the same or
// where the name is bound locally anywhere in the program.
func nameDefs(defs []*syntax.FunBind, spells map[*syntax.FunBind]string) {
	taken := map[string]bool{}
	for _, fb := range defs {
		syntax.Inspect(fb, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.PId:
				taken[n.Name] = true
			case *syntax.FunBind:
				if n != fb {
					taken[n.Name] = true
				}
			case *syntax.Ident:
				taken[n.Name] = true
			case *syntax.SizeBinder:
				taken[n.Name] = true
			case *syntax.TypeParam:
				taken[n.Name] = true
			}
			return true
		})
	}
	root := defs[len(defs)-1]
	taken[root.Name] = true
	for _, fb := range defs[:len(defs)-1] {
		base := spells[fb]
		name := base
		for k := 1; taken[name]; k++ {
			name = fmt.Sprintf("%s_%d", base, k)
		}
		taken[name] = true
		fb.Name = name
		fb.IsOp = false
	}
}

// opWords names the characters of operators.
var opWords = map[rune]string{
	'+': "plus", '-': "minus", '*': "times", '/': "div", '%': "mod", '=': "eq", '!': "not",
	'<': "lt", '>': "gt", '&': "and", '|': "or", '^': "xor", '@': "at", '.': "dot", '~': "tilde",
	'?': "q", '`': "bq", '#': "hash",
}

// opNames name whole operators.
var opNames = map[string]string{
	"|>": "pipe", "<|": "pipe_left", "++": "concat", "==": "eq", "!=": "neq", "<=": "le", ">=": "ge",
	"**": "pow", "//": "quot", "%%": "rem", "&&": "and", "||": "or", "<<": "shl", ">>": "shr", ">>>": "ushr",
	"+": "plus", "-": "minus", "*": "times", "/": "div", "%": "mod", "<": "lt", ">": "gt", "&": "band", "|": "bor", "^": "xor",
}

// identOf turns a spelling (M.f, M.+, ==) into an identifier.
func identOf(s string) string {
	if n, ok := opNames[s]; ok {
		return n
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '_' || r == '\'' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			if w, ok := opWords[r]; ok {
				if b.Len() > 0 && !strings.HasSuffix(b.String(), "_") {
					b.WriteByte('_')
				}
				b.WriteString(w)
			} else {
				b.WriteByte('_')
			}
		}
	}
	out := b.String()
	if out == "" || out[0] >= '0' && out[0] <= '9' || out[0] == '_' || out[0] == '\'' {
		out = "f" + out
	}
	return out
}
