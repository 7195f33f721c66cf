package ir

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"fut/eval/value"
)

// Eval runs a program on arguments (one per parameter) and returns its
// result: one value, or a tuple when the program returns several. It
// reuses eval/value's scalars, arrays and arithmetic, so its results are
// those of the reference evaluator (up to the order of float reductions).
func Eval(ctx context.Context, p *Prog, args []value.Value) (value.Value, error) {
	vs, err := EvalAll(ctx, p, args)
	if err != nil {
		return nil, err
	}
	if len(vs) == 1 {
		return vs[0], nil
	}
	return value.Tuple(vs), nil
}

// EvalAll is Eval returning every result separately.
func EvalAll(ctx context.Context, p *Prog, args []value.Value) ([]value.Value, error) {
	vs, _, err := run(ctx, p, args, EvalOptions{})
	return vs, err
}

// EvalOptions bound an evaluation.
type EvalOptions struct {
	// Memory, when not nil, is the session's memory limit (--max-memory):
	// called with the bytes a step is about to allocate for an array of
	// elems elements before it allocates them, and with (0, -1) every
	// 1024 steps, it fails when the session's live bytes would pass the
	// limit. Its error becomes a *RuntimeError at the failing statement's
	// position, which unwraps to it.
	Memory func(request, elems int64) error
	// Where is the position (file:line:col) a failure of the memory limit
	// names when the failing statement has none of its own (the lowering
	// gives positions to the statements that fail by the program's
	// semantics, not to every one that allocates): the entry point's or
	// the expression's.
	Where string
}

// EvalAllWith is EvalAll under the bounds of o.
func EvalAllWith(ctx context.Context, p *Prog, args []value.Value, o EvalOptions) ([]value.Value, error) {
	vs, _, err := run(ctx, p, args, o)
	return vs, err
}

func run(ctx context.Context, p *Prog, args []value.Value, o EvalOptions) (vs []value.Value, c Cost, err error) {
	defer func() {
		if r := recover(); r != nil {
			vs, err = nil, fmt.Errorf("ir eval: malformed program or arguments (run Verify): %v", r)
		}
	}()
	if len(args) != len(p.Params) {
		return nil, Cost{}, fmt.Errorf("ir: %d arguments for %d parameters", len(args), len(p.Params))
	}
	m := &machine{ctx: ctx, env: map[string]value.Value{}, mem: o.Memory}
	for i, prm := range p.Params {
		m.env[prm.Name] = args[i]
	}
	vs, sc, err := m.body(p.Body)
	if re, ok := err.(*RuntimeError); ok && re.Where == "" && re.Err != nil {
		re.Where = o.Where
	}
	return vs, sc.Cost, err
}

// EvalScalarStm evaluates a statement of one scalar operation (an atom,
// a binary or unary operation, a conversion, an assertion) as EvalAll
// would, its variables' values given by get, without making a program of
// it: what a plan's host steps mostly are (sizes, conversions, checks).
// ok is false, and nothing evaluated, for any other statement.
func EvalScalarStm(ctx context.Context, s *Stm, get func(name string) (value.Value, error)) (vs []value.Value, ok bool, err error) {
	atoms, ok := ScalarStmAtoms(s)
	if !ok {
		return nil, false, nil
	}
	m := &machine{ctx: ctx, env: make(map[string]value.Value, len(atoms))}
	for _, a := range atoms {
		if a.IsConst() {
			continue
		}
		v, err := get(a.Name)
		if err != nil {
			return nil, true, err
		}
		if _, isPrim := v.(value.Prim); !isPrim {
			return nil, false, nil
		}
		m.env[a.Name] = v
	}
	vs, _, err = m.exp(s.E)
	return vs, true, err
}

// ScalarStmAtoms is the atoms that s reads where EvalScalarStm can
// evaluate it (an atom, an operator, a conversion or an assertion; its
// result is then a function of their values), and whether it can.
func ScalarStmAtoms(s *Stm) ([]Atom, bool) {
	switch e := s.E.(type) {
	case *AtomE:
		return []Atom{e.X}, true
	case *BinOpE:
		return []Atom{e.X, e.Y}, true
	case *UnOpE:
		return e.Args, true
	case *ConvE:
		return []Atom{e.X}, true
	case *AssertE:
		return []Atom{e.Cond}, true
	}
	return nil, false
}

