package flatten

import (
	"fmt"
	"sort"

	"fut/interp/ir"
)

// Map distribution (the thesis's kernel extraction, its simplest rule):
// a map whose body holds inner SOACs but is not one perfect nest
//
//	map (\x -> let s = reduce (+) 0 x
//	           let y = map (/ s) x
//	           in  y) xss
//
// is split into one map per group of its statements, each inner SOAC a
// group of its own and the statements between them grouped, the
// variables that cross a group boundary expanded into arrays with one
// row per element of the outer map:
//
//	let ss = map (\x -> reduce (+) 0 x) xss       -- a segmented reduction
//	let ys = map (\x s -> map (/ s) x) xss ss     -- a two-level map nest
//
// Each new map then flattens on its own (a perfect nest, a segmented
// reduction, or a thread-sequential inner SOAC), so the inner SOACs'
// parallelism is used instead of running them in one thread per outer
// element. Distribution is refused (and the body runs in a thread) when
// a crossing variable's size is not known at the top level, or the body
// is one group anyway.

// distribute returns the statements a map distributes into, or nil.
func (f *flattener) distribute(s *ir.Stm, e *ir.ScremaE) []*ir.Stm {
	if len(e.Scans)+len(e.Reds) > 0 {
		return nil
	}
	hoisted, body := hoist(e)
	done := func() []*ir.Stm { // only the hoisting
		if len(hoisted) == 0 {
			return nil
		}
		m := *e
		m.Map = &ir.Lambda{Params: e.Map.Params, Ret: e.Map.Ret, Body: body}
		return append(hoisted, &ir.Stm{Pat: s.Pat, E: &m})
	}
	var groups [][]*ir.Stm
	soacs := 0
	open := false // the last group takes more statements
	for _, st := range body.Stms {
		if f.parallelInner(st, hoisted) || f.interchangeable(st, hoisted) || f.segHistInner(e, st, hoisted) {
			groups = append(groups, []*ir.Stm{st})
			soacs++
			open = false
			continue
		}
		if !open {
			groups = append(groups, nil)
			open = true
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], st)
	}
	groups = mergeScalars(groups, body.Res)
	if soacs == 0 || len(groups) > maxGroups {
		return done()
	}
	if len(groups) == 1 && !loopOnly(groups[0]) {
		// Scalar statements, then the inner SOAC: a perfect nest if the
		// body returns what the SOAC binds. Distributing is progress
		// only when it then returns exactly that, with the rest (rows of
		// the arrays, variables of the top level) copied beside it.
		last := groups[0][len(groups[0])-1]
		if _, ok := last.E.(*ir.ScremaE); !ok || sameAtoms(body.Res, last.Pat) || !returnsAllOf(body.Res, groups[0], last) {
			return done()
		}
	}
	// used[g]: the names groups after g and the results use
	later := make([]map[string]bool, len(groups))
	acc := map[string]bool{}
	for _, a := range body.Res {
		acc[a.Name] = true
	}
	for g := len(groups) - 1; g >= 0; g-- {
		later[g] = map[string]bool{}
		for n := range acc {
			later[g][n] = true
		}
		for _, st := range groups[g] {
			ir.Uses(st.E, func(n string) { acc[n] = true })
			for _, p := range st.Pat {
				for _, d := range p.T.Shape {
					acc[d.Name] = true
				}
			}
		}
	}
	param := map[string]int{}
	for t, p := range e.Map.Params {
		param[p.Name] = t
	}
	// the statement's own names for the body's results
	resultName := map[string]string{}
	for k, a := range body.Res {
		if _, taken := resultName[a.Name]; a.Name != "" && !taken {
			resultName[a.Name] = s.Pat[k].Name
		}
	}
	expanded := map[string]ir.Param{} // a body variable → its array
	out := hoisted
	// expand names the array of a crossing variable
	expand := func(p ir.Param) (ir.Param, bool) {
		for _, d := range p.T.Shape {
			if !d.IsConst() && !f.topSize(d) && !isHoisted(hoisted, d.Name) {
				return ir.Param{}, false // a crossing array of irregular size
			}
		}
		name := resultName[p.Name]
		if name == "" {
			f.nk++
			name = fmt.Sprintf("dist_%d_%s", f.nk, p.Name)
		}
		return ir.Param{Name: name, T: ir.Type{Elem: p.T.Elem, Shape: append([]ir.Atom{e.W}, p.T.Shape...)}}, true
	}
	for g, stms := range groups {
		if l, ok := stms[0].E.(*ir.LoopE); ok && len(stms) == 1 && f.interchangeable(stms[0], hoisted) {
			ss, ok := f.interchange(e, stms[0], l, expanded, expand)
			if !ok {
				return done()
			}
			out = append(out, ss...)
			continue
		}
		lam := &ir.Lambda{Body: &ir.Body{Stms: stms}}
		st := &ir.Stm{}
		used := map[string]bool{}
		for _, x := range stms {
			ir.Uses(x.E, func(n string) { used[n] = true })
		}
		se := f.mapOver(e, lam, used, expanded)
		for _, x := range stms {
			for _, p := range x.Pat {
				if !later[g][p.Name] {
					continue
				}
				xp, ok := expand(p)
				if !ok {
					return done()
				}
				expanded[p.Name] = xp
				lam.Body.Res = append(lam.Body.Res, ir.V(p.Name))
				lam.Ret = append(lam.Ret, p.T)
				st.Pat = append(st.Pat, xp)
			}
		}
		if len(st.Pat) == 0 {
			continue // nothing of it is used
		}
		st.E = se
		out = append(out, st)
	}
	// results that are not built by the body: a parameter's row, a
	// variable of the top level, a constant, or a result given twice
	for k, a := range body.Res {
		prm := s.Pat[k]
		switch x, ok := expanded[a.Name]; {
		case ok && x.Name == prm.Name:
		case ok:
			out = append(out, &ir.Stm{Pat: []ir.Param{prm}, E: &ir.CopyE{Arr: x.Name}})
		case a.Name != "" && isParamName(param, a.Name):
			out = append(out, &ir.Stm{Pat: []ir.Param{prm}, E: &ir.CopyE{Arr: e.Arrs[param[a.Name]]}})
		default:
			out = append(out, &ir.Stm{Pat: []ir.Param{prm}, E: &ir.ReplicateE{N: e.W, X: a}})
		}
	}
	return out
}

