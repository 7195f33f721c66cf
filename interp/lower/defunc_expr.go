package lower

import (
	"sort"
	"strconv"

	"fut/interp/syntax"
	"fut/interp/types"
)

// expr defunctionalises e in the static environment env: it returns the
// new expression (for a function, its environment record) and e's
// static value.
func (d *defunctionaliser) expr(env *denv, e syntax.Expr) (syntax.Expr, sv) {
	if e == nil {
		return nil, nil
	}
	out, v := d.expr1(env, e)
	if _, ok := d.dst.types[out]; !ok {
		if isFun(v) {
			d.dst.types[out] = rtype(v)
		} else if t, ok := d.src.Info.TypeOf(e); ok {
			d.dst.types[out] = t
		}
	}
	if v == nil {
		t, _ := d.src.Info.TypeOf(e)
		v = svDyn{t}
	}
	return out, v
}

// dyn defunctionalises e, which must be first order.
func (d *defunctionaliser) dyn(env *denv, e syntax.Expr, why string) syntax.Expr {
	out, v := d.expr(env, e)
	if isFun(v) {
		panic(notLowered(e, "%s is a function", why))
	}
	return out
}

func (d *defunctionaliser) dyns(env *denv, es []syntax.Expr, why string) []syntax.Expr {
	if es == nil {
		return nil
	}
	out := make([]syntax.Expr, len(es))
	for i, e := range es {
		out[i] = d.dyn(env, e, why)
	}
	return out
}

