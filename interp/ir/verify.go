package ir

import (
	"fmt"

	"fut/eval/value"
)

// Verify checks a program's invariants: every name bound once and in scope
// where used, operand and result types (shapes included) agree, SOAC
// lambdas fit their inputs, and no array is used after it was consumed.
func Verify(p *Prog) error {
	v := &verifier{bound: map[string]bool{}}
	sc := &vscope{vars: map[string]Type{}}
	for _, prm := range p.Params {
		if err := v.bind(sc, prm); err != nil {
			return err
		}
	}
	ts, err := v.body(sc, p.Body)
	if err != nil {
		return err
	}
	return SameTypes("the program's result", ts, p.Ret)
}

type vscope struct {
	vars     map[string]Type
	consumed map[string]bool
	parent   *vscope
	lambda   bool // a lambda boundary: outer arrays may not be consumed
}

func (s *vscope) lookup(name string) (Type, bool, bool) {
	crossed := false
	for x := s; x != nil; x = x.parent {
		if x.consumed[name] {
			return Type{}, false, true
		}
		if t, ok := x.vars[name]; ok {
			return t, crossed, false
		}
		crossed = crossed || x.lambda
	}
	return Type{}, false, false
}

type verifier struct {
	bound map[string]bool
}

func (v *verifier) bind(sc *vscope, p Param) error {
	if p.Name == "" {
		return fmt.Errorf("verify: empty name")
	}
	if v.bound[p.Name] {
		return fmt.Errorf("verify: %s is bound twice", p.Name)
	}
	for _, d := range p.T.Shape {
		if err := v.atomIs(sc, d, Scalar(value.I64), "a size of "+p.Name); err != nil {
			return err
		}
	}
	v.bound[p.Name] = true
	sc.vars[p.Name] = p.T
	return nil
}

func (v *verifier) atom(sc *vscope, a Atom) (Type, error) {
	if a.IsConst() {
		if a.Val.T == value.NoPrim {
			return Type{}, fmt.Errorf("verify: constant without a type")
		}
		return Scalar(a.Val.T), nil
	}
	t, _, consumed := sc.lookup(a.Name)
	if consumed {
		return Type{}, fmt.Errorf("verify: %s is used after it was consumed", a.Name)
	}
	if t.Elem == value.NoPrim {
		return Type{}, fmt.Errorf("verify: %s is not in scope", a.Name)
	}
	return t, nil
}

func (v *verifier) atomIs(sc *vscope, a Atom, want Type, what string) error {
	t, err := v.atom(sc, a)
	if err != nil {
		return err
	}
	if !t.Equal(want) {
		return fmt.Errorf("verify: %s has type %s, expected %s", what, t, want)
	}
	return nil
}

func (v *verifier) consume(sc *vscope, name string) error {
	_, crossed, consumed := sc.lookup(name)
	if consumed {
		return fmt.Errorf("verify: %s is consumed twice", name)
	}
	if crossed {
		return fmt.Errorf("verify: a lambda consumes %s, which it did not bind", name)
	}
	if sc.consumed == nil {
		sc.consumed = map[string]bool{}
	}
	sc.consumed[name] = true
	return nil
}

