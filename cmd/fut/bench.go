package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"fut/gpu"
	"fut/interp/session"
	"fut/interp/testrun"
)

// cmdBench times the datasets of every program's test blocks.
func cmdBench(args []string) int {
	const use = "bench [--backend NAME] [--check] [-v] [--runs N] [--timeout SECONDS] [--max-memory SIZE] [--json FILE] [--compare FILE] PATH..."
	fs := newFlagSet("bench", use)
	backend := fs.String("backend", "interp", "where entry points run: interp, opencl or auto")
	check := fs.Bool("check", false, "compare each dataset's result with the reference path's")
	verbose := fs.Bool("v", false, "say which tile sizes the tiled kernels run with, and how they were chosen")
	runs := fs.Int("runs", 10, "timed runs per dataset, after one warm-up")
	fs.IntVar(runs, "r", 10, "timed runs per dataset (as --runs)")
	timeout := timeoutFlag(fs, "how long each program may run")
	jsonFile := fs.String("json", "", "write the runtimes in futhark bench's JSON layout to this file")
	maxMem := memoryFlag(fs)
	var compare tagList
	fs.Var(&compare, "compare", "print the peers' figures from this JSON file (shared/bench's gpu_peers.py or expert_cuda.py) beside each program's largest dataset; may be given several times")
	paths, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("bench", use, err)
	}
	if len(paths) == 0 {
		return flagError("bench", use, fmt.Errorf("no path given"))
	}
	be, err := session.ParseBackend(*backend)
	if err != nil {
		return flagError("bench", use, err)
	}
	peers, err := loadPeers(compare)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fut bench: --compare:", err)
		return 2
	}
	files, err := testrun.Collect(paths)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fut bench:", err)
		return 2
	}
	ctx, stop := interruptible(context.Background())
	defer stop()
	var results []*testrun.BenchResult
	status := 0
	for _, f := range files {
		if ctx.Err() != nil {
			break
		}
		r := testrun.BenchFile(ctx, f, testrun.BenchOptions{Runs: *runs, Timeout: timeout.d, MaxMemory: maxMem.n, SkipCompiled: be == session.BackendInterp, Backend: be, Check: *check})
		results = append(results, r)
		if r.Err != "" {
			fmt.Printf("%s: %s\n", f, oneLine(r.Err))
			status = 1
			continue
		}
		fmt.Printf("%s (loaded in %s, backend %s):\n", f, ms(r.Compile), *backend)
		for _, d := range r.Datasets {
			name := d.Name
			if d.Entry != "main" {
				name = d.Entry + ":" + name
			}
			if d.Err != "" {
				fmt.Printf("  %-30s %s\n", name, oneLine(d.Err))
				status = 1
				continue
			}
			lo, hi := d.Interval95()
			extra := ""
			if d.Launches > 0 {
				where := "arguments on the device"
				if !d.Resident {
					where = "arguments uploaded each run"
				}
				span := ""
				if s := d.SpanMedian(); s > 0 {
					span = "; device span " + ms(s)
				}
				extra = fmt.Sprintf(", wall time of the call, %s%s; kernels %s; %d kernels a run; upload %s, download %s",
					where, span, ms(d.KernelMedian()), d.Launches, ms(d.Upload), ms(d.Download))
			}
			if d.Split != "" {
				extra += "; " + d.Split
			}
			if d.OutputChecked {
				extra += ", results as expected"
			}
			if d.Checked {
				extra += ", checked against the reference"
			}
			fmt.Printf("  %-30s %12s (95%% CI: %s – %s, %d runs%s)\n", name, ms(d.Median()), ms(lo), ms(hi), len(d.Runtimes), extra)
			if d == largest(r.Datasets) {
				comparePeers(d, peersOf(peers, f, d.Entry))
			}
		}
		if *verbose && be != session.BackendInterp {
			printTileNotes(os.Stdout, "  ")
		}
		if r.SkippedCompiled > 0 {
			fmt.Printf("  (%d dataset%s tagged compiled left out on the reference path: run with --backend=opencl)\n", r.SkippedCompiled, plural(r.SkippedCompiled))
		}
	}
	if *jsonFile != "" {
		data, _ := json.MarshalIndent(testrun.FutharkJSON(results), "", "  ")
		if err := os.WriteFile(*jsonFile, data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "fut bench:", err)
			return 2
		}
	}
	gpu.TraceDump(os.Stderr)
	return status
}

// printTileNotes prints what the offload device chose for its tiled
// kernels since the last call (gpu.Device.TileNotes), each line after
// indent.
func printTileNotes(w io.Writer, indent string) {
	d, err := session.OffloadDevice()
	if err != nil {
		return
	}
	for _, n := range d.TileNotes() {
		fmt.Fprintf(w, "%s%s\n", indent, n)
	}
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.3fms", float64(d.Microseconds())/1000)
}