// loopOnly reports whether a group is one loop (to interchange).
func loopOnly(g []*ir.Stm) bool {
	_, ok := g[0].E.(*ir.LoopE)
	return ok && len(g) == 1
}

// returnsAllOf reports whether the results res name, of what the group
// binds, exactly the variables last binds.
func returnsAllOf(res []ir.Atom, group []*ir.Stm, last *ir.Stm) bool {
	bound := map[string]bool{}
	for _, st := range group {
		for _, p := range st.Pat {
			bound[p.Name] = true
		}
	}
	inRes := map[string]bool{}
	for _, a := range res {
		if bound[a.Name] {
			inRes[a.Name] = true
		}
	}
	if len(inRes) != len(last.Pat) {
		return false
	}
	for _, p := range last.Pat {
		if !inRes[p.Name] {
			return false
		}
	}
	return true
}

// mergeScalars joins a group of scalar statements to the inner map,
// reduction or scan after it when nothing after that uses what the
// group binds: the pair is then one perfect nest, one kernel instead of
// two and no array for the group's results.
func mergeScalars(groups [][]*ir.Stm, res []ir.Atom) [][]*ir.Stm {
	isSOAC := func(g []*ir.Stm) bool {
		_, ok := g[len(g)-1].E.(*ir.ScremaE)
		return ok && len(g) == 1
	}
	var out [][]*ir.Stm
	for g := 0; g < len(groups); g++ {
		_, loop := groups[g][0].E.(*ir.LoopE) // maybe interchanged: kept apart
		if g+1 < len(groups) && !isSOAC(groups[g]) && isSOAC(groups[g+1]) && !(loop && len(groups[g]) == 1) {
			{
				used := map[string]bool{}
				for _, a := range res {
					used[a.Name] = true
				}
				for _, later := range groups[g+2:] {
					for _, st := range later {
						ir.Uses(st.E, func(n string) { used[n] = true })
					}
				}
				free := true // and binds scalars only, as a perfect nest must
				for _, st := range groups[g] {
					_, row := st.E.(*ir.IndexE)
					for _, p := range st.Pat {
						free = free && !used[p.Name] && (p.T.Rank() == 0 || row)
					}
				}
				if free {
					out = append(out, append(append([]*ir.Stm(nil), groups[g]...), groups[g+1]...))
					g++
					continue
				}
			}
		}
		out = append(out, groups[g])
	}
	return out
}

