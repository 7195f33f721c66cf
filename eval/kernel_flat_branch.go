package eval

import (
	"math"

	"fut/eval/value"
	"fut/interp/syntax"
)

// Branches in flat kernels: if, && and ||, and assert.
//
// Both arms of an if are compiled; at run time the if splits the lanes
// of the batch it runs on by its condition into two lists of lanes, in
// two registers of its own, and each arm runs on its list only (none on
// an empty one), writing its value to the if's result registers. An arm
// that is not taken is not run, so it charges nothing and cannot fail.
//
// The charges follow the rule for if (the condition, then the
// if's own step, which releases the condition's space, then the taken
// arm), so they differ from element to element. The compiler still adds
// up straight-line code's charges at compile time, relative to the live
// space at a point it knows (flive), and emits them into each element's
// registers (fCharge: its work in wReg, its peak in pkReg) at the end of
// each arm (with what was pending before the branch) and of each loop
// iteration. Where the arms leave different live space (x in one, a
// literal in the other), each arm writes the live space after the if
// into a register of its own (fOrg), from which the compiler counts
// again; a release (of a let's value, of a call's arguments) back to a
// point before such a register is one more fOrg.
// A kernel with branches runs on lists of lanes (runSel), and its SOAC
// reads each element's work and peak after a batch (exec).

// flive is live space at compile time: the value of register org (an
// element's own, written by fOrg), or 0 for org −1, plus c.
type flive struct {
	org int
	c   int64
}

func (l flive) plus(n int64) flive { return flive{l.org, l.c + n} }

// noPeak is a pending peak when none is pending (fcomp.pk after a flush).
const noPeak = math.MinInt64

// setLive moves the live space to l, emitting the pending peak first
// when l counts from another register.
func (fc *fcomp) setLive(l flive) {
	if l.org != fc.org {
		fc.flush()
	}
	fc.moveTo(l)
}

// release is live − (held − base): what held above base is released.
func (fc *fcomp) release(base, held flive) {
	l := fc.here()
	switch {
	case held.org == base.org:
		fc.m.release(held.c - base.c)
	case l.org == held.org:
		fc.setLive(flive{base.org, base.c + l.c - held.c})
	default:
		d := fc.reg()
		fc.k.code = append(fc.k.code, finsn{op: fOrg, d: int32(d), a: int32(l.org), b: int32(held.org), c: int32(base.org), k: l.c - held.c + base.c})
		fc.setLive(flive{d, 0})
	}
}

// flush emits the work and the peak counted since the last flush into
// each running element's registers.
func (fc *fcomp) flush() {
	k := fc.k
	if k.wReg < 0 {
		k.wReg, k.pkReg = fc.reg(), fc.reg()
	}
	if w, pk := fc.pending(); w != 0 || pk != noPeak {
		k.code = append(k.code, finsn{op: fCharge, a: int32(fc.org), c: int32(w), k: pk})
	}
	fc.setPending(0, noPeak)
}

// ifExpr compiles if c then a else b by its form: the arms are a
// branch on c (choose).
func (fc *fcomp) ifExpr(x *syntax.If, fr *kframe, e *env) (*kval, bool) {
	f, _ := formOf(x)
	return fc.construct(f, fr, e, boolCond, fc.choose)
}

// boolCond is the condition of an if or an assert, a scalar bool.
func boolCond(vals []*kval) (*kval, bool) {
	c := vals[0]
	return c, c.scalar() && c.typ == value.Bool
}

// assert compiles assert c x by its form: an element whose c is false
// gives up the flat run (flatFail), and the general path reports the
// assertion.
func (fc *fcomp) assert(x *syntax.Assert, fr *kframe, e *env) (*kval, bool) {
	f, _ := formOf(x)
	return fc.construct(f, fr, e, func(vals []*kval) (*kval, bool) {
		c, ok := boolCond(vals)
		if !ok {
			return nil, false
		}
		fc.emit1(fc.reg(), c.reg, func(b uint64) uint64 {
			if b == 0 {
				panic(flatFail{})
			}
			return b
		})
		return c, true
	}, body)
}

// logic compiles a && b and a || b by their form (logicForm): the
// arms are a branch on a, where b runs on the elements whose a does not
// decide, and either way the operator's step comes after.
func (fc *fcomp) logic(f form, fr *kframe, e *env) (*kval, bool) {
	return fc.construct(f, fr, e, boolCond, fc.choose)
}

// choose is the arm of a form with two, chosen by its condition c: a
// branch on c's register.
func (fc *fcomp) choose(c *kval, arms []func() (*kval, bool)) (*kval, bool) {
	return fc.branch(c.reg, arms[0], arms[1])
}

