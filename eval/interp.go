// Package eval is fut's reference evaluator: it computes the value and
// the cost of every expression of the parsed AST, compiled into Go
// closures with their locals in slots (compile*.go): a function's body
// on its first call, a top-level expression or a constant's definition
// where it is evaluated. It is the only evaluator of expressions: the
// tree walker that defined the semantics node by node beside it gave the
// same values and figures on every program of the examples and of
// Futhark's tests, and was retired (issue 18); what it gave on the
// differential tests' programs is kept in testdata/walker, which
// TestCompiledAgrees, TestFlatAgrees and TestBreakLocalsAgree compare
// compiled code with.
//
// Input: parsed declarations and expressions (package syntax), the
// literal types the checker resolved (TypeInfo), and the `val` specs of
// the built-in module `intrinsics`.
// Output: values (package eval/value) and costs (W, D, S1, S∞) as
// COST_MODEL.md defines them; run-time errors as *RuntimeError values.
// Invariants: all per-run state (cost counters, call stack, cancellation,
// limits) lives in a thread, never in globals; an Interp's top-level
// environment only grows (later declarations shadow earlier ones, and
// closures keep what they saw), except that Restore returns it to a
// Snapshot.
//
// Layout: compile*.go compile expressions and patterns (compile.go's
// comment says how), each construct by its form (form.go: its operands'
// order and its charges, which the flat kernels read too); eval_*.go hold declarations and modules (eval_decl.go)
// and the helpers compiled code calls: pattern binding in an environment
// (bindPat, bindLet, matchPat, for sizes), the checks of indices, ranges
// and coercions, operators, literals and empty arrays (FUT_WALKSTATS,
// walkstats.go, counts the entries into those that work in an
// environment built from a frame); apply.go
// holds the function values; soacs.go and intrinsics*.go the built-ins
// of prelude/intrinsics.fut; thread.go the cost accounting (see its
// comment); ad.go is jvp/vjp on dual numbers.
//
// SOACs over arrays of scalars and of records of scalars have faster
// paths that charge exactly what the general path charges (TestKernelsAgree
// against noFast, TestFlatAgrees; TestFlatLambdas counts which SOACs ran
// flat, flatRuns), tried in this order by fast.go:
// native.go's typed Go loops where the operator is a built-in one
// (reduce, scan, hist); else flat kernels (kernel_flat*.go, over the
// layouts of kernel.go; soacs_flat.go) for functions of scalars, records
// and tuples with branches and loops, compiled once per closure and
// layout of the arguments from the function's body with its locals,
// literals, patterns' shapes and operators as the closure compiler
// resolved them (compile_res.go) and calls by each function kind's
// lanes (apply.go), run a batch of elements at a time, with the
// charges of straight-line code worked out at compile time by the step
// rules compiled code charges by (thread.go's meter). What the
// flat compiler refuses (a function of arrays, code under a derivative)
// goes to the general path. fuse.go runs reduce op ne (map f xs…) as one
// loop (fuse_flat.go: flat kernels; or a
// typed f64 loop for map2 of a built-in operator) where reduce and map
// are the prelude's own declarations, by identity.
package eval

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"weak"

	"fut/eval/value"
	"fut/interp/syntax"
	"fut/interp/types"
)

// TypeInfo gives the primitive type of an overloaded literal (types.Info
// implements it). Optionally it also implements EmptyArrayTyper.
type TypeInfo interface {
	LitType(e syntax.Expr) (syntax.PrimType, bool)
}

// EmptyArrayTyper gives the element type and rank of an empty array
// literal `[]` (rank counts the literal's own dimension).
type EmptyArrayTyper interface {
	EmptyArrayType(e syntax.Expr) (elem syntax.PrimType, rank int, ok bool)
}

// Resolver is optionally implemented by TypeInfo: what each use of a name
// denotes (types.Info).
type Resolver interface {
	Use(n syntax.Node) (*types.Object, bool)
}

// SizeArger is optionally implemented by TypeInfo. For a use of a
// function whose size parameters cannot all be read off its arguments'
// shapes (unflatten's n and m come from the context), it gives the
// checker's instantiation of those parameters as expressions over the
// names in scope at the use; the evaluator evaluates them there.
type SizeArger interface {
	SizeArgs(v *syntax.Var) map[string]syntax.Expr
}

// BreakInfo is what a #[break] or `break` stop reports.
type BreakInfo struct {
	Pos    syntax.Pos
	Stack  []Frame
	Locals []Binding // innermost first
}

// Binding is one local variable.
type Binding struct {
	Name  string
	Value value.Value
}

