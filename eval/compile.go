package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Compiled code. The body of a closure is compiled once, the first time
// it is called, and an expression evaluated outside any function (a
// top-level expression, a constant's definition, a size or an index the
// evaluator works out in an environment: evalCompiled, evalCached) as
// the body of a closure without parameters, into a tree of Go closures
// (cexpr) whose local variables live in the slots of a frame: a parameter or a
// let-bound name is resolved to its slot at compile time, so that a use
// is an index, not a walk along the environment, and a call binds its
// arguments into slots instead of allocating one environment node per
// name. Names that the body does not bind (the closure's free variables:
// module-level definitions, modules, captured locals) are looked up in
// the closure's environment.
//
// Compiled code is the only evaluator of expressions. It charges what
// COST_MODEL.md says, step by step in the order the tree walker it
// replaced (issue 18) charged, through the helpers of eval_*.go that
// both shared; the values, costs and errors with positions that the
// walker gave on the differential tests' programs are kept in
// testdata/walker (TestCompiledAgrees, TestFlatAgrees,
// TestBreakLocalsAgree; golden_test.go), and over the examples and
// Futhark's tests the figures of the two were the same. Every kind of
// expression and pattern compiles; what cannot run (a literal the
// evaluator cannot type, a pattern or node kind that syntax does not
// have) gives its error where it is evaluated. A few helpers still work
// in an environment built from the frame (envAt; FUT_WALKSTATS,
// walkstats.go, counts their entries): sizes bound through an
// abbreviation or a dimension n + m, and by let [n] and loop [n], are
// bound by bindPat, then moved into slots (compile_pat.go).

// cexpr evaluates one compiled expression in the frame at bp.
type cexpr func(t *thread, bp int) (value.Value, error)

// cbind binds a value to a compiled pattern's slots.
type cbind func(t *thread, bp int, v value.Value) error

// A call's locals are a window of the thread's slot stack (t.slots)
// from its base bp, so that a call allocates nothing; the body's free
// variables are looked up in t.fenv, the called closure's environment,
// which the call sets and restores. A closure made inside a body copies
// what it sees into an environment (envAt), so nothing outlives its
// window.

// cscope maps the names bound so far in a body to their slots, innermost
// first.
type cscope struct {
	name string
	slot int
	next *cscope
	// maybe marks a size parameter's slot: nil where no argument's
	// shape gave the size (sizedParams)
	maybe bool
}

func (s *cscope) lookup(name string) (int, bool) {
	if x := s.find(name); x != nil {
		return x.slot, true
	}
	return 0, false
}

func (s *cscope) find(name string) *cscope {
	for x := s; x != nil; x = x.next {
		if x.name == name {
			return x
		}
	}
	return nil
}

// envAt is the environment (as bindPat and checkType read one) at a
// point whose scope is sc: the closure's environment with the frame's
// bindings, outermost first.
func (t *thread) envAt(bp int, sc *cscope) *env {
	var buf [16]*cscope
	chain := buf[:0]
	for x := sc; x != nil; x = x.next {
		chain = append(chain, x)
	}
	e := t.fenv
	for i := len(chain) - 1; i >= 0; i-- {
		e = e.bind(chain[i].name, t.slots[bp+chain[i].slot])
	}
	return e
}

// code is a compiled closure body.
type code struct {
	nslots int
	params []cbind
	// bindArgs, where set, runs first: it gives the sizes of sizedFast
	// their initial values, or binds all the arguments where params is
	// empty (sizedParams)
	bindArgs func(t *thread, bp int, c *closure, args []value.Value) error
	psc      *cscope // the scope after the parameters
	body     cexpr

	res     *resolution  // for the lane back end (compile_res.go), when asked
	wcEmpty *walkCounter // FUT_WALKSTATS (walkstats.go)
	// bare marks the code of an expression (evalCompiled): its value is
	// the expression's, with no function result's empty arrays to type
	bare bool
}

// codeOf returns c's compiled body, compiling it on first use. The code
// belongs to the closure (a lambda made by compiled code shares its
// node's), so that it and what it caches live no longer than the
// closure: a table by node would keep every REPL entry's code.
func (t *thread) codeOf(c *closure) *code {
	if c.code == nil {
		c.code = t.compileClosure(c)
	}
	return c.code
}

func (t *thread) compileClosure(c *closure) *code {
	return t.compileClosureRes(c, nil)
}

