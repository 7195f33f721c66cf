// Package repl is fut's interactive session: it reads entries (Futhark
// declarations, expressions and :commands) from a terminal or any reader,
// hands them to an session.Session and prints values, types, costs and
// errors.
//
// Input: lines of text, from readline on a terminal (history, Ctrl-R
// search, tab completion) or from a plain reader (pipes, transcript tests).
// Output: text on Config.Out, coloured only when Config.Color is set.
// Invariants: nothing a user types ends the loop except :quit and end of
// input; an entry that fails (syntax, type or run-time error, Ctrl-C)
// leaves every earlier definition in scope; each entry has the number
// its prompt shows (fut N> ), which positions in messages name
// (<repl:N>); the command list, :help and completion all come from the
// one table in commands.go.
package repl

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"sync"
	"time"

	"fut/eval/value"
	"fut/interp/costs"
	"fut/interp/session"
	"fut/interp/syntax"
)

// Config says where the REPL reads and writes.
type Config struct {
	In  io.Reader // nil: os.Stdin
	Out io.Writer // nil: os.Stdout
	// Terminal turns on line editing with readline; In and Out must then
	// be the terminal (os.Stdin, os.Stdout).
	Terminal bool
	// HistoryFile keeps readline's history across sessions ("" for none).
	HistoryFile string
	// Color colours prompts, types, errors and cost figures.
	Color bool
	// Echo writes each prompt and the line read after it to Out, so that
	// Out reads as a transcript of the session (tests, scripts).
	Echo bool
	// Prompts shows the prompts on a plain reader (without Echo).
	Prompts bool
	// Signals makes Ctrl-C (SIGINT) interrupt a running evaluation.
	Signals bool
	// Banner is printed once at the start ("" for none).
	Banner string
	// DeviceSpec is the OpenCL device chosen (--device), whose processing
	// elements are P in Brent's bound; Procs, when set, is P instead.
	DeviceSpec string
	Procs      costs.Procs
	// TermWidth, when Out is a terminal, gives its width now (asked
	// before each value is printed, so that a resized window counts):
	// long rows of arrays then wrap at it. nil when Out is not one.
	TermWidth func() int
}

// TerminalConfig is the configuration for an interactive session on the
// process's terminal, or a plain one when stdin is not a terminal.
func TerminalConfig() Config {
	term := isTerminal(os.Stdin) && isTerminal(os.Stdout)
	// Ctrl-C interrupts an evaluation only on a terminal; a script
	// piped in is stopped by it as usual.
	cfg := Config{In: os.Stdin, Out: os.Stdout, Terminal: term, Color: wantColor(os.Stdout), Signals: term,
		Prompts: isTerminal(os.Stdin)}
	if isTerminal(os.Stdout) {
		cfg.TermWidth = func() int { return terminalWidth(os.Stdout) }
	}
	if term {
		if dir, err := os.UserConfigDir(); err == nil {
			cfg.HistoryFile = dir + "/fut/history"
		}
	}
	return cfg
}

// The prompts carry the number of the entry they read, the N of the
// <repl:N> that positions in messages name; a continuation line's prompt
// is as wide as the entry's first, so that the lines of an entry align.
const (
	mainPrompt  = "fut %d> "
	breakPrompt = "fut[break] %d> "
	contPrompt  = "..."
)

// prompt is the main prompt (or the break prompt) of the next entry.
func (r *REPL) prompt(format string) string {
	return fmt.Sprintf(format, r.sess.NextEntry())
}

// contFor is the continuation prompt under prompt.
func contFor(prompt string) string {
	return contPrompt + strings.Repeat(" ", max(2, len(prompt)-len(contPrompt)))
}

// REPL is one interactive session over an session.Session.
type REPL struct {
	sess  *session.Session
	cfg   Config
	out   io.Writer
	pal   palette
	in    lineReader
	names *scope
	print PrintOptions
	// showCost prints the cost after every expression (:set cost on).
	showCost bool
	procs    costs.Procs // P in Brent's bound: :cost -p, or found on first use
	quit     bool

	brk       *breakState // the break point we are stopped at, if any
	unbroken  map[syntax.Pos]bool
	noBreaks  bool               // :unbreak all
	evalDepth int                // evaluations in progress (a break prompt nests one)
	cancel    context.CancelFunc // cancels the evaluation in progress
	evalCtx   context.Context    // the context of the evaluation in progress

	// outMu orders what the Ctrl-C watcher prints with what the
	// evaluation prints; waitedForDevice says that the watcher told the
	// user it waits for the device (and so left the line after ^C).
	outMu           sync.Mutex
	waitedForDevice bool

	// pending is a line read as the continuation of an entry that turned
	// out to start the next one (startsEntry).
	pending *string
}

