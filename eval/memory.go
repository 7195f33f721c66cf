package eval

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/metrics"

	"fut/eval/value"
	"fut/interp/syntax"
)

// The memory limit (Options.MaxMemory, --max-memory) bounds the bytes a
// session's values hold live: what its definitions, REPL results and input
// data keep, plus what the running evaluation holds (its intermediates,
// the rows a map has made so far). It is measured, not estimated: the Go
// runtime knows the live heap, and fut's values are nothing but Go heap.
//
// Why measure rather than count. Counting bytes as the evaluator allocates
// them and releasing them when values die needs a release point for every
// value, and values die by being forgotten (a row of a map that is copied
// into the result, a binding that goes out of scope, a closure that is
// dropped); a count that misses one release fails programs that fit, and
// one that misses an allocation site lets a program through. Walking the
// environment and the call stack to sum live arrays is exact but costs as
// much as the values, at every check. The runtime's heap figures cost
// about 0.4 µs to read (runtime/metrics, no stop of the world) and miss
// nothing the evaluator allocates.
//
// What is measured. The session's footprint (its code, the prelude, the
// checker's tables) is the base: the live heap after a collection when the
// prelude is loaded (MarkPrelude), or when the first limited evaluation
// starts, and again when an evaluation starts with the heap grown by a
// quarter of the limit since (what the process keeps besides the
// evaluation's values, entries, plans and caches included, then is base,
// less what the session's constants hold: they still count, but what the
// process keeps besides values does not, so a long session or a test
// runner never fails a small expression). A check reads the heap's object bytes H, which count garbage not
// yet collected as well as live values. While H − base plus the bytes the
// step is about to allocate stays under the limit, nothing more is done.
// Past it, the check forces a collection, after which the heap holds only
// live objects, and fails only if those, with the request, are still over
// the limit. To keep a program that lives near its limit and makes garbage
// from collecting at every check, a check forces a collection only when
// the heap has grown by a sixteenth of the limit since the last one, or
// when the request alone is that large; so the live bytes can pass the
// limit by at most that sixteenth before a check sees it.
//
// Where it is checked. At every allocation the evaluator sizes before
// making it (iota, replicate, ranges, copies, concatenation, the stacking
// of a map's rows, histograms) when it is 64 KiB or more, or when the
// small ones since the last look add up to 1 MiB; and every 1024 steps
// (with cancellation), which catches memory that builds up in many small
// values. A single step cannot allocate much unchecked: the steps that
// make large arrays are the ones above.
//
// Evaluations of one process share the heap. Sessions run one evaluation
// at a time, and the tests and the test runner run sessions one after
// another, so the figure is the session's; two sessions evaluating at once
// in one process would each see the other's values.

// ErrMemory is returned (inside a RuntimeError) when an evaluation would
// pass the memory limit.
var ErrMemory = errors.New("over the memory limit")

// memCheckBytes is the size from which an allocation is checked at once;
// smaller ones are checked when they add up to memPendingBytes.
const (
	memCheckBytes   = 64 << 10
	memPendingBytes = 1 << 20
)

// heapSample reads the bytes of heap objects (live and not yet collected).
type heapSample [1]metrics.Sample