func (d *defunctionaliser) expr1(env *denv, e syntax.Expr) (syntax.Expr, sv) {
	switch e := e.(type) {
	case *syntax.IntLit, *syntax.FloatLit, *syntax.BoolLit, *syntax.CharLit, *syntax.StringLit:
		return d.cp.expr(e), nil
	case *syntax.Hole:
		if t, ok := d.src.Info.TypeOf(e); ok {
			if _, fn := types.Resolve(t).(*types.Arrow); fn {
				// applying it is the hole of the result
				return d.emptyRecord(e), &svFun{kind: fHole, t: t, arity: arrows(t), hole: e}
			}
		}
		return d.cp.expr(e), nil
	case *syntax.Var:
		return d.variable(env, e, 0)
	case *syntax.OpSection:
		obj, ok := d.src.Info.Use(e)
		if !ok {
			panic(notLowered(e, "the operator %s has no resolution", e.Op))
		}
		return d.object(env, e, obj, nil, 0)
	case *syntax.LeftSection:
		f, fv := d.use(env, e)
		x, xv := d.expr(env, e.L)
		return d.apply(env, e, f, fv, []arg{{x, xv}})
	case *syntax.RightSection:
		f, fv := d.use(env, e)
		y, yv := d.expr(env, e.R)
		return d.partial(env, e, f, fv, []arg{{y, yv}}, true)
	case *syntax.ProjectSection:
		t, _ := d.src.Info.TypeOf(e)
		f := &svFun{kind: fProj, fields: e.Fields, t: t, arity: 1}
		return d.emptyRecord(e), f
	case *syntax.IndexSection:
		t, _ := d.src.Info.TypeOf(e)
		f := &svFun{kind: fIndex, path: e.Path, t: t, arity: 1, env: d.captured(env, e, nil)}
		return d.envRecord(e, f.env), f
	case *syntax.Lambda:
		t, _ := d.src.Info.TypeOf(e)
		f := &svFun{kind: fLambda, lam: e, params: e.Params, body: e.Body, ret: e.RetType, t: t, arity: len(e.Params)}
		f.env = d.captured(env, e, boundBy(e.Params))
		return d.envRecord(e, f.env), f
	case *syntax.Paren:
		x, v := d.expr(env, e.X)
		return &syntax.Paren{Loc: e.Loc, X: x}, v
	case *syntax.Attr:
		x, v := d.expr(env, e.X)
		return &syntax.Attr{Loc: e.Loc, Attr: e.Attr, X: x}, v
	case *syntax.Ascript:
		x, v := d.expr(env, e.X)
		if isFun(v) {
			return x, v
		}
		t, _ := d.src.Info.TypeOf(e)
		return &syntax.Ascript{Loc: e.Loc, X: x, Type: d.cp.typeExp(t, e.Type, syntax.SpanOf(e.Type))}, nil
	case *syntax.Coerce:
		x := d.dyn(env, e.X, "a coerced value")
		t, _ := d.src.Info.TypeOf(e)
		// the sizes it names are computed when the program runs
		saved := d.cp.dimFn
		d.cp.dimFn = func(x syntax.Expr) syntax.Expr { return d.dyn(env, x, "a size") }
		te := d.cp.typeExp(t, e.Type, syntax.SpanOf(e.Type))
		d.cp.dimFn = saved
		return &syntax.Coerce{Loc: e.Loc, X: x, Type: te}, nil
	case *syntax.TupleLit:
		return d.record(env, e, nil, e.Elems)
	case *syntax.RecordLit:
		names := make([]string, len(e.Fields))
		vals := make([]syntax.Expr, len(e.Fields))
		for i, f := range e.Fields {
			names[i], vals[i] = f.Name, f.Value
		}
		return d.record(env, e, names, vals)
	case *syntax.Project:
		x, v := d.expr(env, e.X)
		out := &syntax.Project{Loc: e.Loc, X: x, Field: e.Field}
		if r, ok := v.(*svRec); ok {
			for i, n := range r.names {
				if n == e.Field {
					return out, r.fields[i]
				}
			}
		}
		return out, nil
	case *syntax.ArrayLit:
		return &syntax.ArrayLit{Loc: e.Loc, Elems: d.dyns(env, e.Elems, "an array element")}, nil
	case *syntax.Range:
		return &syntax.Range{Loc: e.Loc, Start: d.dyn(env, e.Start, "a range bound"), Second: d.dyn(env, e.Second, "a range bound"),
			Stop: d.dyn(env, e.Stop, "a range bound"), Op: e.Op}, nil
	case *syntax.Negate:
		return &syntax.Negate{Loc: e.Loc, X: d.dyn(env, e.X, "an operand")}, nil
	case *syntax.Not:
		return &syntax.Not{Loc: e.Loc, X: d.dyn(env, e.X, "an operand")}, nil
	case *syntax.Constr:
		return &syntax.Constr{Loc: e.Loc, Name: e.Name, Args: d.dyns(env, e.Args, "a constructor's payload")}, nil
	case *syntax.Assert:
		c := d.dyn(env, e.Cond, "a condition")
		x, v := d.expr(env, e.X)
		// a function asserted: the check stays, on its environment record
		return &syntax.Assert{Loc: e.Loc, Cond: c, X: x}, v
	case *syntax.Binary:
		return d.binary(env, e)
	case *syntax.Apply:
		var f syntax.Expr
		var fv sv
		if v, ok := e.Fn.(*syntax.Var); ok {
			// a call: the size arguments the use gives are the call's
			f, fv = d.variable(env, v, len(e.Args))
		} else {
			f, fv = d.expr(env, e.Fn)
		}
		args := make([]arg, len(e.Args))
		for i, a := range e.Args {
			x, v := d.expr(env, a)
			args[i] = arg{x, v}
		}
		fn, ok := fv.(*svFun)
		if !ok {
			panic(notLowered(e, "applying a value that is not a function"))
		}
		return d.apply(env, e, f, fn, args)
	case *syntax.If:
		c := d.dyn(env, e.Cond, "a condition")
		t := d.dyn(env, e.Then, "a branch's result")
		f := d.dyn(env, e.Else, "a branch's result")
		return &syntax.If{Loc: e.Loc, Cond: c, Then: t, Else: f}, nil
	case *syntax.LetIn:
		x, v := d.expr(env, e.Value)
		out := &syntax.LetIn{Loc: e.Loc, Value: x}
		inner := env
		for _, sb := range e.Sizes {
			out.Sizes = append(out.Sizes, &syntax.SizeBinder{Loc: sb.Loc, Name: sb.Name})
			inner = inner.bind(sb.Name, svDyn{i64})
		}
		out.Pat, inner = d.bindPat(inner, e.Pat, v)
		var bv sv
		out.Body, bv = d.expr(inner, e.Body)
		return out, bv
	case *syntax.LetFun:
		fb := e.Fun
		t, _ := d.src.Info.Scheme(fb)
		var ft types.Type
		if t != nil {
			ft = t.Type
		}
		f := &svFun{kind: fLambda, def: fb, params: fb.Params, body: fb.Body, ret: fb.RetType, t: ft, arity: len(fb.Params)}
		bound := boundBy(fb.Params)
		bound[fb.Name] = true
		f.env = d.captured(env, fb, bound)
		if len(fb.Params) == 0 {
			// a local constant written as a function definition
			x, v := d.expr(env, fb.Body)
			pid := &syntax.PId{Loc: syntax.Loc{Span: fb.NameSpan}, Name: fb.Name}
			d.dst.pats[pid] = d.dst.types[x]
			body, bv := d.expr(env.bind(fb.Name, v), e.Body)
			return &syntax.LetIn{Loc: e.Loc, Pat: pid, Value: x, Body: body}, bv
		}
		pid := &syntax.PId{Loc: syntax.Loc{Span: fb.NameSpan}, Name: fb.Name}
		d.dst.pats[pid] = rtype(f)
		body, bv := d.expr(env.bind(fb.Name, f), e.Body)
		if hollow(f) {
			return body, bv
		}
		return &syntax.LetIn{Loc: e.Loc, Pat: pid, Value: d.envRecord(fb, f.env), Body: body}, bv
	case *syntax.LetWith:
		dest := d.dyn(env, e.Dest, "an updated array")
		dv, ok := dest.(*syntax.Var)
		if !ok {
			panic(notLowered(e, "an in-place update of something other than a variable"))
		}
		path := d.path(env, e.Path)
		val := d.dyn(env, e.Value, "a stored value")
		t, _ := d.src.Info.TypeOf(e.Dest)
		body, bv := d.expr(env.bind(e.Dest.Name.Name, svDyn{t}), e.Body)
		return &syntax.LetWith{Loc: e.Loc, Dest: dv, Path: path, Value: val, Body: body}, bv
	case *syntax.Update:
		x, xv := d.expr(env, e.X)
		if r, ok := xv.(*svRec); ok && len(e.Path) == 1 && e.Path[0].Field != "" {
			return d.recordWith(env, e, x, r, e.Path[0].Field)
		}
		if isFun(xv) {
			panic(notLowered(e, "an update of a value that holds functions"))
		}
		return &syntax.Update{Loc: e.Loc, X: x, Path: d.path(env, e.Path), Value: d.dyn(env, e.Value, "a stored value")}, nil
	case *syntax.Index:
		x := d.dyn(env, e.X, "an indexed value")
		return &syntax.Index{Loc: e.Loc, X: x, Indices: d.dims(env, e.Indices)}, nil
	case *syntax.Loop:
		return d.loop(env, e), nil
	case *syntax.Match:
		x, xv := d.expr(env, e.X)
		if isFun(xv) {
			if _, ok := xv.(*svFun); !ok {
				panic(notLowered(e, "a match on a record that holds functions"))
			}
		} else {
			xv = nil
		}
		out := &syntax.Match{Loc: e.Loc, X: x}
		for _, cs := range e.Cases {
			p, inner := d.bindPat(env, cs.Pat, xv)
			out.Cases = append(out.Cases, &syntax.Case{Loc: cs.Loc, Pat: p, Body: d.dyn(inner, cs.Body, "a case's result")})
		}
		return out, nil
	}
	panic(notLowered(e, "defunctionalisation does not know the expression %T", e))
}

