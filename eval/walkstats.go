package eval

import (
	"fmt"
	"os"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"fut/eval/value"
	"fut/interp/syntax"
)

// The walker's share, measured. With FUT_WALKSTATS=FILE in the
// environment, every entry from compiled code (or from outside, a
// top-level expression or declaration) into the tree walker is counted
// under the reason it was needed, with the number of nodes the walker
// evaluated for it (t.eval calls, parentheses and ascriptions left out,
// as the compiler leaves them out), and the compiled code counts its own
// node evaluations; the table is written to FILE after each call into
// the package (EvalExpr, EvalDecls, Apply, CallEntry). Without the
// variable, walkStats is nil and nothing is counted: one test of a
// package variable per walker node and per compiled call.
//
// A node the walker evaluates belongs to the innermost entry; compiled
// code called from the walker (a closure's body) counts as compiled. A
// t.eval outside any entry is counted as "unattributed" (with
// FUT_WALKSTATS_DEBUG set, its position and Go stack go to stderr),
// which names a walker path that this table does not know yet.
var walkStats = newWalkStats(os.Getenv("FUT_WALKSTATS"))

// walkCounter counts one reason's entries and walker node evaluations.
type walkCounter struct {
	reason  string
	entries atomic.Int64
	nodes   atomic.Int64
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

// nodeReason is the reason for a node that the compiler hands to the
// walker whole: its kind.
func nodeReason(x syntax.Expr) string {
	return "node " + strings.TrimPrefix(fmt.Sprintf("%T", x), "*syntax.")
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

// countNode counts one walker node evaluation of x.
func (w *walkTable) countNode(t *thread, x syntax.Expr) {
	switch x.(type) {
	case *syntax.Paren, *syntax.Ascript:
		return
	}
	if t.wc != nil {
		t.wc.nodes.Add(1)
	} else {
		walkReason("unattributed " + nodeReason(x)).nodes.Add(1)
		if os.Getenv("FUT_WALKSTATS_DEBUG") != "" {
			fmt.Fprintf(os.Stderr, "unattributed walk at %s\n%s\n", t.in.fset.Position(x.Pos()), debug.Stack())
		}
	}
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

// callWalkedCounted is callWalked under the reason the closure's body
// is not compiled.
func (t *thread) callWalkedCounted(c *closure, args []value.Value) (value.Value, error) {
	reason := "closure: parameter pattern"
	switch {
	case t.in.noCompile:
		reason = "closure: compiler off (tests)"
	case len(c.sizeParams) > 0:
		reason = "closure: size parameters"
	}
	prev := t.enterWalk(walkReason(reason))
	v, err := t.callWalked(c, args)
	t.wc = prev
	return v, err
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
	sort.Slice(cs, func(i, j int) bool {
		a, b := cs[i].nodes.Load(), cs[j].nodes.Load()
		if a != b {
			return a > b
		}
		return cs[i].reason < cs[j].reason
	})
	var b strings.Builder
	var entries, nodes int64
	for _, c := range cs {
		entries += c.entries.Load()
		nodes += c.nodes.Load()
	}
	comp := w.compiled.Load()
	fmt.Fprintf(&b, "%-44s %12s %14s\n", "reason", "entries", "walker nodes")
	for _, c := range cs {
		fmt.Fprintf(&b, "%-44s %12d %14d\n", c.reason, c.entries.Load(), c.nodes.Load())
	}
	fmt.Fprintf(&b, "%-44s %12d %14d\n", "total walker", entries, nodes)
	fmt.Fprintf(&b, "%-44s %12s %14d\n", "compiled nodes", "", comp)
	if nodes+comp > 0 {
		fmt.Fprintf(&b, "walker share of node evaluations: %.4f%%\n", 100*float64(nodes)/float64(nodes+comp))
	}
	tmp := w.file + ".tmp"
	if os.WriteFile(tmp, []byte(b.String()), 0o644) == nil {
		os.Rename(tmp, w.file)
	}
}
