package eval

import (
	"math"

	"fut/eval/value"
	"fut/interp/syntax"
)

// The instructions of flat kernels (kernel_flat.go), how they run, and
// the compilation of the operators and intrinsics they implement.

// finsn is one instruction: an opcode on registers d, a and b, or for
// what has no opcode a call of the kernel's c-th Go function of one or
// two scalars (fCall1, fCall2); the instructions of branches and charges
// (kernel_flat_branch.go) use c and k as they say.
type finsn struct {
	op            fopcode
	d, a, b, c, e int32
	k             int64
}

type fopcode uint8

const (
	fCall1 fopcode = iota
	fCall2
	fCall3 // of registers a, b and e
	fAddF32
	fSubF32
	fMulF32
	fDivF32
	fAddF64
	fSubF64
	fMulF64
	fDivF64
	fAddI64
	fSubI64
	fMulI64
	fSqrtF32
	fSqrtF64
	// run by op only (flatKernel.run hands them to it)
	fAddI32
	fSubI32
	fMulI32
	fLtF32
	fLeF32
	fGtF32
	fGeF32
	fLtF64
	fLeF64
	fGtF64
	fGeF64
	fLtI // signed integers (sign-extended in their registers)
	fLeI
	fGtI
	fGeI
	fEqI // any integers
	fNeqI
	// kernels with branches only (runSel)
	fIf     // split the lanes by register a into registers b, b+1; then-arm up to c, else-arm up to d
	fMov    // r[d] = r[a]
	fNop    // a slot for an fOrg
	fCharge // charge c steps and a peak of k above register a (fcomp.flush)
	fOrg    // r[d] = r[a] − r[b] + r[c] + k, a register −1 reading 0
	fLoop   // a loop (kernel_flat_loop.go)
	fTest   // in a while loop's condition: the lanes whose register a is false leave the loop, charged c steps and a peak of k above register b
)

// fins is an operation without an opcode, on registers' bits.
type fins struct {
	f1 func(a uint64) uint64
	f2 func(a, b uint64) uint64
	f3 func(a, b, c uint64) uint64
}

// Registers are columns: a kernel runs on a batch of up to B elements at
// once, register r of element j in r[r*B+j], so that an instruction is
// dispatched once per batch and does its work in a loop over the batch.
// Straight-line code runs the same instructions on every element, so
// running them element by element or instruction by instruction gives
// the same values.

// frame makes r (of nregs·B words) a register file for k on batches of
// B with its constants loaded. Every other register is written before it
// is read: a parameter's by the caller, any other by its instruction.
func (k *flatKernel) frame(r []uint64, B int) {
	for _, c := range k.consts {
		fill(r[c.reg*B:(c.reg+1)*B], c.bits)
	}
}

// allLanes lists the lanes of a whole batch.
var allLanes = func() (l [flatBatch]uint64) {
	for j := range l {
		l[j] = uint64(j)
	}
	return l
}()

func fill(col []uint64, x uint64) {
	for j := range col {
		col[j] = x
	}
}

// run applies k to the cnt elements in its parameters' registers.
func (k *flatKernel) run(r []uint64, B, cnt int) {
	for i := range k.code {
		in := &k.code[i]
		d := r[int(in.d)*B:][:cnt]
		a := r[int(in.a)*B:][:cnt]
		var b []uint64
		if in.op != fCall1 && in.op != fSqrtF32 && in.op != fSqrtF64 {
			b = r[int(in.b)*B:][:cnt]
		}
		switch in.op {
		case fCall1:
			f := k.calls[in.c].f1
			for j := range d {
				d[j] = f(a[j])
			}
		case fCall2:
			f := k.calls[in.c].f2
			for j := range d {
				d[j] = f(a[j], b[j])
			}
		case fAddF32:
			for j := range d {
				d[j] = b32(f32(a[j]) + f32(b[j]))
			}
		case fSubF32:
			for j := range d {
				d[j] = b32(f32(a[j]) - f32(b[j]))
			}
		case fMulF32:
			for j := range d {
				d[j] = b32(f32(a[j]) * f32(b[j]))
			}
		case fDivF32:
			for j := range d {
				d[j] = b32(f32(a[j]) / f32(b[j]))
			}
		case fAddF64:
			for j := range d {
				d[j] = math.Float64bits(math.Float64frombits(a[j]) + math.Float64frombits(b[j]))
			}
		case fSubF64:
			for j := range d {
				d[j] = math.Float64bits(math.Float64frombits(a[j]) - math.Float64frombits(b[j]))
			}
		case fMulF64:
			for j := range d {
				d[j] = math.Float64bits(math.Float64frombits(a[j]) * math.Float64frombits(b[j]))
			}
		case fDivF64:
			for j := range d {
				d[j] = math.Float64bits(math.Float64frombits(a[j]) / math.Float64frombits(b[j]))
			}
		case fAddI64:
			for j := range d {
				d[j] = a[j] + b[j]
			}
		case fSubI64:
			for j := range d {
				d[j] = a[j] - b[j]
			}
		case fMulI64:
			for j := range d {
				d[j] = uint64(int64(a[j]) * int64(b[j]))
			}
		case fSqrtF32:
			for j := range d {
				d[j] = b32(float32(math.Sqrt(float64(f32(a[j])))))
			}
		case fSqrtF64:
			for j := range d {
				d[j] = math.Float64bits(math.Sqrt(math.Float64frombits(a[j])))
			}
		default:
			k.op(in, r, B, allLanes[:cnt])
		}
	}
}