// record builds a tuple (names nil) or a record literal.
func (d *defunctionaliser) record(env *denv, at syntax.Expr, names []string, vals []syntax.Expr) (syntax.Expr, sv) {
	xs := make([]syntax.Expr, len(vals))
	vs := make([]sv, len(vals))
	fun := false
	for i, v := range vals {
		xs[i], vs[i] = d.expr(env, v)
		fun = fun || isFun(vs[i])
	}
	var out syntax.Expr
	if names == nil {
		out = &syntax.TupleLit{Loc: syntax.Loc{Span: syntax.SpanOf(at)}, Elems: xs}
	} else {
		r := &syntax.RecordLit{Loc: syntax.Loc{Span: syntax.SpanOf(at)}}
		for i, n := range names {
			r.Fields = append(r.Fields, &syntax.RecordField{Loc: r.Loc, Name: n, Value: xs[i]})
		}
		out = r
	}
	if !fun {
		return out, nil
	}
	rec := &svRec{tuple: names == nil}
	type nf struct {
		n string
		v sv
	}
	var fs []nf
	for i, v := range vs {
		n := strconv.Itoa(i)
		if names != nil {
			n = names[i]
		}
		fs = append(fs, nf{n, v})
	}
	if names != nil {
		sort.Slice(fs, func(i, j int) bool { return fs[i].n < fs[j].n })
	}
	for _, f := range fs {
		rec.names = append(rec.names, f.n)
		rec.fields = append(rec.fields, f.v)
	}
	return out, rec
}

