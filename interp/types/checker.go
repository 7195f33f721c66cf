package types

import (
	"fut/interp/syntax"
)

// Importer resolves import "path" relative to the file fromFile and
// returns the parsed program.
type Importer func(fromFile, path string) (*syntax.Program, error)

// Info holds what the checker learned, keyed by node. The AST is never
// edited.
type Info struct {
	// Types gives the type of every checked expression.
	Types map[syntax.Expr]Type
	// PatTypes gives the type of every checked pattern.
	PatTypes map[syntax.Pat]Type
	// Defs gives the scheme of every checked function or constant.
	Defs map[*syntax.FunBind]*Scheme
	// Uses gives the object that every use of a name denotes (see
	// resolve.go): variables, qualified names, operators of binary
	// expressions and sections.
	Uses map[syntax.Node]*Object

	fields map[*syntax.Var][]string // resolve.go

	sizeArgs *sizeArgTable // see sizeargs.go
	stage    *stageTables  // see stages.go
}

// LitType returns the resolved primitive type of a literal (an overloaded
// IntLit, FloatLit or CharLit, or a negated one).
func (i *Info) LitType(e syntax.Expr) (syntax.PrimType, bool) {
	t, ok := i.Types[e]
	if !ok {
		return "", false
	}
	if p, ok := Resolve(t).(*Prim); ok {
		return p.Kind, true
	}
	return "", false
}

// TypeOf returns the type of a checked expression.
func (i *Info) TypeOf(e syntax.Expr) (Type, bool) {
	t, ok := i.Types[e]
	return t, ok
}

// Binding is a value bound in some scope.
type valBind struct {
	name   string
	scheme *Scheme
	size   *SizeName // the size this variable stands for, when an i64
	// sizeAlias, when set, is the size the name stands for instead
	sizeAlias  Size
	span       syntax.Span
	local      bool // bound inside a function body or lambda
	param      bool // a function parameter
	level      int  // the checker's level where it was bound
	declared   bool // by a def in its scope (not by open or import)
	arrowParam bool // a named parameter of a function type
	id         int
	// builtin operator: overloaded and typed by the checker
	builtin string
	// obj is what the binding denotes (resolve.go); made on first use
	// for local bindings.
	obj *Object
}

// ns is one namespace level: values, types, modules and module types.
type ns struct {
	vals  map[string]*valBind
	types map[string]*TypeDef
	mods  map[string]*Module
	sigs  map[string]*Sig
}

func newNS() ns {
	return ns{vals: map[string]*valBind{}, types: map[string]*TypeDef{}, mods: map[string]*Module{}, sigs: map[string]*Sig{}}
}

type scope struct {
	parent *scope
	ns
}

func newScope(parent *scope) *scope { return &scope{parent: parent, ns: newNS()} }

func (s *scope) lookupVal(name string) *valBind {
	for ; s != nil; s = s.parent {
		if v, ok := s.vals[name]; ok {
			return v
		}
	}
	return nil
}

func (s *scope) lookupType(name string) *TypeDef {
	for ; s != nil; s = s.parent {
		if v, ok := s.types[name]; ok {
			return v
		}
	}
	return nil
}

func (s *scope) lookupMod(name string) *Module {
	for ; s != nil; s = s.parent {
		if v, ok := s.mods[name]; ok {
			return v
		}
	}
	return nil
}

func (s *scope) lookupSig(name string) *Sig {
	for ; s != nil; s = s.parent {
		if v, ok := s.sigs[name]; ok {
			return v
		}
	}
	return nil
}

