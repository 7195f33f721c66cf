package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"fut/interp/session"
)

// parseInterspersed parses flags that may come before, between or after
// the positional arguments (fut run FILE -e main), which package flag
// alone does not allow. It returns the positional arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if rest[0] == "--" {
			return append(pos, rest[1:]...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// flagSets are the commands' flag sets, for --help.
var flagSets = map[string]*flag.FlagSet{}

func newFlagSet(name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	flagSets[name] = fs
	return fs
}

// commonFlags describes the flags every command takes (read before the
// command's own, by deviceFlags).
const commonFlags = `
Flags every command takes:
  --device NAME|#k   the OpenCL device: a part of its name, or its number in fut devices (or FUT_DEVICE)
  --device-memory SIZE  the most device memory an offloaded call may use (e.g. 512M, 8G; default
                     the device's less an eighth); a call that needs more runs in chunks
  --devices all|N|#i,#j  the devices an offloaded nest is split across (default: one); on a
                     machine with fewer, N makes logical devices of those there are
                     (FUT_SPLIT_MIN: the least outer width split, default 256)
  --cache-dir DIR    where built kernels are kept (default: the user cache directory)
  --no-cache         build every kernel anew and keep none
  -P                 print a table of the kernels run (calls, device time) at the end
`

// flagError reports a bad command line and returns the exit status 2;
// --help prints the command's usage and every flag, on standard output.
func flagError(cmd, usage string, err error) int {
	if err == flag.ErrHelp {
		fmt.Printf("usage: fut %s\n", usage)
		if fs := flagSets[cmd]; fs != nil {
			fmt.Println("\nFlags:")
			fs.SetOutput(os.Stdout)
			fs.PrintDefaults()
			fs.SetOutput(io.Discard)
		}
		fmt.Print(commonFlags)
		return 0
	}
	fmt.Fprintf(os.Stderr, "fut %s: %v\nusage: fut %s\n", cmd, err, usage)
	return 2
}

// memFlag is --max-memory: the most bytes the program's values may hold
// live at once (512M, 8G, …; eval/memory.go); 0 leaves the session's
// default, half of the machine's memory.
type memFlag struct{ n int64 }

func (m *memFlag) String() string { return fmt.Sprint(m.n) }

func (m *memFlag) Set(s string) error {
	n, ok := session.ParseBytes(s)
	if !ok {
		return fmt.Errorf("not a size: %q (write e.g. 512M or 8G)", s)
	}
	m.n = n
	return nil
}

func memoryFlag(fs *flag.FlagSet) *memFlag {
	m := &memFlag{}
	fs.Var(m, "max-memory", "the most memory the program's values may hold live at once (e.g. 512M, 8G; default half the machine's)")
	return m
}
