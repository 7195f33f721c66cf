package ir

import "fut/eval/value"

// Picks: a result of the SOAC that the statements after it only index,
// at indices that do not depend on what the SOAC computes (s[n/2] and
// s[n-1] of a scan s), need not come back to the host whole: a chunked
// run computes the indices first (IndexProg), reads only those elements
// of each chunk, and runs FinishPicked, which takes the elements in place
// of the arrays. Futhark would not copy such an array to the host
// either.

// Pick is one element that the statements after the SOAC read.
type Pick struct {
	Res  int    // the result's position in Soac.Pat
	Name string // the scalar that the index statement binds
	Rank int    // the number of indices (the result's rank)
	stm  *Stm
}

// Picks are the elements that the statements after the SOAC read of the
// results that they only index (none where some result is used
// otherwise: those come back whole). Results of a Screma only (its map
// and scan arrays), one-dimensional, of a primitive type that is not f16.
func (c *Chunks) Picks() []Pick {
	if c.picks != nil {
		return *c.picks
	}
	var picks []Pick
	c.picks = &picks
	e, ok := c.Soac.E.(*ScremaE)
	if !ok {
		return nil
	}
	nReds := 0
	for _, op := range e.Reds {
		nReds += len(op.Nes)
	}
	nScans := 0
	for _, op := range e.Scans {
		nScans += len(op.Nes)
	}
	// the names known before the SOAC: the parameters it does not stream
	// and what is computed from them alone
	early := map[string]bool{}
	for i, prm := range c.Prog.Params {
		if !c.Streamed[i] {
			early[prm.Name] = true
		}
	}
	for _, st := range append(append([]*Stm{}, c.pre...), c.post...) {
		all := true
		for n := range freeVars(st.E) {
			if !early[n] {
				all = false
			}
		}
		if all {
			for _, p := range st.Pat {
				early[p.Name] = true
			}
		}
	}
	results := map[string]bool{}
	for _, a := range c.Prog.Body.Res {
		results[a.Name] = true
	}
	for _, t := range c.Prog.Ret {
		for _, d := range t.Shape {
			results[d.Name] = true
		}
	}
	for ri, p := range c.Soac.Pat {
		if ri >= nScans && ri < nScans+nReds {
			continue // a reduction's value
		}
		if p.T.Rank() != 1 || p.T.Elem == value.NoPrim || results[p.Name] {
			continue
		}
		var mine []Pick
		ok := true
		for _, st := range c.post {
			if !freeVars(st.E)[p.Name] {
				continue
			}
			ix, isIndex := st.E.(*IndexE)
			if !isIndex || ix.Arr != p.Name || len(ix.Idx) != p.T.Rank() || len(st.Pat) != 1 {
				ok = false
				break
			}
			for _, a := range ix.Idx {
				if a.Name != "" && !early[a.Name] {
					ok = false
				}
			}
			mine = append(mine, Pick{Res: ri, Name: st.Pat[0].Name, Rank: len(ix.Idx), stm: st})
		}
		if ok && len(mine) > 0 && !isF16(p.T) {
			picks = append(picks, mine...)
		}
	}
	return picks
}

func isF16(t Type) bool { return t.Elem == value.F16 }

// Picked says whether the SOAC's result at ri is read only by picks.
func (c *Chunks) Picked(ri int) bool {
	for _, pk := range c.Picks() {
		if pk.Res == ri {
			return true
		}
	}
	return false
}

// IndexProg computes the indices of the picks, in order (Rank atoms
// each), from the parameters that are not streamed (as Finish takes
// them).
func (c *Chunks) IndexProg() *Prog {
	var params []Param
	for i, prm := range c.Prog.Params {
		if !c.Streamed[i] {
			params = append(params, prm)
		}
	}
	need := map[string]bool{}
	var res []Atom
	var ret []Type
	for _, pk := range c.Picks() {
		for _, a := range pk.stm.E.(*IndexE).Idx {
			res = append(res, a)
			ret = append(ret, Scalar(value.I64))
			if a.Name != "" {
				need[a.Name] = true
			}
		}
	}
	stms := c.needed(append(append([]*Stm{}, c.pre...), c.post...), need, "")
	return &Prog{Params: params, Ret: ret, Body: &Body{Stms: stms, Res: res}}
}

// FinishPicked is Finish for a run that reads the picks only: its
// parameters are the SOAC's results that are not picked, then one scalar
// per pick, then the parameters that are not streamed.
func (c *Chunks) FinishPicked() *Prog {
	f := c.Finish()
	picks := c.Picks()
	drop := map[*Stm]bool{}
	var pickParams []Param
	for _, pk := range picks {
		drop[pk.stm] = true
		pickParams = append(pickParams, pk.stm.Pat[0])
	}
	var params []Param
	for ri, p := range f.Params[:len(c.Soac.Pat)] {
		if !c.Picked(ri) {
			params = append(params, p)
		}
	}
	params = append(append(params, pickParams...), f.Params[len(c.Soac.Pat):]...)
	var stms []*Stm
	for _, st := range f.Body.Stms {
		if !drop[st] {
			stms = append(stms, st)
		}
	}
	return &Prog{Params: params, Ret: f.Ret, Body: &Body{Stms: stms, Res: f.Body.Res}}
}
