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
	env    map[string]kernel.Exp    // IR variable → kernel expression
	cur    []kernel.Stmt            // the statement list being built
	rows   map[string]rowRef        // IR array variables inside the kernel
	n      int
}

// rowRef is an array inside a kernel: a row of a buffer, the buffer
// indexed by a prefix of its indices.
type rowRef struct {
	buf    *kernel.Param
	prefix []kernel.Exp
}

// source is the buffer and index prefix of an array a SOAC inside the
// kernel reads: a row bound in the kernel, or a whole top-level array.
func (b *kbuild) source(name string) rowRef {
	if r, ok := b.rows[name]; ok {
		return r
	}
	return rowRef{buf: b.buffer(name)}
}

func (r rowRef) at(idx ...kernel.Exp) rowRef {
	return rowRef{r.buf, append(append([]kernel.Exp(nil), r.prefix...), idx...)}
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
	p := b.addParam(kernel.Buf("p_"+cname(name), ktype(t.Elem), b.shape(t)...), Arg{Var: name})
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
	return b.addParam(p, Arg{Var: prm.Name, Out: true, Scalar: scalar, Shape: prm.T.Shape})
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
// into b.cur and returns the lambda's results.
func (b *kbuild) element(arrs []string, index string, lam *ir.Lambda, i kernel.Exp) []kernel.Exp {
	b.bindElem(arrs, index, lam, i)
	for _, s := range lam.Body.Stms {
		b.stm(s)
	}
	return b.atoms(lam.Body.Res)
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
		r := b.source(a).at(i)
		prm := lam.Params[k]
		if prm.T.Rank() == 0 {
			b.let(prm, kernel.Rd(r.buf, r.prefix...))
			continue
		}
		if b.rows == nil {
			b.rows = map[string]rowRef{}
		}
		b.rows[prm.Name] = r
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
	b.cur = append(b.cur, kernel.L(v, e))
	b.env[prm.Name] = v
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
	one := func() ir.Param {
		if len(s.Pat) != 1 {
			fail("a statement binding %d values", len(s.Pat))
		}
		return s.Pat[0]
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
		if _, ok := b.rows[e.Arr]; !ok {
			if _, ok := b.f.types[e.Arr]; !ok {
				fail("indexing %s, an array made inside the kernel, is not flattened yet", e.Arr)
			}
		}
		idx := make([]kernel.Exp, len(e.Idx))
		for i, a := range e.Idx {
			idx[i] = toI64(b.atom(a))
		}
		r := b.source(e.Arr).at(idx...)
		prm := one()
		if prm.T.Rank() > 0 {
			if b.rows == nil {
				b.rows = map[string]rowRef{}
			}
			b.rows[prm.Name] = r
			return
		}
		b.let(prm, kernel.Rd(r.buf, r.prefix...))
	case *ir.AssertE:
		b.cur = append(b.cur, &kernel.Assert{Cond: b.atom(e.Cond)})
		b.env[one().Name] = kernel.BoolC(true)
	case *ir.ScremaE:
		b.seqReduce(s, e)
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
		res := map[string]kernel.Type{"f16_to_bits": kernel.U16, "f32_to_bits": kernel.U32, "f64_to_bits": kernel.U64}[e.Op]
		return kernel.Call{Fn: "to_bits", Args: args, Res: res}
	case "f16_from_bits", "f32_from_bits", "f64_from_bits":
		res := map[string]kernel.Type{"f16_from_bits": kernel.F16, "f32_from_bits": kernel.F32, "f64_from_bits": kernel.F64}[e.Op]
		return kernel.Call{Fn: "from_bits", Args: args, Res: res}
	case "lerp":
		// a + (b - a)·t, as the reference evaluates it
		return kernel.Bin("+", args[0], kernel.Bin("*", kernel.Bin("-", args[1], args[0]), args[2]))
	case "not":
		return kernel.UnOp{Op: "!", X: args[0]}
	case "isnan", "isinf":
		return kernel.Call{Fn: e.Op, Args: args}
	}
	if n, ok := value.HasMath(e.Op); ok && n == len(args) && args[0].Type().IsFloat() {
		return kernel.Call{Fn: e.Op, Args: args}
	}
	fail("the function %s inside a kernel", e.Op)
	return nil
}

// body translates an IR body into a separate statement list.
func (b *kbuild) body(irb *ir.Body) ([]kernel.Stmt, []kernel.Exp) {
	saved := b.cur
	b.cur = nil
	for _, s := range irb.Stms {
		b.stm(s)
	}
	res := b.atoms(irb.Res)
	ss := b.cur
	b.cur = saved
	return ss, res
}

func (b *kbuild) ifStm(s *ir.Stm, e *ir.IfE) {
	c := b.atom(e.Cond)
	then, tres := b.body(e.Then)
	els, eres := b.body(e.Else)
	st := &kernel.If{Cond: c, Then: then, Else: els, ThenRes: tres, ElseRes: eres}
	for _, prm := range s.Pat {
		if prm.T.Rank() != 0 {
			fail("an if returning arrays inside a kernel is not flattened yet")
		}
		v := b.fresh(prm.Name, ktype(prm.T.Elem))
		st.Res = append(st.Res, v)
		b.env[prm.Name] = v
	}
	b.cur = append(b.cur, st)
}

// loop translates a sequential loop. A while loop's condition is an IR
// body, the kernel's an expression over the parameters: it becomes an
// extra boolean parameter, computed before the loop and again at the end
// of each iteration from the next values.
func (b *kbuild) loop(s *ir.Stm, e *ir.LoopE) {
	l := &kernel.Loop{}
	for k, prm := range e.Params {
		if prm.T.Rank() != 0 {
			fail("a loop with array parameters inside a kernel is not flattened yet")
		}
		l.Init = append(l.Init, b.atom(e.Init[k]))
		l.Params = append(l.Params, b.fresh(prm.Name, ktype(prm.T.Elem)))
	}
	bindParams := func(es []kernel.Exp) {
		for k, prm := range e.Params {
			b.env[prm.Name] = es[k]
		}
	}
	if e.While != nil {
		bindParams(l.Init)
		pre, c0 := b.body(e.While)
		b.cur = append(b.cur, pre...)
		cont := b.fresh("cont", kernel.Bool)
		l.Params = append(l.Params, cont)
		l.Init = append(l.Init, c0[0])
		l.While = cont
		params := make([]kernel.Exp, len(e.Params))
		for k := range e.Params {
			params[k] = l.Params[k]
		}
		bindParams(params)
		body, next := b.body(e.Body)
		saved := b.cur
		b.cur = body
		bindParams(next)
		condStms, c1 := b.body(e.While)
		b.cur = append(b.cur, condStms...)
		l.Body, l.Next = b.cur, append(next, c1[0])
		b.cur = saved
	} else {
		bound := b.atom(e.Bound)
		l.N = toI64(bound)
		l.I = b.fresh("i", kernel.I64)
		params := make([]kernel.Exp, len(e.Params))
		for k := range e.Params {
			params[k] = l.Params[k]
		}
		bindParams(params)
		saved := b.cur
		b.cur = nil
		if e.I != "" {
			iv := b.fresh(e.I, bound.Type())
			var ie kernel.Exp = l.I
			if bound.Type() != kernel.I64 {
				ie = kernel.Cv(bound.Type(), l.I)
			}
			b.cur = append(b.cur, kernel.L(iv, ie))
			b.env[e.I] = iv
		}
		for k, over := range e.Over {
			r := b.source(over).at(l.I)
			if e.Elems[k].T.Rank() > 0 {
				fail("a for-in loop over the rows of %s inside a kernel is not flattened yet", over)
			}
			b.let(e.Elems[k], kernel.Rd(r.buf, r.prefix...))
		}
		body, next := b.body(e.Body)
		b.cur = append(b.cur, body...)
		l.Body, l.Next = b.cur, next
		b.cur = saved
	}
	b.cur = append(b.cur, l)
	for k, prm := range s.Pat {
		b.env[prm.Name] = l.Params[k]
	}
}

// seqReduce runs a SOAC nested in a kernel that only reduces (its
// results are scalars) as a sequential loop: moderate flattening keeps
// the outer level parallel and the inner one sequential.
func (b *kbuild) seqReduce(s *ir.Stm, e *ir.ScremaE) {
	if len(e.Scans) > 0 || arity(e.Reds) != len(e.Map.Ret) {
		fail("a nested map or scan producing an array inside a kernel (not a perfect map nest) is not flattened yet")
	}
	l := &kernel.Loop{N: toI64(b.atom(e.W)), I: b.fresh("j", kernel.I64)}
	for _, op := range e.Reds {
		l.Init = append(l.Init, b.atoms(op.Nes)...)
	}
	for k, prm := range s.Pat {
		if prm.T.Rank() != 0 {
			fail("a reduction to arrays inside a kernel is not flattened yet")
		}
		l.Params = append(l.Params, b.fresh(prm.Name, ktype(prm.T.Elem)))
		if l.Init[k].Type() != l.Params[k].T {
			fail("a neutral element of the wrong type")
		}
	}
	saved := b.cur
	b.cur = nil
	elems := b.element(e.Arrs, e.Index, e.Map, l.I)
	c := 0
	for _, op := range e.Reds {
		k := op.Arity()
		for j := range k {
			b.env[op.Lam.Params[j].Name] = l.Params[c+j]
			b.env[op.Lam.Params[k+j].Name] = elems[c+j]
		}
		for _, st := range op.Lam.Body.Stms {
			b.stm(st)
		}
		l.Next = append(l.Next, b.atoms(op.Lam.Body.Res)...)
		c += k
	}
	l.Body = b.cur
	b.cur = append(saved, l)
	for k, prm := range s.Pat {
		b.env[prm.Name] = l.Params[k]
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
