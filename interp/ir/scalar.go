package ir

import (
	"math"

	"fut/eval/value"
)

// The scalar functions of UnOpE beyond the arithmetic ones and the float
// math library (value.Math1, value.Math2): bit counts, high halves of
// products, fused multiply-adds and reinterpretations of a float's bits,
// with the reference evaluator's semantics (eval/intrinsics.go).

// unOpResult is the primitive type of op applied to operands of type t.
func unOpResult(op string, t Prim) Prim {
	if r, ok := value.FixedResult(op); ok {
		return r
	}
	return t
}

// bitOp evaluates the functions above (ok false for any other op).
func bitOp(op string, a []value.Prim) (value.Prim, bool) {
	switch op {
	case "popc":
		return value.I32Val(int32(value.Popc(a[0]))), true
	case "clz":
		return value.I32Val(int32(value.Clz(a[0]))), true
	case "ctz":
		return value.I32Val(int32(value.Ctz(a[0]))), true
	case "mul_hi":
		return value.MulHi(a[0], a[1]), true
	case "mad_hi":
		r, _ := value.Binary(value.OpAdd, value.MulHi(a[0], a[1]), a[2])
		return r, true
	case "fma":
		return value.FMA(a[0], a[1], a[2]), true
	case "mad":
		return value.MkFloat(a[0].T, a[0].Float()*a[1].Float()+a[2].Float()), true
	case "lerp":
		return value.MkFloat(a[0].T, a[0].Float()+(a[1].Float()-a[0].Float())*a[2].Float()), true
	case "ldexp":
		return value.MkFloat(a[0].T, math.Ldexp(a[0].Float(), int(a[1].Int()))), true
	case "f16_from_bits":
		return value.FromBits(value.F16, a[0].B), true
	case "f32_from_bits":
		return value.FromBits(value.F32, a[0].B), true
	case "f64_from_bits":
		return value.FromBits(value.F64, a[0].B), true
	case "f16_to_bits":
		return value.MkUint(value.U16, value.BitsOf(a[0])), true
	case "f32_to_bits":
		return value.MkUint(value.U32, value.BitsOf(a[0])), true
	case "f64_to_bits":
		return value.MkUint(value.U64, value.BitsOf(a[0])), true
	}
	return value.Prim{}, false
}

// EvalScalar evaluates a scalar expression (an operator, a conversion, a
// copy of an atom) whose variables are all in known; ok is false for any
// other expression or when a variable is unknown or the operation fails.
func EvalScalar(e Exp, known map[string]value.Prim) (value.Prim, bool) {
	get := func(a Atom) (value.Prim, bool) {
		if a.IsConst() {
			return a.Val, true
		}
		p, ok := known[a.Name]
		return p, ok
	}
	switch e := e.(type) {
	case *AtomE:
		return get(e.X)
	case *BinOpE:
		x, ok1 := get(e.X)
		y, ok2 := get(e.Y)
		if !ok1 || !ok2 {
			return value.Prim{}, false
		}
		r, err := BinOp(e.Op, x, y)
		return r, err == nil
	case *ConvE:
		x, ok := get(e.X)
		if !ok {
			return value.Prim{}, false
		}
		return value.Convert(x, e.To), true
	}
	return value.Prim{}, false
}

// AssertError is a failed AssertE: the message and source position of the
// check, as the reference path reports it.
type AssertError struct {
	Msg    string
	Where  string
	Approx bool // Msg is not the reference path's
}

func (e *AssertError) Error() string {
	if e.Where == "" {
		return e.Msg
	}
	pos, _ := SplitWhere(e.Where)
	return pos + ": " + e.Msg
}

// checkOnly marks the statements of b that are assertions or scalar
// computations whose results only assertions (and other such statements)
// use, or use as a size the lowering computes (sizeUse): the checks and
// size arithmetic a lowering adds for slices, coercions and sizes.
func checkOnly(b *Body) []bool {
	marks := make([]bool, len(b.Stms))
	usedBy := map[string][]int{} // name → the statements that use it
	for i, st := range b.Stms {
		uses(st.E, func(n string) { usedBy[n] = append(usedBy[n], i) })
	}
	inRes := map[string]bool{}
	for _, a := range b.Res {
		inRes[a.Name] = true
	}
	for i := len(b.Stms) - 1; i >= 0; i-- {
		st := b.Stms[i]
		if _, ok := st.E.(*AssertE); ok {
			marks[i] = true
			continue
		}
		if !scalarOnly(st.E) {
			continue
		}
		only := true
		for _, p := range st.Pat {
			if inRes[p.Name] || len(usedBy[p.Name]) == 0 {
				only = false
			}
			for _, j := range usedBy[p.Name] {
				only = only && j > i && (marks[j] || sizeUse(b.Stms[j].E, p.Name) || checkInside(b.Stms[j].E, p.Name))
			}
		}
		marks[i] = only
	}
	return marks
}

