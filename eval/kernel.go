package eval

import (
	"strings"

	"fut/eval/value"
	"fut/interp/syntax"
)

// Scalar kernels: the bodies of SOAC functions that compute only with
// scalars (arithmetic, comparisons, if, let, loops over scalar state,
// calls of such functions, scalar intrinsics, reads of captured arrays)
// are compiled into trees of Go closures over a register file of
// value.Prim, instead of being walked with an environment per element.
//
// A kernel charges exactly the cost the tree walker would (the same
// Composition steps, in the same order, on the same thread counters), so
// that compiling is invisible except in speed; TestKernelsAgree checks
// that. Anything the compiler does not know makes it give up, and the
// SOAC falls back to the general path. Run-time errors inside a kernel
// panic with a kpanic that the kernel's caller recovers.

type knode func(f []value.Prim) value.Prim

// ifTest is an if's condition c in a kernel, charged as the walker's if
// charges it: the condition's own steps, then the if's step (one of work
// and depth) with the live space as it was before the condition.
func ifTest(t *thread, c knode, cost bool, f []value.Prim) bool {
	base := t.live
	cv := c(f)
	if cost {
		t.W++
		t.D++
		t.live = base
	}
	return cv.B != 0
}

// ktuple evaluates a tuple-valued expression into registers.
type ktuple func(f []value.Prim)

type kpanic struct{ err error }

// kscope is the compile-time map from local names to registers.
type kscope struct {
	name string
	reg  int            // -1 for a record or tuple (val)
	typ  value.PrimType // NoPrim when not known statically
	val  *kval          // the registers of a record or tuple (kernel_record.go)
	next *kscope
}

func (s *kscope) lookup(name string) (int, bool) {
	for x := s; x != nil; x = x.next {
		if x.name == name {
			return x.reg, true
		}
	}
	return 0, false
}

func (s *kscope) typeOf(name string) value.PrimType {
	for x := s; x != nil; x = x.next {
		if x.name == name {
			return x.typ
		}
	}
	return value.NoPrim
}

type kcomp struct {
	t     *thread
	nregs int
	depth int
	// ty is the static type of the scalar expression compiled last (set
	// by scalar), tys those of the tuple compiled last; NoPrim where not
	// known. Types are exact where known: they come from the arrays'
	// element types, literals and captured values.
	ty  value.PrimType
	tys []value.PrimType
	// opnd describes the scalar expression compiled last when it is a
	// register or a constant (a captured value), so that operators can
	// read it without a call.
	opnd operand
}

// operand is a register (reg ≥ 0), a constant (isConst) or neither.
type operand struct {
	reg     int
	isConst bool
	c       value.Prim
}

var noOperand = operand{reg: -1}

func (kc *kcomp) reg() int { r := kc.nregs; kc.nregs++; return r }

// step charges (1, 1, 1) after operands held above base, fresh 1.
func (t *thread) kstep(base int64) {
	t.W++
	t.D++
	if x := t.live + 1; x > t.pk1 {
		t.pk1 = x
	}
	if x := t.live + 1; x > t.pkP {
		t.pkP = x
	}
	t.live = base + 1
}

func (kc *kcomp) kerr(pos syntax.Pos, format string, args ...any) {
	panic(kpanic{kc.t.errf(pos, format, args...)})
}

// scalar compiles a scalar-valued expression; kc.ty is its type after.
func (kc *kcomp) scalar(x syntax.Expr, sc *kscope, e *env) (knode, bool) {
	if kc.t.cost {
		if b, isBin := unparen(x).(*syntax.Binary); isBin {
			if c, ok := kc.staticCost(b, sc, e); ok {
				if n, ok := kc.charged(b, c, sc, e); ok {
					kc.ty = c.ty
					return n, true
				}
			}
		}
	}
	if n, ty, ok := kc.typedScalar(x, sc, e); ok {
		kc.ty, kc.opnd = ty, noOperand
		return n, true
	}
	kc.opnd = noOperand
	n, ty, ok := kc.scalar1(x, sc, e)
	kc.ty = ty
	if lit := unparen(x); ok && !kc.t.cost && (isLiteral(lit) || isBoolLit(lit)) {
		// without costs a literal is just a constant
		if p, err := kc.t.literalValue(lit); err == nil {
			kc.opnd = operand{reg: -1, isConst: true, c: p}
		}
	} else if v, isVar := x.(*syntax.Var); !isVar || !ok {
		kc.opnd = noOperand
	} else if len(v.Name.Quals) == 0 {
		if r, local := sc.lookup(v.Name.Name); local {
			kc.opnd = operand{reg: r}
		}
	} else if _, local := sc.lookup(v.Name.Quals[0]); local {
		if fv, _, ok := kc.varVal(v, sc, e); ok && fv.scalar() {
			kc.opnd = operand{reg: fv.reg} // a field of a local record
		}
	}
	return n, ok
}

