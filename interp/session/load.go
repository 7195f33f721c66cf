package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"fut/eval"
	"fut/eval/value"
	"fut/interp/syntax"
	"fut/interp/types"
)

// ParseFile reads and parses a file, registering it so that an import of
// the same path later reuses the parsed program.
func (s *Session) ParseFile(path string) (*syntax.Program, error) {
	full := filepath.Clean(path)
	src, err := os.ReadFile(full)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, unwrapPathErr(err))
	}
	prog, err := syntax.ParseFile(s.Fset, full, src)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.imported[full] = prog
	s.mu.Unlock()
	return prog, nil
}

// CheckFile parses and type-checks a file, adding its definitions to the
// session's environment for the checker only.
func (s *Session) CheckFile(path string) error {
	prog, err := s.ParseFile(path)
	if err != nil {
		return err
	}
	return s.checker.CheckProgram(prog)
}

// Warnings are the checker's warnings about the last file checked or
// loaded (CheckFile, LoadFile), in source order; they are forgotten once
// returned.
func (s *Session) Warnings() syntax.ErrorList { return s.checker.Warnings() }

// FormatWarnings prints warnings one per line as
// "file:line:col-col: warning: message".
func (s *Session) FormatWarnings(ws syntax.ErrorList) string {
	var b strings.Builder
	for i, w := range ws {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s.Fset.Format(&syntax.Error{Span: w.Span, Msg: "warning: " + w.Msg, Hint: w.Hint}))
	}
	return b.String()
}

// LoadFile parses, checks and evaluates a file's top-level definitions;
// afterwards they are in scope for expressions and entry points.
func (s *Session) LoadFile(ctx context.Context, path string) error {
	prog, err := s.ParseFile(path)
	if err != nil {
		return err
	}
	// A file whose evaluation fails half-way (a top-level constant that
	// indexes out of bounds) is undone whole: the checker and the
	// evaluator go back to what they had before it, so the session never
	// holds part of a file.
	checked, evaluated := s.checker.Snapshot(), s.ev.Snapshot()
	if err := s.checker.CheckProgram(prog); err != nil {
		s.checker.Restore(checked)
		return err
	}
	if err := s.ev.EvalProgram(ctx, prog); err != nil {
		s.checker.Restore(checked)
		s.ev.Restore(evaluated)
		return err
	}
	s.lastLoad = path
	return nil
}

// LastLoaded is the path of the last file loaded successfully.
func (s *Session) LastLoaded() string { return s.lastLoad }

// Result is what evaluating an expression gave.
type Result struct {
	Value value.Value
	Type  string
	Cost  eval.Cost
	// RanOn says where it was evaluated: "interp" (the reference path,
	// which also computed Cost) or "opencl (device)".
	RanOn string
	// Src is the expression's text where it ran on the device: Cost is
	// then not computed (costs are the program's, from the reference
	// path: ReferenceCost).
	Src string
	// Transfers says, where it ran on the device, what the call uploaded
	// and which arguments were there already ("2 uploaded for the call;
	// 1 argument on the device already (4 MiB)"; "" for none).
	Transfers string
}

// Offloaded reports whether the result was computed on the device (its
// Cost then not computed).
func (r *Result) Offloaded() bool { return r.RanOn != "" && r.RanOn != "interp" }

// ReferenceCost is the cost of the expression of a result computed on the
// device, by the reference path's rules (it evaluates the expression
// there), or the result's Cost.
func (s *Session) ReferenceCost(ctx context.Context, r *Result) (eval.Cost, error) {
	if !r.Offloaded() || r.Src == "" {
		return r.Cost, nil
	}
	ref, err := s.EvalExpr(ctx, r.Src)
	if err != nil {
		return eval.Cost{}, err
	}
	return ref.Cost, nil
}

// BeginEntry starts the next REPL entry and returns its number, the
// one the REPL shows in its prompt: until end is called, everything
// parsed from text typed by the user (Enter, EvalExpr, TypeOf, Prepare,
// IR, FusedCost, the offload path, however often a command parses its
// argument) is the pseudo-file <repl:n>, so that positions in messages
// name the entry the user sees. Entries may nest (an entry typed at a
// break point during another): end returns to the enclosing one.
func (s *Session) BeginEntry() (n int, end func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.entries++
	prev := s.entry
	s.entry = s.entries
	return s.entry, func() {
		s.mu.Lock()
		s.entry = prev
		s.mu.Unlock()
	}
}

// NextEntry is the number the next BeginEntry gives.
func (s *Session) NextEntry() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.entries + 1
}

