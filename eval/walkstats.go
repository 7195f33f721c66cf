package eval

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"fut/eval/value"
)

// What compiled code leaves to the helpers that work in an environment.
// The tree walker that once evaluated expressions node by node is gone
// (issue 18); compiled code still builds an environment from its frame
// (envAt) for a few helpers of eval_*.go: the binding of sizes (bindPat,
// bindLet), the sizes of a coercion's type (checkType), the type of an
// empty array, the context sizes of a use (evalVar, withSizes), and
// declarations. With FUT_WALKSTATS=FILE in the environment, every entry
// into one of them from compiled code (or from outside, a top-level
// expression or declaration) is counted under its reason, and compiled
// code counts its own node evaluations; the table is written to FILE
// after each call into the package (EvalExpr, EvalDecls, Apply,
// CallEntry). Without the variable, walkStats is nil and nothing is counted:
// one test of a package variable per compiled node and per entry.
var walkStats = newWalkStats(os.Getenv("FUT_WALKSTATS"))

// walkCounter counts one reason's entries.
type walkCounter struct {
	reason  string
	entries atomic.Int64
}

type walkTable struct {
	file     string
	mu       sync.Mutex
	byReason map[string]*walkCounter
	compiled atomic.Int64 // compiled node evaluations
}

func newWalkStats(file string) *walkTable {
	if file == "" {
		return nil
	}
	return &walkTable{file: file, byReason: map[string]*walkCounter{}}
}

// walkReason returns the counter of reason; nil when counting is off.
func walkReason(reason string) *walkCounter {
	w := walkStats
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	c := w.byReason[reason]
	if c == nil {
		c = &walkCounter{reason: reason}
		w.byReason[reason] = c
	}
	return c
}

// enterWalk makes c the current reason (counting an entry) and returns
// the previous one, which the caller restores.
func (t *thread) enterWalk(c *walkCounter) *walkCounter {
	prev := t.wc
	if c != nil {
		c.entries.Add(1)
	}
	t.wc = c
	return prev
}

// counted wraps a compiled node to count its evaluations.
func (w *walkTable) counted(c cexpr) cexpr {
	return func(t *thread, bp int) (value.Value, error) {
		w.compiled.Add(1)
		return c(t, bp)
	}
}

// countedPrim is counted for a pexpr.
func (w *walkTable) countedPrim(c pexpr) pexpr {
	return func(t *thread, bp int) (value.Prim, value.Value, error) {
		w.compiled.Add(1)
		return c(t, bp)
	}
}

// flush writes the table to the file named by FUT_WALKSTATS.
func (w *walkTable) flush() {
	if w == nil {
		return
	}
	w.mu.Lock()
	cs := make([]*walkCounter, 0, len(w.byReason)+1)
	for _, c := range w.byReason {
		cs = append(cs, c)
	}
	w.mu.Unlock()
	sort.Slice(cs, func(i, j int) bool { return cs[i].reason < cs[j].reason })
	var b strings.Builder
	var entries int64
	for _, c := range cs {
		entries += c.entries.Load()
	}
	fmt.Fprintf(&b, "%-44s %12s\n", "reason", "entries")
	for _, c := range cs {
		fmt.Fprintf(&b, "%-44s %12d\n", c.reason, c.entries.Load())
	}
	fmt.Fprintf(&b, "%-44s %12d\n", "total entries", entries)
	fmt.Fprintf(&b, "%-44s %12d\n", "compiled nodes", w.compiled.Load())
	tmp := w.file + ".tmp"
	if os.WriteFile(tmp, []byte(b.String()), 0o644) == nil {
		os.Rename(tmp, w.file)
	}
}
