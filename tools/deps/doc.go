// Package deps holds the rule of the project's layout as data
// (deps_test.go): which of fut's packages each package may import. The
// test fails on an import the rule does not allow, as Go's own
// go/build/deps_test.go does, so that no arrow runs back up the data flow
// of ARCHITECTURE.md (syntax → types → eval and lower → ir → gpu, with
// interp tying them and repl and cmd on top).
package deps