// branch compiles then for the lanes whose register cond is true and els
// for the others, from the same live space; the value is copied to
// registers of the branch's own.
func (fc *fcomp) branch(cond int, then, els func() (*kval, bool)) (*kval, bool) {
	k := fc.k
	k.dyn = true
	w, pk := fc.pending() // charged by each arm with its own
	sel := fc.reg()
	fc.reg() // the else lanes
	at := len(k.code)
	k.code = append(k.code, finsn{op: fIf, a: int32(cond), b: int32(sel)})
	start := fc.here()
	var out *kval
	var ends [2]flive
	var slots [2]int
	for i, arm := range []func() (*kval, bool){then, els} {
		if i == 1 {
			k.code[at].c = int32(len(k.code))
		}
		fc.moveTo(start)
		fc.setPending(w, pk)
		v, ok := arm()
		if !ok {
			return nil, false
		}
		if out == nil {
			if out = fc.instantiate(v); out == nil {
				return nil, false
			}
		} else if !out.sameTypes(v) {
			return nil, false
		}
		dst, src := out.leaves(nil), v.leaves(nil)
		for j := range dst {
			k.code = append(k.code, finsn{op: fMov, d: int32(dst[j]), a: int32(src[j])})
		}
		fc.flush()
		ends[i], slots[i] = fc.here(), len(k.code)
		k.code = append(k.code, finsn{op: fNop}) // the live space after the if, if the arms differ
	}
	k.code[at].d = int32(len(k.code))
	fc.moveTo(ends[0])
	if ends[0] != ends[1] {
		d := fc.reg()
		for i, l := range ends {
			k.code[slots[i]] = finsn{op: fOrg, d: int32(d), a: int32(l.org), b: -1, c: -1, k: l.c}
		}
		fc.moveTo(flive{d, 0})
	}
	return out, true
}

// exec runs k on the cnt elements in its parameters' registers. With st
// (costs on), a kernel with branches adds each element's figures to st;
// a kernel without has the same figures for each (figures).
func (k *flatKernel) exec(t *thread, r []uint64, B, cnt int, st *stats) {
	if !k.dyn {
		k.run(r, B, cnt)
		return
	}
	cost := st != nil
	if cost {
		clear(r[k.wReg*B:][:cnt])
		clear(r[k.pkReg*B:][:cnt])
	}
	k.runSel(t, r, B, 0, len(k.code), allLanes[:cnt], cost)
	if cost {
		for j, w := range r[k.wReg*B:][:cnt] {
			p := int64(r[k.pkReg*B+j])
			st.add(measure{W: int64(w), D: int64(w), S1: p, SP: p})
		}
	}
}

// figures are the stats of n applications of k, which exec measured
// into st where they differ.
func (k *flatKernel) figures(n int64, st *stats) stats {
	if k.dyn {
		return *st
	}
	return flatStats(k, n)
}

// runSel runs code[lo:hi] on the lanes listed in sel.
func (k *flatKernel) runSel(t *thread, r []uint64, B, lo, hi int, sel []uint64, cost bool) {
	for pc := lo; pc < hi; pc++ {
		in := &k.code[pc]
		switch in.op {
		case fIf:
			c, lt, le := r[int(in.a)*B:][:B], r[int(in.b)*B:][:B], r[int(in.b+1)*B:][:B]
			nt, ne := 0, 0
			for _, j := range sel {
				if c[j] != 0 {
					lt[nt] = j
					nt++
				} else {
					le[ne] = j
					ne++
				}
			}
			if nt > 0 {
				k.runSel(t, r, B, pc+1, int(in.c), lt[:nt], cost)
			}
			if ne > 0 {
				k.runSel(t, r, B, int(in.c), int(in.d), le[:ne], cost)
			}
			pc = int(in.d) - 1
		case fLoop:
			k.loop(t, in, r, B, pc, sel, cost)
			pc = int(in.d) - 1
		case fNop:
		case fMov:
			d, a := r[int(in.d)*B:][:B], r[int(in.a)*B:][:B]
			for _, j := range sel {
				d[j] = a[j]
			}
		case fCharge:
			if !cost {
				continue
			}
			w, pk := r[k.wReg*B:][:B], r[k.pkReg*B:][:B]
			for _, j := range sel {
				w[j] += uint64(in.c)
			}
			if in.k == noPeak {
				continue
			}
			if in.a < 0 {
				for _, j := range sel {
					pk[j] = uint64(max(int64(pk[j]), in.k))
				}
			} else {
				o := r[int(in.a)*B:][:B]
				for _, j := range sel {
					pk[j] = uint64(max(int64(pk[j]), int64(o[j])+in.k))
				}
			}
		case fOrg:
			if !cost {
				continue
			}
			d := r[int(in.d)*B:][:B]
			for _, j := range sel {
				x := in.k
				if in.a >= 0 {
					x += int64(r[int(in.a)*B+int(j)])
				}
				if in.b >= 0 {
					x -= int64(r[int(in.b)*B+int(j)])
				}
				if in.c >= 0 {
					x += int64(r[int(in.c)*B+int(j)])
				}
				d[j] = uint64(x)
			}
		default:
			k.op(in, r, B, sel)
		}
	}
}

