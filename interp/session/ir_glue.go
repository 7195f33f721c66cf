package session

import (
	"context"
	"fmt"

	"fut/eval"
	"fut/eval/value"
	"fut/interp/ir"
	"fut/interp/lower"
	"fut/interp/syntax"
	"fut/interp/types"
)

// IR lowers an expression to the core IR and runs the pass pipeline,
// returning the text of every stage (for the REPL's :ir). An expression
// the IR cannot take yet gives an *lower.NotLowered error.
func (s *Session) IR(src string) ([]ir.Stage, error) {
	e, err := s.checkedExpr(src)
	if err != nil {
		return nil, err
	}
	staged, sources, err := s.stages(lower.Root{Expr: e})
	if err != nil {
		return sources, err
	}
	p, _, err := lower.LowerExpr(s.Fset, staged.Info, stagedGlobals{s, staged.Info}, staged.Root.Body)
	if err != nil {
		return sources, err
	}
	stages, err := ir.Pipeline(p, "")
	return append(sources, stages...), err
}

// FusedCost is the cost of an expression's fused plan: the expression
// lowered, simplified and fused, then costed by COST_MODEL.md's rules.
func (s *Session) FusedCost(ctx context.Context, src string) (eval.Cost, error) {
	e, err := s.checkedExpr(src)
	if err != nil {
		return eval.Cost{}, err
	}
	p, args, err := s.lowerChecked(e)
	if err != nil {
		return eval.Cost{}, err
	}
	fused, _, err := ir.Run(p, "simplify-final")
	if err != nil {
		return eval.Cost{}, err
	}
	c, err := ir.FusedCostWith(ctx, fused, args, s.irLimits(e))
	if err != nil {
		return eval.Cost{}, err
	}
	return eval.Cost{Work: c.Work, Depth: c.Depth, SpaceSeq: c.SpaceSeq, SpacePar: c.SpacePar}, nil
}

// EntryFusedCost is the cost of an entry point's fused plan for the given
// arguments: lowered, simplified and fused, then costed by COST_MODEL.md's
// rules (an *lower.NotLowered error when it does not lower).
func (s *Session) EntryFusedCost(ctx context.Context, name string, args []value.Value) (eval.Cost, error) {
	p, irArgs, err := s.LowerEntryIR(name, copyArrays(args))
	if err != nil {
		return eval.Cost{}, err
	}
	fused, _, err := ir.Run(p, "simplify-final")
	if err != nil {
		return eval.Cost{}, err
	}
	c, err := ir.FusedCostWith(ctx, fused, irArgs, s.irLimits(s.entryNode(name)))
	if err != nil {
		return eval.Cost{}, err
	}
	return eval.Cost{Work: c.Work, Depth: c.Depth, SpaceSeq: c.SpaceSeq, SpacePar: c.SpacePar}, nil
}

// LowerIR parses, checks and lowers an expression; it returns the program
// and the arguments (its free variables' values) to run it on.
func (s *Session) LowerIR(src string) (*ir.Prog, []value.Value, error) {
	return s.lowerExpr(src)
}

func (s *Session) lowerExpr(src string) (*ir.Prog, []value.Value, error) {
	e, err := s.checkedExpr(src)
	if err != nil {
		return nil, nil, err
	}
	return s.lowerChecked(e)
}

// checkedExpr parses and checks an expression.
func (s *Session) checkedExpr(src string) (syntax.Expr, error) {
	e, err := s.ParseExpr(src)
	if err != nil {
		return nil, err
	}
	if _, err := s.checker.CheckExpr(e); err != nil {
		return nil, err
	}
	return e, nil
}

// lowerChecked lowers a checked expression through the source stages to
// the core IR.
func (s *Session) lowerChecked(e syntax.Expr) (*ir.Prog, []value.Value, error) {
	staged, _, err := s.stages(lower.Root{Expr: e})
	if err != nil {
		return nil, nil, err
	}
	return lower.LowerExpr(s.Fset, staged.Info, stagedGlobals{s, staged.Info}, staged.Root.Body)
}

// stages runs the source stages (interp/lower) for root; it returns the
// last stage's program and the text of each.
func (s *Session) stages(root lower.Root) (*lower.Prog, []ir.Stage, error) {
	p, texts, err := lower.Run(s.Fset, s.checker.Info(), root)
	stages := make([]ir.Stage, len(texts))
	for i, t := range texts {
		stages[i] = ir.Stage{Name: t.Name, Text: t.Text}
	}
	return p, stages, err
}

// stagedGlobals answers the lowerer's questions about declared constants
// from the evaluator: a staged program's copy of a top-level constant has
// the value the evaluator computed for the constant.
type stagedGlobals struct {
	s    *Session
	info *lower.Info
}

func (g stagedGlobals) Const(fb *syntax.FunBind) (value.Value, bool) {
	orig, ok := g.info.ConstOf(fb)
	if !ok {
		return nil, false
	}
	return g.s.ev.ConstValue(orig)
}

// LowerEntryIR lowers the entry point (or top-level function) name applied
// to concrete arguments, for running a whole program through the IR.
func (s *Session) LowerEntryIR(name string, args []value.Value) (*ir.Prog, []value.Value, error) {
	fb, ok := s.entryDecl(name)
	if !ok {
		return nil, nil, fmt.Errorf("no function %s", name)
	}
	staged, _, err := s.stages(lower.Root{Fun: fb, Entry: true})
	if err != nil {
		return nil, nil, err
	}
	return lower.LowerFun(s.Fset, staged.Info, stagedGlobals{s, staged.Info}, staged.Root, args)
}

// entryDecl is the declaration that the top-level name denotes now.
func (s *Session) entryDecl(name string) (*syntax.FunBind, bool) {
	obj, ok := s.checker.TopLevel(name)
	if !ok || obj.Kind != types.ObjDecl {
		return nil, false
	}
	return obj.Fun, true
}
