package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"fut/eval/value"
	"fut/interp/costs"
	"fut/interp/session"
)

// cmdEval evaluates expressions, optionally with a file's definitions in
// scope, and prints each value (and its cost).
func cmdEval(args []string) int {
	const use = "eval [-f FILE] [--cost] [--json] [--timeout D] [--max-memory SIZE] EXPR..."
	fs := newFlagSet("eval", use)
	file := fs.String("f", "", "a file whose definitions are in scope")
	withCost := fs.Bool("cost", false, "print W, D, S1 and S∞ (as written and fused) after each value; fut cost shows more")
	asJSON := fs.Bool("json", false, "print one JSON object per expression, with its figures (as fut cost --json)")
	timeoutF := timeoutFlag(fs, "stop after this long in all")
	maxMem := memoryFlag(fs)
	exprs, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("eval", use, err)
	}
	if len(exprs) == 0 {
		return flagError("eval", use, fmt.Errorf("no expression given"))
	}
	s, ctx, done, code := exprSession(session.Options{Cost: *withCost || *asJSON, MaxMemory: maxMem.n}, timeoutF.d, *file)
	if s == nil {
		return code
	}
	defer done()
	status := 0
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	for _, src := range exprs {
		r, err := s.EvalExpr(ctx, src)
		if err != nil && ctx.Err() == context.DeadlineExceeded {
			err = fmt.Errorf("%s: timed out (--timeout %s)", src, timeoutF.d)
		}
		if *asJSON {
			if err != nil {
				_ = enc.Encode(costs.CostJSON{Expr: src, Error: s.FormatError(err)})
				status = 1
				continue
			}
			m := &costs.Measured{Expr: src, Value: r.Value, Type: r.Type, AsWritten: costs.FromCost(r.Cost)}
			m.Fused, m.FusedNote = costs.FusedFigures(ctx, s, src)
			_ = enc.Encode(m.JSON(costs.DetectProcs(deviceSpec)))
			continue
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, s.FormatError(err))
			status = 1
			continue
		}
		fmt.Println(value.String(r.Value))
		if *withCost {
			fmt.Println("as written: " + figuresLine(costs.FromCost(r.Cost)))
			if f, note := costs.FusedFigures(ctx, s, src); f != nil {
				fmt.Println("fused:      " + figuresLine(*f))
			} else {
				fmt.Println("fused:      " + note)
			}
		}
	}
	return status
}

// figuresLine is the four figures on a line, with their units.
func figuresLine(f costs.Figures) string {
	return fmt.Sprintf("W %d steps, D %d steps, S1 %d words, S∞ %d words", f.W, f.D, f.S1, f.Sinf)
}

// exprSession opens the session of fut eval and fut cost: a context that
// Ctrl-C and the timeout (0: none) cancel, and file's definitions in scope
// (none for ""). On failure it says why and returns a nil session and the
// exit status; done releases the context.
func exprSession(opts session.Options, timeout time.Duration, file string) (s *session.Session, ctx context.Context, done func(), status int) {
	s, err := session.NewSession(opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fut:", err)
		return nil, nil, nil, 3
	}
	ctx, stop := interruptible(context.Background())
	cancel := func() {}
	if timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, timeout)
	}
	done = func() { cancel(); stop() }
	if file != "" {
		if err := s.LoadFile(ctx, file); err != nil {
			fmt.Fprintln(os.Stderr, s.FormatError(err))
			done()
			return nil, nil, nil, 1
		}
	}
	return s, ctx, done, 0
}