// binary defunctionalises an infix application: of a built-in operator
// (first order, or a pipe), or of a function written infix.
func (d *defunctionaliser) binary(env *denv, e *syntax.Binary) (syntax.Expr, sv) {
	obj, ok := d.src.Info.Use(e)
	if !ok {
		panic(notLowered(e, "the operator %s has no resolution", e.Op))
	}
	if obj.Kind == types.ObjOp {
		switch obj.Name {
		case "|>", "<|":
			x, f := e.L, e.R
			if obj.Name == "<|" {
				x, f = e.R, e.L
			}
			fx, fv := d.expr(env, f)
			xx, xv := d.expr(env, x)
			fn, ok := fv.(*svFun)
			if !ok {
				panic(notLowered(e, "a pipe into a value that is not a function"))
			}
			return d.apply(env, e, fx, fn, []arg{{xx, xv}})
		}
		l := d.dyn(env, e.L, "an operand")
		r := d.dyn(env, e.R, "an operand")
		out := &syntax.Binary{Loc: e.Loc, OpSpan: e.OpSpan, Op: syntax.QualName{Name: obj.Name}, L: l, R: r}
		d.dst.uses[out] = obj
		return out, nil
	}
	f, fv := d.object(env, e, obj, nil, 2)
	l, lv := d.expr(env, e.L)
	r, rv := d.expr(env, e.R)
	fn, ok := fv.(*svFun)
	if !ok {
		panic(notLowered(e, "an infix application of a value that is not a function"))
	}
	return d.apply(env, e, f, fn, []arg{{l, lv}, {r, rv}})
}

// use is the function value that a section's operator denotes.
func (d *defunctionaliser) use(env *denv, e syntax.Node) (syntax.Expr, *svFun) {
	obj, ok := d.src.Info.Use(e)
	if !ok {
		panic(notLowered(e, "the operator has no resolution"))
	}
	x, v := d.object(env, e, obj, nil, 0)
	f, ok := v.(*svFun)
	if !ok {
		panic(notLowered(e, "a section of a value that is not a function"))
	}
	return x, f
}

