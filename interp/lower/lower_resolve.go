package lower

import (
	"context"
	"fmt"

	"fut/interp/ir"

	"fut/eval/value"
	"fut/interp/syntax"
	"fut/interp/types"
)

// Names are lowered by what they were resolved to (the checker's Uses,
// carried through the source stages), never by their spelling: a local
// variable is looked up in the lowering environment, which mirrors the
// source's scopes; a definition of the staged program (a copy of the
// user's, the prelude's, a module's or a functor instance's declaration)
// is inlined from its definition; an intrinsic or one of the checker's
// built-in operators becomes the IR's operation. So a user's `def (+) …`,
// `module f32 = …` or parameter named `map` means what it means in the
// source, as on the reference path.

// variable lowers a use of a name, with the record fields it projects.
func (l *lowerer) variable(b *builder, env *lenv, e *syntax.Var) lv {
	obj, ok := l.info.Use(e)
	if !ok {
		l.fail(e, "the name %s has no resolution from the checker", e.Name)
	}
	v := l.object(b, env, obj, e, e)
	return l.projectPath(e, v, l.info.Fields(e))
}

// use lowers the name that the node at (an operator of a binary
// expression, a section) denotes.
func (l *lowerer) use(b *builder, env *lenv, at syntax.Node) lv {
	obj, ok := l.info.Use(at)
	if !ok {
		l.fail(at, "the operator has no resolution from the checker")
	}
	return l.object(b, env, obj, at, nil)
}

// local is the value of a local variable.
func (l *lowerer) local(env *lenv, name string, at syntax.Node) lv {
	v, ok := env.lookup(name)
	if !ok {
		l.fail(at, "the local name %s has no value here", name)
	}
	return v
}

// object lowers what obj denotes. v is the use, when it is a variable (for
// the size arguments of a size-polymorphic function).
func (l *lowerer) object(b *builder, env *lenv, obj *types.Object, at syntax.Node, v *syntax.Var) lv {
	if obj.Kind == types.ObjLocal {
		return l.local(env, obj.Name, at)
	}
	o := obj
	switch o.Kind {
	case types.ObjDecl:
		fb := o.Fun
		if len(fb.Params) == 0 {
			return l.constant(b, fb, at)
		}
		c := &lvClosure{name: l.declName(fb), params: fb.Params, body: fb.Body, sizes: sizeParams(fb)}
		if v != nil && len(c.sizes) > 0 {
			c.sizeArgs = l.sizeArgs(b, env, v)
		}
		return c
	case types.ObjIntrinsic:
		if _, ok := intrinsicArity(o.Name); !ok {
			l.fail(at, "the intrinsic %s is not known to the IR", o.Name)
		}
		return &lvBuiltin{name: o.Name}
	case types.ObjOp:
		return &lvBuiltin{name: o.Name}
	}
	l.fail(at, "%s resolves to a %s, which the IR does not take", obj.Name, o.Kind)
	return nil
}

// declName is the name the source gave fb, as backtraces name it (a
// stage of interp/lower renames the definitions it copies).
func (l *lowerer) declName(fb *syntax.FunBind) string {
	if n, ok := l.info.(interface{ DeclName(*syntax.FunBind) string }); ok {
		return n.DeclName(fb)
	}
	return fb.Name
}

// sizeParams lists a function's size parameters.
func sizeParams(fb *syntax.FunBind) map[string]bool {
	var out map[string]bool
	for _, tp := range fb.TypeParams {
		if tp.Kind == syntax.TPSize {
			if out == nil {
				out = map[string]bool{}
			}
			out[tp.Name] = true
		}
	}
	return out
}

// sizeArgs lowers the size arguments that the checker worked out for the
// use v, in the environment of the use.
func (l *lowerer) sizeArgs(b *builder, env *lenv, v *syntax.Var) map[string]lv {
	exprs := l.info.SizeArgs(v)
	if len(exprs) == 0 {
		return nil
	}
	out := map[string]lv{}
	for name, x := range exprs {
		if a, ok := l.sizeArg(b, env, x); ok {
			out[name] = &lvAtom{a, ir.Scalar(value.I64)}
		}
	}
	return out
}

// sizeArg lowers a size expression that the checker wrote for a use (it
// names sizes in scope at the use, as the reference evaluator reads them:
// types.SizeAsExpr): constants, size names and i64 arithmetic. ok is false
// for anything else (the function's parameters may still bind the size).
func (l *lowerer) sizeArg(b *builder, env *lenv, x syntax.Expr) (ir.Atom, bool) {
	switch x := x.(type) {
	case *syntax.IntLit:
		return ir.I64(x.Value.Int64()), true
	case *syntax.Paren:
		return l.sizeArg(b, env, x.X)
	case *syntax.Var:
		if len(x.Name.Quals) > 0 {
			return ir.Atom{}, false
		}
		v, ok := env.lookup(x.Name.Name)
		if !ok {
			return ir.Atom{}, false
		}
		a, ok := v.(*lvAtom)
		if !ok || a.t.Rank() != 0 || !a.t.Elem.IsInt() {
			return ir.Atom{}, false
		}
		return l.toI64(b, a), true
	case *syntax.Binary:
		if len(x.Op.Quals) > 0 {
			return ir.Atom{}, false
		}
		switch x.Op.Name {
		case "+", "-", "*", "/", "%", "//", "%%":
		default:
			return ir.Atom{}, false
		}
		p, ok1 := l.sizeArg(b, env, x.L)
		q, ok2 := l.sizeArg(b, env, x.R)
		if !ok1 || !ok2 {
			return ir.Atom{}, false
		}
		return l.arith(b, x.Op.Name, p, q), true
	}
	return ir.Atom{}, false
}