// Options configure an Interp.
type Options struct {
	Cost      bool  // compute costs (off: plain runs, a little faster)
	MaxMemory int64 // bytes the session's values may hold live (memory.go); 0 means no limit
	MaxDepth  int   // deepest evaluation nesting; 0 means the default (100000)
	// Trace receives the value of #[trace] e and of trace x.
	// tag is the attribute's argument (#[trace(tag)]), "" without one.
	Trace func(pos syntax.Pos, tag string, v value.Value)
	// Break is called at #[break] e and break x; nil ignores them.
	Break func(b BreakInfo)
	// Import returns the program that `import "path"` names, seen from
	// the file that holds pos; nil makes import an error.
	Import func(pos syntax.Pos, path string) (*syntax.Program, error)
}

// Cost is the cost of an evaluation per COST_MODEL.md.
type Cost struct {
	Work, Depth, SpaceSeq, SpacePar int64
}

func (c Cost) String() string {
	return fmt.Sprintf("W=%d D=%d S1=%d S∞=%d", c.Work, c.Depth, c.SpaceSeq, c.SpacePar)
}

// Interp holds a session's environment.
type Interp struct {
	fset         *syntax.FileSet
	info         TypeInfo
	opts         Options
	top          *scope
	intrinsics   *module
	imports      map[*syntax.Program]*module
	preludeScope *scope
	preludeSOACs map[*syntax.FunBind]string // the prelude's map, map2, reduce and reduce_comm (fuse.go)
	memBase      int64                      // the session's footprint (memory.go)
	memBaseSet   bool
	noFast       bool                       // tests: disable the specialised SOAC paths
	lits         map[syntax.Expr]value.Prim // literal values, by node
	opCache      map[syntax.Node]bool       // whether an operator node is the built-in one
	exprCode     map[syntax.Expr]*code      // compiled expressions by node (evalCached)

	flatNodes map[syntax.Expr][]*flatShared // flat kernels of lambdas by body (kernel_flat_share.go)
	flatRuns  int64                         // SOACs whose function ran as a flat kernel, each of a fused pair one (tests read it)

	constMu      sync.Mutex
	consts       map[*syntax.FunBind]*constRef // top-level and module constants, by declaration
	constsPruned int                           // len(consts) after the last pruning
}

// ConstValue returns the value that the declaration fb (a constant: a def
// without parameters) was evaluated to, while that value is still bound
// somewhere (a level, a module). ok is false when it was not evaluated,
// when it was evaluated to different values (a constant inside a
// parametric module, one value per application), or when every binding
// of it is gone (the lowerer then computes the definition itself).
func (in *Interp) ConstValue(fb *syntax.FunBind) (v value.Value, ok bool) {
	in.constMu.Lock()
	defer in.constMu.Unlock()
	r, ok := in.consts[fb]
	if !ok || r.many {
		return nil, false
	}
	e := r.w.Value()
	if e == nil {
		return nil, false
	}
	return e.v, true
}

// constEntry is a constant's value as the levels and modules that bind it
// hold it; the Interp's table holds it weakly, so that a constant that a
// redefinition has shadowed (and nothing sees) is freed.
type constEntry struct{ v value.Value }

type constRef struct {
	w    weak.Pointer[constEntry]
	many bool // evaluated again while the first value was bound
}

func (in *Interp) noteConst(fb *syntax.FunBind, v value.Value) *constEntry {
	in.constMu.Lock()
	defer in.constMu.Unlock()
	e := &constEntry{v}
	if in.consts == nil {
		in.consts = map[*syntax.FunBind]*constRef{}
	}
	if r, seen := in.consts[fb]; seen {
		if r.w.Value() != nil {
			r.many = true // evaluated again: one value per functor application
		} else {
			r.w = weak.Make(e)
		}
		return e
	}
	in.consts[fb] = &constRef{w: weak.Make(e)}
	if len(in.consts) >= 2*in.constsPruned+1024 {
		// forget the declarations whose values are gone
		for fb, r := range in.consts {
			if r.w.Value() == nil {
				delete(in.consts, fb)
			}
		}
		in.constsPruned = len(in.consts)
	}
	return e
}

// New makes an interpreter with an empty environment.
func New(fset *syntax.FileSet, info TypeInfo, opts Options) *Interp {
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = 100000
	}
	in := &Interp{fset: fset, info: info, opts: opts,
		imports: map[*syntax.Program]*module{}}
	in.top = newScope(nil)
	in.intrinsics = newModule()
	in.top.mods["intrinsics"] = in.intrinsics
	return in
}

// SetTypeInfo replaces the literal-type table (the checker may build a
// new one per entry).
func (in *Interp) SetTypeInfo(info TypeInfo) { in.info = info }

