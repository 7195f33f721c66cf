package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Records and tuples in kernels. A value made of scalars (a record such
// as {x: f32, y: f32, z: f32}, a tuple, nested ones) lives in registers:
// a kval says which register holds each scalar. Fields are read at
// compile time, records and tuples are built by writing registers, and a
// function that takes or returns records is inlined with its parameters
// naming the caller's registers, so that code written with a record type
// and small helpers (vadd, dot) runs as a kernel without boxing. The
// charges are the walker's: building a record or projecting a field is
// free, and calls, lets and operators charge as in kernel.go.

// kval is where a value of scalars lives: a scalar's register, or the
// fields of a record (names sorted as value.Record's) or tuple.
type kval struct {
	reg    int // a scalar's register; -1 for a record or tuple
	typ    value.PrimType
	rec    bool
	names  []string
	fields []*kval
}

func (v *kval) scalar() bool { return v.fields == nil }

// leaves appends the registers of v's scalars, in order.
func (v *kval) leaves(out []int) []int {
	if v.scalar() {
		return append(out, v.reg)
	}
	for _, f := range v.fields {
		out = f.leaves(out)
	}
	return out
}

func (v *kval) field(name string) (*kval, bool) {
	if v.scalar() {
		return nil, false
	}
	if v.rec {
		for i, n := range v.names {
			if n == name {
				return v.fields[i], true
			}
		}
		return nil, false
	}
	if k, ok := tupleIndex(name); ok && k < len(v.fields) {
		return v.fields[k], true
	}
	return nil, false
}

// sameShape reports whether v and w have the same fields.
func (v *kval) sameShape(w *kval) bool {
	if v.scalar() || w.scalar() {
		return v.scalar() && w.scalar()
	}
	if v.rec != w.rec || len(v.fields) != len(w.fields) {
		return false
	}
	for i := range v.fields {
		if v.rec && v.names[i] != w.names[i] || !v.fields[i].sameShape(w.fields[i]) {
			return false
		}
	}
	return true
}

// instantiate is a copy of the layout v with fresh registers.
func (kc *kcomp) instantiate(v *kval) *kval {
	if v.scalar() {
		return &kval{reg: kc.reg(), typ: v.typ}
	}
	out := &kval{reg: -1, rec: v.rec, names: v.names, fields: make([]*kval, len(v.fields))}
	for i, f := range v.fields {
		out.fields[i] = kc.instantiate(f)
	}
	return out
}

// recordLayout is the layout of the elements of a 1-d array of records
// or tuples of scalars (nested ones too), and its scalar columns in the
// layout's order; nil when xs is not such an array.
func recordLayout(xs *value.Array) (*kval, []*value.Array) {
	if len(xs.Shape) != 1 {
		return nil, nil
	}
	var cols []*value.Array
	var walk func(a *value.Array) *kval
	walk = func(a *value.Array) *kval {
		switch a.Kind {
		case value.KPrim:
			if len(a.Shape) != 1 {
				return nil
			}
			cols = append(cols, a)
			return &kval{reg: -1, typ: a.T}
		case value.KTuple, value.KRecord:
			v := &kval{reg: -1, rec: a.Kind == value.KRecord, names: a.Names, fields: make([]*kval, len(a.Fields))}
			for i, f := range a.Fields {
				if v.fields[i] = walk(f); v.fields[i] == nil {
					return nil
				}
			}
			return v
		}
		return nil
	}
	if xs.Kind != value.KRecord && xs.Kind != value.KTuple {
		return nil, nil
	}
	v := walk(xs)
	if v == nil {
		return nil, nil
	}
	return v, cols
}

// array builds the array of layout v from its scalar columns, taken in
// order from cols.
func (v *kval) array(cols *[]*value.Array, n int64) *value.Array {
	if v.scalar() {
		a := (*cols)[0]
		*cols = (*cols)[1:]
		return a
	}
	fs := make([]*value.Array, len(v.fields))
	for i, f := range v.fields {
		fs[i] = f.array(cols, n)
	}
	kind := value.KTuple
	if v.rec {
		kind = value.KRecord
	}
	return &value.Array{Shape: []int64{n}, Kind: kind, Names: v.names, Fields: fs}
}

// value builds the value of layout v from its scalars, taken in order.
func (v *kval) value(ps *[]value.Prim) value.Value {
	if v.scalar() {
		p := (*ps)[0]
		*ps = (*ps)[1:]
		return p
	}
	fs := make([]value.Value, len(v.fields))
	for i, f := range v.fields {
		fs[i] = f.value(ps)
	}
	if v.rec {
		return &value.Record{Names: v.names, Fields: fs}
	}
	return value.Tuple(fs)
}

// constVal loads a captured value of scalars into fresh registers, laid
// out as the flat compiler lays it out (layoutOf).
func (kc *kcomp) constVal(c value.Value) (*kval, ktuple, bool) {
	l, ps, ok := layoutOf(c)
	if !ok {
		return nil, nil, false
	}
	v := kc.instantiate(l)
	regs := v.leaves(nil)
	return v, func(f []value.Prim) {
		for i, r := range regs {
			f[r] = ps[i]
		}
	}, true
}

// headPath splits a qualified name into its first part and the field
// path after it (a.b.c: a, [b c]; a: a, nil).
func headPath(q syntax.QualName) (string, []string) {
	if len(q.Quals) == 0 {
		return q.Name, nil
	}
	return q.Quals[0], append(q.Quals[1:len(q.Quals):len(q.Quals)], q.Name)
}

// localVal is the kval of a kernel's local named by q's head, or of the
// field path the rest of q names in it (ok false when that is no
// field); local is false when the head is not a local of sc.
func (sc *kscope) localVal(q syntax.QualName) (v *kval, local, ok bool) {
	head, path := headPath(q)
	for s := sc; s != nil; s = s.next {
		if s.name != head {
			continue
		}
		v := s.val
		if v == nil {
			v = &kval{reg: s.reg, typ: s.typ}
		}
		for _, p := range path {
			if v, ok = v.field(p); !ok {
				return nil, true, false
			}
		}
		return v, true, true
	}
	return nil, false, false
}

// varVal is the kval of a name or a field path of one: a local's
// registers, or a captured value loaded into registers (run non-nil).
func (kc *kcomp) varVal(x *syntax.Var, sc *kscope, e *env) (*kval, ktuple, bool) {
	if v, local, ok := sc.localVal(x.Name); local {
		return v, nil, ok
	}
	c, err := kc.t.evalVar(x, e)
	if err != nil {
		return nil, nil, false
	}
	return kc.constVal(c)
}

// value compiles any expression of scalars, records and tuples: run
// (nil when there is nothing to run) leaves its value in the registers
// of the kval.
func (kc *kcomp) value(x syntax.Expr, sc *kscope, e *env) (*kval, ktuple, bool) {
	t := kc.t
	switch x := x.(type) {
	case *syntax.Paren:
		return kc.value(x.X, sc, e)
	case *syntax.Ascript:
		return kc.value(x.X, sc, e)
	case *syntax.Var:
		return kc.varVal(x, sc, e)
	case *syntax.RecordLit, *syntax.TupleLit:
		var names []string
		var vals []syntax.Expr
		if r, ok := x.(*syntax.RecordLit); ok {
			for _, f := range r.Fields {
				names, vals = append(names, f.Name), append(vals, f.Value)
			}
		} else {
			vals = x.(*syntax.TupleLit).Elems
		}
		if len(vals) < 2 && names == nil {
			return nil, nil, false // () and (e) are not tuples of scalars
		}
		fs := make([]*kval, len(vals))
		var runs []ktuple
		for i, fx := range vals {
			v, run, ok := kc.value(fx, sc, e)
			if !ok {
				return nil, nil, false
			}
			fs[i] = v
			if run != nil {
				runs = append(runs, run)
			}
		}
		out := &kval{reg: -1, fields: fs}
		if names != nil && !(len(vals) > 1 && value.IsTupleRecord(names)) {
			idx := make([]value.Value, len(names))
			for i := range idx {
				idx[i] = value.I64Val(int64(i))
			}
			layout := value.NewRecord(names, idx)
			out = &kval{reg: -1, rec: true, names: layout.Names, fields: make([]*kval, len(fs))}
			for k, iv := range layout.Fields {
				out.fields[k] = fs[iv.(value.Prim).Int()]
			}
		}
		return out, seq(runs), true
	case *syntax.LetIn:
		if len(x.Sizes) > 0 {
			break
		}
		// a value this cannot compile (a loop over a tuple state) may
		// still compile as a scalar let (kc.scalar, below)
		v, run, ok := kc.value(x.Value, sc, e)
		if !ok {
			break
		}
		sc2, ok := bindPat(x.Pat, v, sc)
		if !ok {
			break
		}
		sc = sc2
		body, brun, ok := kc.value(x.Body, sc, e)
		if !ok {
			return nil, nil, false
		}
		return body, func(f []value.Prim) {
			base := t.live
			if run != nil {
				run(f)
			}
			f0 := t.live - base
			if brun != nil {
				brun(f)
			}
			t.live -= f0 // the bound value was live for the whole body
		}, true
	case *syntax.Apply:
		if v, run, ok := kc.applyVal(x, sc, e); ok {
			return v, run, true
		}
	case *syntax.If:
		if v, run, ok := kc.ifVal(x, sc, e); ok {
			return v, run, true
		}
	case *syntax.Loop:
		// a loop over a tuple of scalars (one scalar is kc.scalar's):
		// its value is the tuple of its final state's registers
		if _, single := simplePat(x.Pat); !single {
			regs, run, ok := kc.loop(x, sc, e)
			if !ok || len(regs) < 2 || len(kc.tys) != len(regs) {
				return nil, nil, false
			}
			out := &kval{reg: -1, fields: make([]*kval, len(regs))}
			for i, r := range regs {
				out.fields[i] = &kval{reg: r, typ: kc.tys[i]}
			}
			return out, run, true
		}
	}
	n, ok := kc.scalar(x, sc, e)
	if !ok {
		return nil, nil, false
	}
	r := kc.reg()
	return &kval{reg: r, typ: kc.ty}, func(f []value.Prim) { f[r] = n(f) }, true
}

// ifVal compiles an if whose branches are records or tuples of the same
// shape (a scalar if is kc.scalar's): the chosen branch's scalars are
// copied to registers of the if's own, and the if charges as the walker's
// (and the tuple kernel's) does, one step for the choice after the
// condition, whose space is released.
func (kc *kcomp) ifVal(x *syntax.If, sc *kscope, e *env) (*kval, ktuple, bool) {
	t := kc.t
	cost := t.cost
	c, ok := kc.scalar(x.Cond, sc, e)
	if !ok {
		return nil, nil, false
	}
	a, arun, ok := kc.value(x.Then, sc, e)
	if !ok || a.scalar() {
		return nil, nil, false
	}
	b, brun, ok := kc.value(x.Else, sc, e)
	if !ok || !a.sameShape(b) {
		return nil, nil, false
	}
	out := kc.instantiate(a)
	oregs, aregs, bregs := out.leaves(nil), a.leaves(nil), b.leaves(nil)
	meetLeaves(out, b)
	return out, func(f []value.Prim) {
		run, regs := arun, aregs
		if !ifTest(t, c, cost, f) {
			run, regs = brun, bregs
		}
		if run != nil {
			run(f)
		}
		for i, r := range regs {
			f[oregs[i]] = f[r]
		}
	}, true
}

// meetLeaves forgets the static type of each scalar of v (a copy of
// another layout of w's shape) where w's differs.
func meetLeaves(v, w *kval) {
	if v.scalar() {
		if v.typ != w.typ {
			v.typ = value.NoPrim
		}
		return
	}
	for i := range v.fields {
		meetLeaves(v.fields[i], w.fields[i])
	}
}

func bindKval(sc *kscope, name string, v *kval) *kscope {
	if v.scalar() {
		return &kscope{name: name, reg: v.reg, typ: v.typ, next: sc}
	}
	return &kscope{name: name, reg: -1, val: v, next: sc}
}

func seq(runs []ktuple) ktuple {
	switch len(runs) {
	case 0:
		return nil
	case 1:
		return runs[0]
	}
	return func(f []value.Prim) {
		for _, r := range runs {
			r(f)
		}
	}
}

// applyVal compiles a call whose arguments or result may be records.
func (kc *kcomp) applyVal(x *syntax.Apply, sc *kscope, e *env) (*kval, ktuple, bool) {
	fv, ok := kc.fnValue(x.Fn, sc, e)
	if !ok {
		return nil, nil, false
	}
	args := make([]*kval, len(x.Args))
	runs := make([]ktuple, len(x.Args))
	for i, a := range x.Args {
		if args[i], runs[i], ok = kc.value(a, sc, e); !ok {
			return nil, nil, false
		}
	}
	return kc.callVal(fv, args, runs, x.Pos())
}

// callVal compiles the application of fv to arguments in registers
// (computed by runs, in order): as evalApply and closure.call charge it,
// the arguments' fresh space is released after the call.
func (kc *kcomp) callVal(fv value.Value, args []*kval, runs []ktuple, pos syntax.Pos) (*kval, ktuple, bool) {
	t := kc.t
	fn, ok := fv.(*value.Fun)
	if !ok {
		return nil, nil, false
	}
	var res *kval
	var body ktuple
	switch c := fn.Impl.(type) {
	case *partial:
		// the captured arguments were evaluated when the partial was made
		pre := make([]*kval, len(c.args))
		preRuns := make([]ktuple, len(c.args))
		for i, a := range c.args {
			if pre[i], preRuns[i], ok = kc.constVal(a); !ok {
				return nil, nil, false
			}
		}
		return kc.callVal(&value.Fun{Impl: c.f}, append(pre, args...), append(preRuns, runs...), pos)
	case *closure:
		if len(c.params) != len(args) || kc.depth > 16 {
			return nil, nil, false
		}
		var sc *kscope
		for i, p := range c.params {
			if sc, ok = bindPat(p, args[i], sc); !ok {
				return nil, nil, false
			}
		}
		kc.depth++
		res, body, ok = kc.value(c.body, sc, c.env)
		kc.depth--
		if !ok {
			return nil, nil, false
		}
	default:
		// operators, intrinsics, sections: scalar arguments
		nodes := make([]knode, len(args))
		tys := make([]value.PrimType, len(args))
		for i, a := range args {
			if !a.scalar() {
				return nil, nil, false
			}
			r := a.reg
			nodes[i], tys[i] = func(f []value.Prim) value.Prim { return f[r] }, a.typ
		}
		n, ok := kc.callT(fv, nodes, tys, pos)
		if !ok {
			return nil, nil, false
		}
		r := kc.reg()
		res, body = &kval{reg: r, typ: kc.ty}, func(f []value.Prim) { f[r] = n(f) }
	}
	pre := seq(nonNil(runs))
	return res, func(f []value.Prim) {
		base := t.live
		if pre != nil {
			pre(f)
		}
		held := t.live - base
		if body != nil {
			body(f)
		}
		t.live -= held
	}, true
}

func nonNil(runs []ktuple) []ktuple {
	var out []ktuple
	for _, r := range runs {
		if r != nil {
			out = append(out, r)
		}
	}
	return out
}

// compileRecordFn compiles f into a register kernel for parameters of the
// given layouts (scalars, or records and tuples of scalars): the one entry
// to the register kernel compiler for SOACs (fast.go). Its result may be
// a scalar, a tuple or a record.
func (t *thread) compileRecordFn(f value.Value, layouts []*kval) (*kernel, bool) {
	body := closureBody(f)
	if body != nil && t.in.recordFailed[body] {
		return nil, false // a body given up on once is not tried again
	}
	k, ok := t.compileRecordFn1(f, layouts)
	if !ok && body != nil {
		t.in.recordFailed = bounded(t.in.recordFailed)
		t.in.recordFailed[body] = true
	}
	return k, ok
}

// closureBody is the body of the closure that f is or partially applies.
func closureBody(f value.Value) syntax.Expr {
	fn, ok := f.(*value.Fun)
	if !ok {
		return nil
	}
	switch c := fn.Impl.(type) {
	case *closure:
		return c.body
	case *partial:
		return closureBody(&value.Fun{Impl: c.f})
	}
	return nil
}

func (t *thread) compileRecordFn1(f value.Value, layouts []*kval) (*kernel, bool) {
	kc := &kcomp{t: t}
	k := &kernel{}
	params := make([]*kval, len(layouts))
	for i, l := range layouts {
		params[i] = kc.instantiate(l)
		k.params = append(k.params, params[i].leaves(nil))
	}
	res, run, ok := kc.callVal(f, params, make([]ktuple, len(params)), syntax.NoPos)
	if !ok {
		return nil, false
	}
	if run == nil {
		run = func([]value.Prim) {}
	}
	k.nregs = kc.nregs
	if res.scalar() {
		r := res.reg
		k.out = func(f []value.Prim) value.Prim { run(f); return f[r] }
		return k, true
	}
	k.outT, k.outRegs, k.outLayout = run, res.leaves(nil), res
	return k, true
}
