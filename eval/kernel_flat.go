package eval

import (
	"strings"

	"fut/eval/value"
	"fut/interp/syntax"
)

// Flat kernels: a function of scalars and records of scalars whose body
// is made of lets, records, tuples, field projections, calls of such
// functions, literals, scalar operators and intrinsics, reads of captured
// arrays, if, && and || (kernel_flat_branch.go) and loops over such
// state (kernel_flat_loop.go) is compiled once into a list of
// instructions over a register file of scalar bits, each register of a
// type known at compile time. Straight-line code charges the same steps
// on every application that succeeds: the compiler evaluates each
// construct by its form (form.go: the operands in order, the step rule
// after them, a let's value or a call's arguments released after the
// body), as compiled code does, applying the rules (thread.go's meter)
// to a meter of its own while it emits the code (fcomp.construct), and
// the code itself charges nothing.
// A SOAC that runs a kernel without branches n times charges n times its
// one figure, which is what n measured applications would have summed
// to, once they have all succeeded; a kernel with branches or loops adds
// what each straight-line stretch charges to each element's own figures
// as it runs. An operation that fails (an integer division by zero)
// abandons the flat run, which has charged nothing (flatFail): the SOAC
// is evaluated again by the general path, which reports the error where
// it occurs.
//
// A flat kernel depends only on the function's closure and the layouts
// (shapes and scalar types) of its arguments, so it is compiled once per
// closure and layout and kept on the closure; a partial application
// (accel b) is the underlying closure's kernel with its first parameters
// loaded from the captured arguments, so that the function of a map
// inside a map is not compiled again for each outer element
// (kernel_flat_share.go does the same for lambdas).

// flatKernel is a compiled function.
type flatKernel struct {
	nregs   int
	consts  []fconst // registers that hold constants (literals, captured values)
	code    []finsn
	calls   []fins
	params  [][]int // the registers of each parameter's scalars, in layout order
	out     *kval   // the result's layout, with its registers
	outRegs []int
	// one application's charges, relative to the live space at its start:
	// w steps (each of work and depth 1), a peak of peak words above it,
	// and a result of fresh words
	w, peak, fresh int64
	// a kernel with branches (kernel_flat_branch.go) charges per element:
	// its code accumulates each element's work in register wReg and its
	// peak in register pkReg
	dyn         bool
	wReg, pkReg int
	loops       []floop // kernel_flat_loop.go
}

type fconst struct {
	reg  int
	bits uint64
}

// flatCall is a flat kernel and the scalars of its leading parameters:
// the locals it captures (kernel_flat_share.go), then the arguments of a
// partial application.
type flatCall struct {
	*flatKernel
	npre int          // the parameters so supplied
	pre  []value.Prim // their scalars, in order
}

// frame is a register file for the call on batches of B with its
// constants and the captured arguments loaded.
func (fc *flatCall) frame(r []uint64, B int) {
	fc.flatKernel.frame(r, B)
	i := 0
	for _, p := range fc.params[:fc.npre] {
		for _, reg := range p {
			fill(r[reg*B:(reg+1)*B], regBits(fc.pre[i]))
			i++
		}
	}
}

// arg is the registers of the caller's i-th argument.
func (fc *flatCall) arg(i int) []int { return fc.params[fc.npre+i] }

// flatEntry is a closure's flat kernel for one signature of argument
// layouts (nil when the closure does not compile for it).
type flatEntry struct {
	sig  string
	k    *flatKernel
	caps []value.Prim // the scalars of the locals k captures (kernel_flat_share.go)
}

