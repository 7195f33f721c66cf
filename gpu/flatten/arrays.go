package flatten

import (
	"fmt"

	"fut/gpu/kernel"
	"fut/interp/ir"
)

// Arrays inside a kernel. Moderate flattening keeps the outer levels of a
// nest parallel and runs what is inside a thread sequentially; the arrays
// such a thread builds (an iota, a replicate, a literal, an update, the
// result of an inner map, scan, filter, scatter or histogram, a loop's or
// an if's array result) live in global memory:
//
//   - where the array is a result of the kernel (a row of an output), it
//     is built in place there (destination passing);
//   - otherwise in scratch: a buffer the launch allocates with one row per
//     thread (the kernel's index space, b.tdims), released after the
//     launch. Its sizes must be known on the host; an array whose size is
//     computed inside the kernel (irregular) lives in a row of irregular
//     storage instead, of a capacity the run chooses (irregular below);
//     one whose size is known only after it is built is refused with
//     that reason.
//
// An array that is only a different look at another (a row, a slice, a
// reverse, a transpose, a reshape, a plain copy of a name) is a view: no
// memory, an index mapping. An update writes in place when the array
// updated is the kernel's own storage and is not used afterwards in the
// body that binds it; otherwise it copies first. Array loop parameters
// have storage of their own: the initial value is copied in, and each
// iteration's result copied back unless it was built in place.

// view is an array inside a kernel: element idx of the array is element
// at(idx) of buffer buf; shape is its dimensions, which may be computed
// inside the kernel.
type view struct {
	buf   *kernel.Param
	shape []kernel.Exp
	at    func(idx []kernel.Exp) []kernel.Exp
	// exact: any index outside shape maps outside buf's shape, so the
	// buffer's bounds checks catch it; otherwise reads and writes check.
	exact bool
	// whole: the view is a whole storage (a buffer, or a thread's row of
	// scratch, or an output row), unpermuted.
	whole bool
	// plain: at(idx) is a fixed prefix followed by idx, so the buffer's
	// check of a read reports the source's indices last.
	plain bool
}

func bufView(p *kernel.Param) view {
	return view{buf: p, shape: p.Shape, at: func(idx []kernel.Exp) []kernel.Exp { return idx }, exact: true, whole: true, plain: true}
}

func (v view) elem() kernel.Type { return v.buf.T }

// rowsOf is v with its first len(idx) indices fixed, unchecked.
func (v view) rowsOf(idx ...kernel.Exp) view {
	if len(idx) == 0 {
		return v
	}
	if len(idx) > len(v.shape) {
		fail("indexing a %d-dimensional array with %d indices", len(v.shape), len(idx))
	}
	at, pre := v.at, append([]kernel.Exp(nil), idx...)
	return view{buf: v.buf, shape: v.shape[len(idx):], exact: v.exact, plain: v.plain, at: func(rest []kernel.Exp) []kernel.Exp {
		return at(append(append([]kernel.Exp(nil), pre...), rest...))
	}}
}

// check adds a bounds check of idx against v's shape where the buffer's
// own check would not catch an index outside it, or (in a statement of
// the source, b.site) would not report it as the reference path does: the
// source's indices and the dimensions of the array they index.
func (b *kbuild) check(v view, idx []kernel.Exp) {
	if v.exact && (b.site == 0 || v.plain && len(idx) == len(v.shape)) {
		return
	}
	zero := kernel.I64C(0)
	var ok kernel.Exp
	for k, i := range idx {
		c := kernel.Bin("&&", kernel.Bin(">=", i, zero), kernel.Bin("<", i, v.shape[k]))
		if ok == nil {
			ok = c
		} else {
			ok = kernel.Bin("&&", ok, c)
		}
	}
	if ok != nil {
		b.cur = append(b.cur, &kernel.Assert{Cond: ok, Idx: idx, Shape: v.shape})
	}
}

// sub is the row (or element view) of v at idx, bounds-checked.
func (b *kbuild) sub(v view, idx ...kernel.Exp) view {
	b.check(v, idx)
	return v.rowsOf(idx...)
}

func (b *kbuild) read(v view, idx ...kernel.Exp) kernel.Exp {
	if len(idx) != len(v.shape) {
		fail("reading a %d-dimensional array with %d indices", len(v.shape), len(idx))
	}
	b.check(v, idx)
	return kernel.Rd(v.buf, v.at(idx)...)
}

