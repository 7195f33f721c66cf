package flatten

import (
	"fmt"

	"fut/eval/value"
	"fut/gpu/kernel"
	"fut/interp/ir"
)

// kbuild builds one kernel: its parameters (with where their arguments
// come from) and the translation of IR lambdas into kernel statements.
// IR names are bound once, so one environment serves the whole kernel;
// every kernel variable is fresh, so a body translated twice (a while
// loop's condition) stays in SSA form.
type kbuild struct {
	f      *flattener
	k      *kernel.Kernel
	args   []Arg
	byName map[string]*kernel.Param // parameters by IR name
	env    map[string]kernel.Exp    // IR scalar variable → kernel expression
	cur    []kernel.Stmt            // the statement list being built
	n      int

	// arrays inside the kernel (arrays.go)
	views  map[string]view // IR array variable → its view
	owned  map[string]bool // the view is the variable's own storage
	dest   map[string]view // where an array variable is to be built
	placed map[string]bool // built at its destination
	scopes []*scope        // the bodies being translated, innermost last
	tdims  []ir.Atom       // the index space of the kernel's threads (scratch rows)
	tidx   []kernel.Exp    // a thread's point in it
	site   int             // the kernel.Site of the statement being translated
	// viewTransposes reads top-level transposes as views (tile.go)
	viewTransposes bool
	// irregular storage: its capacity and the flag a thread sets when
	// an array does not fit
	capParam, flag *kernel.Param
}

func (b *kbuild) fresh(base string, t kernel.Type) kernel.Var {
	b.n++
	return kernel.NewVar(fmt.Sprintf("%s_%d", cname(base), b.n), t)
}

func (b *kbuild) addParam(p *kernel.Param, a Arg) *kernel.Param {
	b.k.Params = append(b.k.Params, p)
	b.args = append(b.args, a)
	return p
}

// scalar is the scalar parameter for the top-level variable name.
func (b *kbuild) scalar(name string, t kernel.Type) kernel.Var {
	if p, ok := b.byName[name]; ok {
		return p.V()
	}
	p := b.addParam(kernel.Scalar("p_"+cname(name), t), Arg{Var: name})
	b.byName[name] = p
	return p.V()
}

func (b *kbuild) isParam(name string) bool {
	for _, p := range b.k.Params {
		if p.Name == name {
			return true
		}
	}
	return false
}

// size is an i64 size or index from the top level (a constant or a scalar
// parameter), as the runtime can compute on the host.
func (b *kbuild) size(a ir.Atom) kernel.Exp {
	if a.IsConst() {
		return kernel.I64C(a.Val.AsInt64())
	}
	t, ok := b.f.types[a.Name]
	if !ok || t.Rank() > 0 {
		fail("size %s is not a top-level scalar", a.Name)
	}
	if t.Elem != value.I64 {
		fail("size %s is of type %v, not i64", a.Name, t.Elem)
	}
	return b.scalar(a.Name, kernel.I64)
}

func (b *kbuild) shape(t ir.Type) []kernel.Exp {
	var sh []kernel.Exp
	for _, d := range t.Shape {
		sh = append(sh, b.size(d))
	}
	return sh
}

// buffer is the input buffer parameter for the top-level array name.
func (b *kbuild) buffer(name string) *kernel.Param {
	if p, ok := b.byName[name]; ok && p.Buffer {
		return p
	}
	t, ok := b.f.types[name]
	if !ok || t.Rank() == 0 {
		fail("%s is not a top-level array", name)
	}
	p := b.addParam(kernel.Buf("p_"+cname(name), ktype(t.Elem), b.shape(t)...), Arg{Var: name, F16: t.Elem == value.F16})
	b.byName[name] = p
	return p
}

// output is a buffer bound by the launch to the pattern variable prm: an
// array of prm's type, or (scalar) one element holding a scalar result.
func (b *kbuild) output(prm ir.Param, scalar bool) *kernel.Param {
	var p *kernel.Param
	if scalar {
		if prm.T.Rank() != 0 {
			fail("a reduction to arrays is not flattened yet")
		}
		p = kernel.Buf("o_"+cname(prm.Name), ktype(prm.T.Elem), kernel.I64C(1))
	} else {
		if prm.T.Rank() == 0 {
			fail("a scalar result where an array is expected (%s)", prm.Name)
		}
		p = kernel.Buf("o_"+cname(prm.Name), ktype(prm.T.Elem), b.shape(prm.T)...)
	}
	return b.addParam(p, Arg{Var: prm.Name, Out: true, Scalar: scalar, Shape: prm.T.Shape, F16: prm.T.Elem == value.F16})
}

// outputUpTo is the output buffer of the one-dimensional array prm
// made for up to w elements, of which the scalar result count of the
// same launch says how many are prm's (Arg.Narrow).
func (b *kbuild) outputUpTo(prm ir.Param, w ir.Atom, count string) *kernel.Param {
	if prm.T.Rank() != 1 {
		fail("a compaction into a %d-dimensional array (a bug)", prm.T.Rank())
	}
	p := kernel.Buf("o_"+cname(prm.Name), ktype(prm.T.Elem), b.size(w))
	return b.addParam(p, Arg{Var: prm.Name, Out: true, Shape: []ir.Atom{w}, F16: prm.T.Elem == value.F16, Narrow: count})
}

