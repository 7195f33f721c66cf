package types

// Size arguments of instantiations: at each use of a name whose scheme
// has size parameters, the fresh size variables instantiate made; once
// checking is done (unification may fix them late, by an ascription or a
// later use), each is read back as an expression the evaluator can
// compute at the use: a constant, a variable in scope, an arithmetic
// expression of those, or an application such as `length xs`. Sizes the
// checker could not pin down (unknown, untracked, still free) are left
// out; the evaluator binds those from the arguments' shapes.

import (
	"math/big"
	"strings"

	"fut/interp/syntax"
)

// sizeArgTable is Info's record of instantiations.
type sizeArgTable struct {
	pending *syntax.Var                     // the variable being checked
	insts   map[*syntax.Var]map[string]Size // size parameter name → instance
	done    map[*syntax.Var]map[string]syntax.Expr
}

// noteVar tells the table that the next instantiation at v's span is
// v's (inferVar calls it).
func (i *Info) noteVar(v *syntax.Var) {
	if i.sizeArgs == nil {
		i.sizeArgs = &sizeArgTable{insts: map[*syntax.Var]map[string]Size{}}
	}
	i.sizeArgs.pending = v
}

// noteInstance records the size parameters instantiated at sp when sp is
// the span of the pending variable.
func (i *Info) noteInstance(sp syntax.Span, sc *Scheme, s *subst) {
	t := i.sizeArgs
	if t == nil || t.pending == nil || t.pending.Span != sp {
		return
	}
	if len(sc.TParams) > 0 {
		i.noteTypeArgs(t.pending, sc, s) // stages.go
	}
	if len(sc.SParams) == 0 {
		return
	}
	m := make(map[string]Size, len(sc.SParams))
	for _, p := range sc.SParams {
		if z, ok := s.sizes[p]; ok && p.Name != "" {
			m[p.Name] = z
		}
	}
	t.insts[t.pending] = m
	t.pending = nil
	t.done = nil
}

// SizeArgs gives, for a use v of a function with size parameters, the
// expressions (over names in scope at v) that the checker resolved them
// to. It implements eval.SizeArger.
func (i *Info) SizeArgs(v *syntax.Var) map[string]syntax.Expr {
	t := i.sizeArgs
	if t == nil {
		return nil
	}
	if r, ok := t.done[v]; ok {
		return r
	}
	m, ok := t.insts[v]
	if !ok {
		return nil
	}
	var out map[string]syntax.Expr
	for name, z := range m {
		if x := sizeToExpr(z, v.Span); x != nil {
			if out == nil {
				out = map[string]syntax.Expr{}
			}
			out[name] = x
		}
	}
	if t.done == nil {
		t.done = map[*syntax.Var]map[string]syntax.Expr{}
	}
	t.done[v] = out
	return out
}

// sizeToExpr is z as an expression placed at sp, or nil when z has none.
func sizeToExpr(z Size, sp syntax.Span) syntax.Expr {
	switch z := resolveSize(z).(type) {
	case *SizeConst:
		lit := &syntax.IntLit{Loc: syntax.Loc{Span: sp}, Text: "", Suffix: "i64"}
		lit.Value = big.NewInt(z.N)
		lit.Text = lit.Value.String()
		return lit
	case *SizeName:
		if z.Unknown || z.Name == "" {
			return nil
		}
		return varAt(z.Name, sp)
	case *SizeExpr:
		if z.Op == "" {
			return nil
		}
		l, r := sizeToExpr(z.L, sp), sizeToExpr(z.R, sp)
		if l == nil || r == nil {
			return nil
		}
		return &syntax.Binary{Loc: syntax.Loc{Span: sp}, Op: syntax.QualName{Name: z.Op}, OpSpan: sp, L: l, R: r}
	case *SizeTerm:
		if strings.HasPrefix(z.Head, ".") && len(z.Args) == 1 {
			// a field of a size term (s.1, count[0].0)
			x := sizeToExpr(z.Args[0], sp)
			if x == nil {
				return nil
			}
			return &syntax.Project{Loc: syntax.Loc{Span: sp}, X: x, Field: z.Head[1:]}
		}
		if z.Name == "" {
			return nil
		}
		args := make([]syntax.Expr, len(z.Args))
		for k, a := range z.Args {
			if args[k] = sizeToExpr(a, sp); args[k] == nil {
				return nil
			}
		}
		f := varAt(z.Name, sp)
		if len(args) == 0 {
			return f
		}
		return &syntax.Apply{Loc: syntax.Loc{Span: sp}, Fn: f, Args: args}
	}
	return nil
}

// varAt is a reference to the (possibly qualified) name at sp.
func varAt(name string, sp syntax.Span) *syntax.Var {
	parts := strings.Split(name, ".")
	q := syntax.QualName{Name: parts[len(parts)-1]}
	if len(parts) > 1 {
		q.Quals = parts[:len(parts)-1]
	}
	return &syntax.Var{Loc: syntax.Loc{Span: sp}, Name: q}
}

// SizeAsExpr is the size z (from a type in Info) as an expression over
// the names in scope where that type was inferred, placed at sp; nil
// when the checker does not know z (unknown, untracked or free sizes).
func SizeAsExpr(z Size, sp syntax.Span) syntax.Expr { return sizeToExpr(z, sp) }
