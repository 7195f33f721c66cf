package repl

import (
	"os"

	"github.com/chzyer/readline"
	"github.com/fatih/color"
)

// palette colours the parts of the REPL's output; with colours off every
// function is the identity.
type palette struct {
	prompt, typ, err, warn, caret, num, dim, head func(a ...any) string
	// errors counts the error labels printed (a piped session with
	// errors exits with status 1)
	errors *int
}

func newPalette(on bool) palette {
	mk := func(attrs ...color.Attribute) func(a ...any) string {
		c := color.New(attrs...)
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
		return c.SprintFunc()
	}
	errors := new(int)
	errMk := mk(color.FgRed, color.Bold)
	return palette{
		errors: errors,
		prompt: mk(color.FgGreen, color.Bold),
		typ:    mk(color.FgCyan),
		err: func(a ...any) string {
			*errors++
			return errMk(a...)
		},
		warn:  mk(color.FgYellow, color.Bold),
		caret: mk(color.FgRed),
		num:   mk(color.FgYellow),
		dim:   mk(color.Faint),
		head:  mk(color.Bold),
	}
}

// wantColor is the default: colours only on a terminal and without NO_COLOR.
func wantColor(f *os.File) bool {
	if _, ok := os.LookupEnv("NO_COLOR"); ok {
		return false
	}
	if os.Getenv("TERM") == "dumb" {
		return false
	}
	return readline.IsTerminal(int(f.Fd()))
}