func (v *verifier) body(sc *vscope, b *Body) ([]Type, error) {
	for _, st := range b.Stms {
		if f, ok := st.E.(*FilterE); ok {
			if err := v.filter(sc, st.Pat, f); err != nil {
				return nil, err
			}
			continue
		}
		if ie, ok := st.E.(*IfE); ok && existential(st.Pat) {
			if err := v.ifExt(sc, st.Pat, ie); err != nil {
				return nil, err
			}
			continue
		}
		if le, ok := st.E.(*LoopE); ok && existential(st.Pat) {
			ts, err := v.exp(sc, le)
			if err != nil {
				return nil, err
			}
			// the results' sizes are the pattern's own, where the loop's
			// parameters name its size parameters
			names := make([]Atom, len(st.Pat))
			for i, p := range st.Pat {
				names[i] = V(p.Name)
			}
			for i := range ts {
				ts[i] = sizeSubst(ts[i], le.Params, names)
			}
			if err := SameTypes(fmt.Sprintf("let (%s …) = loop", patName(st.Pat)), ParamTypes(st.Pat), ts); err != nil {
				return nil, err
			}
			for _, p := range st.Pat {
				if err := v.bind(sc, p); err != nil {
					return nil, err
				}
			}
			continue
		}
		ts, err := v.exp(sc, st.E)
		if err != nil {
			return nil, err
		}
		if err := SameTypes(fmt.Sprintf("let (%s …)", patName(st.Pat)), ParamTypes(st.Pat), ts); err != nil {
			return nil, err
		}
		for _, p := range st.Pat {
			if err := v.bind(sc, p); err != nil {
				return nil, err
			}
		}
	}
	var out []Type
	for _, a := range b.Res {
		t, err := v.atom(sc, a)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func patName(ps []Param) string {
	if len(ps) == 0 {
		return ""
	}
	return ps[0].Name
}

func ParamTypes(ps []Param) []Type {
	ts := make([]Type, len(ps))
	for i, p := range ps {
		ts[i] = p.T
	}
	return ts
}

func SameTypes(what string, got, want []Type) error {
	if len(got) != len(want) {
		return fmt.Errorf("verify: %s: %d values, expected %d", what, len(got), len(want))
	}
	for i := range got {
		if !got[i].Equal(want[i]) {
			return fmt.Errorf("verify: %s: value %d has type %s, expected %s", what, i, got[i], want[i])
		}
	}
	return nil
}

// Equal compares element types and shapes (not uniqueness).
func (t Type) Equal(u Type) bool {
	if t.Elem != u.Elem || len(t.Shape) != len(u.Shape) {
		return false
	}
	for i := range t.Shape {
		if t.Shape[i] != u.Shape[i] {
			return false
		}
	}
	return true
}

// lambda checks l in a new scope whose outer arrays it may not consume,
// with parameters of the given types, and returns its result types.
func (v *verifier) lambda(sc *vscope, l *Lambda, args []Type, index string, what string) error {
	inner := &vscope{vars: map[string]Type{}, parent: sc, lambda: true}
	if index != "" {
		if err := v.bind(inner, Param{index, Scalar(value.I64)}); err != nil {
			return err
		}
	}
	if err := SameTypes(what+"'s parameters", ParamTypes(l.Params), args); err != nil {
		return err
	}
	for _, p := range l.Params {
		if err := v.bind(inner, p); err != nil {
			return err
		}
	}
	ts, err := v.body(inner, l.Body)
	if err != nil {
		return err
	}
	return SameTypes(what+"'s result", ts, l.Ret)
}

func (v *verifier) rows(sc *vscope, w Atom, arrs []string, what string) ([]Type, error) {
	if err := v.atomIs(sc, w, Scalar(value.I64), what+"'s width"); err != nil {
		return nil, err
	}
	var rows []Type
	for _, a := range arrs {
		t, err := v.atom(sc, V(a))
		if err != nil {
			return nil, err
		}
		if t.Rank() == 0 || t.Shape[0] != w {
			return nil, fmt.Errorf("verify: %s's input %s has type %s, not an array of %s elements", what, a, t, w)
		}
		rows = append(rows, t.Row())
	}
	return rows, nil
}

func (v *verifier) segop(sc *vscope, op *SegOp, what string) ([]Type, error) {
	var ts []Type
	for _, ne := range op.Nes {
		t, err := v.atom(sc, ne)
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
	}
	if err := v.lambda(sc, op.Lam, append(append([]Type{}, ts...), ts...), "", what); err != nil {
		return nil, err
	}
	return ts, nil
}

func (v *verifier) exp(sc *vscope, e Exp) ([]Type, error) {
	switch e := e.(type) {
	case *AtomE:
		t, err := v.atom(sc, e.X)
		return []Type{t}, err
	case *BinOpE:
		x, err := v.atom(sc, e.X)
		if err != nil {
			return nil, err
		}
		if err := v.atomIs(sc, e.Y, x, "the right operand of "+e.Op); err != nil {
			return nil, err
		}
		if x.Rank() != 0 {
			return nil, fmt.Errorf("verify: %s on arrays", e.Op)
		}
		return []Type{BinOpResult(e.Op, x.Elem)}, nil
	case *UnOpE:
		var t Type
		for i, a := range e.Args {
			at, err := v.atom(sc, a)
			if err != nil {
				return nil, err
			}
			if i == 0 {
				t = at
			} else if !at.Equal(t) && !(e.Op == "ldexp" && i == 1) {
				return nil, fmt.Errorf("verify: %s's operands differ in type", e.Op)
			}
		}
		if len(e.Args) == 0 || t.Rank() != 0 {
			return nil, fmt.Errorf("verify: bad operands of %s", e.Op)
		}
		return []Type{Scalar(unOpResult(e.Op, t.Elem))}, nil
	case *AssertE:
		if err := v.atomIs(sc, e.Cond, Scalar(value.Bool), "an assertion"); err != nil {
			return nil, err
		}
		return []Type{Scalar(value.Bool)}, nil
	case *ConvE:
		t, err := v.atom(sc, e.X)
		if err != nil || t.Rank() != 0 {
			return nil, fmt.Errorf("verify: conversion of a non-scalar")
		}
		return []Type{Scalar(e.To)}, nil
	case *IfE:
		if err := v.atomIs(sc, e.Cond, Scalar(value.Bool), "a condition"); err != nil {
			return nil, err
		}
		for _, b := range []*Body{e.Then, e.Else} {
			ts, err := v.body(&vscope{vars: map[string]Type{}, parent: sc}, b)
			if err != nil {
				return nil, err
			}
			if err := SameTypes("a branch", ts, e.Ret); err != nil {
				return nil, err
			}
		}
		return e.Ret, nil
	case *LoopE:
		inner := &vscope{vars: map[string]Type{}, parent: sc}
		if len(e.Init) != len(e.Params) {
			return nil, fmt.Errorf("verify: a loop with %d parameters and %d initial values", len(e.Params), len(e.Init))
		}
		// A parameter's type may name an earlier size parameter (a loop
		// whose arrays change size): it is that size's initial value here,
		// and the body's result for it below.
		for i, p := range e.Params {
			if err := v.atomIs(sc, e.Init[i], sizeSubst(p.T, e.Params, e.Init), "the initial value of "+p.Name); err != nil {
				return nil, err
			}
		}
		if e.While == nil {
			if err := v.atomIs(sc, e.Bound, Scalar(value.I64), "a loop bound"); err != nil {
				return nil, err
			}
			if err := v.bind(inner, Param{e.I, Scalar(value.I64)}); err != nil {
				return nil, err
			}
			rows, err := v.rows(sc, e.Bound, e.Over, "for … in")
			if err != nil {
				return nil, err
			}
			if err := SameTypes("for … in's elements", ParamTypes(e.Elems), rows); err != nil {
				return nil, err
			}
			for _, p := range e.Elems {
				if err := v.bind(inner, p); err != nil {
					return nil, err
				}
			}
		}
		for _, p := range e.Params {
			if err := v.bind(inner, p); err != nil {
				return nil, err
			}
		}
		if e.While != nil {
			ts, err := v.body(&vscope{vars: map[string]Type{}, parent: inner}, e.While)
			if err != nil {
				return nil, err
			}
			if err := SameTypes("a while condition", ts, []Type{Scalar(value.Bool)}); err != nil {
				return nil, err
			}
		}
		ts, err := v.body(inner, e.Body)
		if err != nil {
			return nil, err
		}
		if len(ts) != len(e.Params) {
			return nil, fmt.Errorf("verify: the loop body returns %d values for %d parameters", len(ts), len(e.Params))
		}
		want := make([]Type, len(e.Params))
		for i, p := range e.Params {
			want[i] = sizeSubst(p.T, e.Params, e.Body.Res)
		}
		if err := SameTypes("the loop body", ts, want); err != nil {
			return nil, err
		}
		return ParamTypes(e.Params), nil
	case *IndexE:
		t, err := v.atom(sc, V(e.Arr))
		if err != nil {
			return nil, err
		}
		if len(e.Idx) > t.Rank() {
			return nil, fmt.Errorf("verify: %d indices into %s of rank %d", len(e.Idx), e.Arr, t.Rank())
		}
		for _, i := range e.Idx {
			if err := v.atomIs(sc, i, Scalar(value.I64), "an index"); err != nil {
				return nil, err
			}
		}
		return []Type{{Elem: t.Elem, Shape: t.Shape[len(e.Idx):]}}, nil
	case *UpdateE:
		t, err := v.atom(sc, V(e.Arr))
		if err != nil {
			return nil, err
		}
		if len(e.Idx) == 0 || len(e.Idx) > t.Rank() {
			return nil, fmt.Errorf("verify: update of %s with %d indices", e.Arr, len(e.Idx))
		}
		for _, i := range e.Idx {
			if err := v.atomIs(sc, i, Scalar(value.I64), "an index"); err != nil {
				return nil, err
			}
		}
		if err := v.atomIs(sc, e.X, Type{Elem: t.Elem, Shape: t.Shape[len(e.Idx):]}, "the updated value"); err != nil {
			return nil, err
		}
		return []Type{t}, v.consume(sc, e.Arr)
	case *SliceE:
		t, err := v.atom(sc, V(e.Arr))
		if err != nil {
			return nil, err
		}
		if t.Rank() == 0 {
			return nil, fmt.Errorf("verify: slice of the scalar %s", e.Arr)
		}
		for _, a := range []Atom{e.Start, e.Len} {
			if err := v.atomIs(sc, a, Scalar(value.I64), "a slice bound"); err != nil {
				return nil, err
			}
		}
		return []Type{{Elem: t.Elem, Shape: append([]Atom{e.Len}, t.Shape[1:]...)}}, nil
	case *IotaE:
		if err := v.atomIs(sc, e.N, Scalar(value.I64), "iota's size"); err != nil {
			return nil, err
		}
		st, err := v.atom(sc, e.start())
		if err != nil {
			return nil, err
		}
		if st.Rank() != 0 || !st.Elem.IsInt() {
			return nil, fmt.Errorf("verify: iota from a %s", st)
		}
		return []Type{{Elem: st.Elem, Shape: []Atom{e.N}}}, nil
	case *ReplicateE:
		if err := v.atomIs(sc, e.N, Scalar(value.I64), "replicate's size"); err != nil {
			return nil, err
		}
		t, err := v.atom(sc, e.X)
		if err != nil {
			return nil, err
		}
		return []Type{t.ArrayOf(e.N)}, nil
	case *ArrayE:
		for _, a := range e.Elems {
			if err := v.atomIs(sc, a, e.Elem, "an array element"); err != nil {
				return nil, err
			}
		}
		return []Type{e.Elem.ArrayOf(I64(int64(len(e.Elems))))}, nil
	case *TransposeE:
		t, err := v.atom(sc, V(e.Arr))
		if err != nil {
			return nil, err
		}
		if t.Rank() < 2 {
			return nil, fmt.Errorf("verify: transpose of rank %d", t.Rank())
		}
		sh := append([]Atom{t.Shape[1], t.Shape[0]}, t.Shape[2:]...)
		return []Type{{Elem: t.Elem, Shape: sh}}, nil
	case *CopyE:
		t, err := v.atom(sc, V(e.Arr))
		return []Type{t}, err
	case *ReverseE:
		t, err := v.atom(sc, V(e.Arr))
		if err == nil && t.Rank() == 0 {
			err = fmt.Errorf("verify: reverse of the scalar %s", e.Arr)
		}
		return []Type{t}, err
	case *ConcatE:
		if err := v.atomIs(sc, e.N, Scalar(value.I64), "concat's length"); err != nil {
			return nil, err
		}
		var row Type
		for i, a := range e.Arrs {
			t, err := v.atom(sc, V(a))
			if err != nil {
				return nil, err
			}
			if t.Rank() == 0 || i > 0 && !t.Row().Equal(row) {
				return nil, fmt.Errorf("verify: concat of %s, whose rows do not match", a)
			}
			row = t.Row()
		}
		if len(e.Arrs) == 0 {
			return nil, fmt.Errorf("verify: concat of nothing")
		}
		return []Type{row.ArrayOf(e.N)}, nil
	case *ReshapeE:
		t, err := v.atom(sc, V(e.Arr))
		if err != nil {
			return nil, err
		}
		for _, d := range e.Shape {
			if err := v.atomIs(sc, d, Scalar(value.I64), "a dimension"); err != nil {
				return nil, err
			}
		}
		if t.Rank() == 0 || len(e.Shape) == 0 {
			return nil, fmt.Errorf("verify: reshape of a scalar or to a scalar")
		}
		return []Type{{Elem: t.Elem, Shape: e.Shape}}, nil
	case *ScremaE:
		rows, err := v.rows(sc, e.W, e.Arrs, "screma")
		if err != nil {
			return nil, err
		}
		if err := v.lambda(sc, e.Map, rows, e.Index, "screma's map"); err != nil {
			return nil, err
		}
		var outs []Type
		k := 0
		for _, op := range e.Scans {
			ts, err := v.segop(sc, op, "a scan operator")
			if err != nil {
				return nil, err
			}
			if err := SameTypes("scan's inputs", ts, safeSlice(e.Map.Ret, k, k+len(ts))); err != nil {
				return nil, err
			}
			k += len(ts)
			for _, t := range ts {
				outs = append(outs, t.ArrayOf(e.W))
			}
		}
		for _, op := range e.Reds {
			ts, err := v.segop(sc, op, "a reduce operator")
			if err != nil {
				return nil, err
			}
			if err := SameTypes("reduce's inputs", ts, safeSlice(e.Map.Ret, k, k+len(ts))); err != nil {
				return nil, err
			}
			k += len(ts)
			outs = append(outs, ts...)
		}
		if k > len(e.Map.Ret) {
			return nil, fmt.Errorf("verify: screma's map returns too few values")
		}
		for _, t := range e.Map.Ret[k:] {
			outs = append(outs, t.ArrayOf(e.W))
		}
		return outs, nil
	case *StreamE:
		if err := v.atomIs(sc, e.W, Scalar(value.I64), "stream's width"); err != nil {
			return nil, err
		}
		if len(e.Fold.Params) != len(e.Arrs)+1 {
			return nil, fmt.Errorf("verify: stream's fold takes the chunk size and %d chunks", len(e.Arrs))
		}
		chunk := e.Fold.Params[0]
		args := []Type{Scalar(value.I64)}
		for _, a := range e.Arrs {
			t, err := v.atom(sc, V(a))
			if err != nil {
				return nil, err
			}
			if t.Rank() == 0 || t.Shape[0] != e.W {
				return nil, fmt.Errorf("verify: stream input %s has type %s, not %s elements", a, t, e.W)
			}
			args = append(args, Type{Elem: t.Elem, Shape: append([]Atom{V(chunk.Name)}, t.Shape[1:]...)})
		}
		if err := v.lambda(sc, e.Fold, args, "", "stream's fold"); err != nil {
			return nil, err
		}
		if e.Red != nil {
			if err := v.lambda(sc, e.Red, append(append([]Type{}, e.Fold.Ret...), e.Fold.Ret...), "", "stream's operator"); err != nil {
				return nil, err
			}
			return e.Fold.Ret, SameTypes("stream's operator", e.Red.Ret, e.Fold.Ret)
		}
		var outs []Type
		for _, t := range e.Fold.Ret {
			if t.Rank() == 0 || t.Shape[0] != V(chunk.Name) {
				return nil, fmt.Errorf("verify: map_stream's fold returns %s, not an array of the chunk's size", t)
			}
			outs = append(outs, Type{Elem: t.Elem, Shape: append([]Atom{e.W}, t.Shape[1:]...)})
		}
		return outs, nil
	case *ScatterE, *HistE:
		var dest string
		var w Atom
		var arrs []string
		var lam *Lambda
		var index string
		if s, ok := e.(*ScatterE); ok {
			dest, w, arrs, lam, index = s.Dest, s.W, s.Arrs, s.Map, s.Index
		} else {
			h := e.(*HistE)
			dest, w, arrs, lam, index = h.Dest, h.W, h.Arrs, h.Map, h.Index
		}
		dt, err := v.atom(sc, V(dest))
		if err != nil {
			return nil, err
		}
		rows, err := v.rows(sc, w, arrs, "scatter/hist")
		if err != nil {
			return nil, err
		}
		if err := v.lambda(sc, lam, rows, index, "scatter/hist's map"); err != nil {
			return nil, err
		}
		if dt.Rank() == 0 {
			return nil, fmt.Errorf("verify: scatter/hist into a scalar")
		}
		if err := SameTypes("scatter/hist's (index, value)", lam.Ret, []Type{Scalar(value.I64), dt.Row()}); err != nil {
			return nil, err
		}
		if h, ok := e.(*HistE); ok {
			ts, err := v.segop(sc, h.Op, "hist's operator")
			if err != nil {
				return nil, err
			}
			if err := SameTypes("hist's operator", ts, []Type{dt.Row()}); err != nil {
				return nil, err
			}
		}
		return []Type{dt}, v.consume(sc, dest)
	}
	return nil, fmt.Errorf("verify: unknown expression %T", e)
}

// filter checks a FilterE and binds its pattern: the count, then arrays
// of that many rows.
func (v *verifier) filter(sc *vscope, pat []Param, e *FilterE) error {
	rows, err := v.rows(sc, e.W, e.Arrs, "filter")
	if err != nil {
		return err
	}
	if err := v.lambda(sc, e.Map, rows, e.Index, "filter's map"); err != nil {
		return err
	}
	if len(e.Map.Ret) == 0 || !e.Map.Ret[0].Equal(Scalar(value.Bool)) {
		return fmt.Errorf("verify: filter's map must return a bool first")
	}
	parts := 1
	if e.Partition {
		parts = 2 // the kept elements, then the others
	}
	m := len(e.Map.Ret) - 1
	if len(pat) != parts*(m+1) {
		return fmt.Errorf("verify: filter binds a count and %d arrays (partition: twice)", m)
	}
	for k := 0; k < parts; k++ {
		part := pat[k*(m+1) : (k+1)*(m+1)]
		if !part[0].T.Equal(Scalar(value.I64)) {
			return fmt.Errorf("verify: filter's count %s is not an i64", part[0].Name)
		}
		if err := v.bind(sc, part[0]); err != nil {
			return err
		}
		for i, p := range part[1:] {
			if want := e.Map.Ret[i+1].ArrayOf(V(part[0].Name)); !p.T.Equal(want) {
				return fmt.Errorf("verify: filter's result %s has type %s, expected %s", p.Name, p.T, want)
			}
			if err := v.bind(sc, p); err != nil {
				return err
			}
		}
	}
	return nil
}

func safeSlice(ts []Type, i, j int) []Type {
	if j > len(ts) {
		return nil
	}
	return ts[i:j]
}

func BinOpResult(op string, t Prim) Type {
	if bop, ok := value.LookupBinOp(op); ok && bop.IsComparison() {
		return Scalar(value.Bool)
	}
	return Scalar(t)
}

// existential reports whether a pattern's array types name sizes bound by
// the pattern itself (an if whose branches give arrays of different sizes
// returns the sizes first).
func existential(pat []Param) bool {
	own := map[string]bool{}
	for _, p := range pat {
		for _, d := range p.T.Shape {
			if own[d.Name] {
				return true
			}
		}
		own[p.Name] = true
	}
	return false
}

// ifExt verifies let (n…, xs…) = if …: each branch returns the sizes, then
// arrays whose types are the pattern's with the sizes it returned.
func (v *verifier) ifExt(sc *vscope, pat []Param, e *IfE) error {
	if err := v.atomIs(sc, e.Cond, Scalar(value.Bool), "a condition"); err != nil {
		return err
	}
	if err := SameTypes(fmt.Sprintf("let (%s …) = if", patName(pat)), ParamTypes(pat), e.Ret); err != nil {
		return err
	}
	for _, b := range []*Body{e.Then, e.Else} {
		ts, err := v.body(&vscope{vars: map[string]Type{}, parent: sc}, b)
		if err != nil {
			return err
		}
		if len(ts) != len(pat) {
			return fmt.Errorf("verify: a branch returns %d values, expected %d", len(ts), len(pat))
		}
		sizes := map[string]Atom{} // the pattern's sizes as this branch gives them
		for i, p := range pat {
			if p.T.Rank() == 0 && p.T.Elem == value.I64 {
				sizes[p.Name] = b.Res[i]
			}
		}
		for i, p := range pat {
			want := Type{Elem: p.T.Elem, Shape: make([]Atom, len(p.T.Shape))}
			for k, d := range p.T.Shape {
				want.Shape[k] = d
				if r, ok := sizes[d.Name]; ok && d.Name != "" {
					want.Shape[k] = r
				}
			}
			if !ts[i].Equal(want) {
				return fmt.Errorf("verify: a branch's value %d has type %s, expected %s", i, ts[i], want)
			}
		}
	}
	for _, p := range pat {
		if err := v.bind(sc, p); err != nil {
			return err
		}
	}
	return nil
}

// sizeSubst replaces, in t's shape, each of params' names by the atom at
// the same position in vals.
func sizeSubst(t Type, params []Param, vals []Atom) Type {
	out := Type{Elem: t.Elem, Unique: t.Unique, Shape: make([]Atom, len(t.Shape))}
	for k, d := range t.Shape {
		out.Shape[k] = d
		if d.Name == "" {
			continue
		}
		for i, p := range params {
			if p.Name == d.Name && i < len(vals) {
				out.Shape[k] = vals[i]
			}
		}
	}
	return out
}