func (b *kbuild) write(v view, x kernel.Exp, idx ...kernel.Exp) {
	if len(idx) != len(v.shape) {
		fail("writing a %d-dimensional array with %d indices", len(v.shape), len(idx))
	}
	if x.Type() != v.elem() {
		fail("writing a %v into an array of %v", x.Type(), v.elem())
	}
	b.check(v, idx)
	b.cur = append(b.cur, kernel.Wr(v.buf, x, v.at(idx)...))
}

// loops emits a loop nest over shape around the statements body makes
// from the loop indices.
func (b *kbuild) loops(shape []kernel.Exp, body func(idx []kernel.Exp)) {
	saved := b.cur
	b.cur = nil
	ls := make([]*kernel.Loop, len(shape))
	idx := make([]kernel.Exp, len(shape))
	for d, n := range shape {
		ls[d] = &kernel.Loop{N: toI64(n), I: b.fresh("c", kernel.I64)}
		idx[d] = ls[d].I
	}
	body(idx)
	stms := b.cur
	for d := len(ls) - 1; d >= 0; d-- {
		ls[d].Body = stms
		stms = []kernel.Stmt{ls[d]}
	}
	b.cur = append(saved, stms...)
}

// sameShape checks at run time that dst and src have the same shape
// (sizes the IR checks when run: a concat's, a reshape's).
func (b *kbuild) sameShape(dst, src view) {
	if len(dst.shape) != len(src.shape) {
		fail("copying a %d-dimensional array into a %d-dimensional one", len(src.shape), len(dst.shape))
	}
	for k := range dst.shape {
		b.cur = append(b.cur, &kernel.Assert{Cond: kernel.Bin("==", toI64(dst.shape[k]), toI64(src.shape[k]))})
	}
}

// copyTo copies src into dst, element by element.
func (b *kbuild) copyTo(dst, src view) {
	if dst.buf == src.buf && dst.whole && src.whole {
		return
	}
	b.loops(src.shape, func(idx []kernel.Exp) {
		b.write(dst, b.read(src, idx...), idx...)
	})
}

// scratch is fresh storage of elem with dimensions dims for each thread.
func (b *kbuild) scratch(name string, elem ir.Prim, dims []ir.Atom) view {
	return b.scratchOf(name, ktype(elem), dims)
}

func (b *kbuild) scratchOf(name string, elem kernel.Type, dims []ir.Atom) view {
	if b.tdims == nil {
		fail("an array (%s) built where the kernel has no thread index (in an operator)", name)
	}
	for _, d := range dims {
		if !b.f.topSize(d) {
			return b.irregular(name, elem, dims)
		}
	}
	shape := append(append([]ir.Atom(nil), b.tdims...), dims...)
	b.n++
	ks := make([]kernel.Exp, len(shape))
	for i, d := range shape {
		ks[i] = b.size(d)
	}
	p := kernel.Buf(fmt.Sprintf("s_%s_%d", cname(name), b.n), elem, ks...)
	b.addParam(p, Arg{Out: true, Scratch: true, Shape: shape})
	v := bufView(p).rowsOf(b.tidx...)
	v.whole = true
	return v
}

// irregular is storage for an array whose size is computed inside the
// kernel: a row of capacity elements per thread (a scalar parameter the
// run chooses), holding the array in row-major order. A thread whose
// array does not fit records the size it needs in a flag buffer; the run
// then launches the kernel again with a larger capacity (run.go).
func (b *kbuild) irregular(name string, elem kernel.Type, dims []ir.Atom) view {
	shape := make([]kernel.Exp, len(dims))
	for k, d := range dims {
		if !d.IsConst() && !b.f.topSize(d) {
			if _, ok := b.env[d.Name]; !ok {
				fail("an array (%s) whose size (%s) is known only after it is built is not flattened yet", name, d.Name)
			}
		}
		shape[k] = toI64(b.atom(d))
	}
	row := b.irregularRow(name, elem)
	b.fits(shape)
	return flatView(row, shape)
}

// irregularRow is a thread's row of fresh irregular storage (of the
// kernel's capacity).
func (b *kbuild) irregularRow(name string, elem kernel.Type) view {
	if b.tdims == nil {
		fail("an array (%s) built where the kernel has no thread index (in an operator)", name)
	}
	capacity := b.capacity()
	b.n++
	ks := make([]kernel.Exp, 0, len(b.tdims)+1)
	for _, d := range b.tdims {
		ks = append(ks, b.size(d))
	}
	p := kernel.Buf(fmt.Sprintf("s_%s_%d", cname(name), b.n), elem, append(ks, capacity)...)
	b.addParam(p, Arg{Out: true, Scratch: true, Shape: b.tdims, Capacity: true})
	return bufView(p).rowsOf(b.tidx...)
}