// variable defunctionalises a use of a name, applied to nargs arguments.
func (d *defunctionaliser) variable(env *denv, e *syntax.Var, nargs int) (syntax.Expr, sv) {
	obj, ok := d.src.Info.Use(e)
	if !ok {
		return d.cp.expr(e), nil
	}
	return d.object(env, e, obj, e, nargs)
}

// object is the value of what a name denotes: a local's value, a
// definition's (a function, a constant), an operator's or an intrinsic's.
// nargs is the number of arguments the use applies it to at once.
func (d *defunctionaliser) object(env *denv, at syntax.Node, obj *types.Object, v *syntax.Var, nargs int) (syntax.Expr, sv) {
	var t types.Type
	if x, ok := at.(syntax.Expr); ok {
		t, _ = d.src.Info.TypeOf(x)
	}
	switch obj.Kind {
	case types.ObjLocal:
		val, ok := env.lookup(obj.Name)
		if !ok {
			// bound where the stage does not track it (a size the checker
			// named): a first-order local
			return d.local(at, obj.Name, t), nil
		}
		if hollow(val) {
			return d.emptyRecord(at), val
		}
		x := d.local(at, obj.Name, rtype(val))
		if v != nil {
			if sa := d.src.Info.SizeArgs(v); sa != nil {
				d.dst.sizeArgs[x.(*syntax.Var)] = sa
			}
		}
		if isFun(val) {
			return x, val
		}
		return x, nil
	case types.ObjOp:
		return d.emptyRecord(at), &svFun{kind: fPrim, prim: ref{obj: obj, name: syntax.QualName{Name: obj.Name}, op: true}, t: t, arity: 2}
	case types.ObjIntrinsic:
		f := &svFun{kind: fPrim, prim: ref{obj: obj, name: syntax.QualName{Quals: []string{"intrinsics"}, Name: obj.Name}}, t: t, arity: arrows(t)}
		if f.arity == 0 {
			return d.primValue(at, f, v), nil
		}
		return d.emptyRecord(at), f
	case types.ObjDecl:
		fb := obj.Fun
		if len(fb.Params) == 0 {
			sch, _ := d.src.Info.Scheme(fb)
			var ct types.Type
			if sch != nil {
				ct = sch.Type
			}
			// A constant whose type holds a function is a copy too, whose
			// value is the data it holds (a closure's environment, the
			// fields that are not functions): it is computed once, as
			// the reference path computes the constant once at load.
			sp := d.specialise(&svFun{kind: fDef, def: fb, body: fb.Body, t: ct}, nil, at)
			if ct != nil && isFunctional(ct) && hollow(sp.res) {
				// a function with nothing in its environment: no data
				d.drop(sp.out)
				return d.emptyRecord(at), sp.res
			}
			x := &syntax.Var{Loc: syntax.Loc{Span: syntax.SpanOf(at)}, Name: syntax.QualName{Name: fb.Name}}
			d.dst.uses[x] = sp.obj
			*d.cp.names = append(*d.cp.names, named{x, sp.out})
			return x, sp.res
		}
		sch, _ := d.src.Info.Scheme(fb)
		var ft types.Type
		if sch != nil {
			ft = sch.Type
		}
		f := &svFun{kind: fDef, def: fb, params: fb.Params, body: fb.Body, t: ft, arity: len(fb.Params)}
		var sa map[string]syntax.Expr
		if v != nil {
			sa = d.src.Info.SizeArgs(v)
		}
		if len(sa) == 0 {
			return d.emptyRecord(at), f
		}
		if nargs >= f.arity {
			// called here: the size arguments name what is in scope here
			f.sizeArgs = sa
			return d.emptyRecord(at), f
		}
		// A function with size arguments used as a value: its sizes are
		// computed here and travel in its environment record, bound by
		// name where the copy of its definition runs.
		r := &syntax.RecordLit{Loc: syntax.Loc{Span: syntax.SpanOf(at)}}
		names := make([]string, 0, len(sa))
		for n := range sa {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			x := d.sizeValue(env, at, sa[n])
			if x == nil {
				continue
			}
			f.env = append(f.env, field{n, svDyn{i64}})
			r.Fields = append(r.Fields, &syntax.RecordField{Loc: r.Loc, Name: n, Value: x})
		}
		d.dst.types[r] = envType(f.env)
		return r, f
	}
	panic(notLowered(at, "%s resolves to a %s, which defunctionalisation does not take", obj.Name, obj.Kind))
}

