package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// oneLine keeps a message on one line of the test report.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// durationFlag is a --timeout value: plain seconds (2, 0.5) or a Go
// duration (2s, 500ms, 1m), the same on every command.
type durationFlag struct{ d time.Duration }

func (f *durationFlag) String() string { return f.d.String() }

func (f *durationFlag) Set(s string) error {
	if secs, err := strconv.ParseFloat(s, 64); err == nil {
		if secs < 0 {
			return fmt.Errorf("a negative duration")
		}
		f.d = time.Duration(secs * float64(time.Second))
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return fmt.Errorf("%q is not a duration (seconds, or as 2s, 500ms, 1m)", s)
	}
	f.d = d
	return nil
}

// timeoutFlag defines --timeout on fs.
func timeoutFlag(fs interface {
	Var(value flag.Value, name, usage string)
}, usage string) *durationFlag {
	f := &durationFlag{}
	fs.Var(f, "timeout", usage+" (seconds, or a duration such as 2s; 0: no limit)")
	return f
}

// tagList is a flag that may be given several times.
type tagList []string

func (l *tagList) String() string { return strings.Join(*l, ",") }

func (l *tagList) Set(s string) error {
	*l = append(*l, s)
	return nil
}
