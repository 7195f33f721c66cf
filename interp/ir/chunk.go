package ir

import (
	"context"
	"fmt"
	"strconv"

	"fut/eval/value"
)

// Chunks describes how a program runs over the outer dimension of its
// large arrays in pieces, for data larger than a device's memory (the
// streams of Madsen et al.): the one SOAC statement of the program's top
// level reads its arrays (the streamed parameters) a chunk at a time, and
// what it produces is carried from chunk to chunk.
//
//   - a map's arrays are the chunks' arrays one after the other;
//   - a reduction's value is combined across chunks by its operator
//     (Combine runs it on the host, in the order of the chunks);
//   - a scan's prefix carries into the next chunk: the chunk program
//     takes the prefix so far (the carry) and applies the operator to it
//     and each element of its scan;
//   - a filter's kept elements are appended (the output offset carries);
//   - a histogram's or a scatter's destination stays where it is (on the
//     device) and every chunk updates it: Init makes it once; when it is
//     the array that does not fit, it is divided into parts of rows and
//     every chunk passes over each part (ChunkDest);
//   - a stream's chunks are the stream's own: each runs the fold, and a
//     reduce_stream's values are combined by its operator as a
//     reduction's, a map_stream's arrays follow one another as a map's.
//
// What comes before the SOAC (cheap statements: no SOAC, loop or branch)
// runs in every chunk; what comes after (cheap statements too, over the
// SOAC's results) runs once, on the whole results, in Finish.
type Chunks struct {
	Prog     *Prog
	N        int64  // the SOAC's width: the streamed arrays' outer size
	Streamed []bool // per Prog.Params: read a chunk at a time
	Soac     *Stm   // the SOAC statement
	// Dest is a histogram's or a scatter's destination ("" otherwise);
	// DestParam says it is a parameter of the program (not made by Init).
	Dest      string
	DestParam bool
	// Whole are the streamed arrays that the SOAC also reads whole inside
	// (an all-pairs nest: n-body's bodies), made only by ChunkableSplit:
	// every chunk program takes each whole too, as a last parameter of
	// the given name, which the SOAC's lambdas read in its place.
	Whole     []WholeArg
	pre, post []*Stm
	picks     *[]Pick // Picks, once computed
	names     map[string]bool
	n         int
}

// WholeArg is a streamed parameter that chunks also take whole.
type WholeArg struct {
	Param int    // its index in Prog.Params
	Name  string // the chunk program's parameter that holds it whole
}

// Chunkable says how p runs in chunks, or why it cannot.
func Chunkable(p *Prog) (*Chunks, error) { return chunkable(p, false, nil) }

// ChunkableSplit is Chunkable for a run split across devices, where
// every device may hold an array whole besides its chunks: a streamed
// array that the SOAC also reads whole inside (an all-pairs nest) is
// given whole to every chunk (Whole) instead of refusing the program.
// sizes are the values of the program's scalar parameters that a run
// has (the SOAC's width may be one: mandelbrot's rows).
func ChunkableSplit(p *Prog, sizes map[string]int64) (*Chunks, error) {
	return chunkable(p, true, sizes)
}

