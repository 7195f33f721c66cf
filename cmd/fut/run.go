package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"fut/eval/value"
	"fut/gpu"
	"fut/interp/session"
)

// cmdRun runs an entry point of a program on arguments read from stdin,
// and prints its results one per line.
func cmdRun(args []string) int {
	ctx, stop := interruptible(context.Background())
	defer stop()
	return runMain(ctx, args, os.Stdin, os.Stdout, os.Stderr)
}

// runMain is fut run with its streams given: every error is one line on
// stderr (a run-time error adds its backtrace below) and a non-zero
// status.
func runMain(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	const use = "run FILE [-e ENTRY] [-b] [-w] [--backend interp|opencl|auto] [--timeout D] [--max-memory SIZE]"
	fs := newFlagSet("run", use)
	entry := fs.String("e", "main", "the entry point to run")
	fs.StringVar(entry, "entry-point", "main", "the entry point to run (as -e)")
	binary := fs.Bool("b", false, "print the results in the binary data format")
	noWarn := fs.Bool("w", false, "do not print the type checker's warnings")
	timeoutF := timeoutFlag(fs, "stop the run after this long")
	maxMem := memoryFlag(fs)
	backend := fs.String("backend", "auto", "where the entry point runs: interp, opencl, or auto (the device when one exists and the work is large)")
	verbose := fs.Bool("v", false, "say where the entry point ran, and why not on the device")
	pin := fs.Bool("pin", false, "read large input arrays into pinned memory, from which the device copies at the bus's full speed (pinning costs more than it saves unless a run streams its input more than once)")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("run", use, err)
	}
	be, err := session.ParseBackend(*backend)
	if err != nil {
		return flagError("run", use, err)
	}
	if len(files) != 1 {
		return flagError("run", use, fmt.Errorf("give exactly one file"))
	}
	file := files[0]
	s, err := session.NewSession(session.Options{MaxMemory: maxMem.n})
	if err != nil {
		fmt.Fprintln(stderr, "fut:", err)
		return 3
	}
	if timeoutF.d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeoutF.d)
		defer cancel()
	}
	start := time.Now()
	timedOut := func(err error) bool {
		if ctx.Err() != context.DeadlineExceeded {
			return false
		}
		fmt.Fprintf(stderr, "%s: timed out after %s (--timeout %s)\n", file, time.Since(start).Round(time.Millisecond), timeoutF.d)
		return true
	}
	err = s.LoadFile(ctx, file)
	// the checker's warnings first, as fut check prints them
	if ws := s.Warnings(); len(ws) > 0 && !*noWarn {
		fmt.Fprintln(stderr, s.FormatWarnings(ws))
	}
	if err != nil {
		if !timedOut(err) {
			fmt.Fprintln(stderr, s.FormatError(err))
		}
		return 1
	}
	params, _, ok := s.EntryPoint(*entry)
	if !ok {
		fmt.Fprintf(stderr, "%s: no entry point %q\n", file, *entry)
		return 1
	}
	readStart := time.Now()
	input, release, err := readInput(stdin)
	if err != nil {
		fmt.Fprintln(stderr, "fut: reading stdin:", err)
		return 1
	}
	var opts value.ReadOptions
	if be != session.BackendInterp && *pin && len(input) >= value.BulkMin {
		// Large arrays go to pinned memory, from which the device
		// copies at the bus's full speed (chunked runs stream them).
		opts.Alloc = func(n int) []byte {
			d, err := session.OffloadDevice()
			if err != nil {
				return nil
			}
			d.AllowPinnedHost(value.BulkMin)
			return d.HostAlloc(n)
		}
	}
	vals, err := readArgs(input, *entry, params, opts)
	if *verbose && len(input) >= value.BulkMin {
		pinned := ""
		if d, derr := session.OffloadDevice(); opts.Alloc != nil && derr == nil && d.PinnedBytes() > 0 {
			pinned = ", " + gpu.FormatBytes(d.PinnedBytes()) + " of it into pinned memory"
		}
		fmt.Fprintf(stderr, "fut: read %s of input in %.3f s%s\n", gpu.FormatBytes(int64(len(input))), time.Since(readStart).Seconds(), pinned)
	}
	input = nil // the values hold what they need
	release()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	var out []value.Value
	if off, why, oerr := s.CallEntryOffload(ctx, be, *entry, vals); oerr != nil {
		err = oerr
		if *verbose {
			fmt.Fprintln(stderr, "fut: the program failed on opencl")
		}
	} else if off != nil {
		out = off.Values
		if *verbose {
			chunks := ""
			if off.Chunks != "" {
				chunks = " " + off.Chunks
			}
			fmt.Fprintf(stderr, "ran on opencl%s: %d kernel launches, %s of device time\n", chunks, off.Launches, off.KernelTime)
			if off.Split != "" {
				fmt.Fprintf(stderr, "fut: %s\n", off.Split)
			}
			if off.Untimed > 0 {
				fmt.Fprintf(stderr, "fut: %d of the launches have no device time (profiling failed: %v)\n", off.Untimed, off.UntimedWhy)
			}
			printTileNotes(stderr, "fut: ")
		}
	} else {
		if *verbose || be == session.BackendOpenCL {
			// Asked for the device and not given it: say why, once.
			fmt.Fprintf(stderr, "fut: ran on the reference path: %s\n", why)
		}
		out, _, err = s.CallEntry(ctx, *entry, vals)
	}
	if err != nil {
		if !timedOut(err) {
			fmt.Fprintln(stderr, s.FormatError(err))
		}
		return 1
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	for _, v := range out {
		if *binary {
			if err := value.WriteBinary(w, v); err != nil {
				fmt.Fprintln(stderr, "fut:", err)
				return 1
			}
			continue
		}
		value.Write(w, v)
		w.WriteString("\n")
	}
	return 0
}

// readInput reads the input: a large file given as standard input (fut
// run p.fut < data) mapped into memory (release unmaps it, once the
// values are made), else as readAll does.
func readInput(r io.Reader) (b []byte, release func(), err error) {
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() >= value.BulkMin {
			if pos, err := f.Seek(0, io.SeekCurrent); err == nil && pos == 0 {
				if b, release, ok := mapFile(f, st.Size()); ok {
					return b, release, nil
				}
			}
		}
	}
	b, err = readAll(r)
	return b, func() {}, err
}

// readAll reads the input: a file given as standard input in one buffer
// of its size, anything else as it comes (with the copies of a growing
// buffer).
func readAll(r io.Reader) ([]byte, error) {
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > 0 {
			if pos, err := f.Seek(0, io.SeekCurrent); err == nil && pos <= st.Size() {
				buf := make([]byte, st.Size()-pos)
				n, err := io.ReadFull(f, buf)
				if err == io.ErrUnexpectedEOF {
					err = nil
				}
				if err != nil {
					return nil, err
				}
				rest, err := io.ReadAll(f) // grown meanwhile
				return append(buf[:n], rest...), err
			}
		}
	}
	return io.ReadAll(r)
}