// mapOver makes a map over e's elements with the lambda lam (its body and
// results set by the caller, its parameters here): a row of each of e's
// arrays whose parameter used names, and of each expanded variable it
// uses.
func (f *flattener) mapOver(e *ir.ScremaE, lam *ir.Lambda, used map[string]bool, expanded map[string]ir.Param) *ir.ScremaE {
	se := &ir.ScremaE{W: e.W, Index: e.Index, Map: lam}
	for t, p := range e.Map.Params {
		if used[p.Name] {
			lam.Params = append(lam.Params, p)
			se.Arrs = append(se.Arrs, e.Arrs[t])
		}
	}
	names := make([]string, 0, len(used))
	for n := range used {
		names = append(names, n)
	}
	sort.Strings(names) // plans must not depend on map order
	for _, n := range names {
		if x, ok := expanded[n]; ok {
			lam.Params = append(lam.Params, ir.Param{Name: n, T: rowType(x.T)})
			se.Arrs = append(se.Arrs, x.Name)
		}
	}
	return se
}

// interchangeable reports whether a statement of a map's body is a loop
// to interchange with the map: a for loop whose count is known outside
// the map and whose body holds an inner SOAC that distribution makes
// parallel. Its parameters become arrays with a row per element, and
// each iteration a map over them (the thesis's loop–map interchange).
func (f *flattener) interchangeable(st *ir.Stm, hoisted []*ir.Stm) bool {
	l, ok := st.E.(*ir.LoopE)
	if !ok || l.While != nil || len(l.Over) > 0 {
		return false
	}
	if !l.Bound.IsConst() && !f.topSize(l.Bound) && !isHoisted(hoisted, l.Bound.Name) {
		return false
	}
	for _, b := range l.Body.Stms {
		if f.parallelInner(b, hoisted) {
			return true
		}
	}
	return false
}

// interchange turns the loop st of e's body into top-level statements: a
// map computing each element's initial values, and a loop whose body is
// a map of the loop's body over the elements and the parameters' rows.
func (f *flattener) interchange(e *ir.ScremaE, st *ir.Stm, l *ir.LoopE, expanded map[string]ir.Param, expand func(ir.Param) (ir.Param, bool)) ([]*ir.Stm, bool) {
	var out []*ir.Stm
	// the initial values, one row per element
	initLam := &ir.Lambda{Body: &ir.Body{Res: l.Init}}
	used := map[string]bool{}
	for _, a := range l.Init {
		used[a.Name] = true
	}
	initMap := f.mapOver(e, initLam, used, expanded)
	initStm := &ir.Stm{E: initMap}
	accs := make([]ir.Param, len(l.Params))
	for k, p := range l.Params {
		f.nk++
		x, ok := expand(ir.Param{Name: fmt.Sprintf("init_%d_%s", f.nk, p.Name), T: p.T})
		if !ok {
			return nil, false
		}
		initStm.Pat = append(initStm.Pat, x)
		initLam.Ret = append(initLam.Ret, p.T)
		f.nk++
		accs[k] = ir.Param{Name: fmt.Sprintf("acc_%d_%s", f.nk, p.Name), T: x.T}
	}
	out = append(out, initStm)
	// the loop over a map of its body
	bodyLam := &ir.Lambda{Body: l.Body, Ret: make([]ir.Type, len(l.Params))}
	used = map[string]bool{}
	for _, b := range l.Body.Stms {
		ir.Uses(b.E, func(n string) { used[n] = true })
	}
	for _, a := range l.Body.Res {
		used[a.Name] = true
	}
	bodyMap := f.mapOver(e, bodyLam, used, expanded)
	next := &ir.Stm{E: bodyMap}
	for k, p := range l.Params {
		bodyLam.Params = append(bodyLam.Params, p)
		bodyMap.Arrs = append(bodyMap.Arrs, accs[k].Name)
		bodyLam.Ret[k] = p.T
		f.nk++
		next.Pat = append(next.Pat, ir.Param{Name: fmt.Sprintf("next_%d_%s", f.nk, p.Name), T: accs[k].T})
	}
	loop := &ir.LoopE{Params: accs, I: l.I, Bound: l.Bound, Body: &ir.Body{Stms: []*ir.Stm{next}}}
	for k := range l.Params {
		loop.Init = append(loop.Init, ir.V(initStm.Pat[k].Name))
		loop.Body.Res = append(loop.Body.Res, ir.V(next.Pat[k].Name))
	}
	ls := &ir.Stm{E: loop}
	for _, p := range st.Pat {
		x, ok := expand(p)
		if !ok {
			return nil, false
		}
		expanded[p.Name] = x
		ls.Pat = append(ls.Pat, x)
	}
	return append(out, ls), true
}

