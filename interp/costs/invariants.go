package costs

import (
	"fmt"

	"fut/eval"
)

// Broken lists the invariants of the cost model (COST_MODEL.md) that a
// case's figures break: D ≤ W, S1 ≤ S∞ and every figure ≥ 0, as written
// and for the fused plan, and the fused plan's W and D no greater than
// the written ones. Either cost may be nil (not measured); nil breaks
// nothing.
func Broken(written, fused *eval.Cost) []string {
	var out []string
	each := func(what string, c *eval.Cost) {
		if c == nil {
			return
		}
		if c.Work < 0 || c.Depth < 0 || c.SpaceSeq < 0 || c.SpacePar < 0 {
			out = append(out, fmt.Sprintf("%s: a figure below 0 (%s)", what, figures(c)))
		}
		if c.Depth > c.Work {
			out = append(out, fmt.Sprintf("%s: D %d > W %d", what, c.Depth, c.Work))
		}
		if c.SpaceSeq > c.SpacePar {
			out = append(out, fmt.Sprintf("%s: S1 %d > S∞ %d", what, c.SpaceSeq, c.SpacePar))
		}
	}
	each("as written", written)
	each("fused", fused)
	if written != nil && fused != nil {
		if fused.Work > written.Work {
			out = append(out, fmt.Sprintf("fused W %d > written W %d", fused.Work, written.Work))
		}
		if fused.Depth > written.Depth {
			out = append(out, fmt.Sprintf("fused D %d > written D %d", fused.Depth, written.Depth))
		}
	}
	return out
}

func figures(c *eval.Cost) string {
	return fmt.Sprintf("W %d, D %d, S1 %d, S∞ %d", c.Work, c.Depth, c.SpaceSeq, c.SpacePar)
}
