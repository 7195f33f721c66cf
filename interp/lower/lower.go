package lower

import (
	"errors"
	"fmt"
	"fut/interp/ir"
	"sort"
	"strconv"
	"strings"

	"fut/eval/value"
	"fut/interp/syntax"
	"fut/interp/types"
)

// Lowering takes the program that the source stages made (package
// interp/lower: no modules, no type parameters, functions only as the
// arguments of intrinsics) for one root, with the root's concrete
// arguments, and writes it in A-normal form: every call of a definition
// is inlined, tuples and records become lists of atoms (an array of
// tuples becomes a tuple of arrays), the intrinsics and built-in
// operators become the IR's operations. Every name is lowered by what the
// Resolver says it denotes, never by its spelling. Arrays that the root
// takes (or declared constants hold) become the program's parameters
// with their concrete shapes; scalars become constants. Whatever cannot be
// lowered yet gives a *NotLowered error so that the caller falls back to
// the reference evaluator.

// Globals answers for the values of declared constants.
type Globals interface {
	// Const is the value that the evaluator computed for the constant fb
	// (a def without parameters), when it has exactly one.
	Const(fb *syntax.FunBind) (value.Value, bool)
}

// Resolver is what the lowering asks the checker (types.Info implements
// it): the resolved type of an overloaded literal, the object that each
// use of a name denotes, the record fields a qualified name projects, and
// the size arguments of a use of a size-polymorphic function.
type Resolver interface {
	LitType(e syntax.Expr) (syntax.PrimType, bool)
	Use(n syntax.Node) (*types.Object, bool)
	Fields(v *syntax.Var) []string
	SizeArgs(v *syntax.Var) map[string]syntax.Expr
	TypeOf(e syntax.Expr) (types.Type, bool)
	PatType(p syntax.Pat) (types.Type, bool)
}

// NotLowered says why an expression was not lowered, and where.
type NotLowered struct {
	Reason string
	Where  string // file:line:col, or "" when unknown
}

func (e *NotLowered) Error() string {
	if e.Where == "" {
		return "not lowered: " + e.Reason
	}
	return "not lowered: " + e.Reason + " at " + e.Where
}

// IsNotLowered reports whether err is (or wraps) a *NotLowered.
func IsNotLowered(err error) bool {
	var nl *NotLowered
	return errors.As(err, &nl)
}

// LowerExpr lowers one checked expression. It returns the program and the
// arguments to run it on (the values of the free variables that became
// its parameters).
func LowerExpr(fset *syntax.FileSet, info Resolver, g Globals, e syntax.Expr) (prog *ir.Prog, args []value.Value, err error) {
	l := &lowerer{fset: fset, info: info, g: g, consts: map[*syntax.FunBind]lv{}}
	defer func() {
		if r := recover(); r != nil {
			nl, ok := r.(*NotLowered)
			if !ok {
				// A bug in the lowerer: report it, so that the caller
				// falls back to the reference evaluator.
				nl = &NotLowered{Reason: fmt.Sprintf("internal error in the lowerer: %v", r)}
			}
			prog, args, err = nil, nil, nl
		}
	}()
	b := &builder{l: l}
	v := l.expr(b, nil, e, value.NoPrim)
	res, ts := l.flatten(v, e)
	prog = &ir.Prog{Params: l.params, Ret: ts, Body: &ir.Body{Stms: b.stms, Res: res}}
	if err := ir.Verify(prog); err != nil {
		return nil, nil, &NotLowered{Reason: fmt.Sprintf("internal error: the lowered program is ill-formed: %v", err)}
	}
	return prog, l.args, nil
}

