package lower

import (
	"fut/interp/syntax"
	"fut/interp/types"
)

// A copier copies a definition's syntax tree from a Source into a stage's
// program: every node is new, keeps its position, and gets its side-table
// entries (type, resolution, type and size arguments) from the node it
// copies, with the stage's substitution applied to every type. Uses of
// names are rewritten by the stage (ref): a local keeps its name, an
// intrinsic and a built-in operator stay what they are, and a declaration
// becomes a reference to the stage's definition for it.
type copier struct {
	// exist are the existential sizes of the function result being
	// written: they are spelled by name ([k] in ?[k].[k]t).
	exist map[*types.SizeName]bool

	src Source
	dst *Info
	// typ is applied to every type copied.
	typ func(types.Type) types.Type
	// decl gives the stage's definition for a use n of the declaration obj
	// (resolved in src): the new object and how to spell it.
	decl func(n syntax.Node, obj *types.Object) ref
	// letFun, when set, copies a local function definition and the body
	// in its scope (monomorphisation makes a copy per instantiation).
	letFun func(c *copier, e *syntax.LetFun) syntax.Expr
	// names records the nodes that name a definition whose name is given
	// later (stage.name sets them).
	names *[]named
	// locals are the types of the local variables in scope, innermost
	// last: a qualified use r.x.y of a local record becomes projections of
	// r, which need r's type.
	locals []local
	// scoped: sizes are written by name only where the name is in scope
	// (see sizeExp).
	scoped bool
	// dimFn, when set, copies the array dimensions written in types.
	dimFn func(syntax.Expr) syntax.Expr
}

type local struct {
	name string
	t    types.Type
	// poly names the copies of a local polymorphic function by the key
	// of their type arguments (monomorphise.go).
	poly map[string]string
}

// ref is what a use of a name becomes in the stage's program.
type ref struct {
	obj  *types.Object
	name syntax.QualName
	// op: a built-in operator, written infix or as a section.
	op bool
	// def: the stage's definition, whose name is set later.
	def *syntax.FunBind
}

// named is a node whose name is the name its definition gets.
type named struct {
	node syntax.Node
	def  *syntax.FunBind
}

// setNames gives every recorded node its definition's final name.
func setNames(ns []named) {
	for _, n := range ns {
		q := syntax.QualName{Name: n.def.Name}
		switch x := n.node.(type) {
		case *syntax.Var:
			x.Name = q
		case *syntax.Binary:
			x.Op = q
		case *syntax.LeftSection:
			x.Op = q
		case *syntax.RightSection:
			x.Op = q
		}
	}
}

// resolve gives the ref of a use n that src resolves to obj.
func (c *copier) resolve(n syntax.Node, obj *types.Object) ref {
	switch obj.Kind {
	case types.ObjLocal:
		name := obj.Name
		if l, ok := c.innermost(name); ok && l.poly != nil {
			if nn, ok := l.poly[typesKey(c.types(c.src.TypeArgs(n)))]; ok {
				name = nn
			}
		}
		// a local operator ((+) bound by a let) is written infix, as the
		// source wrote it: a backticked symbol is not Futhark
		op := name != "" && !isIdentStart(name[0])
		return ref{obj: &types.Object{Kind: types.ObjLocal, Name: name}, name: syntax.QualName{Name: name}, op: op}
	case types.ObjIntrinsic:
		return ref{obj: obj, name: syntax.QualName{Quals: []string{"intrinsics"}, Name: obj.Name}}
	case types.ObjOp:
		return ref{obj: obj, name: syntax.QualName{Name: obj.Name}, op: true}
	}
	return c.decl(n, obj)
}

// note records the node n naming the ref's definition, and its object.
func (c *copier) note(n syntax.Node, r ref) {
	c.dst.uses[n] = r.obj
	if r.def != nil {
		*c.names = append(*c.names, named{n, r.def})
	}
}

func (c *copier) types(ts []types.Type) []types.Type {
	if ts == nil {
		return nil
	}
	out := make([]types.Type, len(ts))
	for i, t := range ts {
		if t != nil {
			out[i] = c.typ(t)
		}
	}
	return out
}

