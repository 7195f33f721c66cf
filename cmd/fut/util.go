package main

import (
	"strings"
	"time"
)

func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// oneLine keeps a message on one line of the test report.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