// flatFn compiles f (a closure, or a partial application of one) for
// arguments of the given layouts; ok is false when f is not such a
// function or its body is not straight-line code.
func (t *thread) flatFn(f value.Value, layouts []*kval) (*flatCall, bool) {
	if t.in.noFast || t.tan > 0 {
		return nil, false
	}
	fn, ok := f.(*value.Fun)
	if !ok {
		return nil, false
	}
	switch g := fn.Impl.(type) {
	case *opFn, *rightSection, *projFn, *intrinsic:
		return t.flatOther(f, layouts)
	case *partial:
		if _, ofClosure := g.f.(*closure); !ofClosure {
			return t.flatOther(f, layouts) // (2 -), an operator's left section
		}
	}
	var pre []value.Prim
	var all []*kval
	c, ok := fn.Impl.(*closure)
	if p, isPartial := fn.Impl.(*partial); isPartial {
		if c, ok = p.f.(*closure); !ok {
			return nil, false
		}
		for _, a := range p.args {
			l, ps, ok := layoutOf(a)
			if !ok {
				return nil, false
			}
			all, pre = append(all, l), append(pre, ps...)
		}
	} else if !ok {
		return nil, false
	}
	all = append(all, layouts...)
	var sb strings.Builder
	for _, l := range all {
		l.sig(&sb)
		sb.WriteByte(';')
	}
	sig := sb.String()
	var en *flatEntry
	for i := range c.flat {
		if c.flat[i].sig == sig {
			en = &c.flat[i]
		}
	}
	if en == nil {
		k, caps, found := t.sharedFlat(c, sig)
		if !found {
			var fc *fcomp
			k, fc = t.compileFlat(c, all)
			t.share(c, sig, fc, k)
			if k != nil {
				caps = fc.capScalars()
			}
		}
		if len(c.flat) >= 8 {
			c.flat = c.flat[1:]
		}
		c.flat = append(c.flat, flatEntry{sig, k, caps})
		en = &c.flat[len(c.flat)-1]
	}
	if en.k == nil {
		return nil, false
	}
	// the captured locals, then the partial application's arguments
	return &flatCall{en.k, len(en.k.params) - len(layouts), append(en.caps[:len(en.caps):len(en.caps)], pre...)}, true
}

// layoutOf is the typed layout of a value of scalars, records and tuples,
// and its scalars in order.
func layoutOf(v value.Value) (*kval, []value.Prim, bool) {
	var ps []value.Prim
	var walk func(v value.Value) *kval
	walk = func(v value.Value) *kval {
		switch v := v.(type) {
		case value.Prim:
			ps = append(ps, v)
			return &kval{reg: -1, typ: v.T}
		case value.Tuple:
			if len(v) < 2 {
				return nil
			}
			l := &kval{reg: -1, fields: make([]*kval, len(v))}
			for i, f := range v {
				if l.fields[i] = walk(f); l.fields[i] == nil {
					return nil
				}
			}
			return l
		case *value.Record:
			if len(v.Fields) == 0 {
				return nil
			}
			l := &kval{reg: -1, rec: true, names: v.Names, fields: make([]*kval, len(v.Fields))}
			for i, f := range v.Fields {
				if l.fields[i] = walk(f); l.fields[i] == nil {
					return nil
				}
			}
			return l
		}
		return nil
	}
	l := walk(v)
	return l, ps, l != nil
}

// sig writes v's shape and scalar types.
func (v *kval) sig(sb *strings.Builder) {
	if v.scalar() {
		sb.WriteString(v.typ.String())
		return
	}
	if v.rec {
		sb.WriteByte('{')
	} else {
		sb.WriteByte('(')
	}
	for i, f := range v.fields {
		if v.rec {
			sb.WriteString(v.names[i])
			sb.WriteByte(':')
		}
		f.sig(sb)
		sb.WriteByte(',')
	}
	if v.rec {
		sb.WriteByte('}')
	} else {
		sb.WriteByte(')')
	}
}

// sameTypes reports whether v and w have the same fields and scalar types.
func (v *kval) sameTypes(w *kval) bool {
	if !v.sameShape(w) {
		return false
	}
	if v.scalar() {
		return v.typ == w.typ
	}
	for i := range v.fields {
		if !v.fields[i].sameTypes(w.fields[i]) {
			return false
		}
	}
	return true
}

// fcomp compiles one flat kernel; m follows the charges of the code
// emitted so far by the rules compiled code charges by (meter): its live
// space counts from register org (an element's own figures, after a
// branch: flive), or from the start for org −1, and its work and peak
// are what is pending since the last flush.
type fcomp struct {
	t      *thread
	k      *flatKernel
	consts map[value.Prim]int
	org    int
	m      meter
	depth  int
	// the compiled closure's environment, the locals of it that the
	// kernel reads, the names it found elsewhere, and whether the kernel
	// may serve other closures of the same body (kernel_flat_share.go)
	top       *env
	caps      []fcapture
	globals   []string
	shareable bool
}