func (c *copier) push(name string, t types.Type) {
	c.locals = append(c.locals, local{name: name, t: t})
}

func (c *copier) mark() int     { return len(c.locals) }
func (c *copier) release(m int) { c.locals = c.locals[:m] }

func (c *copier) localType(name string) (types.Type, bool) {
	l, ok := c.innermost(name)
	return l.t, ok && l.t != nil
}

// innermost is the binding of name nearest in scope.
func (c *copier) innermost(name string) (local, bool) {
	for i := len(c.locals) - 1; i >= 0; i-- {
		if c.locals[i].name == name {
			return c.locals[i], true
		}
	}
	return local{}, false
}

// expr copies e.
func (c *copier) expr(e syntax.Expr) syntax.Expr {
	if e == nil {
		return nil
	}
	out := c.expr1(e)
	if t, ok := c.src.TypeOf(e); ok {
		if _, done := c.dst.types[out]; !done {
			c.dst.types[out] = c.typ(t)
		}
	}
	return out
}

func (c *copier) exprs(es []syntax.Expr) []syntax.Expr {
	if es == nil {
		return nil
	}
	out := make([]syntax.Expr, len(es))
	for i, e := range es {
		out[i] = c.expr(e)
	}
	return out
}

func (c *copier) expr1(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case *syntax.IntLit:
		x := *e
		return &x
	case *syntax.FloatLit:
		x := *e
		return &x
	case *syntax.BoolLit:
		x := *e
		return &x
	case *syntax.CharLit:
		x := *e
		return &x
	case *syntax.StringLit:
		x := *e
		return &x
	case *syntax.Hole:
		x := *e
		return &x
	case *syntax.Var:
		return c.variable(e)
	case *syntax.Paren:
		return &syntax.Paren{Loc: e.Loc, X: c.expr(e.X)}
	case *syntax.QualParen:
		// M.(e): the names in e are resolved; the module is gone.
		return &syntax.Paren{Loc: e.Loc, X: c.expr(e.X)}
	case *syntax.TupleLit:
		return &syntax.TupleLit{Loc: e.Loc, Elems: c.exprs(e.Elems)}
	case *syntax.RecordLit:
		out := &syntax.RecordLit{Loc: e.Loc}
		for _, f := range e.Fields {
			out.Fields = append(out.Fields, &syntax.RecordField{Loc: f.Loc, Name: f.Name, Value: c.expr(f.Value)})
		}
		return out
	case *syntax.ArrayLit:
		return &syntax.ArrayLit{Loc: e.Loc, Elems: c.exprs(e.Elems)}
	case *syntax.Range:
		return &syntax.Range{Loc: e.Loc, Start: c.expr(e.Start), Second: c.expr(e.Second), Stop: c.expr(e.Stop), Op: e.Op}
	case *syntax.Project:
		return &syntax.Project{Loc: e.Loc, X: c.expr(e.X), Field: e.Field}
	case *syntax.Binary:
		l, r := c.expr(e.L), c.expr(e.R)
		out := &syntax.Binary{Loc: e.Loc, OpSpan: e.OpSpan, Op: e.Op, Backtick: e.Backtick, L: l, R: r}
		if obj, ok := c.src.Use(e); ok {
			rf := c.resolve(e, obj)
			out.Op, out.Backtick = rf.name, !rf.op
			c.note(out, rf)
			c.dst.targs[out] = c.types(c.src.TypeArgs(e))
		}
		return out
	case *syntax.Negate:
		return &syntax.Negate{Loc: e.Loc, X: c.expr(e.X)}
	case *syntax.Not:
		return &syntax.Not{Loc: e.Loc, X: c.expr(e.X)}
	case *syntax.Apply:
		return &syntax.Apply{Loc: e.Loc, Fn: c.expr(e.Fn), Args: c.exprs(e.Args)}
	case *syntax.Constr:
		return &syntax.Constr{Loc: e.Loc, Name: e.Name, Args: c.exprs(e.Args)}
	case *syntax.OpSection:
		obj, ok := c.src.Use(e)
		if !ok {
			return &syntax.OpSection{Loc: e.Loc, Op: e.Op, Backtick: e.Backtick}
		}
		rf := c.resolve(e, obj)
		var out syntax.Expr
		if rf.op {
			out = &syntax.OpSection{Loc: e.Loc, Op: rf.name}
		} else {
			out = &syntax.Var{Loc: e.Loc, Name: rf.name}
		}
		c.note(out, rf)
		c.dst.targs[out] = c.types(c.src.TypeArgs(e))
		return out
	case *syntax.LeftSection:
		l := c.expr(e.L)
		out := &syntax.LeftSection{Loc: e.Loc, Op: e.Op, Backtick: e.Backtick, L: l}
		if obj, ok := c.src.Use(e); ok {
			rf := c.resolve(e, obj)
			out.Op, out.Backtick = rf.name, !rf.op
			c.note(out, rf)
			c.dst.targs[out] = c.types(c.src.TypeArgs(e))
		}
		return out
	case *syntax.RightSection:
		r := c.expr(e.R)
		out := &syntax.RightSection{Loc: e.Loc, Op: e.Op, Backtick: e.Backtick, R: r}
		if obj, ok := c.src.Use(e); ok {
			rf := c.resolve(e, obj)
			out.Op, out.Backtick = rf.name, !rf.op
			c.note(out, rf)
			c.dst.targs[out] = c.types(c.src.TypeArgs(e))
		}
		return out
	case *syntax.ProjectSection:
		return &syntax.ProjectSection{Loc: e.Loc, Fields: append([]string(nil), e.Fields...)}
	case *syntax.IndexSection:
		return &syntax.IndexSection{Loc: e.Loc, Path: c.path(e.Path)}
	case *syntax.Lambda:
		m := c.mark()
		out := &syntax.Lambda{Loc: e.Loc, Params: c.pats(e.Params)}
		if e.RetType != nil {
			if t, ok := c.src.TypeOf(e); ok {
				out.RetType = c.typeExp(resultType(c.typ(t), len(e.Params)), e.RetType, syntax.SpanOf(e.RetType))
			} else {
				out.RetType = e.RetType
			}
		}
		out.Body = c.expr(e.Body)
		c.release(m)
		return out
	case *syntax.If:
		return &syntax.If{Loc: e.Loc, Cond: c.expr(e.Cond), Then: c.expr(e.Then), Else: c.expr(e.Else)}
	case *syntax.LetIn:
		v := c.expr(e.Value)
		m := c.mark()
		out := &syntax.LetIn{Loc: e.Loc, Value: v}
		for _, sb := range e.Sizes {
			out.Sizes = append(out.Sizes, &syntax.SizeBinder{Loc: sb.Loc, Name: sb.Name})
			c.push(sb.Name, i64)
		}
		out.Pat = c.pat(e.Pat)
		out.Body = c.expr(e.Body)
		c.release(m)
		return out
	case *syntax.LetFun:
		if c.letFun != nil {
			return c.letFun(c, e)
		}
		fb := c.funBind(e.Fun)
		m := c.mark()
		c.push(e.Fun.Name, nil)
		body := c.expr(e.Body)
		c.release(m)
		return &syntax.LetFun{Loc: e.Loc, Fun: fb, Body: body}
	case *syntax.LetWith:
		dest := c.expr(e.Dest)
		path := c.path(e.Path)
		v := c.expr(e.Value)
		dv, ok := dest.(*syntax.Var)
		if !ok {
			dv = &syntax.Var{Loc: e.Dest.Loc, Name: e.Dest.Name}
		}
		m := c.mark()
		if t, ok := c.localType(e.Dest.Name.Name); ok {
			c.push(e.Dest.Name.Name, t)
		}
		body := c.expr(e.Body)
		c.release(m)
		return &syntax.LetWith{Loc: e.Loc, Dest: dv, Path: path, Value: v, Body: body}
	case *syntax.Update:
		return &syntax.Update{Loc: e.Loc, X: c.expr(e.X), Path: c.path(e.Path), Value: c.expr(e.Value)}
	case *syntax.Index:
		return &syntax.Index{Loc: e.Loc, X: c.expr(e.X), Indices: c.dims(e.Indices)}
	case *syntax.Loop:
		init := c.expr(e.Init)
		m := c.mark()
		out := &syntax.Loop{Loc: e.Loc, Init: init}
		for _, sb := range e.Sizes {
			out.Sizes = append(out.Sizes, &syntax.SizeBinder{Loc: sb.Loc, Name: sb.Name})
			c.push(sb.Name, i64)
		}
		out.Pat = c.pat(e.Pat)
		switch f := e.Form.(type) {
		case *syntax.For:
			bound := c.expr(f.Bound)
			out.Form = &syntax.For{Loc: f.Loc, I: &syntax.Ident{Loc: f.I.Loc, Name: f.I.Name}, Bound: bound}
			t, _ := c.src.TypeOf(f.Bound)
			if t != nil {
				t = c.typ(t)
			}
			c.push(f.I.Name, t)
		case *syntax.ForIn:
			arr := c.expr(f.Arr)
			out.Form = &syntax.ForIn{Loc: f.Loc, Pat: c.pat(f.Pat), Arr: arr}
		case *syntax.While:
			out.Form = &syntax.While{Loc: f.Loc, Cond: c.expr(f.Cond)}
		}
		out.Body = c.expr(e.Body)
		c.release(m)
		return out
	case *syntax.Match:
		out := &syntax.Match{Loc: e.Loc, X: c.expr(e.X)}
		for _, cs := range e.Cases {
			m := c.mark()
			p := c.pat(cs.Pat)
			out.Cases = append(out.Cases, &syntax.Case{Loc: cs.Loc, Pat: p, Body: c.expr(cs.Body)})
			c.release(m)
		}
		return out
	case *syntax.Assert:
		return &syntax.Assert{Loc: e.Loc, Cond: c.expr(e.Cond), X: c.expr(e.X)}
	case *syntax.Ascript:
		x := c.expr(e.X)
		var te syntax.TypeExp = e.Type
		if t, ok := c.src.TypeOf(e); ok {
			te = c.typeExp(c.typ(t), e.Type, syntax.SpanOf(e.Type))
		}
		return &syntax.Ascript{Loc: e.Loc, X: x, Type: te}
	case *syntax.Coerce:
		x := c.expr(e.X)
		var te syntax.TypeExp = e.Type
		if t, ok := c.src.TypeOf(e); ok {
			te = c.typeExp(c.typ(t), e.Type, syntax.SpanOf(e.Type))
		}
		return &syntax.Coerce{Loc: e.Loc, X: x, Type: te}
	case *syntax.Attr:
		return &syntax.Attr{Loc: e.Loc, Attr: e.Attr, X: c.expr(e.X)}
	}
	panic(notLowered(e, "the stages do not know the expression %T", e))
}