// A register holds a scalar's bits as value.Prim does, except an f32's,
// which are the float32's own bits, so that f32 arithmetic converts
// nothing: regBits and regPrim convert at the kernel's edges, f32 and b32
// are an f32 register's value and bits.
func regBits(p value.Prim) uint64 {
	if p.T == value.F32 {
		return uint64(math.Float32bits(float32(math.Float64frombits(p.B))))
	}
	return p.B
}

func regPrim(ty value.PrimType, x uint64) value.Prim {
	if ty == value.F32 {
		return value.Prim{T: ty, B: math.Float64bits(float64(math.Float32frombits(uint32(x))))}
	}
	return value.Prim{T: ty, B: x}
}

func f32(x uint64) float32 { return math.Float32frombits(uint32(x)) }
func b32(x float32) uint64 { return uint64(math.Float32bits(x)) }

// unary compiles -x and !x on a computed operand, by x's form.
func (fc *fcomp) unary(x syntax.Expr, f func(value.Prim) value.Prim, fr *kframe, e *env) (*kval, bool) {
	fm, _ := formOf(x)
	return fc.construct(fm, fr, e, func(vals []*kval) (*kval, bool) {
		a := vals[0]
		if !a.scalar() || a.typ == value.NoPrim {
			return nil, false
		}
		d, ar, ty := fc.reg(), a.reg, a.typ
		fc.emit1(d, ar, func(x uint64) uint64 { return regBits(f(regPrim(ty, x))) })
		return &kval{reg: d, typ: ty}, true
	}, nil)
}

// binary compiles an operator application: a built-in operator by its
// form (opForm), any other as a call.
func (fc *fcomp) binary(x *syntax.Binary, fr *kframe, e *env) (*kval, bool) {
	t := fc.t
	how, known := fr.res.ops[x]
	if !known || how.local {
		return nil, false // a local operator: a function value of the kernel's
	}
	fc.resolved(x.Op.Name, e)
	op := how.op
	if !how.builtin {
		fv, err := t.opValue(x.Op, x.Backtick, e, x.OpSpan.Start)
		if err != nil {
			return nil, false
		}
		return fc.apply(fv, userOpForm(x), fr, e)
	}
	if op == value.OpLogAnd || op == value.OpLogOr {
		return fc.logic(logicForm(x, op == value.OpLogAnd), fr, e) // the right operand is evaluated only when needed
	}
	return fc.construct(opForm(x), fr, e, func(vals []*kval) (*kval, bool) {
		return fc.opCode(op, vals[0], vals[1])
	}, nil)
}

// binop compiles a built-in operator on two scalars, charged as a step
// above base (an operator applied as a function: opFn, intrinsics).
func (fc *fcomp) binop(op value.BinOp, l, r *kval, base flive) (*kval, bool) {
	fc.step(base)
	return fc.opCode(op, l, r)
}

// opCode is the code of a built-in operator on two scalars of one known
// type: the lane instruction where it has one (flatOp), else the general
// operator (binPrim), which gives up the flat run where it fails
// (flatFail).
func (fc *fcomp) opCode(op value.BinOp, l, r *kval) (*kval, bool) {
	if !l.scalar() || !r.scalar() || l.typ != r.typ || l.typ == value.NoPrim {
		return nil, false
	}
	ty := l.typ
	d, a, b := fc.reg(), l.reg, r.reg
	rty := ty
	if op.IsComparison() {
		rty = value.Bool
	}
	if in, ok := flatOp(op, ty, d, a, b); ok {
		fc.k.code = append(fc.k.code, in)
		return &kval{reg: d, typ: rty}, true
	}
	fc.emit2(d, a, b, func(x, y uint64) uint64 {
		p, err := binPrim(op, regPrim(ty, x), regPrim(ty, y))
		if err != nil || p.T != rty {
			panic(flatFail{})
		}
		return regBits(p)
	})
	return &kval{reg: d, typ: rty}, true
}