type machine struct {
	ctx   context.Context
	env   map[string]value.Value
	steps int
	soac  int                              // how many SOAC lambdas the evaluation is inside
	mem   func(request, elems int64) error // EvalOptions.Memory
	// inView says the evaluation is in the lambda of a gathered view
	// (ScremaE.View), whose nested views are part of its one step
	inView bool
	// plans caches, per body, which statements are checks and where
	// each name is last used: a lambda's body runs once per element.
	plans map[*Body]bodyPlan
	// lazy holds the costs of hoisted statements (Stm.Hoisted) not
	// charged yet, by the names they bind.
	lazy map[string]*lazyCost
}

type bodyPlan struct {
	checks  []bool
	release map[string]int
	// direct lists, per statement, the names it uses outside its nested
	// bodies (directUses); res those the body's result names.
	direct [][]string
	res    []string
}

func (m *machine) plan(b *Body) bodyPlan {
	if p, ok := m.plans[b]; ok {
		return p
	}
	p := bodyPlan{checks: checkOnly(b), release: lastUses(b), direct: make([][]string, len(b.Stms))}
	for i, st := range b.Stms {
		directUses(st.E, func(n string) { p.direct[i] = append(p.direct[i], n) })
	}
	for _, a := range b.Res {
		if a.Name != "" {
			p.res = append(p.res, a.Name)
		}
	}
	if m.plans == nil {
		m.plans = map[*Body]bodyPlan{}
	}
	m.plans[b] = p
	return p
}

// RuntimeError is an error in the evaluated program (an index out of
// bounds, a division by zero), as opposed to a malformed program: the
// reference path's message and, where the statement has one, its Where.
// Err, when set, is the failure it reports (the memory limit's), for
// errors.Is and errors.As.
type RuntimeError struct {
	Msg, Where string
	Err        error
}

// Unwrap is the failure the error reports (nil for most).
func (e *RuntimeError) Unwrap() error { return e.Err }

func (e *RuntimeError) Error() string {
	if e.Where == "" {
		return e.Msg
	}
	pos, _ := SplitWhere(e.Where)
	return pos + ": " + e.Msg
}

// Located is the message and source position of the error, as the
// reference path would report them.
func (e *RuntimeError) Located() (where, msg string) { return e.Where, e.Msg }

// Located is the message and source position of the failed check ("" for
// the position where the message is not the reference path's).
func (e *AssertError) Located() (where, msg string) {
	if e.Approx {
		return "", e.Msg
	}
	return e.Where, e.Msg
}

// outOfBounds is the reference path's message for idx outside shape.
func outOfBounds(idx []int64, shape []int64) error {
	is := make([]string, len(idx))
	for i, x := range idx {
		is[i] = strconv.FormatInt(x, 10)
	}
	return &RuntimeError{Msg: fmt.Sprintf("Index [%s] out of bounds for array of shape %s.", strings.Join(is, ", "), value.ShapeString(shape))}
}

func rtErr(format string, args ...any) error {
	return &RuntimeError{Msg: fmt.Sprintf(format, args...)}
}

// ints is the values of the indices idx, the k-th (which failed) being
// ik: all of them where the later ones are integers already.
func (m *machine) ints(idx []Atom, k int, ik int64) []int64 {
	out := make([]int64, len(idx))
	for j, a := range idx {
		if j == k {
			out[j] = ik
		} else {
			out[j] = m.int(a)
		}
	}
	return out
}

func (m *machine) atom(a Atom) value.Value {
	if a.IsConst() {
		return a.Val
	}
	v, ok := m.env[a.Name]
	if !ok {
		panic("ir eval: unbound " + a.Name)
	}
	return v
}

func (m *machine) prim(a Atom) value.Prim { return m.atom(a).(value.Prim) }
func (m *machine) int(a Atom) int64       { return m.prim(a).AsInt64() }
func (m *machine) arr(name string) *value.Array {
	return m.env[name].(*value.Array)
}

