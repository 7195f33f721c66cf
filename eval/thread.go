package eval

import (
	"context"
	"math"

	"fut/eval/value"
	"fut/interp/syntax"
)

// thread is the state of one evaluation: cost counters, the call stack,
// cancellation and limits.
//
// Cost accounting follows COST_MODEL.md's Composition rule with running
// counters instead of returned tuples: W and D only ever add up along a
// sequential evaluation; live is the number of words of sub-results that
// are still held (each evaluated operand adds its fresh size F; the step
// that consumes them resets live to base + F(result)); pk1 and pkP are the
// peaks of S1 and S∞ seen so far (the thread's meter, whose methods are
// the step rules of scalar code). SOACs measure each instance by resetting
// D and the peaks around it and combine the instances by the SOAC's rule.
type thread struct {
	in    *Interp
	ctx   context.Context
	cost  bool
	meter // W, D, live, pk1, pkP
	stack []Frame
	depth int
	ticks int
	mem   memGuard
	// tan counts the derivatives being evaluated around the current
	// step (jvp, and each pass of vjp): under one, every step but a
	// scalar operator's is charged again for the tangent it carries
	// (docs/cost.md, "Derivatives").
	tan int
	// The compiled code's slot stack and the environment of the
	// compiled closure running now (compile.go).
	slots []value.Value
	sp    int
	fenv  *env
	prims [3]value.Prim // the operands of a scalar intrinsic (registerScalars)
	// transposed is the last frozen array transposed, and its transpose
	// (intrTranspose)
	transposed [2]*value.Array
	flatBuf    []uint64     // the flat SOACs' buffer (fuse_flat.go, soacs_flat.go)
	wc         *walkCounter // why a helper works in an environment now (walkstats.go); nil in compiled code
}

func (in *Interp) newThread(ctx context.Context) *thread {
	if ctx == nil {
		ctx = context.Background()
	}
	return &thread{in: in, ctx: ctx, cost: in.opts.Cost, mem: in.newMemGuard()}
}

func (t *thread) result() Cost {
	return Cost{Work: t.W, Depth: t.D, SpaceSeq: t.pk1, SpacePar: t.pkP}
}

// indexStep charges an index's step after its operands, held above
// base: a scalar result is a fresh word, a slice of an array none.
func (t *thread) indexStep(base int64, r value.Value) {
	if !t.cost {
		return
	}
	if _, isArray := r.(*value.Array); isArray {
		t.step(base, 1, 1, 0, 0)
	} else {
		t.step(base, 1, 1, 1, 1)
	}
}

// step charges a step of cost (w, d, s) after operands whose fresh sizes
// are held in live above base, and leaves a result of fresh size f.
func (t *thread) step(base, w, d, s, f int64) {
	w = max(w, min(d, 1)) // a step of depth is at least one unit of work (D ≤ W)
	if t.tan > 0 {
		w, d = w*t.tanFactor(), d*t.tanFactor()
	}
	t.meter.step(base, w, d, s, f)
}

// An in-place update's step (stepUpdate): (1, 1) with no space of its
// own and nothing fresh, so the live space goes back to base.
const updW, updD, updS, updF = 1, 1, 0, 0

// updateStep charges an in-place update's step.
func (t *thread) updateStep(base int64) {
	if t.cost {
		t.step(base, updW, updD, updS, updF)
	}
}

// step2 is step with different S1 and S∞.
func (t *thread) step2(base, w, d, s1, sp, f int64) {
	w = max(w, min(d, 1))
	if t.tan > 0 {
		w, d = w*t.tanFactor(), d*t.tanFactor()
	}
	t.W += w
	t.D += d
	if x := t.live + s1; x > t.pk1 {
		t.pk1 = x
	}
	if x := t.live + sp; x > t.pkP {
		t.pkP = x
	}
	t.live = base + f
}

// soacStep is step2 for a combinator whose depth is its own (own) plus
// that of its instances or operator applications (inst): under a
// derivative, only its own part is charged again, since the instances
// charged their tangents already.
func (t *thread) soacStep(base, w, own, inst, s1, sp, f int64) {
	if t.tan > 0 {
		w = max(w, min(own, 1))
		t.step2(base, w, own, s1, sp, f)
		t.D += inst
		return
	}
	t.step2(base, w, own+inst, s1, sp, f)
}

