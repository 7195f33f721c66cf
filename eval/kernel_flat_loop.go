package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Loops in flat kernels: loop p = init for i < n do body and loop p =
// init while c do body, over a state of scalars, tuples and records of
// scalars.
//
// The state lives in registers of the loop's own; the body computes the
// next state into its registers, which are then moved to the state's
// (through temporaries where the body returns state registers in other
// places, as (y, x) does). At run time the loop keeps the list of its
// lanes still running in a register of its own: each iteration drops
// the lanes whose bound is reached or whose condition is false, ticks
// once for each lane left (as the walker ticks once an iteration) and
// runs the body on them, until none is left.
//
// The charges are evalLoop's: the state is held while each iteration
// runs (the condition and the body count from base + the state's size),
// each iteration is one step more than its body, a while's last test is
// charged, and after the loop the live space is the state's above base,
// or, for a lane that did not iterate, what the initial value (and the
// bound) left: the loop writes that into a register of its own (fOrg)
// where the two differ.

// floop is what a loop instruction needs besides registers: where the
// loop is (its ticks) and the type of a for loop's counter.
type floop struct {
	pos syntax.Pos
	ty  value.PrimType
}

// loop compiles a for or while loop.
func (fc *fcomp) loop(x *syntax.Loop, sc *kscope, e *env) (*kval, bool) {
	if x.Init == nil || len(x.Sizes) > 0 || fc.depth > 16 {
		return nil, false
	}
	k := fc.k
	base := fc.live
	init, ok := fc.value(x.Init, sc, e)
	if !ok {
		return nil, false
	}
	var bound *kval
	var forI string
	var cond syntax.Expr
	switch f := x.Form.(type) {
	case *syntax.For:
		if bound, ok = fc.value(f.Bound, sc, e); !ok || !bound.scalar() || !bound.typ.IsInt() {
			return nil, false
		}
		forI = f.I.Name
	case *syntax.While:
		cond = f.Cond
	default:
		return nil, false
	}
	initF := fc.live
	state := fc.instantiate(init)
	if state == nil {
		return nil, false
	}
	dst := state.leaves(nil)
	for j, src := range init.leaves(nil) {
		k.code = append(k.code, finsn{op: fMov, d: int32(dst[j]), a: int32(src)})
	}
	k.dyn = true
	fc.flush()
	held := base.plus(int64(len(dst)))
	end := -1 // the register of the live space after the loop, where it differs by lane
	if initF != held {
		end = fc.reg()
		k.code = append(k.code, finsn{op: fOrg, d: int32(end), a: int32(initF.org), b: -1, c: -1, k: initF.c})
	}
	in := finsn{op: fLoop, a: -1, b: -1, e: int32(fc.reg()), k: int64(len(k.loops))}
	info := floop{pos: x.Pos()}
	inner := sc
	if bound != nil {
		i := fc.reg()
		in.a, in.b, info.ty = int32(i), int32(bound.reg), bound.typ
		inner = bindKval(inner, forI, &kval{reg: i, typ: bound.typ})
	}
	// the pattern is bound after the counter (evalLoop): it may shadow it
	if inner, ok = bindPat(x.Pat, state, inner); !ok {
		return nil, false
	}
	k.loops = append(k.loops, info)
	at := len(k.code)
	k.code = append(k.code, in)
	fc.depth++
	defer func() { fc.depth-- }()
	if cond != nil {
		fc.live = held
		c, ok := fc.value(cond, inner, e)
		if !ok || !c.scalar() || c.typ != value.Bool {
			return nil, false
		}
		k.code[at].b = int32(c.reg)
		fc.flush()
	}
	k.code[at].c = int32(len(k.code))
	fc.live = held
	next, ok := fc.value(x.Body, inner, e)
	if !ok || !next.sameTypes(state) {
		return nil, false
	}
	fc.w++ // the iteration's own step
	fc.moveState(dst, next.leaves(nil))
	fc.flush()
	if end >= 0 {
		k.code = append(k.code, finsn{op: fOrg, d: int32(end), a: int32(held.org), b: -1, c: -1, k: held.c})
	}
	k.code[at].d = int32(len(k.code))
	fc.live = held
	if end >= 0 {
		fc.live = flive{end, 0}
	}
	return state, true
}

// moveState moves the next state's registers src to the state's dst, as
// one parallel assignment.
func (fc *fcomp) moveState(dst, src []int) {
	k := fc.k
	isState := map[int]bool{}
	for _, d := range dst {
		isState[d] = true
	}
	var later []finsn
	for j, s := range src {
		switch {
		case s == dst[j]:
		case isState[s]:
			tmp := fc.reg()
			k.code = append(k.code, finsn{op: fMov, d: int32(tmp), a: int32(s)})
			later = append(later, finsn{op: fMov, d: int32(dst[j]), a: int32(tmp)})
		default:
			later = append(later, finsn{op: fMov, d: int32(dst[j]), a: int32(s)})
		}
	}
	k.code = append(k.code, later...)
}

// loop runs the loop instruction in (at pc) on the lanes sel.
func (k *flatKernel) loop(t *thread, in *finsn, r []uint64, B, pc int, sel []uint64, cost bool) {
	act := r[int(in.e)*B:][:len(sel)]
	copy(act, sel)
	info := k.loops[in.k]
	n := len(act)
	for it := int64(0); ; it++ {
		if in.a < 0 {
			// a while loop: its condition on the lanes still running
			k.runSel(t, r, B, pc+1, int(in.c), act[:n], cost)
		}
		c := r[int(in.b)*B:][:B]
		m := 0
		for _, j := range act[:n] {
			if in.a < 0 && c[j] != 0 || in.a >= 0 && it < int64(c[j]) {
				act[m] = j
				m++
			}
		}
		if n = m; n == 0 {
			return
		}
		if in.a >= 0 {
			i, bits := r[int(in.a)*B:][:B], regBits(value.MkInt(info.ty, it))
			for _, j := range act[:n] {
				i[j] = bits
			}
		}
		if err := t.tickN(info.pos, n); err != nil {
			panic(flatStop{err})
		}
		k.runSel(t, r, B, int(in.c), int(in.d), act[:n], cost)
	}
}