// compileClosureRes compiles c's body, recording what it resolves in res
// where res is not nil.
func (t *thread) compileClosureRes(c *closure, res *resolution) *code {
	cc := &ccomp{t: t, env: c.env, res: res}
	k := &code{}
	var sc *cscope
	if len(c.sizeParams) > 0 {
		if k.params, sc, k.bindArgs = cc.sizedFast(c); k.bindArgs == nil {
			if res != nil {
				*res = *newResolution() // what the attempt noted, in slots given up
			}
			cc = &ccomp{t: t, env: c.env, res: res}
			sc, k.bindArgs = cc.sizedParams(c)
		}
	}
	for _, p := range c.params {
		if len(c.sizeParams) > 0 {
			break // bound above
		}
		b, sc2 := cc.pat(p, sc)
		k.params = append(k.params, b)
		sc = sc2
	}
	k.psc = sc
	k.body = cc.expr(c.body, sc)
	k.wcEmpty = walkReason("type of an empty array result")
	k.nslots = cc.nslots
	return k
}

// evalCompiled evaluates x in e, compiled as the body of a closure
// without parameters: a top-level expression
// (EvalExpr) or the definition of a constant (decl). The code serves
// this one evaluation and goes with it; the lambdas it makes keep their
// own.
func (t *thread) evalCompiled(x syntax.Expr, e *env) (value.Value, error) {
	return t.runExpr(&closure{body: x, env: e})
}

// evalCached is evalCompiled for an expression evaluated again and again
// in different environments (a size argument the checker wrote for a
// use, a dimension in a type, an index of (.[i])): its code is kept by
// node, in a bounded table (nodeCacheLimit), as a lambda's code is
// shared by the closures made from it.
func (t *thread) evalCached(x syntax.Expr, e *env) (value.Value, error) {
	c := &closure{body: x, env: e}
	k, ok := t.in.exprCode[x]
	if !ok {
		k = t.compileClosure(c)
		t.in.exprCode = bounded(t.in.exprCode)
		t.in.exprCode[x] = k
	}
	c.code = k
	return t.runExpr(c)
}

// runExpr runs the body of c, a closure without parameters, as the value
// of an expression.
func (t *thread) runExpr(c *closure) (value.Value, error) {
	k := t.codeOf(c)
	k.bare = true
	return k.run(t, c, nil)
}

// run calls a compiled body with the closure's arguments; the caller
// has pushed the call's frame.
func (k *code) run(t *thread, c *closure, args []value.Value) (value.Value, error) {
	t.depth++
	if t.depth > t.in.opts.MaxDepth {
		t.depth--
		return nil, t.errf(c.body.Pos(), "evaluation nested too deeply (more than %d levels)", t.in.opts.MaxDepth)
	}
	bp := t.grow(k.nslots)
	fenv := t.fenv
	t.fenv = c.env
	var wc *walkCounter
	if walkStats != nil {
		wc, t.wc = t.wc, nil // compiled code runs
	}
	v, err := k.enter(t, c, bp, args)
	if walkStats != nil {
		t.wc = wc
	}
	t.fenv = fenv
	clear(t.slots[bp:t.sp]) // hold no garbage
	t.sp = bp
	t.depth--
	return v, err
}

// grow reserves n slots on top of the slot stack and returns their base.
func (t *thread) grow(n int) int {
	bp := t.sp
	if need := bp + n; need > len(t.slots) {
		t.slots = append(t.slots, make([]value.Value, need-len(t.slots)+64)...)
	}
	t.sp += n
	return bp
}

func (k *code) enter(t *thread, c *closure, bp int, args []value.Value) (value.Value, error) {
	if k.bindArgs != nil {
		if err := k.bindArgs(t, bp, c, args); err != nil {
			return nil, err
		}
	}
	for i, b := range k.params {
		if err := b(t, bp, args[i]); err != nil {
			return nil, err
		}
	}
	v, err := k.body(t, bp)
	if err == nil && !k.bare && hasEmpty(v) {
		prev := t.enterWalk(k.wcEmpty)
		v = t.fixEmptyResult(v, c.body, t.envAt(bp, k.psc))
		t.wc = prev
	}
	return v, err
}

type ccomp struct {
	t      *thread
	env    *env // the environment of the closure being compiled
	nslots int
	res    *resolution // where it records what it resolves (compile_res.go)
}

func (cc *ccomp) slot() int { s := cc.nslots; cc.nslots++; return s }

