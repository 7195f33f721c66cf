package main

import (
	"fmt"
	"io"
	"time"
)

// progress reports how far fut test has come while it runs, as futhark
// test does: on a terminal, one status line rewritten after each program;
// otherwise (or with --no-terminal) a line at most once a minute.
type progress struct {
	w        io.Writer
	terminal bool
	total    int
	now      func() time.Time
	last     time.Time // when the last non-terminal line was written
	shown    bool      // a terminal status line is on screen
}

// every is how often a non-terminal status line may appear.
const every = time.Minute

func newProgress(w io.Writer, terminal bool, total int) *progress {
	p := &progress{w: w, terminal: terminal, total: total, now: time.Now}
	p.last = p.now()
	return p
}

// update reports done programs of the total, with the counts so far.
func (p *progress) update(done, passed, failed, skipped int) {
	line := fmt.Sprintf("[%d/%d] %d passed, %d failed, %d skipped", done, p.total, passed, failed, skipped)
	if p.terminal {
		fmt.Fprintf(p.w, "\r\033[K%s", line)
		p.shown = true
		return
	}
	if t := p.now(); t.Sub(p.last) >= every {
		fmt.Fprintf(p.w, "fut test: %s\n", line)
		p.last = t
	}
}

// clear removes the terminal status line before other output.
func (p *progress) clear() {
	if p.terminal && p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}