// variable copies a use of a name: a qualified use that projects record
// fields (r.x.y, M.r.x) becomes projections of the object's value.
func (c *copier) variable(e *syntax.Var) syntax.Expr {
	obj, ok := c.src.Use(e)
	if !ok {
		// A name the checker made up (a size it wrote): kept as it is.
		return &syntax.Var{Loc: e.Loc, Name: e.Name}
	}
	rf := c.resolve(e, obj)
	var base syntax.Expr
	if rf.op {
		base = &syntax.OpSection{Loc: e.Loc, Op: rf.name}
	} else {
		v := &syntax.Var{Loc: e.Loc, Name: rf.name}
		if sa := c.src.SizeArgs(e); sa != nil {
			c.dst.sizeArgs[v] = sa
		}
		base = v
	}
	c.note(base, rf)
	c.dst.targs[base] = c.types(c.src.TypeArgs(e))
	fields := c.src.Fields(e)
	if len(fields) == 0 {
		return base
	}
	var t types.Type
	if obj.Kind == types.ObjLocal {
		t, _ = c.localType(obj.Name)
	} else if rf.def != nil {
		if s, ok := c.dst.schemes[rf.def]; ok && len(rf.def.Params) == 0 {
			t = s.Type
		}
	}
	if t != nil {
		c.dst.types[base] = t
	}
	x := base
	for i, f := range fields {
		p := &syntax.Project{Loc: e.Loc, X: x, Field: f}
		if t != nil {
			t = projectType(t, f)
			if t != nil && i < len(fields)-1 {
				c.dst.types[p] = t
			}
		}
		x = p
	}
	return x
}

