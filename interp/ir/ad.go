package ir

import (
	"fmt"

	"fut/eval/value"
)

// Automatic differentiation of the IR, with the reference path's
// semantics (eval/ad.go, eval/value/dual.go) as a transformation.
//
// Forward mode (JVP). Every variable of a primitive type other than bool
// has a tangent of the same type, computed next to it by the chain rule;
// a variable without one (a constant, an iota, a free variable of the
// differentiated function) has the zero tangent, made explicit only
// where an array of it is needed. Integers carry tangents too, as duals
// of integers do on the reference path, and the rules are the
// reference's, case for case (division, powers, min and max, the math
// library, conversions (the tangent converted, also from a float to an
// integer, as Futhark does), bit casts; comparisons give none), so that
// both paths give the same numbers.
// Bools have no tangent: a bool result's tangent is false (a bool array's
// is the array itself, as the reference's split gives).
//
// Control flow carries tangents through: a branch returns its results'
// tangents after its results; a loop gets one more parameter per
// differentiable parameter (size parameters excepted), and a for-in loop
// walks the tangent arrays beside the arrays. SOACs are differentiated
// through their lambdas: a map computes its elements' tangents beside
// them; a reduction or scan combines pairs (value, tangent) with the
// operator lifted to pairs (an operator on k components becomes one on
// 2k: x…, dx…, y…, dy… → z…, dz…), whose neutral element has the zero
// tangent; a scatter writes the tangents at the same indices into the
// destination's tangent; a histogram with + adds the tangents into a
// second histogram, and one with any other operator combines pairs with
// the lifted operator in a sequential loop, element by element as the
// reference path does (which value wins decides which tangent does, and
// the IR's histogram has one component); a filter keeps the tangents of
// the kept elements; a stream folds chunks of pairs and combines pairs.
// Array views, updates and constructions apply to tangents as to values.
// What cannot be differentiated is an error naming it, never a panic.
//
// Reverse mode (VJPByForward, ad_vjp.go) is computed from forward mode
// as the reference does: one forward pass per scalar of the input, along
// its unit vector, each the dot product (in f64) of the result's tangent
// with the adjoint (summed in the parameter's own type where it and the
// results are of one integer type, so that vjp of vjp stays exact). The
// unit tangent is not built where the derivative only reads scalars of
// it, through any views: a read becomes (flat index == j ? 1 : 0). The
// passes of one input are then the instances of a map over its flattened
// indices, so they run in parallel; where a pass does array work of its
// own, they are a loop whose every pass's SOACs run in parallel instead
// (a map of whole nests would not flatten). This costs one evaluation of
// the derivative per input scalar, as on the reference path; a true
// reverse sweep is future work.
//
// Files: ad.go (the driver, scalar plumbing, arrays), ad_scalar.go (the
// chain rule for operators and the math library), ad_soac.go (control
// flow and SOACs), ad_vjp.go (reverse mode), lower_ad.go (jvp2 and vjp2
// in the lowerer).

// JVP differentiates lam: it returns a lambda taking lam's parameters and
// then one tangent per parameter (of the same types), and returning lam's
// results and then one tangent per result (for a bool result, false; for
// a bool array, the array itself, as the reference path gives).
func JVP(lam *Lambda, fresh func(string) string) (*Lambda, error) {
	return JVPIn(lam, fresh, nil)
}

// JVPIn is JVP where env gives the types of lam's free variables (a
// concatenation of one without a tangent needs its zero).
func JVPIn(lam *Lambda, fresh func(string) string, env map[string]Type) (lam2 *Lambda, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(adError)
			if !ok {
				// a program this transformation does not expect (it
				// would not verify): an error, never a crash
				e = adError(fmt.Sprintf("internal error: %v", r))
			}
			lam2, err = nil, e
		}
	}()
	lam = splitLambda(lam, env)
	j := &jvper{fresh: fresh, tan: map[string]Atom{}, typ: map[string]Type{}}
	for x, t := range env {
		j.typ[x] = t
	}
	params := append([]Param{}, lam.Params...)
	for _, p := range lam.Params {
		j.typ[p.Name] = p.T
		dp := Param{fresh("d_" + p.Name), p.T}
		params = append(params, dp)
		if diff(p.T) {
			j.tan[p.Name] = V(dp.Name)
		}
	}
	body := j.body(lam.Body, lam.Ret, false)
	ret := append(append([]Type{}, lam.Ret...), lam.Ret...)
	return &Lambda{Params: params, Ret: ret, Body: body}, nil
}

