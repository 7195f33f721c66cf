package flatten

// Arguments kept on a device between calls (issue 12): the REPL's
// `fut> f xs` run again on the same xs finds xs on the device and does
// not upload it again. A Resident cache belongs to one device and holds
// device copies of host arrays, keyed by the host array (a weak pointer
// to its *value.Array, so that the cache never keeps a value alive) and
// checked on every hit against what the copy was made from (the
// buffer's address, its length, its element type and its shape).
//
// Why a copy stays right: it is made only of an array marked Frozen
// (and Bound: a header that lives as long as its top-level name, not a
// view or a zip's argument an evaluation made, which would only churn),
// whose buffer nothing writes once it is frozen (eval/value's package
// comment; eval copies a frozen array before any in-place update,
// scatter or histogram into it, value.Array.IsFrozen), and only for a
// plan none of whose steps updates that parameter in place
// (residentSafe, as fut bench's Plan.Upload; a plan with a loop or a
// branch step keeps nothing, as there). An array that is not frozen (an
// entry point's argument read from data, which the caller may consume)
// is uploaded by the run as before. A run never releases the arrays
// given to it as resident (RunOn), and the cache releases none that a
// run holds (Acquire's done).
//
// Memory: the cache holds at most its limit (by default a quarter of the
// device's budget, FUT_RESIDENT_BYTES to set it, 0 to turn it off),
// least recently used first out; before a run it also gives up what the
// run needs (the plan's footprint) beyond the budget, and everything
// when the run goes in chunks, which take the whole budget. An entry
// whose host array was collected is released at the next Acquire.

import (
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync"
	"weak"

	"fut/eval/value"
	"fut/gpu/runtime"
)

// ResidentLimit is the most bytes a Resident cache keeps when made with
// a negative limit, as FUT_RESIDENT_BYTES says ("" or unset: a quarter
// of the device's budget; 0 or off: none), and why the variable was not
// understood ("" when it was).
func ResidentLimit() (limit int64, bad string) {
	s := strings.TrimSpace(os.Getenv("FUT_RESIDENT_BYTES"))
	switch s {
	case "":
		return -1, ""
	case "off":
		return 0, ""
	}
	n, ok := runtime.ParseSize(s)
	if !ok {
		return 0, fmt.Sprintf("FUT_RESIDENT_BYTES=%q is not a size (512M, 2G; 0 or off: keep nothing): nothing is kept on the device", s)
	}
	return n, ""
}

// Resident is one device's cache of arguments kept there between calls.
type Resident struct {
	d     *runtime.Device
	limit int64 // < 0: a quarter of the budget
	why   string

	mu      sync.Mutex
	entries map[weak.Pointer[value.Array]]*resEntry
	used    int64
	tick    uint64
}

type resEntry struct {
	key   weak.Pointer[value.Array]
	from  arrayID
	dev   *runtime.Array
	bytes int64
	last  uint64 // tick of the last use
	busy  int    // runs holding it now
}

// arrayID is what a device copy was made from.
type arrayID struct {
	data  uintptr
	n     int
	t     value.PrimType
	shape string
}

func idOf(a *value.Array) (arrayID, bool) {
	v := reflect.ValueOf(a.Data)
	if v.Kind() != reflect.Slice {
		return arrayID{}, false
	}
	return arrayID{data: v.Pointer(), n: v.Len(), t: a.T, shape: fmt.Sprint(a.Shape)}, true
}

// ResidentStats says what a call found on the device and kept there.
type ResidentStats struct {
	Hits      int   // arguments on the device already
	HitBytes  int64 // their bytes
	Kept      int   // arguments uploaded to stay there
	KeptBytes int64
	Evicted   int    // entries released to make room
	Why       string // why nothing is kept, where the switch says so
}