// expr compiles x in scope sc; it never fails: what cannot run gives
// its error where it is evaluated.
func (cc *ccomp) expr(x syntax.Expr, sc *cscope) cexpr {
	c := cc.expr1(x, sc)
	if walkStats != nil {
		switch x.(type) {
		case *syntax.Paren, *syntax.Ascript:
		default:
			c = walkStats.counted(c)
		}
	}
	return c
}

func (cc *ccomp) expr1(x syntax.Expr, sc *cscope) cexpr {
	switch x := x.(type) {
	case *syntax.Paren:
		return cc.expr(x.X, sc)
	case *syntax.Ascript:
		return cc.expr(x.X, sc)
	case *syntax.Var:
		return cc.variable(x, sc)
	case *syntax.IntLit, *syntax.FloatLit, *syntax.CharLit, *syntax.BoolLit:
		return cc.literal(x, sc)
	case *syntax.Negate:
		if isLiteral(x.X) {
			return cc.literal(x, sc)
		}
		return cc.unary(x, sc, (*thread).negate)
	case *syntax.Not:
		return cc.unary(x, sc, (*thread).not)
	case *syntax.Binary:
		return cc.binary(x, sc)
	case *syntax.Apply:
		return cc.apply(x, sc)
	case *syntax.TupleLit:
		return cc.tuple(x, sc)
	case *syntax.RecordLit:
		return cc.record(x, sc)
	case *syntax.Project:
		return cc.project(x, sc)
	case *syntax.Lambda:
		var k *code // compiled on the first call of the first closure
		return func(t *thread, bp int) (value.Value, error) {
			c := &closure{params: x.Params, body: x.Body, env: t.envAt(bp, sc)}
			if k == nil {
				k = t.compileClosure(c)
			}
			c.code = k
			return mkFun(c), nil
		}
	case *syntax.If:
		return cc.ifExpr(x, sc)
	case *syntax.LetIn:
		return cc.letIn(x, sc)
	case *syntax.OpSection:
		return cc.opSection(x, sc)
	case *syntax.Index:
		return cc.index(x, sc)
	case *syntax.ArrayLit:
		if len(x.Elems) == 0 {
			return cc.emptyArray(x, sc)
		}
		els := cc.exprs(x.Elems, sc)
		return func(t *thread, bp int) (value.Value, error) {
			base := t.live
			vals := make([]value.Value, len(els))
			for i, el := range els {
				v, err := el(t, bp)
				if err != nil {
					return nil, err
				}
				vals[i] = v
			}
			return t.arrayOf(x, vals, base)
		}
	case *syntax.Loop:
		return cc.loop(x, sc)
	case *syntax.Update:
		return cc.update(x, sc)
	case *syntax.LetWith:
		return cc.letWith(x, sc)
	case *syntax.Assert:
		return cc.assert(x, sc)
	case *syntax.Match:
		return cc.match(x, sc)
	case *syntax.LeftSection:
		return cc.section(x.Op, true, x.L, x.Pos(), sc)
	case *syntax.RightSection:
		return cc.section(x.Op, false, x.R, x.Pos(), sc)
	case *syntax.StringLit:
		return cc.stringLit(x)
	case *syntax.Range:
		return cc.rangeExpr(x, sc)
	case *syntax.Coerce:
		return cc.coerce(x, sc)
	case *syntax.Attr:
		return cc.attr(x, sc)
	case *syntax.Constr:
		return cc.constr(x, sc)
	case *syntax.ProjectSection:
		path := make([]syntax.PathElem, len(x.Fields))
		for i, f := range x.Fields {
			path[i] = syntax.PathElem{Field: f, Span: x.Span}
		}
		return cc.projSection(path, sc)
	case *syntax.IndexSection:
		return cc.projSection(x.Path, sc)
	case *syntax.QualParen:
		return cc.qualParen(x, sc)
	case *syntax.Hole:
		return func(t *thread, bp int) (value.Value, error) {
			return nil, t.errf(x.Pos(), "Hole encountered: ??? cannot be evaluated")
		}
	case *syntax.LetFun:
		s := cc.slot()
		body := cc.expr(x.Body, &cscope{name: x.Fun.Name, slot: s, next: sc})
		return func(t *thread, bp int) (value.Value, error) {
			t.slots[bp+s] = t.funClosure(x.Fun, t.envAt(bp, sc))
			return body(t, bp)
		}
	}
	return cc.cannot(x) // syntax has no other kind of expression
}

// cannot is the error for a node the compiler does not know, where it is
// evaluated.
func (cc *ccomp) cannot(x syntax.Expr) cexpr {
	return func(t *thread, bp int) (value.Value, error) {
		return nil, t.errf(x.Pos(), "cannot evaluate %T", x)
	}
}

