package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"fut/eval/value"
	"fut/interp"
)

type costJSON struct {
	Work     int64 `json:"work"`
	Depth    int64 `json:"depth"`
	SpaceSeq int64 `json:"space_seq"`
	SpacePar int64 `json:"space_par"`
}

type evalJSON struct {
	Expr  string    `json:"expr"`
	Value string    `json:"value,omitempty"`
	Type  string    `json:"type,omitempty"`
	Cost  *costJSON `json:"cost,omitempty"`
	// Fused is the cost of the fused plan (the core IR after its passes);
	// FusedError says why there is none when the expression was not lowered.
	Fused      *costJSON `json:"fused,omitempty"`
	FusedError string    `json:"fused_error,omitempty"`
	Error      string    `json:"error,omitempty"`
}

// cmdEval evaluates expressions, optionally with a file's definitions in
// scope, and prints each value (and its cost).
func cmdEval(args []string) int {
	const use = "eval [-f FILE] [--cost] [--json] [--timeout D] [--max-memory SIZE] EXPR..."
	fs := newFlagSet("eval", use)
	file := fs.String("f", "", "a file whose definitions are in scope")
	withCost := fs.Bool("cost", false, "print work, depth and space after each value")
	asJSON := fs.Bool("json", false, "print one JSON object per expression")
	timeoutF := timeoutFlag(fs, "stop after this long in all")
	maxMem := memoryFlag(fs)
	exprs, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("eval", use, err)
	}
	if len(exprs) == 0 {
		return flagError("eval", use, fmt.Errorf("no expression given"))
	}
	s, err := interp.NewSession(interp.Options{Cost: *withCost || *asJSON, MaxMemory: maxMem.n})
	if err != nil {
		fmt.Fprintln(os.Stderr, "fut:", err)
		return 3
	}
	ctx, stop := interruptible(context.Background())
	defer stop()
	if timeoutF.d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeoutF.d)
		defer cancel()
	}
	if *file != "" {
		if err := s.LoadFile(ctx, *file); err != nil {
			fmt.Fprintln(os.Stderr, s.FormatError(err))
			return 1
		}
	}
	status := 0
	enc := json.NewEncoder(os.Stdout)
	for _, src := range exprs {
		r, err := s.EvalExpr(ctx, src)
		if err != nil && ctx.Err() == context.DeadlineExceeded {
			err = fmt.Errorf("%s: timed out (--timeout %s)", src, timeoutF.d)
		}
		if *asJSON {
			out := evalJSON{Expr: src}
			if err != nil {
				out.Error = s.FormatError(err)
				status = 1
			} else {
				out.Value = value.String(r.Value)
				out.Type = r.Type
				out.Cost = &costJSON{r.Cost.Work, r.Cost.Depth, r.Cost.SpaceSeq, r.Cost.SpacePar}
				if fc, ferr := s.FusedCost(ctx, src); ferr != nil {
					out.FusedError = oneLine(s.FormatError(ferr))
				} else {
					out.Fused = &costJSON{fc.Work, fc.Depth, fc.SpaceSeq, fc.SpacePar}
				}
			}
			_ = enc.Encode(out)
			continue
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, s.FormatError(err))
			status = 1
			continue
		}
		fmt.Println(value.String(r.Value))
		if *withCost {
			c := r.Cost
			fmt.Printf("work %d  depth %d  space_seq %d  space_par %d\n", c.Work, c.Depth, c.SpaceSeq, c.SpacePar)
			if fc, ferr := s.FusedCost(ctx, src); ferr == nil {
				fmt.Printf("fused: work %d  depth %d  space_seq %d  space_par %d\n", fc.Work, fc.Depth, fc.SpaceSeq, fc.SpacePar)
			} else {
				fmt.Printf("fused: not lowered (%s)\n", oneLine(s.FormatError(ferr)))
			}
		}
	}
	return status
}