// projectType is the type of field f of a record of type t.
func projectType(t types.Type, f string) types.Type {
	if r, ok := types.Resolve(t).(*types.Record); ok {
		for _, fl := range r.Fields {
			if fl.Name == f {
				return fl.Type
			}
		}
	}
	return nil
}

// resultType peels n parameters off a function type.
func resultType(t types.Type, n int) types.Type {
	for ; n > 0; n-- {
		a, ok := types.Resolve(t).(*types.Arrow)
		if !ok {
			return t
		}
		t = a.To
	}
	return t
}

func (c *copier) dims(ds []*syntax.DimIndex) []*syntax.DimIndex {
	if ds == nil {
		return nil
	}
	out := make([]*syntax.DimIndex, len(ds))
	for i, d := range ds {
		if d == nil {
			continue
		}
		out[i] = &syntax.DimIndex{Loc: d.Loc, Fix: c.expr(d.Fix), Start: c.expr(d.Start), End: c.expr(d.End), Stride: c.expr(d.Stride),
			IsSlice: d.IsSlice, HasStride: d.HasStride, HasColon: d.HasColon}
	}
	return out
}

func (c *copier) path(ps []syntax.PathElem) []syntax.PathElem {
	if ps == nil {
		return nil
	}
	out := make([]syntax.PathElem, len(ps))
	for i, p := range ps {
		out[i] = syntax.PathElem{Indices: c.dims(p.Indices), Field: p.Field, Span: p.Span}
	}
	return out
}

