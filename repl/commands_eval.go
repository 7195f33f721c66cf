package repl

// The commands that check or run an expression: :type, :mtype, :doc,
// :cost, :time, :ir.

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"fut/interp/ir"
	"fut/interp/lower"
	"fut/interp/session"
	"fut/interp/syntax"
	"fut/interp/types"
)

func (r *REPL) cmdType(_ context.Context, arg string) {
	if arg == "" {
		r.usageError(mustCommand("type"))
		return
	}
	if isIdent(arg) {
		if sc, ok := r.sess.LookupScheme(arg); ok {
			params, t := formatScheme(sc)
			r.printf("%s%s : %s\n", arg, params, r.pal.typ(t))
			return
		}
	}
	t, err := r.sess.TypeOf(arg)
	if err != nil {
		r.printError(err)
		return
	}
	r.printf("%s : %s\n", arg, r.pal.typ(t.String()))
}

// shownType drops the uniqueness marks of a value's type: every fresh
// value is unique, and the marks would only be noise at the prompt.
func shownType(t string) string { return strings.ReplaceAll(t, "*", "") }

// formatScheme prints a type scheme as a val spec shows it (map 'a 'b :
// (a -> b) -> [n]a -> [n]b), without the size parameters: they show in
// the type itself.
func formatScheme(sc *types.Scheme) (params, typ string) {
	var b strings.Builder
	for _, tp := range sc.TParams {
		b.WriteString(" ")
		switch tp.Lifted {
		case syntax.Lifted:
			b.WriteString("'^")
		case syntax.SizeLifted:
			b.WriteString("'~")
		default:
			b.WriteString("'")
		}
		b.WriteString(tp.Name)
	}
	return b.String(), sc.Type.String()
}

func mustCommand(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	panic("no command " + name)
}

// cmdMtype prints a module's signature: its values with the types the
// checker gives them, its types and its sub-modules.
func (r *REPL) cmdMtype(ctx context.Context, arg string) {
	if arg == "" {
		r.usageError(mustCommand("mtype"))
		return
	}
	path := strings.Split(arg, ".")
	for _, p := range path {
		if !isIdent(p) {
			r.printf("%s:mtype takes a module name (M or M.N); module expressions are not supported\n", r.pal.err("error: "))
			return
		}
	}
	m := r.names.qualified(path)
	if m == nil {
		r.printf("%sunknown module %s\n", r.pal.err("error: "), arg)
		return
	}
	r.printf("%s : %s\n", arg, r.moduleSig(arg, m, ""))
}

