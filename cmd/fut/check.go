package main

import (
	"fmt"
	"os"

	"fut/interp"
)

// cmdCheck type-checks each file in a session of its own.
func cmdCheck(args []string) int {
	const use = "check FILE..."
	fs := newFlagSet("check", use)
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("check", use, err)
	}
	if len(files) == 0 {
		return flagError("check", use, fmt.Errorf("no files given"))
	}
	status := 0
	for _, f := range files {
		s, err := interp.NewSession(interp.Options{})
		if err != nil {
			fmt.Fprintln(os.Stderr, "fut:", err)
			return 3
		}
		if err := s.CheckFile(f); err != nil {
			fmt.Fprintln(os.Stderr, s.FormatError(err))
			status = 1
		}
	}
	return status
}