// Checker checks programs, declarations and expressions against one
// growing environment.
type Checker struct {
	fset  *syntax.FileSet
	imp   Importer
	info  *Info
	errs  syntax.ErrorList
	warns syntax.ErrorList // errors.go
	// lambdaWant: the expected type of a lambda argument checked after
	// the arguments that follow it (lateLambda)
	lambdaWant map[*syntax.Lambda]Type

	nextID int
	level  int
	top    *scope

	imported  map[string]*Module
	importing map[string]bool
	entries   map[string]*entryPoint
	curFile   string
	modDepth  int // inside how many module structures

	loadingIntrinsics bool
	declObjs          map[*syntax.FunBind]*Object // resolve.go
	topFun            *syntax.FunBind             // the def being checked

	// per top-level definition
	overloaded        []TVar
	constrVars        []TVar
	fieldVars         []TVar
	pendExprs         []syntax.Expr
	joinAt            *joinSite         // the conditional being joined (sizes.go)
	letSizes          map[*valBind]Size // what a let-bound i64 stands for as a size (sizes.go)
	instSizes         *[]instSize       // size parameters instantiated in the current definition (subst.go)
	pendPats          []syntax.Pat
	uses              map[*syntax.Var]*valBind
	opUses            map[*syntax.OpSection]*valBind
	sectionOps        map[syntax.Expr]Type // the operator's type in (e op) and (op e) (causality.go)
	anonFlex          anonMode             // converting an annotation (flexsizes.go)
	flexSizes         []flexSize           // sizes for the value to decide (flexsizes.go)
	patBinds          map[*syntax.PId]*valBind
	funBinds          map[*syntax.FunBind]*valBind
	withBinds         map[*syntax.LetWith]*valBind
	identBinds        map[*syntax.Ident]*valBind
	loopPats          map[*syntax.Loop]bool
	sizeLifted        bool               // unifying what a size-lifted type variable stands for (unify.go)
	openExist         map[*SizeName]bool // existentials of a result that nothing decided (decls.go)
	loopInit          map[*syntax.PId]*valBind
	matches           []*syntax.Match
	localSizes        map[*SizeName]int
	reportedAmbiguous map[*tvar]bool
	defErrStart       int // sizes bound inside the definition, by level

	// the expression being inferred, and the unknown sizes each
	// expression computes (for the causality check)
	curExpr     syntax.Expr
	sizeOrigin  map[*SizeName]syntax.Expr
	originSizes map[syntax.Expr][]*SizeName
	// the size parameters of local functions, by level
	sizeParams map[*SizeName]int
	typeParams map[*TypeCon]int   // the same for type parameters
	factsMemo  map[Type]typeFacts // facts of large ground types (facts.go)
	// inside a declaration whose depth was measured (depth.go)
	depthGuarded bool

	// while converting a function type
	anonParams     []*SizeName
	resultUnknowns []*SizeName
}

type entryPoint struct {
	params  []Type
	results []Type
}

// NewChecker returns a checker whose environment holds only the built-in
// types and operators. imp may be nil when imports are not allowed.
func NewChecker(fset *syntax.FileSet, imp Importer) *Checker {
	c := &Checker{
		fset:      fset,
		imp:       imp,
		info:      &Info{Types: map[syntax.Expr]Type{}, PatTypes: map[syntax.Pat]Type{}, Defs: map[*syntax.FunBind]*Scheme{}},
		imported:  map[string]*Module{},
		importing: map[string]bool{},
		entries:   map[string]*entryPoint{},
		uses:      map[*syntax.Var]*valBind{},
		patBinds:  map[*syntax.PId]*valBind{},
	}
	c.beginDef()
	c.top = newScope(nil)
	for _, p := range allPrims {
		c.top.types[string(p)] = &TypeDef{Name: string(p), Body: &Prim{p}}
	}
	for _, op := range builtinOps {
		c.top.vals[op] = &valBind{name: op, builtin: op}
	}
	return c
}

// Info returns the side tables filled so far.
func (c *Checker) Info() *Info { return c.info }

// LoadIntrinsics declares the built-in module intrinsics with the given
// value and type specifications.
func (c *Checker) LoadIntrinsics(specs []syntax.Spec) error {
	c.loadingIntrinsics = true
	sig := c.checkSpecs(specs, c.top)
	c.loadingIntrinsics = false
	m := &Module{ns: sig.mod.ns}
	for n, v := range m.vals {
		v.obj = &Object{Kind: ObjIntrinsic, Name: n}
	}
	c.top.mods["intrinsics"] = m
	return c.takeErrors()
}

