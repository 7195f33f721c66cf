package repl

// The command table. :help, the command names that completion offers and
// prefix matching all read this one table.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"fut/docs"
	"fut/gpu"
	"fut/interp/session"
)

// argKind says what completion offers for a command's argument.
type argKind int

const (
	argNone argKind = iota
	argExpr
	argFile
	argDir
	argCommand
	argSetting
	argBackend
)

type command struct {
	name  string
	args  string // the arguments, for :help
	short string // one line for :help
	long  string // more for :help CMD
	arg   argKind
	// where: 0 anywhere, 1 only at a break prompt.
	atBreak bool
	run     func(r *REPL, ctx context.Context, arg string)
}

var commands []*command

func init() {
	commands = []*command{
		{name: "help", args: "[COMMAND]", short: "list the commands, or say more about one", arg: argCommand, run: (*REPL).cmdHelp,
			long: "Any unique prefix of a command works: :t is ambiguous (:type, :time), :ty is :type."},
		{name: "load", args: "[FILE]", short: "load a Futhark file; without FILE, reload the last one", arg: argFile, run: (*REPL).cmdLoad,
			long: "The file's top-level definitions come into scope, next to everything defined so far.\nA failed load changes nothing."},
		{name: "type", args: "EXPR", short: "show the type of an expression (or a name's type scheme)", arg: argExpr, run: (*REPL).cmdType},
		{name: "mtype", args: "MODEXPR", short: "show the signature of a module", arg: argExpr, run: (*REPL).cmdMtype,
			long: "Lists the module's values with their types (from the type checker), its types and its sub-modules.\nParametric modules and module applications are not supported."},
		{name: "doc", args: "NAME", short: "show the documentation comment of a name", arg: argExpr, run: (*REPL).cmdDoc},
		{name: "cost", args: "[-p P] [--explain] EXPR [| EXPR]", short: "W, D, W/D, S1, S∞ and Brent's bound, as written and fused", arg: argExpr, run: (*REPL).cmdCost,
			long: "W (work) and D (depth) count steps; S1 and S∞ are the peak words live in a sequential and in a\n" +
				"fully parallel run; W/D is the parallelism; W/P + D bounds the steps on P processors (Brent).\n" +
				"P is the OpenCL device's processing elements, else the CPU's cores; -p P sets it for this and later\n" +
				":cost. The row \"as written\" is the reference evaluator's; \"fused\" is the plan after lowering to\n" +
				"the core IR, simplification and fusion, when the IR can take the expression.\n" +
				"e1 | e2 | … puts several expressions side by side (write a bitwise or in parentheses: (a | b)).\n" +
				"--explain breaks the figures down by let-binding and by the operands of the top-level construct:\n" +
				"each part's W and D with its share, and where S1 and S∞ reach their peaks.\n" +
				"See also :sweep, for how the figures grow with a size."},
		{name: "sweep", args: "[--plot F] VAR=A..B EXPR", short: "the figures at each size of VAR, and their growth", arg: argExpr, run: (*REPL).cmdSweep,
			long: "Also VAR=a,b,c; EXPR | EXPR | … sweeps several; where NAME = EXPR, NAME = EXPR gives inputs.\n" +
				"VAR is replaced by each size in the expressions; A..B doubles from A to B, a,b,c lists the sizes (2^k works).\n" +
				"The growth of each figure, as written and fused, is fitted over the largest sizes: 1, log n, log^2 n,\n" +
				"n, n log n, n^2, n^2 log n, n^3, or n^k. where NAME = EXPR defines inputs at each size before the\n" +
				"expression is costed (their own cost is not counted; the names stay defined). --plot FILE.svg or\n" +
				"FILE.png draws the four figures against the size on log–log axes."},
		{name: "time", args: "[N] EXPR", short: "evaluate N times (default 1) and show the median wall time", arg: argExpr, run: (*REPL).cmdTime,
			long: "The expression is parsed and checked once; only evaluation is timed, without cost accounting."},
		{name: "ir", args: "EXPR [STAGE]", short: "show an expression at a stage of the compiler", arg: argExpr, run: (*REPL).cmdIR,
			long: "Stages: " + strings.Join(irStages(), ", ") + " (core is lowered, fused is simplify-final).\n" +
				"Without STAGE, every stage is shown; a stage that a pass left as it was says so."},
		{name: "backend", args: "[interp|opencl|auto]", short: "show or choose where expressions run", arg: argBackend, run: (*REPL).cmdBackend},
		{name: "devices", short: "list the OpenCL devices", run: (*REPL).cmdDevices},
		{name: "set", args: "[OPTION [VALUE]]", short: "show or change printing options", arg: argSetting, run: (*REPL).cmdSet,
			long: settingsHelp()},
		{name: "pwd", short: "print the working directory", run: (*REPL).cmdPwd},
		{name: "cd", args: "DIR", short: "change the working directory", arg: argDir, run: (*REPL).cmdCd},
		{name: "quit", short: "leave fut (Ctrl-D on an empty line does the same)", run: (*REPL).cmdQuit,
			long: "At a break point, :quit stops the evaluation and goes back to the main prompt."},
		{name: "continue", short: "go on from the break point", atBreak: true, run: (*REPL).cmdContinue},
		{name: "unbreak", args: "[all]", short: "go on, and never stop at this break point (or any) again", atBreak: true, run: (*REPL).cmdUnbreak},
		{name: "frame", args: "[N]", short: "show call N of the stack (0 is the innermost) and the local variables", atBreak: true, run: (*REPL).cmdFrame},
	}
}