// inPlace is the destination buffer of a scatter or hist: the input
// array dest, updated in place and then bound to prm.
func (b *kbuild) inPlace(dest string, prm ir.Param) *kernel.Param {
	p := b.buffer(dest)
	for i := range b.args {
		if b.args[i].Var == dest {
			b.args[i].Binds = prm.Name
		}
	}
	return p
}

// element translates the per-element computation of a SOAC with index i
// into b.cur and returns the lambda's results (see results).
func (b *kbuild) element(arrs []string, index string, lam *ir.Lambda, i kernel.Exp) []kernel.Exp {
	b.bindElem(arrs, index, lam, i)
	b.run(lam.Body)
	return b.results(lam.Body.Res)
}

// results are the scalar results as expressions; an array result is nil
// (its view is b.arr of its name).
func (b *kbuild) results(as []ir.Atom) []kernel.Exp {
	es := make([]kernel.Exp, len(as))
	for i, a := range as {
		if !b.isArr(a) {
			es[i] = b.atom(a)
		}
	}
	return es
}

// bindElem binds a SOAC lambda's index and parameters for element i:
// scalars are read, rows are recorded.
func (b *kbuild) bindElem(arrs []string, index string, lam *ir.Lambda, i kernel.Exp) {
	if index != "" {
		b.env[index] = i
	}
	if len(lam.Params) != len(arrs) {
		fail("a lambda of %d parameters over %d arrays", len(lam.Params), len(arrs))
	}
	for k, a := range arrs {
		prm := lam.Params[k]
		row := b.sub(b.arr(a), i)
		if prm.T.Rank() == 0 {
			b.let(prm, b.read(row))
			continue
		}
		b.bindArr(prm.Name, row, false)
	}
}

// let binds the scalar IR variable prm to e.
func (b *kbuild) let(prm ir.Param, e kernel.Exp) {
	if prm.T.Rank() != 0 {
		fail("an array (%s) inside a kernel is not flattened yet", prm.Name)
	}
	v := b.fresh(prm.Name, ktype(prm.T.Elem))
	if e.Type() != v.T {
		fail("%s: a %v bound to an expression of type %v", prm.Name, v.T, e.Type())
	}
	if prm.T.Elem == value.F16 {
		e = roundF16(e)
	}
	b.cur = append(b.cur, kernel.L(v, e))
	b.env[prm.Name] = v
}

// roundF16 rounds an f16 computed in f32 to half precision, unless it is
// one already (a variable, a constant, a read).
func roundF16(e kernel.Exp) kernel.Exp {
	switch e.(type) {
	case kernel.Var, kernel.Const, kernel.Read:
		return e
	}
	return kernel.Call{Fn: "f16_round", Args: []kernel.Exp{e}, Res: kernel.F32}
}

func (b *kbuild) atom(a ir.Atom) kernel.Exp {
	if a.IsConst() {
		return constant(a.Val)
	}
	if x, ok := b.env[a.Name]; ok {
		return x
	}
	t, ok := b.f.types[a.Name]
	if !ok {
		fail("%s is not in scope of the kernel", a.Name)
	}
	if t.Rank() > 0 {
		fail("the array %s used whole inside a kernel", a.Name)
	}
	return b.scalar(a.Name, ktype(t.Elem))
}

func (b *kbuild) atoms(as []ir.Atom) []kernel.Exp {
	es := make([]kernel.Exp, len(as))
	for i, a := range as {
		es[i] = b.atom(a)
	}
	return es
}

// constant converts a scalar value.
func constant(p value.Prim) kernel.Const {
	t := ktype(p.T)
	if t.IsFloat() {
		return kernel.Float(t, p.Float())
	}
	return kernel.Const{T: t, Bits: p.B}
}

func toI64(e kernel.Exp) kernel.Exp {
	if e.Type() == kernel.I64 {
		return e
	}
	return kernel.Cv(kernel.I64, e)
}

var binOps = map[string]bool{
	"+": true, "-": true, "*": true, "/": true, "%": true, "//": true, "%%": true, "**": true,
	"==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true, "&&": true, "||": true,
	"&": true, "|": true, "^": true, "<<": true, ">>": true, ">>>": true, "min": true, "max": true,
}

// stm translates one statement of a lambda body into b.cur.
func (b *kbuild) stm(s *ir.Stm) {
	saved, start := b.site, len(b.cur)
	b.site = b.k.AddSite(siteOf(s))
	defer func() {
		if b.site != 0 && len(b.cur) >= start {
			kernel.Stamp(b.cur[start:], b.site)
		}
		b.site = saved
	}()
	b.stm1(s)
}

// siteOf is the source position of an IR statement, for the errors of the
// kernel statements it becomes.
func siteOf(s *ir.Stm) kernel.Site {
	site := kernel.Site{Where: s.Where}
	switch e := s.E.(type) {
	case *ir.AssertE:
		// an approximate message leaves the report to the reference path
		site.Msg = e.Msg
		if site.Where == "" && !e.Approx {
			site.Where = e.Where
		}
	case *ir.IndexE:
		site.Rank = len(e.Idx)
	case *ir.UpdateE:
		site.Rank = len(e.Idx)
	}
	return site
}

