package types

// Snapshot is a saved top-level environment of the checker.
type Snapshot struct {
	top     *scope
	entries map[string]*entryPoint
}

// Snapshot saves the top-level environment, so that Restore can undo what
// is declared after it: the session uses it to roll back a file whose
// evaluation fails after it checked. Later declarations go into a new
// level, so the saved one is never changed; side tables (Info) are kept,
// since what they say of the nodes checked stays true.
func (c *Checker) Snapshot() Snapshot {
	s := Snapshot{top: c.top, entries: map[string]*entryPoint{}}
	for k, v := range c.entries {
		s.entries[k] = v
	}
	c.top = newScope(c.top)
	return s
}

// Restore returns the top-level environment to a Snapshot. A zero
// Snapshot is ignored.
func (c *Checker) Restore(s Snapshot) {
	if s.top == nil {
		return
	}
	c.top = newScope(s.top)
	c.entries = s.entries
}
