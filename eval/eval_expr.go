package eval

import (
	"math/big"
	"strings"

	"fut/eval/value"
	"fut/interp/syntax"
)

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

// negate is -v; its step is its form's (form.go), but for a dual the
// chain rule's steps are charged here.
func (t *thread) negate(v value.Value, pos syntax.Pos) (value.Value, error) {
	p, ok := v.(value.Prim)
	if !ok {
		if d, isD := v.(value.Dual); isD {
			t.tangentStep(1, d)
			return value.DualNeg(d), nil
		}
		return nil, t.errf(pos, "negating a value that is not a number")
	}
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

// attrBy evaluates #[attr] e with the locals a break reports and the
// attributed expression given by the caller (compiled code).
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

// not is !v; its step is its form's (form.go).
func (t *thread) not(v value.Value, pos syntax.Pos) (value.Value, error) {
	p, ok := v.(value.Prim)
	if !ok {
		return nil, t.errf(pos, "! applied to a value that is not a scalar")
	}
	return value.Not(p), nil
}