func (s ResidentStats) String() string {
	if s.Why != "" {
		return s.Why
	}
	var parts []string
	if s.Hits > 0 {
		parts = append(parts, fmt.Sprintf("%s on the device already (%s)", plural(s.Hits, "argument"), runtime.FormatBytes(s.HitBytes)))
	}
	if s.Kept > 0 {
		parts = append(parts, fmt.Sprintf("%s uploaded to stay there (%s)", plural(s.Kept, "argument"), runtime.FormatBytes(s.KeptBytes)))
	}
	if s.Evicted > 0 {
		parts = append(parts, fmt.Sprintf("released %s kept for other calls, to make room", plural(s.Evicted, "array")))
	}
	return strings.Join(parts, ", ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// NewResident makes d's cache, holding at most limit bytes (< 0: a
// quarter of the device's budget at each call; 0: nothing). why, when not
// empty, is said in place of the stats (a switch not understood).
func NewResident(d *runtime.Device, limit int64, why string) *Resident {
	return &Resident{d: d, limit: limit, why: why, entries: map[weak.Pointer[value.Array]]*resEntry{}}
}

// Device is the device the cache keeps its arrays on.
func (c *Resident) Device() *runtime.Device { return c.d }

func (c *Resident) limitNow() int64 {
	if c.limit < 0 {
		return c.d.Budget() / 4
	}
	return c.limit
}

// Acquire gives the arguments of a run of p on the cache's device that
// are there already or are uploaded now to stay (res[i], nil for the
// others, which the run uploads itself; nil when none), for RunOn's
// resident. done must be called once the run is over (its results
// downloaded or released): until then, those arrays are neither
// released nor given up to make room. A failed upload only leaves that
// argument to the run.
func (c *Resident) Acquire(p *Plan, args []value.Value) (res []*runtime.Array, st ResidentStats, done func()) {
	done = func() {}
	st.Why = c.why
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sweep()
	limit := c.limitNow()
	if limit <= 0 || len(args) != len(p.Prog.Params) {
		st.Evicted += c.evict(nil, func() bool { return c.used > max(limit, 0) })
		return nil, st, done
	}
	ch, err := p.fits(c.d, args)
	if err != nil || ch != nil {
		// a run in chunks takes the whole budget
		st.Evicted += c.evict(nil, func() bool { return c.used > 0 })
		return nil, st, done
	}
	total, _, _, _ := footprint(p.Prog, args, 0)
	updated := map[string]bool{}
	safe := residentSafe(p.Steps, updated)
	mine := map[*resEntry]int{} // the entries this run holds, and how often
	var mineBytes int64
	budget := c.d.Budget()
	// what the run needs beside the arrays kept for other calls
	room := func() bool { return budget > 0 && c.used-mineBytes+total > budget }
	res = make([]*runtime.Array, len(args))
	hold := func(e *resEntry, i int) {
		res[i] = e.dev
		e.busy++
		c.tick++
		e.last = c.tick
		if mine[e] == 0 {
			mineBytes += e.bytes
		}
		mine[e]++
	}
	type miss struct {
		i  int
		a  *value.Array
		id arrayID
	}
	var misses []miss
	for i, prm := range p.Prog.Params {
		a, ok := args[i].(*value.Array)
		if !safe || !ok || a.Kind != value.KPrim || !a.Frozen || !a.Bound || updated[prm.Name] || a.NumElems() == 0 {
			continue
		}
		id, ok := idOf(a)
		if !ok {
			continue
		}
		e := c.entries[weak.Make(a)]
		switch {
		case e != nil && e.from == id:
			hold(e, i)
			st.Hits++
			st.HitBytes += e.bytes
		case e != nil && e.busy == 0:
			// not what the copy was made from (a frozen array's buffer
			// does not change: defensive), made again
			c.drop(e)
			misses = append(misses, miss{i, a, id})
		case e == nil:
			misses = append(misses, miss{i, a, id})
		}
	}
	st.Evicted += c.evict(mine, room)
	for _, m := range misses {
		if e := c.entries[weak.Make(m.a)]; e != nil && e.from == m.id {
			hold(e, m.i) // the same array twice among the arguments
			continue
		}
		bytes := m.a.NumElems() * elemBytes(m.a.T)
		if bytes > limit {
			continue
		}
		st.Evicted += c.evict(mine, func() bool { return c.used+bytes > limit })
		r := &runner{d: c.d, env: map[string]*slot{"x": {host: m.a}}}
		da, err := r.device("x")
		if err != nil {
			// out of memory, say: leave the room to the run
			st.Evicted += c.evict(mine, func() bool { return c.used > 0 })
			continue
		}
		e := &resEntry{key: weak.Make(m.a), from: m.id, dev: da, bytes: int64(da.Bytes())}
		c.entries[e.key] = e
		c.used += e.bytes
		hold(e, m.i)
		st.Kept++
		st.KeptBytes += e.bytes
	}
	if len(mine) == 0 {
		return nil, st, done
	}
	var once sync.Once
	done = func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			for e, n := range mine {
				e.busy -= n
			}
			c.sweep()
			limit := c.limitNow()
			c.evict(nil, func() bool { return c.used > max(limit, 0) })
		})
	}
	return res, st, done
}

// Yield makes room for a run of p on the cache's device that takes no
// array from it (an entry point's call, whose arguments are not frozen):
// it releases the arrays no run holds, least recently used first, that
// the run's footprint needs of the budget, and all of them for a run in
// chunks. It returns how many it released.
func (c *Resident) Yield(p *Plan, args []value.Value) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sweep()
	if c.used == 0 || len(args) != len(p.Prog.Params) {
		return 0
	}
	if ch, err := p.fits(c.d, args); err != nil || ch != nil {
		return c.evict(nil, func() bool { return c.used > 0 })
	}
	total, _, _, _ := footprint(p.Prog, args, 0)
	budget := c.d.Budget()
	return c.evict(nil, func() bool { return budget > 0 && c.used+total > budget })
}

// elemBytes is the bytes an element of type t takes on the device (f16
// is held as f32, ktype).
func elemBytes(t value.PrimType) int64 {
	if t == value.F16 {
		t = value.F32
	}
	return int64(runtime.TypeOf(t).Size())
}

// sweep releases the entries whose host array was collected (c.mu held).
func (c *Resident) sweep() {
	for _, e := range c.entries {
		if e.busy == 0 && e.key.Value() == nil {
			c.drop(e)
		}
	}
}

// evict releases idle entries outside keep, least recently used first,
// while over says there is too much; it returns how many (c.mu held).
func (c *Resident) evict(keep map[*resEntry]int, over func() bool) int {
	if !over() {
		return 0
	}
	var idle []*resEntry
	for _, e := range c.entries {
		if e.busy == 0 && keep[e] == 0 {
			idle = append(idle, e)
		}
	}
	sort.Slice(idle, func(i, j int) bool { return idle[i].last < idle[j].last })
	n := 0
	for _, e := range idle {
		if !over() {
			break
		}
		c.drop(e)
		n++
	}
	return n
}

func (c *Resident) drop(e *resEntry) {
	e.dev.Release()
	c.used -= e.bytes
	delete(c.entries, e.key)
}

// Clear releases every entry no run holds (the device is to be closed,
// or a test starts afresh).
func (c *Resident) Clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.evict(nil, func() bool { return true })
}

// Held is the number of arrays the cache keeps and their bytes.
func (c *Resident) Held() (arrays int, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sweep()
	return len(c.entries), c.used
}