// fits records in the flag the capacity an array of the given shape
// needs when it exceeds the kernel's.
func (b *kbuild) fits(shape []kernel.Exp) {
	var total kernel.Exp = kernel.I64C(1)
	for _, d := range shape {
		total = kernel.Bin("*", total, d)
	}
	if b.flag == nil {
		b.flag = b.addParam(kernel.Buf("need", kernel.I64, kernel.I64C(1)), Arg{Out: true, Scratch: true, Flag: true})
	}
	b.cur = append(b.cur, &kernel.If{Cond: kernel.Bin(">", total, b.capacity()), Then: []kernel.Stmt{kernel.Wr(b.flag, total, kernel.I64C(0))}})
}

// flatView views a row of irregular storage as an array of the given
// shape, in row-major order.
func flatView(row view, shape []kernel.Exp) view {
	return view{buf: row.buf, shape: shape, at: func(idx []kernel.Exp) []kernel.Exp {
		var flat kernel.Exp = kernel.I64C(0)
		for k, i := range idx {
			flat = kernel.Bin("+", kernel.Bin("*", flat, shape[k]), i)
		}
		return row.at([]kernel.Exp{flat})
	}, whole: true}
}

// capacity is the scalar parameter holding the capacity of irregular
// storage.
func (b *kbuild) capacity() kernel.Exp {
	if b.capParam == nil {
		b.capParam = b.addParam(kernel.Scalar("capacity", kernel.I64), Arg{Capacity: true})
	}
	return b.capParam.V()
}

// alloc is the storage of the array variable prm: its destination when
// it has one (a row of the kernel's output), else scratch. The storage is
// the variable's own (it may be updated in place).
func (b *kbuild) alloc(prm ir.Param) view {
	if v, ok := b.dest[prm.Name]; ok {
		delete(b.dest, prm.Name)
		b.placed[prm.Name] = true
		return v
	}
	return b.scratch(prm.Name, prm.T.Elem, prm.T.Shape)
}

// bindArr binds the array variable name to v; own says v is name's own
// storage.
func (b *kbuild) bindArr(name string, v view, own bool) {
	b.views[name] = v
	b.owned[name] = own
}

// arr is the array variable name inside the kernel: a view bound in the
// kernel or a whole top-level array.
func (b *kbuild) arr(name string) view {
	if v, ok := b.views[name]; ok {
		return v
	}
	if t, ok := b.f.defs[name].(*ir.TransposeE); ok && b.viewTransposes && b.f.types[t.Arr].Rank() >= 2 && b.f.uses[t.Arr] == 1 {
		// a top-level transpose read as a view of its operand, where
		// reads are staged through local memory (tiling): no transposed
		// copy is made, on the host or the device (the operand has no
		// other use that could update it in place first)
		v := b.alias(t.Arr)
		at := v.at
		sh := append([]kernel.Exp{v.shape[1], v.shape[0]}, v.shape[2:]...)
		return view{buf: v.buf, shape: sh, exact: v.exact, at: func(idx []kernel.Exp) []kernel.Exp {
			return at(append([]kernel.Exp{idx[1], idx[0]}, idx[2:]...))
		}}
	}
	return bufView(b.buffer(name))
}

// alias is arr(name), which a new view shares: name's storage is no
// longer its own to update in place.
func (b *kbuild) alias(name string) view {
	v := b.arr(name)
	b.owned[name] = false
	return v
}

// store writes the result a (of type t) to dst: a scalar to dst's one
// element, an array copied unless it was built there.
func (b *kbuild) store(dst view, a ir.Atom, t ir.Type) {
	if t.Rank() == 0 {
		b.write(dst, b.atom(a), make([]kernel.Exp, 0)...)
		return
	}
	src := b.arr(a.Name)
	if b.placed[a.Name] && src.buf == dst.buf {
		return
	}
	b.copyTo(dst, src)
}

// place asks that the array results of body that it binds itself be
// built where they are stored: res k in dsts[k] (nil: no destination).
// A name returned twice is not placed.
func (b *kbuild) place(body *ir.Body, dsts []*view) {
	count := map[string]int{}
	for _, a := range body.Res {
		count[a.Name]++
	}
	bound := map[string]bool{}
	for _, s := range body.Stms {
		for _, p := range s.Pat {
			bound[p.Name] = true
		}
	}
	for k, a := range body.Res {
		if k < len(dsts) && dsts[k] != nil && a.Name != "" && bound[a.Name] && count[a.Name] == 1 {
			b.dest[a.Name] = *dsts[k]
		}
	}
}