func (kc *kcomp) scalar1(x syntax.Expr, sc *kscope, e *env) (knode, value.PrimType, bool) {
	t := kc.t
	cost := t.cost
	const no = value.NoPrim
	switch x := x.(type) {
	case *syntax.Paren:
		n, ok := kc.scalar(x.X, sc, e)
		return n, kc.ty, ok
	case *syntax.Ascript:
		n, ok := kc.scalar(x.X, sc, e)
		return n, kc.ty, ok
	case *syntax.Attr:
		if x.Attr != nil && (x.Attr.Name == "trace" || x.Attr.Name == "break") {
			return nil, no, false
		}
		n, ok := kc.scalar(x.X, sc, e)
		return n, kc.ty, ok
	case *syntax.Var:
		if len(x.Name.Quals) == 0 {
			if r, ok := sc.lookup(x.Name.Name); ok {
				if r < 0 {
					return nil, no, false // a record, not a scalar
				}
				return func(f []value.Prim) value.Prim { return f[r] }, sc.typeOf(x.Name.Name), true
			}
		} else if _, ok := sc.lookup(x.Name.Quals[0]); ok {
			// a field of a local record
			v, _, ok := kc.varVal(x, sc, e)
			if !ok || !v.scalar() {
				return nil, no, false
			}
			r := v.reg
			return func(f []value.Prim) value.Prim { return f[r] }, v.typ, true
		}
		v, err := t.evalVar(x, e)
		if err != nil {
			return nil, no, false
		}
		p, ok := v.(value.Prim)
		if !ok {
			return nil, no, false
		}
		defer func() { kc.opnd = operand{reg: -1, isConst: true, c: p} }()
		return func(f []value.Prim) value.Prim { return p }, p.T, true
	case *syntax.IntLit, *syntax.FloatLit, *syntax.CharLit, *syntax.BoolLit:
		n, ok := kc.literal(x)
		return n, kc.ty, ok
	case *syntax.Negate:
		if isLiteral(x.X) {
			n, ok := kc.literal(x)
			return n, kc.ty, ok
		}
		a, ok := kc.scalar(x.X, sc, e)
		if !ok {
			return nil, no, false
		}
		return func(f []value.Prim) value.Prim {
			base := t.live
			v := a(f)
			if cost {
				t.kstep(base)
			}
			return value.Neg(v)
		}, kc.ty, true
	case *syntax.Not:
		a, ok := kc.scalar(x.X, sc, e)
		if !ok {
			return nil, no, false
		}
		return func(f []value.Prim) value.Prim {
			base := t.live
			v := a(f)
			if cost {
				t.kstep(base)
			}
			return value.Not(v)
		}, kc.ty, true
	case *syntax.Binary:
		n, ok := kc.binary(x, sc, e)
		return n, kc.ty, ok
	case *syntax.Apply:
		args := make([]knode, len(x.Args))
		tys := make([]value.PrimType, len(x.Args))
		for i, a := range x.Args {
			n, ok := kc.scalar(a, sc, e)
			if !ok {
				return kc.scalarOf(kc.applyVal(x, sc, e)) // records among the arguments
			}
			args[i], tys[i] = n, kc.ty
		}
		fv, ok := kc.fnValue(x.Fn, sc, e)
		if !ok {
			return nil, no, false
		}
		n, ok := kc.callT(fv, args, tys, x.Pos())
		return n, kc.ty, ok
	case *syntax.If:
		c, ok1 := kc.scalar(x.Cond, sc, e)
		a, ok2 := kc.scalar(x.Then, sc, e)
		ta := kc.ty
		b, ok3 := kc.scalar(x.Else, sc, e)
		tb := kc.ty
		if !ok1 || !ok2 || !ok3 {
			return nil, no, false
		}
		ty := no
		if ta == tb {
			ty = ta
		}
		return func(f []value.Prim) value.Prim {
			if ifTest(t, c, cost, f) {
				return a(f)
			}
			return b(f)
		}, ty, true
	case *syntax.LetIn:
		if len(x.Sizes) > 0 {
			return nil, no, false
		}
		bind, sc2, ok := kc.bindValue(x.Pat, x.Value, sc, e)
		if !ok {
			return nil, no, false
		}
		body, ok := kc.scalar(x.Body, sc2, e)
		if !ok {
			return nil, no, false
		}
		return func(f []value.Prim) value.Prim {
			base := t.live
			bind(f)
			f0 := t.live - base
			r := body(f)
			t.live -= f0
			return r
		}, kc.ty, true
	case *syntax.Index:
		n, ok := kc.index(x, sc, e)
		return n, kc.ty, ok
	case *syntax.Assert:
		c, ok1 := kc.scalar(x.Cond, sc, e)
		b, ok2 := kc.scalar(x.X, sc, e)
		if !ok1 || !ok2 {
			return nil, no, false
		}
		ty := kc.ty
		text := t.sourceText(unparen(x.Cond))
		pos := x.Pos()
		return func(f []value.Prim) value.Prim {
			base := t.live
			if c(f).B == 0 {
				kc.kerr(pos, "Assertion is false: %s", text)
			}
			if cost {
				t.W++
				t.D++
				t.live = base
			}
			return b(f)
		}, ty, true
	case *syntax.Loop:
		regs, run, ok := kc.loop(x, sc, e)
		if !ok || len(regs) != 1 {
			return nil, no, false
		}
		r := regs[0]
		return func(f []value.Prim) value.Prim { run(f); return f[r] }, kc.tys[0], true
	}
	return nil, no, false
}

