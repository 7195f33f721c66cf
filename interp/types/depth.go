package types

import (
	"fmt"

	"fut/interp/syntax"
)

// MaxDepth is the deepest nesting of expressions, patterns and types the
// checker accepts. Its passes recurse over the tree, and a Go stack that
// overflows kills the process instead of returning an error; the parser
// bounds what it builds (a tree at most 20000 deep), but a tree can also
// come from elsewhere (a generator, a test, a later stage). The limit is
// above anything the parser accepts and far below what overflows.
const MaxDepth = 50000

// tooDeep reports (with a positioned error) whether the tree under n is
// nested more than MaxDepth deep. The walk stops descending at the limit,
// so its own recursion is bounded, and it costs one visit per node.
func (c *Checker) tooDeep(n syntax.Node) bool {
	depth, bad := 0, syntax.Node(nil)
	syntax.Inspect(n, func(x syntax.Node) bool {
		if x == nil {
			depth--
			return false
		}
		if bad != nil {
			return false
		}
		depth++
		if depth > MaxDepth {
			bad = x
			depth-- // Inspect does not call f(nil) for a node it does not enter
			return false
		}
		return true
	})
	if bad == nil {
		return false
	}
	c.errorf(syntax.SpanOf(bad), "%s", depthMsg)
	return true
}

var depthMsg = fmt.Sprintf("Expression nested too deeply (more than %d levels): the checker does not go deeper.", MaxDepth)

// guardDecl checks the depth of each declaration before checking it,
// once per tree: not again for the declarations of a module inside one
// that was measured, but again for a file that one imports.
func (c *Checker) guardDecl(d syntax.Decl) (ok bool, done func()) {
	if c.depthGuarded {
		return true, func() {}
	}
	if c.tooDeep(d) {
		return false, func() {}
	}
	c.depthGuarded = true
	return true, func() { c.depthGuarded = false }
}
