package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// callable is the Impl of every function value. call applies it to
// arity() arguments; lanes compiles that application, on arguments in a
// flat kernel's registers, into the kernel (fcomp.call), or says it
// cannot (false): each kind of function states its application for both
// back ends here.
type callable interface {
	arity() int
	call(t *thread, args []value.Value, pos syntax.Pos) (value.Value, error)
	lanes(fc *fcomp, args []*kval) (*kval, bool)
	fname() string
}

// closure is a function defined in the program (def, let-function, lambda).
type closure struct {
	name       string
	params     []syntax.Pat
	sizeParams []string // [n] parameters, bound from the arguments' shapes
	ctxSizes   []string // those no parameter's shape binds: the use site gives them (SizeArger)
	body       syntax.Expr
	env        *env
	defPos     syntax.Pos      // where it is defined (the frame of a call from outside the program)
	code       *code           // the compiled body (compile.go), set on the first call
	decl       *syntax.FunBind // the declaration it was made from (nil for a lambda): its identity (fuse.go)

	flat []flatEntry // its flat kernels by argument layouts (kernel_flat.go)
}

func (c *closure) arity() int    { return len(c.params) }
func (c *closure) fname() string { return c.name }

func (c *closure) call(t *thread, args []value.Value, pos syntax.Pos) (value.Value, error) {
	if len(t.stack) >= t.in.opts.MaxDepth {
		return nil, t.errf(pos, "call stack too deep (more than %d nested calls)", t.in.opts.MaxDepth)
	}
	fpos := pos
	if !fpos.IsValid() {
		fpos = c.defPos
	}
	t.stack = append(t.stack, Frame{Name: c.name, Pos: fpos})
	v, err := t.codeOf(c).run(t, c, args)
	t.stack = t.stack[:len(t.stack)-1]
	return v, err
}

// lanes inlines c's body, its parameters bound to the arguments' registers.
func (c *closure) lanes(fc *fcomp, args []*kval) (*kval, bool) { return fc.callClosure(c, args) }

// partial is a function applied to fewer arguments than it takes.
type partial struct {
	f    callable
	args []value.Value
}

func (p *partial) arity() int    { return p.f.arity() - len(p.args) }
func (p *partial) fname() string { return p.f.fname() }
func (p *partial) call(t *thread, args []value.Value, pos syntax.Pos) (value.Value, error) {
	all := t.scratch(len(p.args) + len(args))
	copy(all[copy(all, p.args):], args)
	v, err := p.f.call(t, all, pos)
	t.release(all)
	return v, err
}

// lanes is p.f's, with the arguments p holds in constant registers first.
func (p *partial) lanes(fc *fcomp, args []*kval) (*kval, bool) {
	all := make([]*kval, 0, len(p.args)+len(args))
	for _, a := range p.args {
		v, ok := fc.constVal(a)
		if !ok {
			return nil, false
		}
		all = append(all, v)
	}
	return fc.callable(p.f, append(all, args...))
}

// opFn is a built-in overloaded operator used as a function: (+).
type opFn struct {
	op   value.BinOp
	name string
}

func (o *opFn) arity() int    { return 2 }
func (o *opFn) fname() string { return "(" + o.name + ")" }
func (o *opFn) call(t *thread, args []value.Value, pos syntax.Pos) (value.Value, error) {
	base := t.live
	v, err := t.binop(o.op, args[0], args[1], pos)
	t.scalarStep(base)
	return v, err
}

func (o *opFn) lanes(fc *fcomp, args []*kval) (*kval, bool) {
	return fc.binop(o.op, args[0], args[1], fc.here())
}

// rightSection is (op e): \x -> x op e.
type rightSection struct {
	f value.Value
	r value.Value
}

func (r *rightSection) arity() int    { return 1 }
func (r *rightSection) fname() string { return "section" }
func (r *rightSection) call(t *thread, args []value.Value, pos syntax.Pos) (value.Value, error) {
	return t.apply(r.f, []value.Value{args[0], r.r}, pos)
}

func (r *rightSection) lanes(fc *fcomp, args []*kval) (*kval, bool) {
	p, ok := r.r.(value.Prim)
	if !ok {
		return nil, false
	}
	return fc.call(r.f, []*kval{args[0], fc.konst(p)})
}

// projFn is (.a.b) or (.[i]): a path applied to its argument.
type projFn struct {
	path []syntax.PathElem
	env  *env
}

func (p *projFn) arity() int    { return 1 }
func (p *projFn) fname() string { return "projection" }
func (p *projFn) call(t *thread, args []value.Value, pos syntax.Pos) (value.Value, error) {
	if walkStats != nil && t.wc == nil && hasIndices(p.path) {
		// the indices of (.[i]) are evaluated in its environment where it is applied
		prev := t.enterWalk(walkReason("indices of an index section"))
		defer func() { t.wc = prev }()
	}
	v := args[0]
	for _, el := range p.path {
		if el.Field != "" {
			f, err := t.field(v, el.Field, pos)
			if err != nil {
				return nil, err
			}
			v = f
			continue
		}
		r, err := t.indexBy(v, el.Indices, func(x syntax.Expr) (int64, error) {
			iv, err := t.evalCached(x, p.env)
			if err != nil {
				return 0, err
			}
			return t.indexInt(x, iv)
		}, el.Span.Start)
		if err != nil {
			return nil, err
		}
		v = r
	}
	return v, nil
}

// lanes is the argument's fields that a path of fields selects, in their
// registers: like call, it charges nothing. A path with indices does not
// compile.
func (p *projFn) lanes(_ *fcomp, args []*kval) (*kval, bool) {
	v := args[0]
	for _, el := range p.path {
		if el.Field == "" || el.Indices != nil {
			return nil, false
		}
		var ok bool
		if v, ok = v.field(el.Field); !ok {
			return nil, false
		}
	}
	return v, true
}

