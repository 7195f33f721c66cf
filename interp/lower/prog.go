package lower

import (
	"strings"

	"fut/interp/syntax"
	"fut/interp/types"
)

// Prog is the program at one source stage: top-level definitions, each
// using only those before it (and itself, when it is recursive), the root
// last. The nodes are new (a stage never edits its input's tree); they keep
// the positions of the source they were copied from, so that errors name
// the user's file:line:col.
type Prog struct {
	Stage string
	Defs  []*syntax.FunBind
	// Root is the definition the program is for: an entry point, or the
	// expression being evaluated (a definition without parameters).
	Root *syntax.FunBind
	// Entry says whether Root is an entry point (printed as entry).
	Entry bool
	Info  *Info
}

// String is the program as Futhark source.
func (p *Prog) String() string {
	var b strings.Builder
	for i, fb := range p.Defs {
		if i > 0 {
			b.WriteString("\n")
		}
		d := &syntax.ValDecl{Fun: fb, Entry: fb == p.Root && p.Entry}
		b.WriteString(syntax.Print(d))
		b.WriteString("\n")
	}
	return b.String()
}

// Source is what a stage reads of the program before it: the checker's
// tables for the checked program (Checked), or the tables of the stage
// before (*Info).
type Source interface {
	Use(n syntax.Node) (*types.Object, bool)
	Fields(v *syntax.Var) []string
	TypeOf(e syntax.Expr) (types.Type, bool)
	PatType(p syntax.Pat) (types.Type, bool)
	LitType(e syntax.Expr) (syntax.PrimType, bool)
	SizeArgs(v *syntax.Var) map[string]syntax.Expr
	TypeArgs(n syntax.Node) []types.Type
	Scheme(fb *syntax.FunBind) (*types.Scheme, bool)
	// Origin is the declaration of the checked program that fb copies
	// (fb itself there): its name for backtraces, its value for constants.
	Origin(fb *syntax.FunBind) *syntax.FunBind
}

// Checked is the checker's tables as a Source.
type Checked struct{ *types.Info }

// Scheme is the type the checker gave a definition.
func (c Checked) Scheme(fb *syntax.FunBind) (*types.Scheme, bool) {
	s, ok := c.Defs[fb]
	return s, ok
}

// Origin is fb: the checked program is the source.
func (c Checked) Origin(fb *syntax.FunBind) *syntax.FunBind { return fb }

// Info holds a stage's side tables, keyed by the stage's nodes, as
// types.Info does for the checked program. It implements Source and what
// the lowering to the core IR asks (ir.Resolver).
type Info struct {
	uses     map[syntax.Node]*types.Object
	types    map[syntax.Expr]types.Type
	pats     map[syntax.Pat]types.Type
	sizeArgs map[*syntax.Var]map[string]syntax.Expr
	targs    map[syntax.Node][]types.Type
	schemes  map[*syntax.FunBind]*types.Scheme
	origin   map[*syntax.FunBind]*syntax.FunBind
	consts   map[*syntax.FunBind]*syntax.FunBind
	// declNames are the names backtraces give definitions that copy no
	// declaration of the source (lifted lambdas and local functions).
	declNames map[*syntax.FunBind]string
}

func newInfo() *Info {
	return &Info{
		uses:     map[syntax.Node]*types.Object{},
		types:    map[syntax.Expr]types.Type{},
		pats:     map[syntax.Pat]types.Type{},
		sizeArgs: map[*syntax.Var]map[string]syntax.Expr{},
		targs:    map[syntax.Node][]types.Type{},
		schemes:  map[*syntax.FunBind]*types.Scheme{},
		origin:   map[*syntax.FunBind]*syntax.FunBind{},
		consts:   map[*syntax.FunBind]*syntax.FunBind{},

		declNames: map[*syntax.FunBind]string{},
	}
}

func (i *Info) Use(n syntax.Node) (*types.Object, bool) {
	o, ok := i.uses[n]
	return o, ok
}

// Fields is nil: the stages write field projections as Project nodes.
func (i *Info) Fields(v *syntax.Var) []string { return nil }

func (i *Info) TypeOf(e syntax.Expr) (types.Type, bool) {
	t, ok := i.types[e]
	return t, ok
}

func (i *Info) PatType(p syntax.Pat) (types.Type, bool) {
	t, ok := i.pats[p]
	return t, ok
}

// LitType is the primitive type of a literal (or of any expression of a
// primitive type).
func (i *Info) LitType(e syntax.Expr) (syntax.PrimType, bool) {
	if p, ok := types.Resolve(i.types[e]).(*types.Prim); ok {
		return p.Kind, true
	}
	return "", false
}

func (i *Info) SizeArgs(v *syntax.Var) map[string]syntax.Expr { return i.sizeArgs[v] }

func (i *Info) TypeArgs(n syntax.Node) []types.Type { return i.targs[n] }

func (i *Info) Scheme(fb *syntax.FunBind) (*types.Scheme, bool) {
	s, ok := i.schemes[fb]
	return s, ok
}

func (i *Info) Origin(fb *syntax.FunBind) *syntax.FunBind {
	if o, ok := i.origin[fb]; ok {
		return o
	}
	return fb
}

// DeclName is the name that the definition fb had in the source, as the
// reference path's backtraces name it.
func (i *Info) DeclName(fb *syntax.FunBind) string {
	if n, ok := i.declNames[fb]; ok {
		return n
	}
	return i.Origin(fb).Name
}

// ConstOf is the constant of the checked program whose value fb's is (a
// copy of a top-level constant outside any functor instance).
func (i *Info) ConstOf(fb *syntax.FunBind) (*syntax.FunBind, bool) {
	c, ok := i.consts[fb]
	return c, ok
}
