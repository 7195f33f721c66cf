package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// What the closure compiler resolved in a body, kept for the lane back
// end (kernel_flat*.go), which compiles the same body again into a
// kernel for SOACs over arrays of scalars: it takes each local a name
// uses, how each pattern binds (its shape, with its names' slots) and
// each operator's identity as ccomp resolved them, and neither looks
// names up in scopes of its own nor walks patterns again.
//
// The record is made on demand (resolutionOf): ordinary compilation
// records nothing.

// resolution is what ccomp resolved in one closure body: the slot of the
// local each name uses (free, -1, for a name looked up in the closure's
// environment), how each irrefutable pattern binds (pats), the slot of
// each for loop's counter, the operator each binary applies, and the
// value of each literal.
type resolution struct {
	nslots   int
	uses     map[*syntax.Var]int
	pats     map[syntax.Pat]*pshape
	counters map[*syntax.For]int
	ops      map[*syntax.Binary]opRes
	lits     map[syntax.Expr]value.Prim // a literal's value (a negated literal is one)
}

// pshape is how ccomp compiled an irrefutable pattern (patS): a name
// bound to a slot, a wildcard, or a tuple or a record (its fields' names
// as written) of parts. A name in parentheses, ascribed or with
// attributes is the name's shape, and a record field that puns its name
// is a name part; a pattern that matches (a literal, a constructor) has
// no shape.
type pshape struct {
	kind  pkind
	slot  int      // a name's
	names []string // a record's fields
	parts []*pshape
}

type pkind uint8

const (
	pName pkind = iota
	pWild
	pTuple
	pRecord
)

// free is a use's slot in a resolution when the name is not a local.
const free = -1

// opRes is how ccomp resolved a binary's operator: the built-in op
// (builtin), a function value (neither), or a local of the body that
// binds its name (local).
type opRes struct {
	op      value.BinOp
	builtin bool
	local   bool
}

func (cc *ccomp) noteUse(x *syntax.Var, slot int) {
	if cc.res != nil {
		cc.res.uses[x] = slot
	}
}

func (cc *ccomp) noteCounter(f *syntax.For, slot int) {
	if cc.res != nil {
		cc.res.counters[f] = slot
	}
}

// notePat records p's shape, where it has one.
func (cc *ccomp) notePat(p syntax.Pat, s *pshape) {
	if cc.res != nil && s != nil {
		cc.res.pats[p] = s
	}
}

// notePatAs records p's shape as q's: p is q in parentheses, ascribed or
// with attributes.
func (cc *ccomp) notePatAs(p, q syntax.Pat) {
	if cc.res != nil {
		cc.notePat(p, cc.res.pats[q])
	}
}

// noteParts records p's shape, of kind tuple or record, whose parts are
// the patterns qs (a record's with the fields' names).
func (cc *ccomp) noteParts(p syntax.Pat, kind pkind, names []string, qs []syntax.Pat) {
	if cc.res == nil {
		return
	}
	s := &pshape{kind: kind, names: names, parts: make([]*pshape, len(qs))}
	for i, q := range qs {
		if s.parts[i] = cc.res.pats[q]; s.parts[i] == nil {
			return // a part that matches
		}
	}
	cc.notePat(p, s)
}

func (cc *ccomp) noteLit(x syntax.Expr, p value.Prim) {
	if cc.res != nil {
		cc.res.lits[x] = p
	}
}

func (cc *ccomp) noteOp(x *syntax.Binary, r opRes) {
	if cc.res != nil {
		cc.res.ops[x] = r
	}
}

// resolutionOf is the resolution of c's body, recorded by compiling it
// once more where its code has none yet; it is kept on the code, so a
// lambda's closures share their node's.
func (t *thread) resolutionOf(c *closure) *resolution {
	k := t.codeOf(c)
	if k.res == nil {
		res := newResolution()
		res.nslots = t.compileClosureRes(c, res).nslots
		k.res = res
	}
	return k.res
}

func newResolution() *resolution {
	return &resolution{uses: map[*syntax.Var]int{}, pats: map[syntax.Pat]*pshape{}, counters: map[*syntax.For]int{}, ops: map[*syntax.Binary]opRes{}, lits: map[syntax.Expr]value.Prim{}}
}
