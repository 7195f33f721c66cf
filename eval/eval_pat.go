package eval

import (
	"fmt"
	"strings"

	"fut/eval/value"
	"fut/interp/syntax"
)

// bindPat binds the variables of an irrefutable pattern p to the parts of
// v. Size names in sizes that appear as dimensions in p's type
// ascriptions are bound to the sizes of v.
func (t *thread) bindPat(p syntax.Pat, v value.Value, e *env, sizes []string) (*env, error) {
	switch p := p.(type) {
	case *syntax.PId:
		return e.bind(p.Name, v), nil
	case *syntax.PWild:
		return e, nil
	case *syntax.PParen:
		return t.bindPat(p.P, v, e, sizes)
	case *syntax.PAttr:
		return t.bindPat(p.P, v, e, sizes)
	case *syntax.PAscript:
		if len(sizes) > 0 {
			var err error
			if e, err = t.bindSizes(p.Type, v, e, sizes, p.Pos()); err != nil {
				return nil, err
			}
		}
		return t.bindPat(p.P, v, e, sizes)
	case *syntax.PTuple:
		parts, ok := tupleParts(v, len(p.Elems))
		if !ok {
			return nil, t.errf(p.Pos(), "cannot match a value against a tuple pattern of %d elements", len(p.Elems))
		}
		var err error
		for i, q := range p.Elems {
			if e, err = t.bindPat(q, parts[i], e, sizes); err != nil {
				return nil, err
			}
		}
		return e, nil
	case *syntax.PRecord:
		var err error
		for _, f := range p.Fields {
			fv, ok := recordField(v, f.Name)
			if !ok {
				return nil, t.errf(p.Pos(), "value has no field %s", f.Name)
			}
			q := f.Pat
			if q == nil {
				q = &syntax.PId{Loc: f.Loc, Name: f.Name}
			}
			if e, err = t.bindPat(q, fv, e, sizes); err != nil {
				return nil, err
			}
		}
		return e, nil
	case *syntax.PLit, *syntax.PConstr:
		e2, ok, err := t.matchPat(p, v, e)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, t.errf(p.Pos(), "value does not match the pattern")
		}
		return e2, nil
	}
	return nil, t.errf(p.Pos(), "cannot bind pattern %T", p)
}

func recordField(v value.Value, name string) (value.Value, bool) {
	switch v := v.(type) {
	case *value.Record:
		return v.Field(name)
	case value.Tuple:
		if k, ok := tupleIndex(name); ok && k < len(v) {
			return v[k], true
		}
	}
	return nil, false
}

func tupleParts(v value.Value, n int) ([]value.Value, bool) {
	switch v := v.(type) {
	case value.Tuple:
		return v, len(v) == n
	case *value.Record:
		if value.IsTupleRecord(v.Names) && len(v.Fields) == n {
			return v.Fields, true
		}
	}
	return nil, n == 0
}

// bindLet binds a let or loop pattern, with its [n] size binders.
func (t *thread) bindLet(sizes []*syntax.SizeBinder, p syntax.Pat, v value.Value, e *env) (*env, error) {
	var names []string
	for _, s := range sizes {
		names = append(names, s.Name)
	}
	return t.bindPat(p, v, e, names)
}

// bindSizes binds the size names (from names) that te uses as dimensions
// to the sizes of v. Type abbreviations (type vec [n] = [n]f32) are
// expanded on the way.
func (t *thread) bindSizes(te syntax.TypeExp, v value.Value, e *env, names []string, pos syntax.Pos) (*env, error) {
	return t.bindSizesSub(te, v, e, names, nil), nil
}

// tsubst maps the parameters of an abbreviation being expanded to its
// arguments (sizes as expressions, types as type expressions, the latter
// read in the parent's context).
type tsubst struct {
	sizes  map[string]syntax.Expr
	types  map[string]syntax.TypeExp
	parent *tsubst
}

