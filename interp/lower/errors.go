package lower

import (
	"fmt"

	"fut/interp/syntax"
)

// A stage that meets what it cannot take stops with an *NotLowered,
// which sends the caller to the reference path with the reason.

type stageError struct {
	reason string
	at     syntax.Node
}

func notLowered(at syntax.Node, format string, args ...any) stageError {
	return stageError{fmt.Sprintf(format, args...), at}
}

// catch turns a stage's panic with a stageError into its error, placed in
// fset; any other panic is a bug in the stage, reported as an internal
// error so that the caller still falls back to the reference path.
func catch(fset *syntax.FileSet, err *error) {
	r := recover()
	if r == nil {
		return
	}
	se, ok := r.(stageError)
	if !ok {
		*err = &NotLowered{Reason: fmt.Sprintf("internal error in a source stage: %v", r)}
		return
	}
	nl := &NotLowered{Reason: se.reason}
	if se.at != nil && fset != nil && se.at.Pos().IsValid() {
		nl.Where = fset.Position(se.at.Pos()).String()
	}
	*err = nl
}
