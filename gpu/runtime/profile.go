package runtime

import (
	"fut/gpu/cl"

	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// Profile accumulates device time per OpenCL kernel, and build times.
type Profile struct {
	mu      sync.Mutex
	entries map[string]*ProfileEntry
	builds  map[string]time.Duration
	// launches whose device time OpenCL did not give, and why: their
	// time is missing from the totals, never counted as zero silently
	untimedN   int
	untimedErr error
}

// ProfileEntry is the record of one OpenCL kernel.
type ProfileEntry struct {
	Name  string
	Calls int
	Total time.Duration // device time (event start to end)
}

// Mean is Total/Calls.
func (e ProfileEntry) Mean() time.Duration {
	if e.Calls == 0 {
		return 0
	}
	return e.Total / time.Duration(e.Calls)
}

// NewProfile is an empty profile.
func NewProfile() *Profile {
	return &Profile{entries: map[string]*ProfileEntry{}, builds: map[string]time.Duration{}}
}

func (p *Profile) add(name string, ns uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e := p.entries[name]
	if e == nil {
		e = &ProfileEntry{Name: name}
		p.entries[name] = e
	}
	e.Calls++
	e.Total += time.Duration(ns)
}

func (p *Profile) untimed(name string, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.untimedN++
	if p.untimedErr == nil {
		if err == nil {
			err = fmt.Errorf("the event's end is before its start")
		}
		p.untimedErr = fmt.Errorf("kernel %s: %w", name, err)
	}
}

// Untimed is the number of launches whose device time OpenCL did not
// give (profiling failed), and the first reason.
func (p *Profile) Untimed() (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.untimedN, p.untimedErr
}

func (p *Profile) addBuild(name string, d time.Duration, fromDisk bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if fromDisk {
		name += " (disk cache)"
	}
	p.builds[name] += d
}

// Reset forgets everything recorded.
func (p *Profile) Reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.entries = map[string]*ProfileEntry{}
	p.builds = map[string]time.Duration{}
	p.untimedN, p.untimedErr = 0, nil
}

// KernelTime is the device time of every kernel recorded, the sum of
// the entries' Total (without the copy and the sort of Entries: a call
// asks for it before and after it runs).
func (p *Profile) KernelTime() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	var t time.Duration
	for _, e := range p.entries {
		t += e.Total
	}
	return t
}

// Entries are the records, by decreasing total time.
func (p *Profile) Entries() []ProfileEntry {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]ProfileEntry, 0, len(p.entries))
	for _, e := range p.entries {
		out = append(out, *e)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Total != out[j].Total {
			return out[i].Total > out[j].Total
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// Table formats the profile: one row per kernel, then the builds.
func (p *Profile) Table() string {
	var b strings.Builder
	es := p.Entries()
	w := len("kernel")
	for _, e := range es {
		w = max(w, len(e.Name))
	}
	fmt.Fprintf(&b, "%-*s %8s %14s %14s\n", w, "kernel", "calls", "total", "mean")
	var total time.Duration
	for _, e := range es {
		fmt.Fprintf(&b, "%-*s %8d %14s %14s\n", w, e.Name, e.Calls, fmtDur(e.Total), fmtDur(e.Mean()))
		total += e.Total
	}
	fmt.Fprintf(&b, "%-*s %8s %14s\n", w, "total", "", fmtDur(total))
	p.mu.Lock()
	names := make([]string, 0, len(p.builds))
	for n := range p.builds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "build %s: %s\n", n, fmtDur(p.builds[n]))
	}
	if p.untimedN > 0 {
		fmt.Fprintf(&b, "%d launches have no device time (profiling failed: %v); the totals leave them out\n", p.untimedN, p.untimedErr)
	}
	p.mu.Unlock()
	return b.String()
}

func fmtDur(d time.Duration) string {
	return fmt.Sprintf("%.3f ms", float64(d)/1e6)
}

// TraceMark records a mark in the host's timeline of CUDA calls
// (FUT_CUDA_TRACE=2, cl.TraceMark).
func TraceMark(op string) { cl.TraceMark(op) }
