package lower

import (
	"math/big"
	"strconv"

	"fut/interp/syntax"
	"fut/interp/types"
)

// Type expressions in a stage's program are written from the checker's
// types (with the stage's substitution applied), not copied: a type
// abbreviation, a module's type or a type parameter that the stage
// replaced has no name in the new program. Where the source wrote an
// array dimension, that dimension is copied as an expression instead (it
// may be an expression such as `length xs` that a checker size cannot
// spell); elsewhere a size is written as its name, its constant or its
// arithmetic, and a size with no name in scope as [].

// typeExp writes t as a type expression at sp. written is what the source
// wrote there, or nil.
func (c *copier) typeExp(t types.Type, written syntax.TypeExp, sp syntax.Span) syntax.TypeExp {
	loc := syntax.Loc{Span: sp}
	written = stripTE(written)
	switch t := types.Resolve(t).(type) {
	case *types.Prim:
		return &syntax.TEVar{Loc: loc, Name: syntax.QualName{Name: string(t.Kind)}}
	case *types.Array:
		var dim syntax.Expr
		var welem syntax.TypeExp
		if w, ok := written.(*syntax.TEArray); ok {
			dim = c.dim(w.Dim)
			welem = w.Elem
		}
		if dim == nil {
			// [] as written, or no array written: the size the checker
			// knows, when it has a name (a copy names its implicit sizes)
			dim = c.sizeExp(t.Dim, sp)
		}
		var out syntax.TypeExp = &syntax.TEArray{Loc: loc, Dim: dim, Elem: c.typeExp(t.Elem, welem, sp)}
		if t.Unique {
			out = &syntax.TEUnique{Loc: loc, T: out}
		}
		return out
	case *types.Record:
		if isTuple(t) {
			out := &syntax.TETuple{Loc: loc}
			w, _ := written.(*syntax.TETuple)
			for k, f := range t.Fields {
				var we syntax.TypeExp
				if w != nil && k < len(w.Elems) {
					we = w.Elems[k]
				}
				out.Elems = append(out.Elems, c.typeExp(f.Type, we, sp))
			}
			return out
		}
		out := &syntax.TERecord{Loc: loc}
		w, _ := written.(*syntax.TERecord)
		for _, f := range t.Fields {
			var we syntax.TypeExp
			if w != nil {
				for _, wf := range w.Fields {
					if wf.Name == f.Name {
						we = wf.Type
					}
				}
			}
			out.Fields = append(out.Fields, &syntax.TEField{Loc: loc, Name: f.Name, Type: c.typeExp(f.Type, we, sp)})
		}
		return out
	case *types.Sum:
		out := &syntax.TESum{Loc: loc}
		w, _ := written.(*syntax.TESum)
		for _, cn := range t.Constrs {
			var wc *syntax.TEConstr
			if w != nil {
				for _, x := range w.Constrs {
					if x.Name == cn.Name {
						wc = x
					}
				}
			}
			tc := &syntax.TEConstr{Loc: loc, Name: cn.Name}
			for k, p := range cn.Payload {
				var we syntax.TypeExp
				if wc != nil && k < len(wc.Payload) {
					we = wc.Payload[k]
				}
				tc.Payload = append(tc.Payload, c.typeExp(p, we, sp))
			}
			out.Constrs = append(out.Constrs, tc)
		}
		return out
	case *types.Arrow:
		w, _ := written.(*syntax.TEArrow)
		var wf, wt syntax.TypeExp
		if w != nil {
			wf, wt = w.From, w.To
		}
		out := &syntax.TEArrow{Loc: loc, From: c.typeExp(t.From, wf, sp)}
		if t.Param != nil && !t.Param.Unknown {
			out.Param = t.Param.Name
		}
		if len(t.Exist) > 0 {
			saved := c.exist
			c.exist = map[*types.SizeName]bool{}
			for k := range saved {
				c.exist[k] = true
			}
			for _, z := range t.Exist {
				c.exist[z] = true
			}
			defer func() { c.exist = saved }()
		}
		to := c.typeExp(t.To, wt, sp)
		if len(t.Exist) > 0 {
			ex := &syntax.TEExist{Loc: loc, T: to}
			for _, z := range t.Exist {
				// A size the result spells as [] stays anonymous
				// (?[d].[]t does not check: d is no array's size).
				if types.UsesSizeConstructively(to, z.Name) {
					ex.Sizes = append(ex.Sizes, z.Name)
				}
			}
			if len(ex.Sizes) > 0 {
				to = ex
			}
		}
		out.To = to
		return out
	case *types.Con:
		var out syntax.TypeExp = &syntax.TEVar{Loc: loc, Name: syntax.QualName{Name: t.Con.Name}}
		if len(t.Args) > 0 {
			app := &syntax.TEApply{Loc: loc, Fn: out}
			for _, a := range t.Args {
				if a.Type != nil {
					app.Args = append(app.Args, syntax.TypeArg{Span: sp, Type: c.typeExp(a.Type, nil, sp)})
				} else {
					app.Args = append(app.Args, syntax.TypeArg{Span: sp, IsSize: true, Dim: c.sizeExp(a.Size, sp)})
				}
			}
			out = app
		}
		if t.Unique {
			out = &syntax.TEUnique{Loc: loc, T: out}
		}
		return out
	}
	// A type the checker left open (it cannot be in a checked program's
	// tables): keep what was written.
	if written != nil {
		return written
	}
	return &syntax.TETuple{Loc: loc}
}