type adError string

func (e adError) Error() string { return "jvp: " + string(e) }

func adFail(format string, args ...any) { panic(adError(fmt.Sprintf(format, args...))) }

type jvper struct {
	fresh func(string) string
	tan   map[string]Atom // the tangent of a variable; absent: zero
	typ   map[string]Type // the type of every variable bound so far
	out   []*Stm
}

// diff reports whether values of type t have tangents.
func diff(t Type) bool { return t.Elem != value.Bool }

func (j *jvper) emit(pat []Param, e Exp) {
	for _, p := range pat {
		j.typ[p.Name] = p.T
	}
	j.out = append(j.out, &Stm{Pat: pat, E: e})
}

func (j *jvper) let(base string, e Exp, t Type) Atom {
	p := Param{j.fresh(base), t}
	j.emit([]Param{p}, e)
	return V(p.Name)
}

// zeroArr is an array of type t full of zeros.
func (j *jvper) zeroArr(t Type) Atom {
	x := C(ZeroOf(t.Elem))
	for k := len(t.Shape) - 1; k >= 0; k-- {
		x = j.let("zeros", &ReplicateE{N: t.Shape[k], X: x}, Type{Elem: t.Elem, Shape: t.Shape[k:]})
	}
	return x
}

// tanOf is the tangent of the atom a of type t (a zero if it has none).
func (j *jvper) tanOf(a Atom, t Type) Atom {
	if !a.IsConst() {
		if d, ok := j.tan[a.Name]; ok {
			return d
		}
	}
	if t.Rank() == 0 {
		return C(ZeroOf(t.Elem))
	}
	return j.zeroArr(t)
}

// hasTan reports whether a has a tangent that may be non-zero.
func (j *jvper) hasTan(a Atom) bool {
	if a.IsConst() {
		return false
	}
	_, ok := j.tan[a.Name]
	return ok
}

func (j *jvper) typeOf(a Atom) Type {
	if a.IsConst() {
		return Scalar(a.Val.T)
	}
	t, ok := j.typ[a.Name]
	if !ok {
		adFail("the type of %s is not known", a.Name)
	}
	return t
}

// resultTan is the tangent a result of type t gives: its tangent, false
// for a bool scalar, the array itself for a bool array (the reference
// path's split).
func (j *jvper) resultTan(a Atom, t Type) Atom {
	if !diff(t) {
		if t.Rank() == 0 {
			return C(value.MkBool(false))
		}
		return a
	}
	return j.tanOf(a, t)
}

// body differentiates b into a new body returning b's results and then
// their tangents (ret are the results' types): of every result, or with
// onlyDiff of the differentiable ones only.
func (j *jvper) body(b *Body, ret []Type, onlyDiff bool) *Body {
	saved := j.out
	j.out = nil
	for _, st := range b.Stms {
		j.stm(st)
	}
	res := append([]Atom{}, b.Res...)
	for i, a := range b.Res {
		switch {
		case !onlyDiff:
			res = append(res, j.resultTan(a, ret[i]))
		case diff(ret[i]):
			res = append(res, j.tanOf(a, ret[i]))
		}
	}
	out := &Body{Stms: j.out, Res: res}
	j.out = saved
	return out
}

func tanTypes(ts []Type) []Type {
	var out []Type
	for _, t := range ts {
		if diff(t) {
			out = append(out, t)
		}
	}
	return out
}

