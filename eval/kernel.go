package eval

import (
	"fmt"
	"math"
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

// ktuple evaluates a tuple-valued expression into registers.
type ktuple func(f []value.Prim)

type kpanic struct{ err error }

// kscope is the compile-time map from local names to registers.
type kscope struct {
	name string
	reg  int
	typ  value.PrimType // NoPrim when not known statically
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
}

func (kc *kcomp) reg() int { r := kc.nregs; kc.nregs++; return r }

func (kc *kcomp) fail(format string, args ...any) error {
	return fmt.Errorf(format, args...)
}

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
	n, ty, ok := kc.scalar1(x, sc, e)
	kc.ty = ty
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
				return func(f []value.Prim) value.Prim { return f[r] }, sc.typeOf(x.Name.Name), true
			}
		} else if _, ok := sc.lookup(x.Name.Quals[0]); ok {
			return nil, no, false
		}
		v, err := t.evalVar(x, e)
		if err != nil {
			return nil, no, false
		}
		p, ok := v.(value.Prim)
		if !ok {
			return nil, no, false
		}
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
				return nil, no, false
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
			base := t.live
			cv := c(f)
			if cost {
				t.W++
				t.D++
				t.live = base
			}
			if cv.B != 0 {
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

func (kc *kcomp) binary(x *syntax.Binary, sc *kscope, e *env) (knode, bool) {
	t := kc.t
	cost := t.cost
	l, ok1 := kc.scalar(x.L, sc, e)
	lt := kc.ty
	r, ok2 := kc.scalar(x.R, sc, e)
	rt := kc.ty
	if !ok1 || !ok2 {
		return nil, false
	}
	op, builtin := t.isBuiltinOp(x, x.Op, x.Backtick, e)
	if !builtin {
		fv, err := t.opValue(x.Op, x.Backtick, e, x.OpSpan.Start)
		if err != nil {
			return nil, false
		}
		return kc.callT(fv, []knode{l, r}, []value.PrimType{lt, rt}, x.OpSpan.Start)
	}
	pos := x.OpSpan.Start
	switch op {
	case value.OpLogAnd, value.OpLogOr:
		or := op == value.OpLogOr
		kc.ty = value.Bool
		return func(f []value.Prim) value.Prim {
			base := t.live
			a := l(f)
			if (a.B != 0) != or {
				a = r(f)
			}
			if cost {
				t.kstep(base)
			}
			return a
		}, true
	}
	return kc.binop(op, l, r, lt, rt, pos), true
}

// binop compiles a built-in operator on two compiled operands, as a
// typed Go operation when both operand types are known and equal.
func (kc *kcomp) binop(op value.BinOp, l, r knode, lt, rt value.PrimType, pos syntax.Pos) knode {
	t := kc.t
	cost := t.cost
	kc.ty = value.NoPrim
	if lt == rt && lt != value.NoPrim {
		if op.IsComparison() {
			kc.ty = value.Bool
		} else {
			kc.ty = lt
		}
		if fn := typedOp(op, lt); fn != nil {
			return func(f []value.Prim) value.Prim {
				base := t.live
				a := l(f)
				b := r(f)
				if cost {
					t.kstep(base)
				}
				return fn(a, b)
			}
		}
	}
	return func(f []value.Prim) value.Prim {
		base := t.live
		a := l(f)
		b := r(f)
		v, err := binPrim(op, a, b)
		if err != nil {
			kc.kerr(pos, "%v", err)
		}
		if cost {
			t.kstep(base)
		}
		return v
	}
}

func f64of(p value.Prim) float64 { return math.Float64frombits(p.B) }
func f32of(p value.Prim) float32 { return float32(math.Float64frombits(p.B)) }
func mkF64(x float64) value.Prim { return value.Prim{T: value.F64, B: math.Float64bits(x)} }
func mkF32(x float32) value.Prim { return value.Prim{T: value.F32, B: math.Float64bits(float64(x))} }
func mkI32(x int32) value.Prim   { return value.Prim{T: value.I32, B: uint64(int64(x))} }
func mkI64(x int64) value.Prim   { return value.Prim{T: value.I64, B: uint64(x)} }

var (
	primTrue  = value.MkBool(true)
	primFalse = value.MkBool(false)
)

func mkBool(b bool) value.Prim {
	if b {
		return primTrue
	}
	return primFalse
}

// typedOp is a Go implementation of op on operands of type ty that never
// fails, or nil.
func typedOp(op value.BinOp, ty value.PrimType) func(a, b value.Prim) value.Prim {
	switch ty {
	case value.F64:
		switch op {
		case value.OpAdd:
			return func(a, b value.Prim) value.Prim { return mkF64(f64of(a) + f64of(b)) }
		case value.OpSub:
			return func(a, b value.Prim) value.Prim { return mkF64(f64of(a) - f64of(b)) }
		case value.OpMul:
			return func(a, b value.Prim) value.Prim { return mkF64(f64of(a) * f64of(b)) }
		case value.OpDiv:
			return func(a, b value.Prim) value.Prim { return mkF64(f64of(a) / f64of(b)) }
		case value.OpLt:
			return func(a, b value.Prim) value.Prim { return mkBool(f64of(a) < f64of(b)) }
		case value.OpLe:
			return func(a, b value.Prim) value.Prim { return mkBool(f64of(a) <= f64of(b)) }
		case value.OpGt:
			return func(a, b value.Prim) value.Prim { return mkBool(f64of(a) > f64of(b)) }
		case value.OpGe:
			return func(a, b value.Prim) value.Prim { return mkBool(f64of(a) >= f64of(b)) }
		}
	case value.F32:
		switch op {
		case value.OpAdd:
			return func(a, b value.Prim) value.Prim { return mkF32(f32of(a) + f32of(b)) }
		case value.OpSub:
			return func(a, b value.Prim) value.Prim { return mkF32(f32of(a) - f32of(b)) }
		case value.OpMul:
			return func(a, b value.Prim) value.Prim { return mkF32(f32of(a) * f32of(b)) }
		case value.OpDiv:
			return func(a, b value.Prim) value.Prim { return mkF32(f32of(a) / f32of(b)) }
		case value.OpLt:
			return func(a, b value.Prim) value.Prim { return mkBool(f32of(a) < f32of(b)) }
		case value.OpLe:
			return func(a, b value.Prim) value.Prim { return mkBool(f32of(a) <= f32of(b)) }
		case value.OpGt:
			return func(a, b value.Prim) value.Prim { return mkBool(f32of(a) > f32of(b)) }
		case value.OpGe:
			return func(a, b value.Prim) value.Prim { return mkBool(f32of(a) >= f32of(b)) }
		}
	case value.I32:
		switch op {
		case value.OpAdd:
			return func(a, b value.Prim) value.Prim { return mkI32(int32(a.B) + int32(b.B)) }
		case value.OpSub:
			return func(a, b value.Prim) value.Prim { return mkI32(int32(a.B) - int32(b.B)) }
		case value.OpMul:
			return func(a, b value.Prim) value.Prim { return mkI32(int32(a.B) * int32(b.B)) }
		}
	case value.I64:
		switch op {
		case value.OpAdd:
			return func(a, b value.Prim) value.Prim { return mkI64(int64(a.B) + int64(b.B)) }
		case value.OpSub:
			return func(a, b value.Prim) value.Prim { return mkI64(int64(a.B) - int64(b.B)) }
		case value.OpMul:
			return func(a, b value.Prim) value.Prim { return mkI64(int64(a.B) * int64(b.B)) }
		}
	}
	if ty.IsInt() {
		switch op {
		case value.OpEq:
			return func(a, b value.Prim) value.Prim { return mkBool(a.B == b.B) }
		case value.OpNeq:
			return func(a, b value.Prim) value.Prim { return mkBool(a.B != b.B) }
		}
		if ty.IsSigned() {
			switch op {
			case value.OpLt:
				return func(a, b value.Prim) value.Prim { return mkBool(int64(a.B) < int64(b.B)) }
			case value.OpLe:
				return func(a, b value.Prim) value.Prim { return mkBool(int64(a.B) <= int64(b.B)) }
			case value.OpGt:
				return func(a, b value.Prim) value.Prim { return mkBool(int64(a.B) > int64(b.B)) }
			case value.OpGe:
				return func(a, b value.Prim) value.Prim { return mkBool(int64(a.B) >= int64(b.B)) }
			}
		}
	}
	return nil
}

// fnValue resolves the function of an application at compile time.
func (kc *kcomp) fnValue(fn syntax.Expr, sc *kscope, e *env) (value.Value, bool) {
	fn = unparen(fn)
	v, ok := fn.(*syntax.Var)
	if !ok {
		return nil, false
	}
	if len(v.Name.Quals) == 0 {
		if _, local := sc.lookup(v.Name.Name); local {
			return nil, false
		}
	} else if _, local := sc.lookup(v.Name.Quals[0]); local {
		return nil, false
	}
	f, err := kc.t.evalVar(v, e)
	if err != nil {
		return nil, false
	}
	return f, true
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
			ps := buf[:len(args)]
			for i, a := range args {
				ps[i] = a(f)
			}
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
	switch name {
	case "popc", "clz", "ctz":
		return value.I32
	case "isnan", "isinf":
		return value.Bool
	case "f16_from_bits":
		return value.F16
	case "f32_from_bits":
		return value.F32
	case "f64_from_bits":
		return value.F64
	case "f16_to_bits":
		return value.U16
	case "f32_to_bits":
		return value.U32
	case "f64_to_bits":
		return value.U64
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

// bindValue compiles "let p = v": it returns code that evaluates v into
// fresh registers and the scope with p's names bound to them.
func (kc *kcomp) bindValue(p syntax.Pat, v syntax.Expr, sc *kscope, e *env) (ktuple, *kscope, bool) {
	if name, ok := simplePat(p); ok {
		n, ok := kc.scalar(v, sc, e)
		if !ok {
			return nil, nil, false
		}
		r := kc.reg()
		if name != "" {
			sc = &kscope{name: name, reg: r, typ: kc.ty, next: sc}
		}
		return func(f []value.Prim) { f[r] = n(f) }, sc, true
	}
	names, ok := tuplePat(p)
	if !ok {
		return nil, nil, false
	}
	regs := make([]int, len(names))
	for i := range regs {
		regs[i] = kc.reg()
	}
	run, ok := kc.tuple(v, regs, sc, e)
	if !ok {
		return nil, nil, false
	}
	for i, n := range names {
		if n != "" {
			sc = &kscope{name: n, reg: regs[i], typ: kc.tys[i], next: sc}
		}
	}
	return run, sc, true
}

// tuple compiles a tuple-valued expression whose components go to dsts.
func (kc *kcomp) tuple(x syntax.Expr, dsts []int, sc *kscope, e *env) (ktuple, bool) {
	t := kc.t
	cost := t.cost
	switch x := x.(type) {
	case *syntax.Paren:
		return kc.tuple(x.X, dsts, sc, e)
	case *syntax.Ascript:
		return kc.tuple(x.X, dsts, sc, e)
	case *syntax.TupleLit:
		if len(x.Elems) != len(dsts) {
			return nil, false
		}
		nodes := make([]knode, len(dsts))
		tys := make([]value.PrimType, len(dsts))
		for i, el := range x.Elems {
			n, ok := kc.scalar(el, sc, e)
			if !ok {
				return nil, false
			}
			nodes[i], tys[i] = n, kc.ty
		}
		kc.tys = tys
		return func(f []value.Prim) {
			for i, n := range nodes {
				f[dsts[i]] = n(f)
			}
		}, true
	case *syntax.LetIn:
		if len(x.Sizes) > 0 {
			return nil, false
		}
		bind, sc2, ok := kc.bindValue(x.Pat, x.Value, sc, e)
		if !ok {
			return nil, false
		}
		body, ok := kc.tuple(x.Body, dsts, sc2, e)
		if !ok {
			return nil, false
		}
		return func(f []value.Prim) {
			base := t.live
			bind(f)
			f0 := t.live - base
			body(f)
			t.live -= f0
		}, true
	case *syntax.If:
		c, ok1 := kc.scalar(x.Cond, sc, e)
		a, ok2 := kc.tuple(x.Then, dsts, sc, e)
		ta := kc.tys
		b, ok3 := kc.tuple(x.Else, dsts, sc, e)
		if !ok1 || !ok2 || !ok3 {
			return nil, false
		}
		kc.tys = meetTypes(ta, kc.tys)
		return func(f []value.Prim) {
			base := t.live
			cv := c(f)
			if cost {
				t.W++
				t.D++
				t.live = base
			}
			if cv.B != 0 {
				a(f)
			} else {
				b(f)
			}
		}, true
	case *syntax.Loop:
		regs, run, ok := kc.loop(x, sc, e)
		if !ok || len(regs) != len(dsts) {
			return nil, false
		}
		// kc.tys are the loop's state types
		return func(f []value.Prim) {
			run(f)
			for i, r := range regs {
				f[dsts[i]] = f[r]
			}
		}, true
	}
	return nil, false
}

// loop compiles a loop whose state is one scalar or a tuple of scalars;
// it returns the registers that hold the final state.
func (kc *kcomp) loop(x *syntax.Loop, sc *kscope, e *env) ([]int, ktuple, bool) {
	t := kc.t
	cost := t.cost
	if len(x.Sizes) > 0 || x.Init == nil {
		return nil, nil, false
	}
	names, ok := tuplePat(x.Pat)
	if !ok {
		n, ok := simplePat(x.Pat)
		if !ok {
			return nil, nil, false
		}
		names = []string{n}
	}
	k := len(names)
	state := make([]int, k)
	tmp := make([]int, k)
	for i := range state {
		state[i], tmp[i] = kc.reg(), kc.reg()
	}
	var init ktuple
	var initTys []value.PrimType
	if k == 1 {
		n, ok := kc.scalar(x.Init, sc, e)
		if !ok {
			return nil, nil, false
		}
		r := tmp[0]
		init = func(f []value.Prim) { f[r] = n(f) }
		initTys = []value.PrimType{kc.ty}
	} else if init, ok = kc.tuple(x.Init, tmp, sc, e); !ok {
		return nil, nil, false
	} else {
		initTys = kc.tys
	}
	// The state's types are the initial value's, if the body keeps them
	// (it always does in a checked program); otherwise they are unknown.
	stateTys := initTys
	scopeWith := func(tys []value.PrimType) *kscope {
		inner := sc
		for i, n := range names {
			if n != "" {
				inner = &kscope{name: n, reg: state[i], typ: tys[i], next: inner}
			}
		}
		return inner
	}
	compileBody := func(s0 *kscope) (ktuple, bool) {
		if k == 1 {
			n, ok := kc.scalar(x.Body, s0, e)
			if !ok {
				return nil, false
			}
			kc.tys = []value.PrimType{kc.ty}
			r := tmp[0]
			return func(f []value.Prim) { f[r] = n(f) }, true
		}
		return kc.tuple(x.Body, tmp, s0, e)
	}
	inner := scopeWith(stateTys)
	commit := func(f []value.Prim) {
		for i, r := range state {
			f[r] = f[tmp[i]]
		}
	}
	pos := x.Pos()
	ks := int64(k)
	switch form := x.Form.(type) {
	case *syntax.For:
		bound, ok := kc.scalar(form.Bound, sc, e)
		if !ok {
			return nil, nil, false
		}
		bt := kc.ty
		ireg := kc.reg()
		body, ok := compileBody(&kscope{name: form.I.Name, reg: ireg, typ: bt, next: inner})
		if ok && !sameTypes(kc.tys, stateTys) {
			stateTys = unknownTypes(k)
			body, ok = compileBody(&kscope{name: form.I.Name, reg: ireg, typ: bt, next: scopeWith(stateTys)})
		}
		if !ok {
			return nil, nil, false
		}
		kc.tys = stateTys
		return state, func(f []value.Prim) {
			base := t.live
			init(f)
			commit(f)
			bv := bound(f)
			initF := t.live - base
			n := bv.Int()
			for i := int64(0); i < n; i++ {
				if err := t.tick(pos); err != nil {
					panic(kpanic{err})
				}
				if cost {
					t.live = base + ks
				}
				f[ireg] = value.MkInt(bv.T, i)
				body(f)
				if cost {
					t.W++
					t.D++
				}
				commit(f)
			}
			if cost {
				if n > 0 {
					t.live = base + ks
				} else {
					t.live = base + initF
				}
			}
		}, true
	case *syntax.While:
		body, ok2 := compileBody(inner)
		if ok2 && !sameTypes(kc.tys, stateTys) {
			stateTys = unknownTypes(k)
			inner = scopeWith(stateTys)
			body, ok2 = compileBody(inner)
		}
		cond, ok1 := kc.scalar(form.Cond, inner, e)
		if !ok1 || !ok2 {
			return nil, nil, false
		}
		kc.tys = stateTys
		return state, func(f []value.Prim) {
			base := t.live
			init(f)
			commit(f)
			initF := t.live - base
			iters := 0
			for {
				if err := t.tick(pos); err != nil {
					panic(kpanic{err})
				}
				if cost {
					t.live = base + ks
				}
				if cond(f).B == 0 {
					break
				}
				if cost {
					t.live = base + ks
				}
				body(f)
				if cost {
					t.W++
					t.D++
				}
				commit(f)
				iters++
			}
			if cost {
				if iters > 0 {
					t.live = base + ks
				} else {
					t.live = base + initF
				}
			}
		}, true
	}
	return nil, nil, false
}

func sameTypes(a, b []value.PrimType) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func unknownTypes(k int) []value.PrimType { return make([]value.PrimType, k) }

func meetTypes(a, b []value.PrimType) []value.PrimType {
	out := make([]value.PrimType, len(a))
	for i := range a {
		if i < len(b) && a[i] == b[i] {
			out[i] = a[i]
		}
	}
	return out
}

// index compiles a[i, j] of a captured primitive array to a scalar.
func (kc *kcomp) index(x *syntax.Index, sc *kscope, e *env) (knode, bool) {
	t := kc.t
	cost := t.cost
	v, ok := unparen(x.X).(*syntax.Var)
	if !ok || len(v.Name.Quals) > 0 {
		return nil, false
	}
	if _, local := sc.lookup(v.Name.Name); local {
		return nil, false
	}
	av, err := t.evalVar(v, e)
	if err != nil {
		return nil, false
	}
	a, ok := av.(*value.Array)
	if !ok || a.Kind != value.KPrim || len(a.Shape) != len(x.Indices) {
		return nil, false
	}
	idx := make([]knode, len(x.Indices))
	for i, d := range x.Indices {
		if d.Fix == nil {
			return nil, false
		}
		n, ok := kc.scalar(d.Fix, sc, e)
		if !ok {
			return nil, false
		}
		idx[i] = n
	}
	pos := x.Pos()
	shape, data, typ := a.Shape, a.Data, a.T
	get := reader(typ, data)
	kc.ty = typ
	return func(f []value.Prim) value.Prim {
		base := t.live
		off := int64(0)
		var buf [4]int64
		is := buf[:0]
		bad := false
		for k, n := range idx {
			i := n(f).Int()
			is = append(is, i)
			if i < 0 || i >= shape[k] {
				bad = true
			}
			off = off*shape[k] + i
		}
		if bad {
			s := fmt.Sprint(is)
			kc.kerr(pos, "Index [%s] out of bounds for array of shape %s.", joinInts(s), value.ShapeString(shape))
		}
		if cost {
			t.kstep(base)
		}
		return get(int(off))
	}, true
}

func joinInts(s string) string {
	// fmt prints [1 2]; Futhark writes 1, 2
	s = s[1 : len(s)-1]
	out := ""
	for i, c := range s {
		if c == ' ' && i > 0 {
			out += ", "
		} else {
			out += string(c)
		}
	}
	return out
}

// reader returns a typed element reader for a flat slice.
func reader(t value.PrimType, d any) func(i int) value.Prim {
	switch d := d.(type) {
	case []float64:
		return func(i int) value.Prim { return value.F64Val(d[i]) }
	case []int64:
		return func(i int) value.Prim { return value.Prim{T: t, B: uint64(d[i])} }
	case []int32:
		return func(i int) value.Prim { return value.Prim{T: t, B: uint64(int64(d[i]))} }
	case []float32:
		return func(i int) value.Prim { return value.DataGet(t, d, i) }
	}
	return func(i int) value.Prim { return value.DataGet(t, d, i) }
}

// writer returns a typed element writer for a flat slice.
func writer(d any) func(i int, p value.Prim) {
	switch d := d.(type) {
	case []float64:
		return func(i int, p value.Prim) { d[i] = math.Float64frombits(p.B) }
	case []float32:
		return func(i int, p value.Prim) { d[i] = float32(math.Float64frombits(p.B)) }
	case []int64:
		return func(i int, p value.Prim) { d[i] = int64(p.B) }
	case []int32:
		return func(i int, p value.Prim) { d[i] = int32(p.B) }
	case []bool:
		return func(i int, p value.Prim) { d[i] = p.B != 0 }
	}
	return func(i int, p value.Prim) { value.DataSet(d, i, p) }
}