// compileFlat compiles c for arguments of the given layouts; its
// parameters are the locals of c's environment that it reads, then the
// arguments. nil when c does not compile.
func (t *thread) compileFlat(c *closure, layouts []*kval) (*flatKernel, *fcomp) {
	fc := &fcomp{t: t, k: &flatKernel{wReg: -1, pkReg: -1}, consts: map[value.Prim]int{}, org: -1, top: c.env, shareable: true}
	return fc.compile(layouts, func(args []*kval) (*kval, bool) { return fc.callClosure(c, args) }), fc
}

// flatOther compiles f, an operator, a section (of an operator or a
// projection) or an intrinsic, for arguments of the given layouts. Such
// a function value is made anew where it is written, so its kernel is
// not kept.
func (t *thread) flatOther(f value.Value, layouts []*kval) (*flatCall, bool) {
	fc := &fcomp{t: t, k: &flatKernel{wReg: -1, pkReg: -1}, consts: map[value.Prim]int{}, org: -1}
	k := fc.compile(layouts, func(args []*kval) (*kval, bool) { return fc.call(f, args) })
	if k == nil {
		return nil, false
	}
	return &flatCall{k, 0, nil}, true
}

// compile compiles body on arguments of the given layouts into fc's
// kernel; nil when it does not compile.
func (fc *fcomp) compile(layouts []*kval, body func(args []*kval) (*kval, bool)) *flatKernel {
	args := make([]*kval, len(layouts))
	for i, l := range layouts {
		args[i] = fc.instantiate(l)
		if args[i] == nil {
			return nil
		}
	}
	res, ok := body(args)
	if !ok {
		return nil
	}
	k := fc.k
	for _, cp := range fc.caps {
		k.params = append(k.params, cp.val.leaves(nil))
	}
	for _, a := range args {
		k.params = append(k.params, a.leaves(nil))
	}
	k.out, k.outRegs = res, res.leaves(nil)
	if k.dyn {
		fc.flush() // each element's figures are in its registers
	} else {
		k.w, k.peak, k.fresh = fc.m.W, fc.m.pk1, fc.m.live
	}
	return k
}

// capScalars are the scalars of the captured locals, in order.
func (fc *fcomp) capScalars() []value.Prim {
	var ps []value.Prim
	for _, cp := range fc.caps {
		v, _ := fc.top.lookupLocal(cp.name)
		_, vps, _ := layoutOf(v)
		ps = append(ps, vps...)
	}
	return ps
}

func (fc *fcomp) reg() int { r := fc.k.nregs; fc.k.nregs++; return r }

// emit1 appends r[d] = f(r[a]), emit2 r[d] = f(r[a], r[b]).
func (fc *fcomp) emit1(d, a int, f func(uint64) uint64) {
	fc.k.code = append(fc.k.code, finsn{op: fCall1, d: int32(d), a: int32(a), c: int32(len(fc.k.calls))})
	fc.k.calls = append(fc.k.calls, fins{f1: f})
}

func (fc *fcomp) emit2(d, a, b int, f func(a, b uint64) uint64) {
	fc.k.code = append(fc.k.code, finsn{op: fCall2, d: int32(d), a: int32(a), b: int32(b), c: int32(len(fc.k.calls))})
	fc.k.calls = append(fc.k.calls, fins{f2: f})
}

// step charges a scalar step (meter.scalar) after operands held above
// base.
func (fc *fcomp) step(base flive) { fc.after(stepScalar, base) }

// after charges rule r after operands held above base (meter.after):
// the live space then counts from base's register, which flushes the
// pending charges first where the operands left it counting from
// another.
func (fc *fcomp) after(r stepRule, base flive) {
	switch r {
	case stepNone:
		return
	case stepIndex:
		fc.m.after(stepScalar, base.c) // a kernel indexes scalars only: indexStep's scalar step
	case stepUpdate:
		fc.m.step(base.c, updW, updD, updS, updF) // updateStep's, as no derivative is taken in a kernel
	default:
		fc.m.after(r, base.c)
	}
	fc.setLive(flive{base.org, fc.m.live})
}

