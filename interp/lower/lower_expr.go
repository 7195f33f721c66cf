package lower

import (
	"fut/interp/ir"
	"math/big"

	"fut/eval/value"
	"fut/interp/syntax"
	"fut/interp/types"
)

const maxInlineDepth = 200

// expr lowers e, emitting statements into b. hint is the primitive type an
// overloaded literal should take when the checker left it open.
func (l *lowerer) expr(b *builder, env *lenv, e syntax.Expr, hint ir.Prim) lv {
	saved := l.site
	l.site = e
	defer func() { l.site = saved }()
	switch e := e.(type) {
	case *syntax.IntLit:
		return &lvAtom{ir.C(l.intLit(e, e.Value, hint)), ir.Scalar(l.litType(e, hint, value.I32))}
	case *syntax.CharLit:
		return &lvAtom{ir.C(l.intLit(e, big.NewInt(int64(e.Value)), hint)), ir.Scalar(l.litType(e, hint, value.I32))}
	case *syntax.FloatLit:
		t := l.litType(e, hint, value.F64)
		return &lvAtom{ir.C(value.MkFloat(t, e.Value)), ir.Scalar(t)}
	case *syntax.BoolLit:
		return &lvAtom{ir.C(value.MkBool(e.Value)), ir.Scalar(value.Bool)}
	case *syntax.Var:
		return l.variable(b, env, e)
	case *syntax.Paren:
		return l.expr(b, env, e.X, hint)
	case *syntax.Ascript:
		return l.expr(b, env, e.X, hint)
	case *syntax.Coerce:
		return l.coerce(b, env, e, hint)
	case *syntax.Attr:
		return l.expr(b, env, e.X, hint)
	case *syntax.TupleLit:
		t := &lvTuple{}
		for _, x := range e.Elems {
			t.elems = append(t.elems, l.expr(b, env, x, value.NoPrim))
		}
		return t
	case *syntax.RecordLit:
		var names []string
		var elems []lv
		for _, f := range e.Fields {
			names = append(names, f.Name)
			elems = append(elems, l.expr(b, env, f.Value, value.NoPrim))
		}
		names, elems = sortRecord(names, elems)
		return &lvTuple{names: names, elems: elems}
	case *syntax.ArrayLit:
		return l.arrayLit(b, env, e, hint)
	case *syntax.Project:
		return l.project(e, l.expr(b, env, e.X, value.NoPrim), e.Field)
	case *syntax.Negate:
		if lit, ok := l.negLit(e, hint); ok {
			return lit
		}
		x := l.scalar(b, env, e.X, hint)
		return b.let1("neg", &ir.UnOpE{Op: "neg", Args: []ir.Atom{x.a}}, x.t)
	case *syntax.Not:
		x := l.scalar(b, env, e.X, hint)
		return b.let1("not", &ir.UnOpE{Op: "not", Args: []ir.Atom{x.a}}, x.t)
	case *syntax.Binary:
		return l.binary(b, env, e, hint)
	case *syntax.Apply:
		f := l.expr(b, env, e.Fn, value.NoPrim)
		args := make([]lv, len(e.Args))
		for i, a := range e.Args {
			args[i] = l.expr(b, env, a, value.NoPrim)
		}
		return l.apply(b, f, args, e)
	case *syntax.Lambda:
		return &lvClosure{params: e.Params, body: e.Body, env: env}
	case *syntax.OpSection:
		return l.use(b, env, e)
	case *syntax.LeftSection:
		f := l.use(b, env, e)
		x := l.expr(b, env, e.L, value.NoPrim)
		return l.partial(f, x, 0)
	case *syntax.RightSection:
		f := l.use(b, env, e)
		y := l.expr(b, env, e.R, value.NoPrim)
		return l.partial(f, y, 1)
	case *syntax.ProjectSection:
		return &lvBuiltin{name: "project:" + joinFields(e.Fields)}
	case *syntax.LetIn:
		v := l.expr(b, env, e.Value, value.NoPrim)
		if len(e.Sizes) > 0 {
			// let [n] (xs: [n]t) = …: the binders take the value's sizes
			saved := l.sizeScope
			l.sizeScope = map[string]bool{}
			for _, sb := range e.Sizes {
				l.sizeScope[sb.Name] = true
			}
			inner := l.bindPat(env, e.Pat, v)
			l.sizeScope = saved
			for _, sb := range e.Sizes {
				if _, ok := inner.lookupHere(env, sb.Name); !ok {
					l.fail(e, "the size binder %s is not a size of the bound value's type", sb.Name)
				}
			}
			return l.expr(b, inner, e.Body, hint)
		}
		return l.expr(b, l.bindPat(env, e.Pat, v), e.Body, hint)
	case *syntax.LetFun:
		fb := e.Fun
		var c lv = &lvClosure{name: fb.Name, params: fb.Params, body: fb.Body, env: env, sizes: sizeParams(fb)}
		if len(fb.Params) == 0 {
			c = l.expr(b, env, fb.Body, value.NoPrim)
		}
		return l.expr(b, env.bind(fb.Name, c), e.Body, hint)
	case *syntax.Range:
		return l.rangeExpr(b, env, e, hint)
	case *syntax.If:
		return l.ifExpr(b, env, e, hint)
	case *syntax.Loop:
		return l.loop(b, env, e)
	case *syntax.Index:
		return l.index(b, env, e)
	case *syntax.LetWith:
		dest := l.local(env, e.Dest.Name.Name, e.Dest)
		v := l.update(b, env, dest, e.Path, e.Value, e)
		return l.expr(b, env.bind(e.Dest.Name.Name, v), e.Body, hint)
	case *syntax.Assert:
		c := l.scalar(b, env, e.Cond, value.Bool)
		cond := e.Cond
		for p, ok := cond.(*syntax.Paren); ok; p, ok = cond.(*syntax.Paren) {
			cond = p.X
		}
		l.check(b, c.a, "Assertion is false: "+l.sourceText(cond), e)
		return l.expr(b, env, e.X, hint)
	case *syntax.QualParen:
		// M.(e): the checker resolved e's names with M open.
		return l.expr(b, env, e.X, hint)
	case *syntax.Match:
		return l.match(b, env, e, hint)
	case *syntax.StringLit:
		// a string is its bytes, an array of u8 (the reference path's)
		bs := []byte(e.Value)
		if len(bs) == 0 {
			return b.let1("str", &ir.ReplicateE{N: ir.I64(0), X: ir.C(value.MkUint(value.U8, 0))}, ir.Type{Elem: value.U8, Shape: []ir.Atom{ir.I64(0)}})
		}
		elems := make([]ir.Atom, len(bs))
		for i, c := range bs {
			elems[i] = ir.C(value.MkUint(value.U8, uint64(c)))
		}
		return b.let1("str", &ir.ArrayE{Elem: ir.Scalar(value.U8), Elems: elems}, ir.Type{Elem: value.U8, Shape: []ir.Atom{ir.I64(int64(len(bs)))}})
	case *syntax.IndexSection:
		return &lvPath{path: e.Path, env: env}
	case *syntax.Hole:
		t, ok := l.info.TypeOf(e)
		if !ok {
			l.fail(e, "a hole without a type from the checker")
		}
		l.check(b, ir.C(value.MkBool(false)), "Hole encountered: ??? cannot be evaluated", e)
		return l.holeValue(b, env, t, e)
	case *syntax.Constr:
		return l.constr(b, env, e)
	case *syntax.Update:
		dest := l.expr(b, env, e.X, value.NoPrim)
		return l.update(b, env, dest, e.Path, e.Value, e)
	}
	l.fail(e, "%s is not supported by the IR yet", describe(e))
	return nil
}