func (kc *kcomp) literal(x syntax.Expr) (knode, bool) {
	t := kc.t
	p, err := t.literalValue(x)
	if err != nil {
		return nil, false
	}
	kc.ty = p.T
	if !t.cost {
		return func(f []value.Prim) value.Prim { return p }, true
	}
	return func(f []value.Prim) value.Prim {
		t.kstep(t.live)
		return p
	}, true
}

// scalarOf is the scalar result of a compiled value, as a node.
func (kc *kcomp) scalarOf(v *kval, run ktuple, ok bool) (knode, value.PrimType, bool) {
	if !ok || !v.scalar() {
		return nil, value.NoPrim, false
	}
	r := v.reg
	if run == nil {
		return func(f []value.Prim) value.Prim { return f[r] }, v.typ, true
	}
	return func(f []value.Prim) value.Prim { run(f); return f[r] }, v.typ, true
}

// fnValue resolves the function of an application at compile time.
func (kc *kcomp) fnValue(fn syntax.Expr, sc *kscope, e *env) (value.Value, bool) {
	f, _, ok := kc.t.staticFn(fn, sc, e)
	return f, ok
}

// staticFn resolves the function of an application in a scalar kernel
// (a register or a flat one) at compile time: fn must be a name whose
// head no local of the kernel binds; head is that name's first part,
// which the environment e resolved.
func (t *thread) staticFn(fn syntax.Expr, sc *kscope, e *env) (f value.Value, head string, ok bool) {
	v, ok := unparen(fn).(*syntax.Var)
	if !ok {
		return nil, "", false
	}
	head = v.Name.Name
	if len(v.Name.Quals) > 0 {
		head = v.Name.Quals[0]
	}
	if _, local := sc.lookup(head); local {
		return nil, "", false
	}
	f, err := t.evalVar(v, e)
	return f, head, err == nil
}

// call compiles an application of a known function to scalar arguments:
// scalar intrinsics and built-in operators directly, program functions
// by inlining their bodies (a call is free; its arguments stay live while
// the body runs, as in the tree walker).
func (kc *kcomp) call(fv value.Value, args []knode, pos syntax.Pos) (knode, bool) {
	return kc.callT(fv, args, make([]value.PrimType, len(args)), pos)
}

