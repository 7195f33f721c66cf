package lower

import (
	"sort"
	"strings"

	"fut/interp/syntax"
	"fut/interp/types"
)

// apply applies the function f, whose environment record is fx at run
// time, to args.
func (d *defunctionaliser) apply(env *denv, at syntax.Node, fx syntax.Expr, f *svFun, args []arg) (syntax.Expr, sv) {
	return d.partial(env, at, fx, f, args, false)
}

// partial is apply; flip says that the one argument is f's second (a
// right section).
func (d *defunctionaliser) partial(env *denv, at syntax.Node, fx syntax.Expr, f *svFun, args []arg, flip bool) (syntax.Expr, sv) {
	need := f.arity - len(f.args)
	if flip {
		if need < 2 || len(f.args) > 0 {
			panic(notLowered(at, "a section of a function that does not take two arguments"))
		}
		return d.closeOver(at, fx, f, args, true)
	}
	if len(args) < need {
		return d.closeOver(at, fx, f, args, false)
	}
	x, v := d.call(env, at, fx, f, args[:need])
	if len(args) == need {
		return x, v
	}
	g, ok := v.(*svFun)
	if !ok {
		panic(notLowered(at, "applying the result of a function that does not return one"))
	}
	return d.partial(env, at, x, g, args[need:], false)
}

// closeOver is f with args applied but not all of them: a function whose
// environment record holds f's and the new arguments (a_N).
func (d *defunctionaliser) closeOver(at syntax.Node, fx syntax.Expr, f *svFun, args []arg, flip bool) (syntax.Expr, sv) {
	g := *f
	g.args = append([]field(nil), f.args...)
	g.flip = flip
	vals := map[string]syntax.Expr{}
	for _, fl := range runtime(f.closure()) {
		vals[fl.name] = d.fieldOf(at, fx, fl)
	}
	for _, a := range args {
		name := d.fresh("a")
		g.args = append(g.args, field{name, a.v})
		vals[name] = a.x
	}
	r := &syntax.RecordLit{Loc: syntax.Loc{Span: syntax.SpanOf(at)}}
	for _, fl := range runtime(g.closure()) {
		r.Fields = append(r.Fields, &syntax.RecordField{Loc: r.Loc, Name: fl.name, Value: vals[fl.name]})
	}
	d.dst.types[r] = envType(g.closure())
	return r, &g
}

// fieldOf is the value of field fl of the environment record fx.
func (d *defunctionaliser) fieldOf(at syntax.Node, fx syntax.Expr, fl field) syntax.Expr {
	if hollow(fl.sv) {
		return d.emptyRecord(at)
	}
	for {
		p, ok := fx.(*syntax.Paren)
		if !ok {
			break
		}
		fx = p.X
	}
	if r, ok := fx.(*syntax.RecordLit); ok {
		for _, x := range r.Fields {
			if x.Name == fl.name {
				return x.Value
			}
		}
	}
	p := &syntax.Project{Loc: syntax.Loc{Span: syntax.SpanOf(at)}, X: fx, Field: fl.name}
	d.dst.types[p] = rtype(fl.sv)
	return p
}