func hasIndices(path []syntax.PathElem) bool {
	for _, el := range path {
		if len(el.Indices) > 0 {
			return true
		}
	}
	return false
}

// intrinsic is a built-in function of the module intrinsics.
type intrinsic struct {
	name   string
	arity_ int
	impl   intrinsicFn
}

type intrinsicFn func(t *thread, pos syntax.Pos, args []value.Value) (value.Value, error)

func (f *intrinsic) arity() int    { return f.arity_ }
func (f *intrinsic) fname() string { return "intrinsics." + f.name }
func (f *intrinsic) call(t *thread, args []value.Value, pos syntax.Pos) (value.Value, error) {
	if f.impl == nil {
		return nil, t.errf(pos, "intrinsic %s is declared but not implemented", f.name)
	}
	return f.impl(t, pos, args)
}

func (f *intrinsic) lanes(fc *fcomp, args []*kval) (*kval, bool) { return fc.intrinsic(f.name, args) }

// goFn is a function value made by the evaluator itself (e.g. in jvp).
type goFn struct {
	n    int
	name string
	fn   func(t *thread, args []value.Value, pos syntax.Pos) (value.Value, error)
}

func (g *goFn) arity() int    { return g.n }
func (g *goFn) fname() string { return g.name }
func (g *goFn) call(t *thread, args []value.Value, pos syntax.Pos) (value.Value, error) {
	return g.fn(t, args, pos)
}

func (g *goFn) lanes(*fcomp, []*kval) (*kval, bool) { return nil, false }

func mkFun(c callable) *value.Fun { return &value.Fun{Name: c.fname(), Impl: c} }

// apply applies f to args (curried: extra arguments go to the result,
// missing ones make a partial application).
func (t *thread) apply(f value.Value, args []value.Value, pos syntax.Pos) (value.Value, error) {
	for {
		fn, ok := f.(*value.Fun)
		if !ok {
			return nil, t.errf(pos, "applying a value that is not a function")
		}
		c := fn.Impl.(callable)
		k := c.arity()
		if cl, ok := c.(*closure); ok && k == 0 {
			// a size-polymorphic constant whose value is a function
			// (entry main [n] : [n]f32 -> [n]f32 = f), reached without a
			// use of its name (which evaluates it: evalVar), as an entry
			// point: its value, then that applied
			v, err := cl.call(t, nil, pos)
			if err != nil {
				return nil, err
			}
			f = v
			continue
		}
		if k == 0 {
			return nil, t.errf(pos, "applying a function of no arguments")
		}
		if len(args) < k {
			return mkFun(&partial{f: c, args: append([]value.Value(nil), args...)}), nil
		}
		v, err := c.call(t, args[:k], pos)
		if err != nil || len(args) == k {
			return v, err
		}
		f, args = v, args[k:]
	}
}

// apply1 and apply2 are apply for the common arities of SOAC functions.
func (t *thread) apply1(f value.Value, x value.Value, pos syntax.Pos) (value.Value, error) {
	args := t.scratch(1)
	args[0] = x
	v, err := t.apply(f, args, pos)
	t.release(args)
	return v, err
}

func (t *thread) apply2(f value.Value, x, y value.Value, pos syntax.Pos) (value.Value, error) {
	args := t.scratch(2)
	args[0], args[1] = x, y
	v, err := t.apply(f, args, pos)
	t.release(args)
	return v, err
}

// scratch reserves n slots on top of the slot stack (compile.go) to pass
// arguments in, instead of allocating them: a callee binds or copies its
// arguments and never keeps the slice. release gives them back.
func (t *thread) scratch(n int) []value.Value {
	bp := t.grow(n)
	return t.slots[bp : bp+n : bp+n]
}

func (t *thread) release(s []value.Value) {
	clear(s)
	t.sp -= len(s)
	clear(t.slots[t.sp : t.sp+len(s)]) // the stack may have moved meanwhile
}

// contextSizes are the size parameters that no parameter's type has as a
// plain dimension ([n]), so that only the calling context fixes them:
// unflatten's n and m (its parameter is [n * m]t), replicate-like results.
func contextSizes(sizes []string, params []syntax.Pat) []string {
	if len(sizes) == 0 {
		return nil
	}
	bound := map[string]bool{}
	var te func(t syntax.TypeExp)
	te = func(t syntax.TypeExp) {
		switch t := t.(type) {
		case *syntax.TEParen:
			te(t.T)
		case *syntax.TEUnique:
			te(t.T)
		case *syntax.TETuple:
			for _, x := range t.Elems {
				te(x)
			}
		case *syntax.TERecord:
			for _, f := range t.Fields {
				te(f.Type)
			}
		case *syntax.TEArray:
			if v, ok := t.Dim.(*syntax.Var); ok && len(v.Name.Quals) == 0 {
				bound[v.Name.Name] = true
			}
			te(t.Elem)
		}
	}
	var pat func(p syntax.Pat)
	pat = func(p syntax.Pat) {
		switch p := p.(type) {
		case *syntax.PAscript:
			te(p.Type)
			pat(p.P)
		case *syntax.PParen:
			pat(p.P)
		case *syntax.PAttr:
			pat(p.P)
		case *syntax.PTuple:
			for _, q := range p.Elems {
				pat(q)
			}
		case *syntax.PRecord:
			for _, f := range p.Fields {
				if f.Pat != nil {
					pat(f.Pat)
				}
			}
		}
	}
	for _, p := range params {
		pat(p)
	}
	var out []string
	for _, n := range sizes {
		if !bound[n] {
			out = append(out, n)
		}
	}
	return out
}