// available reports whether c can be used now.
func (r *REPL) available(c *command) bool { return !c.atBreak || r.brk != nil }

// lookupCommand resolves the name or a unique prefix of a command that
// can be used now.
func (r *REPL) lookupCommand(name string) (*command, error) {
	return r.findCommand(name, false)
}

// findCommand resolves a command name or prefix; all includes the
// commands of the break prompt when not at a break point (for :help).
func (r *REPL) findCommand(name string, all bool) (*command, error) {
	var found []*command
	for _, c := range commands {
		if !all && !r.available(c) {
			continue
		}
		if c.name == name {
			return c, nil
		}
		if strings.HasPrefix(c.name, name) {
			found = append(found, c)
		}
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("unknown command :%s (:help lists them)", name)
	case 1:
		return found[0], nil
	}
	var names []string
	for _, c := range found {
		names = append(names, ":"+c.name)
	}
	return nil, fmt.Errorf(":%s is ambiguous: %s", name, strings.Join(names, ", "))
}

// command runs a :command line.
func (r *REPL) command(ctx context.Context, line string) {
	name, arg, _ := strings.Cut(strings.TrimPrefix(line, ":"), " ")
	arg = strings.TrimSpace(arg)
	c, err := r.lookupCommand(name)
	if err != nil {
		r.printf("%s%v\n", r.pal.err("error: "), err)
		return
	}
	c.run(r, ctx, arg)
}

func (r *REPL) usageError(c *command) {
	r.printf("%susage: :%s %s\n", r.pal.err("error: "), c.name, c.args)
}

func (r *REPL) cmdHelp(_ context.Context, arg string) {
	if arg != "" {
		c, err := r.findCommand(strings.TrimPrefix(arg, ":"), true)
		if err != nil {
			r.printf("%s%v\n", r.pal.err("error: "), err)
			return
		}
		r.printf("%s\n  %s\n", r.pal.head(strings.TrimSpace(":"+c.name+" "+c.args)), c.short)
		if c.long != "" {
			r.printf("%s\n", indent(c.long, "  "))
		}
		if c.name == "cost" || c.name == "sweep" {
			r.printf("\n%s", indent(strings.TrimRight(docs.CostSummary(), "\n"), "  ")+"\n")
		}
		return
	}
	width := 0
	for _, c := range commands {
		width = max(width, len(c.name)+len(c.args)+2)
	}
	section := func(title string, atBreak bool) {
		r.printf("%s\n", title)
		for _, c := range commands {
			if c.atBreak == atBreak {
				usage := ":" + c.name
				if c.args != "" {
					usage += " " + c.args
				}
				r.printf("  %-*s  %s\n", width, usage, c.short)
			}
		}
	}
	section("Enter a declaration (def, type, module, …) to keep it in scope, or an expression to evaluate it.\n"+
		"Lines continue while a bracket or a construct is open; :{ … :} wraps any block. Commands:", false)
	section("At a break point (#[break] e), also:", true)
}

func indent(s, pre string) string {
	return pre + strings.ReplaceAll(s, "\n", "\n"+pre)
}

