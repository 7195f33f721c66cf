package repl

// The cost commands: :cost (the figures as written and fused, of one
// expression or several side by side, or broken down by part) and
// :sweep (the figures over a range of sizes, their growth, a plot).

import (
	"context"
	"strconv"
	"strings"

	"fut/interp/costs"
	"fut/interp/session"
)

// costProcs is P for Brent's bound: -p's, else the configuration's, else
// the device's or the CPU's (found on first use).
func (r *REPL) costProcs() costs.Procs {
	if r.procs.P == 0 {
		r.procs = r.cfg.Procs
		if r.procs.P == 0 {
			r.procs = costs.DetectProcs(r.cfg.DeviceSpec)
		}
	}
	return r.procs
}

func (r *REPL) costPaint() costs.Paint {
	wrap := func(f func(a ...any) string) func(string) string {
		return func(s string) string { return f(s) }
	}
	return costs.Paint{Head: wrap(r.pal.head), Num: wrap(r.pal.num), Dim: wrap(r.pal.dim)}
}

// cmdCost evaluates with costs and prints the cost table: each expression
// as written (the reference evaluator) and its fused plan (lowered to the
// core IR, simplified and fused). --explain breaks one down by part.
func (r *REPL) cmdCost(ctx context.Context, arg string) {
	explain := false
	for {
		f := strings.Fields(arg)
		if len(f) >= 2 && f[0] == "-p" {
			p, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil || p < 1 {
				r.printf("%s-p wants a number of processors ≥ 1, not %q\n", r.pal.err("error: "), f[1])
				return
			}
			r.procs = costs.SetBy(p, ":cost -p")
			arg = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(arg, "-p")), f[1]))
			continue
		}
		if len(f) >= 1 && f[0] == "--explain" {
			explain = true
			arg = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(arg), "--explain"))
			continue
		}
		break
	}
	if arg == "" {
		r.usageError(mustCommand("cost"))
		return
	}
	srcs := costs.SplitAlternatives(arg)
	for _, s := range srcs {
		if s == "" {
			r.printf("%san empty expression between |s (write bitwise or in parentheses: (a | b))\n", r.pal.err("error: "))
			return
		}
	}
	if explain {
		for i, src := range srcs {
			var ex *costs.Explanation
			err := r.interruptible(ctx, func(ctx context.Context) error {
				var err error
				ex, err = costs.Explain(ctx, r.sess, src)
				return err
			})
			if err != nil {
				r.printError(err)
				return
			}
			if i > 0 {
				r.printf("\n")
			}
			r.printResult(&session.Result{Value: ex.ValueOf()})
			costs.WriteExplain(r.out, ex, r.costPaint())
		}
		return
	}
	var ms []*costs.Measured
	for i, src := range srcs {
		res, err := r.evalExpr(ctx, src)
		if err != nil {
			r.printError(err)
			return
		}
		if len(srcs) > 1 {
			r.printf("[%d] ", i+1)
		}
		r.printResult(res)
		m := &costs.Measured{Expr: src, Value: res.Value, Type: res.Type, AsWritten: costs.FromCost(res.Cost)}
		_ = r.interruptible(ctx, func(ctx context.Context) error {
			m.Fused, m.FusedNote = costs.FusedFigures(ctx, r.sess, src)
			return nil
		})
		ms = append(ms, m)
	}
	costs.WriteTable(r.out, costs.Rows(ms), r.costProcs(), r.costPaint())
	if r.sess.Backend() == session.BackendInterp {
		return // the device is not used: no bound of its memory to show
	}
	for i, src := range srcs {
		if b := r.sess.DeviceBound(src); b != "" {
			if len(srcs) > 1 {
				r.printf("[%d] ", i+1)
			}
			r.printf("%s\n", r.pal.dim(b))
		}
	}
}

// printCost prints the cost table of an evaluation (:set cost on). A
// value computed on the device has its costs from the reference path
// (costs are the program's), which evaluates the expression again.
func (r *REPL) printCost(res *session.Result) {
	c := res.Cost
	if res.Offloaded() {
		err := r.interruptible(context.Background(), func(ctx context.Context) error {
			var err error
			c, err = r.sess.ReferenceCost(ctx, res)
			return err
		})
		if err != nil {
			r.printf("%s\n", r.pal.dim("(no costs: the reference path did not finish: "+firstLineOf(err.Error())+")"))
			return
		}
		r.printf("%s\n", r.pal.dim("(the value was computed on "+res.RanOn+"; the costs are the program's, from the reference path)"))
	}
	costs.WriteTable(r.out, []costs.Row{{Label: "as written", Fig: costs.FromCost(c)}}, r.costProcs(), r.costPaint())
}

func firstLineOf(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// cmdSweep evaluates expressions at a range of sizes and prints their
// figures and growth; --plot FILE draws them.
func (r *REPL) cmdSweep(ctx context.Context, arg string) {
	plotFile := ""
	f := strings.Fields(arg)
	for len(f) >= 2 && f[0] == "--plot" {
		plotFile = f[1]
		arg = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(arg), "--plot")), f[1]))
		f = strings.Fields(arg)
	}
	if len(f) < 2 {
		r.usageError(mustCommand("sweep"))
		return
	}
	rng, err := costs.ParseRange(f[0])
	if err != nil {
		r.printf("%s%v\n", r.pal.err("error: "), err)
		return
	}
	if plotFile != "" {
		if err := costs.CheckPlotName(plotFile); err != nil {
			r.printf("%s%v\n", r.pal.err("error: "), err)
			return
		}
	}
	body := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(arg), f[0]))
	expr, given, err := costs.SplitWhere(body)
	if err != nil {
		r.printf("%s%v\n", r.pal.err("error: "), err)
		return
	}
	var sweeps []*costs.Sweep
	srcs := costs.SplitAlternatives(expr)
	for i, src := range srcs {
		var sw *costs.Sweep
		err := r.interruptible(ctx, func(ctx context.Context) error {
			var err error
			sw, err = costs.RunSweep(ctx, r.sess, src, rng, given, nil)
			return err
		})
		if err != nil {
			if session.Interrupted(err) {
				r.printError(err)
			} else {
				r.printf("%s%s\n", r.pal.err("error: "), err)
			}
			return
		}
		if len(srcs) > 1 {
			if i > 0 {
				r.printf("\n")
			}
			r.printf("[%d] %s\n", i+1, src)
		}
		costs.WriteSweep(r.out, sw, r.costPaint())
		sweeps = append(sweeps, sw)
	}
	if plotFile != "" {
		if err := costs.WritePlot(expandHome(plotFile), sweeps); err != nil {
			r.printf("%s%v\n", r.pal.err("error: "), err)
			return
		}
		r.printf("plot written to %s\n", plotFile)
	}
}