// emptyArray compiles [], typed by the checker or, where it could not
// be, by its use in the frame's environment (fixEmpty).
func (cc *ccomp) emptyArray(x *syntax.ArrayLit, sc *cscope) cexpr {
	wc := walkReason("type of an empty array literal")
	return func(t *thread, bp int) (value.Value, error) {
		base := t.live
		r := t.emptyLit(x)
		var v value.Value = r
		if r.Untyped {
			prev := t.enterWalk(wc)
			v = t.fixEmpty(r, x, t.envAt(bp, sc))
			t.wc = prev
		}
		t.freshStep(base, 0, v)
		return v, nil
	}
}

// literal is a literal's value, boxed once, charged as its form says
// (a scalar step).
func (cc *ccomp) literal(x syntax.Expr, sc *cscope) cexpr {
	p, err := cc.t.literalValue(x)
	if err != nil {
		// the error, where it is evaluated
		return func(t *thread, bp int) (value.Value, error) {
			_, err := t.literalValue(x)
			return nil, err
		}
	}
	cc.noteLit(x, p)
	var v value.Value = p
	f, _ := formOf(x)
	return func(t *thread, bp int) (value.Value, error) {
		t.after(f.rule, t.live)
		return v, nil
	}
}

func (cc *ccomp) exprs(xs []syntax.Expr, sc *cscope) []cexpr {
	out := make([]cexpr, len(xs))
	for i, x := range xs {
		out[i] = cc.expr(x, sc)
	}
	return out
}

// variable compiles a use of a name: a slot, a field path of a slot, or
// a free variable looked up in the closure's environment.
func (cc *ccomp) variable(x *syntax.Var, sc *cscope) cexpr {
	q := x.Name
	name := q.Name
	if len(q.Quals) > 0 {
		name = q.Quals[0]
	}
	s, local := sc.lookup(name)
	if local {
		cc.noteUse(x, s)
	} else {
		cc.noteUse(x, free)
	}
	useSite := cc.useSite(x, sc)
	if local && sc.find(name).maybe {
		// a size parameter, nil where no argument gave it
		unbound := cc.walkVar(x, sc, "size that no argument gives")
		return func(t *thread, bp int) (value.Value, error) {
			v := t.slots[bp+s]
			if v == nil {
				return unbound(t, bp)
			}
			if len(q.Quals) > 0 || needsUseSite(v) {
				return useSite(t, bp)
			}
			return v, nil
		}
	}
	if !local {
		// A name found in a module-level scope stays bound to the same
		// value (a rebinding starts a new level, env.go), so once no local
		// of the closure's environment has the name, the lookup is made
		// once per scope. The cache lives in the code, which the closure
		// owns.
		var seen *scope
		var cached value.Value
		return func(t *thread, bp int) (value.Value, error) {
			e := t.fenv
			if seen != nil && e.sc == seen && !e.hasLocal(name) {
				return cached, nil
			}
			v, err := t.evalVar1(x, e)
			if err != nil {
				return nil, err
			}
			if needsUseSite(v) {
				return useSite(t, bp)
			}
			if !e.hasLocal(name) {
				seen, cached = e.sc, v
			}
			return v, nil
		}
	}
	if len(q.Quals) == 0 {
		return func(t *thread, bp int) (value.Value, error) {
			v := t.slots[bp+s]
			if needsUseSite(v) {
				return useSite(t, bp)
			}
			return v, nil
		}
	}
	// r.x.y on a local record: a local shadows any module of its name
	path := append(q.Quals[1:len(q.Quals):len(q.Quals)], q.Name)
	return func(t *thread, bp int) (value.Value, error) {
		v := t.slots[bp+s]
		var err error
		for _, f := range path {
			if v, err = t.field(v, f, x.Pos()); err != nil {
				return nil, err
			}
		}
		if needsUseSite(v) {
			return useSite(t, bp)
		}
		return v, nil
	}
}

// useSite is evalVar at x: a use of a closure with context sizes.
func (cc *ccomp) useSite(x *syntax.Var, sc *cscope) cexpr {
	return cc.walkVar(x, sc, "use of a function with context sizes")
}

// walkVar is evalVar at x in the frame's environment, for reason.
func (cc *ccomp) walkVar(x *syntax.Var, sc *cscope, reason string) cexpr {
	wc := walkReason(reason)
	return func(t *thread, bp int) (value.Value, error) {
		prev := t.enterWalk(wc)
		v, err := t.evalVar(x, t.envAt(bp, sc))
		t.wc = prev
		return v, err
	}
}