// checkInside reports whether e uses name only inside its nested bodies
// (a branch, a loop's body, a SOAC's lambdas) and there only in checks
// and sizes, as checkOnly marks them, or in types: a check's scalars that
// the simplifier hoisted out of a lambda stay a check's, which the
// source does not charge.
func checkInside(e Exp, name string) bool {
	total, inside := 0, 0
	count := func(n string) {
		if n == name {
			inside++
		}
	}
	uses(e, func(n string) {
		if n == name {
			total++
		}
	})
	typ := func(t Type) {
		for _, d := range t.Shape {
			count(d.Name)
		}
	}
	ok := true
	var body func(b *Body)
	body = func(b *Body) {
		if b == nil {
			return
		}
		marks := checkOnly(b)
		for k, st := range b.Stms {
			for _, p := range st.Pat {
				typ(p.T)
			}
			n := 0
			uses(st.E, func(x string) {
				if x == name {
					n++
				}
			})
			if n > 0 {
				inside += n
				ok = ok && (marks[k] || sizeUse(st.E, name) || checkInside(st.E, name))
			}
		}
		for _, a := range b.Res {
			if a.Name == name {
				inside++
				ok = false
			}
		}
	}
	lambda := func(l *Lambda) {
		if l == nil {
			return
		}
		for _, p := range l.Params {
			typ(p.T)
		}
		for _, t := range l.Ret {
			typ(t)
		}
		body(l.Body)
	}
	switch e := e.(type) {
	case *IfE:
		body(e.Then)
		body(e.Else)
		for _, t := range e.Ret {
			typ(t)
		}
	case *LoopE:
		body(e.While)
		body(e.Body)
		for _, p := range append(append([]Param{}, e.Params...), e.Elems...) {
			typ(p.T)
		}
	case *ScremaE:
		for _, op := range append(append([]*SegOp{}, e.Scans...), e.Reds...) {
			lambda(op.Lam)
		}
		lambda(e.Map)
	case *FilterE:
		lambda(e.Map)
	case *StreamE:
		lambda(e.Red)
		lambda(e.Fold)
	case *ScatterE:
		lambda(e.Map)
	case *HistE:
		lambda(e.Op.Lam)
		lambda(e.Map)
	default:
		return false
	}
	return ok && total > 0 && inside == total
}

// scalarOnly reports whether e is scalar arithmetic: an operation on
// scalars, or an if whose branches are only such operations and return
// scalars (a range's length picks its sign so).
func scalarOnly(e Exp) bool {
	switch e := e.(type) {
	case *BinOpE, *UnOpE, *ConvE, *AtomE:
		return true
	case *IfE:
		for _, t := range e.Ret {
			if t.Rank() > 0 {
				return false
			}
		}
		for _, b := range []*Body{e.Then, e.Else} {
			for _, st := range b.Stms {
				if !scalarOnly(st.E) {
					return false
				}
			}
		}
		return true
	}
	return false
}

// sizeUse reports whether e uses name only as a size the lowering
// computed (a concatenation's length, a coercion's shape, a SOAC's
// width: the length of its arrays, or of a range or iota fused into it),
// which the source's figures do not charge.
func sizeUse(e Exp, name string) bool {
	only := func(w Atom, arrs []string, lam ...*Lambda) bool {
		if w.Name != name {
			return false
		}
		used := false
		for _, l := range lam {
			if l != nil {
				uses(&ScremaE{Map: l}, func(n string) { used = used || n == name })
			}
		}
		return !used
	}
	switch e := e.(type) {
	case *ConcatE:
		return e.N.Name == name
	case *ReshapeE:
		return e.Coerce && e.Arr != name
	case *IotaE:
		// a range's or an iota's length (the source's rule charges
		// only its elements)
		return e.N.Name == name && e.Start.Name != name
	case *SliceE:
		// a slice's length (its start is the source's)
		return e.Len.Name == name && e.Start.Name != name
	case *ReplicateE:
		return e.N.Name == name && e.X.Name != name
	case *ScremaE:
		return only(e.W, e.Arrs, e.Map)
	case *FilterE:
		return only(e.W, e.Arrs, e.Map)
	case *ScatterE:
		return only(e.W, e.Arrs, e.Map)
	case *HistE:
		return only(e.W, e.Arrs, e.Map)
	case *StreamE:
		return only(e.W, e.Arrs, e.Fold)
	}
	return false
}
