package eval

import (
	"maps"

	"fut/interp/syntax"
)

// Snapshot is a saved top-level environment (see Interp.Snapshot).
type Snapshot struct {
	top     *scope
	imports map[*syntax.Program]*module
	prelude *scope
}

// Snapshot saves the top-level environment, so that a later Restore can
// undo the declarations of a file whose evaluation failed half-way.
// Taking one is cheap: levels are never changed once sealed, so the
// snapshot is a pointer to what the current level sees (its compacted
// copy, under the new level that later declarations go into).
func (in *Interp) Snapshot() Snapshot {
	in.top = in.top.child() // seal the level the snapshot holds
	return Snapshot{top: in.top.parent, imports: maps.Clone(in.imports), prelude: in.preludeScope}
}

// Restore returns the top-level environment to what Snapshot saved:
// names bound since are gone, and imports evaluated since will be
// evaluated again. A zero Snapshot is ignored.
func (in *Interp) Restore(s Snapshot) {
	if s.top == nil {
		return
	}
	in.top = s.top.child()
	in.imports = maps.Clone(s.imports)
	if in.imports == nil {
		in.imports = map[*syntax.Program]*module{}
	}
	in.preludeScope = s.prelude
}
