package interp

import (
	"context"
	"fmt"
	"strings"

	"fut/eval"
	"fut/eval/value"
	"fut/interp/ir"
	"fut/interp/syntax"
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

// sessionGlobals answers the lowerer's questions about top-level names
// from the evaluator's environment and the loaded files' definitions.
type sessionGlobals struct{ s *Session }

func (g sessionGlobals) Value(name string) (value.Value, bool) { return g.s.ev.Lookup(name) }

// Fun finds the definition that a top-level name refers to now: among the
// top-level definitions of the loaded files and of the REPL entries (the
// checker's Defs), the one parsed last, which is the one in scope.
func (g sessionGlobals) Fun(name string) (*syntax.FunBind, bool) {
	var found *syntax.FunBind
	consider := func(fb *syntax.FunBind) {
		if fb.Name == name && (found == nil || fb.Pos() > found.Pos()) {
			found = fb
		}
	}
	g.s.mu.Lock()
	for path, prog := range g.s.imported {
		if strings.HasPrefix(path, "/prelude/") {
			continue
		}
		for _, d := range prog.Decls {
			if vd, ok := d.(*syntax.ValDecl); ok {
				consider(vd.Fun)
			}
		}
	}
	g.s.mu.Unlock()
	var prelude []*syntax.FunBind
	for fb := range g.s.checker.Info().Defs {
		if fb.Name != name {
			continue
		}
		if g.topLevel(fb, "<repl") {
			consider(fb)
		} else if g.topLevel(fb, "/prelude/") {
			prelude = append(prelude, fb)
		}
	}
	// The prelude's own top-level functions (head, tabulate, flip, …),
	// when nothing else has the name: the lowerer inlines their bodies.
	for _, fb := range prelude {
		if found == nil || (isPrelude(g.s.Fset, found) && fb.Pos() > found.Pos()) {
			found = fb
		}
	}
	return found, found != nil
}

func isPrelude(fset *syntax.FileSet, fb *syntax.FunBind) bool {
	f := fset.File(fb.Pos())
	return f != nil && strings.HasPrefix(f.Name, "/prelude/")
}

// topLevel reports whether fb is a top-level declaration (not a local
// function, nor a module's member) of a file whose name has the prefix:
// it starts a line with def, let or entry.
func (g sessionGlobals) topLevel(fb *syntax.FunBind, prefix string) bool {
	f := g.s.Fset.File(fb.Pos())
	if f == nil || !strings.HasPrefix(f.Name, prefix) {
		return false
	}
	off := f.Offset(fb.Pos())
	if off < 0 || off > len(f.Src) || (off > 0 && f.Src[off-1] != '\n') {
		return false
	}
	rest := string(f.Src[off:])
	return strings.HasPrefix(rest, "def ") || strings.HasPrefix(rest, "let ") || strings.HasPrefix(rest, "entry ")
}

// LowerEntryIR lowers the entry point (or top-level function) name applied
// to concrete arguments, for running a whole program through the IR.
func (s *Session) LowerEntryIR(name string, args []value.Value) (*ir.Prog, []value.Value, error) {
	fb, ok := sessionGlobals{s}.Fun(name)
	if !ok {
		return nil, nil, fmt.Errorf("no function %s", name)
	}
	return ir.LowerFun(s.Fset, s.checker.Info(), sessionGlobals{s}, fb, args)
}
