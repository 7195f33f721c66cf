package main

import (
	"fmt"
	"os"

	"fut/interp"
)

// cmdCheck type-checks each file in a session of its own.
func cmdCheck(args []string) int {
	const use = "check [-w] [--Werror] FILE..."
	fs := newFlagSet("check", use)
	// fut's checker gives errors only, no warnings: both flags are
	// accepted as futhark check's, and change nothing
	fs.Bool("w", false, "print no warnings (fut's checker gives none)")
	fs.Bool("Werror", false, "treat warnings as errors (fut's checker gives none)")
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