// body evaluates statements in order; its cost is their Composition.
// Unlike the source's let (live for its whole body), a statement's fresh
// result is live only until its last use: the fused plan is a compiled
// plan, and inlining has flattened every function's temporaries into one
// body, where "live to the end" would count them all at once.
func (m *machine) body(b *Body) ([]value.Value, stepCost, error) {
	var total stepCost
	var live int64
	bound := map[string]bool{}
	plan := m.plan(b)
	release, checks := plan.release, plan.checks
	freed := make([]int64, len(b.Stms)+1)
	for i, st := range b.Stms {
		// the hoisted values this statement needs first: charged before
		// its own step (or, for one hoisted too, with it)
		var pre stepCost
		var deps []string
		if len(m.lazy) > 0 && !checks[i] {
			if st.Hoisted {
				deps = plan.direct[i]
			} else {
				pre = m.charge(plan.direct[i])
			}
		}
		vs, c, err := m.exp(st.E)
		if err != nil {
			if re, ok := err.(*RuntimeError); ok && re.Where == "" && st.Where != "" {
				err = &RuntimeError{Msg: re.Msg, Where: st.Where, Err: re.Err}
			}
			return nil, total, err
		}
		switch {
		case checks[i]:
			// A check of the source and the scalars only it uses cost
			// nothing, as the reference path charges nothing for the
			// bounds and sizes it checks.
			c = stepCost{}
		case st.Hoisted:
			// computed here, charged where first needed (Stm.Hoisted)
			if m.lazy == nil {
				m.lazy = map[string]*lazyCost{}
			}
			l := &lazyCost{c: c, deps: deps}
			for _, p := range st.Pat {
				m.lazy[p.Name] = l
			}
			c = stepCost{}
		default:
			c = pre.before(c)
		}
		total.then(c, &live)
		end := i
		for k, p := range st.Pat {
			m.env[p.Name] = vs[k]
			bound[p.Name] = true
			end = max(end, release[p.Name])
		}
		freed[end] += c.F
		live -= freed[i]
	}
	if len(m.lazy) > 0 {
		total.then(m.charge(plan.res), &live)
	}
	out := make([]value.Value, len(b.Res))
	for i, a := range b.Res {
		out[i] = m.atom(a)
		if bound[a.Name] {
			total.F += value.Size(out[i])
		} else if a.IsConst() {
			total.F++
		}
	}
	return out, total, nil
}

// lazyCost is the cost of a hoisted statement, charged where its value is
// first needed: a statement that uses it outside its nested bodies, or a
// body's result. A loop or SOAC the statement came out of that runs no
// iteration or instance never needs it, and does not pay for it (as the
// source, which computes it in each, does not); one that runs pays for it
// once, in the first that uses it. deps are the hoisted statements it
// used, charged with it.
type lazyCost struct {
	c       stepCost
	deps    []string
	charged bool
}

// charge is the cost of the hoisted statements among names not charged
// yet (their deps first), composed one after another; they are charged
// now.
func (m *machine) charge(names []string) stepCost {
	var c stepCost
	var live int64
	for _, n := range names {
		l, ok := m.lazy[n]
		if !ok {
			continue
		}
		delete(m.lazy, n)
		if l.charged {
			continue
		}
		l.charged = true
		c.then(m.charge(l.deps), &live)
		c.then(l.c, &live)
	}
	c.F = live
	return c
}

// before is c after the hoisted values pre that c's step needs: their
// work and depth first, their words live during c's step.
func (pre stepCost) before(c stepCost) stepCost {
	if pre == (stepCost{}) {
		return c
	}
	live := pre.F
	t := pre
	t.then(c, &live)
	t.F = c.F
	return t
}

// lastUses gives, for each name bound in b, the index of the last
// statement that uses it (len(b.Stms) for the result).
func lastUses(b *Body) map[string]int {
	last := map[string]int{}
	for i, st := range b.Stms {
		uses(st.E, func(n string) { last[n] = i })
	}
	for _, a := range b.Res {
		if a.Name != "" {
			last[a.Name] = len(b.Stms)
		}
	}
	return last
}

func (m *machine) apply(l *Lambda, args []value.Value) ([]value.Value, stepCost, error) {
	for i, p := range l.Params {
		m.env[p.Name] = args[i]
	}
	return m.body(l.Body)
}

// maxElems bounds the arrays iota and replicate make (the reference
// evaluator's memory limit is the session's; this one only keeps a bad
// program from exhausting memory).
const maxElems = 1 << 32

func (m *machine) check() error {
	m.steps++
	if m.steps&1023 == 0 {
		if m.ctx != nil {
			if err := m.ctx.Err(); err != nil {
				return err
			}
		}
		// what builds up in many small values (the rows of a map)
		return m.alloc(0, -1)
	}
	return nil
}