// dim copies an array dimension the source wrote.
func (c *copier) dim(d syntax.Expr) syntax.Expr {
	if d == nil {
		return nil
	}
	if c.dimFn != nil {
		return c.dimFn(d)
	}
	return c.expr(d)
}

func stripTE(t syntax.TypeExp) syntax.TypeExp {
	for {
		switch x := t.(type) {
		case *syntax.TEParen:
			t = x.T
		case *syntax.TEUnique:
			t = x.T
		default:
			return t
		}
	}
}

// isTuple reports whether r is a tuple (fields 0, 1, …, none or two and more).
func isTuple(r *types.Record) bool {
	if len(r.Fields) == 1 {
		return false
	}
	for k, f := range r.Fields {
		if f.Name != strconv.Itoa(k) {
			return false
		}
	}
	return true
}

// sizeExp writes a size as an expression, or nil when it has no name that
// the program could spell (an unknown size, a size the checker does not
// track, an application).
// The names are locals (size parameters and variables in scope) and the
// operators the built-in ones; the new nodes get their uses and types.
func (c *copier) sizeExp(z types.Size, sp syntax.Span) syntax.Expr {
	loc := syntax.Loc{Span: sp}
	var out syntax.Expr
	switch z := types.ResolveSize(z).(type) {
	case *types.SizeConst:
		out = &syntax.IntLit{Loc: loc, Text: strconv.FormatInt(z.N, 10), Value: big.NewInt(z.N), Suffix: "i64"}
	case *types.SizeName:
		if z.Name != "" && c.exist[z] {
			v := &syntax.Var{Loc: loc, Name: syntax.QualName{Name: z.Name}}
			c.dst.uses[v] = &types.Object{Kind: types.ObjLocal, Name: z.Name}
			c.dst.types[v] = i64
			return v
		}
		if z.Unknown || z.Name == "" {
			return nil
		}
		if c.scoped {
			// a size the checker named but the program does not (of []
			// in a parameter's type): [] again
			if _, ok := c.innermost(z.Name); !ok {
				return nil
			}
		}
		v := &syntax.Var{Loc: loc, Name: syntax.QualName{Name: z.Name}}
		c.dst.uses[v] = &types.Object{Kind: types.ObjLocal, Name: z.Name}
		out = v
	case *types.SizeExpr:
		if z.Op == "" {
			return nil
		}
		l, r := c.sizeExp(z.L, sp), c.sizeExp(z.R, sp)
		if l == nil || r == nil {
			return nil
		}
		b := &syntax.Binary{Loc: loc, Op: syntax.QualName{Name: z.Op}, OpSpan: sp, L: l, R: r}
		c.dst.uses[b] = &types.Object{Kind: types.ObjOp, Name: z.Op}
		c.dst.types[b] = i64
		out = &syntax.Paren{Loc: loc, X: b}
	default:
		return nil
	}
	c.dst.types[out] = i64
	return out
}

var i64 types.Type = &types.Prim{Kind: "i64"}
