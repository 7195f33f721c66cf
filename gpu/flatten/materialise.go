package flatten

import (
	"fmt"

	"fut/gpu/kernel"
	"fut/interp/ir"
)

// Array statements at the top level (iota, replicate, transpose, reverse,
// a slice, a reshape, a row, copy, concat, an update) run as kernels when
// what they read is on the device or they read nothing, so that arrays
// do not make a round trip through the host between kernels: one thread
// per element of the result, which it reads through the view the
// statement denotes (arrays.go). An update writes in place (the IR's
// update consumes its array). A statement whose result's sizes are not
// known at the top level stays on the host.

// arrayStep makes a kernel of an array statement; it reports false, and
// why, when the statement stays on the host.
func (f *flattener) arrayStep(s *ir.Stm) (ok bool, why string) {
	if len(s.Pat) != 1 || s.Pat[0].T.Rank() == 0 {
		return false, "not an array statement a kernel makes"
	}
	onDevice := func(names ...string) bool {
		for _, n := range names {
			if !f.host[n] && f.types[n].Rank() > 0 {
				return true
			}
		}
		return false
	}
	// a copy, transpose or concat of host arrays whose result a kernel
	// reads is made on the device: the host would do the array's work
	// and upload the result, the device uploads the inputs it needs
	// anyway and does the work itself
	work := f.kernelReads[s.Pat[0].Name]
	switch e := s.E.(type) {
	case *ir.IotaE, *ir.ReplicateE:
	case *ir.TransposeE:
		ok = onDevice(e.Arr) || work
	case *ir.ReverseE:
		ok = onDevice(e.Arr)
	case *ir.CopyE:
		ok = onDevice(e.Arr) || work
	case *ir.SliceE:
		ok = onDevice(e.Arr)
	case *ir.ReshapeE:
		ok = onDevice(e.Arr)
	case *ir.IndexE:
		ok = onDevice(e.Arr)
	case *ir.UpdateE:
		ok = onDevice(e.Arr)
	case *ir.ConcatE:
		ok = onDevice(e.Arrs...) || work
	case *ir.ArrayE:
		return false, "an array literal, built by the host"
	default:
		return false, fmt.Sprintf("%s is not made a kernel at the top level", expName(s.E))
	}
	if _, gen := s.E.(*ir.IotaE); !ok && !gen {
		if _, rep := s.E.(*ir.ReplicateE); !rep {
			switch s.E.(type) {
			case *ir.ReshapeE, *ir.SliceE, *ir.IndexE, *ir.ReverseE:
				return false, "a view of a host array: no array work, uploaded as it is where a kernel reads it"
			}
			if !work {
				return false, "what it reads is on the host, and no kernel reads the result"
			}
			return false, "what it reads is on the host"
		}
	}
	saved, nk := len(f.steps), f.nk
	defer func() {
		if r := recover(); r != nil {
			if _, isNF := r.(*NotFlattened); !isNF {
				panic(r)
			}
			f.steps, f.nk, ok, why = f.steps[:saved], nk, false, r.(*NotFlattened).Reason
		}
	}()
	if u, isUpdate := s.E.(*ir.UpdateE); isUpdate {
		f.update(s, u)
		return true, ""
	}
	prm := s.Pat[0]
	b := f.newKernel("array", s)
	dims := b.shape(prm.T)
	idx := make([]kernel.Var, len(dims))
	for k := range idx {
		idx[k] = b.fresh("i", kernel.I64)
	}
	b.threads(prm.T.Shape, idx...)
	is := toExps(idx)
	out := bufView(b.output(prm, false))
	switch e := s.E.(type) {
	case *ir.IotaE:
		var start kernel.Exp = kernel.I64C(0)
		if e.Start != (ir.Atom{}) {
			start = b.atom(e.Start)
		}
		b.write(out, kernel.Bin("+", start, convTo(out.elem(), is[0])), is...)
	case *ir.ReplicateE:
		if b.isArr(e.X) {
			b.write(out, b.read(b.arr(e.X.Name), is[1:]...), is...)
		} else {
			b.write(out, b.atom(e.X), is...)
		}
	case *ir.CopyE:
		b.write(out, b.read(b.arr(e.Arr), is...), is...)
	case *ir.ConcatE:
		b.concatElem(out, e, is)
	default:
		if !b.arrayStm(s) {
			fail("%s at the top level", expName(s.E))
		}
		b.write(out, b.read(b.arr(prm.Name), is...), is...)
	}
	f.emit(b, &kernel.Map{Dims: dims, Idx: idx, Body: b.cur})
	return true, ""
}