// call applies f to all the arguments it still takes.
func (d *defunctionaliser) call(env *denv, at syntax.Node, fx syntax.Expr, f *svFun, args []arg) (syntax.Expr, sv) {
	loc := syntax.Loc{Span: syntax.SpanOf(at)}
	// All the arguments in order: those applied before (from the
	// environment record), then the new ones.
	var all []arg
	for _, a := range f.args {
		all = append(all, arg{d.fieldOf(at, fx, a), a.sv})
	}
	if f.flip {
		all = append([]arg{args[0]}, append(all, args[1:]...)...)
	} else {
		all = append(all, args...)
	}
	res := resultType(f.t, f.arity)
	switch f.kind {
	case fPrim:
		var fn syntax.Expr
		if f.prim.op {
			fn = &syntax.OpSection{Loc: loc, Op: f.prim.name}
		} else {
			fn = &syntax.Var{Loc: loc, Name: f.prim.name}
		}
		d.dst.uses[fn] = f.prim.obj
		ts := paramTypes(f.t, len(all))
		xs := make([]syntax.Expr, len(all))
		for i, a := range all {
			xs[i] = d.primArg(env, at, a, ts[i])
		}
		out := &syntax.Apply{Loc: loc, Fn: fn, Args: xs}
		d.dst.types[out] = res
		return out, nil
	case fProj:
		x, v := all[0].x, all[0].v
		for _, fl := range f.fields {
			x = &syntax.Project{Loc: loc, X: x, Field: fl}
			var fv sv
			if r, ok := v.(*svRec); ok {
				for i, n := range r.names {
					if n == fl {
						fv = r.fields[i]
					}
				}
			}
			v = fv
			if v != nil {
				d.dst.types[x] = rtype(v)
			}
		}
		if isFun(v) {
			return x, v
		}
		d.dst.types[x] = res
		return x, nil
	case fIndex:
		return d.indexCall(at, fx, f, all[0], res), nil
	case fHole:
		// the arguments are evaluated, then the hole fails, as the
		// reference path does when it applies a hole
		var out syntax.Expr = &syntax.Hole{Loc: f.hole.Loc}
		d.dst.types[out] = res
		for i := len(all) - 1; i >= 0; i-- {
			pid := &syntax.PWild{Loc: loc}
			d.dst.pats[pid] = rtype(all[i].v)
			l := &syntax.LetIn{Loc: loc, Pat: pid, Value: all[i].x, Body: out}
			d.dst.types[l] = res
			out = l
		}
		return out, nil
	}
	sp := d.specialise(f, svsOf(args), at)
	callee := &syntax.Var{Loc: loc, Name: syntax.QualName{Name: sp.out.Name}}
	d.dst.uses[callee] = sp.obj
	*d.cp.names = append(*d.cp.names, named{callee, sp.out})
	if f.sizeArgs != nil {
		d.dst.sizeArgs[callee] = f.sizeArgs
	}
	var xs []syntax.Expr
	if len(runtime(f.closure())) > 0 {
		xs = append(xs, fx)
	}
	for _, a := range args {
		if !hollow(a.v) {
			xs = append(xs, a.x)
		}
	}
	if len(xs) == 0 {
		return callee, sp.res
	}
	out := &syntax.Apply{Loc: loc, Fn: callee, Args: xs}
	if isFun(sp.res) {
		d.dst.types[out] = rtype(sp.res)
	} else {
		d.dst.types[out] = res
	}
	return out, sp.res
}

func svsOf(args []arg) []sv {
	out := make([]sv, len(args))
	for i, a := range args {
		out[i] = a.v
	}
	return out
}

// paramTypes are the first n parameter types of a function type.
func paramTypes(t types.Type, n int) []types.Type {
	out := make([]types.Type, n)
	for i := 0; i < n; i++ {
		a, ok := types.Resolve(t).(*types.Arrow)
		if !ok {
			break
		}
		out[i] = a.From
		t = a.To
	}
	return out
}

// primArg is an argument of an operator or intrinsic: a first-order value
// as it is, an operator as itself, and any other function as a lambda
// that calls it (a SOAC's lambda).
func (d *defunctionaliser) primArg(env *denv, at syntax.Node, a arg, t types.Type) syntax.Expr {
	g, ok := a.v.(*svFun)
	if !ok {
		if isFun(a.v) {
			panic(notLowered(at, "a record of functions passed to an intrinsic"))
		}
		return a.x
	}
	if g.kind == fPrim && g.prim.op && len(g.args) == 0 {
		op := &syntax.OpSection{Loc: syntax.Loc{Span: syntax.SpanOf(at)}, Op: g.prim.name}
		d.dst.uses[op] = g.prim.obj
		d.dst.types[op] = t
		return op
	}
	if t == nil {
		t = g.t
	}
	loc := syntax.Loc{Span: syntax.SpanOf(at)}
	n := arrows(t) - 0
	if n == 0 {
		n = g.arity - len(g.args)
	}
	ts := paramTypes(t, n)
	lam := &syntax.Lambda{Loc: loc}
	var xs []arg
	var pids []*syntax.PId
	for i := 0; i < n; i++ {
		name := d.fresh("x")
		pid := &syntax.PId{Loc: loc, Name: name}
		pids = append(pids, pid)
		xs = append(xs, arg{d.local(at, name, ts[i]), svDyn{ts[i]}})
	}
	body, v := d.apply(env, at, a.x, g, xs)
	if isFun(v) {
		panic(notLowered(at, "a function whose result is a function passed to an intrinsic"))
	}
	// The parameters take the types of those they fill in the copy
	// called (with the uniqueness of one it consumes).
	if app, ok := body.(*syntax.Apply); ok {
		if fv, ok := app.Fn.(*syntax.Var); ok {
			if o := d.dst.uses[fv]; o != nil && o.Fun != nil && len(o.Fun.Params) >= n {
				ps := o.Fun.Params[len(o.Fun.Params)-n:]
				for i := range ts {
					if pt, ok := d.dst.pats[ps[i]]; ok {
						ts[i] = pt
					}
				}
			}
		}
	}
	for i, pid := range pids {
		d.dst.pats[pid] = ts[i]
		lam.Params = append(lam.Params, d.ascribed(pid))
	}
	lam.Body = body
	d.dst.types[lam] = t
	return lam
}

