package ir

import (
	"context"
	"fmt"
	"math"

	"fut/eval/value"
)

// Eval runs a program on arguments (one per parameter) and returns its
// result: one value, or a tuple when the program returns several. It
// reuses eval/value's scalars, arrays and arithmetic, so its results are
// those of the reference evaluator (up to the order of float reductions).
func Eval(ctx context.Context, p *Prog, args []value.Value) (value.Value, error) {
	vs, err := EvalAll(ctx, p, args)
	if err != nil {
		return nil, err
	}
	if len(vs) == 1 {
		return vs[0], nil
	}
	return value.Tuple(vs), nil
}

// EvalAll is Eval returning every result separately.
func EvalAll(ctx context.Context, p *Prog, args []value.Value) (out []value.Value, err error) {
	if len(args) != len(p.Params) {
		return nil, fmt.Errorf("ir: %d arguments for %d parameters", len(args), len(p.Params))
	}
	m := &machine{ctx: ctx, env: map[string]value.Value{}}
	for i, prm := range p.Params {
		m.env[prm.Name] = args[i]
	}
	return m.body(p.Body)
}

type machine struct {
	ctx   context.Context
	env   map[string]value.Value
	steps int
}

// RuntimeError is an error in the evaluated program (an index out of
// bounds, a division by zero), as opposed to a malformed program.
type RuntimeError struct{ Msg string }

func (e *RuntimeError) Error() string { return e.Msg }

func rtErr(format string, args ...any) error {
	return &RuntimeError{fmt.Sprintf(format, args...)}
}

func (m *machine) atom(a Atom) value.Value {
	if a.IsConst() {
		return a.Val
	}
	v, ok := m.env[a.Name]
	if !ok {
		panic("ir eval: unbound " + a.Name)
	}
	return v
}

func (m *machine) prim(a Atom) value.Prim { return m.atom(a).(value.Prim) }
func (m *machine) int(a Atom) int64      { return m.prim(a).AsInt64() }
func (m *machine) arr(name string) *value.Array {
	return m.env[name].(*value.Array)
}

func (m *machine) body(b *Body) ([]value.Value, error) {
	for _, st := range b.Stms {
		vs, err := m.exp(st.E)
		if err != nil {
			return nil, err
		}
		for i, p := range st.Pat {
			m.env[p.Name] = vs[i]
		}
	}
	out := make([]value.Value, len(b.Res))
	for i, a := range b.Res {
		out[i] = m.atom(a)
	}
	return out, nil
}

func (m *machine) apply(l *Lambda, args []value.Value) ([]value.Value, error) {
	for i, p := range l.Params {
		m.env[p.Name] = args[i]
	}
	return m.body(l.Body)
}