// meter holds the figures that the step rules of scalar code move
// (COST_MODEL.md): work W, depth D, the live space and the peaks of S1
// and S∞. Its methods state those rules once, for both back ends:
// compiled code applies them to the thread's meter as it runs
// (controlStep, scalarStep, the loops and lets of compile*.go), and the
// lane compiler (kernel_flat*.go) to a meter of its own as it compiles a
// kernel, to work out a straight-line stretch's charge once for every
// element it runs on.
type meter struct {
	W, D     int64
	live     int64
	pk1, pkP int64
}

// step is a step of cost (w, d, s) after operands held above base that
// leaves a result of fresh size f (thread.step charges it, scaled under
// a derivative).
func (m *meter) step(base, w, d, s, f int64) {
	m.W += w
	m.D += d
	x := m.live + s
	m.pk1, m.pkP = max(m.pk1, x), max(m.pkP, x)
	m.live = base + f
}

// scalar is the step of a scalar operator, a literal, a math function,
// a conversion, an index that yields a scalar, && and ||: (1, 1, 1)
// after operands held above base, fresh 1.
func (m *meter) scalar(base int64) {
	m.W++
	m.D++
	x := m.live + 1
	m.pk1, m.pkP = max(m.pk1, x), max(m.pkP, x)
	m.live = base + 1
}

// control is the own step of an if, a match or an assert, (1, 1) after
// its condition or scrutinee, whose space it releases (the live space
// back to base, where it was before them).
func (m *meter) control(base int64) {
	m.W++
	m.D++
	m.live = base
}

// iteration is a loop iteration's own step, (1, 1) after its body.
func (m *meter) iteration() {
	m.W++
	m.D++
}

// The live space of a loop (COST_MODEL.md: S = max(S0, max_k
// ‖state_k‖ + S_k)), for both back ends, which call these with their own
// figures: compiled code (compile_loop.go) with its thread's live space,
// counted from the start (liveAt), and the lane compiler
// (kernel_flat_loop.go) with its own, which may count from a register
// (flive).
//
// loopHeld is the live space while an iteration runs, a while loop's test
// included (the one that ends the loop too, which is charged): the
// state, of size state, held above base, the live space before the
// loop.
func loopHeld(base flive, state int64) flive { return base.plus(state) }

// loopEnd is the live space after a loop: its last state held as
// loopHeld holds it where an iteration ran, else what the initial value
// and a for loop's bound left (start, the live space when the first
// iteration or test begins).
func loopEnd(base, start flive, state int64, ran bool) flive {
	if ran {
		return loopHeld(base, state)
	}
	return start
}

// liveAt is compiled code's live space c as an flive (counted from no
// register).
func liveAt(c int64) flive { return flive{-1, c} }

// release ends the life of held words: a let's bound value after its
// body, a call's arguments after the callee's body.
func (m *meter) release(held int64) { m.live -= held }

// controlStep charges the step of an if, a match or an assert
// (meter.control).
func (t *thread) controlStep(base int64) {
	if t.cost {
		t.meter.control(base)
	}
}

// scalarStep charges the step of a scalar operator (meter.scalar). It
// is not charged again under a derivative: an operator on duals charges
// its tangent's steps itself (tangentStep), one on plain numbers has none.
func (t *thread) scalarStep(base int64) {
	if t.cost {
		t.meter.scalar(base)
	}
}

// tanFactor is what a step costs under t.tan derivatives: 2 for one (the
// step and the same step on the tangents), doubled for each nesting.
func (t *thread) tanFactor() int64 { return int64(1) << min(t.tan, 16) }

// tangentStep charges the k scalar steps of a chain rule (after the
// primal operation's own step), one after the other, for an operation on
// operands that are duals of one jvp. Where they are duals of nested jvps
// (d levels), the transformation is applied d times: each of the 1 + k
// operations of one level becomes 1 + k at the next, at most, so the
// steps after the primal's are (1 + k)^d − 1, counted as that bound.
func (t *thread) tangentStep(k int64, operands ...value.Value) {
	if !t.cost || k <= 0 {
		return
	}
	d := 1
	for _, v := range operands {
		d = max(d, dualDepth(v))
	}
	steps := k
	for range min(d, 8) - 1 {
		steps = (steps+1)*(k+1) - 1
	}
	t.W += steps
	t.D += steps
}

