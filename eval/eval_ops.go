package eval

import (
	"errors"

	"fut/eval/value"
	"fut/interp/syntax"
	"fut/interp/types"
)

func (in *Interp) litCache(x syntax.Expr) (value.Prim, bool) {
	p, ok := in.lits[x]
	return p, ok
}

func (in *Interp) setLitCache(x syntax.Expr, p value.Prim) {
	in.lits = bounded(in.lits)
	in.lits[x] = p
}

// nodeCacheLimit bounds the session's caches keyed by syntax nodes (literal
// values, operators' resolutions, bodies the kernel compilers gave up
// on): each REPL entry brings nodes of its own, and a cache that kept
// them all would grow with the session. A full cache starts again empty
// (what it held is worked out again where needed).
var nodeCacheLimit = 1 << 16

// bounded is m, or a fresh map where m is nil or full.
func bounded[K comparable, V any](m map[K]V) map[K]V {
	if m == nil || len(m) >= nodeCacheLimit {
		return map[K]V{}
	}
	return m
}

func (t *thread) evalVar(x *syntax.Var, e *env) (value.Value, error) {
	v, err := t.evalVar1(x, e)
	if err != nil {
		return nil, err
	}
	if f, ok := v.(*value.Fun); ok {
		if c, ok := f.Impl.(*closure); ok && len(c.ctxSizes) > 0 {
			if sa, ok := t.in.info.(SizeArger); ok {
				if m := sa.SizeArgs(x); len(m) > 0 {
					if v, err = t.withSizes(c, m, e); err != nil {
						return nil, err
					}
				}
			}
			if len(c.params) == 0 {
				// a size-polymorphic constant: evaluate it now
				c = v.(*value.Fun).Impl.(*closure)
				return c.call(t, nil, x.Pos())
			}
		}
	}
	return v, nil
}

// withSizes returns c with its context sizes bound from the checker's
// instantiation (see SizeArger). Computing a size is free (sizes are
// part of the type, not of the work), and a size that cannot be computed
// here is left out: the body then reports the unknown name where it
// needs it.
func (t *thread) withSizes(c *closure, m map[string]syntax.Expr, e *env) (value.Value, error) {
	if walkStats != nil && t.wc == nil {
		// from compiled code or a SOAC's fast path (fast.go, kernel*.go)
		prev := t.enterWalk(walkReason("context sizes of a use"))
		defer func() { t.wc = prev }()
	}
	env := c.env
	w, d, pk1, pkP, live := t.W, t.D, t.pk1, t.pkP, t.live
	for _, name := range c.ctxSizes {
		x, ok := m[name]
		if !ok {
			continue
		}
		v, err := t.evalCached(x, e)
		if err != nil {
			continue
		}
		if p, ok := v.(value.Prim); ok && p.T.IsInt() {
			env = env.bind(name, value.I64Val(p.Int()))
		}
	}
	t.W, t.D, t.pk1, t.pkP, t.live = w, d, pk1, pkP, live
	if env == c.env {
		return mkFun(c), nil
	}
	c2 := *c
	c2.env = env
	c2.flat = nil // its flat kernels may hold values of c's environment
	return mkFun(&c2), nil
}

func (t *thread) evalVar1(x *syntax.Var, e *env) (value.Value, error) {
	q := x.Name
	if len(q.Quals) == 0 {
		if v, ok := e.lookup(q.Name); ok {
			return v, nil
		}
		if op, ok := value.LookupBinOp(q.Name); ok {
			return mkFun(&opFn{op: op, name: q.Name}), nil
		}
		return nil, t.errf(x.Pos(), "unknown name %s", q.Name)
	}
	// r.x.y on a variable holding a record
	if v, ok := e.lookup(q.Quals[0]); ok {
		if _, isMod := e.lookupModLocalFirst(q.Quals[0]); !isMod {
			var err error
			for _, f := range append(q.Quals[1:len(q.Quals):len(q.Quals)], q.Name) {
				if v, err = t.field(v, f, x.Pos()); err != nil {
					return nil, err
				}
			}
			return v, nil
		}
	}
	m, ok := e.lookupMod(q.Quals[0])
	if !ok {
		return nil, t.errf(x.Pos(), "unknown module %s", q.Quals[0])
	}
	// M.N.r.f: modules as far as they go, then a value's fields
	path := append(q.Quals[1:len(q.Quals):len(q.Quals)], q.Name)
	for i, n := range path {
		if sub, ok := m.mods[n]; ok && i < len(path)-1 {
			m = sub
			continue
		}
		v, ok := m.vals[n]
		if !ok {
			if op, isOp := value.LookupBinOp(n); isOp && i == len(path)-1 {
				return mkFun(&opFn{op: op, name: n}), nil
			}
			break
		}
		var err error
		for _, f := range path[i+1:] {
			if v, err = t.field(v, f, x.Pos()); err != nil {
				return nil, err
			}
		}
		return v, nil
	}
	return nil, t.errf(x.Pos(), "unknown name %s", q)
}

// lookupModLocalFirst reports whether name is a module and no local
// variable shadows it.
func (e *env) lookupModLocalFirst(name string) (*module, bool) {
	if _, ok := e.lookupLocal(name); ok {
		return nil, false
	}
	if _, ok := e.sc.lookup(name); ok {
		// a value and a module of the same name: the module wins for a
		// qualified name only if the value is not a record
		m, ok := e.sc.lookupMod(name)
		return m, ok
	}
	return e.sc.lookupMod(name)
}