// LowerFun lowers a whole function (an entry point, say) applied to
// concrete arguments: its parameters become the program's, with the
// arguments' types and shapes, and the function's size parameters are
// bound to those shapes. The arguments to run the program on are returned
// (the flattened arguments, then any free variables).
func LowerFun(fset *syntax.FileSet, info Resolver, g Globals, fb *syntax.FunBind, args []value.Value) (prog *ir.Prog, runArgs []value.Value, err error) {
	if len(args) < len(fb.Params) {
		return nil, nil, fmt.Errorf("%s takes %d arguments, not %d", fb.Name, len(fb.Params), len(args))
	}
	l := &lowerer{fset: fset, info: info, g: g, consts: map[*syntax.FunBind]lv{}}
	defer func() {
		if r := recover(); r != nil {
			nl, ok := r.(*NotLowered)
			if !ok {
				// A bug in the lowerer: report it, so that the caller
				// falls back to the reference evaluator.
				nl = &NotLowered{Reason: fmt.Sprintf("internal error in the lowerer: %v", r)}
			}
			prog, runArgs, err = nil, nil, nl
		}
	}()
	if fset != nil {
		// the entry's own frame, as the reference path's backtrace ends
		l.frames = []string{fb.Name + " called at " + fset.Position(fb.Pos()).String()}
	}
	var env *lenv
	l.sizeScope = sizeParams(fb)
	for i, p := range fb.Params {
		env = l.bindPat(env, p, l.fromValue(paramBase(p, i), args[i], p))
	}
	l.sizeScope = nil
	b := &builder{l: l}
	v := l.expr(b, env, fb.Body, value.NoPrim)
	if extra := args[len(fb.Params):]; len(extra) > 0 {
		// A point-free definition (entry main = map f): its body is a
		// function, applied to the remaining arguments.
		lvs := make([]lv, len(extra))
		for i, a := range extra {
			lvs[i] = l.fromValue(fmt.Sprintf("arg%d", len(fb.Params)+i), a, fb)
		}
		v = l.apply(b, v, lvs, fb.Body)
	}
	res, ts := l.flatten(v, fb.Body)
	prog = &ir.Prog{Params: l.params, Ret: ts, Body: &ir.Body{Stms: b.stms, Res: res}}
	if err := ir.Verify(prog); err != nil {
		return nil, nil, &NotLowered{Reason: fmt.Sprintf("internal error: the lowered program is ill-formed: %v", err)}
	}
	return prog, l.args, nil
}

// paramBase names a parameter's IR variables after the pattern's first name.
func paramBase(p syntax.Pat, i int) string {
	for {
		switch q := p.(type) {
		case *syntax.PId:
			return q.Name
		case *syntax.PAscript:
			p = q.P
			continue
		case *syntax.PParen:
			p = q.P
			continue
		}
		return fmt.Sprintf("arg%d", i)
	}
}

// lv is a lowered value.
type lv interface{}

type (
	// lvAtom is one scalar or one array of scalars.
	lvAtom struct {
		a ir.Atom
		t ir.Type
	}
	// lvTuple is a tuple or record (names nil for a tuple), or, when rank
	// is above 0, an array of such with rank dimensions (an array of
	// tuples as a tuple of arrays: each leaf then has those dimensions
	// first).
	lvTuple struct {
		names []string
		elems []lv
		rank  int
		// sum, when set, makes this a value of a sum type: elems[0] is
		// the tag, then every constructor's payload (lower_sum.go).
		sum *sumLayout
	}
	// lvClosure is a lambda or a function definition with its environment.
	lvClosure struct {
		name   string
		params []syntax.Pat
		body   syntax.Expr
		env    *lenv
		args   []lv // applied so far
		// sizes are the function's size parameters, bound from the
		// arguments' shapes; sizeArgs those the call site gives.
		sizes    map[string]bool
		sizeArgs map[string]lv
	}
	// lvPath is an index or field section (.[i], .x) in its environment.
	lvPath struct {
		path []syntax.PathElem
		env  *lenv
	}
	// lvHole is a hole of a function type: the reference path fails where
	// it is, and the lowered program does too (an assertion), so its
	// results are never used.
	lvHole struct {
		t types.Type
	}
	// lvBuiltin is a prelude function or an operator, applied to args so far.
	lvBuiltin struct {
		name string
		args []lv
	}
)