// pats copies parameters, bringing their names into scope.
func (c *copier) pats(ps []syntax.Pat) []syntax.Pat {
	if ps == nil {
		return nil
	}
	out := make([]syntax.Pat, len(ps))
	for i, p := range ps {
		out[i] = c.pat(p)
	}
	return out
}

// pat copies a pattern and brings its names into scope.
func (c *copier) pat(p syntax.Pat) syntax.Pat {
	if p == nil {
		return nil
	}
	var t types.Type
	if pt, ok := c.src.PatType(p); ok {
		t = c.typ(pt)
	}
	var out syntax.Pat
	switch p := p.(type) {
	case *syntax.PId:
		out = &syntax.PId{Loc: p.Loc, Name: p.Name}
		c.push(p.Name, t)
	case *syntax.PWild:
		out = &syntax.PWild{Loc: p.Loc}
	case *syntax.PTuple:
		q := &syntax.PTuple{Loc: p.Loc}
		for _, x := range p.Elems {
			q.Elems = append(q.Elems, c.pat(x))
		}
		out = q
	case *syntax.PRecord:
		q := &syntax.PRecord{Loc: p.Loc}
		for _, f := range p.Fields {
			q.Fields = append(q.Fields, &syntax.PField{Loc: f.Loc, Name: f.Name, Pat: c.pat(f.Pat)})
		}
		out = q
	case *syntax.PParen:
		out = &syntax.PParen{Loc: p.Loc, P: c.pat(p.P)}
	case *syntax.PAscript:
		inner := c.pat(p.P)
		var te syntax.TypeExp = p.Type
		if t != nil {
			te = c.typeExp(t, p.Type, syntax.SpanOf(p.Type))
		}
		out = &syntax.PAscript{Loc: p.Loc, P: inner, Type: te}
	case *syntax.PLit:
		out = &syntax.PLit{Loc: p.Loc, Lit: c.expr(p.Lit)}
	case *syntax.PConstr:
		q := &syntax.PConstr{Loc: p.Loc, Name: p.Name}
		for _, x := range p.Args {
			q.Args = append(q.Args, c.pat(x))
		}
		out = q
	case *syntax.PAttr:
		out = &syntax.PAttr{Loc: p.Loc, Attr: p.Attr, P: c.pat(p.P)}
	default:
		panic(notLowered(p, "the stages do not know the pattern %T", p))
	}
	if t != nil {
		c.dst.pats[out] = t
	}
	return out
}