// primValue is an intrinsic that takes no argument, used as a value.
func (d *defunctionaliser) primValue(at syntax.Node, f *svFun, v *syntax.Var) syntax.Expr {
	x := &syntax.Var{Loc: syntax.Loc{Span: syntax.SpanOf(at)}, Name: f.prim.name}
	d.dst.uses[x] = f.prim.obj
	if v != nil {
		d.dst.targs[x] = d.src.Info.TypeArgs(v)
	}
	return x
}

// arrows counts the parameters of a function type.
func arrows(t types.Type) int {
	n := 0
	for {
		a, ok := types.Resolve(t).(*types.Arrow)
		if !ok {
			return n
		}
		n++
		t = a.To
	}
}

func isFunctional(t types.Type) bool {
	switch t := types.Resolve(t).(type) {
	case *types.Arrow:
		return true
	case *types.Record:
		for _, f := range t.Fields {
			if isFunctional(f.Type) {
				return true
			}
		}
	}
	return false
}

func (d *defunctionaliser) emptyRecord(at syntax.Node) syntax.Expr {
	r := &syntax.RecordLit{Loc: syntax.Loc{Span: syntax.SpanOf(at)}}
	d.dst.types[r] = &types.Record{}
	return r
}

// envRecord is the record of the captured variables' values.
func (d *defunctionaliser) envRecord(at syntax.Node, fs []field) syntax.Expr {
	r := &syntax.RecordLit{Loc: syntax.Loc{Span: syntax.SpanOf(at)}}
	for _, f := range runtime(fs) {
		r.Fields = append(r.Fields, &syntax.RecordField{Loc: r.Loc, Name: f.name, Value: d.local(at, f.name, rtype(f.sv))})
	}
	d.dst.types[r] = envType(fs)
	return r
}

func (d *defunctionaliser) dims(env *denv, ds []*syntax.DimIndex) []*syntax.DimIndex {
	if ds == nil {
		return nil
	}
	out := make([]*syntax.DimIndex, len(ds))
	for i, x := range ds {
		if x == nil {
			continue
		}
		out[i] = &syntax.DimIndex{Loc: x.Loc, Fix: d.dyn(env, x.Fix, "an index"), Start: d.dyn(env, x.Start, "an index"),
			End: d.dyn(env, x.End, "an index"), Stride: d.dyn(env, x.Stride, "an index"),
			IsSlice: x.IsSlice, HasStride: x.HasStride, HasColon: x.HasColon}
	}
	return out
}

func (d *defunctionaliser) path(env *denv, ps []syntax.PathElem) []syntax.PathElem {
	if ps == nil {
		return nil
	}
	out := make([]syntax.PathElem, len(ps))
	for i, p := range ps {
		out[i] = syntax.PathElem{Indices: d.dims(env, p.Indices), Field: p.Field, Span: p.Span}
	}
	return out
}

