package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"github.com/chzyer/readline"

	"fut/interp/session"
	"fut/interp/testrun"
)

// cmdTest runs the test blocks of every .fut file under the given paths.
func cmdTest(args []string) int {
	const use = "test [--backend NAME] [--pipeline reference|fused] [-t] [-s] [--timeout SECONDS] [--max-memory SIZE] [--json FILE] PATH..."
	fs := newFlagSet("test", use)
	backend := fs.String("backend", "interp", "where entry points run: interp, opencl or auto")
	interpOnly := fs.Bool("i", false, "the reference path only (as --backend=interp), as futhark test -i")
	device := fs.Bool("c", false, "on the device (as --backend=opencl), as futhark test -c")
	var exclude tagList
	fs.Var(&exclude, "exclude", "skip the cases with this tag (may be given again)")
	timeout := timeoutFlag(fs, "how long each program may run")
	jsonFile := fs.String("json", "", "write the results as JSON to this file, with the four cost figures of each case the reference path runs (compare two builds with diff, after jq 'del(.[].duration_ns)')")
	verbose := fs.Bool("v", false, "print every program as it is run")
	noTerminal := fs.Bool("no-terminal", false, "report progress as lines at most once a minute, not a status line (as when the output is not a terminal)")
	typeCheck := fs.Bool("t", false, "type-check the programs but do not run them, as futhark test -t")
	structure := fs.Bool("s", false, "structure tests only, as futhark test -s: fut has no intermediate code to compare, so each program is skipped and says so")
	pipeline := fs.String("pipeline", "reference", "reference: the tree-walking evaluator; fused: the core IR after fusion")
	noCost := fs.Bool("no-cost", false, "do not check the growth that programs claim in `-- cost of` comments (docs/cost.md)")
	invariants := fs.Bool("cost-invariants", false, "check the cost model's invariants on each case the reference path runs: D ≤ W and S1 ≤ S∞ as written and fused, fused W and D ≤ written (a case that breaks one fails)")
	maxMem := memoryFlag(fs)
	paths, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("test", use, err)
	}
	if len(paths) == 0 {
		return flagError("test", use, fmt.Errorf("no path given"))
	}
	if *interpOnly {
		*backend = "interp"
	} else if *device {
		*backend = "opencl"
	}
	be, err := session.ParseBackend(*backend)
	if err != nil {
		return flagError("test", use, err)
	}
	if *pipeline != "reference" && *pipeline != "fused" {
		return flagError("test", use, fmt.Errorf("unknown pipeline %q (reference or fused)", *pipeline))
	}
	files, err := testrun.Collect(paths)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fut test:", err)
		return 2
	}
	ctx, stop := interruptible(context.Background())
	defer stop()
	opts := testrun.Options{Timeout: timeout.d, MaxMemory: maxMem.n, Pipeline: *pipeline, Backend: be, Exclude: exclude,
		TypeCheckOnly: *typeCheck, Structure: *structure, CostInvariants: *invariants,
		RecordCost: *jsonFile != "", RunCompiled: be != session.BackendInterp}
	var results []*testrun.Result
	var passed, failed, skipped int
	var casesPassed, casesFailed, casesSkipped int
	skipReasons, programSkips := map[string]int{}, map[string]int{}
	var fusedCases, fallbackCases int
	var costChecked, fusedChecked int
	prog := newProgress(os.Stdout, !*noTerminal && readline.IsTerminal(int(os.Stdout.Fd())), len(files))
	for done, f := range files {
		if ctx.Err() != nil {
			break
		}
		if *verbose {
			fmt.Fprintf(os.Stderr, "%s\n", f)
		}
		r := testrun.RunFile(ctx, f, opts)
		if !*noCost && !*typeCheck && !*structure {
			checkCostClaims(ctx, r, opts)
		}
		results = append(results, r)
		for _, c := range r.Cases {
			switch c.Status {
			case testrun.Passed:
				casesPassed++
			case testrun.Failed:
				casesFailed++
			case testrun.Skipped:
				casesSkipped++
				reason := c.Msg
				if reason == "" {
					reason = "skipped"
				}
				skipReasons[oneLine(reason)]++
			}
			if c.Status == testrun.Passed && (c.Cost != nil || c.FusedCost != nil) {
				costChecked++
				if c.Cost != nil && c.FusedCost != nil {
					fusedChecked++
				}
			}
			switch c.Pipeline {
			case "fused", "opencl", "auto":
				fusedCases++
			case "", "reference":
			default:
				fallbackCases++
			}
		}
		prog.clear()
		switch r.Status {
		case testrun.Passed:
			passed++
		case testrun.Skipped:
			skipped++
			if r.Msg != "" {
				programSkips[oneLine(r.Msg)]++
			}
		default:
			failed++
			if r.Msg != "" {
				fmt.Printf("%s: %s\n", f, oneLine(r.Msg))
			}
			for _, c := range r.Cases {
				if c.Status == testrun.Failed {
					fmt.Printf("%s: entry %s, case %s: %s\n", f, c.Entry, c.Name, oneLine(c.Msg))
				}
			}
		}
		prog.update(done+1, passed, failed, skipped)
	}
	prog.clear()
	if be != session.BackendInterp {
		fmt.Printf("backend %s: %d cases ran on the device, %d stayed on the reference path\n", be, fusedCases, fallbackCases)
	} else if *pipeline == "fused" {
		fmt.Printf("pipeline fused: %d cases ran through the fused IR, %d stayed on the reference path (not lowered)\n", fusedCases, fallbackCases)
	}
	if *invariants {
		fmt.Printf("cost invariants: hold in %d cases (%d of them compared with their fused plan); a case that breaks one is listed above as failed\n", costChecked, fusedChecked)
	}
	if len(skipReasons) > 0 {
		reasons := make([]string, 0, len(skipReasons))
		for r := range skipReasons {
			reasons = append(reasons, r)
		}
		sort.Strings(reasons)
		for _, r := range reasons {
			fmt.Printf("skipped %d case%s: %s\n", skipReasons[r], plural(skipReasons[r]), r)
		}
	}
	reasons := make([]string, 0, len(programSkips))
	for r := range programSkips {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		fmt.Printf("skipped %d program%s: %s\n", programSkips[r], plural(programSkips[r]), r)
	}
	fmt.Printf("programs: %d passed, %d failed, %d skipped\n", passed, failed, skipped)
	fmt.Printf("cases: %d passed, %d failed, %d skipped\n", casesPassed, casesFailed, casesSkipped)
	if *jsonFile != "" {
		data, _ := json.MarshalIndent(results, "", "  ")
		if err := os.WriteFile(*jsonFile, data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "fut test:", err)
			return 2
		}
	}
	if failed > 0 {
		return 1
	}
	return 0
}