// construct compiles a construct by its form f (form.go): its operands
// in order from the live space now (base), the construct's own code on
// their values (own: an operator's instruction, the check of a
// condition, a let's binding, a call's inlined body), the rule's charge
// above base, then, where f has arms, arm on own's value and the arms
// compiled on demand (an if's branch, a let's body; a late form's rule
// charged at the end of each), and where f holds its operands, their
// release.
func (fc *fcomp) construct(f form, fr *kframe, e *env, own func(vals []*kval) (*kval, bool), arm func(v *kval, arms []func() (*kval, bool)) (*kval, bool)) (*kval, bool) {
	base := fc.here()
	vals := make([]*kval, len(f.ops))
	for i, x := range f.ops {
		var ok bool
		if vals[i], ok = fc.value(x, fr, e); !ok {
			return nil, false
		}
	}
	return fc.rest(f, fr, e, base, vals, own, arm)
}

// rest is construct after the operands, compiled from base into vals.
func (fc *fcomp) rest(f form, fr *kframe, e *env, base flive, vals []*kval, own func(vals []*kval) (*kval, bool), arm func(v *kval, arms []func() (*kval, bool)) (*kval, bool)) (*kval, bool) {
	held := fc.here()
	v, ok := own(vals)
	if !ok {
		return nil, false
	}
	if !f.late {
		fc.after(f.rule, base)
	}
	if len(f.arms) > 0 {
		arms := make([]func() (*kval, bool), len(f.arms))
		for i, x := range f.arms {
			arms[i] = func() (*kval, bool) {
				r, ok := v, true // an arm that is none: own's value stands
				if x != nil {
					r, ok = fc.value(x, fr, e)
				}
				if ok && f.late {
					fc.after(f.rule, base)
				}
				return r, ok
			}
		}
		v, ok = arm(v, arms)
	}
	if f.hold {
		fc.release(base, held)
	}
	return v, ok
}

// body is the arm of a form with one, compiled.
func body(_ *kval, arms []func() (*kval, bool)) (*kval, bool) { return arms[0]() }

// here is the live space now.
func (fc *fcomp) here() flive { return flive{fc.org, fc.m.live} }

// moveTo makes l the live space, flushing nothing.
func (fc *fcomp) moveTo(l flive) { fc.org, fc.m.live = l.org, l.c }

// pending is the work and the peak charged since the last flush;
// setPending makes them w and pk.
func (fc *fcomp) pending() (w, pk int64) { return fc.m.W, fc.m.pk1 }

func (fc *fcomp) setPending(w, pk int64) { fc.m.W, fc.m.D, fc.m.pk1, fc.m.pkP = w, w, pk, pk }

// konst is a register that holds p.
func (fc *fcomp) konst(p value.Prim) *kval {
	r, ok := fc.consts[p]
	if !ok {
		r = fc.reg()
		fc.consts[p] = r
		fc.k.consts = append(fc.k.consts, fconst{r, regBits(p)})
	}
	return &kval{reg: r, typ: p.T}
}

// instantiate is the layout l with fresh registers; nil when a scalar's
// type is unknown.
func (fc *fcomp) instantiate(l *kval) *kval {
	if l.scalar() {
		if l.typ == value.NoPrim {
			return nil
		}
		return &kval{reg: fc.reg(), typ: l.typ}
	}
	out := &kval{reg: -1, rec: l.rec, names: l.names, fields: make([]*kval, len(l.fields))}
	for i, f := range l.fields {
		if out.fields[i] = fc.instantiate(f); out.fields[i] == nil {
			return nil
		}
	}
	return out
}

// constVal puts a captured value of scalars in constant registers.
func (fc *fcomp) constVal(v value.Value) (*kval, bool) {
	l, ps, ok := layoutOf(v)
	if !ok {
		return nil, false
	}
	var fill func(l *kval) *kval
	fill = func(l *kval) *kval {
		if l.scalar() {
			p := ps[0]
			ps = ps[1:]
			return fc.konst(p)
		}
		out := &kval{reg: -1, rec: l.rec, names: l.names, fields: make([]*kval, len(l.fields))}
		for i, f := range l.fields {
			out.fields[i] = fill(f)
		}
		return out
	}
	return fill(l), true
}