// CheckProgram checks a file and adds its top-level names to the
// environment. On error the environment is left as it was.
func (c *Checker) CheckProgram(p *syntax.Program) error {
	c.warns = nil
	saved := c.curFile
	if p.File != nil {
		c.curFile = p.File.Name
	}
	// The file's names go into a scope of their own, so that a file may
	// not define a type twice but may reuse a name of the prelude.
	sc := newScope(c.top)
	entries := map[string]*entryPoint{}
	for k, v := range c.entries {
		entries[k] = v
	}
	c.checkDecls(p.Decls, sc, sc)
	c.checkDefaultEntry(p, sc)
	c.curFile = saved
	if len(c.errs) > 0 {
		// Nothing of a file with errors is kept.
		c.entries = entries
		return c.takeErrors()
	}
	merge(&c.top.ns, &sc.ns)
	return nil
}

// CheckDecls checks REPL declarations. On error the environment is left
// as it was.
func (c *Checker) CheckDecls(decls []syntax.Decl) error {
	c.warns = nil
	sc := newScope(c.top)
	saved := map[string]*entryPoint{}
	for k, v := range c.entries {
		saved[k] = v
	}
	c.checkDecls(decls, sc, sc)
	if len(c.errs) > 0 {
		c.entries = saved
		return c.takeErrors()
	}
	merge(&c.top.ns, &sc.ns)
	return nil
}

// CheckExpr checks a REPL expression.
func (c *Checker) CheckExpr(e syntax.Expr) (Type, error) {
	c.warns = nil
	if c.tooDeep(e) { // depth.go
		return nil, c.takeErrors()
	}
	c.beginDef()
	c.level++
	t := c.inferExpr(e, newScope(c.top))
	c.level--
	c.endDef(nil)
	if len(c.errs) == 0 {
		c.checkUniqueExpr(e)
	}
	// The value of a REPL expression is not consumed by anything: show
	// its type without uniqueness.
	t = setUnique(zonk(t), false)
	return t, c.takeErrors()
}

// EntryPoint returns the declared parameter and result types of an entry
// point (results: one per tuple element when the result is a tuple).
func (c *Checker) EntryPoint(name string) (params []Type, results []Type, ok bool) {
	e, ok := c.entries[name]
	if !ok {
		return nil, nil, false
	}
	return e.params, e.results, true
}

// LookupValue returns the scheme of a top-level value (for :type).
func (c *Checker) LookupValue(name string) (*Scheme, bool) {
	v := c.top.lookupVal(name)
	if v == nil || v.scheme == nil {
		return nil, false
	}
	return v.scheme, true
}

func merge(dst, src *ns) {
	for k, v := range src.vals {
		dst.vals[k] = v
	}
	for k, v := range src.types {
		dst.types[k] = v
	}
	for k, v := range src.mods {
		dst.mods[k] = v
	}
	for k, v := range src.sigs {
		dst.sigs[k] = v
	}
}

// String prints a scheme as Futhark would in a val spec.
func (s *Scheme) String() string {
	out := ""
	names := printNames(s.Type, s.SParams)
	for _, sp := range s.SParams {
		if r, ok := names[sp]; ok {
			sp = r
		}
		out += "[" + sp.Name + "] "
	}
	for _, tp := range s.TParams {
		switch tp.Lifted {
		case syntax.Lifted:
			out += "'^" + tp.Name + " "
		case syntax.SizeLifted:
			out += "'~" + tp.Name + " "
		default:
			out += "'" + tp.Name + " "
		}
	}
	if out != "" {
		out += ": "
	}
	return out + renameSizes(s.Type, names).String()
}

// Fork returns a checker that starts from c's environment (sharing what c
// has checked so far, which it never changes) with its own side tables.
// Later changes to either are not seen by the other.
func (c *Checker) Fork() *Checker {
	d := NewChecker(c.fset, c.imp)
	d.nextID = c.nextID + 1000000
	d.top = newScope(c.top)
	for k, v := range c.entries {
		d.entries[k] = v
	}
	return d
}

// SetImporter replaces the importer.
func (c *Checker) SetImporter(imp Importer) { c.imp = imp }
