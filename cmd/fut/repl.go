package main

import (
	"context"
	"fmt"
	"os"

	"fut/interp/session"
	"fut/repl"
)

// cmdRepl is `fut`, `fut FILE` and `fut repl [FILE]`: the interactive
// session, with FILE loaded first.
func cmdRepl(args []string) int {
	const usage = "repl [--backend interp|opencl|auto] [--no-color] [--max-memory SIZE] [FILE]"
	fs := newFlagSet("repl", usage)
	noColor := fs.Bool("no-color", false, "no colours")
	maxMem := memoryFlag(fs)
	backend := fs.String("backend", "auto", "where expressions run: interp, opencl or auto (the device when one exists and the expression is large)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("repl", usage, err)
	}
	if len(pos) > 1 {
		fmt.Fprintf(os.Stderr, "usage: fut %s\n", usage)
		return 2
	}
	cfg := repl.TerminalConfig()
	cfg.DeviceSpec = deviceSpec
	if *noColor {
		cfg.Color = false
	}
	if cfg.Terminal {
		cfg.Banner = "fut " + version + ": the Futhark language, with costs. Type :help for commands."
	}
	be, err := session.ParseBackend(*backend)
	if err != nil {
		return flagError("repl", usage, err)
	}
	sess, err := session.NewSession(session.Options{Cost: true, MaxMemory: maxMem.n})
	if err != nil {
		fmt.Fprintln(os.Stderr, "fut:", err)
		return 1
	}
	sess.SetBackend(be)
	r, err := repl.New(sess, cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fut:", err)
		return 1
	}
	defer r.Close()
	ctx := context.Background()
	if len(pos) == 1 && !r.Load(ctx, pos[0]) && !cfg.Terminal {
		return 1
	}
	r.Run(ctx)
	if !cfg.Terminal && r.Errors() > 0 {
		return 1 // a piped session with errors fails, as a script would
	}
	return 0
}