// dualDepth is how many jvps' duals a scalar is made of.
func dualDepth(v value.Value) int {
	d, ok := v.(value.Dual)
	if !ok {
		return 0
	}
	return 1 + max(dualDepth(d.P), dualDepth(d.T))
}

// measure is the cost of one SOAC instance.
type measure struct{ W, D, S1, SP int64 }

// instance runs f as one SOAC instance: D and the peaks are measured
// relative to the current state and then restored, live is reset; W
// accumulates into the thread.
func (t *thread) instance(f func() error) (measure, error) {
	if !t.cost {
		return measure{}, f()
	}
	base, d0, p1, pp, w0 := t.live, t.D, t.pk1, t.pkP, t.W
	t.D, t.pk1, t.pkP = 0, base, base
	err := f()
	m := measure{W: t.W - w0, D: t.D, S1: t.pk1 - base, SP: t.pkP - base}
	t.D, t.pk1, t.pkP, t.live = d0, p1, pp, base
	return m, err
}

// tick checks for cancellation and the memory limit every so often.
func (t *thread) tick(pos syntax.Pos) error {
	t.ticks++
	if t.ticks&1023 != 0 {
		return nil
	}
	return t.tickCheck(pos)
}

// tickCheck is tick's check, apart so that tick is inlined.
func (t *thread) tickCheck(pos syntax.Pos) error {
	if err := t.checkCancel(pos); err != nil {
		return err
	}
	return t.checkMem(pos, 0, -1)
}

func (t *thread) checkCancel(pos syntax.Pos) error {
	if err := t.ctx.Err(); err != nil {
		return &RuntimeError{Pos: pos, Msg: "interrupted", Err: ErrInterrupted, Stack: append([]Frame(nil), t.stack...)}
	}
	return nil
}

// checkAlloc refuses an allocation of n elements of elemBytes bytes
// that is negative, too large to count, or over the memory limit with
// what the session already holds (see memory.go).
func (t *thread) checkAlloc(pos syntax.Pos, n int64, elemBytes int64) error {
	if n < 0 {
		return t.errf(pos, "negative array size %d", n)
	}
	if (elemBytes > 0 && n > math.MaxInt64/elemBytes) || n > 1<<40 {
		return t.errf(pos, "allocating an array of %d elements is too large", n)
	}
	return t.checkMem(pos, n*elemBytes, n)
}

// checkRows is checkAlloc for stacking rows into one array.
func (t *thread) checkRows(pos syntax.Pos, rows []value.Value) error {
	if len(rows) == 0 {
		return nil
	}
	return t.checkAlloc(pos, int64(len(rows)), max(1, byteCount(rows[0])))
}

// checkCopy is checkAlloc for a copy of v.
func (t *thread) checkCopy(pos syntax.Pos, v value.Value) error {
	return t.checkAlloc(pos, scalarCount(v), bytesPerScalar(v))
}

// freeze marks arrays inside v as shared (bound at the top level): every
// array v holds, the components of an array of tuples or records and the
// arrays inside a sum's payload or a boxed array's elements too, since
// each of them can be taken out (unzip, a field, a match) and consumed
// on its own. Nothing writes into a frozen array's buffer (value's
// package comment): a consumption copies it first (value.Array.IsFrozen),
// which the offload path's cache of arrays on the device relies on.
func freeze(v value.Value) {
	switch v := v.(type) {
	case *value.Array:
		v.Frozen, v.Bound = true, true
		for _, f := range v.Fields {
			freeze(f)
		}
		for _, x := range v.Boxed {
			freeze(x)
		}
	case *value.Sum:
		for _, x := range v.Payload {
			freeze(x)
		}
	case value.Tuple:
		for _, x := range v {
			freeze(x)
		}
	case *value.Record:
		for _, x := range v.Fields {
			freeze(x)
		}
	}
}