func describe(e syntax.Expr) string {
	switch e.(type) {
	case *syntax.Match:
		return "match"
	case *syntax.Constr:
		return "a sum-type constructor"
	case *syntax.StringLit:
		return "a string literal"
	case *syntax.Assert:
		return "assert"
	case *syntax.Hole:
		return "a hole"
	case *syntax.QualParen:
		return "M.(e)"
	case *syntax.IndexSection:
		return "an index section"
	}
	return "this expression"
}

func joinFields(fs []string) string {
	s := ""
	for i, f := range fs {
		if i > 0 {
			s += "."
		}
		s += f
	}
	return s
}

func (l *lowerer) litType(e syntax.Expr, hint, def ir.Prim) ir.Prim {
	if l.info != nil {
		if p, ok := l.info.LitType(e); ok {
			if t := value.ParsePrimType(string(p)); t != value.NoPrim {
				return t
			}
		}
	}
	switch x := e.(type) {
	case *syntax.IntLit:
		if x.Suffix != "" {
			return value.ParsePrimType(string(x.Suffix))
		}
	case *syntax.FloatLit:
		if x.Suffix != "" {
			return value.ParsePrimType(string(x.Suffix))
		}
	}
	if hint != value.NoPrim {
		return hint
	}
	return def
}

func (l *lowerer) intLit(e syntax.Expr, v *big.Int, hint ir.Prim) value.Prim {
	t := l.litType(e, hint, value.I32)
	if t.IsFloat() {
		f, _ := new(big.Float).SetInt(v).Float64()
		return value.MkFloat(t, f)
	}
	if t.IsUnsigned() {
		return value.MkUint(t, v.Uint64())
	}
	return value.MkInt(t, v.Int64())
}

