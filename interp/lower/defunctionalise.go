package lower

import (
	"fmt"
	"sort"
	"strings"

	"fut/interp/syntax"
	"fut/interp/types"
)

// Defunctionalisation: higher-order functions and lambdas become
// first-order code, as in Futhark (the language's restrictions make it
// total: no arrays of functions, no function returned from a branch, no
// function as a loop parameter, so every function value is known when the
// program is compiled).
//
// Each expression has a static value: a first-order value (dynamic), or a
// function known statically (a definition, a lambda, an operator or
// intrinsic, partially applied or not) together with its environment, or
// a record or tuple holding such. At run time a function value is the
// record of its environment: the free variables of a lambda and the
// arguments applied so far. Applying a function that is known statically
// calls a specialised copy:
//
//   - a definition applied to all its arguments, none of them a function,
//     is called as it is;
//   - otherwise the definition (or the lambda, lifted to the top level) is
//     copied for the static values of its arguments: a parameter that
//     receives a function takes that function's environment record, and
//     the environment of the function itself (the lambda's free variables,
//     the arguments applied before) arrives as a first record parameter,
//     whose fields are bound back to their names at the top of the body;
//   - a function passed to an intrinsic (map, reduce, scan, …) becomes a
//     lambda there that calls the copy: SOACs keep their lambdas, which the
//     core IR has.
//
// The copies are named after what they copy; lifted lambdas are named
// lambda_N. A top-level constant whose value is a function is replaced by
// its definition where it is used.

// fkind says what a function static value calls.
type fkind int

const (
	fDef    fkind = iota // a top-level definition
	fLambda              // a lambda or a local function
	fPrim                // a built-in operator or an intrinsic
	fProj                // a projection section (.a.b)
	fIndex               // an index section (.[i])
	fHole                // a hole (???) of a function type
)

// sv is a static value.
type sv interface{ isSV() }

// svDyn is a first-order value of type t.
type svDyn struct{ t types.Type }

// svFun is a function known statically.
type svFun struct {
	kind   fkind
	def    *syntax.FunBind // fDef; fLambda of a local function
	lam    *syntax.Lambda  // fLambda of a lambda
	params []syntax.Pat
	body   syntax.Expr
	ret    syntax.TypeExp // a lambda's written return type
	prim   ref            // fPrim
	fields []string       // fProj
	path   []syntax.PathElem
	// t is the function's type (all its parameters, before any applied).
	t types.Type
	// env are the free variables a lambda captured.
	env []field
	// args are the arguments applied so far (named a_1, …); flip: the one
	// argument applied is the second (a right section).
	args []field
	flip bool
	// arity is the number of parameters (for fPrim: of the operator).
	arity int
	// sizeArgs are the size arguments the use of a definition gave.
	sizeArgs map[string]syntax.Expr
	// hole is the hole of fHole.
	hole *syntax.Hole
}

// svRec is a record or tuple some of whose fields are functions.
type svRec struct {
	names  []string // record field names, sorted (0, 1, … for a tuple)
	fields []sv
	tuple  bool
}

// field is one field of a function's environment record.
type field struct {
	name string
	sv   sv
}

func (svDyn) isSV()  {}
func (*svFun) isSV() {}
func (*svRec) isSV() {}

// isFun reports whether v holds a function.
func isFun(v sv) bool {
	switch v := v.(type) {
	case *svFun:
		return true
	case *svRec:
		for _, f := range v.fields {
			if isFun(f) {
				return true
			}
		}
	}
	return false
}

// rtype is the type of v's value at run time.
func rtype(v sv) types.Type {
	switch v := v.(type) {
	case svDyn:
		return v.t
	case *svFun:
		return envType(v.closure())
	case *svRec:
		fs := make([]types.Field, len(v.fields))
		for i, f := range v.fields {
			fs[i] = types.Field{Name: v.names[i], Type: rtype(f)}
		}
		return &types.Record{Fields: fs}
	}
	return nil
}

