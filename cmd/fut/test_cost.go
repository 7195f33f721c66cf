package main

import (
	"context"

	"fut/interp/costs"
	"fut/interp/testrun"
)

// checkCostClaims checks the growth that a program claims in its
// `-- cost of` blocks (docs/cost.md) by sweeps, and adds one case per
// claim to its result: a claim that fails fails the program, and claims
// that hold make a program without test blocks pass.
func checkCostClaims(ctx context.Context, r *testrun.Result, opts testrun.Options) {
	if r.Status == testrun.Skipped && r.Msg != "no test block" {
		return // disabled or excluded
	}
	claims, err := costs.CheckFile(ctx, r.File, costs.CheckOptions{Timeout: opts.Timeout, MaxMemory: opts.MaxMemory})
	if err != nil {
		r.Cases = append(r.Cases, &testrun.CaseResult{Entry: "cost", Name: "cost claims", Status: testrun.Failed, Msg: err.Error()})
		r.Status = testrun.Failed
		return
	}
	if len(claims) == 0 {
		return
	}
	failed := false
	for _, c := range claims {
		cr := &testrun.CaseResult{Entry: "cost", Name: c.Claim.Label(), Status: testrun.Passed, Msg: c.Msg}
		if !c.Passed {
			cr.Status, failed = testrun.Failed, true
		}
		r.Cases = append(r.Cases, cr)
	}
	switch {
	case failed:
		r.Status = testrun.Failed
	case r.Status == testrun.Skipped:
		r.Status, r.Msg = testrun.Passed, ""
	}
}
