// Package session is a fut session: it loads the prelude and the user's
// files, keeps the environment of every definition made so far, runs the
// front end (syntax, types) on each new piece of source, and routes
// evaluation to the reference evaluator (eval).
//
// Input: file paths, REPL entries and expressions as text.
// Output: values with their costs, types, and errors that carry positions.
// Invariant: a failed load, declaration or evaluation leaves the session's
// environment as it was before.
package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"fut/eval"
	"fut/eval/value"
	"fut/interp/ir"
	"fut/interp/syntax"
	"fut/interp/types"
	"fut/prelude"
)

// Options configure a session.
type Options struct {
	// Cost turns on cost accounting in the evaluator.
	Cost bool
	// MaxMemory bounds the bytes the session's values and the running
	// evaluation's intermediates hold live (0: the default; eval/memory.go).
	MaxMemory int64
	// Trace receives #[trace] output; nil writes to stderr.
	Trace func(pos string, v string)
}

// Session is one fut session.
type Session struct {
	Fset    *syntax.FileSet
	opts    Options
	checker *types.Checker
	ev      *eval.Interp

	mu       sync.Mutex
	imported map[string]*syntax.Program // by cleaned path
	entries  int                        // REPL entries read so far
	entry    int                        // the entry begun (BeginEntry), 0 outside one
	lastLoad string
	backend  Backend      // the offload policy of expressions entered (Enter)
	onDevice atomic.Int32 // evaluations running a plan on the device now
}

// NewSession starts a session with the prelude loaded.
func NewSession(opts Options) (*Session, error) {
	if opts.MaxMemory == 0 {
		opts.MaxMemory = DefaultMaxMemory()
	}
	s := &Session{Fset: syntax.NewFileSet(), opts: opts, imported: map[string]*syntax.Program{}}
	s.checker = types.NewChecker(s.Fset, s.importer)
	s.ev = eval.New(s.Fset, s.checker.Info(), s.evalOptions())
	if err := s.loadPrelude(); err != nil {
		return nil, fmt.Errorf("loading the prelude: %s", s.FormatError(err))
	}
	return s, nil
}

func (s *Session) evalOptions() eval.Options {
	o := eval.Options{Cost: s.opts.Cost, MaxMemory: s.opts.MaxMemory}
	o.Import = func(pos syntax.Pos, path string) (*syntax.Program, error) {
		from := ""
		if f := s.Fset.File(pos); f != nil {
			from = f.Name
		}
		return s.importer(from, path)
	}
	if s.opts.Trace != nil {
		o.Trace = func(pos syntax.Pos, tag string, v value.Value) {
			s.opts.Trace(traceWhere(s.Fset.Position(pos).String(), tag), value.String(v))
		}
	} else {
		o.Trace = func(pos syntax.Pos, tag string, v value.Value) {
			fmt.Fprintf(os.Stderr, "%s: %s\n", traceWhere(s.Fset.Position(pos).String(), tag), value.String(v))
		}
	}
	return o
}

func (s *Session) loadPrelude() error {
	specs, err := syntax.ParseSpecs(s.Fset, "/prelude/intrinsics.fut", prelude.Source("intrinsics.fut"))
	if err != nil {
		return err
	}
	markLibrary(s.Fset)
	if err := s.checker.LoadIntrinsics(specs); err != nil {
		return err
	}
	if err := s.ev.LoadIntrinsics(specs); err != nil {
		return err
	}
	for _, name := range prelude.Files {
		prog, err := syntax.ParseFile(s.Fset, "/prelude/"+name, prelude.Source(name))
		if err != nil {
			return err
		}
		markLibrary(s.Fset)
		if err := s.checker.CheckProgram(prog); err != nil {
			return err
		}
		if err := s.ev.EvalProgram(context.Background(), prog); err != nil {
			return err
		}
	}
	s.ev.MarkPrelude()
	return nil
}

// markLibrary marks the file just added to fset as one of the prelude's.
func markLibrary(fset *syntax.FileSet) {
	if f := fset.Last(); f != nil {
		f.Library = true
	}
}

// importer resolves import "path" from the file fromFile. Each file is
// parsed once per session, so the checker's side tables and the
// evaluator see the same nodes.
func (s *Session) importer(fromFile, path string) (*syntax.Program, error) {
	var full string
	switch {
	case strings.HasPrefix(path, "/prelude/"):
		name := strings.TrimPrefix(path, "/prelude/") + ".fut"
		src := prelude.Source(name)
		if src == nil {
			return nil, fmt.Errorf("no prelude file %q", path)
		}
		full = "/prelude/" + name
		prog, err := s.parseOnce(full, func() ([]byte, error) { return src, nil })
		if err == nil && prog.File != nil {
			prog.File.Library = true
		}
		return prog, err
	case filepath.IsAbs(path):
		full = path + ".fut"
	default:
		dir := "."
		if fromFile != "" && !strings.HasPrefix(fromFile, "<") {
			dir = filepath.Dir(fromFile)
		}
		full = filepath.Join(dir, path+".fut")
	}
	full = filepath.Clean(full)
	return s.parseOnce(full, func() ([]byte, error) { return os.ReadFile(full) })
}

func (s *Session) parseOnce(full string, read func() ([]byte, error)) (*syntax.Program, error) {
	s.mu.Lock()
	p, ok := s.imported[full]
	s.mu.Unlock()
	if ok {
		return p, nil
	}
	src, err := read()
	if err != nil {
		return nil, fmt.Errorf("cannot import %s: %v", full, unwrapPathErr(err))
	}
	p, err = syntax.ParseFile(s.Fset, full, src)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.imported[full] = p
	s.mu.Unlock()
	return p, nil
}

func unwrapPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// FormatError prints an error with file:line:col positions.
func (s *Session) FormatError(err error) string {
	var re *eval.RuntimeError
	if errors.As(err, &re) {
		return re.Format(s.Fset)
	}
	if where, msg, ok := Located(err); ok {
		pos, frames := ir.SplitWhere(where)
		var b strings.Builder
		fmt.Fprintf(&b, "Error at %s:\n%s", pos, msg)
		if len(frames) > 0 {
			b.WriteString("\n\nBacktrace:")
			for i, f := range frames {
				fmt.Fprintf(&b, "\n-> #%d %s", i, f)
			}
		}
		return b.String()
	}
	return s.Fset.FormatAll(err)
}

// located is an error of the program found off the reference path (the
// fused IR, a kernel) that names its source position.
type located interface {
	error
	Located() (where, msg string)
}

// Located is the source position and message of an error that the fused
// IR or the device found at a statement with a known position.
func Located(err error) (where, msg string, ok bool) {
	var l located
	if !errors.As(err, &l) {
		return "", "", false
	}
	where, msg = l.Located()
	return where, msg, where != ""
}

// traceWhere is a trace event's position, with its tag (#[trace(tag)]).
func traceWhere(pos, tag string) string {
	if tag == "" {
		return pos
	}
	return pos + " (" + tag + ")"
}
