package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"

	"fut/docs"
	"fut/eval/value"
	"fut/interp/costs"
	"fut/interp/session"
)

// deviceSpec is the device that --device (or $FUT_DEVICE) chose, for the
// P of Brent's bound.
var deviceSpec string

// cmdCost prints the cost figures of expressions: as written and fused,
// side by side, broken down by part (--explain), or swept over a size
// (--sweep) with the growth of each figure and a plot.
func cmdCost(args []string) int {
	const use = "cost [-f FILE] [--json] [-p P] [--explain] [--sweep VAR=A..B|VAR=a,b,c [--where NAME=EXPR]... [--plot FILE.svg|FILE.png]] [--model] EXPR..."
	fs := newFlagSet("cost", use)
	file := fs.String("f", "", "a file whose definitions are in scope")
	asJSON := fs.Bool("json", false, "print one JSON object per expression (per sweep)")
	procs := fs.Int64("p", 0, "P in Brent's bound W/P + D (default: the OpenCL device's processing elements, else the CPU's cores)")
	explain := fs.Bool("explain", false, "break the figures down by the expression's let-bindings and top-level parts")
	sweepF := fs.String("sweep", "", "evaluate at every size: VAR=A..B doubles from A to B, VAR=a,b,c lists them; the growth of each figure is fitted")
	var where tagList
	fs.Var(&where, "where", "with --sweep: NAME=EXPR is defined at each size before the expression is costed (inputs; not counted); may be repeated")
	plotF := fs.String("plot", "", "with --sweep: draw the figures against the size on log–log axes into FILE.svg or FILE.png")
	model := fs.Bool("model", false, "print the cost model (docs/cost.md) and stop")
	timeoutF := timeoutFlag(fs, "stop after this long in all")
	maxMem := memoryFlag(fs)
	exprs, err := parseInterspersed(fs, args)
	if err == flag.ErrHelp {
		flagError("cost", use, err)
		fmt.Print("\n" + docs.CostSummary())
		return 0
	}
	if err != nil {
		return flagError("cost", use, err)
	}
	if *model {
		fmt.Print(docs.Cost)
		return 0
	}
	var srcs []string
	for _, e := range exprs {
		srcs = append(srcs, costs.SplitAlternatives(e)...)
	}
	if len(srcs) == 0 || slices.Contains(srcs, "") {
		return flagError("cost", use, fmt.Errorf("no expression given"))
	}
	if *procs < 0 {
		return flagError("cost", use, fmt.Errorf("-p wants a number of processors ≥ 1"))
	}
	p := costs.DetectProcs(deviceSpec)
	if *procs > 0 {
		p = costs.SetBy(*procs, "-p")
	}
	var rng costs.Range
	var given []costs.Binding
	if *sweepF != "" {
		if rng, err = costs.ParseRange(*sweepF); err != nil {
			return flagError("cost", use, err)
		}
		for _, w := range where {
			b, err := costs.ParseBinding(w)
			if err != nil {
				return flagError("cost", use, err)
			}
			given = append(given, b)
		}
		if *explain {
			return flagError("cost", use, fmt.Errorf("--explain and --sweep do not go together"))
		}
	} else if *plotF != "" || len(where) > 0 {
		return flagError("cost", use, fmt.Errorf("--plot and --where go with --sweep"))
	}
	if *plotF != "" {
		if err := costs.CheckPlotName(*plotF); err != nil {
			return flagError("cost", use, err)
		}
	}
	s, ctx, done, code := exprSession(session.Options{Cost: true, MaxMemory: maxMem.n}, timeoutF.d, *file)
	if s == nil {
		return code
	}
	defer done()
	fail := func(err error) int {
		if ctx.Err() == context.DeadlineExceeded {
			fmt.Fprintf(os.Stderr, "fut cost: timed out (--timeout %s)\n", timeoutF.d)
		} else {
			fmt.Fprintln(os.Stderr, s.FormatError(err))
		}
		return 1
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	switch {
	case *sweepF != "":
		var sweeps []*costs.Sweep
		for i, src := range srcs {
			src, more, err := costs.SplitWhere(src)
			if err != nil {
				return flagError("cost", use, err)
			}
			sw, err := costs.RunSweep(ctx, s, src, rng, append(given[:len(given):len(given)], more...), nil)
			if err != nil {
				return fail(fmt.Errorf("%s: %w", src, err))
			}
			sweeps = append(sweeps, sw)
			if *asJSON {
				_ = enc.Encode(sw)
				continue
			}
			if len(srcs) > 1 {
				if i > 0 {
					fmt.Println()
				}
				fmt.Printf("[%d] %s\n", i+1, src)
			}
			costs.WriteSweep(os.Stdout, sw, costs.Paint{})
		}
		if *plotF != "" {
			if err := costs.WritePlot(*plotF, sweeps); err != nil {
				fmt.Fprintln(os.Stderr, "fut cost:", err)
				return 1
			}
			if !*asJSON {
				fmt.Printf("plot written to %s\n", *plotF)
			}
		}
		return 0
	case *explain:
		for i, src := range srcs {
			ex, err := costs.Explain(ctx, s, src)
			if err != nil {
				return fail(err)
			}
			if *asJSON {
				_ = enc.Encode(ex)
				continue
			}
			if i > 0 {
				fmt.Println()
			}
			fmt.Println(oneLineValue(ex.ValueOf()))
			costs.WriteExplain(os.Stdout, ex, costs.Paint{})
		}
		return 0
	}
	var ms []*costs.Measured
	status := 0
	for _, src := range srcs {
		m, err := costs.Measure(ctx, s, src)
		if err != nil {
			if *asJSON {
				_ = enc.Encode(costs.CostJSON{Expr: src, Error: s.FormatError(err)})
				status = 1
				continue
			}
			return fail(err)
		}
		if *asJSON {
			_ = enc.Encode(m.JSON(p))
			continue
		}
		ms = append(ms, m)
	}
	if *asJSON {
		return status
	}
	for i, m := range ms {
		if len(ms) > 1 {
			fmt.Printf("[%d] ", i+1)
		}
		fmt.Println(oneLineValue(m.Value))
	}
	costs.WriteTable(os.Stdout, costs.Rows(ms), p, costs.Paint{})
	for i, src := range srcs {
		if b := s.DeviceBound(src); b != "" {
			if len(srcs) > 1 {
				fmt.Printf("[%d] ", i+1)
			}
			fmt.Println(b)
		}
	}
	return status
}

// oneLineValue prints a value on one line, at most about a line long.
func oneLineValue(v value.Value) string {
	return costs.Shorten(value.String(v), 100)
}