// indexCall applies an index section (.[i].f) to x: the indices'
// variables come from the section's environment record.
func (d *defunctionaliser) indexCall(at syntax.Node, fx syntax.Expr, f *svFun, x arg, res types.Type) syntax.Expr {
	loc := syntax.Loc{Span: syntax.SpanOf(at)}
	inner := &denv{}
	for _, fl := range f.env {
		inner = inner.bind(fl.name, fl.sv)
	}
	xname := d.fresh("x")
	var e syntax.Expr = d.local(at, xname, nil)
	for _, p := range f.path {
		if p.Field != "" {
			e = &syntax.Project{Loc: loc, X: e, Field: p.Field}
			continue
		}
		e = &syntax.Index{Loc: loc, X: e, Indices: d.dims(inner, p.Indices)}
	}
	d.dst.types[e] = res
	// let x_N = x in let {captured} = env in x_N[…]
	var body syntax.Expr = e
	if len(runtime(f.env)) > 0 {
		body = d.destructure(at, fx, f.env, body)
	}
	pid := &syntax.PId{Loc: loc, Name: xname}
	out := &syntax.LetIn{Loc: loc, Pat: pid, Value: x.x, Body: body}
	d.dst.types[out] = res
	return out
}

// destructure binds the fields of the environment record rec to their
// names around body.
func (d *defunctionaliser) destructure(at syntax.Node, rec syntax.Expr, fs []field, body syntax.Expr) syntax.Expr {
	loc := syntax.Loc{Span: syntax.SpanOf(at)}
	p := &syntax.PRecord{Loc: loc}
	for _, fl := range runtime(fs) {
		pid := &syntax.PId{Loc: loc, Name: fl.name}
		d.dst.pats[pid] = rtype(fl.sv)
		p.Fields = append(p.Fields, &syntax.PField{Loc: loc, Name: fl.name, Pat: pid})
	}
	d.dst.pats[p] = envType(fs)
	out := &syntax.LetIn{Loc: loc, Pat: p, Value: rec, Body: body}
	if t, ok := d.dst.types[body]; ok {
		d.dst.types[out] = t
	}
	return out
}

