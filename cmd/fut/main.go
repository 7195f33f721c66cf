// Command fut runs Futhark programs: an interactive REPL, an interpreter
// with costs, a checker and a test runner.
//
//	fut [repl] [FILE]             the interactive session
//	fut check FILE...             type-check programs
//	fut run FILE [-e ENTRY] [-b]  run an entry point on arguments read from stdin
//	fut eval [-f FILE] [--cost] [--json] EXPR...
//	fut cost [-f FILE] [--json] [--explain] [--sweep VAR=A..B] EXPR...
//	fut test [--timeout S] [--json FILE] PATH...
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"fut/gpu"
	"fut/interp/session"
)

const version = "0.1"

type command struct {
	name  string
	usage string
	run   func(args []string) int
}

var commands []command

func init() {
	commands = []command{
		{"check", "check FILE...: type-check Futhark programs", cmdCheck},
		{"run", "run FILE [-e ENTRY] [-b]: run an entry point, arguments on stdin", cmdRun},
		{"eval", "eval [-f FILE] [--cost] [--json] EXPR...: evaluate expressions", cmdEval},
		{"cost", "cost [-f FILE] [--json] [--explain] [--sweep VAR=A..B [--plot FILE]] EXPR...: W, D, S1, S∞ as written and fused", cmdCost},
		{"test", "test [--timeout S] [--json FILE] PATH...: run the test blocks of programs", cmdTest},
		{"ir", "ir [-f FILE] [--stage NAME] [--dump-after NAME] EXPR: the core IR after each pass, the kernels, the OpenCL C", cmdIR},
		{"bench", "bench [--runs N] [--json FILE] PATH...: time the datasets of programs' test blocks", cmdBench},
		{"repl", "repl [FILE]: the interactive session (also plain `fut`)", cmdRepl},
		{"devices", "devices [--device NAME|#k]: list OpenCL platforms and devices", cmdDevices},
		{"dataset", "dataset [-b] [-s SEED] [--T-bounds=LO:HI] [-g TYPE]...: random data, or stdin converted", cmdDataset},
		{"datacmp", "datacmp FILE FILE: compare two data files", cmdDatacmp},
		{"version", "version: print fut's version", func([]string) int { fmt.Println("fut", version); return 0 }},
	}
}

func usage() { usageTo(os.Stderr) }

func usageTo(w io.Writer) {
	fmt.Fprintf(w, "fut %s: the Futhark language, with costs.\n\nUsage:\n", version)
	for _, c := range commands {
		fmt.Fprintf(w, "  fut %s\n", c.usage)
	}
	fmt.Fprintf(w, "\n`fut COMMAND --help` lists the command's flags.\n%s", commonFlags)
}

func main() {
	args := os.Args[1:]
	if len(args) == 0 {
		os.Exit(cmdRepl(nil))
	}
	switch args[0] {
	case "-h", "--help", "help":
		usageTo(os.Stdout)
		return
	case "-V", "--version":
		fmt.Println("fut", version)
		return
	}
	for _, c := range commands {
		if c.name == args[0] {
			rest, ok := deviceFlags(c.name, args[1:])
			if !ok {
				os.Exit(2)
			}
			stop := startCPUProfile()
			status := c.run(rest)
			stop()
			printProfile()
			os.Exit(status)
		}
	}
	if strings.HasPrefix(args[0], "-") || (len(args) == 1 && fileExists(args[0])) {
		// fut --backend opencl, fut prog.fut: the REPL with options.
		rest, ok := deviceFlags("repl", args)
		if !ok {
			os.Exit(2)
		}
		os.Exit(cmdRepl(rest))
	}
	if strings.HasSuffix(args[0], ".fut") {
		// fut nonexist.fut: a file, not a command
		fmt.Fprintf(os.Stderr, "fut: %s: no such file\n", args[0])
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "fut: unknown command %q\n\n", args[0])
	usage()
	os.Exit(2)
}

// profileKernels is -P: print a table of the kernels run (calls, total
// and mean device time) when the command ends.
var profileKernels bool

// deviceFlags takes the flags every command shares out of args: the
// device choice and kernel cache (--device NAME|#k, --cache-dir DIR,
// --no-cache) and -P. `fut devices` reads its own.
func deviceFlags(cmd string, args []string) ([]string, bool) {
	if cmd == "devices" {
		return args, true
	}
	cfg, rest, err := gpu.ParseFlags(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "fut %s: %v\n", cmd, err)
		return nil, false
	}
	session.SetDeviceConfig(cfg)
	deviceSpec = cfg.Spec()
	var out []string
	for _, a := range rest {
		if a == "-P" {
			profileKernels = true
			continue
		}
		out = append(out, a)
	}
	return out, true
}

func printProfile() {
	if !profileKernels {
		return
	}
	if t := session.ProfileTable(); t != "" {
		fmt.Fprint(os.Stderr, t)
	} else {
		fmt.Fprintln(os.Stderr, "-P: no kernel ran")
	}
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