func (r *REPL) moduleSig(qual string, m *scope, ind string) string {
	var b strings.Builder
	b.WriteString("{\n")
	for _, name := range sortedKeys(m.types) {
		fmt.Fprintf(&b, "%s  type %s\n", ind, name)
	}
	for _, name := range sortedKeys(m.vals) {
		ref := qual + "." + name
		shown := name
		if !isIdent(name) {
			ref = "(" + qual + "." + name + ")"
			shown = "(" + name + ")"
		}
		t, err := r.sess.TypeOf(ref)
		if err != nil {
			fmt.Fprintf(&b, "%s  val %s : ?\n", ind, shown)
			continue
		}
		fmt.Fprintf(&b, "%s  val %s : %s\n", ind, shown, r.pal.typ(t.String()))
	}
	for _, name := range sortedKeys(m.mods) {
		fmt.Fprintf(&b, "%s  module %s : %s", ind, name, r.moduleSig(qual+"."+name, m.mods[name], ind+"  "))
		b.WriteString("\n")
	}
	b.WriteString(ind + "}")
	return b.String()
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (r *REPL) cmdDoc(ctx context.Context, arg string) {
	if arg == "" {
		r.usageError(mustCommand("doc"))
		return
	}
	doc, kind, ok := r.names.lookupDoc(arg)
	if !ok {
		r.printf("%sunknown name %s\n", r.pal.err("error: "), arg)
		return
	}
	switch kind {
	case "value":
		r.cmdType(ctx, arg)
	default:
		r.printf("%s %s\n", kind, arg)
	}
	if doc == "" {
		doc = "(no documentation)"
	}
	r.printf("%s\n", indent(strings.TrimSpace(doc), "  "))
}

// cmdTime evaluates an expression N times without cost accounting and
// prints its value and the median wall time.
func (r *REPL) cmdTime(ctx context.Context, arg string) {
	runs := 1
	if first, rest, ok := strings.Cut(arg, " "); ok {
		if n, err := strconv.Atoi(first); err == nil {
			if n < 1 {
				r.printf("%sthe number of runs must be at least 1\n", r.pal.err("error: "))
				return
			}
			runs, arg = n, strings.TrimSpace(rest)
		}
	}
	if arg == "" {
		r.usageError(mustCommand("time"))
		return
	}
	if r.sess.Backend() != session.BackendInterp && r.timeOffloaded(ctx, runs, arg) {
		return
	}
	prep, err := r.sess.Prepare(arg)
	if err != nil {
		r.printError(err)
		return
	}
	old := r.sess.SetCost(false)
	defer r.sess.SetCost(old)
	var times []time.Duration
	var res *session.Result
	err = r.interruptible(ctx, func(ctx context.Context) error {
		for i := 0; i < runs; i++ {
			start := time.Now()
			var err error
			res, err = prep.Run(ctx)
			if err != nil {
				return err
			}
			times = append(times, time.Since(start))
		}
		return nil
	})
	if err != nil {
		r.printError(err)
		return
	}
	r.printResult(res)
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	med := times[len(times)/2]
	if len(times)%2 == 0 {
		med = (times[len(times)/2-1] + times[len(times)/2]) / 2
	}
	what := "1 run"
	if runs > 1 {
		what = fmt.Sprintf("median of %d", runs)
	}
	r.printf("(%s: %s on interp)\n", what, r.pal.num(formatDuration(med)))
}

// formatDuration prints d with three significant digits in a unit that
// keeps the number between 1 and 1000.
func formatDuration(d time.Duration) string {
	x := float64(d)
	units := []struct {
		name string
		ns   float64
	}{{"s", 1e9}, {"ms", 1e6}, {"µs", 1e3}, {"ns", 1}}
	for _, u := range units {
		if x >= u.ns || u.ns == 1 {
			v := x / u.ns
			prec := 2
			switch {
			case v >= 100:
				prec = 0
			case v >= 10:
				prec = 1
			}
			return strconv.FormatFloat(v, 'f', prec, 64) + " " + u.name
		}
	}
	return d.String()
}

// irAliases are other names for stages of the pipeline.
var irAliases = map[string]string{"core": "lowered", "fused": "simplify-final"}

// irStages are the stages :ir can show: the source, the program after
// each source stage (lower.Stages), the lowered core IR, the stage after
// each pass of ir.Passes, and the device's.
func irStages() []string {
	names := []string{"source"}
	for _, st := range lower.Stages {
		names = append(names, st.Name)
	}
	names = append(names, "lowered")
	for _, p := range ir.Passes {
		names = append(names, p.Name)
	}
	return append(names, irDevice...)
}

// irNotBuilt are the stages of the offload path that do not exist yet.
var irNotBuilt []string

// irDevice are the last stages of the offload path: the plan of kernels
// and host steps, and the OpenCL C of its kernels.
var irDevice = []string{"flattened", "opencl"}

// cmdIR prints an expression at every stage of the compiler, or at one.
func (r *REPL) cmdIR(_ context.Context, arg string) {
	stage := ""
	if i := strings.LastIndexAny(arg, " \t"); i >= 0 {
		last := arg[i+1:]
		if a, ok := irAliases[last]; ok {
			last = a
		}
		if slices.Contains(irStages(), last) {
			stage, arg = last, strings.TrimSpace(arg[:i])
		}
	}
	if arg == "" {
		r.usageError(mustCommand("ir"))
		return
	}
	if slices.Contains(irNotBuilt, stage) {
		r.printf("the %s stage is not built yet; :help ir lists the stages\n", stage)
		return
	}
	prep, err := r.sess.Prepare(arg)
	if err != nil {
		r.printError(err)
		return
	}
	if stage == "" || stage == "source" {
		r.printf("%s\n%s\n", r.pal.dim("-- source : "+shownType(prep.Type)), syntax.Print(prep.Expr))
		if stage == "source" {
			return
		}
	}
	stages, err := r.sess.IR(arg)
	if err != nil {
		if lower.IsNotLowered(err) {
			r.printf("%s\n", r.pal.dim("-- the core IR cannot take this expression yet ("+err.Error()+"); it runs on the reference interpreter"))
			return
		}
		r.printError(err)
		return
	}
	prev := ""
	for _, st := range stages {
		if stage != "" && st.Name != stage {
			continue
		}
		title := "-- after " + st.Name
		if st.Name == "lowered" {
			title = "-- lowered to the core IR"
		}
		if stage == "" && st.Text == prev {
			r.printf("%s\n", r.pal.dim(title+": unchanged"))
			continue
		}
		prev = st.Text
		r.printf("%s\n%s\n", r.pal.dim(title), strings.TrimRight(st.Text, "\n"))
	}
	for _, st := range irDevice {
		if stage != "" && stage != st {
			continue
		}
		var text string
		var err error
		switch {
		case st == "flattened":
			text, err = r.sess.KernelIR(arg)
		case stage == "":
			// The OpenCL C is long: the overview only says where it is.
			text = "(:ir EXPR opencl shows the OpenCL C of these kernels)"
		default:
			text, err = r.sess.OpenCLSource(arg)
		}
		if err != nil {
			r.printError(err)
			return
		}
		r.printf("%s\n%s\n", r.pal.dim("-- "+st), strings.TrimRight(text, "\n"))
	}
}

// timeOffloaded times an expression on the device when the backend
// offloads it (each run lowers, uploads, launches and copies back: the
// wall time a user waits); it reports false, having printed nothing,
// when the expression stays on the reference path.
func (r *REPL) timeOffloaded(ctx context.Context, runs int, src string) bool {
	var times []time.Duration
	var res *session.Result
	offloaded := true
	err := r.interruptible(ctx, func(ctx context.Context) error {
		for i := 0; i < runs && offloaded; i++ {
			start := time.Now()
			var err error
			res, _, err = r.sess.EvalOn(ctx, r.sess.Backend(), src)
			if err != nil {
				return err
			}
			offloaded = res.RanOn != "interp"
			times = append(times, time.Since(start))
		}
		return nil
	})
	if err != nil {
		r.printError(err)
		return true
	}
	if !offloaded {
		return false
	}
	r.printResult(res)
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	med := times[len(times)/2]
	what := "1 run"
	if runs > 1 {
		what = fmt.Sprintf("median of %d", runs)
	}
	transfers := ""
	if res.Transfers != "" {
		// what the last run copied to the device, and found there
		transfers = "; " + res.Transfers
	}
	r.printf("(%s: %s on %s%s)\n", what, r.pal.num(formatDuration(med)), res.RanOn, transfers)
	return true
}