// alloc checks the memory limit before a step allocates bytes for an
// array of elems elements (elems -1: a periodic check, bytes 0).
func (m *machine) alloc(bytes, elems int64) error {
	if m.mem == nil {
		return nil
	}
	if err := m.mem(bytes, elems); err != nil {
		return &RuntimeError{Msg: err.Error(), Err: err}
	}
	return nil
}

// elemBytes is the bytes an element of type t takes in an array.
func elemBytes(t value.PrimType) int64 { return int64(max(1, t.Bits()/8)) }

// bytesOf is about the bytes v holds: an array of a primitive type by
// its elements' size, other values at a word per scalar.
func bytesOf(v value.Value) int64 {
	if a, ok := v.(*value.Array); ok && a.Kind == value.KPrim {
		return a.NumElems() * elemBytes(a.T)
	}
	return 8 * value.Size(v)
}

// allocCopy checks the memory limit before a step copies a.
func (m *machine) allocCopy(a *value.Array) error {
	return m.alloc(bytesOf(a), a.NumElems())
}

func one(v value.Value) []value.Value { return []value.Value{v} }

// scalarStep is a scalar operation on atoms: (1, 1, 1).
func scalarStep(as ...Atom) stepCost { return fresh(1, 1, 1) }

// fresh is a step's cost that makes s words; a step with depth charges at
// least that much work (COST_MODEL.md: D ≤ W for every expression, an
// empty concat or literal included).
func fresh(w, d, s int64) stepCost { return stepCost{Cost{max(w, d), d, s, s}, s} }