// specialise is the copy of f (a definition or a lambda) for arguments
// with the static values args: made on first use, in the program before
// its first caller.
func (d *defunctionaliser) specialise(f *svFun, args []sv, at syntax.Node) *spec {
	var b strings.Builder
	b.WriteString(key(f))
	for _, a := range args {
		b.WriteString("|")
		writeSVKey(&b, a)
	}
	k := b.String()
	if sp, ok := d.specs[k]; ok {
		if sp.busy && sp.res == nil {
			panic(notLowered(at, "a recursive function whose result is a function"))
		}
		return sp
	}
	out := &syntax.FunBind{}
	sp := &spec{out: out, obj: &types.Object{Kind: types.ObjDecl, Fun: out}, busy: true}
	d.specs[k] = sp
	if r := resultType(f.t, f.arity); f.t != nil && !isFunctional(r) {
		sp.res = svDyn{r}
	}
	var src syntax.Node = f.lam
	name := "lambda"
	if f.def != nil {
		src = f.def
		name = f.def.Name
		out.NameSpan = f.def.NameSpan
	}
	out.Loc = syntax.Loc{Span: syntax.SpanOf(src)}
	out.Name = name
	sp.obj.Name = name
	if f.kind == fDef {
		out.Attrs = f.def.Attrs
	}
	var sizeParams []string
	if f.def != nil {
		for _, tp := range f.def.TypeParams {
			if tp.Kind == syntax.TPSize {
				sizeParams = append(sizeParams, tp.Name)
			}
		}
	}
	inner := &denv{}
	if f.def != nil {
		inner = sizesInScope(inner, f.def)
	}
	type pre struct {
		pat syntax.Pat
		val syntax.Expr
	}
	var prologue []pre
	closure := runtime(f.closure())
	for _, fl := range f.closure() {
		if hollow(fl.sv) {
			inner = inner.bind(fl.name, fl.sv)
		}
	}
	if len(closure) > 0 {
		cname := d.fresh("env")
		pid := &syntax.PId{Loc: out.Loc, Name: cname}
		d.dst.pats[pid] = envType(closure)
		out.Params = append(out.Params, d.ascribed(pid))
		rec := d.local(src, cname, envType(closure))
		p := &syntax.PRecord{Loc: out.Loc}
		for _, fl := range closure {
			fp := &syntax.PId{Loc: out.Loc, Name: fl.name}
			d.dst.pats[fp] = rtype(fl.sv)
			p.Fields = append(p.Fields, &syntax.PField{Loc: out.Loc, Name: fl.name, Pat: fp})
			inner = inner.bind(fl.name, fl.sv)
		}
		d.dst.pats[p] = envType(closure)
		prologue = append(prologue, pre{p, rec})
	}
	// the parameters the applied arguments fill, then the others
	params := f.params
	var given []syntax.Pat
	if f.flip {
		given, params = []syntax.Pat{params[1]}, append([]syntax.Pat{params[0]}, params[2:]...)
	} else {
		given, params = params[:len(f.args)], params[len(f.args):]
	}
	for i, p := range given {
		a := f.args[i]
		var np syntax.Pat
		np, inner = d.bindPat(inner, p, a.sv)
		if !hollow(a.sv) {
			prologue = append(prologue, pre{np, d.local(src, a.name, rtype(a.sv))})
		}
	}
	for i, p := range params {
		var np syntax.Pat
		np, inner = d.bindPat(inner, p, args[i])
		if hollow(args[i]) {
			continue
		}
		out.Params = append(out.Params, d.ascribed(np))
	}
	body, v := d.expr(inner, f.body)
	// A size parameter that the parameters' types name stays one; one
	// named only by a parameter filled by an argument applied before is
	// bound where that argument is (let [n] (xs: [n]t) = a_1); one the
	// environment brings is bound by it; any other stays a size parameter,
	// which the call's size arguments give (a size only the context fixes).
	used := dimNames(out.Params)
	bound := map[string]bool{}
	for _, fl := range closure {
		bound[fl.name] = true
	}
	binders := make([][]*syntax.SizeBinder, len(prologue))
	for _, n := range sizeParams {
		if bound[n] {
			continue
		}
		bound[n] = true
		if !used[n] {
			placed := false
			for i, pr := range prologue {
				if dimNames([]syntax.Pat{pr.pat})[n] {
					binders[i] = append(binders[i], &syntax.SizeBinder{Loc: out.Loc, Name: n})
					placed = true
					break
				}
			}
			if placed {
				continue
			}
		}
		out.TypeParams = append(out.TypeParams, &syntax.TypeParam{Loc: out.Loc, Name: n, Kind: syntax.TPSize})
	}
	for i := len(prologue) - 1; i >= 0; i-- {
		l := &syntax.LetIn{Loc: out.Loc, Sizes: binders[i], Pat: prologue[i].pat, Value: prologue[i].val, Body: body}
		if t, ok := d.dst.types[body]; ok {
			d.dst.types[l] = t
		}
		body = l
	}
	out.Body = body
	if f.kind == fDef && f.def.RetType != nil && !isFun(v) {
		if sch, ok := d.src.Info.Scheme(f.def); ok {
			out.RetType = d.cp.retTypeExp(sch.Type, len(f.def.Params), f.def.RetType)
			// a size the parameters no longer name (they were the
			// function's that is now a closure) is the result's own: []
			bound := dimNames(out.Params)
			for _, tp := range out.TypeParams {
				bound[tp.Name] = true
			}
			for k := range boundBy(out.Params) {
				bound[k] = true
			}
			if ex, ok := out.RetType.(*syntax.TEExist); ok {
				for _, n := range ex.Sizes {
					bound[n] = true // the result's own, named by ?[n].
				}
			}
			syntax.Inspect(out.RetType, func(n syntax.Node) bool {
				if a, ok := n.(*syntax.TEArray); ok {
					if v, ok := a.Dim.(*syntax.Var); ok && len(v.Name.Quals) == 0 && !bound[v.Name.Name] {
						a.Dim = nil
					}
				}
				return true
			})
		}
	}
	d.declareSizes(out)
	sp.res = v
	sp.busy = false
	d.defs = append(d.defs, out)
	d.spells[out] = name
	switch {
	case f.kind == fDef:
		d.dst.origin[out] = d.src.Info.Origin(f.def)
		if len(f.def.Params) == 0 {
			if c, ok := d.src.Info.consts[f.def]; ok {
				d.dst.consts[out] = c
			}
		}
	case f.def != nil:
		d.dst.declNames[out] = f.def.Name
	default:
		d.dst.declNames[out] = ""
	}
	return sp
}