// New makes a REPL over sess. Call Close when done.
func New(sess *session.Session, cfg Config) (*REPL, error) {
	if cfg.In == nil {
		cfg.In = os.Stdin
	}
	if cfg.Out == nil {
		cfg.Out = os.Stdout
	}
	r := &REPL{sess: sess, cfg: cfg, out: cfg.Out, pal: newPalette(cfg.Color),
		print: DefaultPrintOptions, unbroken: map[syntax.Pos]bool{}}
	r.names = newPreludeIndex()
	if cfg.TermWidth != nil {
		r.print.Width = 0 // follow the terminal
	}
	if cfg.Terminal {
		in, err := newReadlineReader(r)
		if err != nil {
			return nil, err
		}
		r.in = in
	} else {
		r.in = newPlainReader(cfg.In, cfg.Out, cfg.Echo, cfg.Prompts || cfg.Echo)
	}
	sess.SetTraceHook(r.onTrace)
	sess.SetBreakHook(r.onBreak)
	return r, nil
}

// Errors is the number of errors the session reported.
func (r *REPL) Errors() int { return *r.pal.errors }

// Close saves the history and releases the terminal.
func (r *REPL) Close() error { return r.in.close() }

// Run reads and runs entries until :quit or the end of input.
func (r *REPL) Run(ctx context.Context) {
	if r.cfg.Banner != "" {
		fmt.Fprintln(r.out, r.cfg.Banner)
	}
	for !r.quit {
		src, err := r.readEntry(mainPrompt)
		if err == io.EOF {
			if r.cfg.Terminal {
				fmt.Fprintln(r.out)
			}
			return
		}
		if err != nil {
			continue // Ctrl-C while typing: a fresh prompt
		}
		r.handle(ctx, src)
	}
}

// readEntry reads one entry: a :command line, a :{ … :} block, or
// Futhark source continued over as many lines as the parser needs. Its
// prompt is format (mainPrompt, breakPrompt) numbered.
func (r *REPL) readEntry(format string) (string, error) {
	var line string
	prompt := r.prompt(format)
	cont := contFor(prompt)
	for {
		var l string
		if r.pending != nil {
			l, r.pending = *r.pending, nil
		} else {
			var err error
			if l, err = r.in.readLine(r.pal.prompt(prompt)); err != nil {
				return "", err
			}
		}
		// an empty or comment-only line is no entry
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "--") {
			line = l
			break
		}
	}
	trimmed := strings.TrimSpace(line)
	if trimmed == ":{" {
		var lines []string
		for {
			l, err := r.in.readLine(r.pal.prompt(cont))
			if err != nil {
				return "", err
			}
			if strings.TrimSpace(l) == ":}" {
				break
			}
			lines = append(lines, l)
		}
		src := strings.Join(lines, "\n")
		r.in.saveHistory(lines)
		return src, nil
	}
	if strings.HasPrefix(trimmed, ":") {
		r.in.saveHistory([]string{line})
		return trimmed, nil
	}
	lines := []string{line}
	for {
		open := incomplete(strings.Join(lines, "\n"))
		// A match may always take one more case: after a line that
		// starts with case, an empty line ends the entry.
		cases := !open && len(lines) > 1 && strings.HasPrefix(strings.TrimSpace(lines[len(lines)-1]), "case ")
		// A declaration continued over several lines may go on after a
		// line that completes it (def g x =, x, + 1): it ends at an
		// empty line.
		decl := !open && len(lines) > 1 && isDecl(lines[0])
		if !open && !cases && !decl {
			break
		}
		// Or at a line that starts a new entry in the first column (a
		// script piped in needs no empty lines between definitions).
		if next, ok := r.in.peekLine(); ok && (cases || decl) && startsEntry(next) {
			break
		}
		l, err := r.in.readLine(r.pal.prompt(cont))
		if err != nil {
			if err == io.EOF {
				break // let the parser say what is missing
			}
			r.in.saveHistory(lines)
			return "", err
		}
		if (cases || decl) && strings.TrimSpace(l) == "" {
			break
		}
		if (cases || decl) && startsEntry(l) {
			// Typed at the continuation prompt, it is the next entry,
			// and is shown again at that entry's prompt.
			r.pending = &l
			r.in.reprompt(r.pal.prompt(cont), r.pal.prompt(fmt.Sprintf(format, r.sess.NextEntry()+1)), l)
			break
		}
		lines = append(lines, l)
	}
	r.in.saveHistory(lines)
	return strings.Join(lines, "\n"), nil
}