func (s *heapSample) read() int64 {
	if s[0].Name == "" {
		s[0].Name = "/memory/classes/heap/objects:bytes"
	}
	metrics.Read(s[:])
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// liveHeap collects garbage and returns the bytes of the objects left.
func liveHeap() int64 {
	runtime.GC()
	var s heapSample
	return s.read()
}

// measureBase records the session's footprint (see above).
func (in *Interp) measureBase() {
	in.memBase = liveHeap()
	in.memBaseSet = true
}

// heldBytes is about the bytes of the values the session's constants
// hold (an array of a primitive type by its elements' size, other values
// at a word per scalar).
func (in *Interp) heldBytes() int64 {
	in.constMu.Lock()
	defer in.constMu.Unlock()
	var n int64
	for _, r := range in.consts {
		e := r.w.Value()
		if e == nil {
			continue // no longer held
		}
		if a, ok := e.v.(*value.Array); ok && a.Kind == value.KPrim {
			n += a.NumElems() * int64(max(1, a.T.Bits()/8))
		} else if e.v != nil {
			n += 8 * value.Size(e.v)
		}
	}
	return n
}

// memGuard is a thread's view of the memory limit.
type memGuard struct {
	limit   int64 // bytes; 0: no limit
	base    int64 // the session's footprint
	slack   int64 // growth of the heap between two forced collections
	lastGC  int64 // heap bytes after this thread's last forced collection (-1: none yet)
	pending int64 // bytes of small allocations since the last look
	heap    heapSample
}

func (in *Interp) newMemGuard() memGuard {
	limit := in.opts.MaxMemory
	if limit <= 0 {
		return memGuard{}
	}
	if !in.memBaseSet {
		in.measureBase()
	} else {
		// The process keeps more than values: parsed and checked entries,
		// plans, kernel caches, other sessions' data in a test. When the
		// heap has grown by a quarter of the limit since the base was
		// taken, take it again, so that what is not this evaluation's
		// does not count against it.
		var s heapSample
		if s.read()-in.memBase > limit/4 {
			// the definitions' values still count: the base is what is
			// live less what they hold
			in.memBase = liveHeap() - in.heldBytes()
		}
	}
	return memGuard{limit: limit, base: in.memBase, slack: max(limit/16, 1<<20), lastGC: -1}
}

// checkMem fails when the session's live bytes plus request (bytes the
// step at pos is about to allocate, for an array of elems elements) are
// over the limit. elems is -1 for a periodic check, with no request.
func (t *thread) checkMem(pos syntax.Pos, request, elems int64) error {
	need, over := t.mem.over(request)
	if !over {
		return nil
	}
	return &RuntimeError{Pos: t.userPos(pos), Msg: t.mem.message(need, request, elems), Err: ErrMemory, Stack: append([]Frame(nil), t.stack...)}
}

// over says whether the session's live bytes plus request are over the
// limit, and how many bytes they need.
func (g *memGuard) over(request int64) (need int64, over bool) {
	if g.limit <= 0 {
		return 0, false
	}
	if request < memCheckBytes {
		g.pending += request
		if g.pending < memPendingBytes && request > 0 {
			return 0, false
		}
	}
	g.pending = 0
	if request > g.limit {
		// over the limit on its own: no need to look at the heap
		return request, true
	}
	h := g.heap.read()
	if h-g.base+request <= g.limit {
		return 0, false
	}
	if g.lastGC >= 0 && h-g.lastGC < g.slack && request < g.slack {
		return 0, false // collected recently: at most slack bytes unseen
	}
	live := liveHeap()
	g.lastGC = live
	if need := live - g.base + request; need > g.limit {
		return need, true
	}
	return 0, false
}

// message is the memory limit's error message (without the position).
func (g *memGuard) message(need, request, elems int64) string {
	what := ""
	if elems >= 0 {
		what = fmt.Sprintf("an array of %d elements", elems)
	}
	switch {
	case what != "" && need == request:
		return fmt.Sprintf("out of memory: %s needs %s, the limit is %s (--max-memory)", what, Bytes(request), Bytes(g.limit))
	case what != "":
		return fmt.Sprintf("out of memory: %s needs %s more, %s in all, the limit is %s (--max-memory)",
			what, Bytes(request), Bytes(need), Bytes(g.limit))
	case request > 0:
		return fmt.Sprintf("out of memory: the step needs %s more, %s in all, the limit is %s (--max-memory)",
			Bytes(request), Bytes(need), Bytes(g.limit))
	}
	return fmt.Sprintf("out of memory: the values held need %s, the limit is %s (--max-memory)", Bytes(need), Bytes(g.limit))
}

// MemoryError is the memory limit's failure in an evaluation that runs
// outside the reference evaluator (the fused IR's): its message is the
// reference path's, without the position, which the caller adds.
type MemoryError struct{ Msg string }

func (e *MemoryError) Error() string { return e.Msg }

// Unwrap makes errors.Is(err, ErrMemory) hold.
func (e *MemoryError) Unwrap() error { return ErrMemory }

// MemoryCheck is the session's memory limit for one evaluation that runs
// outside the reference evaluator (the fused IR's evaluator): the same
// measure of the session's live bytes, the same base and the same
// message. The function it returns fails with a *MemoryError when the
// live bytes plus request (bytes about to be allocated for an array of
// elems elements; elems -1 for a periodic check with no request) are over
// the limit. It is nil without a limit; it serves one evaluation, on one
// goroutine, and a new one is taken for the next.
func (in *Interp) MemoryCheck() func(request, elems int64) error {
	if in.opts.MaxMemory <= 0 {
		return nil
	}
	g := in.newMemGuard()
	return func(request, elems int64) error {
		need, over := g.over(request)
		if !over {
			return nil
		}
		return &MemoryError{Msg: g.message(need, request, elems)}
	}
}

// Bytes formats a byte count in binary units: 512 bytes, 1.5 KiB, 763 MiB.
func Bytes(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%d bytes", n)
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	x, u := float64(n)/1024, 0
	for x >= 1024 && u < len(units)-1 {
		x /= 1024
		u++
	}
	if x < 9.95 && x != float64(int64(x)) {
		return fmt.Sprintf("%.1f %s", x, units[u])
	}
	return fmt.Sprintf("%.0f %s", x, units[u])
}