func (b *kbuild) stm1(s *ir.Stm) {
	one := func() ir.Param {
		if len(s.Pat) != 1 {
			fail("a statement binding %d values", len(s.Pat))
		}
		return s.Pat[0]
	}
	if b.arrayStm(s) {
		return
	}
	switch e := s.E.(type) {
	case *ir.AtomE:
		prm := one()
		if prm.T.Rank() != 0 {
			fail("an array (%s) inside a kernel is not flattened yet", prm.Name)
		}
		b.env[prm.Name] = b.atom(e.X)
	case *ir.BinOpE:
		if !binOps[e.Op] {
			fail("the operator %s inside a kernel", e.Op)
		}
		b.let(one(), kernel.Bin(e.Op, b.atom(e.X), b.atom(e.Y)))
	case *ir.UnOpE:
		b.let(one(), b.unop(e))
	case *ir.ConvE:
		b.let(one(), kernel.Cv(ktype(e.To), b.atom(e.X)))
	case *ir.IndexE:
		b.let(one(), b.read(b.arr(e.Arr), b.indices(e.Idx)...))
	case *ir.AssertE:
		b.cur = append(b.cur, &kernel.Assert{Cond: b.atom(e.Cond)})
		b.env[one().Name] = kernel.BoolC(true)
	case *ir.ScremaE:
		b.seqScrema(s, e)
	case *ir.ScatterE:
		b.seqScatter(s, e)
	case *ir.HistE:
		b.seqHist(s, e)
	case *ir.FilterE:
		b.seqFilter(s, e)
	case *ir.IfE:
		b.ifStm(s, e)
	case *ir.LoopE:
		b.loop(s, e)
	default:
		fail("%s inside a kernel is not flattened yet", expName(s.E))
	}
}

func expName(e ir.Exp) string {
	switch e.(type) {
	case *ir.ScremaE:
		return "a nested map/reduce/scan"
	case *ir.ScatterE:
		return "a nested scatter"
	case *ir.HistE:
		return "a nested histogram"
	case *ir.StreamE:
		return "a stream"
	case *ir.FilterE:
		return "a filter"
	case *ir.UpdateE:
		return "an in-place update"
	case *ir.IotaE, *ir.ReplicateE, *ir.ArrayE:
		return "an array built"
	}
	return fmt.Sprintf("%T", e)
}

func (b *kbuild) unop(e *ir.UnOpE) kernel.Exp {
	args := b.atoms(e.Args)
	switch e.Op {
	case "neg", "abs", "sgn", "popc", "clz", "ctz":
		return kernel.UnOp{Op: e.Op, X: args[0]}
	case "mul_hi":
		return kernel.Call{Fn: "mul_hi", Args: args}
	case "mad_hi":
		return kernel.Bin("+", kernel.Call{Fn: "mul_hi", Args: args[:2]}, args[2])
	case "f16_to_bits", "f32_to_bits", "f64_to_bits":
		res, _ := value.FixedResult(e.Op)
		return kernel.Call{Fn: "to_bits", Args: args, Res: ktype(res)}
	case "f16_from_bits", "f32_from_bits", "f64_from_bits":
		res, _ := value.FixedResult(e.Op)
		return kernel.Call{Fn: "from_bits", Args: args, Res: ktype(res)}
	case "lerp":
		// a + (b - a)·t, as the reference evaluates it
		return kernel.Bin("+", args[0], kernel.Bin("*", kernel.Bin("-", args[1], args[0]), args[2]))
	case "not":
		return kernel.UnOp{Op: "!", X: args[0]}
	case "fma", "ldexp":
		return kernel.Call{Fn: e.Op, Args: args}
	case "mad":
		// a·b + c rounded as the reference computes it: in f64, once
		t := args[0].Type()
		if t == kernel.F64 {
			return kernel.Bin("+", kernel.Bin("*", args[0], args[1]), args[2])
		}
		d := func(x kernel.Exp) kernel.Exp { return kernel.Cv(kernel.F64, x) }
		return kernel.Cv(t, kernel.Bin("+", kernel.Bin("*", d(args[0]), d(args[1])), d(args[2])))
	case "isnan", "isinf":
		return kernel.Call{Fn: e.Op, Args: args}
	}
	if n, ok := value.HasMath(e.Op); ok && n == len(args) && args[0].Type().IsFloat() {
		return kernel.Call{Fn: e.Op, Args: args}
	}
	fail("the function %s inside a kernel", e.Op)
	return nil
}

// block translates an IR body into a separate statement list; bound
// names the variables bound with it. Its scalar results come back as
// expressions; each array result k is stored into outs[k] (built there
// when the body binds it) or, without outs[k], left to the caller; its
// result is nil.
func (b *kbuild) block(irb *ir.Body, bound []string, outs []*view) ([]kernel.Stmt, []kernel.Exp) {
	saved := b.cur
	b.cur = nil
	b.place(irb, outs)
	b.run(irb, bound...)
	res := make([]kernel.Exp, len(irb.Res))
	for k, a := range irb.Res {
		if k < len(outs) && outs[k] != nil {
			b.storeArr(*outs[k], a.Name)
			continue
		}
		if !b.isArr(a) {
			res[k] = b.atom(a) // an array result without storage is the caller's
		}
	}
	ss := b.cur
	b.cur = saved
	return ss, res
}

// storeArr copies the array variable name into dst unless it was built
// there.
func (b *kbuild) storeArr(dst view, name string) {
	src := b.arr(name)
	if b.placed[name] && src.buf == dst.buf {
		return
	}
	b.copyTo(dst, src)
}