// scope is a body being translated, for the in-place test.
type scope struct {
	body  *ir.Body
	pos   int
	bound map[string]bool
}

// run translates the statements of body into b.cur; bound names the
// variables bound with it (a loop's parameters).
func (b *kbuild) run(body *ir.Body, bound ...string) {
	sc := &scope{body: body, bound: map[string]bool{}}
	for _, n := range bound {
		sc.bound[n] = true
	}
	b.scopes = append(b.scopes, sc)
	defer func() { b.scopes = b.scopes[:len(b.scopes)-1] }()
	for i, s := range body.Stms {
		sc.pos = i
		b.stm(s)
		for _, p := range s.Pat {
			sc.bound[p.Name] = true
		}
	}
}

// canClobber reports whether the array variable name may be updated in
// place by the statement being translated: it is its own storage, bound
// by the current body (or as its loop's parameter), and not used after.
func (b *kbuild) canClobber(name string) bool {
	if !b.owned[name] || len(b.scopes) == 0 {
		return false
	}
	sc := b.scopes[len(b.scopes)-1]
	if !sc.bound[name] {
		return false
	}
	for _, a := range sc.body.Res {
		if a.Name == name {
			return false
		}
	}
	used := false
	for _, s := range sc.body.Stms[sc.pos+1:] {
		ir.Uses(s.E, func(n string) { used = used || n == name })
	}
	return !used
}

// arrayStm translates a statement that binds an array; it reports false
// for other statements.
func (b *kbuild) arrayStm(s *ir.Stm) bool {
	if len(s.Pat) != 1 || s.Pat[0].T.Rank() == 0 {
		return false
	}
	prm := s.Pat[0]
	switch e := s.E.(type) {
	case *ir.AtomE:
		b.bindArr(prm.Name, b.alias(e.X.Name), false)
	case *ir.IndexE:
		idx := b.indices(e.Idx)
		b.bindArr(prm.Name, b.sub(b.alias(e.Arr), idx...), false)
	case *ir.ReverseE:
		v := b.alias(e.Arr)
		at, n := v.at, v.shape[0]
		r := view{buf: v.buf, shape: v.shape, exact: v.exact, at: func(idx []kernel.Exp) []kernel.Exp {
			j := append([]kernel.Exp{kernel.Bin("-", kernel.Bin("-", n, kernel.I64C(1)), idx[0])}, idx[1:]...)
			return at(j)
		}}
		b.bindArr(prm.Name, r, false)
	case *ir.TransposeE:
		v := b.alias(e.Arr)
		if len(v.shape) < 2 {
			fail("transposing a %d-dimensional array", len(v.shape))
		}
		at := v.at
		sh := append([]kernel.Exp{v.shape[1], v.shape[0]}, v.shape[2:]...)
		r := view{buf: v.buf, shape: sh, exact: v.exact, at: func(idx []kernel.Exp) []kernel.Exp {
			return at(append([]kernel.Exp{idx[1], idx[0]}, idx[2:]...))
		}}
		b.bindArr(prm.Name, r, false)
	case *ir.SliceE:
		v := b.alias(e.Arr)
		start, n := toI64(b.atom(e.Start)), toI64(b.atom(e.Len))
		zero := kernel.I64C(0)
		b.cur = append(b.cur, &kernel.Assert{Cond: kernel.Bin("&&", kernel.Bin("&&", kernel.Bin(">=", start, zero), kernel.Bin(">=", n, zero)),
			kernel.Bin("<=", kernel.Bin("+", start, n), v.shape[0]))})
		at := v.at
		sh := append([]kernel.Exp{n}, v.shape[1:]...)
		r := view{buf: v.buf, shape: sh, at: func(idx []kernel.Exp) []kernel.Exp {
			return at(append([]kernel.Exp{kernel.Bin("+", start, idx[0])}, idx[1:]...))
		}}
		b.bindArr(prm.Name, r, false)
	case *ir.ReshapeE:
		b.bindArr(prm.Name, b.reshape(b.alias(e.Arr), b.indices(e.Shape)), false)
	case *ir.CopyE:
		dst := b.alloc(prm)
		b.copyTo(dst, b.arr(e.Arr))
		b.bindArr(prm.Name, dst, true)
	case *ir.IotaE:
		dst := b.alloc(prm)
		var start kernel.Exp = kernel.I64C(0)
		if e.Start != (ir.Atom{}) {
			start = b.atom(e.Start)
		}
		t := ktype(prm.T.Elem)
		b.loops(dst.shape, func(idx []kernel.Exp) {
			b.write(dst, kernel.Bin("+", start, convTo(t, idx[0])), idx...)
		})
		b.bindArr(prm.Name, dst, true)
	case *ir.ReplicateE:
		dst := b.alloc(prm)
		if b.isArr(e.X) {
			src := b.arr(e.X.Name)
			b.loops(dst.shape[:1], func(idx []kernel.Exp) { b.copyTo(dst.rowsOf(idx...), src) })
		} else {
			x := b.atom(e.X)
			b.loops(dst.shape, func(idx []kernel.Exp) { b.write(dst, x, idx...) })
		}
		b.bindArr(prm.Name, dst, true)
	case *ir.ArrayE:
		dst := b.alloc(prm)
		for k, a := range e.Elems {
			row := dst.rowsOf(kernel.I64C(int64(k)))
			b.store(row, a, e.Elem)
		}
		b.bindArr(prm.Name, dst, true)
	case *ir.ConcatE:
		dst := b.alloc(prm)
		var off kernel.Exp = kernel.I64C(0)
		for _, a := range e.Arrs {
			src := b.arr(a)
			at, o := dst.at, off
			part := view{buf: dst.buf, shape: src.shape, exact: false, at: func(idx []kernel.Exp) []kernel.Exp {
				return at(append([]kernel.Exp{kernel.Bin("+", o, idx[0])}, idx[1:]...))
			}}
			b.copyTo(part, src)
			off = kernel.Bin("+", off, toI64(src.shape[0]))
		}
		b.cur = append(b.cur, &kernel.Assert{Cond: kernel.Bin("==", off, toI64(dst.shape[0]))})
		b.bindArr(prm.Name, dst, true)
	case *ir.UpdateE:
		var dst view
		if b.canClobber(e.Arr) && b.dest[prm.Name].buf == nil {
			dst = b.arr(e.Arr)
		} else {
			dst = b.alloc(prm)
			b.copyTo(dst, b.arr(e.Arr))
		}
		idx := b.indices(e.Idx)
		b.boundsCheck(dst, idx)
		if b.isArr(e.X) {
			row := dst.rowsOf(idx...)
			src := b.arr(e.X.Name)
			b.sameShape(row, src)
			b.copyTo(row, src)
		} else {
			b.write(dst, b.atom(e.X), idx...)
		}
		b.bindArr(prm.Name, dst, true)
	default:
		return false
	}
	return true
}