// stm emits st and the statements of its results' tangents.
func (j *jvper) stm(st *Stm) {
	switch e := st.E.(type) {
	case *AtomE:
		j.emit(st.Pat, e)
		p := st.Pat[0]
		if j.hasTan(e.X) && diff(p.T) {
			if p.T.Rank() == 0 {
				j.tan[p.Name] = j.tan[e.X.Name]
			} else {
				// a name of its own, so that the tangents are consumed
				// as the values are
				j.tan[p.Name] = j.let("d_"+p.Name, &AtomE{X: j.tan[e.X.Name]}, p.T)
			}
		}
	case *BinOpE:
		j.emit(st.Pat, e)
		j.binop(st.Pat[0], e)
	case *UnOpE:
		j.emit(st.Pat, e)
		j.unop(st.Pat[0], e)
	case *ConvE:
		j.emit(st.Pat, e)
		p := st.Pat[0]
		if !diff(p.T) || !j.hasTan(e.X) {
			return // none
		}
		// the tangent converted, also where a float becomes an integer
		// (as Futhark differentiates a conversion)
		j.tan[p.Name] = j.let("d_"+p.Name, &ConvE{To: e.To, X: j.tan[e.X.Name]}, p.T)
	case *AssertE, *IotaE:
		j.emit(st.Pat, e)
	case *IndexE:
		j.emit(st.Pat, e)
		if j.hasTan(V(e.Arr)) && diff(st.Pat[0].T) {
			j.tan[st.Pat[0].Name] = j.let("d_"+st.Pat[0].Name, &IndexE{Arr: j.tan[e.Arr].Name, Idx: e.Idx, Implicit: e.Implicit}, st.Pat[0].T)
		}
	case *UpdateE:
		j.emit(st.Pat, e)
		p := st.Pat[0]
		if !diff(p.T) || (!j.hasTan(V(e.Arr)) && !j.hasTan(e.X)) {
			return
		}
		da := j.tanOf(V(e.Arr), p.T)
		dx := j.tanOf(e.X, Type{Elem: p.T.Elem, Shape: p.T.Shape[len(e.Idx):]})
		j.tan[p.Name] = j.let("d_"+p.Name, &UpdateE{Arr: da.Name, Idx: e.Idx, X: dx}, p.T)
	case *SliceE, *ReverseE, *TransposeE, *CopyE, *ReshapeE:
		j.emit(st.Pat, e)
		p := st.Pat[0]
		arr := viewedArray(e)
		if !diff(p.T) || !j.hasTan(V(arr)) {
			return
		}
		d := j.tan[arr].Name
		var de Exp
		switch e := e.(type) {
		case *SliceE:
			de = &SliceE{Arr: d, Start: e.Start, Len: e.Len}
		case *ReverseE:
			de = &ReverseE{Arr: d}
		case *TransposeE:
			de = &TransposeE{Arr: d}
		case *CopyE:
			de = &CopyE{Arr: d, Part: e.Part}
		case *ReshapeE:
			de = &ReshapeE{Arr: d, Shape: e.Shape}
		}
		j.tan[p.Name] = j.let("d_"+p.Name, de, p.T)
	case *ReplicateE:
		j.emit(st.Pat, e)
		p := st.Pat[0]
		if diff(p.T) && j.hasTan(e.X) {
			j.tan[p.Name] = j.let("d_"+p.Name, &ReplicateE{N: e.N, X: j.tan[e.X.Name]}, p.T)
		}
	case *ArrayE:
		j.emit(st.Pat, e)
		p := st.Pat[0]
		any := false
		for _, a := range e.Elems {
			any = any || j.hasTan(a)
		}
		if diff(p.T) && any {
			ds := make([]Atom, len(e.Elems))
			for i, a := range e.Elems {
				ds[i] = j.tanOf(a, e.Elem)
			}
			j.tan[p.Name] = j.let("d_"+p.Name, &ArrayE{Elem: e.Elem, Elems: ds}, p.T)
		}
	case *ConcatE:
		j.emit(st.Pat, e)
		p := st.Pat[0]
		any := false
		for _, a := range e.Arrs {
			any = any || j.hasTan(V(a))
		}
		if diff(p.T) && any {
			ds := make([]string, len(e.Arrs))
			for i, a := range e.Arrs {
				if !j.hasTan(V(a)) {
					if _, known := j.typ[a]; !known {
						adFail("a concatenation of an array whose type is not known here")
					}
				}
				ds[i] = j.tanOf(V(a), j.typeOf(V(a))).Name
			}
			j.tan[p.Name] = j.let("d_"+p.Name, &ConcatE{N: e.N, Arrs: ds}, p.T)
		}
	case *IfE:
		j.ifStm(st, e)
	case *LoopE:
		j.loopStm(st, e)
	case *ScremaE:
		j.scremaStm(st, e)
	case *FilterE:
		j.filterStm(st, e)
	case *ScatterE:
		j.scatterStm(st, e)
	case *HistE:
		j.histStm(st, e)
	case *StreamE:
		j.streamStm(st, e)
	default:
		adFail("cannot differentiate %T", e)
	}
}

func viewedArray(e Exp) string {
	switch e := e.(type) {
	case *SliceE:
		return e.Arr
	case *ReverseE:
		return e.Arr
	case *TransposeE:
		return e.Arr
	case *CopyE:
		return e.Arr
	case *ReshapeE:
		return e.Arr
	}
	return ""
}