// arrayOuts is storage for the array variables of a pattern (nil for the
// scalars).
func (b *kbuild) arrayOuts(pat []ir.Param) []*view {
	outs := make([]*view, len(pat))
	for k, prm := range pat {
		if prm.T.Rank() > 0 {
			v := b.alloc(prm)
			outs[k] = &v
		}
	}
	return outs
}

// ifStm translates an if. An array result whose size is another result
// of the if (existential) goes to irregular storage: each branch checks
// that its array fits and copies it in, and the array is viewed with the
// size the branch returned.
func (b *kbuild) ifStm(s *ir.Stm, e *ir.IfE) {
	c := b.atom(e.Cond)
	own := map[string]bool{}
	for _, prm := range s.Pat {
		own[prm.Name] = true
	}
	outs := make([]*view, len(s.Pat))
	var rows []*view // irregular storage, by result (nil: none)
	for k, prm := range s.Pat {
		if prm.T.Rank() == 0 {
			continue
		}
		if sizedBy(prm.T, own) {
			if rows == nil {
				rows = make([]*view, len(s.Pat))
			}
			r := b.irregularRow(prm.Name, ktype(prm.T.Elem))
			rows[k] = &r
			continue
		}
		v := b.alloc(prm)
		outs[k] = &v
	}
	branch := func(body *ir.Body) ([]kernel.Stmt, []kernel.Exp) {
		stms, res := b.block(body, nil, outs)
		saved := b.cur
		b.cur = stms
		for k, r := range rows {
			if r != nil {
				src := b.arr(body.Res[k].Name)
				b.fits(src.shape)
				b.copyTo(flatView(*r, src.shape), src)
			}
		}
		stms, b.cur = b.cur, saved
		return stms, res
	}
	then, tres := branch(e.Then)
	els, eres := branch(e.Else)
	st := &kernel.If{Cond: c, Then: then, Else: els}
	for k, prm := range s.Pat {
		if prm.T.Rank() > 0 {
			continue
		}
		v := b.fresh(prm.Name, ktype(prm.T.Elem))
		st.ThenRes, st.ElseRes = append(st.ThenRes, tres[k]), append(st.ElseRes, eres[k])
		st.Res = append(st.Res, v)
		b.env[prm.Name] = v
	}
	b.cur = append(b.cur, st)
	for k, prm := range s.Pat {
		switch {
		case outs[k] != nil:
			b.bindArr(prm.Name, *outs[k], true)
		case prm.T.Rank() > 0:
			b.bindArr(prm.Name, flatView(*rows[k], b.indices(prm.T.Shape)), true)
		}
	}
}

// sizedBy reports whether a size of t is one of the names.
func sizedBy(t ir.Type, names map[string]bool) bool {
	for _, d := range t.Shape {
		if names[d.Name] {
			return true
		}
	}
	return false
}