// value compiles x; the result's scalars are in the kval's registers.
func (fc *fcomp) value(x syntax.Expr, fr *kframe, e *env) (*kval, bool) {
	if p, ok := fr.res.lits[x]; ok {
		return fc.literal(x, p, fr, e)
	}
	switch x := x.(type) {
	case *syntax.Paren:
		return fc.value(x.X, fr, e)
	case *syntax.Ascript:
		return fc.value(x.X, fr, e)
	case *syntax.Attr:
		if x.Attr != nil && (x.Attr.Name == "trace" || x.Attr.Name == "break") {
			return nil, false
		}
		return fc.value(x.X, fr, e)
	case *syntax.Var:
		return fc.varVal(x, fr, e)
	case *syntax.Negate:
		return fc.unary(x, value.Neg, fr, e)
	case *syntax.Not:
		return fc.unary(x, value.Not, fr, e)
	case *syntax.Binary:
		return fc.binary(x, fr, e)
	case *syntax.If:
		return fc.ifExpr(x, fr, e)
	case *syntax.Loop:
		return fc.loop(x, fr, e)
	case *syntax.Assert:
		return fc.assert(x, fr, e)
	case *syntax.Apply:
		fm, _ := formOf(x)
		f, ok := fc.fnValue(fm.head, fr, e)
		if !ok {
			return nil, false
		}
		return fc.apply(f, fm, fr, e)
	case *syntax.RecordLit, *syntax.TupleLit:
		return fc.record(x, fr, e)
	case *syntax.Index:
		return fc.index(x, fr, e)
	case *syntax.Project:
		fm, _ := formOf(x)
		return fc.construct(fm, fr, e, func(vals []*kval) (*kval, bool) { return vals[0].field(x.Field) }, nil)
	case *syntax.Update:
		return fc.update(x, fr, e)
	case *syntax.Coerce:
		// checkType checks the shapes of arrays only: a value of scalars
		// passes any coercion the checker let through
		fm, _ := formOf(x)
		return fc.construct(fm, fr, e, func(vals []*kval) (*kval, bool) { return vals[0], true }, nil)
	case *syntax.LetIn:
		if len(x.Sizes) > 0 {
			return nil, false
		}
		f, _ := formOf(x)
		return fc.construct(f, fr, e, func(vals []*kval) (*kval, bool) {
			return nil, fr.bindPat(x.Pat, vals[0])
		}, body)
	}
	return nil, false
}

// varVal is a local's registers (or a field path of one), or a captured
// value in constant registers.
func (fc *fcomp) varVal(x *syntax.Var, fr *kframe, e *env) (*kval, bool) {
	if v, local, ok := fr.local(x); local {
		return v, ok
	}
	head, path := headPath(x.Name)
	if e == fc.top && e.hasLocal(head) {
		if v, ok := fc.captured(head, path); ok {
			return v, true
		}
		fc.shareable = false // not of scalars as a whole: a constant, as below
	} else {
		fc.resolved(head, e)
	}
	c, err := fc.t.evalVar(x, e)
	if err != nil {
		return nil, false
	}
	return fc.constVal(c)
}

// literal is x, a literal of value p as ccomp found it (a negated
// literal is one), charged by its form.
func (fc *fcomp) literal(x syntax.Expr, p value.Prim, fr *kframe, e *env) (*kval, bool) {
	f, ok := formOf(x)
	if !ok || p.T == value.NoPrim {
		return nil, false
	}
	return fc.construct(f, fr, e, func([]*kval) (*kval, bool) { return fc.konst(p), true }, nil)
}

// fnValue resolves the function of an application at compile time: a
// name that ccomp resolved to the closure's environment, not to a local
// of the body, noting the name it looked up.
func (fc *fcomp) fnValue(fn syntax.Expr, fr *kframe, e *env) (value.Value, bool) {
	v, ok := unparen(fn).(*syntax.Var)
	if !ok || !fr.isFree(v) {
		return nil, false
	}
	head, _ := headPath(v.Name)
	fc.resolved(head, e)
	f, err := fc.t.evalVar(v, e)
	return f, err == nil
}