func (m *machine) exp(e Exp) ([]value.Value, stepCost, error) {
	if err := m.check(); err != nil {
		return nil, stepCost{}, err
	}
	switch e := e.(type) {
	case *AtomE:
		c := stepCost{}
		if e.X.IsConst() {
			c.F = 1
		}
		return one(m.atom(e.X)), c, nil
	case *BinOpE:
		r, err := BinOp(e.Op, m.prim(e.X), m.prim(e.Y))
		if err != nil {
			return nil, stepCost{}, rtErr("%s", err)
		}
		if e.Implicit {
			return one(r), stepCost{}, nil
		}
		return one(r), scalarStep(e.X, e.Y), nil
	case *UnOpE:
		args := make([]value.Prim, len(e.Args))
		for i, a := range e.Args {
			args[i] = m.prim(a)
		}
		r, err := unop(e.Op, args)
		if err != nil {
			return nil, stepCost{}, err
		}
		return one(r), scalarStep(e.Args...), nil
	case *ConvE:
		if e.Implicit {
			return one(value.Convert(m.prim(e.X), e.To)), stepCost{}, nil
		}
		return one(value.Convert(m.prim(e.X), e.To)), scalarStep(e.X), nil
	case *AssertE:
		if !m.prim(e.Cond).Bool() {
			return nil, stepCost{}, &AssertError{Msg: e.Msg, Where: e.Where, Approx: e.Approx}
		}
		// A check costs nothing: the reference path charges none for
		// coercions and bounds, and assert's own cost is its operand's.
		return one(value.MkBool(true)), stepCost{}, nil
	case *IfE:
		var vs []value.Value
		var c stepCost
		var err error
		if m.prim(e.Cond).Bool() {
			vs, c, err = m.body(e.Then)
		} else {
			vs, c, err = m.body(e.Else)
		}
		if !e.Implicit {
			c.Work++
			c.Depth++
		}
		return vs, c, err
	case *LoopE:
		return m.loop(e)
	case *IndexE:
		v := m.atom(V(e.Arr))
		shape := v.(*value.Array).Shape
		for k, ia := range e.Idx {
			a := v.(*value.Array)
			i := m.int(ia)
			if i < 0 || i >= a.Len() {
				return nil, stepCost{}, outOfBounds(m.ints(e.Idx, k, i), shape)
			}
			v = a.Index(i)
		}
		if e.Implicit {
			return one(v), stepCost{}, nil
		}
		if _, ok := v.(value.Prim); ok {
			return one(v), scalarStep(e.Idx...), nil
		}
		c := scalarStep(e.Idx...)
		c.SpaceSeq, c.SpacePar, c.F = c.SpaceSeq-1, c.SpacePar-1, 0
		return one(v), c, nil
	case *UpdateE:
		if err := m.allocCopy(m.arr(e.Arr)); err != nil {
			return nil, stepCost{}, err
		}
		a := m.arr(e.Arr).Copy()
		row := a
		for k, ia := range e.Idx {
			i := m.int(ia)
			if i < 0 || i >= row.Len() {
				return nil, stepCost{}, outOfBounds(m.ints(e.Idx, k, i), a.Shape)
			}
			if k == len(e.Idx)-1 {
				if err := row.SetRow(i, m.atom(e.X)); err != nil {
					return nil, stepCost{}, err
				}
			} else {
				row = row.Index(i).(*value.Array)
			}
		}
		c := scalarStep(append(append([]Atom{}, e.Idx...), e.X)...)
		c.SpaceSeq, c.SpacePar, c.F = c.SpaceSeq-1, c.SpacePar-1, 0
		return one(a), c, nil
	case *SliceE:
		a := m.arr(e.Arr)
		lo, n := m.int(e.Start), m.int(e.Len)
		if lo < 0 || n < 0 || lo+n > a.Len() {
			return nil, stepCost{}, rtErr("slice [%d:%d] out of bounds for array of %d elements", lo, lo+n, a.Len())
		}
		return one(a.Slice(lo, lo+n)), stepCost{Cost: Cost{1, 1, 0, 0}}, nil
	case *IotaE:
		n := m.int(e.N)
		if n < 0 || n > maxElems {
			return nil, stepCost{}, rtErr("iota of size %d", n)
		}
		st := m.prim(e.start())
		if err := m.alloc(n*elemBytes(st.T), n); err != nil {
			return nil, stepCost{}, err
		}
		a := value.NewPrimArray(st.T, []int64{n})
		for i := int64(0); i < n; i++ {
			value.DataSet(a.Data, int(i), value.MkInt(st.T, st.Int()+i))
		}
		return one(a), withConsts(fresh(max(n, 1), 1, n+1), e.N), nil
	case *ReplicateE:
		n := m.int(e.N)
		if n < 0 || n > maxElems {
			return nil, stepCost{}, rtErr("replicate of size %d", n)
		}
		x := m.atom(e.X)
		elems := n
		if a, ok := x.(*value.Array); ok {
			elems *= a.NumElems()
		}
		if err := m.alloc(n*bytesOf(x), elems); err != nil {
			return nil, stepCost{}, err
		}
		r := value.Replicate(n, x)
		// every step with depth costs at least 1 work (D ≤ W), as on the
		// reference path
		return one(r), withConsts(fresh(max(r.NumElems(), 1), 1, r.Words()), e.N, e.X), nil
	case *ArrayE:
		vs := make([]value.Value, len(e.Elems))
		for i, a := range e.Elems {
			vs[i] = m.atom(a)
		}
		a, err := value.FromValues(vs, m.zero(e.Elem))
		if err != nil {
			return nil, stepCost{}, err
		}
		return one(a), withConsts(fresh(int64(len(vs)), 1, a.Words()), e.Elems...), nil
	case *TransposeE:
		if err := m.allocCopy(m.arr(e.Arr)); err != nil {
			return nil, stepCost{}, err
		}
		r := m.arr(e.Arr).Transpose()
		return one(r), fresh(r.NumElems(), 1, r.Words()), nil
	case *ReverseE:
		a := m.arr(e.Arr)
		idx := make([]int64, a.Len())
		for i := range idx {
			idx[i] = a.Len() - 1 - int64(i)
		}
		// a view, which the plan folds into the indexing of its users:
		// no work (the source's reverse costs 1 whatever the number of
		// arrays a tuple of arrays flattens into)
		return one(a.Gather(idx)), stepCost{}, nil
	case *ConcatE:
		var as []*value.Array
		var bytes, elems int64
		for _, n := range e.Arrs {
			a := m.arr(n)
			as = append(as, a)
			bytes, elems = bytes+bytesOf(a), elems+a.NumElems()
		}
		if err := m.alloc(bytes, elems); err != nil {
			return nil, stepCost{}, err
		}
		r, err := value.Concat(as)
		if err != nil {
			return nil, stepCost{}, rtErr("concat: %v", err)
		}
		if r.Len() != m.int(e.N) {
			return nil, stepCost{}, rtErr("concat gives %d rows, not %d", r.Len(), m.int(e.N))
		}
		return one(r), fresh(r.NumElems(), 1, r.Words()), nil
	case *ReshapeE:
		a := m.arr(e.Arr)
		shape := make([]int64, len(e.Shape))
		count := int64(1)
		for i, d := range e.Shape {
			shape[i] = m.int(d)
			count *= shape[i]
		}
		if count != a.NumElems() {
			return nil, stepCost{}, rtErr("cannot view %d elements as %s", a.NumElems(), value.ShapeString(shape))
		}
		if e.Coerce {
			return one(a.Reshape(shape)), stepCost{}, nil
		}
		return one(a.Reshape(shape)), fresh(1, 1, 0), nil
	case *CopyE:
		if err := m.allocCopy(m.arr(e.Arr)); err != nil {
			return nil, stepCost{}, err
		}
		r := m.arr(e.Arr).Copy()
		if e.Part { // beside the first field's copy: no depth of its own
			return one(r), stepCost{Cost{r.Words(), 0, r.Words(), r.Words()}, r.Words()}, nil
		}
		return one(r), fresh(r.Words(), 1, r.Words()), nil
	case *ScremaE:
		return m.screma(e)
	case *StreamE:
		return m.stream(e)
	case *FilterE:
		return m.filter(e)
	case *ScatterE:
		vs, c, err := m.scatter(e.Dest, e.W, e.Arrs, e.Index, e.Gens, e.Map, nil)
		if n := m.int(e.W); e.Slice && err == nil && n > 0 {
			// an update of a slice: one step of its own, as the source's
			// rule (docs/cost.md), besides what fused into it
			c.Work += 1 - n
		}
		if e.Part && err == nil { // charged by the first field's scatter
			c.Work, c.Depth = 0, 0
		}
		return vs, c, err
	case *HistE:
		return m.scatter(e.Dest, e.W, e.Arrs, e.Index, e.Gens, e.Map, e.Op)
	}
	return nil, stepCost{}, fmt.Errorf("ir eval: unknown expression %T", e)
}