// flatOp is the lane instruction r[d] = r[a] op r[b], where op on ty has
// one: the arithmetic and comparisons of f32 and f64, +, - and * of i32
// and i64, the comparisons of signed integers, == and != of any; none
// of these can fail.
func flatOp(op value.BinOp, ty value.PrimType, d, a, b int) (finsn, bool) {
	if o, ok := flatOps[ty][op]; ok {
		return finsn{op: o, d: int32(d), a: int32(a), b: int32(b)}, true
	}
	if o, ok := flatIntOps[op]; ok && ty.IsInt() && (ty.IsSigned() || op == value.OpEq || op == value.OpNeq) {
		return finsn{op: o, d: int32(d), a: int32(a), b: int32(b)}, true
	}
	return finsn{}, false
}

// flatOps and flatIntOps are the operators with opcodes, by type.
var (
	flatOps = map[value.PrimType]map[value.BinOp]fopcode{
		value.F32: {value.OpAdd: fAddF32, value.OpSub: fSubF32, value.OpMul: fMulF32, value.OpDiv: fDivF32,
			value.OpLt: fLtF32, value.OpLe: fLeF32, value.OpGt: fGtF32, value.OpGe: fGeF32},
		value.F64: {value.OpAdd: fAddF64, value.OpSub: fSubF64, value.OpMul: fMulF64, value.OpDiv: fDivF64,
			value.OpLt: fLtF64, value.OpLe: fLeF64, value.OpGt: fGtF64, value.OpGe: fGeF64},
		value.I64: {value.OpAdd: fAddI64, value.OpSub: fSubI64, value.OpMul: fMulI64},
		value.I32: {value.OpAdd: fAddI32, value.OpSub: fSubI32, value.OpMul: fMulI32},
	}
	flatIntOps = map[value.BinOp]fopcode{value.OpLt: fLtI, value.OpLe: fLeI, value.OpGt: fGtI, value.OpGe: fGeI,
		value.OpEq: fEqI, value.OpNeq: fNeqI}
)

// intrinsic compiles a scalar intrinsic as compiled code applies it
// (registerScalars): one that is a built-in operator as binop compiles
// the operator, any other as its function in scalarTable, as one step;
// sqrt of a float has a lane instruction. Where the function fails on an
// element's arguments, that gives up the flat run (flatFail).
func (fc *fcomp) intrinsic(name string, args []*kval) (*kval, bool) {
	tys := make([]value.PrimType, len(args))
	for i, a := range args {
		if !a.scalar() || a.typ == value.NoPrim {
			return nil, false
		}
		tys[i] = a.typ
	}
	if op, ok := intrinsicBinOps[name]; ok && len(args) == 2 {
		return fc.binop(op, args[0], args[1], fc.here())
	}
	sf, ok := scalarTable[name]
	rty := intrinsicType(name, tys)
	if !ok || sf.arity != len(args) || len(args) > 3 || rty == value.NoPrim {
		return nil, false
	}
	d := fc.reg()
	fc.step(fc.here())
	out := &kval{reg: d, typ: rty}
	switch len(args) {
	case 1:
		a, ty := args[0].reg, tys[0]
		switch {
		case name == "sqrt" && ty == value.F32:
			fc.k.code = append(fc.k.code, finsn{op: fSqrtF32, d: int32(d), a: int32(a)})
		case name == "sqrt" && ty == value.F64:
			fc.k.code = append(fc.k.code, finsn{op: fSqrtF64, d: int32(d), a: int32(a)})
		default:
			f := sf.fn1
			fc.emit1(d, a, func(x uint64) uint64 {
				p, err := f(regPrim(ty, x))
				if err != nil || p.T != rty {
					panic(flatFail{})
				}
				return regBits(p)
			})
		}
		return out, true
	}
	apply := func(ps []value.Prim) uint64 {
		p, err := sf.fn(ps)
		if err != nil || p.T != rty {
			panic(flatFail{})
		}
		return regBits(p)
	}
	if len(args) == 2 {
		fc.emit2(d, args[0].reg, args[1].reg, func(x, y uint64) uint64 {
			return apply([]value.Prim{regPrim(tys[0], x), regPrim(tys[1], y)})
		})
		return out, true
	}
	fc.k.code = append(fc.k.code, finsn{op: fCall3, d: int32(d), a: int32(args[0].reg), b: int32(args[1].reg), e: int32(args[2].reg), c: int32(len(fc.k.calls))})
	fc.k.calls = append(fc.k.calls, fins{f3: func(x, y, z uint64) uint64 {
		return apply([]value.Prim{regPrim(tys[0], x), regPrim(tys[1], y), regPrim(tys[2], z)})
	}})
	return out, true
}