// closure is the environment record's fields: the captured variables,
// then the arguments applied so far, sorted by name.
func (f *svFun) closure() []field {
	out := append(append([]field(nil), f.env...), f.args...)
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// envType is the type of the environment record with the fields fs (the
// hollow ones have no place in it).
func envType(fs []field) types.Type {
	var out []types.Field
	for _, f := range fs {
		if !hollow(f.sv) {
			out = append(out, types.Field{Name: f.name, Type: rtype(f.sv)})
		}
	}
	return &types.Record{Fields: out}
}

// hollow reports whether a function value holds nothing at run time (an
// operator, a definition, a lambda that captured nothing that is not
// hollow itself): such a value is passed and stored nowhere, only its
// static value is.
func hollow(v sv) bool {
	switch v := v.(type) {
	case *svFun:
		for _, f := range v.closure() {
			if !hollow(f.sv) {
				return false
			}
		}
		return true
	case *svRec:
		return false
	}
	return false
}

// runtime is the fields of fs that are not hollow.
func runtime(fs []field) []field {
	var out []field
	for _, f := range fs {
		if !hollow(f.sv) {
			out = append(out, f)
		}
	}
	return out
}

// key identifies a static value's static part: two function values with
// the same key run the same code.
func key(v sv) string {
	var b strings.Builder
	writeSVKey(&b, v)
	return b.String()
}

func writeSVKey(b *strings.Builder, v sv) {
	switch v := v.(type) {
	case svDyn:
		b.WriteString("d")
	case *svFun:
		switch v.kind {
		case fDef:
			fmt.Fprintf(b, "def%p", v.def)
		case fLambda:
			if v.lam != nil {
				fmt.Fprintf(b, "lam%p", v.lam)
			} else {
				fmt.Fprintf(b, "let%p", v.def)
			}
		case fPrim:
			fmt.Fprintf(b, "prim:%s", v.prim.name)
		case fProj:
			fmt.Fprintf(b, "proj:%s", strings.Join(v.fields, "."))
		case fIndex:
			fmt.Fprintf(b, "idx%p", v.path)
		case fHole:
			fmt.Fprintf(b, "hole%p", v.hole)
		}
		if v.flip {
			b.WriteString("~")
		}
		b.WriteString("(")
		for _, f := range v.closure() {
			b.WriteString(f.name + "=")
			writeSVKey(b, f.sv)
			b.WriteString(",")
		}
		b.WriteString(")")
	case *svRec:
		b.WriteString("{")
		for i, f := range v.fields {
			b.WriteString(v.names[i] + "=")
			writeSVKey(b, f)
			b.WriteString(",")
		}
		b.WriteString("}")
	}
}

// spec is a specialised copy: a definition or a lifted lambda for the
// static values of its arguments.
type spec struct {
	out *syntax.FunBind
	obj *types.Object
	// res is the static value of its result.
	res  sv
	busy bool
}

type defunctionaliser struct {
	src   *Prog
	dst   *Info
	cp    *copier // for the first-order parts
	names []named
	defs  []*syntax.FunBind
	specs map[string]*spec
	n     int
	// spells names the copies before the final naming.
	spells map[*syntax.FunBind]string
	// taken are the names the program binds or uses: fresh names avoid
	// them, so that a name made up never captures one of the user's.
	taken map[string]bool
}

// Defunctionalise makes p (a monomorphic program) first order.
func Defunctionalise(fset *syntax.FileSet, p *Prog) (prog *Prog, err error) {
	defer catch(fset, &err)
	d := &defunctionaliser{src: p, dst: newInfo(), specs: map[string]*spec{}, spells: map[*syntax.FunBind]string{}, taken: namesIn(p.Defs)}
	d.cp = &copier{src: p.Info, dst: d.dst, names: &d.names, typ: func(t types.Type) types.Type { return t }}
	d.cp.decl = func(n syntax.Node, obj *types.Object) ref {
		// a constant named in a type (a size)
		if fb := obj.Fun; fb != nil && len(fb.Params) == 0 {
			if sch, ok := p.Info.Scheme(fb); ok && !isFunctional(sch.Type) {
				sp := d.specialise(&svFun{kind: fDef, def: fb, body: fb.Body, t: sch.Type}, nil, n)
				return ref{obj: sp.obj, def: sp.out}
			}
		}
		panic(notLowered(n, "internal: a use of %s outside defunctionalisation", obj.Name))
	}
	d.cp.dimFn = d.typeDim
	root := d.root(p.Root)
	nameDefs(d.defs, d.spells)
	setNames(d.names)
	return &Prog{Stage: "defunctionalise", Defs: d.defs, Root: root, Entry: p.Entry, Info: d.dst}, nil
}

// root copies the root definition, with a parameter for each argument its
// type takes beyond its own parameters (a point-free entry point).
func (d *defunctionaliser) root(fb *syntax.FunBind) *syntax.FunBind {
	sch, _ := d.src.Info.Scheme(fb)
	out := &syntax.FunBind{Loc: fb.Loc, Name: fb.Name, NameSpan: fb.NameSpan, Attrs: fb.Attrs, TypeParams: d.cp.typeParams(fb.TypeParams)}
	env := sizesInScope(&denv{}, fb)
	for _, p := range fb.Params {
		t, _ := d.src.Info.PatType(p)
		np, e := d.bindPat(env, p, svDyn{t})
		env = e
		out.Params = append(out.Params, np)
	}
	if fb.RetType != nil && sch != nil {
		out.RetType = d.cp.retTypeExp(sch.Type, len(fb.Params), fb.RetType)
	}
	body, v := d.expr(env, fb.Body)
	if f, ok := v.(*svFun); ok && sch != nil {
		// point-free: apply the function to parameters of the root's own
		var extra []arg
		t := resultType(sch.Type, len(fb.Params))
		for k := 0; ; k++ {
			a, ok := types.Resolve(t).(*types.Arrow)
			if !ok {
				break
			}
			name := fmt.Sprintf("x_%d", k+1)
			pid := &syntax.PId{Loc: fb.Loc, Name: name}
			d.dst.pats[pid] = a.From
			out.Params = append(out.Params, d.ascribed(pid))
			extra = append(extra, arg{d.local(fb, name, a.From), svDyn{a.From}})
			t = a.To
		}
		body, v = d.apply(env, fb, body, f, extra)
	}
	if isFun(v) {
		panic(notLowered(fb, "the result of %s is a function", fb.Name))
	}
	out.Body = body
	d.declareSizes(out)
	if sch != nil {
		d.dst.schemes[out] = sch
	}
	d.dst.origin[out] = d.src.Info.Origin(fb)
	d.defs = append(d.defs, out)
	return out
}

// denv is the static environment: what each local name is bound to.
type denv struct {
	name   string
	v      sv
	parent *denv
}

func (e *denv) bind(name string, v sv) *denv { return &denv{name, v, e} }

func (e *denv) lookup(name string) (sv, bool) {
	for ; e != nil; e = e.parent {
		if e.name == name {
			return e.v, true
		}
	}
	return nil, false
}

// local is a use of a local variable, with its type.
func (d *defunctionaliser) local(at syntax.Node, name string, t types.Type) syntax.Expr {
	v := &syntax.Var{Loc: syntax.Loc{Span: syntax.SpanOf(at)}, Name: syntax.QualName{Name: name}}
	d.dst.uses[v] = &types.Object{Kind: types.ObjLocal, Name: name}
	if t != nil {
		d.dst.types[v] = t
	}
	return v
}

func (d *defunctionaliser) fresh(base string) string {
	for {
		d.n++
		name := fmt.Sprintf("%s_%d", base, d.n)
		if !d.taken[name] {
			d.taken[name] = true
			return name
		}
	}
}

// namesIn is every name that the definitions bind or use.
func namesIn(defs []*syntax.FunBind) map[string]bool {
	out := map[string]bool{}
	for _, fb := range defs {
		out[fb.Name] = true
		syntax.Inspect(fb, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.PId:
				out[n.Name] = true
			case *syntax.Var:
				out[n.Name.Name] = true
			case *syntax.FunBind:
				out[n.Name] = true
			case *syntax.Ident:
				out[n.Name] = true
			case *syntax.SizeBinder:
				out[n.Name] = true
			case *syntax.TypeParam:
				out[n.Name] = true
			}
			return true
		})
	}
	return out
}