func chunkable(p *Prog, allowWhole bool, sizes map[string]int64) (*Chunks, error) {
	known := func(a Atom) (int64, bool) {
		if a.IsConst() {
			return a.Val.AsInt64(), true
		}
		x, ok := sizes[a.Name]
		return x, ok
	}
	p = SplitPartitions(p)
	c := &Chunks{Prog: p, Streamed: make([]bool, len(p.Params)), names: allNames(p)}
	at := -1
	for i, st := range p.Body.Stms {
		switch st.E.(type) {
		case *ScremaE, *FilterE, *HistE, *ScatterE, *StreamE:
			if at >= 0 {
				return nil, fmt.Errorf("more than one SOAC at the top level")
			}
			at = i
		case *LoopE, *IfE:
			return nil, fmt.Errorf("a loop or branch at the top level")
		}
	}
	if at < 0 {
		return nil, fmt.Errorf("no SOAC at the top level")
	}
	c.Soac = p.Body.Stms[at]
	c.pre, c.post = p.Body.Stms[:at], p.Body.Stms[at+1:]
	w, arrs := soacWidth(c.Soac.E)
	if x, ok := known(w); !ok || x <= 0 {
		return nil, fmt.Errorf("the SOAC's width is not a known positive size")
	}
	c.N, _ = known(w)
	param := map[string]int{}
	for i, prm := range p.Params {
		param[prm.Name] = i
	}
	for _, a := range arrs {
		i, ok := param[a]
		if !ok {
			return nil, fmt.Errorf("the SOAC reads %s, an array the program makes (only parameters are streamed)", a)
		}
		c.Streamed[i] = true
	}
	switch e := c.Soac.E.(type) {
	case *HistE:
		c.Dest = e.Dest
	case *ScatterE:
		c.Dest = e.Dest
	}
	if c.Dest != "" {
		if i, ok := param[c.Dest]; ok {
			if c.Streamed[i] {
				return nil, fmt.Errorf("the destination %s is also read as an input", c.Dest)
			}
			c.DestParam = true
		}
	}
	streamed := map[string]bool{}
	for i, prm := range p.Params {
		if c.Streamed[i] {
			streamed[prm.Name] = true
			if prm.T.Rank() == 0 {
				return nil, fmt.Errorf("the streamed array %s is not of the SOAC's width", prm.Name)
			}
			if x, ok := known(prm.T.Shape[0]); !ok || x != c.N {
				return nil, fmt.Errorf("the streamed array %s is not of the SOAC's width", prm.Name)
			}
		}
	}
	// a streamed array read whole inside the SOAC (an all-pairs nest)
	// would be only its chunk there
	var inner []*Lambda
	switch e := c.Soac.E.(type) {
	case *ScremaE:
		inner = append(inner, e.Map)
		for _, op := range append(append([]*SegOp{}, e.Scans...), e.Reds...) {
			inner = append(inner, op.Lam)
		}
	case *FilterE:
		inner = append(inner, e.Map)
	case *HistE:
		inner = append(inner, e.Map, e.Op.Lam)
	case *ScatterE:
		inner = append(inner, e.Map)
	case *StreamE:
		inner = append(inner, e.Fold, e.Red)
	}
	readWhole := map[string]bool{}
	for _, l := range inner {
		if l == nil {
			continue
		}
		for _, st := range l.Body.Stms {
			for n := range freeVars(st.E) {
				if streamed[n] {
					readWhole[n] = true
				}
			}
		}
		for _, a := range l.Body.Res {
			if streamed[a.Name] {
				readWhole[a.Name] = true
			}
		}
	}
	if len(readWhole) > 0 {
		if !allowWhole {
			for i, prm := range p.Params {
				if readWhole[prm.Name] {
					return nil, fmt.Errorf("%s is read whole inside the SOAC", p.Params[i].Name)
				}
			}
		}
		// the lambdas read the whole array under a name of its own
		s := subst{}
		for i, prm := range p.Params {
			if readWhole[prm.Name] {
				w := WholeArg{Param: i, Name: c.fresh(prm.Name + "_whole")}
				c.Whole = append(c.Whole, w)
				s[prm.Name] = V(w.Name)
			}
		}
		c.Soac = &Stm{Pat: c.Soac.Pat, E: renameInside(c.Soac.E, s), Where: c.Soac.Where}
	}
	for _, st := range append(append([]*Stm{}, c.pre...), c.post...) {
		switch st.E.(type) {
		case *ScremaE, *FilterE, *HistE, *ScatterE, *LoopE, *IfE, *StreamE:
			return nil, fmt.Errorf("work besides the SOAC")
		}
		for n := range freeVars(st.E) {
			if streamed[n] {
				return nil, fmt.Errorf("%s is read besides the SOAC", n)
			}
		}
	}
	for _, a := range p.Body.Res {
		if streamed[a.Name] {
			return nil, fmt.Errorf("%s is a result", a.Name)
		}
	}
	if c.Dest != "" && !c.DestParam {
		// the statements the SOAC needs besides its destination must not
		// read it: later chunks see it updated
		for _, st := range c.needed(c.pre, c.soacUses(), c.Dest) {
			if freeVars(st.E)[c.Dest] {
				return nil, fmt.Errorf("the destination %s is read besides the SOAC", c.Dest)
			}
		}
	}
	return c, nil
}