// lenv is the lowering environment of local names.
type lenv struct {
	name string
	v    lv
	next *lenv
}

func (e *lenv) bind(name string, v lv) *lenv { return &lenv{name, v, e} }

// lookupHere finds name among the bindings that e adds to outer.
func (e *lenv) lookupHere(outer *lenv, name string) (lv, bool) {
	for x := e; x != nil && x != outer; x = x.next {
		if x.name == name {
			return x.v, true
		}
	}
	return nil, false
}

func (e *lenv) lookup(name string) (lv, bool) {
	for x := e; x != nil; x = x.next {
		if x.name == name {
			return x.v, true
		}
	}
	return nil, false
}

type lowerer struct {
	fset   *syntax.FileSet
	info   Resolver
	g      Globals
	consts map[*syntax.FunBind]lv // declared constants met so far
	// calls are the call sites of the functions being inlined, innermost
	// last (an error in the prelude is reported at the user's call).
	calls []syntax.Node
	// frames are the calls of the backtrace an error names ("f called at
	// file:line:col"), outermost first: the entry point's, then those of
	// the functions being inlined.
	frames []string
	// site is the expression being lowered, innermost: the statements
	// that can fail take their Where from it (see whereOf).
	site syntax.Node
	// sizeScope holds the size parameters of the function whose
	// parameters are being bound.
	sizeScope map[string]bool
	n         int
	params    []ir.Param
	args      []value.Value
	depth     int
}

type builder struct {
	l    *lowerer
	stms []*ir.Stm
}

func (l *lowerer) fail(n syntax.Node, format string, args ...any) {
	nl := &NotLowered{Reason: fmt.Sprintf(format, args...)}
	if n != nil && l.fset != nil && n.Pos().IsValid() {
		nl.Where = l.fset.Position(n.Pos()).String()
	}
	panic(nl)
}

func (l *lowerer) fresh(base string) string {
	if i := strings.LastIndexByte(base, '_'); i > 0 {
		if _, err := strconv.Atoi(base[i+1:]); err == nil {
			base = base[:i]
		}
	}
	base = strings.Map(func(r rune) rune {
		if r < 128 && ir.IsIdentChar(byte(r)) && r != '.' && r != '\'' {
			return r
		}
		return -1
	}, base)
	if base == "" || base[0] >= '0' && base[0] <= '9' {
		base = "t" + base
	}
	l.n++
	return base + "_" + strconv.Itoa(l.n)
}

// let binds one expression to fresh names of the given types.
func (b *builder) let(base string, e ir.Exp, ts ...ir.Type) []ir.Atom {
	pat := make([]ir.Param, len(ts))
	out := make([]ir.Atom, len(ts))
	for i, t := range ts {
		pat[i] = ir.Param{Name: b.l.fresh(base), T: t}
		out[i] = ir.V(pat[i].Name)
	}
	st := &ir.Stm{Pat: pat, E: e}
	if _, ok := e.(*ir.BinOpE); ir.CanFail(e) && (!ok || len(ts) == 1 && ts[0].Elem.IsInt()) {
		st.Where = b.l.whereOf(b.l.site)
	}
	b.stms = append(b.stms, st)
	return out
}

func (b *builder) let1(base string, e ir.Exp, t ir.Type) *lvAtom {
	return &lvAtom{b.let(base, e, t)[0], t}
}

// flatten lists the atoms of a value (first-order data only).
func (l *lowerer) flatten(v lv, at syntax.Node) ([]ir.Atom, []ir.Type) {
	var as []ir.Atom
	var ts []ir.Type
	var walk func(v lv)
	walk = func(v lv) {
		switch v := v.(type) {
		case *lvAtom:
			as = append(as, v.a)
			ts = append(ts, v.t)
		case *lvTuple:
			for _, e := range v.elems {
				walk(e)
			}
		default:
			l.fail(at, "a function value where data is needed")
		}
	}
	walk(v)
	return as, ts
}

