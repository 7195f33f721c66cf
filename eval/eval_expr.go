package eval

import (
	"math/big"
	"strings"

	"fut/eval/value"
	"fut/interp/syntax"
)

// eval evaluates e in environment e and charges its cost per COST_MODEL.md:
// on return, t.live has grown by F(e), the fresh size of the result.
func (t *thread) eval(x syntax.Expr, e *env) (value.Value, error) {
	t.depth++
	if t.depth > t.in.opts.MaxDepth {
		t.depth--
		return nil, t.errf(x.Pos(), "evaluation nested too deeply (more than %d levels)", t.in.opts.MaxDepth)
	}
	if walkStats != nil {
		walkStats.countNode(t, x)
	}
	v, err := t.eval1(x, e)
	t.depth--
	return v, err
}

func (t *thread) eval1(x syntax.Expr, e *env) (value.Value, error) {
	switch x := x.(type) {
	case *syntax.Paren:
		return t.eval(x.X, e)
	case *syntax.Var:
		return t.evalVar(x, e)
	case *syntax.IntLit, *syntax.FloatLit, *syntax.CharLit, *syntax.BoolLit:
		return t.literal(x)
	case *syntax.Negate:
		if isLiteral(x.X) {
			return t.literal(x)
		}
		base := t.live
		v, err := t.eval(x.X, e)
		if err != nil {
			return nil, err
		}
		return t.negate(v, x.Pos(), base)
	case *syntax.Not:
		base := t.live
		v, err := t.eval(x.X, e)
		if err != nil {
			return nil, err
		}
		return t.not(v, x.Pos(), base)
	case *syntax.Binary:
		return t.evalBinary(x, e)
	case *syntax.Apply:
		v, err := t.evalApply(x, e)
		if err == nil && hasEmpty(v) {
			// An empty array made inside a polymorphic function has the
			// element type it could see there; the call's type, where it
			// is concrete, is the right one.
			v = t.fixEmptyResult(v, x, e)
		}
		return v, err
	case *syntax.StringLit:
		return t.stringValue(x.Value), nil
	case *syntax.TupleLit:
		if len(x.Elems) == 0 {
			return value.Tuple(nil), nil
		}
		out := make(value.Tuple, len(x.Elems))
		for i, el := range x.Elems {
			v, err := t.eval(el, e)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case *syntax.RecordLit:
		names := make([]string, len(x.Fields))
		vals := make([]value.Value, len(x.Fields))
		for i, f := range x.Fields {
			v, err := t.eval(f.Value, e)
			if err != nil {
				return nil, err
			}
			names[i], vals[i] = f.Name, v
		}
		if len(vals) > 1 && value.IsTupleRecord(names) {
			return value.Tuple(value.NewRecord(names, vals).Fields), nil
		}
		return value.NewRecord(names, vals), nil
	case *syntax.ArrayLit:
		return t.evalArrayLit(x, e)
	case *syntax.Range:
		return t.evalRange(x, e)
	case *syntax.Project:
		v, err := t.eval(x.X, e)
		if err != nil {
			return nil, err
		}
		return t.field(v, x.Field, x.Pos())
	case *syntax.QualParen:
		e2, err := t.qualEnv(x, e)
		if err != nil {
			return nil, err
		}
		return t.eval(x.X, e2)
	case *syntax.Constr:
		vals := make([]value.Value, len(x.Args))
		for i, a := range x.Args {
			v, err := t.eval(a, e)
			if err != nil {
				return nil, err
			}
			vals[i] = v
		}
		return &value.Sum{Constr: x.Name, Payload: vals}, nil
	case *syntax.Lambda:
		return mkFun(&closure{params: x.Params, body: x.Body, env: e}), nil
	case *syntax.OpSection:
		return t.opValue(x.Op, x.Backtick, e, x.Pos())
	case *syntax.LeftSection:
		f, err := t.opValue(x.Op, x.Backtick, e, x.Pos())
		if err != nil {
			return nil, err
		}
		l, err := t.eval(x.L, e)
		if err != nil {
			return nil, err
		}
		return mkFun(&partial{f: f.(*value.Fun).Impl.(callable), args: []value.Value{l}}), nil
	case *syntax.RightSection:
		f, err := t.opValue(x.Op, x.Backtick, e, x.Pos())
		if err != nil {
			return nil, err
		}
		r, err := t.eval(x.R, e)
		if err != nil {
			return nil, err
		}
		return mkFun(&rightSection{f: f, r: r}), nil
	case *syntax.ProjectSection:
		path := make([]syntax.PathElem, len(x.Fields))
		for i, f := range x.Fields {
			path[i] = syntax.PathElem{Field: f, Span: x.Span}
		}
		return mkFun(&projFn{path: path, env: e}), nil
	case *syntax.IndexSection:
		return mkFun(&projFn{path: x.Path, env: e}), nil
	case *syntax.If:
		base := t.live
		c, err := t.eval(x.Cond, e)
		if err != nil {
			return nil, err
		}
		b, ok := c.(value.Prim)
		if !ok || b.T != value.Bool {
			return nil, t.errf(x.Cond.Pos(), "if condition is not a bool")
		}
		t.controlStep(base)
		if b.B != 0 {
			return t.eval(x.Then, e)
		}
		return t.eval(x.Else, e)
	case *syntax.LetIn:
		base := t.live
		v, err := t.eval(x.Value, e)
		if err != nil {
			return nil, err
		}
		f0 := t.live - base
		e2, err := t.bindLet(x.Sizes, x.Pat, v, e)
		if err != nil {
			return nil, err
		}
		r, err := t.eval(x.Body, e2)
		if err != nil {
			return nil, err
		}
		t.live -= f0 // the bound value was live for the whole body
		return r, nil
	case *syntax.LetFun:
		c := t.funClosure(x.Fun, e)
		return t.eval(x.Body, e.bind(x.Fun.Name, c))
	case *syntax.LetWith:
		upd := &syntax.Update{Loc: x.Loc, X: x.Dest, Path: x.Path, Value: x.Value}
		v, err := t.eval(upd, e)
		if err != nil {
			return nil, err
		}
		return t.eval(x.Body, e.bind(x.Dest.Name.Name, v))
	case *syntax.Update:
		return t.evalUpdate(x, e)
	case *syntax.Index:
		base := t.live
		v, err := t.eval(x.X, e)
		if err != nil {
			return nil, err
		}
		r, err := t.index(v, x.Indices, e, x.Pos())
		if err != nil {
			return nil, err
		}
		t.indexStep(base, r)
		return r, nil
	case *syntax.Loop:
		return t.evalLoop(x, e)
	case *syntax.Match:
		return t.evalMatch(x, e)
	case *syntax.Assert:
		base := t.live
		c, err := t.eval(x.Cond, e)
		if err != nil {
			return nil, err
		}
		if b, ok := c.(value.Prim); !ok || b.B == 0 {
			return nil, t.errf(x.Pos(), "Assertion is false: %s", t.sourceText(unparen(x.Cond)))
		}
		t.controlStep(base)
		return t.eval(x.X, e)
	case *syntax.Ascript:
		return t.eval(x.X, e)
	case *syntax.Coerce:
		v, err := t.eval(x.X, e)
		if err != nil {
			return nil, err
		}
		if err := t.checkType(v, x.Type, e, x.Pos()); err != nil {
			return nil, err
		}
		return v, nil
	case *syntax.Attr:
		return t.evalAttr(x, e)
	case *syntax.Hole:
		return nil, t.errf(x.Pos(), "Hole encountered: ??? cannot be evaluated")
	}
	return nil, t.errf(x.Pos(), "cannot evaluate %T", x)
}

// stringValue is a string literal's value, a fresh array of its bytes:
// step (n, 1, n + 1), fresh n + 1.
func (t *thread) stringValue(s string) value.Value {
	b := []byte(s)
	n := int64(len(b))
	a := value.NewPrimArrayData(value.U8, []int64{n}, b)
	if t.cost {
		t.step(t.live, n, 1, n+1, n+1)
	}
	return a
}

// qualEnv is the environment of e in M.(e): M's names over e's, the
// opened module's names shadowing the locals.
func (t *thread) qualEnv(x *syntax.QualParen, e *env) (*env, error) {
	m, err := t.lookupModPath(x.Quals, e, x.Pos())
	if err != nil {
		return nil, err
	}
	sc := newScope(e.sc)
	openInto(sc, m)
	e2 := rebase(e, sc)
	for k, v := range m.vals {
		e2 = e2.bind(k, v)
	}
	return e2, nil
}

// negate is the step of -v, v held above base.
func (t *thread) negate(v value.Value, pos syntax.Pos, base int64) (value.Value, error) {
	p, ok := v.(value.Prim)
	if !ok {
		if d, isD := v.(value.Dual); isD {
			t.tangentStep(1, d)
			t.scalarStep(base)
			return value.DualNeg(d), nil
		}
		return nil, t.errf(pos, "negating a value that is not a number")
	}
	t.scalarStep(base)
	return value.Neg(p), nil
}

func isLiteral(x syntax.Expr) bool {
	switch x := x.(type) {
	case *syntax.IntLit, *syntax.FloatLit, *syntax.CharLit:
		return true
	case *syntax.Paren:
		return isLiteral(x.X)
	}
	return false
}

// literal evaluates a (possibly negated) literal: step (1, 1, 1), fresh 1.
func (t *thread) literal(x syntax.Expr) (value.Value, error) {
	p, err := t.literalValue(x)
	if err != nil {
		return nil, err
	}
	t.scalarStep(t.live)
	return p, nil
}

func (t *thread) literalValue(x syntax.Expr) (value.Prim, error) {
	if p, ok := t.in.litCache(x); ok {
		return p, nil
	}
	neg := false
	lit := x
	for {
		if n, ok := lit.(*syntax.Negate); ok {
			neg = !neg
			lit = n.X
			continue
		}
		if p, ok := lit.(*syntax.Paren); ok {
			lit = p.X
			continue
		}
		break
	}
	typ := value.NoPrim
	if t.in.info != nil {
		if pt, ok := t.in.info.LitType(x); ok {
			typ = value.ParsePrimType(string(pt))
		} else if pt, ok := t.in.info.LitType(lit); ok {
			typ = value.ParsePrimType(string(pt))
		}
	}
	var p value.Prim
	switch l := lit.(type) {
	case *syntax.BoolLit:
		p = value.MkBool(l.Value)
	case *syntax.IntLit, *syntax.CharLit:
		var bi *big.Int
		if il, ok := l.(*syntax.IntLit); ok {
			bi = il.Value
			if il.Suffix != "" {
				typ = value.ParsePrimType(string(il.Suffix))
			}
		} else {
			bi = big.NewInt(int64(l.(*syntax.CharLit).Value))
		}
		if typ == value.NoPrim || typ == value.Bool {
			typ = value.I32
		}
		if bi == nil {
			bi = new(big.Int)
		}
		if neg {
			bi = new(big.Int).Neg(bi)
		}
		if typ.IsFloat() {
			f, _ := new(big.Float).SetInt(bi).Float64()
			p = value.MkFloat(typ, f)
		} else {
			// wrap modulo 2^64, then to the type's width
			m := new(big.Int).And(bi, new(big.Int).SetUint64(^uint64(0)))
			p = value.MkUint(typ, m.Uint64())
		}
	case *syntax.FloatLit:
		if l.Suffix != "" {
			typ = value.ParsePrimType(string(l.Suffix))
		}
		if !typ.IsFloat() {
			typ = value.F64
		}
		f := l.Value
		if neg {
			f = -f
		}
		p = value.MkFloat(typ, f)
	default:
		return value.Prim{}, t.errf(x.Pos(), "not a literal")
	}
	t.in.setLitCache(x, p)
	return p, nil
}

// sourceText is the source of a node, for messages.
func (t *thread) sourceText(n syntax.Node) string {
	f := t.in.fset.File(n.Pos())
	if f == nil {
		return "<expression>"
	}
	a, b := f.Offset(n.Pos()), f.Offset(n.End())
	if a < 0 || b > len(f.Src) || a >= b {
		return "<expression>"
	}
	return strings.TrimSpace(string(f.Src[a:b]))
}

// rebase returns e's locals over a different scope.
func rebase(e *env, sc *scope) *env {
	if e == nil || e.next == nil && e.name == "" {
		return rootEnv(sc)
	}
	var names []*env
	for x := e; x != nil; x = x.next {
		names = append(names, x)
	}
	out := rootEnv(sc)
	for i := len(names) - 1; i >= 0; i-- {
		if names[i].val != nil {
			out = out.bind(names[i].name, names[i].val)
		}
	}
	return out
}

func (t *thread) evalAttr(x *syntax.Attr, e *env) (value.Value, error) {
	return t.attrBy(x, e.locals, func() (value.Value, error) { return t.eval(x.X, e) })
}

// attrBy is evalAttr with the locals a break reports and the attributed
// expression given by the caller (the walker or compiled code).
func (t *thread) attrBy(x *syntax.Attr, locals func() []Binding, ev func() (value.Value, error)) (value.Value, error) {
	name := ""
	if x.Attr != nil {
		name = x.Attr.Name
	}
	if name == "break" && t.in.opts.Break != nil {
		t.in.opts.Break(BreakInfo{Pos: x.Pos(), Stack: append([]Frame(nil), t.stack...), Locals: locals()})
	}
	v, err := ev()
	if err != nil {
		return nil, err
	}
	if name == "trace" && t.in.opts.Trace != nil {
		tag := ""
		if len(x.Attr.Args) > 0 {
			tag = x.Attr.Args[0].Name
		}
		t.in.opts.Trace(x.Pos(), tag, v)
	}
	return v, nil
}

func unparen(x syntax.Expr) syntax.Expr {
	for {
		p, ok := x.(*syntax.Paren)
		if !ok {
			return x
		}
		x = p.X
	}
}

// not is !v, charged as one scalar step from the live size base.
func (t *thread) not(v value.Value, pos syntax.Pos, base int64) (value.Value, error) {
	p, ok := v.(value.Prim)
	if !ok {
		return nil, t.errf(pos, "! applied to a value that is not a scalar")
	}
	t.scalarStep(base)
	return value.Not(p), nil
}
