package flatten

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// FUT_SPLIT_TRACE=1 prints, after each split run, when its parts
// started, queued their chunks and ended on each device's worker, and
// when the caller handed them out and saw them end, in microseconds
// from the run's start: where the fixed cost of a split goes.
var splitTrace = os.Getenv("FUT_SPLIT_TRACE") != ""

type traceMark struct {
	what string
	at   time.Duration
}

func (w *worker) mark(s *splitRun, what string) {
	if splitTrace {
		w.marks = append(w.marks, traceMark{what, time.Since(s.t0)})
	}
}

func (s *splitRun) mark(what string) {
	if splitTrace {
		s.marks = append(s.marks, traceMark{what, time.Since(s.t0)})
	}
}

func (s *splitRun) trace() {
	var b strings.Builder
	fmt.Fprintf(&b, "split trace: %.0f µs;", float64(time.Since(s.t0).Microseconds()))
	line := func(who string, ms []traceMark) {
		fmt.Fprintf(&b, " %s:", who)
		for _, m := range ms {
			fmt.Fprintf(&b, " %s %.0f", m.what, float64(m.at.Nanoseconds())/1e3)
		}
		b.WriteString(";")
	}
	line("caller", s.marks)
	for i, w := range s.workers {
		line(fmt.Sprintf("device %d", i), w.marks)
		w.marks = nil
	}
	fmt.Fprintln(os.Stderr, b.String())
}