// index compiles a[i] and a[i, j] of an array of scalars that the
// function captures (the form's head, resolved as it compiles), by its
// form: the indices, then the lane's read, charged by the form's rule
// (for a scalar, a scalar step), with compiled code's bounds check and
// offset (inBounds, rowMajor): an index out of bounds gives up the flat
// run (flatFail), and the general path reports it (evalIndicesBy).
func (fc *fcomp) index(x *syntax.Index, fr *kframe, e *env) (*kval, bool) {
	fm, _ := formOf(x)
	v, ok := unparen(fm.head).(*syntax.Var)
	if !ok || len(v.Name.Quals) > 0 || len(x.Indices) > 2 {
		return nil, false
	}
	if !fr.isFree(v) {
		return nil, false // a local array
	}
	fc.resolved(v.Name.Name, e) // a local array makes the kernel the closure's own
	av, err := fc.t.evalVar(v, e)
	if err != nil {
		return nil, false
	}
	a, ok := av.(*value.Array)
	if !ok || a.Kind != value.KPrim || len(a.Shape) != len(x.Indices) || a.T == value.NoPrim {
		return nil, false
	}
	for _, d := range x.Indices {
		if d.Fix == nil {
			return nil, false // a slice: fm.ops are not the fixed indices
		}
	}
	return fc.construct(fm, fr, e, func(is []*kval) (*kval, bool) {
		for _, iv := range is {
			if !iv.scalar() || !iv.typ.IsInt() {
				return nil, false
			}
		}
		get := elemBits(a)
		d, n0 := fc.reg(), a.Shape[0]
		if len(is) == 1 {
			fc.emit1(d, is[0].reg, func(x uint64) uint64 {
				if i := int64(x); inBounds(i, n0) {
					return get(i)
				}
				panic(flatFail{})
			})
		} else {
			n1 := a.Shape[1]
			fc.emit2(d, is[0].reg, is[1].reg, func(x, y uint64) uint64 {
				if i, j := int64(x), int64(y); inBounds(i, n0) && inBounds(j, n1) {
					return get(rowMajor(i, n1, j))
				}
				panic(flatFail{})
			})
		}
		return &kval{reg: d, typ: a.T}, true
	}, nil)
}

// elemBits reads element i of a's data as register bits.
func elemBits(a *value.Array) func(i int64) uint64 {
	switch d := a.Data.(type) {
	case []float32:
		if a.T == value.F32 {
			return func(i int64) uint64 { return uint64(math.Float32bits(d[i])) }
		}
	case []float64:
		return func(i int64) uint64 { return math.Float64bits(d[i]) }
	case []int64:
		return func(i int64) uint64 { return uint64(d[i]) }
	case []int32:
		return func(i int64) uint64 { return uint64(int64(d[i])) }
	}
	ty, data := a.T, a.Data
	return func(i int64) uint64 { return regBits(value.DataGet(ty, data, int(i))) }
}

// flatFail is the panic of a flat kernel's operation that fails (a
// division by zero): the SOAC gives up its flat run, which has charged
// nothing, and evaluates as if there were no flat kernel, so that the
// error is the one the general path reports, with its position.
type flatFail struct{}

// flatStop is the panic that ends a flat SOAC's loop early for an error
// (a tick that finds the evaluation interrupted), which the SOAC then
// reports: the SOAC's own, which it has noted, or err, a kernel's.
type flatStop struct{ err error }

// tryFlat runs body; ok is false when a flat kernel failed in it. A
// kernel's error that stopped it is put in *err.
func tryFlat(err *error, body func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			switch s := r.(type) {
			case flatFail:
				ok = false
			case flatStop:
				if s.err != nil {
					*err = s.err
				}
				ok = true
			default:
				panic(r)
			}
		}
	}()
	body()
	return true
}