// SetOptions replaces the options (e.g. to turn costs on for one entry).
func (in *Interp) SetOptions(opts Options) {
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = 100000
	}
	in.opts = opts
}

// Options returns the current options.
func (in *Interp) Options() Options { return in.opts }

// LoadIntrinsics binds the functions that specs declare in the module
// `intrinsics`. A spec the evaluator does not implement is still bound (so
// that declaring it is harmless) and fails when called; the error lists
// such names.
func (in *Interp) LoadIntrinsics(specs []syntax.Spec) error {
	var missing []string
	for _, s := range specs {
		vs, ok := s.(*syntax.ValSpec)
		if !ok {
			continue
		}
		arity := arrowArity(vs.Type)
		impl := lookupIntrinsic(vs.Name)
		if impl == nil {
			missing = append(missing, vs.Name)
		}
		f := &intrinsic{name: vs.Name, arity_: arity, impl: impl}
		in.intrinsics.vals[vs.Name] = &value.Fun{Name: "intrinsics." + vs.Name, Impl: f}
	}
	if len(missing) > 0 {
		return fmt.Errorf("intrinsics not implemented by the evaluator: %v", missing)
	}
	return nil
}

func arrowArity(t syntax.TypeExp) int {
	n := 0
	for {
		switch x := t.(type) {
		case *syntax.TEArrow:
			n++
			t = x.To
			continue
		case *syntax.TEParen:
			t = x.T
			continue
		}
		return n
	}
}

// EvalProgram evaluates a file's declarations into the top-level environment.
func (in *Interp) EvalProgram(ctx context.Context, p *syntax.Program) error {
	return in.EvalDecls(ctx, p.Decls)
}

// EvalDecls evaluates declarations into the top-level environment.
func (in *Interp) EvalDecls(ctx context.Context, decls []syntax.Decl) error {
	t := in.newThread(ctx)
	var err error
	defer t.recoverPanic(&err)
	if walkStats != nil {
		t.enterWalk(walkReason("module-level declaration"))
		defer walkStats.flush()
	}
	// each batch of declarations (a file, a REPL entry) starts a new
	// level, so that what ran before never sees later names
	in.top = in.top.child()
	for _, d := range decls {
		if in.top, err = t.decl(d, in.top, nil); err != nil {
			return err
		}
	}
	return err
}

// EvalExpr evaluates e in the top-level environment.
func (in *Interp) EvalExpr(ctx context.Context, e syntax.Expr) (v value.Value, c Cost, err error) {
	t := in.newThread(ctx)
	defer t.recoverPanic(&err)
	if walkStats != nil {
		t.enterWalk(walkReason("top-level expression"))
		defer walkStats.flush()
	}
	v, err = t.evalCompiled(e, rootEnv(in.top))
	return v, t.result(), err
}

// Lookup returns the value of a top-level name (nil, false if unbound).
func (in *Interp) Lookup(name string) (value.Value, bool) {
	return in.top.lookup(name)
}

// Apply applies a function value to arguments.
func (in *Interp) Apply(ctx context.Context, f value.Value, args []value.Value) (v value.Value, c Cost, err error) {
	t := in.newThread(ctx)
	defer t.recoverPanic(&err)
	if walkStats != nil {
		defer walkStats.flush()
	}
	v, err = t.apply(f, args, syntax.NoPos)
	return v, t.result(), err
}

// CallEntry applies the top-level function name to args and returns its
// results (a tuple result is split into its components).
func (in *Interp) CallEntry(ctx context.Context, name string, args []value.Value) ([]value.Value, Cost, error) {
	f, ok := in.top.lookup(name)
	if !ok {
		return nil, Cost{}, fmt.Errorf("no entry point %q", name)
	}
	var v value.Value
	var c Cost
	var err error
	if fn, isFun := f.(*value.Fun); isFun && len(args) > 0 {
		v, c, err = in.Apply(ctx, fn, args)
	} else if len(args) == 0 {
		v = f
	} else {
		return nil, Cost{}, fmt.Errorf("%s is not a function", name)
	}
	if err != nil {
		return nil, c, err
	}
	if tup, ok := v.(value.Tuple); ok {
		return tup, c, nil
	}
	return []value.Value{v}, c, nil
}

// ErrInterrupted is returned (inside a RuntimeError) when the context is cancelled.
var ErrInterrupted = errors.New("interrupted")

// Bind binds name to v at the top level (e.g. the REPL's last result, or
// data read from a file).
func (in *Interp) Bind(name string, v value.Value) {
	freeze(v)
	in.top = define(in.top.child(), nil, name, v)
}