// negLit folds -literal into a constant.
func (l *lowerer) negLit(e *syntax.Negate, hint ir.Prim) (lv, bool) {
	x := e.X
	for {
		p, ok := x.(*syntax.Paren)
		if !ok {
			break
		}
		x = p.X
	}
	switch lit := x.(type) {
	case *syntax.IntLit:
		t := l.litType(e, value.NoPrim, l.litType(lit, hint, value.I32))
		var p value.Prim
		if t.IsFloat() {
			f, _ := new(big.Float).SetInt(lit.Value).Float64()
			p = value.MkFloat(t, -f)
		} else {
			p = value.MkInt(t, -lit.Value.Int64())
		}
		return &lvAtom{ir.C(p), ir.Scalar(t)}, true
	case *syntax.FloatLit:
		t := l.litType(e, value.NoPrim, l.litType(lit, hint, value.F64))
		return &lvAtom{ir.C(value.MkFloat(t, -lit.Value)), ir.Scalar(t)}, true
	}
	return nil, false
}

// scalar lowers e, which must give one scalar or array.
func (l *lowerer) scalar(b *builder, env *lenv, e syntax.Expr, hint ir.Prim) *lvAtom {
	v := l.expr(b, env, e, hint)
	a, ok := v.(*lvAtom)
	if !ok {
		l.fail(e, "expected a scalar or an array of scalars here")
	}
	return a
}

func (l *lowerer) projectPath(at syntax.Node, v lv, fields []string) lv {
	for _, f := range fields {
		v = l.project(at, v, f)
	}
	return v
}

func (l *lowerer) project(at syntax.Node, v lv, field string) lv {
	t, ok := v.(*lvTuple)
	if !ok {
		l.fail(at, "field %s of a value that is not a record", field)
	}
	x, ok := t.field(field)
	if !ok {
		l.fail(at, "no field %s", field)
	}
	return x
}

// partial fixes argument k (0 or 1) of a two-argument function.
func (l *lowerer) partial(f lv, x lv, k int) lv {
	if k == 0 {
		return &lvBuiltin{name: "apply-left", args: []lv{f, x}}
	}
	return &lvBuiltin{name: "apply-right", args: []lv{f, x}}
}

func binOpName(op string) (string, bool) {
	if _, ok := value.LookupBinOp(op); ok {
		return op, true
	}
	return "", false
}

func (l *lowerer) binary(b *builder, env *lenv, e *syntax.Binary, hint ir.Prim) lv {
	obj, ok := l.info.Use(e)
	if !ok {
		l.fail(e, "the operator %s has no resolution from the checker", e.Op)
	}
	if obj.Kind != types.ObjOp {
		// A function: the user's operator, a module's, a parameter.
		f := l.object(b, env, obj, e, nil)
		x := l.expr(b, env, e.L, value.NoPrim)
		y := l.expr(b, env, e.R, value.NoPrim)
		return l.apply(b, f, []lv{x, y}, e)
	}
	switch obj.Name {
	case "|>":
		x := l.expr(b, env, e.L, value.NoPrim)
		return l.apply(b, l.expr(b, env, e.R, value.NoPrim), []lv{x}, e)
	case "<|":
		f := l.expr(b, env, e.L, value.NoPrim)
		return l.apply(b, f, []lv{l.expr(b, env, e.R, value.NoPrim)}, e)
	}
	if obj.Name == "&&" || obj.Name == "||" {
		return l.shortCircuit(b, env, e)
	}
	if obj.Name == "==" || obj.Name == "!=" {
		if t, ok := l.info.TypeOf(e.L); ok {
			switch types.Resolve(t).(type) {
			case *types.Record, *types.Sum:
				x := l.expr(b, env, e.L, value.NoPrim)
				y := l.expr(b, env, e.R, value.NoPrim)
				r := &lvAtom{l.structEq(b, x, y, e), ir.Scalar(value.Bool)}
				if obj.Name == "!=" {
					return b.let1("neq", &ir.UnOpE{Op: "not", Args: []ir.Atom{r.a}}, r.t)
				}
				return r
			}
		}
	}
	// Lower a literal operand after the other, so that it can take the
	// other's type when the checker left it open.
	opHint := hint
	if bop, _ := value.LookupBinOp(obj.Name); bop.IsComparison() {
		opHint = value.NoPrim
	}
	var x, y *lvAtom
	if isLiteral(e.L) && !isLiteral(e.R) {
		y = l.scalar(b, env, e.R, opHint)
		x = l.scalar(b, env, e.L, y.t.Elem)
	} else {
		x = l.scalar(b, env, e.L, opHint)
		y = l.scalar(b, env, e.R, x.t.Elem)
	}
	if x.t.Rank() != 0 || y.t.Rank() != 0 {
		return l.arrayCompare(b, obj.Name, x, y, e)
	}
	return l.binop(b, obj.Name, x, y, e)
}

