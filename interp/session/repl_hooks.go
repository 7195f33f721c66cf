package session

// What the REPL needs from a session beyond loading and entering source:
// hooks for #[trace] and #[break] that receive values (not strings), a
// switch for cost accounting (:time runs without it), the type scheme of
// a top-level name (:type f), and an expression checked once and run many
// times (:time N e).

import (
	"context"

	"fut/eval"
	"fut/eval/value"
	"fut/interp/syntax"
	"fut/interp/types"
)

// SetTraceHook makes f receive the value of every #[trace] e and trace x,
// replacing Options.Trace; nil restores Options.Trace.
func (s *Session) SetTraceHook(f func(pos syntax.Pos, tag string, v value.Value)) {
	o := s.ev.Options()
	if f == nil {
		o.Trace = s.evalOptions().Trace
	} else {
		o.Trace = f
	}
	s.ev.SetOptions(o)
}

// SetBreakHook makes f run at every #[break] e and break x, on the
// evaluating goroutine: the evaluation waits until f returns. nil turns
// break points off.
func (s *Session) SetBreakHook(f func(b eval.BreakInfo)) {
	o := s.ev.Options()
	o.Break = f
	s.ev.SetOptions(o)
}

// SetCost turns cost accounting on or off for later evaluations and
// returns the previous setting.
func (s *Session) SetCost(on bool) bool {
	o := s.ev.Options()
	old := o.Cost
	o.Cost = on
	s.ev.SetOptions(o)
	return old
}

// LookupScheme returns the type scheme of a top-level value, with its
// type and size parameters (:type of a bare name).
func (s *Session) LookupScheme(name string) (*types.Scheme, bool) {
	return s.checker.LookupValue(name)
}

// Prepared is an expression parsed and type-checked once, to be
// evaluated any number of times.
type Prepared struct {
	s    *Session
	Expr syntax.Expr
	Type string
}

// Prepare parses and checks an expression without evaluating it.
func (s *Session) Prepare(src string) (*Prepared, error) {
	e, err := s.ParseExpr(src)
	if err != nil {
		return nil, err
	}
	t, err := s.checker.CheckExpr(e)
	if err != nil {
		return nil, err
	}
	return &Prepared{s: s, Expr: e, Type: t.String()}, nil
}

// Run evaluates a prepared expression.
func (p *Prepared) Run(ctx context.Context) (*Result, error) {
	v, c, err := p.s.ev.EvalExpr(ctx, p.Expr)
	if err != nil {
		return nil, err
	}
	return &Result{Value: v, Type: p.Type, Cost: c}, nil
}
