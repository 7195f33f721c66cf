package main

import (
	"flag"
	"fmt"
	"io"
	"os"
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

func newFlagSet(name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	_ = usage
	return fs
}

// flagError reports a bad command line and returns the exit status 2.
func flagError(cmd, usage string, err error) int {
	if err == flag.ErrHelp {
		fmt.Fprintf(os.Stderr, "usage: fut %s\n", usage)
		return 0
	}
	fmt.Fprintf(os.Stderr, "fut %s: %v\nusage: fut %s\n", cmd, err, usage)
	return 2
}
