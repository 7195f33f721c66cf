package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// What the closure compiler resolved in a body, kept for the lane back
// end (kernel_flat*.go), which compiles the same body again into a
// kernel for SOACs over arrays of scalars: it takes each local a name
// uses, each binder's place and each operator's identity as ccomp
// resolved them, and does not look names up in scopes of its own.
//
// The record is made on demand (resolutionOf): ordinary compilation
// records nothing.

// resolution is what ccomp resolved in one closure body: the slot of the
// local each name uses (free, -1, for a name looked up in the closure's
// environment), the slot each binder binds (a *syntax.PId; a
// *syntax.PField that puns its name; a *syntax.For, its counter), and
// the operator each binary applies.
type resolution struct {
	nslots int
	uses   map[*syntax.Var]int
	binds  map[any]int
	ops    map[*syntax.Binary]opRes
}

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

func (cc *ccomp) noteBind(binder any, slot int) {
	if cc.res != nil {
		cc.res.binds[binder] = slot
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
		res := &resolution{uses: map[*syntax.Var]int{}, binds: map[any]int{}, ops: map[*syntax.Binary]opRes{}}
		res.nslots = t.compileClosureRes(c, res).nslots
		k.res = res
	}
	return k.res
}