// minParallelWidth is the narrowest inner SOAC of a width fixed in the
// program that distribution makes a parallel level: narrower ones (the
// dot products of 4×4 matrices, say) cost less in the thread than as
// kernels of their own.
const minParallelWidth = 32

// maxGroups bounds the maps one distribution makes: a body with more
// parallel inner SOACs runs in a thread rather than as that many kernels
// (each built once, and launched per call).
const maxGroups = 24

// parallelInner reports whether a statement of a map's body is an inner
// SOAC that distribution makes parallel: a map, or a reduction or scan
// of scalars from neutral elements known outside the map (a segmented
// reduction or scan), over a width known at the top level. Other inner
// SOACs (reductions of arrays or from a neutral element that depends on
// the element, filters, histograms) run in a thread, with the statements
// around them.
func (f *flattener) parallelInner(st *ir.Stm, hoisted []*ir.Stm) bool {
	e, ok := st.E.(*ir.ScremaE)
	if !ok || len(e.Scans) > 0 && len(e.Reds) > 0 {
		return false
	}
	known := func(a ir.Atom) bool {
		return a.IsConst() || f.topSize(a) || isHoisted(hoisted, a.Name)
	}
	if !known(e.W) || e.W.IsConst() && e.W.Val.AsInt64() < minParallelWidth {
		return false
	}
	if len(e.Reds) == 0 && len(e.Scans) == 0 {
		return true
	}
	if !scalarRets(e.Map) || arity(e.Scans)+arity(e.Reds) != len(e.Map.Ret) {
		return false
	}
	for _, op := range append(append([]*ir.SegOp(nil), e.Scans...), e.Reds...) {
		for _, ne := range op.Nes {
			if !known(ne) {
				return false
			}
		}
	}
	return true
}

// hoist splits a map's body into the statements that do not depend on
// the element (hoisted to the top level, computed once) and the rest.
func hoist(e *ir.ScremaE) (hoisted []*ir.Stm, rest *ir.Body) {
	variant := map[string]bool{}
	if e.Index != "" {
		variant[e.Index] = true
	}
	for _, p := range e.Map.Params {
		variant[p.Name] = true
	}
	rest = &ir.Body{Res: e.Map.Body.Res}
	for _, st := range e.Map.Body.Stms {
		dep := false
		ir.Uses(st.E, func(n string) { dep = dep || variant[n] })
		for _, p := range st.Pat {
			for _, d := range p.T.Shape {
				dep = dep || variant[d.Name]
			}
		}
		if !dep {
			hoisted = append(hoisted, st)
			continue
		}
		for _, p := range st.Pat {
			variant[p.Name] = true
		}
		rest.Stms = append(rest.Stms, st)
	}
	return hoisted, rest
}

func isHoisted(stms []*ir.Stm, name string) bool {
	for _, st := range stms {
		for _, p := range st.Pat {
			if p.Name == name {
				return true
			}
		}
	}
	return false
}

func isParamName(param map[string]int, n string) bool {
	_, ok := param[n]
	return ok
}

// rowType is the type of a row of an array of type t.
func rowType(t ir.Type) ir.Type {
	return ir.Type{Elem: t.Elem, Shape: t.Shape[1:]}
}