func (l *lowerer) binop(b *builder, op string, x, y *lvAtom, at syntax.Node) *lvAtom {
	if x.t.Rank() != 0 || y.t.Rank() != 0 {
		l.fail(at, "the operator %s on arrays", op)
	}
	if x.t.Elem != y.t.Elem {
		l.fail(at, "the operator %s on %s and %s", op, x.t, y.t)
	}
	return b.let1(opBase(op), &ir.BinOpE{Op: op, X: x.a, Y: y.a}, ir.BinOpResult(op, x.t.Elem))
}

func opBase(op string) string {
	names := map[string]string{"+": "sum", "-": "dif", "*": "prod", "/": "quot", "<": "lt", ">": "gt",
		"==": "eq", "!=": "neq", "<=": "le", ">=": "ge", "**": "pow", "%": "mod"}
	if n, ok := names[op]; ok {
		return n
	}
	return "op"
}

func isLiteral(e syntax.Expr) bool {
	switch x := e.(type) {
	case *syntax.IntLit, *syntax.FloatLit, *syntax.CharLit:
		return true
	case *syntax.Paren:
		return isLiteral(x.X)
	case *syntax.Negate:
		return isLiteral(x.X)
	}
	return false
}

// shortCircuit lowers a && b and a || b: the right operand runs only when
// needed, as in the source.
func (l *lowerer) shortCircuit(b *builder, env *lenv, e *syntax.Binary) lv {
	x := l.scalar(b, env, e.L, value.Bool)
	rb := &builder{l: l}
	y := l.scalar(rb, env, e.R, value.Bool)
	if len(rb.stms) == 0 {
		return l.binop(b, e.Op.Name, x, y, e)
	}
	short := &ir.Body{Res: []ir.Atom{ir.C(value.MkBool(e.Op.Name == "||"))}}
	long := &ir.Body{Stms: rb.stms, Res: []ir.Atom{y.a}}
	ie := &ir.IfE{Cond: x.a, Then: long, Else: short, Ret: []ir.Type{ir.Scalar(value.Bool)}}
	if e.Op.Name == "||" {
		ie.Then, ie.Else = short, long
	}
	return b.let1("cond", ie, ir.Scalar(value.Bool))
}

func (l *lowerer) arrayLit(b *builder, env *lenv, e *syntax.ArrayLit, hint ir.Prim) lv {
	if len(e.Elems) == 0 {
		return l.emptyArray(b, env, e)
	}
	elems := make([]lv, len(e.Elems))
	for i, x := range e.Elems {
		elems[i] = l.expr(b, env, x, hint)
		if a, ok := elems[i].(*lvAtom); ok && hint == value.NoPrim {
			hint = a.t.Elem
		}
	}
	var cols [][]ir.Atom
	var ts []ir.Type
	for i, v := range elems {
		as, vts := l.flatten(v, e)
		if i == 0 {
			cols = make([][]ir.Atom, len(as))
			ts = vts
		}
		if len(as) != len(cols) {
			l.fail(e, "array elements of different shapes")
		}
		for k, a := range as {
			if !vts[k].Equal(ts[k]) {
				l.fail(e, "array elements of different types or sizes")
			}
			cols[k] = append(cols[k], a)
		}
	}
	atoms := make([]ir.Atom, len(cols))
	types := make([]ir.Type, len(cols))
	for k, col := range cols {
		t := ts[k].ArrayOf(ir.I64(int64(len(col))))
		atoms[k] = b.let("arr", &ir.ArrayE{Elem: ts[k], Elems: col}, t)[0]
		types[k] = t
	}
	return rebuild(elems[0], atoms, types, 1)
}