// loop translates a sequential loop. A while loop's condition is an IR
// body, the kernel's an expression over the parameters: it becomes an
// extra boolean parameter, computed before the loop and again at the end
// of each iteration from the next values. An array parameter has storage
// of its own (that of the loop's result): the initial value is copied in
// before the loop, each iteration's value copied back at its end. An
// array parameter whose size is another parameter (it changes from one
// iteration to the next: arr ++ arr) has irregular storage, as an if's
// existential result; a while loop also stops when a thread's arrays
// outgrow it (the kernel then runs again with more).
func (b *kbuild) loop(s *ir.Stm, e *ir.LoopE) {
	l := &kernel.Loop{}
	own := map[string]bool{}
	for _, prm := range e.Params {
		own[prm.Name] = true
	}
	store := make([]*view, len(s.Pat))
	irr := make([]*view, len(s.Pat)) // irregular storage
	for k, prm := range s.Pat {
		switch {
		case prm.T.Rank() == 0:
		case sizedBy(e.Params[k].T, own):
			r := b.irregularRow(prm.Name, ktype(prm.T.Elem))
			irr[k] = &r
		default:
			v := b.alloc(prm)
			store[k] = &v
		}
	}
	var names []string
	var initFit kernel.Exp // the initial arrays fit their storage
	for k, prm := range e.Params {
		names = append(names, prm.Name)
		switch {
		case store[k] != nil:
			b.copyTo(*store[k], b.arr(e.Init[k].Name))
		case irr[k] != nil:
			src := b.arr(e.Init[k].Name)
			b.fits(src.shape)
			initFit = and(initFit, b.within(src.shape))
			b.copyTo(flatView(*irr[k], src.shape), src)
		default:
			l.Init = append(l.Init, b.atom(e.Init[k]))
			l.Params = append(l.Params, b.fresh(prm.Name, ktype(prm.T.Elem)))
		}
	}
	// bindParams binds the parameters: scalars to es (one per scalar
	// parameter), then arrays to their storage.
	bindParams := func(es []kernel.Exp) {
		c := 0
		for k, prm := range e.Params {
			if store[k] == nil && irr[k] == nil {
				b.env[prm.Name] = es[c]
				c++
			}
		}
		for k, prm := range e.Params {
			switch {
			case store[k] != nil:
				b.bindArr(prm.Name, *store[k], true)
			case irr[k] != nil:
				b.bindArr(prm.Name, flatView(*irr[k], b.indices(prm.T.Shape)), true)
			}
		}
	}
	// body translates the loop's body, storing the array results and
	// returning the scalar ones, and whether the irregular ones fit
	// (nil: there are none).
	body := func() ([]kernel.Exp, kernel.Exp) {
		b.run(e.Body, names...)
		var next []kernel.Exp
		for k, a := range e.Body.Res {
			if store[k] == nil && irr[k] == nil {
				next = append(next, b.atom(a))
			}
		}
		fit := b.storeIrregular(irr, store, e.Params, e.Body.Res, func() { b.storeBack(store, e.Body.Res) })
		return next, fit
	}
	params := make([]kernel.Exp, len(l.Params))
	for k, p := range l.Params {
		params[k] = p
	}
	if e.While != nil {
		bindParams(l.Init)
		pre, c0 := b.block(e.While, nil, nil)
		b.cur = append(b.cur, pre...)
		if initFit != nil {
			c0[0] = kernel.Bin("&&", c0[0], initFit)
		}
		cont := b.fresh("cont", kernel.Bool)
		l.Params = append(l.Params, cont)
		l.Init = append(l.Init, c0[0])
		l.While = cont
		bindParams(params)
		saved := b.cur
		b.cur = nil
		next, fit := body()
		bindParams(next)
		condStms, c1 := b.block(e.While, nil, nil)
		b.cur = append(b.cur, condStms...)
		if fit != nil {
			c1[0] = kernel.Bin("&&", c1[0], fit)
		}
		l.Body, l.Next = b.cur, append(next, c1[0])
		b.cur = saved
	} else {
		bound := b.atom(e.Bound)
		l.N = toI64(bound)
		l.I = b.fresh("i", kernel.I64)
		bindParams(params)
		saved := b.cur
		b.cur = nil
		if e.I != "" {
			iv := b.fresh(e.I, bound.Type())
			b.cur = append(b.cur, kernel.L(iv, convTo(bound.Type(), l.I)))
			b.env[e.I] = iv
		}
		for k, over := range e.Over {
			row := b.sub(b.arr(over), l.I)
			if e.Elems[k].T.Rank() > 0 {
				b.bindArr(e.Elems[k].Name, row, false)
				continue
			}
			b.let(e.Elems[k], b.read(row))
		}
		next, _ := body()
		l.Body, l.Next = b.cur, next
		b.cur = saved
	}
	b.cur = append(b.cur, l)
	c := 0
	for k, prm := range s.Pat {
		if store[k] == nil && irr[k] == nil {
			b.env[prm.Name] = l.Params[c]
			c++
		}
	}
	for k, prm := range s.Pat {
		switch {
		case store[k] != nil:
			b.bindArr(prm.Name, *store[k], true)
		case irr[k] != nil:
			b.bindArr(prm.Name, flatView(*irr[k], b.indices(prm.T.Shape)), true)
		}
	}
}

// within is whether an array of the given shape fits irregular storage.
func (b *kbuild) within(shape []kernel.Exp) kernel.Exp {
	var total kernel.Exp = kernel.I64C(1)
	for _, d := range shape {
		total = kernel.Bin("*", total, d)
	}
	return kernel.Bin("<=", total, b.capacity())
}

// and is x && y, where a nil x is true.
func and(x, y kernel.Exp) kernel.Exp {
	if x == nil {
		return y
	}
	return kernel.Bin("&&", x, y)
}

// storeIrregular copies a loop iteration's array results res into the
// irregular storage irr of the parameters, around storeBack (regular
// storage, which regular runs): results that are views of any
// parameter's storage are first copied to fresh irregular storage, so
// that no copy reads what another has overwritten. It returns whether
// every result fits the storage (nil: no irregular storage).
func (b *kbuild) storeIrregular(irr, store []*view, params []ir.Param, res []ir.Atom, regular func()) kernel.Exp {
	bufs := map[*kernel.Param]bool{}
	for k := range irr {
		if irr[k] != nil {
			bufs[irr[k].buf] = true
		}
		if store[k] != nil {
			bufs[store[k].buf] = true
		}
	}
	var fit kernel.Exp
	srcs := make([]view, len(irr))
	for k, r := range irr {
		if r == nil || res[k].Name == params[k].Name {
			continue
		}
		src := b.arr(res[k].Name)
		b.fits(src.shape)
		fit = and(fit, b.within(src.shape))
		if bufs[src.buf] {
			t := flatView(b.irregularRow(res[k].Name+"_tmp", r.elem()), src.shape)
			b.copyTo(t, src)
			src = t
		}
		srcs[k] = src
	}
	regular()
	for k, r := range irr {
		if r != nil && srcs[k].buf != nil {
			b.copyTo(flatView(*r, srcs[k].shape), srcs[k])
		}
	}
	return fit
}

// storeBack copies a loop iteration's array results res into the
// parameters' storage. A result that is a view of some parameter's
// storage (a swap, a reverse of the parameter) goes through scratch
// first, so that no copy reads what another has overwritten.
func (b *kbuild) storeBack(store []*view, res []ir.Atom) {
	isParam := map[*kernel.Param]bool{}
	for _, v := range store {
		if v != nil {
			isParam[v.buf] = true
		}
	}
	tmp := make([]*view, len(store))
	for k, v := range store {
		if v == nil {
			continue
		}
		src := b.arr(res[k].Name)
		if src.buf == v.buf && src.whole {
			continue
		}
		if isParam[src.buf] {
			t := b.scratchLike(res[k].Name, *v)
			b.copyTo(t, src)
			tmp[k] = &t
		}
	}
	for k, v := range store {
		if v == nil || tmp[k] != nil {
			continue
		}
		src := b.arr(res[k].Name)
		if src.buf == v.buf && src.whole {
			continue
		}
		b.copyTo(*v, src)
	}
	for k, t := range tmp {
		if t != nil {
			b.copyTo(*store[k], *t)
		}
	}
}