// op runs an instruction of straight-line code (flatKernel.run's) on
// the lanes listed in sel.
func (k *flatKernel) op(in *finsn, r []uint64, B int, sel []uint64) {
	d := r[int(in.d)*B:][:B]
	a := r[int(in.a)*B:][:B]
	var b []uint64
	if in.op != fCall1 && in.op != fSqrtF32 && in.op != fSqrtF64 {
		b = r[int(in.b)*B:][:B]
	}
	switch in.op {
	case fCall1:
		f := k.calls[in.c].f1
		for _, j := range sel {
			d[j] = f(a[j])
		}
	case fCall2:
		f := k.calls[in.c].f2
		for _, j := range sel {
			d[j] = f(a[j], b[j])
		}
	case fCall3:
		f, c := k.calls[in.c].f3, r[int(in.e)*B:][:B]
		for _, j := range sel {
			d[j] = f(a[j], b[j], c[j])
		}
	case fAddF32:
		for _, j := range sel {
			d[j] = b32(f32(a[j]) + f32(b[j]))
		}
	case fSubF32:
		for _, j := range sel {
			d[j] = b32(f32(a[j]) - f32(b[j]))
		}
	case fMulF32:
		for _, j := range sel {
			d[j] = b32(f32(a[j]) * f32(b[j]))
		}
	case fDivF32:
		for _, j := range sel {
			d[j] = b32(f32(a[j]) / f32(b[j]))
		}
	case fAddF64:
		for _, j := range sel {
			d[j] = math.Float64bits(math.Float64frombits(a[j]) + math.Float64frombits(b[j]))
		}
	case fSubF64:
		for _, j := range sel {
			d[j] = math.Float64bits(math.Float64frombits(a[j]) - math.Float64frombits(b[j]))
		}
	case fMulF64:
		for _, j := range sel {
			d[j] = math.Float64bits(math.Float64frombits(a[j]) * math.Float64frombits(b[j]))
		}
	case fDivF64:
		for _, j := range sel {
			d[j] = math.Float64bits(math.Float64frombits(a[j]) / math.Float64frombits(b[j]))
		}
	case fAddI64:
		for _, j := range sel {
			d[j] = a[j] + b[j]
		}
	case fSubI64:
		for _, j := range sel {
			d[j] = a[j] - b[j]
		}
	case fMulI64:
		for _, j := range sel {
			d[j] = uint64(int64(a[j]) * int64(b[j]))
		}
	case fSqrtF32:
		for _, j := range sel {
			d[j] = b32(float32(math.Sqrt(float64(f32(a[j])))))
		}
	case fSqrtF64:
		for _, j := range sel {
			d[j] = math.Float64bits(math.Sqrt(math.Float64frombits(a[j])))
		}
	case fAddI32:
		for _, j := range sel {
			d[j] = uint64(int64(int32(a[j]) + int32(b[j])))
		}
	case fSubI32:
		for _, j := range sel {
			d[j] = uint64(int64(int32(a[j]) - int32(b[j])))
		}
	case fMulI32:
		for _, j := range sel {
			d[j] = uint64(int64(int32(a[j]) * int32(b[j])))
		}
	case fLtF32:
		for _, j := range sel {
			d[j] = bit(f32(a[j]) < f32(b[j]))
		}
	case fLeF32:
		for _, j := range sel {
			d[j] = bit(f32(a[j]) <= f32(b[j]))
		}
	case fGtF32:
		for _, j := range sel {
			d[j] = bit(f32(a[j]) > f32(b[j]))
		}
	case fGeF32:
		for _, j := range sel {
			d[j] = bit(f32(a[j]) >= f32(b[j]))
		}
	case fLtF64:
		for _, j := range sel {
			d[j] = bit(math.Float64frombits(a[j]) < math.Float64frombits(b[j]))
		}
	case fLeF64:
		for _, j := range sel {
			d[j] = bit(math.Float64frombits(a[j]) <= math.Float64frombits(b[j]))
		}
	case fGtF64:
		for _, j := range sel {
			d[j] = bit(math.Float64frombits(a[j]) > math.Float64frombits(b[j]))
		}
	case fGeF64:
		for _, j := range sel {
			d[j] = bit(math.Float64frombits(a[j]) >= math.Float64frombits(b[j]))
		}
	case fLtI:
		for _, j := range sel {
			d[j] = bit(int64(a[j]) < int64(b[j]))
		}
	case fLeI:
		for _, j := range sel {
			d[j] = bit(int64(a[j]) <= int64(b[j]))
		}
	case fGtI:
		for _, j := range sel {
			d[j] = bit(int64(a[j]) > int64(b[j]))
		}
	case fGeI:
		for _, j := range sel {
			d[j] = bit(int64(a[j]) >= int64(b[j]))
		}
	case fEqI:
		for _, j := range sel {
			d[j] = bit(a[j] == b[j])
		}
	case fNeqI:
		for _, j := range sel {
			d[j] = bit(a[j] != b[j])
		}
	}
}

// bit is a bool's register bits.
func bit(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