func (r *REPL) cmdLoad(ctx context.Context, arg string) {
	path := expandHome(arg)
	if path == "" {
		path = r.sess.LastLoaded()
		if path == "" {
			r.printf("%sno file loaded yet: :load FILE\n", r.pal.err("error: "))
			return
		}
	}
	r.Load(ctx, path)
}

func (r *REPL) cmdPwd(context.Context, string) {
	wd, err := os.Getwd()
	if err != nil {
		r.printError(err)
		return
	}
	r.printf("%s\n", wd)
}

func (r *REPL) cmdCd(ctx context.Context, arg string) {
	dir := expandHome(arg)
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			r.printError(err)
			return
		}
		dir = home
	}
	if err := os.Chdir(dir); err != nil {
		r.printf("%scannot change to %s: %v\n", r.pal.err("error: "), dir, unwrapPath(err))
		return
	}
	r.cmdPwd(ctx, "")
}

func (r *REPL) cmdQuit(context.Context, string) {
	if r.brk != nil {
		r.brk.abort = true
		return
	}
	r.quit = true
}

func (r *REPL) cmdBackend(_ context.Context, arg string) {
	if arg == "" {
		r.printf("backend: %s\n", r.sess.Backend())
		switch r.sess.Backend() {
		case session.BackendInterp:
			r.printf("expressions run on the reference interpreter\n")
		case session.BackendOpenCL:
			r.printf("expressions run on the OpenCL device wherever they lower and flatten into kernels\n")
		default:
			r.printf("expressions run on the OpenCL device when they flatten into kernels and have at least %d elements\n", session.AutoThreshold)
		}
		if n, bytes := session.ResidentHeld(); n > 0 {
			arrays := "1 array of values given to the device stays"
			if n > 1 {
				arrays = fmt.Sprintf("%d arrays of values given to the device stay", n)
			}
			r.printf("%s there for later calls (%s; FUT_RESIDENT_BYTES sets the most)\n", arrays, gpu.FormatBytes(bytes))
		}
		return
	}
	b, err := session.ParseBackend(arg)
	if err != nil {
		r.printf("%s%v\n", r.pal.err("error: "), err)
		return
	}
	if b != session.BackendInterp {
		d, err := session.OffloadDevice()
		if err != nil {
			r.printf("%sno OpenCL device (%v); staying on %s\n", r.pal.err("error: "), err, r.sess.Backend())
			return
		}
		r.printf("using %s (%s), %d compute units, %.1f GiB\n", d.Info.Name, d.Info.Version, d.Info.ComputeUnits, float64(d.Info.GlobalMem)/(1<<30))
	}
	r.sess.SetBackend(b)
	r.printf("backend: %s\n", b)
}

func (r *REPL) cmdDevices(context.Context, string) {
	devs, err := gpu.Candidates()
	if err != nil {
		r.printf("no OpenCL devices: %v\n", err)
		return
	}
	if len(devs) == 0 {
		r.printf("no OpenCL devices\n")
		return
	}
	chosen, _ := gpu.Choose(devs, os.Getenv("FUT_DEVICE"))
	for k, d := range devs {
		mark := " "
		if k == chosen {
			mark = "*"
		}
		r.printf("%s#%d %s: %s, %.1f GiB, %d compute units (%s)\n", mark, k, d.Name, d.Type, float64(d.GlobalMem)/(1<<30), d.ComputeUnits, d.Platform.Name)
		if how := gpu.DeviceAPI(d); how != "" {
			r.printf("    %s\n", how)
		}
	}
	r.printf("(* is the device opencl and auto use; FUT_DEVICE=#k or a part of a name chooses another)\n")
}