// expand resolves an abbreviation at the head of te: it returns its
// definition and the substitution for its parameters.
func (t *thread) expand(te syntax.TypeExp, e *env, sub *tsubst) (syntax.TypeExp, *tsubst, bool) {
	var name syntax.QualName
	var args []syntax.TypeArg
	switch x := te.(type) {
	case *syntax.TEVar:
		name = x.Name
	case *syntax.TEApply:
		v, ok := x.Fn.(*syntax.TEVar)
		if !ok {
			return nil, nil, false
		}
		name, args = v.Name, x.Args
	default:
		return nil, nil, false
	}
	if len(name.Quals) == 0 && sub != nil {
		for s := sub; s != nil; s = s.parent {
			if ty, ok := s.types[name.Name]; ok {
				return ty, s.parent, true
			}
		}
	}
	d := t.lookupTypeDecl(name, e)
	if d == nil || len(d.Params) != len(args) || d.Def == nil {
		return nil, nil, false
	}
	ns := &tsubst{sizes: map[string]syntax.Expr{}, types: map[string]syntax.TypeExp{}, parent: sub}
	for i, p := range d.Params {
		if p.Kind == syntax.TPSize {
			ns.sizes[p.Name] = args[i].Dim
		} else if args[i].Type != nil {
			ns.types[p.Name] = args[i].Type
		}
	}
	return d.Def, ns, true
}

func (t *thread) lookupTypeDecl(q syntax.QualName, e *env) *syntax.TypeDecl {
	if len(q.Quals) == 0 {
		for s := e.sc; s != nil; s = s.parent {
			if d, ok := s.types[q.Name]; ok {
				return d
			}
		}
		return nil
	}
	m, ok := e.sc.lookupMod(q.Quals[0])
	if !ok {
		return nil
	}
	for _, n := range q.Quals[1:] {
		if m, ok = m.mods[n]; !ok {
			return nil
		}
	}
	return m.types[q.Name]
}

// sizeName resolves a dimension through the substitution to a plain name.
func sizeName(d syntax.Expr, sub *tsubst) (string, bool) {
	for {
		v, ok := d.(*syntax.Var)
		if !ok || len(v.Name.Quals) > 0 {
			return "", false
		}
		found := false
		for s := sub; s != nil; s = s.parent {
			if x, ok := s.sizes[v.Name.Name]; ok {
				d, sub, found = x, s.parent, true
				break
			}
		}
		if !found {
			return v.Name.Name, true
		}
		if d == nil {
			return "", false
		}
	}
}

func (t *thread) bindSizesSub(te syntax.TypeExp, v value.Value, e *env, names []string, sub *tsubst) *env {
	switch x := te.(type) {
	case *syntax.TEParen:
		return t.bindSizesSub(x.T, v, e, names, sub)
	case *syntax.TEUnique:
		return t.bindSizesSub(x.T, v, e, names, sub)
	case *syntax.TEVar, *syntax.TEApply:
		if def, ns, ok := t.expand(te, e, sub); ok {
			return t.bindSizesSub(def, v, e, names, ns)
		}
	case *syntax.TETuple:
		parts, ok := tupleParts(v, len(x.Elems))
		if !ok {
			return e
		}
		for i, el := range x.Elems {
			e = t.bindSizesSub(el, parts[i], e, names, sub)
		}
	case *syntax.TERecord:
		for _, f := range x.Fields {
			if fv, ok := recordField(v, f.Name); ok {
				e = t.bindSizesSub(f.Type, fv, e, names, sub)
			}
		}
	case *syntax.TEArray:
		a, ok := v.(*value.Array)
		if !ok {
			return e
		}
		return t.bindShape(x, a.FullShape(), e, names, sub)
	}
	return e
}

// bindShape walks array dimensions of te against shape.
func (t *thread) bindShape(te syntax.TypeExp, shape []int64, e *env, names []string, sub *tsubst) *env {
	for len(shape) > 0 {
		te = stripParens(te)
		if def, ns, ok := t.expand(te, e, sub); ok {
			te, sub = def, ns
			continue
		}
		arr, ok := te.(*syntax.TEArray)
		if !ok {
			return e
		}
		if n, ok := sizeName(arr.Dim, sub); ok && contains(names, n) {
			e = e.bind(n, value.I64Val(shape[0]))
		} else if b, ok := arr.Dim.(*syntax.Binary); ok && sub == nil {
			e = solveDim(b, shape[0], e, names)
		}
		te, shape = arr.Elem, shape[1:]
	}
	return e
}