func (d *defunctionaliser) loop(env *denv, e *syntax.Loop) syntax.Expr {
	init := d.dyn(env, e.Init, "a loop's initial value")
	out := &syntax.Loop{Loc: e.Loc, Init: init}
	inner := env
	for _, sb := range e.Sizes {
		out.Sizes = append(out.Sizes, &syntax.SizeBinder{Loc: sb.Loc, Name: sb.Name})
		inner = inner.bind(sb.Name, svDyn{i64})
	}
	out.Pat, inner = d.bindPat(inner, e.Pat, nil)
	switch f := e.Form.(type) {
	case *syntax.For:
		bound := d.dyn(env, f.Bound, "a loop bound")
		out.Form = &syntax.For{Loc: f.Loc, I: &syntax.Ident{Loc: f.I.Loc, Name: f.I.Name}, Bound: bound}
		t, _ := d.src.Info.TypeOf(f.Bound)
		inner = inner.bind(f.I.Name, svDyn{t})
	case *syntax.ForIn:
		arr := d.dyn(env, f.Arr, "a loop's array")
		var p syntax.Pat
		p, inner = d.bindPat(inner, f.Pat, nil)
		out.Form = &syntax.ForIn{Loc: f.Loc, Pat: p, Arr: arr}
	case *syntax.While:
		out.Form = &syntax.While{Loc: f.Loc, Cond: d.dyn(inner, f.Cond, "a loop condition")}
	}
	out.Body = d.dyn(inner, e.Body, "a loop's body")
	return out
}

// sizeValue is a size argument as an expression of the stage's program:
// constants, names in scope and their arithmetic (anything else the
// function's own parameters bind: nil).
func (d *defunctionaliser) sizeValue(env *denv, at syntax.Node, x syntax.Expr) syntax.Expr {
	loc := syntax.Loc{Span: syntax.SpanOf(at)}
	switch x := x.(type) {
	case *syntax.IntLit:
		out := &syntax.IntLit{Loc: loc, Text: x.Text, Value: x.Value, Suffix: "i64"}
		d.dst.types[out] = i64
		return out
	case *syntax.Paren:
		return d.sizeValue(env, at, x.X)
	case *syntax.Var:
		if len(x.Name.Quals) > 0 {
			return nil
		}
		if _, ok := env.lookup(x.Name.Name); !ok {
			return nil // a size the checker named that nothing binds here
		}
		return d.local(at, x.Name.Name, i64)
	case *syntax.Binary:
		switch x.Op.Name {
		case "+", "-", "*", "/", "%", "//", "%%":
		default:
			return nil
		}
		l, r := d.sizeValue(env, at, x.L), d.sizeValue(env, at, x.R)
		if l == nil || r == nil || len(x.Op.Quals) > 0 {
			return nil
		}
		out := &syntax.Binary{Loc: loc, OpSpan: loc.Span, Op: syntax.QualName{Name: x.Op.Name}, L: l, R: r}
		d.dst.uses[out] = &types.Object{Kind: types.ObjOp, Name: x.Op.Name}
		d.dst.types[out] = i64
		return &syntax.Paren{Loc: loc, X: out}
	}
	return nil
}

// recordWith is r with field f replaced (a record that holds functions:
// the field's static value changes, so the record is built anew).
func (d *defunctionaliser) recordWith(env *denv, e *syntax.Update, x syntax.Expr, r *svRec, f string) (syntax.Expr, sv) {
	val, vv := d.expr(env, e.Value)
	loc := e.Loc
	name := d.fresh("r")
	out := &svRec{tuple: r.tuple, names: r.names}
	lit := &syntax.RecordLit{Loc: loc}
	for i, n := range r.names {
		fv := r.fields[i]
		var fx syntax.Expr
		if n == f {
			fv, fx = vv, val
		} else {
			p := &syntax.Project{Loc: loc, X: d.local(e, name, rtype(r)), Field: n}
			d.dst.types[p] = rtype(fv)
			fx = p
		}
		out.fields = append(out.fields, fv)
		lit.Fields = append(lit.Fields, &syntax.RecordField{Loc: loc, Name: n, Value: fx})
	}
	d.dst.types[lit] = rtype(out)
	pid := &syntax.PId{Loc: loc, Name: name}
	d.dst.pats[pid] = rtype(r)
	let := &syntax.LetIn{Loc: loc, Pat: pid, Value: x, Body: lit}
	d.dst.types[let] = rtype(out)
	return let, out
}