// apply compiles a call of f, resolved as it compiles, by the call's
// form fm: its own operation is f's body on the arguments (call).
func (fc *fcomp) apply(f value.Value, fm form, fr *kframe, e *env) (*kval, bool) {
	return fc.construct(fm, fr, e, func(args []*kval) (*kval, bool) { return fc.call(f, args) }, nil)
}

// call compiles f applied to arguments in registers, as many as it
// takes, by its kind's lanes (apply.go).
func (fc *fcomp) call(f value.Value, args []*kval) (*kval, bool) {
	fn, ok := f.(*value.Fun)
	if !ok {
		return nil, false
	}
	c, ok := fn.Impl.(callable)
	if !ok {
		return nil, false
	}
	return fc.callable(c, args)
}

func (fc *fcomp) callable(c callable, args []*kval) (*kval, bool) {
	if c.arity() != len(args) {
		return nil, false
	}
	return c.lanes(fc, args)
}

func (fc *fcomp) callClosure(c *closure, args []*kval) (*kval, bool) {
	if len(c.params) != len(args) || len(c.sizeParams) > 0 || len(c.ctxSizes) > 0 || fc.depth > 16 {
		return nil, false
	}
	fr := fc.t.frameOf(c)
	for i, p := range c.params {
		if !fr.bindPat(p, args[i]) {
			return nil, false
		}
	}
	fc.depth++
	defer func() { fc.depth-- }()
	return fc.value(c.body, fr, c.env)
}

// record compiles a record or tuple literal by its form, its fields
// laid out as compiled code lays them out (fieldOrder).
func (fc *fcomp) record(x syntax.Expr, fr *kframe, e *env) (*kval, bool) {
	fm, _ := formOf(x)
	var names []string
	if r, ok := x.(*syntax.RecordLit); ok {
		for _, f := range r.Fields {
			names = append(names, f.Name)
		}
	}
	if len(fm.ops) < 2 && names == nil {
		return nil, false // () and (e) are not tuples of scalars
	}
	if len(fm.ops) == 0 {
		return nil, false
	}
	return fc.construct(fm, fr, e, func(fs []*kval) (*kval, bool) {
		if names == nil {
			return &kval{reg: -1, fields: fs}, true
		}
		sorted, order, tuple := fieldOrder(names)
		if tuple {
			return &kval{reg: -1, fields: fs}, true
		}
		out := &kval{reg: -1, rec: true, names: sorted, fields: make([]*kval, len(fs))}
		for i, f := range fs {
			out.fields[order[i]] = f
		}
		return out, true
	}, nil)
}

// update compiles r with .f.g = v, a record or tuple of scalars with a
// field of it replaced by a value of the same layout, by its form: no
// code, the result's registers are r's with v's in place of the field's.
// A path with indices (an array's element) is refused.
func (fc *fcomp) update(x *syntax.Update, fr *kframe, e *env) (*kval, bool) {
	for _, el := range x.Path {
		if el.Field == "" {
			return nil, false
		}
	}
	fm, _ := formOf(x)
	return fc.construct(fm, fr, e, func(vals []*kval) (*kval, bool) {
		return vals[0].with(x.Path, vals[1])
	}, nil)
}

// with is v with the field that path names replaced by w, which must
// have the field's layout.
func (v *kval) with(path []syntax.PathElem, w *kval) (*kval, bool) {
	if len(path) == 0 {
		return w, v.sameTypes(w)
	}
	if v.scalar() {
		return nil, false
	}
	k := -1
	if v.rec {
		for i, n := range v.names {
			if n == path[0].Field {
				k = i
			}
		}
	} else if i, ok := tupleIndex(path[0].Field); ok && i < len(v.fields) {
		k = i
	}
	if k < 0 {
		return nil, false
	}
	nf, ok := v.fields[k].with(path[1:], w)
	if !ok {
		return nil, false
	}
	out := *v
	out.fields = append([]*kval(nil), v.fields...)
	out.fields[k] = nf
	return &out, true
}