// startsEntry reports whether a line that follows a complete entry begins
// a new one: it starts in the first column with what can start an entry
// (not case, then, else, in, an operator or a closing bracket, which go
// on the entry before, nor a comment).
func startsEntry(line string) bool {
	if line == "" || line[0] == ' ' || line[0] == '\t' || strings.HasPrefix(line, "--") {
		return false
	}
	switch f := strings.Fields(line); f[0] {
	case "case", "then", "else", "in", "do", "with", "->":
		return false
	}
	c := line[0]
	return c == ':' || c == '(' || c == '[' || c == '{' || c == '\\' || c == '#' || c == '!' || c == '\'' || c == '"' ||
		c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// incomplete reports whether src stops inside an open construct.
func incomplete(src string) bool {
	_, _, err := syntax.ParseEntry(syntax.NewFileSet(), "<input>", []byte(src))
	return err != nil && syntax.Incomplete(err)
}

// handle runs one entry. A panic in the layers below is a bug in fut,
// not in the user's program: it is reported and the session goes on.
func (r *REPL) handle(ctx context.Context, src string) {
	defer func() {
		if p := recover(); p != nil {
			r.printf("%sinternal error (a bug in fut, not in your program): %v\n%s\n", r.pal.err("error: "), p, r.pal.dim(shortStack()))
		}
	}()
	if strings.TrimSpace(src) == "" {
		return
	}
	// Every entry, a command or one that fails included, takes the
	// number its prompt showed.
	_, end := r.sess.BeginEntry()
	defer end()
	if strings.HasPrefix(src, ":") {
		r.command(ctx, src)
		return
	}
	if r.brk != nil {
		if isDecl(src) {
			r.printf("%sdeclarations wait until the evaluation is over: :continue first\n", r.pal.err("error: "))
			return
		}
		r.evalAtBreak(ctx, src)
		return
	}
	var entry *session.Entry
	err := r.interruptible(ctx, func(ctx context.Context) error {
		var err error
		entry, err = r.sess.Enter(ctx, src)
		return err
	})
	if err != nil {
		r.printError(err)
		return
	}
	if entry.Result == nil {
		r.names.addDecls(entry.Decls)
		return
	}
	r.printResult(entry.Result)
	if entry.Why != "" && r.sess.Backend() == session.BackendOpenCL {
		// asked for the device, ran on the reference path: say why
		r.printf("%s\n", r.pal.dim("(on the reference path: "+entry.Why+")"))
	}
	if r.showCost {
		r.printCost(entry.Result)
	}
}

// isDecl reports whether src starts with a declaration keyword.
func isDecl(src string) bool {
	f := strings.Fields(src)
	if len(f) == 0 {
		return false
	}
	switch f[0] {
	case "def", "entry", "type", "type^", "type~", "module", "open", "import", "local":
		return true
	}
	return false
}

// interruptible runs f with a context that Ctrl-C cancels.
func (r *REPL) interruptible(ctx context.Context, f func(ctx context.Context) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if r.cfg.Signals && r.evalDepth == 0 {
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, os.Interrupt)
		done := make(chan struct{})
		defer func() { signal.Stop(ch); close(done) }()
		go r.onInterrupt(ch, done, cancel)
	}
	savedCancel, savedCtx := r.cancel, r.evalCtx
	r.cancel, r.evalCtx = cancel, ctx
	r.evalDepth++
	defer func() { r.evalDepth--; r.cancel, r.evalCtx = savedCancel, savedCtx }()
	err := f(ctx)
	if err == nil && ctx.Err() != nil {
		// Cancelled (Ctrl-C, :quit at a break point) after the evaluator
		// last looked: the result is not wanted.
		err = ctx.Err()
	}
	return err
}

// deviceGrace is how long an interrupted evaluation may take to stop
// before the REPL says that it waits for the device.
const deviceGrace = 100 * time.Millisecond

// onInterrupt cancels the evaluation at each Ctrl-C until done. The
// reference evaluator stops at once; a kernel running on the OpenCL
// device (or being built for it) cannot be stopped, and may run on for
// many seconds: then the user is told at once that the interrupt was
// seen and what fut waits for, and again at each further Ctrl-C.
func (r *REPL) onInterrupt(ch <-chan os.Signal, done <-chan struct{}, cancel context.CancelFunc) {
	told := false
	for {
		select {
		case <-ch:
		case <-done:
			return
		}
		cancel()
		select {
		case <-done:
			return
		case <-time.After(deviceGrace):
		}
		if !r.sess.OnDevice() {
			continue
		}
		r.outMu.Lock()
		if r.cfg.Terminal {
			fmt.Fprintln(r.out) // after the ^C the terminal echoed
		}
		if !told {
			fmt.Fprintf(r.out, "%s\n", r.pal.dim("interrupt seen: waiting for the OpenCL kernel running on the device to finish (a running kernel cannot be stopped)"))
		} else {
			fmt.Fprintf(r.out, "%s\n", r.pal.dim("still waiting for the kernel to finish"))
		}
		told = true
		r.waitedForDevice = true
		r.outMu.Unlock()
	}
}