// scratchLike is scratch of v's element type and of the dimensions of
// the storage v is (a whole storage: its buffer's dimensions past the
// thread's).
func (b *kbuild) scratchLike(name string, v view) view {
	for i, a := range b.args {
		if b.k.Params[i] == v.buf && a.Out && len(a.Shape) >= len(v.shape) {
			return b.scratchOf(name, v.buf.T, a.Shape[len(a.Shape)-len(v.shape):])
		}
	}
	fail("no storage to copy %s through (a bug)", name)
	return view{}
}

// seqScrema runs a SOAC nested in a kernel as a sequential loop: moderate
// flattening keeps the outer level parallel and the inner one
// sequential. Reductions and scans are carried in the loop (an array
// accumulator in storage of its own); scans and mapped arrays are written
// to storage row by row.
func (b *kbuild) seqScrema(s *ir.Stm, e *ir.ScremaE) { b.seqRange(s, e, nil, nil, nil) }

// seqRange is seqScrema over the n elements of e's arrays from lo (all
// of them when n is nil): a thread's chunk (arrayops.go). Where init
// holds, the first element starts the reductions and scans instead of
// being combined with the neutral element, as the reference path does
// (an operator whose neutral element is not neutral gives its result).
func (b *kbuild) seqRange(s *ir.Stm, e *ir.ScremaE, lo, n, init kernel.Exp) {
	nScan, nRed := arity(e.Scans), arity(e.Reds)
	nAcc := nScan + nRed
	ops := append(append([]*ir.SegOp(nil), e.Scans...), e.Reds...)
	// outs: the storage of the statement's arrays; accs: of the array
	// accumulators (a reduction's is its result's).
	outs := make([]*view, len(s.Pat))
	accs := make([]*view, nAcc)
	for k, prm := range s.Pat {
		switch {
		case k < nScan || k >= nAcc:
			v := b.alloc(prm)
			outs[k] = &v
			if k < nScan && e.Map.Ret[k].Rank() > 0 {
				a := b.scratch(prm.Name+"_acc", prm.T.Elem, e.Map.Ret[k].Shape)
				accs[k] = &a
			}
		case prm.T.Rank() > 0:
			v := b.alloc(prm)
			outs[k], accs[k] = &v, &v
		}
	}
	if n == nil {
		n = toI64(b.atom(e.W))
	}
	l := &kernel.Loop{N: n, I: b.fresh("j", kernel.I64)}
	var at kernel.Exp = l.I
	if lo != nil {
		at = kernel.Bin("+", lo, l.I)
	}
	var nes []ir.Atom
	for _, op := range ops {
		nes = append(nes, op.Nes...)
	}
	for k, ne := range nes {
		if accs[k] != nil {
			b.copyTo(*accs[k], b.arr(ne.Name))
			continue
		}
		x := b.atom(ne)
		p := b.fresh(s.Pat[k].Name, ktype(e.Map.Ret[k].Elem))
		if x.Type() != p.T {
			fail("a neutral element of the wrong type")
		}
		l.Init, l.Params = append(l.Init, x), append(l.Params, p)
	}
	// acc is accumulator k: its storage or its loop parameter.
	scalars := map[int]kernel.Exp{}
	for k, c := 0, 0; k < nAcc; k++ {
		if accs[k] == nil {
			scalars[k] = l.Params[c]
			c++
		}
	}
	saved := b.cur
	b.cur = nil
	dsts := make([]*view, len(e.Map.Body.Res))
	for k := nAcc; k < len(dsts); k++ {
		if e.Map.Ret[k].Rank() > 0 {
			v := outs[k].rowsOf(l.I)
			dsts[k] = &v
		}
	}
	b.place(e.Map.Body, dsts)
	elems := b.element(e.Arrs, e.Index, e.Map, at)
	c := 0
	for _, op := range ops {
		k := op.Arity()
		var names []string
		for j := range k {
			x, y := op.Lam.Params[j], op.Lam.Params[k+j]
			names = append(names, x.Name, y.Name)
			if accs[c+j] != nil {
				b.bindArr(x.Name, *accs[c+j], false)
				b.bindArr(y.Name, b.arr(e.Map.Body.Res[c+j].Name), false)
				continue
			}
			b.env[x.Name], b.env[y.Name] = scalars[c+j], elems[c+j]
		}
		if init == nil {
			b.run(op.Lam.Body, names...)
			for j, a := range op.Lam.Body.Res {
				if accs[c+j] == nil {
					l.Next = append(l.Next, b.atom(a))
				}
			}
			b.storeBack(accs[c:c+k], op.Lam.Body.Res)
			c += k
			continue
		}
		outer := b.cur
		b.cur = nil
		b.run(op.Lam.Body, names...)
		st := &kernel.If{Cond: kernel.Bin("&&", init, kernel.Bin("==", l.I, kernel.I64C(0)))}
		for j, a := range op.Lam.Body.Res {
			if accs[c+j] == nil {
				v := b.fresh("acc", elems[c+j].Type())
				st.ThenRes, st.ElseRes, st.Res = append(st.ThenRes, elems[c+j]), append(st.ElseRes, b.atom(a)), append(st.Res, v)
				l.Next = append(l.Next, v)
			}
		}
		b.storeBack(accs[c:c+k], op.Lam.Body.Res)
		st.Else, b.cur = b.cur, nil
		for j := range k {
			if accs[c+j] != nil {
				b.copyTo(*accs[c+j], b.arr(e.Map.Body.Res[c+j].Name))
			}
		}
		st.Then, b.cur = b.cur, append(outer, st)
		c += k
	}
	next := map[int]kernel.Exp{}
	for k, c := 0, 0; k < nAcc; k++ {
		if accs[k] == nil {
			next[k] = l.Next[c]
			c++
		}
	}
	for k := range s.Pat {
		switch {
		case k < nScan && accs[k] != nil:
			b.copyTo(outs[k].rowsOf(l.I), *accs[k])
		case k < nScan:
			b.write(*outs[k], next[k], l.I)
		case k >= nAcc:
			b.store(outs[k].rowsOf(l.I), e.Map.Body.Res[k], e.Map.Ret[k])
		}
	}
	l.Body = b.cur
	b.cur = append(saved, l)
	for k, prm := range s.Pat {
		if outs[k] != nil {
			b.bindArr(prm.Name, *outs[k], true)
			continue
		}
		b.env[prm.Name] = scalars[k]
	}
}