func (m *machine) check() error {
	m.steps++
	if m.steps&1023 == 0 && m.ctx != nil {
		if err := m.ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

func one(v value.Value) []value.Value { return []value.Value{v} }

func (m *machine) exp(e Exp) ([]value.Value, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	switch e := e.(type) {
	case *AtomE:
		return one(m.atom(e.X)), nil
	case *BinOpE:
		r, err := binop(e.Op, m.prim(e.X), m.prim(e.Y))
		if err != nil {
			return nil, rtErr("%s", err)
		}
		return one(r), nil
	case *UnOpE:
		args := make([]value.Prim, len(e.Args))
		for i, a := range e.Args {
			args[i] = m.prim(a)
		}
		r, err := unop(e.Op, args)
		if err != nil {
			return nil, err
		}
		return one(r), nil
	case *ConvE:
		return one(value.Convert(m.prim(e.X), e.To)), nil
	case *IfE:
		if m.prim(e.Cond).Bool() {
			return m.body(e.Then)
		}
		return m.body(e.Else)
	case *LoopE:
		vs := make([]value.Value, len(e.Init))
		for i, a := range e.Init {
			vs[i] = m.atom(a)
		}
		n := m.int(e.Bound)
		for i := int64(0); i < n; i++ {
			m.env[e.I] = value.I64Val(i)
			for k, p := range e.Params {
				m.env[p.Name] = vs[k]
			}
			var err error
			if vs, err = m.body(e.Body); err != nil {
				return nil, err
			}
		}
		return vs, nil
	case *IndexE:
		v := m.atom(V(e.Arr))
		for _, ia := range e.Idx {
			a := v.(*value.Array)
			i := m.int(ia)
			if i < 0 || i >= a.Len() {
				return nil, rtErr("index %d out of bounds for array of %d elements", i, a.Len())
			}
			v = a.Index(i)
		}
		return one(v), nil
	case *UpdateE:
		a := m.arr(e.Arr).Copy()
		row := a
		for k, ia := range e.Idx {
			i := m.int(ia)
			if i < 0 || i >= row.Len() {
				return nil, rtErr("index %d out of bounds for array of %d elements", i, row.Len())
			}
			if k == len(e.Idx)-1 {
				if err := row.SetRow(i, m.atom(e.X)); err != nil {
					return nil, err
				}
			} else {
				row = row.Index(i).(*value.Array)
			}
		}
		return one(a), nil
	case *IotaE:
		n := m.int(e.N)
		if n < 0 {
			return nil, rtErr("iota of negative size %d", n)
		}
		a := value.NewPrimArray(value.I64, []int64{n})
		for i := int64(0); i < n; i++ {
			value.DataSet(a.Data, int(i), value.I64Val(i))
		}
		return one(a), nil
	case *ReplicateE:
		n := m.int(e.N)
		if n < 0 {
			return nil, rtErr("replicate of negative size %d", n)
		}
		return one(value.Replicate(n, m.atom(e.X))), nil
	case *ArrayE:
		vs := make([]value.Value, len(e.Elems))
		for i, a := range e.Elems {
			vs[i] = m.atom(a)
		}
		a, err := value.FromValues(vs, m.zero(e.Elem))
		if err != nil {
			return nil, err
		}
		return one(a), nil
	case *TransposeE:
		return one(m.arr(e.Arr).Transpose()), nil
	case *CopyE:
		return one(m.arr(e.Arr).Copy()), nil
	case *ScremaE:
		return m.screma(e)
	case *ScatterE:
		return m.scatter(e.Dest, e.W, e.Arrs, e.Index, e.Map, nil)
	case *HistE:
		return m.scatter(e.Dest, e.W, e.Arrs, e.Index, e.Map, e.Op)
	}
	return nil, fmt.Errorf("ir eval: unknown expression %T", e)
}

// zero is a value of type t (for empty arrays' templates).
func (m *machine) zero(t Type) value.Value {
	z := value.Prim{T: t.Elem}
	if t.Rank() == 0 {
		return z
	}
	shape := make([]int64, t.Rank())
	for i, d := range t.Shape {
		shape[i] = m.int(d)
	}
	return value.NewPrimArray(t.Elem, shape)
}

func (m *machine) row(arrs []string, i int64) []value.Value {
	vs := make([]value.Value, len(arrs))
	for k, a := range arrs {
		vs[k] = m.arr(a).Index(i)
	}
	return vs
}

func (m *machine) screma(e *ScremaE) ([]value.Value, error) {
	n := m.int(e.W)
	nscan, nred := 0, 0
	for _, op := range e.Scans {
		nscan += op.Arity()
	}
	for _, op := range e.Reds {
		nred += op.Arity()
	}
	nmap := len(e.Map.Ret) - nscan - nred
	scanAcc := m.nes(e.Scans)
	redAcc := m.nes(e.Reds)
	scanOut := make([][]value.Value, nscan)
	mapOut := make([][]value.Value, nmap)
	for i := int64(0); i < n; i++ {
		if e.Index != "" {
			m.env[e.Index] = value.I64Val(i)
		}
		res, err := m.apply(e.Map, m.row(e.Arrs, i))
		if err != nil {
			return nil, err
		}
		if err := m.combine(e.Scans, scanAcc, res[:nscan]); err != nil {
			return nil, err
		}
		for k := range scanAcc {
			scanOut[k] = append(scanOut[k], scanAcc[k])
		}
		if err := m.combine(e.Reds, redAcc, res[nscan:nscan+nred]); err != nil {
			return nil, err
		}
		for k := range mapOut {
			mapOut[k] = append(mapOut[k], res[nscan+nred+k])
		}
	}
	var out []value.Value
	rets := e.Map.Ret
	for k, vs := range scanOut {
		a, err := value.FromValues(vs, m.zero(rets[k]))
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	out = append(out, redAcc...)
	for k, vs := range mapOut {
		a, err := value.FromValues(vs, m.zero(rets[nscan+nred+k]))
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

func (m *machine) nes(ops []*SegOp) []value.Value {
	var acc []value.Value
	for _, op := range ops {
		for _, ne := range op.Nes {
			acc = append(acc, m.atom(ne))
		}
	}
	return acc
}

// combine folds xs into acc in place, operator by operator.
func (m *machine) combine(ops []*SegOp, acc, xs []value.Value) error {
	k := 0
	for _, op := range ops {
		a := op.Arity()
		args := append(append([]value.Value{}, acc[k:k+a]...), xs[k:k+a]...)
		r, err := m.apply(op.Lam, args)
		if err != nil {
			return err
		}
		copy(acc[k:k+a], r)
		k += a
	}
	return nil
}

func (m *machine) scatter(dest string, w Atom, arrs []string, index string, lam *Lambda, op *SegOp) ([]value.Value, error) {
	d := m.arr(dest).Copy()
	n := m.int(w)
	for i := int64(0); i < n; i++ {
		if index != "" {
			m.env[index] = value.I64Val(i)
		}
		res, err := m.apply(lam, m.row(arrs, i))
		if err != nil {
			return nil, err
		}
		j := res[0].(value.Prim).AsInt64()
		if j < 0 || j >= d.Len() {
			continue
		}
		v := res[1]
		if op != nil {
			r, err := m.apply(op.Lam, []value.Value{d.Index(j), v})
			if err != nil {
				return nil, err
			}
			v = r[0]
		}
		if err := d.SetRow(j, v); err != nil {
			return nil, err
		}
	}
	return one(d), nil
}

var extraBinOps = map[string]value.BinOp{"min": value.OpMin, "max": value.OpMax}

func binop(op string, x, y value.Prim) (value.Prim, error) {
	bop, ok := value.LookupBinOp(op)
	if !ok {
		bop, ok = extraBinOps[op]
	}
	if !ok {
		return value.Prim{}, fmt.Errorf("unknown operator %s", op)
	}
	return value.Binary(bop, x, y)
}

func unop(op string, args []value.Prim) (value.Prim, error) {
	x := args[0]
	switch op {
	case "neg":
		return value.Neg(x), nil
	case "not":
		return value.Not(x), nil
	case "abs":
		if x.T.IsFloat() {
			return value.MkFloat(x.T, math.Abs(x.Float())), nil
		}
		if x.T.IsSigned() && x.Int() < 0 {
			return value.Neg(x), nil
		}
		return x, nil
	case "sgn":
		switch {
		case x.T.IsFloat():
			f := x.Float()
			s := 0.0
			if f > 0 {
				s = 1
			} else if f < 0 {
				s = -1
			} else {
				s = f
			}
			return value.MkFloat(x.T, s), nil
		case x.T.IsSigned() && x.Int() < 0:
			return value.MkInt(x.T, -1), nil
		case x.B == 0:
			return x, nil
		}
		return value.MkInt(x.T, 1), nil
	case "isnan":
		return value.MkBool(x.T.IsFloat() && math.IsNaN(x.Float())), nil
	case "isinf":
		return value.MkBool(x.T.IsFloat() && math.IsInf(x.Float(), 0)), nil
	}
	if len(args) == 1 {
		if r, ok := value.Math1(op, x); ok {
			return r, nil
		}
	} else if len(args) == 2 {
		if r, ok := value.Math2(op, x, args[1]); ok {
			return r, nil
		}
	}
	return value.Prim{}, fmt.Errorf("ir eval: unknown function %s of %d arguments", op, len(args))
}
