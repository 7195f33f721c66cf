package ir

import (
	"fmt"

	"fut/eval/value"
)

// SplitPartitions writes each partition (a FilterE with Partition set) as
// two filters over the same elements: one keeps those the predicate
// holds for, the other those it does not. The program computes the same
// values; the stages that know only filters (the flattener, chunked
// runs, AD) take it this way. The cost of the plan is taken before: a
// partition costs one filter.
func SplitPartitions(p *Prog) *Prog {
	if !hasPartition(p.Body) {
		return p
	}
	q := p.copyWith(subst{})
	q.Body = splitBody(q.Body, freshNames(AllTypes(q)))
	return q
}

// splitLambda is SplitPartitions for a lambda's body (whose names must
// avoid those of env and of the lambda itself).
func splitLambda(l *Lambda, env map[string]Type) *Lambda {
	if !hasPartition(l.Body) {
		return l
	}
	taken := AllTypes(&Prog{Params: l.Params, Body: l.Body})
	for n := range env {
		taken[n] = Type{}
	}
	out := subst{}.lambda(l)
	out.Body = splitBody(out.Body, freshNames(taken))
	return out
}

// freshNames makes names that none of taken's keys is.
func freshNames(taken map[string]Type) func(string) string {
	n := 0
	return func(base string) string {
		for {
			n++
			name := fmt.Sprintf("%s_p%d", base, n)
			if _, ok := taken[name]; !ok {
				taken[name] = Type{}
				return name
			}
		}
	}
}

func hasPartition(b *Body) bool {
	found := false
	eachBody(b, func(b *Body) {
		for _, st := range b.Stms {
			if f, ok := st.E.(*FilterE); ok && f.Partition {
				found = true
			}
		}
	})
	return found
}

// eachBody calls f on b and every body nested in its statements.
func eachBody(b *Body, f func(*Body)) {
	if b == nil {
		return
	}
	f(b)
	lam := func(l *Lambda) {
		if l != nil {
			eachBody(l.Body, f)
		}
	}
	for _, st := range b.Stms {
		switch e := st.E.(type) {
		case *IfE:
			eachBody(e.Then, f)
			eachBody(e.Else, f)
		case *LoopE:
			eachBody(e.While, f)
			eachBody(e.Body, f)
		case *ScremaE:
			lam(e.Map)
			for _, op := range append(append([]*SegOp{}, e.Scans...), e.Reds...) {
				lam(op.Lam)
			}
		case *ScatterE:
			lam(e.Map)
		case *HistE:
			lam(e.Map)
			lam(e.Op.Lam)
		case *FilterE:
			lam(e.Map)
		case *StreamE:
			lam(e.Fold)
			lam(e.Red)
		}
	}
}

// splitBody rewrites the partitions of b and of the bodies in it, in place.
func splitBody(b *Body, fresh func(string) string) *Body {
	eachBody(b, func(b *Body) {
		var out []*Stm
		for _, st := range b.Stms {
			e, ok := st.E.(*FilterE)
			if !ok || !e.Partition {
				out = append(out, st)
				continue
			}
			m := len(e.Map.Ret) - 1
			kept := &FilterE{W: e.W, Arrs: e.Arrs, Index: e.Index, Gens: e.Gens, Map: e.Map}
			out = append(out, &Stm{Pat: st.Pat[:m+1], E: kept, Where: st.Where})
			// the others: the same predicate, negated, over fresh names
			neg := freshLambda(e.Map, fresh)
			index := e.Index
			if index != "" {
				index = fresh(e.Index)
				neg = subst{e.Index: V(index)}.lambda(neg)
			}
			not := Param{Name: fresh("not"), T: Scalar(value.Bool)}
			neg.Body.Stms = append(neg.Body.Stms, &Stm{Pat: []Param{not}, E: &UnOpE{Op: "not", Args: []Atom{neg.Body.Res[0]}}})
			neg.Body.Res = append([]Atom{V(not.Name)}, neg.Body.Res[1:]...)
			others := &FilterE{W: e.W, Arrs: e.Arrs, Index: index, Gens: e.Gens, Map: neg}
			out = append(out, &Stm{Pat: st.Pat[m+1:], E: others, Where: st.Where})
		}
		b.Stms = out
	})
	return b
}
