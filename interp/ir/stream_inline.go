package ir

// InlineStreams writes each stream (reduce_stream, map_stream) as its
// fold applied once, to the whole of its arrays: the chunk is W and the
// chunk's arrays are the arrays themselves. Any division into chunks
// gives the same value (the fold is a homomorphism with the operator),
// so one chunk is a valid schedule; what the fold's body does (maps,
// reductions, scans over the chunk) is then flattened like any other
// code, where a kernel of fixed chunks per thread would run the fold
// sequentially. The flattener takes streams this way; the cost of the
// plan is taken before, from the streams as written.
func InlineStreams(p *Prog) *Prog {
	if !hasStream(p.Body) {
		return p
	}
	q := p.copyWith(subst{})
	eachBody(q.Body, func(b *Body) {
		// until none is left: a fold's body may hold streams of its own
		for again := true; again; {
			again = false
			var out []*Stm
			for _, st := range b.Stms {
				e, ok := st.E.(*StreamE)
				if !ok {
					out = append(out, st)
					continue
				}
				out = append(out, inlineStream(st, e)...)
				again = true
			}
			b.Stms = out
		}
	})
	return q
}

func hasStream(b *Body) bool {
	found := false
	eachBody(b, func(b *Body) {
		for _, st := range b.Stms {
			if _, ok := st.E.(*StreamE); ok {
				found = true
			}
		}
	})
	return found
}

// inlineStream is the statements of one stream's fold over the whole
// arrays, then its results bound to the stream's pattern.
func inlineStream(st *Stm, e *StreamE) []*Stm {
	s := subst{e.Fold.Params[0].Name: e.W}
	inputs := map[string]bool{}
	for i, prm := range e.Fold.Params[1:] {
		s[prm.Name] = V(e.Arrs[i])
		inputs[e.Arrs[i]] = true
	}
	body := s.body(e.Fold.Body)
	out := append([]*Stm{}, body.Stms...)
	for i, prm := range st.Pat {
		var x Exp = &AtomE{X: body.Res[i]}
		if r := body.Res[i]; r.Name != "" && inputs[r.Name] && prm.T.Rank() > 0 {
			x = &CopyE{Arr: r.Name} // a stream's result is its own array
		}
		out = append(out, &Stm{Pat: []Param{prm}, E: x, Where: st.Where})
	}
	return out
}