// evalExpr evaluates an expression, interruptibly.
func (r *REPL) evalExpr(ctx context.Context, src string) (*session.Result, error) {
	var res *session.Result
	err := r.interruptible(ctx, func(ctx context.Context) error {
		var err error
		res, err = r.sess.EvalExpr(ctx, src)
		return err
	})
	return res, err
}

// printOptions are the options a value is printed with now: on a
// terminal, rows wrap, at its present width unless :set width fixed one.
func (r *REPL) printOptions() PrintOptions {
	opts := r.print
	if r.cfg.TermWidth != nil {
		opts.Wrap = true
		if opts.Width == 0 {
			opts.Width = r.cfg.TermWidth()
		}
	}
	return opts
}

func (r *REPL) printResult(res *session.Result) {
	s, elided := FormatValue(res.Value, r.printOptions())
	if elided {
		s += r.pal.typ(" : " + shownType(res.Type))
	}
	r.printf("%s\n", s)
}

func (r *REPL) printError(err error) {
	r.outMu.Lock()
	defer r.outMu.Unlock()
	if r.cfg.Terminal && session.Interrupted(err) && !r.waitedForDevice {
		fmt.Fprintln(r.out) // after the ^C the terminal echoed
	}
	r.waitedForDevice = false
	fmt.Fprintln(r.out, r.formatError(err))
}

func (r *REPL) printf(format string, args ...any) {
	r.outMu.Lock()
	defer r.outMu.Unlock()
	fmt.Fprintf(r.out, format, args...)
}

// onTrace prints a #[trace] value as it happens.
func (r *REPL) onTrace(pos syntax.Pos, tag string, v value.Value) {
	where := "trace " + r.sess.Fset.Position(pos).String()
	if tag != "" {
		where += " (" + tag + ")"
	}
	s, _ := formatValueAt(v, r.printOptions(), len(where)+2)
	r.printf("%s %s\n", r.pal.dim(where+":"), s)
}

// Load loads a file as :load does, printing what happened; it reports
// whether the load succeeded.
func (r *REPL) Load(ctx context.Context, path string) bool {
	err := r.interruptible(ctx, func(ctx context.Context) error { return r.sess.LoadFile(ctx, path) })
	// As futhark repl does, a file's warnings are shown when it is
	// loaded, before any error (typed declarations show none).
	if ws := r.sess.Warnings(); len(ws) > 0 {
		r.printf("%s\n", r.formatWarnings(ws))
	}
	if err != nil {
		r.printError(err)
		return false
	}
	n := r.indexFile(path, map[string]bool{})
	r.printf("loaded %s (%d definition%s)\n", path, n, plural(n))
	return true
}

// indexFile records the names a loaded file defines (following its
// imports) and returns the number of its top-level definitions.
func (r *REPL) indexFile(path string, seen map[string]bool) int {
	if seen[path] {
		return 0
	}
	seen[path] = true
	src, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	prog, _ := syntax.ParseFile(syntax.NewFileSet(), path, src)
	if prog == nil {
		return 0
	}
	n := 0
	for _, d := range prog.Decls {
		switch d := d.(type) {
		case *syntax.ImportDecl:
			if !strings.HasPrefix(d.Path, "/prelude/") {
				p := d.Path + ".fut"
				if !strings.HasPrefix(p, "/") {
					p = dirOf(path) + p
				}
				r.indexFile(p, seen)
			}
		case *syntax.ValDecl, *syntax.TypeDecl, *syntax.ModDecl, *syntax.ModTypeDecl:
			n++
		}
	}
	r.names.addDecls(prog.Decls)
	return n
}

// shortStack is the first frames of the panicking goroutine's stack
// below the runtime's own.
func shortStack() string {
	buf := make([]byte, 16<<10)
	buf = buf[:runtime.Stack(buf, false)]
	lines := strings.Split(string(buf), "\n")
	var out []string
	for i := 0; i < len(lines) && len(out) < 16; i++ {
		if strings.HasPrefix(lines[i], "panic(") || strings.Contains(lines[i], "runtime/") {
			continue
		}
		out = append(out, lines[i])
	}
	return strings.Join(out, "\n")
}

func dirOf(path string) string {
	if i := strings.LastIndex(path, "/"); i >= 0 {
		return path[:i+1]
	}
	return ""
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