func (c *copier) typeParams(tps []*syntax.TypeParam) []*syntax.TypeParam {
	if tps == nil {
		return nil
	}
	out := make([]*syntax.TypeParam, len(tps))
	for i, tp := range tps {
		out[i] = &syntax.TypeParam{Loc: tp.Loc, Name: tp.Name, Kind: tp.Kind}
	}
	return out
}

// funBind copies a definition (its name as it is), with its scheme.
func (c *copier) funBind(fb *syntax.FunBind) *syntax.FunBind {
	out := &syntax.FunBind{Loc: fb.Loc, Name: fb.Name, NameSpan: fb.NameSpan, IsOp: fb.IsOp,
		TypeParams: c.typeParams(fb.TypeParams), Attrs: fb.Attrs}
	c.fill(out, fb)
	return out
}

// fill copies fb's parameters, return type and body into out, and gives
// out fb's scheme under the substitution.
func (c *copier) fill(out, fb *syntax.FunBind) {
	var sch *types.Scheme
	if s, ok := c.src.Scheme(fb); ok {
		sch = &types.Scheme{TParams: s.TParams, SParams: s.SParams, Type: c.typ(s.Type)}
		c.dst.schemes[out] = sch
	}
	m := c.mark()
	for _, tp := range out.TypeParams {
		if tp.Kind == syntax.TPSize {
			c.push(tp.Name, i64)
		}
	}
	out.Params = c.pats(fb.Params)
	if fb.RetType != nil {
		if sch != nil {
			out.RetType = c.retTypeExp(sch.Type, len(fb.Params), fb.RetType)
		} else {
			out.RetType = fb.RetType
		}
	}
	out.Body = c.expr(fb.Body)
	c.release(m)
}

// retTypeExp writes the result type of a function of type t with n
// parameters, with the sizes it makes anew (?[k].) when it has any.
func (c *copier) retTypeExp(t types.Type, n int, written syntax.TypeExp) syntax.TypeExp {
	var exist []*types.SizeName
	for ; n > 0; n-- {
		a, ok := types.Resolve(t).(*types.Arrow)
		if !ok {
			break
		}
		exist = a.Exist
		t = a.To
	}
	if ex, ok := stripTE(written).(*syntax.TEExist); ok {
		written = ex.T
	}
	sp := syntax.SpanOf(written)
	if len(exist) > 0 {
		saved := c.exist
		c.exist = map[*types.SizeName]bool{}
		for k := range saved {
			c.exist[k] = true
		}
		for _, z := range exist {
			c.exist[z] = true
		}
		defer func() { c.exist = saved }()
	}
	te := c.typeExp(t, written, sp)
	out := &syntax.TEExist{Loc: syntax.Loc{Span: sp}, T: te}
	for _, z := range exist {
		// A size the result spells as [] stays anonymous (?[d].[]t does
		// not check: d is no array's size).
		if types.UsesSizeConstructively(te, z.Name) {
			out.Sizes = append(out.Sizes, z.Name)
		}
	}
	if len(out.Sizes) == 0 {
		return te
	}
	return out
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// ascribe writes the type of each parameter that the source left to
// inference: a copy's parameters have the types of its instance, which
// the text must say for it to check alone.
func (c *copier) ascribe(ps []syntax.Pat) {
	for i, p := range ps {
		if hasAscription(p) {
			continue
		}
		t, ok := c.dst.pats[p]
		if !ok {
			continue
		}
		out := &syntax.PAscript{Loc: syntax.Loc{Span: syntax.SpanOf(p)}, P: p, Type: c.typeExp(t, nil, syntax.SpanOf(p))}
		c.dst.pats[out] = t
		ps[i] = out
	}
}

// hasAscription reports whether a pattern's type is written (under
// parentheses and attributes).
func hasAscription(p syntax.Pat) bool {
	for {
		switch q := p.(type) {
		case *syntax.PAscript:
			return true
		case *syntax.PParen:
			p = q.P
		case *syntax.PAttr:
			p = q.P
		default:
			return false
		}
	}
}
