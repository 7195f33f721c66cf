package interp

import (
	"context"
	"fmt"

	"fut/eval"
	"fut/eval/value"
	"fut/interp/ir"
	"fut/interp/syntax"
	"fut/interp/types"
)

// IR lowers an expression to the core IR and runs the pass pipeline,
// returning the text of every stage (for the REPL's :ir). An expression
// the IR cannot take yet gives an *ir.NotLowered error.
func (s *Session) IR(src string) ([]ir.Stage, error) {
	p, _, err := s.lowerExpr(src)
	if err != nil {
		return nil, err
	}
	return ir.Pipeline(p, "")
}

// FusedCost is the cost of an expression's fused plan: the expression
// lowered, simplified and fused, then costed by COST_MODEL.md's rules.
func (s *Session) FusedCost(ctx context.Context, src string) (eval.Cost, error) {
	p, args, err := s.lowerExpr(src)
	if err != nil {
		return eval.Cost{}, err
	}
	fused, _, err := ir.Run(p, "simplify-final")
	if err != nil {
		return eval.Cost{}, err
	}
	c, err := ir.FusedCost(ctx, fused, args)
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
	e, err := s.ParseExpr(src)
	if err != nil {
		return nil, nil, err
	}
	if _, err := s.checker.CheckExpr(e); err != nil {
		return nil, nil, err
	}
	return ir.LowerExpr(s.Fset, s.checker.Info(), sessionGlobals{s}, e)
}

// sessionGlobals answers the lowerer's questions about declared
// constants from the evaluator.
type sessionGlobals struct{ s *Session }

func (g sessionGlobals) Const(fb *syntax.FunBind) (value.Value, bool) { return g.s.ev.ConstValue(fb) }

// LowerEntryIR lowers the entry point (or top-level function) name applied
// to concrete arguments, for running a whole program through the IR.
func (s *Session) LowerEntryIR(name string, args []value.Value) (*ir.Prog, []value.Value, error) {
	fb, ok := s.entryDecl(name)
	if !ok {
		return nil, nil, fmt.Errorf("no function %s", name)
	}
	return ir.LowerFun(s.Fset, s.checker.Info(), sessionGlobals{s}, fb, args)
}

// entryDecl is the declaration that the top-level name denotes now.
func (s *Session) entryDecl(name string) (*syntax.FunBind, bool) {
	obj, ok := s.checker.TopLevel(name)
	if !ok || obj.Kind != types.ObjDecl {
		return nil, false
	}
	return obj.Fun, true
}