func stripParens(te syntax.TypeExp) syntax.TypeExp {
	for {
		switch x := te.(type) {
		case *syntax.TEParen:
			te = x.T
		case *syntax.TEUnique:
			te = x.T
		default:
			return te
		}
	}
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// matchPat matches a refutable pattern (for match cases).
func (t *thread) matchPat(p syntax.Pat, v value.Value, e *env) (*env, bool, error) {
	switch p := p.(type) {
	case *syntax.PParen:
		return t.matchPat(p.P, v, e)
	case *syntax.PAttr:
		return t.matchPat(p.P, v, e)
	case *syntax.PAscript:
		return t.matchPat(p.P, v, e)
	case *syntax.PLit:
		lit, err := t.literalValue(p.Lit)
		if err != nil {
			return nil, false, err
		}
		pv, ok := primOf(v)
		if !ok {
			return nil, false, nil
		}
		if lit.T != pv.T {
			lit = value.Convert(lit, pv.T)
		}
		return e, value.Identical(lit, pv), nil
	case *syntax.PConstr:
		s, ok := v.(*value.Sum)
		if !ok || s.Constr != p.Name || len(s.Payload) != len(p.Args) {
			return nil, false, nil
		}
		for i, q := range p.Args {
			var err error
			if e, ok, err = t.matchPat(q, s.Payload[i], e); !ok || err != nil {
				return nil, false, err
			}
		}
		return e, true, nil
	case *syntax.PTuple:
		parts, ok := tupleParts(v, len(p.Elems))
		if !ok {
			return nil, false, nil
		}
		for i, q := range p.Elems {
			var err error
			if e, ok, err = t.matchPat(q, parts[i], e); !ok || err != nil {
				return nil, false, err
			}
		}
		return e, true, nil
	case *syntax.PRecord:
		r, ok := v.(*value.Record)
		if !ok {
			return nil, false, nil
		}
		for _, f := range p.Fields {
			fv, ok := r.Field(f.Name)
			if !ok {
				return nil, false, nil
			}
			q := f.Pat
			if q == nil {
				q = &syntax.PId{Loc: f.Loc, Name: f.Name}
			}
			var err error
			if e, ok, err = t.matchPat(q, fv, e); !ok || err != nil {
				return nil, false, err
			}
		}
		return e, true, nil
	}
	e2, err := t.bindPat(p, v, e, nil)
	return e2, err == nil, err
}

func short(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// checkType checks the sizes of v against a type (for e :> t): every
// dimension written as a literal or a bound size variable must match.
func (t *thread) checkType(v value.Value, te syntax.TypeExp, e *env, pos syntax.Pos) error {
	te = stripParens(te)
	if def, ns, ok := t.expand(te, e, nil); ok {
		// an abbreviation (type ints [n] = [n]i32): check its definition
		// with the size arguments put in place of the parameters; one
		// without parameters, M.t, is read in M (its sizes may name M's
		// values)
		if x, ok := substDims(def, ns); ok {
			te = stripParens(x)
		} else if len(ns.sizes) == 0 && len(ns.types) == 0 {
			if q, ok := te.(*syntax.TEVar); ok && len(q.Name.Quals) > 0 {
				if m, err := t.lookupModPath(q.Name.Quals, e, pos); err == nil {
					for k, v := range m.vals {
						e = e.bind(k, v)
					}
				}
			}
			return t.checkType(v, def, e, pos)
		}
	}
	switch x := te.(type) {
	case *syntax.TEArray:
		a, ok := v.(*value.Array)
		if !ok {
			return nil
		}
		shape := a.FullShape()
		var elem syntax.TypeExp = x
		var want []string
		mismatch := false
		for k := 0; ; k++ {
			arr, ok := stripParens(elem).(*syntax.TEArray)
			if !ok {
				break
			}
			d, known := t.dimValue(arr.Dim, e)
			if known {
				want = append(want, fmt.Sprintf("[%d]", d))
				if k >= len(shape) || shape[k] != d {
					mismatch = true
				}
			} else {
				want = append(want, "[]")
			}
			elem = arr.Elem
		}
		if mismatch {
			return t.errf(pos, "Value of shape %s cannot match shape of type \"%s%s\".", value.ShapeString(shape), strings.Join(want, ""), t.sourceText(elem))
		}
	case *syntax.TETuple:
		parts, ok := tupleParts(v, len(x.Elems))
		if !ok {
			return nil
		}
		for i, el := range x.Elems {
			if err := t.checkType(parts[i], el, e, pos); err != nil {
				return err
			}
		}
	}
	return nil
}

// dimValue evaluates a dimension of a type if it is known here.
func (t *thread) dimValue(d syntax.Expr, e *env) (int64, bool) {
	switch d := d.(type) {
	case nil:
		return 0, false
	case *syntax.IntLit:
		return d.Value.Int64(), true
	case *syntax.Var:
		if len(d.Name.Quals) == 0 {
			if v, ok := e.lookup(d.Name.Name); ok {
				if p, ok := v.(value.Prim); ok && p.T.IsInt() {
					return p.Int(), true
				}
			}
		}
	case *syntax.Paren:
		return t.dimValue(d.X, e)
	case *syntax.Apply:
		// any expression may stand in a size: evaluate it, free of cost
		w, dd, pk1, pkP, live := t.W, t.D, t.pk1, t.pkP, t.live
		v, err := t.evalCached(d, e)
		t.W, t.D, t.pk1, t.pkP, t.live = w, dd, pk1, pkP, live
		if err != nil {
			return 0, false
		}
		if p, ok := v.(value.Prim); ok && p.T.IsInt() {
			return p.Int(), true
		}
	case *syntax.Binary:
		if len(d.Op.Quals) > 0 {
			break
		}
		l, lok := t.dimValue(d.L, e)
		r, rok := t.dimValue(d.R, e)
		if !lok || !rok {
			break
		}
		switch d.Op.Name {
		case "+":
			return l + r, true
		case "-":
			return l - r, true
		case "*":
			return l * r, true
		case "/":
			if r != 0 {
				return l / r, true
			}
		}
	}
	return 0, false
}

// solveDim binds the one unknown size parameter of a dimension n + m,
// n - m or n * m from the dimension's length, when the other operand is
// already bound (by the context, or by an earlier parameter): f [n] [m]
// (xs: [n + m]t) called with m known.
func solveDim(b *syntax.Binary, length int64, e *env, names []string) *env {
	if len(b.Op.Quals) > 0 {
		return e
	}
	local := func(x syntax.Expr) (string, int64, bool) {
		for {
			p, ok := x.(*syntax.Paren)
			if !ok {
				break
			}
			x = p.X
		}
		switch x := x.(type) {
		case *syntax.IntLit:
			return "", x.Value.Int64(), true
		case *syntax.Var:
			if len(x.Name.Quals) > 0 {
				return "", 0, false
			}
			if v, ok := e.lookupLocal(x.Name.Name); ok {
				if p, ok := v.(value.Prim); ok && p.T.IsInt() {
					return x.Name.Name, p.Int(), true
				}
				return "", 0, false
			}
			return x.Name.Name, 0, false
		}
		return "", 0, false
	}
	ln, lv, lok := local(b.L)
	rn, rv, rok := local(b.R)
	var name string
	var val int64
	switch {
	case lok && !rok && rn != "" && contains(names, rn):
		name = rn
		switch b.Op.Name {
		case "+":
			val = length - lv
		case "-":
			val = lv - length
		case "*":
			if lv == 0 || length%lv != 0 {
				return e
			}
			val = length / lv
		default:
			return e
		}
	case rok && !lok && ln != "" && contains(names, ln):
		name = ln
		switch b.Op.Name {
		case "+":
			val = length - rv
		case "-":
			val = length + rv
		case "*":
			if rv == 0 || length%rv != 0 {
				return e
			}
			val = length / rv
		default:
			return e
		}
	default:
		return e
	}
	if val < 0 {
		return e
	}
	return e.bind(name, value.I64Val(val))
}

// substDims is the array type te with the dimensions that name a size
// parameter of sub replaced by the arguments; ok is false when te is not
// an array type or a dimension cannot be replaced.
func substDims(te syntax.TypeExp, sub *tsubst) (syntax.TypeExp, bool) {
	arr, ok := stripParens(te).(*syntax.TEArray)
	if !ok {
		return nil, false
	}
	dim := arr.Dim
	if v, isVar := dim.(*syntax.Var); isVar && len(v.Name.Quals) == 0 {
		if x, found := sub.sizes[v.Name.Name]; found {
			if x == nil {
				return nil, false
			}
			dim = x
		}
	}
	elem := arr.Elem
	if _, inner := stripParens(elem).(*syntax.TEArray); inner {
		if elem, ok = substDims(elem, sub); !ok {
			return nil, false
		}
	}
	return &syntax.TEArray{Loc: arr.Loc, Dim: dim, Elem: elem}, true
}