// destination is the storage a scatter or histogram inside a kernel
// updates: dest itself when it may be clobbered, else a copy.
func (b *kbuild) destOf(dest string, prm ir.Param) view {
	if b.canClobber(dest) && b.dest[prm.Name].buf == nil {
		return b.arr(dest)
	}
	v := b.alloc(prm)
	b.copyTo(v, b.arr(dest))
	return v
}

// inRange is 0 <= j < n.
func inRange(j, n kernel.Exp) kernel.Exp {
	return kernel.Bin("&&", kernel.Bin(">=", j, kernel.I64C(0)), kernel.Bin("<", j, toI64(n)))
}

// seqScatter runs a scatter inside a kernel as a sequential loop.
func (b *kbuild) seqScatter(s *ir.Stm, e *ir.ScatterE) {
	if len(e.Map.Ret) != 2 {
		fail("a scatter with %d results per element is not flattened yet", len(e.Map.Ret))
	}
	b.seqIndexed(s, b.destOf(e.Dest, s.Pat[0]), e.W, e.Arrs, e.Index, e.Map, func(d view, at kernel.Exp, _ []kernel.Exp) {
		b.store(d.rowsOf(at), e.Map.Body.Res[1], e.Map.Ret[1])
	})
}

// seqIndexed is the loop of a scatter or histogram inside a kernel: for
// each of w elements, the lambda's index and value, and update (which
// writes into the destination d, made by destOf, at index at) where the
// index is in range; the statement's result is the destination.
func (b *kbuild) seqIndexed(s *ir.Stm, d view, w ir.Atom, arrs []string, index string, lam *ir.Lambda, update func(d view, at kernel.Exp, res []kernel.Exp)) {
	l := &kernel.Loop{N: toI64(b.atom(w)), I: b.fresh("j", kernel.I64)}
	saved := b.cur
	b.cur = nil
	res := b.element(arrs, index, lam, l.I)
	at := toI64(res[0])
	inner := b.cur
	b.cur = nil
	update(d, at, res)
	b.cur = append(inner, &kernel.If{Cond: inRange(at, d.shape[0]), Then: b.cur})
	l.Body = b.cur
	b.cur = append(saved, l)
	b.bindArr(s.Pat[0].Name, d, true)
}

// seqHist runs a histogram inside a kernel as a sequential loop.
func (b *kbuild) seqHist(s *ir.Stm, e *ir.HistE) {
	if e.Op.Arity() != 1 || len(e.Map.Ret) != 2 {
		fail("a histogram of tuples inside a kernel is not flattened yet")
	}
	if e.Map.Ret[1].Rank() > 0 {
		b.seqHistRows(s, e)
		return
	}
	b.seqIndexed(s, b.destOf(e.Dest, s.Pat[0]), e.W, e.Arrs, e.Index, e.Map, func(d view, at kernel.Exp, res []kernel.Exp) {
		old := b.fresh("old", d.elem())
		b.cur = append(b.cur, kernel.L(old, b.read(d, at)))
		b.env[e.Op.Lam.Params[0].Name] = old
		b.env[e.Op.Lam.Params[1].Name] = res[1]
		b.run(e.Op.Lam.Body)
		b.write(d, b.atom(e.Op.Lam.Body.Res[0]), at)
	})
}

// seqHistRows runs a histogram of arrays inside a kernel as a sequential
// loop: the operator combines the bin's row with the element's array,
// and its result is copied back into the row (through scratch when it
// is a view of the histogram's own storage, a row the operator chose).
func (b *kbuild) seqHistRows(s *ir.Stm, e *ir.HistE) {
	d := b.destOf(e.Dest, s.Pat[0])
	tmp := b.scratch(s.Pat[0].Name+"_bin", s.Pat[0].T.Elem, e.Map.Ret[1].Shape)
	b.seqIndexed(s, d, e.W, e.Arrs, e.Index, e.Map, func(d view, at kernel.Exp, _ []kernel.Exp) {
		b.combine(e.Op, d.rowsOf(at), b.arr(e.Map.Body.Res[1].Name), tmp)
	})
}