// drop takes the copy out of the program (a constant that holds nothing
// at run time, which no use names).
func (d *defunctionaliser) drop(out *syntax.FunBind) {
	for i, fb := range d.defs {
		if fb == out {
			d.defs = append(d.defs[:i], d.defs[i+1:]...)
			return
		}
	}
}

// ascribed is a parameter with its type written.
func (d *defunctionaliser) ascribed(p syntax.Pat) syntax.Pat {
	if hasAscription(p) {
		return p
	}
	t, ok := d.dst.pats[p]
	if !ok {
		return p
	}
	out := &syntax.PAscript{Loc: syntax.Loc{Span: syntax.SpanOf(p)}, P: p, Type: d.cp.typeExp(t, nil, syntax.SpanOf(p))}
	d.dst.pats[out] = t
	return out
}

// bindPat binds the names of the pattern p to the parts of a value with
// the static value v (nil: first order), and returns the new pattern.
func (d *defunctionaliser) bindPat(env *denv, p syntax.Pat, v sv) (syntax.Pat, *denv) {
	if v == nil || !isFun(v) {
		np := d.cp.pat(p)
		syntax.Inspect(np, func(n syntax.Node) bool {
			if id, ok := n.(*syntax.PId); ok {
				env = env.bind(id.Name, svDyn{d.dst.pats[id]})
			}
			return true
		})
		return np, env
	}
	switch p := p.(type) {
	case *syntax.PParen:
		return d.bindPat(env, p.P, v)
	case *syntax.PAttr:
		return d.bindPat(env, p.P, v)
	case *syntax.PAscript:
		// the type is a function type; the value is its environment
		return d.bindPat(env, p.P, v)
	case *syntax.PId:
		np := &syntax.PId{Loc: p.Loc, Name: p.Name}
		d.dst.pats[np] = rtype(v)
		return np, env.bind(p.Name, v)
	case *syntax.PWild:
		np := &syntax.PWild{Loc: p.Loc}
		d.dst.pats[np] = rtype(v)
		return np, env
	case *syntax.PTuple:
		r, ok := v.(*svRec)
		if !ok || len(r.fields) != len(p.Elems) {
			break
		}
		np := &syntax.PTuple{Loc: p.Loc}
		for i, x := range p.Elems {
			var q syntax.Pat
			q, env = d.bindPat(env, x, r.fields[i])
			np.Elems = append(np.Elems, q)
		}
		d.dst.pats[np] = rtype(v)
		return np, env
	case *syntax.PRecord:
		r, ok := v.(*svRec)
		if !ok {
			break
		}
		np := &syntax.PRecord{Loc: p.Loc}
		for _, fl := range p.Fields {
			var fv sv
			for i, n := range r.names {
				if n == fl.Name {
					fv = r.fields[i]
				}
			}
			if fv == nil {
				panic(notLowered(p, "a record pattern with a field %s the value lacks", fl.Name))
			}
			var q syntax.Pat
			q, env = d.bindPat(env, fl.Pat, fv)
			np.Fields = append(np.Fields, &syntax.PField{Loc: fl.Loc, Name: fl.Name, Pat: q})
		}
		d.dst.pats[np] = rtype(v)
		return np, env
	}
	panic(notLowered(p, "a function bound by a pattern defunctionalisation does not take"))
}