func (t *thread) lookupModPath(quals []string, e *env, pos syntax.Pos) (*module, error) {
	m, ok := e.lookupMod(quals[0])
	if !ok {
		return nil, t.errf(pos, "unknown module %s", quals[0])
	}
	for _, q := range quals[1:] {
		sub, ok := m.mods[q]
		if !ok {
			return nil, t.errf(pos, "module has no submodule %s", q)
		}
		m = sub
	}
	return m, nil
}

func openInto(sc *scope, m *module) {
	for k, v := range m.vals {
		sc.vals[k] = v
		delete(sc.consts, k)
		if e := m.consts[k]; e != nil {
			sc.setConst(k, e)
		}
	}
	for k, v := range m.mods {
		sc.mods[k] = v
	}
	for k, v := range m.types {
		sc.types[k] = v
	}
	for k, v := range m.sigs {
		if sc.sigs == nil {
			sc.sigs = map[string]syntax.ModTypeExp{}
		}
		sc.sigs[k] = v
	}
}

// field projects a record or tuple field.
func (t *thread) field(v value.Value, name string, pos syntax.Pos) (value.Value, error) {
	switch v := v.(type) {
	case *value.Record:
		if f, ok := v.Field(name); ok {
			return f, nil
		}
	case value.Tuple:
		if k, ok := tupleIndex(name); ok && k < len(v) {
			return v[k], nil
		}
	}
	return nil, t.errf(pos, "value has no field %s", name)
}

func tupleIndex(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// isBuiltinOp decides, once per node, whether an unqualified operator
// refers to the built-in overloaded operator (no binding of that name is
// in scope there). Scoping is lexical, so the answer never changes.
func (t *thread) isBuiltinOp(node syntax.Node, q syntax.QualName, backtick bool, e *env) (value.BinOp, bool) {
	if backtick || len(q.Quals) > 0 {
		return 0, false
	}
	op, ok := value.LookupBinOp(q.Name)
	if !ok {
		return 0, false
	}
	if r, seen := t.in.opCache[node]; seen {
		return op, r
	}
	if r, ok := t.in.info.(Resolver); ok {
		// the checker's resolution says whether it is the built-in
		if obj, ok := r.Use(node); ok {
			builtin := obj.Kind == types.ObjOp
			t.in.opCache = bounded(t.in.opCache)
			t.in.opCache[node] = builtin
			return op, builtin
		}
	}
	_, bound := e.lookup(q.Name)
	t.in.opCache = bounded(t.in.opCache)
	t.in.opCache[node] = !bound
	return op, !bound
}

func (t *thread) opValue(q syntax.QualName, backtick bool, e *env, pos syntax.Pos) (value.Value, error) {
	if op, ok := value.LookupBinOp(q.Name); ok && len(q.Quals) == 0 && !backtick {
		if _, bound := e.lookup(q.Name); !bound {
			return mkFun(&opFn{op: op, name: q.Name}), nil
		}
	}
	return t.evalVar(&syntax.Var{Loc: syntax.Loc{Span: syntax.Span{Start: pos, End: pos}}, Name: q}, e)
}

// binop applies a built-in operator to two values.
func (t *thread) binop(op value.BinOp, l, r value.Value, pos syntax.Pos) (value.Value, error) {
	lp, ok1 := l.(value.Prim)
	rp, ok2 := r.(value.Prim)
	if !ok1 || !ok2 {
		if isDual(l) || isDual(r) {
			return t.dualBinop(op, l, r, pos)
		}
		switch op {
		case value.OpEq:
			return value.MkBool(value.Identical(l, r)), nil
		case value.OpNeq:
			return value.MkBool(!value.Identical(l, r)), nil
		}
		return nil, t.errf(pos, "operator applied to values that are not scalars")
	}
	v, err := t.primOp(op, lp, rp, pos)
	if err != nil {
		return nil, err
	}
	return v, nil
}

// primOp is binop on two scalars.
func (t *thread) primOp(op value.BinOp, lp, rp value.Prim, pos syntax.Pos) (value.Prim, error) {
	v, err := binPrim(op, lp, rp)
	if err != nil {
		if errors.Is(err, value.ErrDivByZero) {
			return v, t.errf(pos, "division by zero")
		}
		return v, t.errf(pos, "%v", err)
	}
	return v, nil
}

// unifyPrims reconciles operands of different types, which only happens
// when literal types were not resolved by a checker: a float wins over an
// integer, and a non-default integer type over i32.
func unifyPrims(a, b value.Prim) (value.Prim, value.Prim) {
	switch {
	case a.T.IsFloat() && !b.T.IsFloat():
		return a, value.Convert(b, a.T)
	case b.T.IsFloat() && !a.T.IsFloat():
		return value.Convert(a, b.T), b
	case a.T == value.I32 || a.T == value.F64:
		return value.Convert(a, b.T), b
	}
	return a, value.Convert(b, a.T)
}

// funClosure makes the closure of a function binding.
func (t *thread) funClosure(fb *syntax.FunBind, e *env) value.Value {
	var sizes []string
	for _, tp := range fb.TypeParams {
		if tp.Kind == syntax.TPSize {
			sizes = append(sizes, tp.Name)
		}
	}
	return &value.Fun{Name: fb.Name, Impl: &closure{name: fb.Name, params: fb.Params, sizeParams: sizes,
		ctxSizes: contextSizes(sizes, fb.Params), body: fb.Body, env: e, defPos: fb.Pos(), decl: fb}}
}