// bindPat binds a pattern to a value, binding the sizes its type
// annotations name (def f [n] (xs: [n]t) binds n to xs's length).
func (l *lowerer) bindPat(env *lenv, p syntax.Pat, v lv) *lenv {
	switch p := p.(type) {
	case *syntax.PId:
		return env.bind(p.Name, v)
	case *syntax.PWild, *syntax.PLit:
		return env
	case *syntax.PConstr:
		return l.bindConstr(env, p, v)
	case *syntax.PParen:
		return l.bindPat(env, p.P, v)
	case *syntax.PAttr:
		return l.bindPat(env, p.P, v)
	case *syntax.PAscript:
		env = l.bindSizes(env, p.Type, v)
		if t, ok := l.info.PatType(p); ok {
			// sizes named through type abbreviations and records
			env = l.bindTypeSizes(env, t, v)
		}
		return l.bindPat(env, p.P, v)
	case *syntax.PTuple:
		t, ok := v.(*lvTuple)
		if !ok || t.rank != 0 || len(t.elems) != len(p.Elems) || t.names != nil && !isTupleNames(t.names) {
			l.fail(p, "a tuple pattern on a value that is not such a tuple")
		}
		for i, q := range p.Elems {
			env = l.bindPat(env, q, t.elems[i])
		}
		return env
	case *syntax.PRecord:
		t, ok := v.(*lvTuple)
		if !ok || t.rank != 0 {
			l.fail(p, "a record pattern on a value that is not a record")
		}
		for _, f := range p.Fields {
			x, ok := t.field(f.Name)
			if !ok {
				l.fail(f, "no field %s", f.Name)
			}
			env = l.bindPat(env, f.Pat, x)
		}
		return env
	}
	l.fail(p, "this pattern (literals and constructors are not lowered yet)")
	return nil
}

func isTupleNames(ns []string) bool { return value.IsTupleRecord(ns) }

// bindSizes binds the size names of an array type annotation to the
// dimensions of v.
func (l *lowerer) bindSizes(env *lenv, te syntax.TypeExp, v lv) *lenv {
	dims := leafShape(v)
	for i := 0; te != nil; i++ {
		switch t := te.(type) {
		case *syntax.TEParen:
			te = t.T
			i--
			continue
		case *syntax.TEUnique:
			te = t.T
			i--
			continue
		case *syntax.TEArray:
			if x, ok := t.Dim.(*syntax.Var); ok && len(x.Name.Quals) == 0 && i < len(dims) {
				// The function's own size parameters are bound from the
				// arguments' shapes; a name bound outside is not rebound.
				if _, bound := env.lookup(x.Name.Name); !bound || l.sizeScope[x.Name.Name] {
					env = env.bind(x.Name.Name, &lvAtom{dims[i], ir.Scalar(value.I64)})
				}
			}
			te = t.Elem
			continue
		case *syntax.TETuple:
			if tup, ok := v.(*lvTuple); ok && tup.sum == nil && tup.rank == i && len(tup.elems) == len(t.Elems) && i == 0 {
				for k, et := range t.Elems {
					env = l.bindSizes(env, et, tup.elems[k])
				}
			}
		case *syntax.TERecord:
			if tup, ok := v.(*lvTuple); ok && tup.sum == nil && tup.rank == 0 && i == 0 {
				for _, f := range t.Fields {
					if x, ok := tup.field(f.Name); ok {
						env = l.bindSizes(env, f.Type, x)
					}
				}
			}
		}
		break
	}
	return env
}

// leafShape is the outer shape that a value's array dimensions share.
func leafShape(v lv) []ir.Atom {
	switch v := v.(type) {
	case *lvAtom:
		return v.t.Shape
	case *lvTuple:
		if v.rank == 0 || len(v.elems) == 0 {
			return nil
		}
		return leafShape(v.elems[0])[:v.rank]
	}
	return nil
}