// concatElem writes element is of a concatenation: from the part whose
// rows hold is[0], found by an if per part.
func (b *kbuild) concatElem(out view, e *ir.ConcatE, is []kernel.Exp) {
	var off kernel.Exp = kernel.I64C(0)
	var parts []view
	var offs []kernel.Exp
	for _, a := range e.Arrs {
		v := b.arr(a)
		parts, offs = append(parts, v), append(offs, off)
		off = kernel.Bin("+", off, toI64(v.shape[0]))
	}
	b.cur = append(b.cur, &kernel.Assert{Cond: kernel.Bin("==", off, toI64(out.shape[0]))})
	// from the last part backwards: if is[0] >= its offset, it is there
	var stms []kernel.Stmt
	for k := len(parts) - 1; k >= 0; k-- {
		saved := b.cur
		b.cur = nil
		row := append([]kernel.Exp{kernel.Bin("-", is[0], offs[k])}, is[1:]...)
		b.write(out, b.read(parts[k], row...), is...)
		here := b.cur
		b.cur = saved
		if stms == nil {
			stms = here
			continue
		}
		stms = []kernel.Stmt{&kernel.If{Cond: kernel.Bin(">=", is[0], offs[k+1]), Then: stms, Else: here}}
	}
	b.cur = append(b.cur, stms...)
}

// update writes arr with [idx] = x in place: one thread, or one per
// element of a row.
func (f *flattener) update(s *ir.Stm, e *ir.UpdateE) {
	b := f.newKernel("update", s)
	dest := bufView(b.inPlace(e.Arr, s.Pat[0]))
	at := b.indices(e.Idx)
	if !b.isArr(e.X) {
		j := b.fresh("j", kernel.I64)
		b.write(dest, b.atom(e.X), at...)
		f.emit(b, &kernel.Map{Dims: []kernel.Exp{kernel.I64C(1)}, Idx: []kernel.Var{j}, Body: b.cur})
		return
	}
	src := b.arr(e.X.Name)
	row := b.sub(dest, at...)
	idx := make([]kernel.Var, len(src.shape))
	for k := range idx {
		idx[k] = b.fresh("i", kernel.I64)
	}
	b.sameShape(row, src)
	b.write(row, b.read(src, toExps(idx)...), toExps(idx)...)
	f.emit(b, &kernel.Map{Dims: src.shape, Idx: idx, Body: b.cur})
}

// kernelReads is the set of top-level names whose values a kernel will
// read: those a statement with SOACs uses, and what the statements
// binding those use, transitively (an over-approximation: a scalar that
// a kernel takes as a size marks what computed it too).
func kernelReads(b *ir.Body) map[string]bool {
	reads := map[string]bool{}
	for i := len(b.Stms) - 1; i >= 0; i-- {
		s := b.Stms[i]
		feeds := hasSOAC(s.E)
		for _, p := range s.Pat {
			feeds = feeds || reads[p.Name]
		}
		if feeds {
			ir.Uses(s.E, func(n string) { reads[n] = true })
		}
	}
	return reads
}

// dropDead removes the top-level kernels whose results nothing uses (a
// replicate whose only use was as a neutral element the kernel took as a
// scalar, say). A kernel that updates an input in place is kept.
func dropDead(p *ir.Prog, steps []Step) []Step {
	for {
		used := map[string]bool{}
		for _, a := range p.Body.Res {
			used[a.Name] = true
		}
		usesOf(steps, used)
		var kept []Step
		for _, st := range steps {
			if st.Kernel != nil && !binds(st) && !anyUsed(st, used) {
				continue
			}
			if st.Host != nil && !used[st.Host.Pat[0].Name] {
				if _, pure := st.Host.E.(*ir.TransposeE); pure {
					continue // a transpose that kernels read as a view
				}
			}
			kept = append(kept, st)
		}
		if len(kept) == len(steps) {
			return steps
		}
		steps = kept
	}
}

func binds(st Step) bool {
	for _, a := range st.Args {
		if a.Binds != "" {
			return true
		}
	}
	return false
}

func anyUsed(st Step, used map[string]bool) bool {
	for _, a := range st.Args {
		if a.Out && !a.Scratch && used[a.Var] {
			return true
		}
	}
	return false
}

// usesOf adds the names the steps read (over-approximated for loops and
// ifs: every name in them).
func usesOf(steps []Step, used map[string]bool) {
	add := func(ns []string) {
		for _, n := range ns {
			used[n] = true
		}
	}
	for _, st := range steps {
		switch {
		case st.Kernel != nil:
			for _, a := range st.Args {
				if !a.Out {
					used[a.Var] = true
				}
				for _, d := range a.Shape {
					used[d.Name] = true
				}
			}
		case st.Loop != nil:
			add(stmNames(&ir.Stm{Pat: st.Loop.Pat, E: st.Loop.E}))
			usesOf(st.Loop.While, used)
			usesOf(st.Loop.Body, used)
		case st.If != nil:
			add(stmNames(&ir.Stm{Pat: st.If.Pat, E: st.If.E}))
			usesOf(st.If.Then, used)
			usesOf(st.If.Else, used)
		default:
			add(stmNames(st.Host))
		}
	}
}
