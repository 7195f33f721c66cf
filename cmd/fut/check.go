package main

import (
	"fmt"
	"os"

	"fut/interp/session"
)

// cmdCheck type-checks each file in a session of its own.
func cmdCheck(args []string) int {
	const use = "check [-w] [--Werror] FILE..."
	fs := newFlagSet("check", use)
	noWarn := fs.Bool("w", false, "print no warnings")
	werror := fs.Bool("Werror", false, "treat warnings as errors")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("check", use, err)
	}
	if len(files) == 0 {
		return flagError("check", use, fmt.Errorf("no files given"))
	}
	status := 0
	for _, f := range files {
		s, err := session.NewSession(session.Options{})
		if err != nil {
			fmt.Fprintln(os.Stderr, "fut:", err)
			return 3
		}
		err = s.CheckFile(f)
		// Warnings come first, as Futhark prints them, then the error.
		if ws := s.Warnings(); len(ws) > 0 {
			if !*noWarn || *werror {
				fmt.Fprintln(os.Stderr, s.FormatWarnings(ws))
			}
			if *werror {
				status = 1
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, s.FormatError(err))
			status = 1
		}
	}
	return status
}