// zero is a value of type t (for empty arrays' templates).
func (m *machine) zero(t Type) value.Value {
	z := value.Prim{T: t.Elem}
	if t.Rank() == 0 {
		return z
	}
	shape := make([]int64, t.Rank())
	for i, d := range t.Shape {
		shape[i] = m.int(d)
	}
	return value.NewPrimArray(t.Elem, shape)
}

var extraBinOps = map[string]value.BinOp{"min": value.OpMin, "max": value.OpMax}

func BinOp(op string, x, y value.Prim) (value.Prim, error) {
	bop, ok := value.LookupBinOp(op)
	if !ok {
		bop, ok = extraBinOps[op]
	}
	if !ok {
		return value.Prim{}, fmt.Errorf("unknown operator %s", op)
	}
	return value.Binary(bop, x, y)
}

func unop(op string, args []value.Prim) (value.Prim, error) {
	x := args[0]
	switch op {
	case "neg":
		return value.Neg(x), nil
	case "not":
		return value.Not(x), nil
	case "abs":
		if x.T.IsFloat() {
			return value.MkFloat(x.T, math.Abs(x.Float())), nil
		}
		if x.T.IsSigned() && x.Int() < 0 {
			return value.Neg(x), nil
		}
		return x, nil
	case "sgn":
		switch {
		case x.T.IsFloat():
			f := x.Float()
			s := 0.0
			if f > 0 {
				s = 1
			} else if f < 0 {
				s = -1
			} else {
				s = f
			}
			return value.MkFloat(x.T, s), nil
		case x.T.IsSigned() && x.Int() < 0:
			return value.MkInt(x.T, -1), nil
		case x.B == 0:
			return x, nil
		}
		return value.MkInt(x.T, 1), nil
	case "isnan":
		return value.MkBool(x.T.IsFloat() && math.IsNaN(x.Float())), nil
	case "isinf":
		return value.MkBool(x.T.IsFloat() && math.IsInf(x.Float(), 0)), nil
	}
	if r, ok := bitOp(op, args); ok {
		return r, nil
	}
	if len(args) == 1 {
		if r, ok := value.Math1(op, x); ok {
			return r, nil
		}
	} else if len(args) == 2 {
		if r, ok := value.Math2(op, x, args[1]); ok {
			return r, nil
		}
	}
	return value.Prim{}, fmt.Errorf("ir eval: unknown function %s of %d arguments", op, len(args))
}