// entryName names the pseudo-file of source typed by the user: the
// entry begun, or outside any (fut eval, fut ir), a new number per parse.
func (s *Session) entryName() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.entry == 0 {
		s.entries++
		return fmt.Sprintf("<repl:%d>", s.entries)
	}
	return fmt.Sprintf("<repl:%d>", s.entry)
}

// ParseExpr parses an expression typed by the user.
func (s *Session) ParseExpr(src string) (syntax.Expr, error) {
	return syntax.ParseExpr(s.Fset, s.entryName(), []byte(src))
}

// TypeOf type-checks an expression and returns its type.
func (s *Session) TypeOf(src string) (types.Type, error) {
	e, err := s.ParseExpr(src)
	if err != nil {
		return nil, err
	}
	return s.checker.CheckExpr(e)
}

// EvalExpr parses, checks and evaluates one expression.
func (s *Session) EvalExpr(ctx context.Context, src string) (*Result, error) {
	e, err := s.ParseExpr(src)
	if err != nil {
		return nil, err
	}
	return s.evalParsed(ctx, e)
}

func (s *Session) evalParsed(ctx context.Context, e syntax.Expr) (*Result, error) {
	t, err := s.checker.CheckExpr(e)
	if err != nil {
		return nil, err
	}
	v, c, err := s.ev.EvalExpr(ctx, e)
	if err != nil {
		return nil, err
	}
	return &Result{Value: v, Type: t.String(), Cost: c}, nil
}

// Entry is what a REPL line turned out to be.
type Entry struct {
	Decls  []syntax.Decl
	Result *Result // nil for declarations
	Why    string  // why an expression stayed on the reference path under opencl or auto
}

// Enter parses a REPL entry (declarations or an expression), checks it and
// evaluates it. Declarations stay in scope for later entries; on error
// nothing changes.
func (s *Session) Enter(ctx context.Context, src string) (*Entry, error) {
	decls, e, err := syntax.ParseEntry(s.Fset, s.entryName(), []byte(src))
	if err != nil {
		return nil, err
	}
	if e != nil {
		if b := s.Backend(); b != BackendInterp {
			r, why, err := s.EvalOn(ctx, b, src)
			if err != nil {
				return nil, err
			}
			return &Entry{Result: r, Why: why}, nil
		}
		r, err := s.evalParsed(ctx, e)
		if err != nil {
			return nil, err
		}
		r.RanOn = "interp"
		return &Entry{Result: r}, nil
	}
	// As with a file: declarations that check but fail to evaluate (a
	// constant that indexes out of bounds, a module with one) are undone
	// whole, in the checker too, so that :type, :cost and :ir never see
	// a definition that evaluation does not have.
	checked, evaluated := s.checker.Snapshot(), s.ev.Snapshot()
	if err := s.checker.CheckDecls(decls); err != nil {
		s.checker.Restore(checked)
		return nil, err
	}
	if err := s.ev.EvalDecls(ctx, decls); err != nil {
		s.checker.Restore(checked)
		s.ev.Restore(evaluated)
		return nil, err
	}
	return &Entry{Decls: decls}, nil
}

// EntryPoint describes an entry point's parameters and results.
// A program's `main`, defined with def as most of Futhark's tests do, is an
// entry point too.
func (s *Session) EntryPoint(name string) (params, results []types.Type, ok bool) {
	if params, results, ok = s.checker.EntryPoint(name); ok {
		return params, results, true
	}
	sch, ok := s.checker.LookupValue(name)
	if !ok {
		return nil, nil, false
	}
	t := sch.Type
	for {
		a, isArrow := types.Resolve(t).(*types.Arrow)
		if !isArrow {
			break
		}
		params = append(params, a.From)
		t = a.To
	}
	if r, isRec := types.Resolve(t).(*types.Record); isRec && r.IsTuple() && len(r.Fields) > 0 {
		for _, f := range r.Fields {
			results = append(results, f.Type)
		}
	} else {
		results = []types.Type{t}
	}
	return params, results, true
}

// CallEntry runs an entry point on arguments.
func (s *Session) CallEntry(ctx context.Context, name string, args []value.Value) ([]value.Value, eval.Cost, error) {
	return s.ev.CallEntry(ctx, name, args)
}

// Interrupted reports whether err is a cancellation.
func Interrupted(err error) bool {
	return err != nil && (err == context.Canceled || strings.Contains(err.Error(), "interrupted"))
}

// Type is a type as the checker gives it.
type Type = types.Type

// ElemPrim returns the primitive element type of a (possibly array) type,
// as the data readers need it for unsuffixed literals.
func ElemPrim(t Type) value.PrimType {
	for {
		switch x := t.(type) {
		case *types.Array:
			t = x.Elem
		case *types.Prim:
			return value.ParsePrimType(string(x.Kind))
		default:
			return value.NoPrim
		}
	}
}