// callT is call with the static types of the arguments; kc.ty is the
// result's type after.
func (kc *kcomp) callT(fv value.Value, args []knode, tys []value.PrimType, pos syntax.Pos) (knode, bool) {
	kc.ty = value.NoPrim
	t := kc.t
	cost := t.cost
	fn, ok := fv.(*value.Fun)
	if !ok {
		return nil, false
	}
	switch c := fn.Impl.(type) {
	case *intrinsic:
		sf, ok := scalarTable[c.name]
		if !ok || sf.arity != len(args) || c.arity_ != len(args) {
			return nil, false
		}
		if op, ok := intrinsicBinOps[c.name]; ok {
			return kc.binop(op, args[0], args[1], tys[0], tys[1], pos), true
		}
		kc.ty = intrinsicType(c.name, tys)
		return func(f []value.Prim) value.Prim {
			base := t.live
			var buf [3]value.Prim
			for i, a := range args {
				buf[i] = a(f)
			}
			// passed in the thread's buffer: a local one escapes through
			// sf.fn (filled after the arguments, which may use it too)
			ps := t.prims[:len(args)]
			copy(ps, buf[:len(args)])
			r, err := sf.fn(ps)
			if err != nil {
				kc.kerr(pos, "%v", err)
			}
			if cost {
				t.kstep(base)
			}
			return r
		}, true
	case *opFn:
		if len(args) != 2 {
			return nil, false
		}
		return kc.binop(c.op, args[0], args[1], tys[0], tys[1], pos), true
	case *rightSection:
		rp, ok := c.r.(value.Prim)
		if !ok || len(args) != 1 {
			return nil, false
		}
		return kc.callT(c.f, []knode{args[0], func([]value.Prim) value.Prim { return rp }}, []value.PrimType{tys[0], rp.T}, pos)
	case *partial:
		pre := make([]knode, 0, len(c.args)+len(args))
		var ptys []value.PrimType
		for _, a := range c.args {
			p, ok := a.(value.Prim)
			if !ok {
				return nil, false
			}
			pre = append(pre, func([]value.Prim) value.Prim { return p })
			ptys = append(ptys, p.T)
		}
		return kc.callT(&value.Fun{Impl: c.f}, append(pre, args...), append(ptys, tys...), pos)
	case *closure:
		if len(c.params) != len(args) || kc.depth > 16 {
			return nil, false
		}
		var sc *kscope
		regs := make([]int, len(args))
		for i, p := range c.params {
			name, ok := simplePat(p)
			if !ok {
				return nil, false
			}
			regs[i] = kc.reg()
			if name != "" {
				sc = &kscope{name: name, reg: regs[i], typ: tys[i], next: sc}
			}
		}
		kc.depth++
		body, ok := kc.scalar(c.body, sc, c.env)
		kc.depth--
		if !ok {
			return nil, false
		}
		return func(f []value.Prim) value.Prim {
			base := t.live
			var buf [4]value.Prim
			vals := buf[:0]
			for _, a := range args {
				vals = append(vals, a(f))
			}
			for i, r := range regs {
				f[r] = vals[i]
			}
			held := t.live - base
			v := body(f)
			t.live -= held
			return v
		}, true
	}
	return nil, false
}

// intrinsicBinOps are the scalar intrinsics that are built-in operators.
var intrinsicBinOps = map[string]value.BinOp{
	"add": value.OpAdd, "sub": value.OpSub, "mul": value.OpMul, "div": value.OpDiv,
	"mod": value.OpMod, "quot": value.OpQuot, "rem": value.OpRem, "pow": value.OpPow,
	"min": value.OpMin, "max": value.OpMax, "eq": value.OpEq, "neq": value.OpNeq,
	"lt": value.OpLt, "le": value.OpLe, "gt": value.OpGt, "ge": value.OpGe,
	"and": value.OpAnd, "or": value.OpOr, "xor": value.OpXor, "shl": value.OpShl,
	"shr": value.OpShr, "lshr": value.OpUShr,
}

// intrinsicType is the result type of a scalar intrinsic.
func intrinsicType(name string, args []value.PrimType) value.PrimType {
	if strings.HasPrefix(name, "to_") {
		return value.ParsePrimType(name[3:])
	}
	if t, ok := value.FixedResult(name); ok {
		return t
	}
	if len(args) > 0 {
		return args[0]
	}
	return value.NoPrim
}

// simplePat returns the name a pattern binds when it binds one scalar
// name (or none, for _).
func simplePat(p syntax.Pat) (string, bool) {
	switch p := p.(type) {
	case *syntax.PId:
		return p.Name, true
	case *syntax.PWild:
		return "", true
	case *syntax.PParen:
		return simplePat(p.P)
	case *syntax.PAscript:
		return simplePat(p.P)
	case *syntax.PAttr:
		return simplePat(p.P)
	}
	return "", false
}

// tuplePat returns the names of a pattern (p1, …, pk) of simple patterns.
func tuplePat(p syntax.Pat) ([]string, bool) {
	switch q := p.(type) {
	case *syntax.PParen:
		return tuplePat(q.P)
	case *syntax.PAscript:
		return tuplePat(q.P)
	case *syntax.PTuple:
		names := make([]string, len(q.Elems))
		for i, el := range q.Elems {
			n, ok := simplePat(el)
			if !ok {
				return nil, false
			}
			names[i] = n
		}
		return names, len(names) > 1
	}
	return nil, false
}
