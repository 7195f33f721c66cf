package main

import (
	"strings"
	"testing"
	"time"
)

// TestProgress: a terminal gets one rewritten status line per program;
// elsewhere a line appears only once a minute has passed.
func TestProgress(t *testing.T) {
	var b strings.Builder
	p := newProgress(&b, true, 3)
	p.update(1, 1, 0, 0)
	p.update(2, 1, 1, 0)
	p.clear()
	if got := b.String(); !strings.Contains(got, "\r\033[K[2/3] 1 passed, 1 failed, 0 skipped") || strings.Count(got, "\n") != 0 {
		t.Errorf("terminal: %q", got)
	}

	b.Reset()
	clock := time.Unix(0, 0)
	p = newProgress(&b, false, 10)
	p.now = func() time.Time { return clock }
	p.last = clock
	p.update(1, 1, 0, 0)
	clock = clock.Add(30 * time.Second)
	p.update(2, 2, 0, 0)
	if b.Len() != 0 {
		t.Errorf("a line within the first minute: %q", b.String())
	}
	clock = clock.Add(31 * time.Second)
	p.update(3, 3, 0, 0)
	clock = clock.Add(10 * time.Second)
	p.update(4, 4, 0, 0)
	if got := b.String(); got != "fut test: [3/10] 3 passed, 0 failed, 0 skipped\n" {
		t.Errorf("non-terminal: %q", got)
	}
}