// needsUseSite reports whether evalVar does more with v than return it:
// a closure with context sizes takes them from the use site.
func needsUseSite(v value.Value) bool {
	if f, ok := v.(*value.Fun); ok {
		if c, ok := f.Impl.(*closure); ok && len(c.ctxSizes) > 0 {
			return true
		}
	}
	return false
}

// apply compiles a call by its form: the function, the arguments, the
// application, the form's rule, then the arguments' release.
func (cc *ccomp) apply(x *syntax.Apply, sc *cscope) cexpr {
	fm, _ := formOf(x)
	fn, args := cc.expr(fm.head, sc), cc.exprs(fm.ops, sc)
	var fuse []cexpr // the parts fusedMapReduceBy asks for
	var inner *syntax.Apply
	if mayFuse(x) {
		inner = unparen(x.Args[2]).(*syntax.Apply)
		fuse = append([]cexpr{fn, cc.expr(inner.Fn, sc), args[0], args[1]}, cc.exprs(inner.Args, sc)...)
	}
	a0 := cc.nslots // the arguments are passed in the frame's slots
	cc.nslots += len(args)
	wcEmpty, wcCoerce := walkReason("type of an empty array result"), walkReason("sizes from coercions")
	return func(t *thread, bp int) (value.Value, error) {
		if fuse != nil && !t.in.noFast {
			v, ok, err := t.fusedMapReduceBy(x, inner, func(k int) (value.Value, error) { return fuse[k](t, bp) })
			if ok {
				if err == nil && hasEmpty(v) {
					prev := t.enterWalk(wcEmpty)
					v = t.fixEmptyResult(v, x, t.envAt(bp, sc))
					t.wc = prev
				}
				return v, err
			}
		}
		base := t.live
		f, err := fn(t, bp)
		if err != nil {
			return nil, err
		}
		if needsUseSite(f) {
			prev := t.enterWalk(wcCoerce)
			f = t.sizesFromCoercions(f, x.Args, t.envAt(bp, sc))
			t.wc = prev
		}
		for i, a := range args {
			v, err := a(t, bp)
			if err != nil {
				return nil, err
			}
			t.slots[bp+a0+i] = v
		}
		if err := t.tick(x.Pos()); err != nil {
			return nil, err
		}
		held := t.live - base
		vs := t.slots[bp+a0 : bp+a0+len(args) : bp+a0+len(args)]
		v, err := t.apply(f, vs, x.Pos())
		clear(vs)
		t.after(fm.rule, base)
		if fm.hold {
			t.meter.release(held)
		}
		if a, ok := v.(*value.Array); ok && a.Untyped {
			prev := t.enterWalk(wcEmpty)
			v = t.fixEmpty(a, x, t.envAt(bp, sc))
			t.wc = prev
		}
		if err == nil && hasEmpty(v) {
			prev := t.enterWalk(wcEmpty)
			v = t.fixEmptyResult(v, x, t.envAt(bp, sc))
			t.wc = prev
		}
		return v, err
	}
}

// mayFuse is the shape that fusedMapReduceBy looks for, f a (g b c) or
// f a (g b c d) with f and g names; fusedMapReduceBy decides the rest.
func mayFuse(x *syntax.Apply) bool {
	if len(x.Args) != 3 {
		return false
	}
	inner, ok := unparen(x.Args[2]).(*syntax.Apply)
	if !ok || (len(inner.Args) != 2 && len(inner.Args) != 3) {
		return false
	}
	_, ok1 := unparen(x.Fn).(*syntax.Var)
	_, ok2 := unparen(inner.Fn).(*syntax.Var)
	return ok1 && ok2
}

// fieldOrder is how a record literal whose fields are written in the
// order names is laid out, as value.NewRecord lays it out: the names in
// the record's order (sorted), and the place there of each field as
// written (order); tuple when the names are 0, 1, … (a tuple written as
// a record, which is a tuple).
func fieldOrder(names []string) (sorted []string, order []int, tuple bool) {
	idx := make([]value.Value, len(names))
	for i := range idx {
		idx[i] = value.I64Val(int64(i))
	}
	layout := value.NewRecord(names, idx) // where each field goes
	order = make([]int, len(names))
	for k, v := range layout.Fields {
		order[v.(value.Prim).Int()] = k
	}
	return layout.Names, order, len(names) > 1 && value.IsTupleRecord(names)
}
