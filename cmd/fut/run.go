package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"fut/eval/value"
	"fut/interp"
)

// cmdRun runs an entry point of a program on arguments read from stdin,
// and prints its results one per line.
func cmdRun(args []string) int {
	const use = "run FILE [-e ENTRY] [-b] [--timeout S]"
	fs := newFlagSet("run", use)
	entry := fs.String("e", "main", "the entry point to run")
	binary := fs.Bool("b", false, "print the results in the binary data format")
	timeout := fs.Duration("timeout", 0, "stop the run after this long (e.g. 10s)")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("run", use, err)
	}
	if len(files) != 1 {
		return flagError("run", use, fmt.Errorf("give exactly one file"))
	}
	file := files[0]
	s, err := interp.NewSession(interp.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "fut:", err)
		return 3
	}
	ctx, stop := interruptible(context.Background())
	defer stop()
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	if err := s.LoadFile(ctx, file); err != nil {
		fmt.Fprintln(os.Stderr, s.FormatError(err))
		return 1
	}
	params, _, ok := s.EntryPoint(*entry)
	if !ok {
		fmt.Fprintf(os.Stderr, "%s: no entry point %q\n", file, *entry)
		return 1
	}
	input, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fut: reading stdin:", err)
		return 1
	}
	want := make([]value.PrimType, len(params))
	for i, p := range params {
		want[i] = interp.ElemPrim(p)
	}
	vals, err := value.ReadTyped(input, want)
	if err != nil {
		fmt.Fprintf(os.Stderr, "<stdin>:%v (argument %d of %s)\n", err, len(vals)+1, *entry)
		return 1
	}
	if len(vals) != len(params) {
		fmt.Fprintf(os.Stderr, "%s: entry point %s takes %d arguments, but %d were given on stdin\n", file, *entry, len(params), len(vals))
		return 1
	}
	start := time.Now()
	out, _, err := s.CallEntry(ctx, *entry, vals)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			fmt.Fprintf(os.Stderr, "%s: timed out after %s\n", file, time.Since(start).Round(time.Millisecond))
			return 1
		}
		fmt.Fprintln(os.Stderr, s.FormatError(err))
		return 1
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for _, v := range out {
		if *binary {
			if err := value.WriteBinary(w, v); err != nil {
				fmt.Fprintln(os.Stderr, "fut:", err)
				return 1
			}
			continue
		}
		value.Write(w, v)
		w.WriteString("\n")
	}
	return 0
}