// combine updates the array row to op(row, y), op a one-component
// operator on arrays; its result goes through tmp (storage of row's
// shape) when it is a view of row's buffer other than row itself.
func (b *kbuild) combine(op *ir.SegOp, row, y view, tmp view) {
	xn, yn := op.Lam.Params[0].Name, op.Lam.Params[1].Name
	b.bindArr(xn, row, false)
	b.bindArr(yn, y, false)
	b.run(op.Lam.Body, xn, yn)
	r := op.Lam.Body.Res[0].Name
	if r == xn {
		return
	}
	src := b.arr(r)
	if src.buf == row.buf {
		b.copyTo(tmp, src)
		src = tmp
	}
	b.copyTo(row, src)
}

// seqFilter runs a filter inside a kernel as a sequential loop: the kept
// elements are written to storage of the input's length, and the arrays
// are views of the first count rows.
func (b *kbuild) seqFilter(s *ir.Stm, e *ir.FilterE) {
	outs := make([]view, len(s.Pat)-1)
	for k, prm := range s.Pat[1:] {
		outs[k] = b.scratch(prm.Name, prm.T.Elem, append([]ir.Atom{e.W}, e.Map.Ret[1+k].Shape...))
	}
	cnt := b.fresh(s.Pat[0].Name, kernel.I64)
	l := &kernel.Loop{N: toI64(b.atom(e.W)), I: b.fresh("j", kernel.I64), Params: []kernel.Var{cnt}, Init: []kernel.Exp{kernel.I64C(0)}}
	saved := b.cur
	b.cur = nil
	res := b.element(e.Arrs, e.Index, e.Map, l.I)
	inner := b.cur
	b.cur = nil
	for k := range outs {
		if e.Map.Ret[1+k].Rank() > 0 {
			b.copyTo(outs[k].rowsOf(cnt), b.arr(e.Map.Body.Res[1+k].Name))
			continue
		}
		b.write(outs[k], res[1+k], cnt)
	}
	b.cur = append(inner, &kernel.If{Cond: res[0], Then: b.cur})
	l.Body = b.cur
	l.Next = []kernel.Exp{kernel.Sel(res[0], kernel.Bin("+", cnt, kernel.I64C(1)), cnt)}
	b.cur = append(saved, l)
	b.env[s.Pat[0].Name] = cnt
	for k, prm := range s.Pat[1:] {
		v := outs[k]
		v.shape = append([]kernel.Exp{cnt}, v.shape[1:]...)
		v.exact, v.whole = false, false
		b.bindArr(prm.Name, v, false)
	}
}

// segops combines associative operators into one kernel lambda over all
// their components, with the neutral elements; comm says the operator is
// a single commutative built-in.
func (b *kbuild) segops(ops []*ir.SegOp) (kernel.Lambda, []kernel.Exp, bool) {
	var lam kernel.Lambda
	var nes []kernel.Exp
	saved := b.cur
	b.cur = nil
	for _, op := range ops {
		k := op.Arity()
		if len(op.Lam.Params) != 2*k {
			fail("an operator of %d parameters for %d components", len(op.Lam.Params), k)
		}
		for j, prm := range op.Lam.Params {
			if prm.T.Rank() != 0 {
				fail("an operator on arrays is not flattened yet")
			}
			v := b.fresh(prm.Name, ktype(prm.T.Elem))
			b.env[prm.Name] = v
			if j < k {
				lam.X = append(lam.X, v)
			} else {
				lam.Y = append(lam.Y, v)
			}
		}
		for _, s := range op.Lam.Body.Stms {
			b.stm(s)
		}
		lam.Res = append(lam.Res, b.atoms(op.Lam.Body.Res)...)
		for _, ne := range b.atoms(op.Nes) {
			if v, ok := ne.(kernel.Var); ok && !b.isParam(v.Name) {
				fail("a neutral element computed inside the kernel is not flattened yet")
			}
			nes = append(nes, ne)
		}
	}
	lam.Body = b.cur
	b.cur = saved
	comm := len(ops) == 1 && opName(ops[0]) != ""
	return lam, nes, comm
}

// atomicOp is the name of a histogram's operator for the kernel's atomic
// updates of buckets of type elem: +, min and max; "" for the others
// (and for f16, which rounds after each step).
func atomicOp(op *ir.SegOp, elem value.PrimType) string {
	if name := opName(op); name != "*" && elem != value.F16 {
		return name
	}
	return ""
}

// opName is "+", "*", "min" or "max" when op is x ⊕ y (or y ⊕ x) for that
// built-in on one component, else "".
func opName(op *ir.SegOp) string {
	l := op.Lam
	if op.Arity() != 1 || len(l.Body.Stms) != 1 || len(l.Body.Res) != 1 {
		return ""
	}
	s := l.Body.Stms[0]
	e, ok := s.E.(*ir.BinOpE)
	if !ok || l.Body.Res[0] != ir.V(s.Pat[0].Name) {
		return ""
	}
	x, y := l.Params[0].Name, l.Params[1].Name
	if !(e.X.Name == x && e.Y.Name == y || e.X.Name == y && e.Y.Name == x) {
		return ""
	}
	switch e.Op {
	case "+", "*", "min", "max":
		return e.Op
	}
	return ""
}
