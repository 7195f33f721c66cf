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
	open := false
	for _, st := range body.Stms {
		if f.parallelInner(st, hoisted) {
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
	if soacs == 0 || len(groups) < 2 {
		return done()
	}
	if len(groups) == 2 && soacs == 1 && !open && sameAtoms(body.Res, groups[1][0].Pat) {
		return done() // scalar statements, then the inner SOAC: a perfect nest
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
	for g, stms := range groups {
		lam := &ir.Lambda{Body: &ir.Body{Stms: stms}}
		st := &ir.Stm{}
		se := &ir.ScremaE{W: e.W, Index: e.Index, Map: lam}
		used := map[string]bool{}
		for _, x := range stms {
			ir.Uses(x.E, func(n string) { used[n] = true })
		}
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
		for _, x := range stms {
			for _, p := range x.Pat {
				if !later[g][p.Name] {
					continue
				}
				for _, d := range p.T.Shape {
					if !d.IsConst() && !f.topSize(d) && !isHoisted(hoisted, d.Name) {
						return done() // a crossing array of irregular size
					}
				}
				name := resultName[p.Name]
				if name == "" {
					f.nk++
					name = fmt.Sprintf("dist_%d_%s", f.nk, p.Name)
				}
				xp := ir.Param{Name: name, T: ir.Type{Elem: p.T.Elem, Shape: append([]ir.Atom{e.W}, p.T.Shape...)}}
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
	if !known(e.W) {
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