// settings are the :set options.
var settings = []struct {
	name, doc string
	get       func(r *REPL) string
	set       func(r *REPL, v string) error
}{
	{"elide", "arrays with more elements than this are shown elided in the middle (0: never)",
		func(r *REPL) string { return strconv.FormatInt(r.print.Elide, 10) },
		func(r *REPL, v string) error { return setInt(&r.print.Elide, v, 0) }},
	{"edge", "elements kept at each end of an elided dimension",
		func(r *REPL) string { return strconv.FormatInt(r.print.Edge, 10) },
		func(r *REPL, v string) error { return setInt(&r.print.Edge, v, 1) }},
	{"precision", "significant digits of floats (0: just enough to read back)",
		func(r *REPL) string { return strconv.Itoa(r.print.Precision) },
		func(r *REPL, v string) error {
			var n int64
			err := setInt(&n, v, 0)
			if err == nil && n > 40 {
				return fmt.Errorf("at most 40 digits")
			}
			r.print.Precision = int(n)
			return err
		}},
	{"suffixes", "print type suffixes on numbers (1i64, 2.5f32): on or off",
		func(r *REPL) string { return onOff(r.print.Suffixes) },
		func(r *REPL, v string) error { return setBool(&r.print.Suffixes, v) }},
	{"width", "line width beyond which arrays wrap (on a terminal) and rows go on lines of their own (0: the terminal's)",
		func(r *REPL) string { return strconv.Itoa(r.print.Width) },
		func(r *REPL, v string) error {
			var n int64
			err := setInt(&n, v, 0)
			r.print.Width = int(n)
			return err
		}},
	{"cost", "show the cost after every expression: on or off",
		func(r *REPL) string { return onOff(r.showCost) },
		func(r *REPL, v string) error { return setBool(&r.showCost, v) }},
	{"device-memory", "the most device memory an offloaded expression may use (512M, 8G; default: the device's less an eighth); one that needs more runs in chunks",
		func(r *REPL) string {
			if n := session.DeviceMemory(); n > 0 {
				return gpu.FormatBytes(n)
			}
			return "default"
		},
		func(r *REPL, v string) error {
			n := int64(0)
			if v != "default" {
				var ok bool
				if n, ok = gpu.ParseSize(v); !ok || n <= 0 {
					return fmt.Errorf("want a size such as 512M or 8G, or default, not %q", v)
				}
			}
			session.SetDeviceMemory(n)
			return nil
		}},
	{"devices", "the devices an offloaded expression is split across: all, a count (2 makes two logical devices of one where there are fewer) or indices #0,#1; default: one",
		func(r *REPL) string {
			if d := session.Devices(); d != "" {
				return d
			}
			return "1"
		},
		func(r *REPL, v string) error {
			if v == "default" {
				v = ""
			}
			return session.SetDevices(v)
		}},
}

func settingsHelp() string {
	var b strings.Builder
	b.WriteString(":set alone shows every option; :set OPTION VALUE changes one. Options:")
	for _, s := range settings {
		fmt.Fprintf(&b, "\n  %-10s %s", s.name, s.doc)
	}
	return b.String()
}

func (r *REPL) cmdSet(_ context.Context, arg string) {
	f := strings.Fields(arg)
	if len(f) == 0 {
		for _, s := range settings {
			r.printf("%-13s %-7s %s\n", s.name, s.get(r), r.pal.dim(s.doc))
		}
		return
	}
	var names []string
	for i := range settings {
		s := &settings[i]
		if !strings.HasPrefix(s.name, f[0]) {
			continue
		}
		names = append(names, s.name)
		if len(f) == 1 {
			r.printf("%s %s\n", s.name, s.get(r))
			continue
		}
		if err := s.set(r, f[1]); err != nil {
			r.printf("%s:set %s: %v\n", r.pal.err("error: "), s.name, err)
		}
	}
	if len(names) == 0 {
		r.printf("%sunknown option %q (:set lists them)\n", r.pal.err("error: "), f[0])
	} else if len(names) > 1 && len(f) > 1 {
		r.printf("%s%q is ambiguous: %s\n", r.pal.err("error: "), f[0], strings.Join(names, ", "))
	}
}

func setInt(p *int64, v string, lo int64) error {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < lo {
		return fmt.Errorf("want a whole number ≥ %d, not %q", lo, v)
	}
	*p = n
	return nil
}

func setBool(p *bool, v string) error {
	switch strings.ToLower(v) {
	case "on", "true", "yes", "1":
		*p = true
	case "off", "false", "no", "0":
		*p = false
	default:
		return fmt.Errorf("want on or off, not %q", v)
	}
	return nil
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func expandHome(p string) string {
	p = strings.TrimSpace(p)
	if len(p) >= 2 && (p[0] == '"' && p[len(p)-1] == '"' || p[0] == '\'' && p[len(p)-1] == '\'') {
		p = p[1 : len(p)-1]
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, p[1:])
		}
	}
	return p
}

func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// commandNames lists the available command names starting with prefix.
func (r *REPL) commandNames(prefix string) []string {
	var out []string
	for _, c := range commands {
		if r.available(c) && strings.HasPrefix(c.name, prefix) {
			out = append(out, c.name)
		}
	}
	sort.Strings(out)
	return out
}