// arg is an argument: its value at run time and its static value.
type arg struct {
	x syntax.Expr
	v sv
}

// sizesInScope binds fb's size parameters: values of type i64 in its body
// (a lambda there may capture them).
func sizesInScope(env *denv, fb *syntax.FunBind) *denv {
	for _, tp := range fb.TypeParams {
		if tp.Kind == syntax.TPSize {
			env = env.bind(tp.Name, svDyn{i64})
		}
	}
	return env
}

// typeDim copies a dimension written in a type that only types (a
// parameter's, a result's, an ascription's): one that applies a function
// has no first-order spelling here and is written [] (a coercion's
// dimensions, which are checked when the program runs, are
// defunctionalised instead: see Coerce).
func (d *defunctionaliser) typeDim(x syntax.Expr) syntax.Expr {
	calls := false
	syntax.Inspect(x, func(n syntax.Node) bool {
		if o, ok := d.src.Info.Use(n); ok {
			switch o.Kind {
			case types.ObjIntrinsic:
				calls = true
			case types.ObjDecl:
				calls = calls || o.Fun == nil || len(o.Fun.Params) > 0
			}
		}
		return !calls
	})
	if calls {
		return nil
	}
	saved := d.cp.dimFn
	d.cp.dimFn = nil
	defer func() { d.cp.dimFn = saved }()
	return d.cp.expr(x)
}