// captured lists the local variables of env that the node n uses (its
// free variables, less those n binds itself as parameters), with their
// static values, sorted by name.
func (d *defunctionaliser) captured(env *denv, n syntax.Node, bound map[string]bool) []field {
	seen := map[string]bool{}
	var out []field
	note := func(name string) {
		if seen[name] || bound[name] {
			return
		}
		seen[name] = true
		if v, ok := env.lookup(name); ok {
			out = append(out, field{name, v})
		}
	}
	syntax.Inspect(n, func(x syntax.Node) bool {
		switch x := x.(type) {
		case *syntax.Var:
			if o, ok := d.src.Info.Use(x); ok && o.Kind == types.ObjLocal {
				note(o.Name)
			} else if !ok && len(x.Name.Quals) == 0 {
				note(x.Name.Name)
			}
			for _, s := range d.src.Info.SizeArgs(x) {
				syntax.Inspect(s, func(y syntax.Node) bool {
					if v, ok := y.(*syntax.Var); ok && len(v.Name.Quals) == 0 {
						note(v.Name.Name)
					}
					return true
				})
			}
		case *syntax.LetWith:
			note(x.Dest.Name.Name)
		case *syntax.Binary, *syntax.OpSection, *syntax.LeftSection, *syntax.RightSection:
			// a local function used as an operator
			if o, ok := d.src.Info.Use(x); ok && o.Kind == types.ObjLocal {
				note(o.Name)
			}
		}
		return true
	})
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// boundBy is the set of names the parameters bind.
func boundBy(ps []syntax.Pat) map[string]bool {
	out := map[string]bool{}
	for _, p := range ps {
		syntax.Inspect(p, func(n syntax.Node) bool {
			if id, ok := n.(*syntax.PId); ok {
				out[id.Name] = true
			}
			return true
		})
	}
	return out
}

// declareSizes makes the sizes that fb's parameter types name, and that
// nothing in fb binds, size parameters of fb: a lifted lambda's
// parameters may have the sizes of the definition it was lifted from.
func (d *defunctionaliser) declareSizes(fb *syntax.FunBind) {
	bound := map[string]bool{}
	for _, tp := range fb.TypeParams {
		bound[tp.Name] = true
	}
	for _, p := range fb.Params {
		syntax.Inspect(p, func(n syntax.Node) bool {
			if id, ok := n.(*syntax.PId); ok {
				bound[id.Name] = true
			}
			return true
		})
	}
	for _, p := range fb.Params {
		syntax.Inspect(p, func(n syntax.Node) bool {
			a, ok := n.(*syntax.TEArray)
			if !ok {
				return true
			}
			if v, ok := a.Dim.(*syntax.Var); ok && len(v.Name.Quals) == 0 && !bound[v.Name.Name] {
				bound[v.Name.Name] = true
				fb.TypeParams = append(fb.TypeParams, &syntax.TypeParam{Loc: fb.Loc, Name: v.Name.Name, Kind: syntax.TPSize})
			}
			return true
		})
	}
}

// dimNames are the names that the array dimensions written in ps use.
func dimNames(ps []syntax.Pat) map[string]bool {
	out := map[string]bool{}
	for _, p := range ps {
		syntax.Inspect(p, func(n syntax.Node) bool {
			if a, ok := n.(*syntax.TEArray); ok && a.Dim != nil {
				syntax.Inspect(a.Dim, func(m syntax.Node) bool {
					if v, ok := m.(*syntax.Var); ok && len(v.Name.Quals) == 0 {
						out[v.Name.Name] = true
					}
					return true
				})
			}
			return true
		})
	}
	return out
}