// renameInside is a copy of the SOAC e whose lambdas read names by s
// (its inputs, width and destination stay as they are).
func renameInside(e Exp, s subst) Exp {
	keep := subst{}
	switch e := keep.exp(e).(type) {
	case *ScremaE:
		e.Map, e.Scans, e.Reds = s.lambda(e.Map), s.segops(e.Scans), s.segops(e.Reds)
		return e
	case *FilterE:
		e.Map = s.lambda(e.Map)
		return e
	case *HistE:
		e.Map, e.Op = s.lambda(e.Map), s.segops([]*SegOp{e.Op})[0]
		return e
	case *ScatterE:
		e.Map = s.lambda(e.Map)
		return e
	case *StreamE:
		e.Fold = s.lambda(e.Fold)
		if e.Red != nil {
			e.Red = s.lambda(e.Red)
		}
		return e
	}
	panic("chunks: not a SOAC")
}

func soacWidth(e Exp) (Atom, []string) {
	switch e := e.(type) {
	case *ScremaE:
		return e.W, e.Arrs
	case *FilterE:
		return e.W, e.Arrs
	case *HistE:
		return e.W, e.Arrs
	case *ScatterE:
		return e.W, e.Arrs
	case *StreamE:
		return e.W, e.Arrs
	}
	return Atom{}, nil
}

// soacUses is what the SOAC statement reads.
func (c *Chunks) soacUses() map[string]bool {
	need := freeVars(c.Soac.E)
	for _, p := range c.Soac.Pat {
		for _, d := range p.T.Shape {
			if d.Name != "" {
				need[d.Name] = true
			}
		}
	}
	return need
}

// needed keeps of stms those that bind what need names (and what they need
// in turn), in order; the statement binding except is left out.
func (c *Chunks) needed(stms []*Stm, need map[string]bool, except string) []*Stm {
	need = copySet(need)
	var keep []*Stm
	for i := len(stms) - 1; i >= 0; i-- {
		st := stms[i]
		used := false
		for _, p := range st.Pat {
			if need[p.Name] && p.Name != except {
				used = true
			}
		}
		if !used {
			continue
		}
		keep = append(keep, st)
		for n := range freeVars(st.E) {
			need[n] = true
		}
		for _, p := range st.Pat {
			for _, d := range p.T.Shape {
				if d.Name != "" {
					need[d.Name] = true
				}
			}
		}
	}
	for i, j := 0, len(keep)-1; i < j; i, j = i+1, j-1 {
		keep[i], keep[j] = keep[j], keep[i]
	}
	return keep
}