// tryLower lowers x, or gives nil if it cannot be lowered (statements it
// emitted before failing are dropped).
func (l *lowerer) tryLower(b *builder, env *lenv, x syntax.Expr) (r lv) {
	tb := &builder{l: l}
	defer func() {
		if p := recover(); p != nil {
			if _, ok := p.(*NotLowered); !ok {
				panic(p)
			}
			r = nil
			return
		}
		b.stms = append(b.stms, tb.stms...)
	}()
	return l.expr(tb, env, x, value.NoPrim)
}

// constant lowers a declared constant: the value the evaluator computed
// for it, as a parameter of the program. A constant whose value the
// program cannot take as it is (it holds a function, which the source
// stages made the record of its environment, or a value of a sum type)
// is the value of its lowered definition, computed once here (loaded):
// the reference path computed the constant once when it loaded the
// program and charges its uses nothing, so the plan must not compute it
// again on every call. A constant without one value (inside a parametric
// module), or whose definition the IR's evaluator cannot run here, is
// its definition, lowered where it is used.
func (l *lowerer) constant(b *builder, fb *syntax.FunBind, at syntax.Node) lv {
	if v, ok := l.consts[fb]; ok {
		return v
	}
	val, known := l.g.Const(fb)
	if known && representable(val) {
		v := l.fromConst(fb.Name, val, at)
		l.consts[fb] = v
		return v
	}
	l.depth++
	if l.depth > maxInlineDepth {
		l.fail(at, "recursion too deep while lowering the constant %s", fb.Name)
	}
	defer func() { l.depth-- }()
	if known {
		if v, ok := l.loaded(fb, at); ok {
			l.consts[fb] = v
			return v
		}
	}
	return l.expr(b, nil, fb.Body, value.NoPrim)
}

// loaded lowers the definition of the constant fb on its own and runs it
// with the IR's evaluator: its scalars become constants and its arrays
// parameters, as fromConst makes them of a value the evaluator gave. ok
// is false where the definition's value is not data (a function the
// stages left) or the run fails.
func (l *lowerer) loaded(fb *syntax.FunBind, at syntax.Node) (v lv, ok bool) {
	tb := &builder{l: l}
	def := l.expr(tb, nil, fb.Body, value.NoPrim)
	if !isData(def) {
		return nil, false
	}
	res, _ := l.flatten(def, at)
	prog := &ir.Prog{Params: append([]ir.Param(nil), l.params...), Body: &ir.Body{Stms: tb.stms, Res: res}}
	vals, err := ir.EvalAll(context.Background(), prog, append([]value.Value(nil), l.args...))
	if err != nil {
		return nil, false
	}
	atoms := make([]ir.Atom, len(vals))
	types := make([]ir.Type, len(vals))
	for i, x := range vals {
		leaf, ok := l.fromConst(fmt.Sprintf("%s_%d", fb.Name, i), x, at).(*lvAtom)
		if !ok {
			return nil, false
		}
		atoms[i], types[i] = leaf.a, leaf.t
	}
	return rebuild(def, atoms, types, 0), true
}

// isData reports whether v is first-order data: scalars and arrays, in
// tuples and records (and sum types, whose lowered form is one too).
func isData(v lv) bool {
	switch v := v.(type) {
	case *lvAtom:
		return true
	case *lvTuple:
		for _, e := range v.elems {
			if !isData(e) {
				return false
			}
		}
		return true
	}
	return false
}

// fromConst is fromValue for a declared constant, whose scalars become the
// IR's constants (so that they fold) and whose arrays become parameters.
func (l *lowerer) fromConst(name string, v value.Value, at syntax.Node) lv {
	switch v := v.(type) {
	case value.Prim:
		return &lvAtom{ir.C(v), ir.Scalar(v.T)}
	case value.Tuple:
		t := &lvTuple{}
		for i, x := range v {
			t.elems = append(t.elems, l.fromConst(fmt.Sprintf("%s_%d", name, i), x, at))
		}
		return t
	case *value.Record:
		t := &lvTuple{names: v.Names}
		for i, x := range v.Fields {
			t.elems = append(t.elems, l.fromConst(name+"_"+v.Names[i], x, at))
		}
		return t
	}
	return l.fromValue(name, v, at)
}

// representable reports whether a constant's value can be passed to the
// program as it is: functions and values of sum types (whose lowered form
// needs the type, not just the value) are lowered from their definition.
func representable(v value.Value) bool {
	switch v := v.(type) {
	case *value.Fun:
		return false
	case value.Tuple:
		for _, x := range v {
			if !representable(x) {
				return false
			}
		}
	case *value.Record:
		for _, x := range v.Fields {
			if !representable(x) {
				return false
			}
		}
	case *value.Array:
		switch v.Kind {
		case value.KPrim:
			return true
		case value.KTuple, value.KRecord:
			for _, f := range v.Fields {
				if !representable(f) {
					return false
				}
			}
			return true
		}
		return false
	case value.Prim:
		return true
	default:
		return false
	}
	return true
}
