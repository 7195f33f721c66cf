package session

import (
	"context"
	"fmt"

	"fut/eval/value"
	"fut/interp/ir"
	"fut/interp/syntax"
	"fut/interp/types"
)

// CallEntryFused runs an entry point through the core IR: lowered with
// its concrete arguments, passed through every pass of ir.Passes
// (simplification and fusion), and evaluated by the IR evaluator. When
// the entry point cannot be lowered, lowered is false and why says what
// stopped it; the caller decides whether to fall back to the reference
// path.
func (s *Session) CallEntryFused(ctx context.Context, name string, args []value.Value) (out []value.Value, lowered bool, why string, err error) {
	// The IR evaluator may reuse the buffers of consumed arguments, as the
	// reference evaluator does; the caller's values stay untouched.
	prog, irArgs, err := s.LowerEntryIR(name, copyArrays(args))
	if err != nil {
		// Whatever stops the lowering (a construct it does not handle yet,
		// a function it cannot find) leaves the entry on the reference path.
		return nil, false, err.Error(), nil
	}
	fused, _, err := ir.Run(prog, "")
	if err != nil {
		return nil, true, "", err
	}
	flat, err := ir.EvalAllWith(ctx, fused, irArgs, s.irLimits(s.entryNode(name)))
	if err == nil {
		// the IR's results are flat: the entry point's tuples and records
		// of results are rebuilt from them, as on the device
		_, results, _ := s.EntryPoint(name)
		out, err = rebuildAll(results, flat)
		if err != nil {
			return nil, true, "", err
		}
		return out, true, "", nil
	}
	if ctx.Err() == nil {
		// A failing statement names its source position (the lowering
		// gives it the reference path's); only an error without one is
		// reported by running the reference path, with its position and
		// call stack. If the reference path finds none, the fused path is
		// wrong.
		if _, _, ok := Located(err); ok {
			return nil, true, "", err
		}
		if _, _, rerr := s.CallEntry(ctx, name, args); rerr != nil {
			return nil, true, "", rerr
		}
		return nil, true, "", fmt.Errorf("the fused IR failed (%v) where the reference path succeeded", err)
	}
	return nil, true, "", err
}

// irLimits are the session's bounds for an evaluation by the IR
// evaluator: the same memory limit as the reference path's; a failure at
// a statement without a position of its own names at's.
func (s *Session) irLimits(at syntax.Node) ir.EvalOptions {
	o := ir.EvalOptions{Memory: s.ev.MemoryCheck()}
	if at != nil && at.Pos().IsValid() {
		o.Where = s.Fset.Position(at.Pos()).String()
	}
	return o
}

// entryNode is the declaration of the entry point name (nil if none).
func (s *Session) entryNode(name string) syntax.Node {
	if fb, ok := s.entryDecl(name); ok {
		return fb
	}
	return nil
}

// rebuildAll takes the values of the types ts from the IR's flat results.
func rebuildAll(ts []types.Type, flat []value.Value) ([]value.Value, error) {
	if len(ts) == 0 {
		return flat, nil
	}
	out := make([]value.Value, 0, len(ts))
	rest := flat
	for _, t := range ts {
		v, r, ok := rebuild(types.Resolve(t), rest)
		if !ok {
			return nil, fmt.Errorf("a result of type %s is not rebuilt from the fused path's flat results", t)
		}
		out, rest = append(out, v), r
	}
	if len(rest) != 0 {
		return nil, fmt.Errorf("the fused path gives %d flat results more than the entry point's type has", len(rest))
	}
	return out, nil
}

// copyArrays copies the arrays among args, so that a path that consumes
// its arguments (reusing their buffers) leaves the caller's values as
// they were.
func copyArrays(args []value.Value) []value.Value {
	out := make([]value.Value, len(args))
	for i, a := range args {
		if arr, ok := a.(*value.Array); ok {
			out[i] = arr.Copy()
		} else {
			out[i] = a
		}
	}
	return out
}