// rebuild makes a value of the shape of tmpl from atoms (consumed in order).
// delta is +1 when each atom is an array of rows of tmpl's leaves, -1 when
// each is a row of them, 0 when they correspond one to one.
func rebuild(tmpl lv, atoms []ir.Atom, types []ir.Type, delta int) lv {
	k := 0
	var walk func(v lv) lv
	walk = func(v lv) lv {
		switch v := v.(type) {
		case *lvAtom:
			a := &lvAtom{atoms[k], types[k]}
			k++
			return a
		case *lvTuple:
			out := &lvTuple{names: v.names, rank: v.rank + delta, sum: v.sum}
			for _, e := range v.elems {
				out.elems = append(out.elems, walk(e))
			}
			return out
		}
		panic("rebuild of a function")
	}
	return walk(tmpl)
}

// fromValue makes a lowered value of a free variable's concrete value:
// its scalars and arrays become the program's parameters (a record's
// fields one by one), arrays with their concrete shapes.
func (l *lowerer) fromValue(name string, v value.Value, at syntax.Node) lv {
	switch v := v.(type) {
	case value.Prim:
		p := ir.Param{Name: l.fresh(name), T: ir.Scalar(v.T)}
		l.params = append(l.params, p)
		l.args = append(l.args, v)
		return &lvAtom{ir.V(p.Name), p.T}
	case value.Tuple:
		t := &lvTuple{}
		for i, x := range v {
			t.elems = append(t.elems, l.fromValue(fmt.Sprintf("%s_%d", name, i), x, at))
		}
		return t
	case *value.Record:
		t := &lvTuple{names: v.Names}
		for i, x := range v.Fields {
			t.elems = append(t.elems, l.fromValue(name+"_"+v.Names[i], x, at))
		}
		return t
	case *value.Array:
		switch v.Kind {
		case value.KPrim:
			shape := make([]ir.Atom, len(v.Shape))
			for i, d := range v.Shape {
				shape[i] = ir.I64(d)
			}
			t := ir.Type{Elem: v.T, Shape: shape}
			p := ir.Param{Name: l.fresh(name), T: t}
			l.params = append(l.params, p)
			l.args = append(l.args, v)
			return &lvAtom{ir.V(p.Name), t}
		case value.KTuple, value.KRecord:
			t := &lvTuple{names: v.Names, rank: len(v.Shape)}
			if v.Kind == value.KTuple {
				t.names = nil
			}
			for i, f := range v.Fields {
				t.elems = append(t.elems, l.fromValue(fmt.Sprintf("%s_%d", name, i), f, at))
			}
			return t
		}
	}
	l.fail(at, "the free variable %s holds a value of a kind the IR does not have (%T)", name, v)
	return nil
}

// sortRecord orders record fields as types.Record does: by name, numbers first.
func sortRecord(names []string, elems []lv) ([]string, []lv) {
	idx := make([]int, len(names))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return fieldLess(names[idx[a]], names[idx[b]]) })
	ns := make([]string, len(names))
	es := make([]lv, len(names))
	for i, k := range idx {
		ns[i], es[i] = names[k], elems[k]
	}
	return ns, es
}

func fieldLess(a, b string) bool {
	na, ea := strconv.Atoi(a)
	nb, eb := strconv.Atoi(b)
	if ea == nil && eb == nil {
		return na < nb
	}
	if (ea == nil) != (eb == nil) {
		return ea == nil
	}
	return a < b
}

func (t *lvTuple) field(name string) (lv, bool) {
	if t.names == nil {
		i, err := strconv.Atoi(name)
		if err != nil || i < 0 || i >= len(t.elems) {
			return nil, false
		}
		return t.elems[i], true
	}
	for i, n := range t.names {
		if n == name {
			return t.elems[i], true
		}
	}
	return nil, false
}