func copySet(m map[string]bool) map[string]bool {
	out := make(map[string]bool, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func (c *Chunks) fresh(base string) string {
	for {
		c.n++
		name := base + "_c" + strconv.Itoa(c.n)
		if !c.names[name] {
			c.names[name] = true
			return name
		}
	}
}

// Scans and Reds are the SOAC's scans and reductions (a Screma's; none
// for the others).
func (c *Chunks) Scans() []*SegOp {
	if e, ok := c.Soac.E.(*ScremaE); ok {
		return e.Scans
	}
	return nil
}

func (c *Chunks) Reds() []*SegOp {
	switch e := c.Soac.E.(type) {
	case *ScremaE:
		return e.Reds
	case *StreamE:
		// a reduce_stream: each chunk's fold, combined by the operator
		if e.Red != nil {
			return []*SegOp{{Lam: e.Red, Nes: make([]Atom, len(e.Red.Ret))}}
		}
	}
	return nil
}

// HasIndex says whether the chunk program takes the chunk's offset (the
// SOAC uses the element's index).
func (c *Chunks) HasIndex() bool {
	switch e := c.Soac.E.(type) {
	case *ScremaE:
		return e.Index != ""
	case *FilterE:
		return e.Index != ""
	case *HistE:
		return e.Index != ""
	case *ScatterE:
		return e.Index != ""
	}
	return false
}

// Init is the program that makes the destination of a histogram or a
// scatter (nil when there is none, or it is a parameter): the program's
// parameters, the statements before the SOAC that the destination needs.
func (c *Chunks) Init() *Prog {
	if c.Dest == "" || c.DestParam {
		return nil
	}
	stms := c.needed(c.pre, map[string]bool{c.Dest: true}, "")
	t := c.typeOf(c.Dest)
	return &Prog{Params: c.Prog.Params, Ret: []Type{t}, Body: &Body{Stms: stms, Res: []Atom{V(c.Dest)}}}
}

// DestType is the type of the destination (Dest must be set).
func (c *Chunks) DestType() Type { return c.typeOf(c.Dest) }

func (c *Chunks) typeOf(name string) Type {
	for _, p := range c.Prog.Params {
		if p.Name == name {
			return p.T
		}
	}
	for _, st := range c.Prog.Body.Stms {
		for _, p := range st.Pat {
			if p.Name == name {
				return p.T
			}
		}
	}
	panic("chunks: no type for " + name)
}

// Chunk is the program of one chunk of the given length. Its parameters
// are the program's (the streamed ones of the chunk's length), then the
// chunk's offset (an i64, when HasIndex), then the destination (when Init
// makes it), then one carry per scan component (the prefix of the chunks
// before, the scan's neutral element for the first). Its results are the
// SOAC's, its scans' with the carry applied: the scan's first element
// is combined with the carry inside the scan's own pass (by
// associativity, each element is then the carry combined with the scan
// from the neutral element), with no pass of its own over the scanned
// arrays.
func (c *Chunks) Chunk(length int64) *Prog { return c.chunk(length, false) }

// ChunkLasts is the program of a chunk of length elements whose results
// are only its scans' last values, from their neutral elements: the
// scans become reductions by the same operators (the values a chunk of a
// split scan contributes to the carries of the chunks after it, without
// the scanned arrays written and read back). Only for a Screma with
// scans; its parameters are Chunk's without the carries.
func (c *Chunks) ChunkLasts(length int64) *Prog { return c.chunk(length, true) }

func (c *Chunks) chunk(length int64, lasts bool) *Prog {
	n := I64(length)
	var params []Param
	for i, prm := range c.Prog.Params {
		if c.Streamed[i] {
			t := prm.T
			t.Shape = append([]Atom{n}, t.Shape[1:]...)
			prm = Param{prm.Name, t}
		}
		params = append(params, prm)
	}
	off := ""
	if c.HasIndex() {
		off = c.fresh("chunk_off")
		params = append(params, Param{off, Scalar(value.I64)})
	}
	if c.Dest != "" && !c.DestParam {
		params = append(params, Param{c.Dest, c.typeOf(c.Dest)})
	}
	except := ""
	if !c.DestParam {
		except = c.Dest
	}
	stms := c.needed(c.pre, c.soacUses(), except)

	s := c.Soac
	e := subst{}.exp(s.E)
	setIndex := func(idx *string, lam *Lambda) {
		if *idx == "" {
			return
		}
		local := c.fresh(*idx)
		at := &Stm{Pat: []Param{{*idx, Scalar(value.I64)}}, E: &BinOpE{Op: "+", X: V(local), Y: V(off)}}
		lam.Body.Stms = append([]*Stm{at}, lam.Body.Stms...)
		*idx = local
	}
	if sc, ok := e.(*ScremaE); ok && lasts {
		k := 0
		for _, op := range sc.Scans {
			k += len(op.Nes)
		}
		m := sc.Map
		sc.Map = &Lambda{Params: m.Params, Ret: m.Ret[:k], Body: &Body{Stms: m.Body.Stms, Res: m.Body.Res[:k]}}
		sc.Reds, sc.Scans = sc.Scans, nil
	}
	switch e := e.(type) {
	case *ScremaE:
		e.W = n
		setIndex(&e.Index, e.Map)
	case *FilterE:
		e.W = n
		setIndex(&e.Index, e.Map)
	case *HistE:
		e.W = n
		setIndex(&e.Index, e.Map)
	case *ScatterE:
		e.W = n
		setIndex(&e.Index, e.Map)
	case *StreamE:
		e.W = n
	}
	pat := make([]Param, len(s.Pat))
	copy(pat, s.Pat)
	if st, ok := s.E.(*StreamE); ok && st.Red == nil {
		for i := range pat { // a map_stream's arrays
			t := pat[i].T
			t.Shape = append([]Atom{n}, t.Shape[1:]...)
			pat[i].T = t
		}
	}
	if _, ok := s.E.(*ScremaE); ok {
		for i := range pat {
			if pat[i].T.Rank() > 0 {
				t := pat[i].T
				t.Shape = append([]Atom{n}, t.Shape[1:]...)
				pat[i].T = t
			}
		}
	}
	if lasts {
		// the scans' arrays become their last values
		k := 0
		for _, op := range c.Scans() {
			k += len(op.Nes)
		}
		pat = pat[:k]
		for i := range pat {
			t := pat[i].T
			t.Shape = t.Shape[1:]
			pat[i] = Param{c.fresh(pat[i].Name), t}
		}
	}
	stms = append(stms, &Stm{Pat: pat, E: e, Where: s.Where})
	res := make([]Atom, len(pat))
	for i, p := range pat {
		res[i] = V(p.Name)
	}
	if lasts {
		for _, w := range c.Whole {
			params = append(params, Param{w.Name, c.Prog.Params[w.Param].T})
		}
		var ret []Type
		for _, p := range pat {
			ret = append(ret, p.T)
		}
		return &Prog{Params: params, Ret: ret, Body: &Body{Stms: stms, Res: res}}
	}
	// the scans' carries: the chunk's first element y0 becomes
	// op(carry, y0), so that by associativity the scan gives op(carry, y)
	// for each element y of the scan from the neutral element, in the
	// scan's own pass
	if sc, ok := e.(*ScremaE); ok && len(sc.Scans) > 0 {
		if sc.Index == "" {
			sc.Index = c.fresh("chunk_i") // the element's index in the chunk
		}
		m := sc.Map
		first := c.fresh("first")
		body := append([]*Stm{}, m.Body.Stms...)
		body = append(body, &Stm{Pat: []Param{{first, Scalar(value.Bool)}}, E: &BinOpE{Op: "==", X: V(sc.Index), Y: I64(0)}})
		out := append([]Atom{}, m.Body.Res...)
		k := 0
		for _, op := range sc.Scans {
			nm := len(op.Nes)
			lam := freshLambda(op.Lam, c.fresh)
			var then []*Stm
			for j := 0; j < nm; j++ {
				carry := Param{c.fresh("carry"), lam.Params[j].T}
				params = append(params, carry)
				then = append(then,
					&Stm{Pat: []Param{lam.Params[j]}, E: &AtomE{V(carry.Name)}},
					&Stm{Pat: []Param{lam.Params[nm+j]}, E: &AtomE{m.Body.Res[k+j]}})
			}
			then = append(then, lam.Body.Stms...)
			var ys []Param
			for j := 0; j < nm; j++ {
				ys = append(ys, Param{c.fresh("y"), m.Ret[k+j]})
				out[k+j] = V(ys[j].Name)
			}
			body = append(body, &Stm{Pat: ys, E: &IfE{Cond: V(first),
				Then: &Body{Stms: then, Res: lam.Body.Res},
				Else: &Body{Res: m.Body.Res[k : k+nm]},
				Ret:  m.Ret[k : k+nm]}})
			k += nm
		}
		sc.Map = &Lambda{Params: m.Params, Ret: m.Ret, Body: &Body{Stms: body, Res: out}}
	}
	for _, w := range c.Whole {
		params = append(params, Param{w.Name, c.Prog.Params[w.Param].T})
	}
	var ret []Type
	for i := range res {
		ret = append(ret, typeOfIn(res[i].Name, params, stms))
	}
	return &Prog{Params: params, Ret: ret, Body: &Body{Stms: stms, Res: res}}
}

func typeOfIn(name string, params []Param, stms []*Stm) Type {
	for _, p := range params {
		if p.Name == name {
			return p.T
		}
	}
	for _, st := range stms {
		for _, p := range st.Pat {
			if p.Name == name {
				return p.T
			}
		}
	}
	panic("chunks: no type for " + name)
}

// Finish is the program run once on the host after the last chunk: its
// parameters are the SOAC's results (whole: the chunks' arrays joined,
// the reductions combined, the destination as the last chunk left it),
// then the program's parameters that are not streamed; it runs the
// statements after the SOAC and returns the program's results.
func (c *Chunks) Finish() *Prog {
	params := append([]Param{}, c.Soac.Pat...)
	for i, prm := range c.Prog.Params {
		if !c.Streamed[i] {
			params = append(params, prm)
		}
	}
	need := map[string]bool{}
	for _, a := range c.Prog.Body.Res {
		if a.Name != "" {
			need[a.Name] = true
		}
	}
	for _, t := range c.Prog.Ret {
		for _, d := range t.Shape {
			if d.Name != "" {
				need[d.Name] = true
			}
		}
	}
	post := c.needed(c.post, need, "")
	for _, st := range post {
		for n := range freeVars(st.E) {
			need[n] = true
		}
	}
	for _, p := range c.Soac.Pat {
		delete(need, p.Name)
	}
	stms := append(c.needed(c.pre, need, ""), post...)
	return &Prog{Params: params, Ret: c.Prog.Ret, Body: &Body{Stms: stms, Res: c.Prog.Body.Res}}
}

// Combine applies a reduction's operator to two values of each component
// (the values so far, then a chunk's), on the host.
func Combine(op *SegOp, acc, x []value.Value) ([]value.Value, error) {
	p := &Prog{Params: op.Lam.Params, Ret: op.Lam.Ret, Body: op.Lam.Body}
	return EvalAll(context.Background(), p, append(append([]value.Value{}, acc...), x...))
}

// ChunkDest is Chunk for a run that also divides the destination of a
// histogram or a scatter (when it is the array that does not fit): the
// destination parameter has destLen rows, and one more parameter, the
// offset of those rows in the whole destination (an i64, last), is taken
// from each element's index, so that an element whose index falls
// outside the rows is skipped, as one outside the whole is.
func (c *Chunks) ChunkDest(length, destLen int64) *Prog {
	switch e := c.Soac.E.(type) {
	case *HistE:
		if e.Map.Ret[0].Elem != value.I64 {
			return nil
		}
	case *ScatterE:
		if e.Map.Ret[0].Elem != value.I64 {
			return nil
		}
	default:
		return nil
	}
	p := c.Chunk(length)
	rows := func(t Type) Type {
		t.Shape = append([]Atom{I64(destLen)}, t.Shape[1:]...)
		return t
	}
	for i := range p.Params {
		if p.Params[i].Name == c.Dest {
			p.Params[i].T = rows(p.Params[i].T)
		}
	}
	off := Param{c.fresh("dest_off"), Scalar(value.I64)}
	p.Params = append(p.Params, off)
	shift := func(l *Lambda) *Lambda {
		j := Param{c.fresh("dest_idx"), l.Ret[0]}
		stms := append([]*Stm{}, l.Body.Stms...)
		stms = append(stms, &Stm{Pat: []Param{j}, E: &BinOpE{Op: "-", X: l.Body.Res[0], Y: V(off.Name)}})
		res := append([]Atom{V(j.Name)}, l.Body.Res[1:]...)
		return &Lambda{Params: l.Params, Ret: l.Ret, Body: &Body{Stms: stms, Res: res}}
	}
	for _, st := range p.Body.Stms {
		switch e := st.E.(type) {
		case *HistE:
			e.Map = shift(e.Map)
			st.Pat[0].T = rows(st.Pat[0].T)
		case *ScatterE:
			e.Map = shift(e.Map)
			st.Pat[0].T = rows(st.Pat[0].T)
		}
	}
	for i, r := range p.Body.Res {
		if r.Name == c.Soac.Pat[0].Name {
			p.Ret[i] = rows(p.Ret[i])
		}
	}
	return p
}
