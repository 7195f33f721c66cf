// Package docs holds fut's documents that the program itself shows: the
// cost model (cost.md), printed by `fut cost --model` and summarised by
// `fut cost --help` and the REPL's `:help cost`.
package docs

import (
	_ "embed"
	"strings"
)

// Cost is docs/cost.md.
//
//go:embed cost.md
var Cost string

// CostSummary is the section "In short" of cost.md, with a line saying
// where the rest is.
func CostSummary() string {
	const head = "## In short\n"
	i := strings.Index(Cost, head)
	if i < 0 {
		return "The cost model: docs/cost.md (fut cost --model prints it).\n"
	}
	rest := Cost[i+len(head):]
	if j := strings.Index(rest, "\n## "); j >= 0 {
		rest = rest[:j]
	}
	return "The cost model, in short:\n" + strings.TrimLeft(rest, "\n") +
		"\nThe whole model, with worked examples: docs/cost.md in fut's repository (fut cost --model prints it).\n"
}
