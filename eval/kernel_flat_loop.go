package eval

import (
	"slices"

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
// once for each lane left (as compiled code ticks once an iteration) and
// runs the body on them, until none is left.
//
// The charges are compiled loops' (compile_loop.go), by the same rules:
// the state is held while each iteration runs, the condition (its last
// test too) and the body counting from loopHeld (thread.go); each
// iteration is its form's rule more than its body (form.go); after the
// loop the live space is loopEnd's, which differs from lane to lane
// where a lane that did not iterate is left with another than one that
// did: the loop then keeps it in a register of its own (fOrg), written
// before the loop as if no iteration ran and after each iteration as
// after one.

// floop is what a loop instruction needs besides registers: where the
// loop is (its ticks), the type of a for loop's counter, and the charges
// folded out of its code (foldCharges).
//
// A while loop's condition c1 && c2 (the built-in &&) runs c2 only on
// the lanes whose c1 holds: the others leave the loop at a test (fTest,
// at tests[0]) with the charge of the operator's step, as logic's else
// arm would charge them. Exit t of a loop is its t-th test, or for t =
// len(tests) the end of its condition (a for loop's bound).
//
// The charges of constant peak at the top level of the condition and
// the body are the same on every iteration of every lane, so the code
// does not charge them: a lane leaving at exit t of iteration it is
// charged it whole iterations (allW, allPk) and the stretches of the
// condition before exit t (preW[t], prePk[t]) at once.
type floop struct {
	pos         syntax.Pos
	ty          value.PrimType
	tests       []int
	preW, prePk []int64
	allW, allPk int64
}

// leave charges lane j, leaving at exit t of iteration it, the folded
// charges of the iterations it ran.
func (l *floop) leave(w, pk []uint64, j uint64, t int, it int64) {
	w[j] += uint64(it*l.allW + l.preW[t])
	p := l.prePk[t]
	if it > 0 {
		p = l.allPk
	}
	if p != noPeak {
		pk[j] = uint64(max(int64(pk[j]), p))
	}
}

// loop compiles a for or while loop by its form: the initial state, a
// for loop's bound; each iteration a while loop's condition, then the
// body, then the form's rule.
func (fc *fcomp) loop(x *syntax.Loop, fr *kframe, e *env) (*kval, bool) {
	fm, _ := formOf(x)
	if fm.ops[0] == nil || len(x.Sizes) > 0 || fc.depth > 16 {
		return nil, false
	}
	k := fc.k
	base := fc.here()
	init, ok := fc.value(fm.ops[0], fr, e)
	if !ok {
		return nil, false
	}
	var bound *kval
	var form *syntax.For
	var cond syntax.Expr
	switch f := x.Form.(type) {
	case *syntax.For:
		if bound, ok = fc.value(fm.ops[1], fr, e); !ok || !bound.scalar() || !bound.typ.IsInt() {
			return nil, false
		}
		form = f
	case *syntax.While:
		cond = fm.arms[0]
	default:
		return nil, false
	}
	start := fc.here()
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
	size := int64(len(dst))
	held := loopHeld(base, size)
	ran, none := loopEnd(base, start, size, true), loopEnd(base, start, size, false)
	end := -1 // the register of the live space after the loop, where it differs by lane
	if none != ran {
		end = fc.reg()
		k.code = append(k.code, finsn{op: fOrg, d: int32(end), a: int32(none.org), b: -1, c: -1, k: none.c})
	}
	in := finsn{op: fLoop, a: -1, b: -1, e: int32(fc.reg()), k: int64(len(k.loops))}
	info := floop{pos: x.Pos()}
	if bound != nil {
		i := fc.reg()
		in.a, in.b, info.ty = int32(i), int32(bound.reg), bound.typ
		if !fr.bindCounter(form, &kval{reg: i, typ: bound.typ}) {
			return nil, false
		}
	}
	if !fr.bindPat(x.Pat, state) {
		return nil, false
	}
	k.loops = append(k.loops, info)
	at := len(k.code)
	k.code = append(k.code, in)
	fc.depth++
	defer func() { fc.depth-- }()
	if cond != nil {
		fc.moveTo(held)
		c, ok := fc.whileCond(cond, fr, e)
		if !ok || !c.scalar() || c.typ != value.Bool {
			return nil, false
		}
		k.code[at].b = int32(c.reg)
		fc.flush()
	}
	k.code[at].c = int32(len(k.code))
	fc.moveTo(held)
	next, ok := fc.value(fm.arms[len(fm.arms)-1], fr, e)
	if !ok || !next.sameTypes(state) {
		return nil, false
	}
	fc.after(fm.rule, fc.here())
	fc.moveState(dst, next.leaves(nil), int(k.code[at].c))
	fc.flush()
	if end >= 0 {
		k.code = append(k.code, finsn{op: fOrg, d: int32(end), a: int32(ran.org), b: -1, c: -1, k: ran.c})
	}
	k.code[at].d = int32(len(k.code))
	fc.foldCharges(at)
	if end >= 0 {
		fc.moveTo(flive{end, 0})
	} else {
		fc.moveTo(ran)
	}
	return state, true
}

// whileCond compiles a while loop's condition, c1 && c2 with a test
// after c1 (floop) where c1 leaves the live space counted from where it
// started (else as logic compiles it). Either way the charges are the
// form's (logicForm): a lane leaving at the test is charged the rule, as
// the arm where c1's value stands charges it, and the others c2, then the
// rule.
func (fc *fcomp) whileCond(x syntax.Expr, fr *kframe, e *env) (*kval, bool) {
	b, ok := unparen(x).(*syntax.Binary)
	if !ok {
		return fc.value(x, fr, e)
	}
	if r := fr.res.ops[b]; !r.builtin || r.op != value.OpLogAnd {
		return fc.value(x, fr, e)
	}
	fc.resolved(b.Op.Name, e)
	f := logicForm(b, true)
	base := fc.here()
	l, ok := fc.value(f.ops[0], fr, e)
	if !ok {
		return nil, false
	}
	if fc.org != base.org || f.arms[1] != nil || !f.late {
		return fc.rest(f, fr, e, base, []*kval{l}, boolCond, fc.choose)
	}
	if _, ok := boolCond([]*kval{l}); !ok {
		return nil, false
	}
	fc.flush() // c1's charges, on every lane
	start := fc.here()
	leave := meter{live: start.c, pk1: noPeak, pkP: noPeak}
	leave.after(f.rule, base.c)
	fc.k.code = append(fc.k.code, finsn{op: fTest, a: int32(l.reg), b: int32(start.org), c: int32(leave.W), k: leave.pk1})
	r, ok := fc.value(f.arms[0], fr, e)
	if !ok || !r.scalar() || r.typ != value.Bool {
		return nil, false
	}
	fc.after(f.rule, base)
	return r, true
}

// foldCharges takes the charges of constant peak at the top level of the
// loop at pc at out of its code, into its floop.
func (fc *fcomp) foldCharges(at int) {
	k := fc.k
	in := k.code[at]
	info := &k.loops[in.k]
	w, pk := int64(0), int64(noPeak)
	for pc := at + 1; pc < int(in.d); pc++ {
		if pc == int(in.c) { // the end of the condition
			info.preW, info.prePk = append(info.preW, w), append(info.prePk, pk)
		}
		x := &k.code[pc]
		switch x.op {
		case fIf, fLoop:
			pc = int(x.d) - 1
		case fTest:
			info.tests = append(info.tests, pc)
			info.preW, info.prePk = append(info.preW, w), append(info.prePk, pk)
		case fCharge:
			if x.a < 0 {
				w += int64(x.c)
				pk = max(pk, x.k)
				*x = finsn{op: fNop}
			}
		}
	}
	if len(info.preW) == len(info.tests) { // a for loop, or an empty body
		info.preW, info.prePk = append(info.preW, w), append(info.prePk, pk)
	}
	info.allW, info.allPk = w, pk
}

// moveState moves the next state's registers src to the state's dst, as
// one parallel assignment, at the end of the body that starts at from.
func (fc *fcomp) moveState(dst, src []int, from int) {
	k := fc.k
	isState := map[int]bool{}
	for _, d := range dst {
		isState[d] = true
	}
	src = slices.Clone(src)
	for j, s := range src {
		if s != dst[j] && !isState[s] && !slices.Contains(src, dst[j]) && k.retarget(s, dst[j], from) {
			src[j] = dst[j]
		}
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

// retarget makes the instruction that computes register s at the end of
// the code (straight-line code from from on) write it to register d
// instead, where that changes nothing else: no other instruction writes
// or reads s, and none after it reads or writes d.
func (k *flatKernel) retarget(s, d, from int) bool {
	p := -1
	for i := len(k.code) - 1; i >= from; i-- {
		in := &k.code[i]
		if !in.straight() {
			return false
		}
		if int(in.d) == s {
			p = i
			break
		}
	}
	if p < 0 {
		return false
	}
	for i := range k.code {
		in := &k.code[i]
		rd, wr := in.regs()
		if slices.Contains(rd, int32(s)) || i != p && slices.Contains(wr, int32(s)) {
			return false
		}
		if i > p && (slices.Contains(rd, int32(d)) || slices.Contains(wr, int32(d))) {
			return false
		}
	}
	k.code[p].d = int32(d)
	return true
}

// straight is whether in is an operation on scalars or a move, which
// writes register d and nothing else.
func (in *finsn) straight() bool { return in.op <= fNeqI || in.op == fMov }

// regs are the registers in reads and those it writes.
func (in *finsn) regs() (rd, wr []int32) {
	some := func(rs ...int32) []int32 {
		return slices.DeleteFunc(rs, func(r int32) bool { return r < 0 })
	}
	switch in.op {
	case fCall1, fSqrtF32, fSqrtF64, fMov:
		return some(in.a), some(in.d)
	case fCall3:
		return some(in.a, in.b, in.e), some(in.d)
	case fIf:
		return some(in.a), some(in.b, in.b+1)
	case fLoop:
		return some(in.b), some(in.a, in.e)
	case fCharge:
		return some(in.a), nil
	case fOrg:
		return some(in.a, in.b, in.c), some(in.d)
	case fTest:
		return some(in.a, in.b), nil
	case fNop:
		return nil, nil
	}
	return some(in.a, in.b), some(in.d)
}

// loop runs the loop instruction in (at pc) on the lanes sel.
func (k *flatKernel) loop(t *thread, in *finsn, r []uint64, B, pc int, sel []uint64, cost bool) {
	act := r[int(in.e)*B:][:len(sel)]
	copy(act, sel)
	info := &k.loops[in.k]
	var w, pk []uint64
	if cost {
		w, pk = r[k.wReg*B:][:B], r[k.pkReg*B:][:B]
	}
	n := len(act)
	for it := int64(0); ; it++ {
		if in.a < 0 {
			// a while loop: its condition on the lanes still running,
			// which leave at its tests
			from := pc + 1
			for ti, tp := range info.tests {
				k.runSel(t, r, B, from, tp, act[:n], cost)
				x := &k.code[tp]
				c := r[int(x.a)*B:][:B]
				m := 0
				for _, j := range act[:n] {
					if c[j] != 0 {
						act[m] = j
						m++
					} else if cost {
						info.leave(w, pk, j, ti, it)
						p := x.k
						if x.b >= 0 {
							p += int64(r[int(x.b)*B+int(j)])
						}
						w[j] += uint64(x.c)
						pk[j] = uint64(max(int64(pk[j]), p))
					}
				}
				if n = m; n == 0 {
					return
				}
				from = tp + 1
			}
			k.runSel(t, r, B, from, int(in.c), act[:n], cost)
		}
		c := r[int(in.b)*B:][:B]
		m := 0
		for _, j := range act[:n] {
			if in.a < 0 && c[j] != 0 || in.a >= 0 && it < int64(c[j]) {
				act[m] = j
				m++
			} else if cost {
				info.leave(w, pk, j, len(info.tests), it)
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