// boundsCheck checks idx against v's shape (an update's indices, which
// the IR checks whatever the storage).
func (b *kbuild) boundsCheck(v view, idx []kernel.Exp) {
	v.exact = false
	b.check(v, idx)
}

func (b *kbuild) indices(as []ir.Atom) []kernel.Exp {
	idx := make([]kernel.Exp, len(as))
	for i, a := range as {
		idx[i] = toI64(b.atom(a))
	}
	return idx
}

// isArr reports whether the atom is an array inside the kernel.
func (b *kbuild) isArr(a ir.Atom) bool {
	if a.IsConst() {
		return false
	}
	if _, ok := b.views[a.Name]; ok {
		return true
	}
	if _, ok := b.env[a.Name]; ok {
		return false
	}
	return b.f.types[a.Name].Rank() > 0
}

// reshape views v with the given shape: an element's row-major position
// is kept. The sizes must agree (checked).
func (b *kbuild) reshape(v view, shape []kernel.Exp) view {
	var total, newTotal kernel.Exp = kernel.I64C(1), kernel.I64C(1)
	for _, d := range v.shape {
		total = kernel.Bin("*", total, toI64(d))
	}
	for _, d := range shape {
		newTotal = kernel.Bin("*", newTotal, d)
	}
	b.cur = append(b.cur, &kernel.Assert{Cond: kernel.Bin("==", total, newTotal)})
	at, old := v.at, v.shape
	return view{buf: v.buf, shape: shape, at: func(idx []kernel.Exp) []kernel.Exp {
		var flat kernel.Exp = kernel.I64C(0)
		for k, i := range idx {
			flat = kernel.Bin("+", kernel.Bin("*", flat, shape[k]), i)
		}
		out := make([]kernel.Exp, len(old))
		for k := len(old) - 1; k >= 0; k-- {
			d := toI64(old[k])
			out[k] = kernel.Bin("%", flat, d)
			flat = kernel.Bin("/", flat, d)
		}
		return at(out)
	}}
}

// convTo converts an i64 index to t.
func convTo(t kernel.Type, x kernel.Exp) kernel.Exp {
	if x.Type() == t {
		return x
	}
	return kernel.Cv(t, x)
}
