// Package testrun runs the `-- ==` test blocks of Futhark programs, as
// `futhark test -i` does, on fut's reference evaluator.
//
// Input: paths of .fut files or folders. Output: one Result per program,
// with the failure of each case that failed. A program passes when it was
// run and every case it has passed; it is skipped when it is disabled, or
// has no case an interpreter can run.
package testrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"fut/eval"
	"fut/eval/value"
	"fut/interp/costs"
	"fut/interp/session"
	"fut/interp/testspec"
)

// Options configure a run.
type Options struct {
	Timeout time.Duration // per program; 0 means none
	// Exclude skips the cases tagged with any of these (futhark test
	// --exclude).
	Exclude []string
	// MaxMemory bounds the bytes a program holds live (0: the session's default).
	MaxMemory int64
	// Tolerance is the tolerance of float comparisons (diff.go says how
	// it scales).
	Tolerance float64
	// Pipeline is "reference" (the default: the tree-walking evaluator)
	// or "fused": each case runs through the core IR after simplification
	// and fusion, and falls back to the reference path (saying so in
	// CaseResult.Pipeline) when its entry point cannot be lowered.
	Pipeline string
	// Backend is where entry points run: interp (the default), opencl
	// (offloaded wherever the entry point lowers and flattens, the
	// reference path otherwise) or auto.
	Backend session.Backend
	// TypeCheckOnly checks the programs without running them (futhark
	// test -t): a program passes when it type-checks, or when it fails to
	// with the error its test block expects.
	TypeCheckOnly bool
	// Structure asks for structure tests only (futhark test -s), which
	// compare the compiler's intermediate code; fut has none to compare,
	// so each program is skipped, saying so.
	Structure bool
	// CostInvariants checks, for each case the reference path runs, the
	// invariants of the cost model (COST_MODEL.md): D ≤ W and S1 ≤ S∞ as
	// written and for the fused plan, and the fused plan's W and D no
	// greater than the written ones (for an entry point with parameters:
	// one without is a constant, computed at load). A case that breaks
	// one fails.
	CostInvariants bool
	// RecordCost records, for each case the reference path runs, its
	// four cost figures (W, D, S1, S∞ as the session reports them) in
	// CaseResult.Cost, so that two builds can be compared case by case
	// (fut test --json). CostInvariants records them too.
	RecordCost bool
	// RunCompiled runs the cases tagged compiled (never run by an
	// interpreter) where the backend is a device, as futhark test -c
	// does: on the device, or skipped, saying why, where the entry point
	// would stay on the reference path (whose run of a compiled dataset
	// is what the tag rules out). fut test sets it for -c and
	// --backend=opencl|auto; unset, such cases are skipped.
	RunCompiled bool
}

// Status is how a program or a case ended.
type Status string

const (
	Passed  Status = "passed"
	Failed  Status = "failed"
	Skipped Status = "skipped"
)

// CaseResult is the outcome of one case.
type CaseResult struct {
	Entry  string `json:"entry"`
	Name   string `json:"name"`
	Status Status `json:"status"`
	Msg    string `json:"message,omitempty"`
	// Pipeline says what ran the case: "reference", "fused", or
	// "reference (not lowered: …)" under --pipeline=fused.
	Pipeline string `json:"pipeline,omitempty"`
	// Cost is the case's figures on the reference path, under
	// RecordCost or CostInvariants, for an entry point with parameters
	// (one without is a constant, computed at load: its call costs
	// nothing). FusedCost is its fused plan's, under CostInvariants (nil
	// where the entry point does not lower).
	Cost      *eval.Cost `json:"cost,omitempty"`
	FusedCost *eval.Cost `json:"fused_cost,omitempty"`
}

// Result is the outcome of one program.
type Result struct {
	File   string `json:"file"`
	Status Status `json:"status"`
	Msg    string `json:"message,omitempty"` // for a program-level failure or skip
	// Kind is "run" for a program with cases an interpreter runs,
	// "error" for one whose test block expects a compile-time error, and
	// "" otherwise.
	Kind     string        `json:"kind,omitempty"`
	Cases    []*CaseResult `json:"cases,omitempty"`
	Duration time.Duration `json:"duration_ns"`
}

// Collect lists the .fut files under each path (a file or a folder),
// sorted.
func Collect(paths []string) ([]string, error) {
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(path, ".fut") {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(files)
	return files, nil
}

// RunFile runs the test blocks of one program.
func RunFile(ctx context.Context, file string, opts Options) *Result {
	start := time.Now()
	r := runFile(ctx, file, opts)
	r.Duration = time.Since(start)
	return r
}

func runFile(ctx context.Context, file string, opts Options) (res *Result) {
	res = &Result{File: file}
	defer func() {
		// A panic is a bug in fut, never the program's fault; report it as a
		// failure of this program and go on with the others.
		if p := recover(); p != nil {
			res.Status = Failed
			res.Msg = fmt.Sprintf("internal error (a bug in fut): %v", p)
		}
	}()
	src, err := os.ReadFile(file)
	if err != nil {
		res.Status, res.Msg = Failed, err.Error()
		return res
	}
	spec, err := testspec.Parse(src, file)
	if err != nil {
		res.Status, res.Msg = Failed, err.Error()
		return res
	}
	if spec.Disabled() {
		res.Status, res.Msg = Skipped, "tagged disable"
		return res
	}
	for _, t := range opts.Exclude {
		if slices.Contains(spec.Tags(), t) {
			res.Status, res.Msg = Skipped, "tagged "+t+" (--exclude)"
			return res
		}
	}
	if len(spec.Blocks) == 0 {
		res.Status, res.Msg = Skipped, "no test block"
		return res
	}
	res.Kind = programKind(spec)
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	if opts.Tolerance == 0 {
		opts.Tolerance = 0.002
	}

	if opts.Structure {
		res.Status, res.Msg = Skipped, "structure tests compare Futhark's intermediate code, which fut does not have"
		return res
	}
	s, err := session.NewSession(session.Options{MaxMemory: opts.MaxMemory, Cost: opts.CostInvariants || opts.RecordCost})
	if err != nil {
		res.Status, res.Msg = Failed, err.Error()
		return res
	}
	var loadErr error
	if opts.TypeCheckOnly {
		loadErr = s.CheckFile(file)
	} else {
		loadErr = s.LoadFile(ctx, file)
	}

	// A block expecting a compile-time error decides the whole program.
	for _, b := range spec.Blocks {
		if !b.CompileError {
			continue
		}
		if loadErr == nil {
			res.Status, res.Msg = Failed, "expected a compile-time error, but the program compiled"
			return res
		}
		// As futhark test does, the regex is matched against all that
		// checking printed: the warnings, then the error.
		msg := s.FormatError(loadErr)
		if ws := s.Warnings(); len(ws) > 0 {
			msg = s.FormatWarnings(ws) + "\n" + msg
		}
		if ok, err := matches(b.CompileErrorRegex, msg); !ok {
			if err != nil {
				res.Status, res.Msg = Failed, err.Error()
			} else {
				res.Status, res.Msg = Failed, fmt.Sprintf("the error %q does not match %q", firstLine(msg), b.CompileErrorRegex)
			}
			return res
		}
		res.Status = Passed
		return res
	}
	if loadErr != nil {
		res.Status, res.Msg = Failed, s.FormatError(loadErr)
		return res
	}
	if opts.TypeCheckOnly {
		res.Status = Passed
		return res
	}

	ran := 0
	for _, b := range spec.Blocks {
		for _, entry := range b.Entries {
			for _, c := range b.Cases {
				cr := &CaseResult{Entry: entry, Name: c.Name}
				res.Cases = append(res.Cases, cr)
				device := opts.Backend != "" && opts.Backend != session.BackendInterp
				if c.Compiled && !(opts.RunCompiled && device) {
					cr.Status, cr.Msg = Skipped, "compiled only"
					continue
				}
				if tag := excludedTag(c, opts.Exclude); tag != "" {
					cr.Status, cr.Msg = Skipped, "tagged "+tag+" (--exclude)"
					continue
				}
				ran++
				runCase(ctx, s, file, entry, c, cr, opts)
			}
		}
	}
	res.Status = Passed
	if ran == 0 {
		res.Status, res.Msg = Skipped, "no case an interpreter runs"
	}
	if ran > 0 && allSkipped(res.Cases) {
		res.Status, res.Msg = Skipped, "no case ran: compiled only, and the entry point stays on the reference path"
	}
	for _, c := range res.Cases {
		if c.Status == Failed {
			res.Status = Failed
		}
	}
	return res
}

func allSkipped(cs []*CaseResult) bool {
	for _, c := range cs {
		if c.Status != Skipped {
			return false
		}
	}
	return true
}

func runCase(ctx context.Context, s *session.Session, file, entry string, c *testspec.Case, cr *CaseResult, opts Options) {
	fail := func(format string, args ...any) {
		cr.Status, cr.Msg = Failed, fmt.Sprintf(format, args...)
	}
	params, results, ok := s.EntryPoint(entry)
	if !ok {
		fail("no entry point %q", entry)
		return
	}
	args, err := caseInput(ctx, s, file, c, params)
	if err != nil {
		fail("input: %v", err)
		return
	}
	// the input's types, ranks and sizes, checked as fut run checks them
	// (a case whose input does not fit must not pass), unless the case
	// expects the error that a run of the program with it gives
	if err := session.CheckValues(args, params, "argument", entry); err != nil {
		if c.Expect != testspec.ExpectError {
			fail("input: %v", err)
			return
		}
		cr.Pipeline = "reference"
		if ok, rerr := matches(c.ErrorRegex, err.Error()); !ok {
			if rerr != nil {
				fail("%v", rerr)
			} else {
				fail("the error %q does not match %q", firstLine(err.Error()), c.ErrorRegex)
			}
			return
		}
		cr.Status = Passed
		return
	}
	var out []value.Value
	cr.Pipeline = "reference"
	if opts.Backend != "" && opts.Backend != session.BackendInterp {
		if off, why, oerr := s.CallEntryOffload(ctx, opts.Backend, entry, args); oerr != nil {
			// an error of the program, found on the device
			err, cr.Pipeline = oerr, string(opts.Backend)
		} else if off != nil {
			out, cr.Pipeline = off.Values, string(opts.Backend)
		} else if c.Compiled {
			cr.Status, cr.Msg = Skipped, "compiled only, and its entry point stays on the reference path"
			cr.Pipeline = "reference (" + firstLine(why) + ")"
			return
		} else {
			cr.Pipeline = "reference (" + firstLine(why) + ")"
			out, _, err = s.CallEntry(ctx, entry, args)
		}
	} else if opts.Pipeline == "fused" {
		var lowered bool
		var why string
		out, lowered, why, err = s.CallEntryFused(ctx, entry, args)
		if lowered {
			cr.Pipeline = "fused"
		} else {
			cr.Pipeline = "reference (" + firstLine(why) + ")"
			out, _, err = s.CallEntry(ctx, entry, args)
		}
	} else {
		var cost eval.Cost
		out, cost, err = s.CallEntry(ctx, entry, args)
		// An entry point without parameters is a constant that the
		// reference path computed when the program was loaded: its call
		// costs nothing, and only the fused plan's own invariants can be
		// checked.
		if err == nil && (opts.CostInvariants || opts.RecordCost) && len(params) > 0 {
			cr.Cost = &cost
		}
		if err == nil && opts.CostInvariants {
			if fc, ferr := s.EntryFusedCost(ctx, entry, args); ferr == nil {
				cr.FusedCost = &fc
			}
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			fail("timed out")
			return
		}
		if c.Expect != testspec.ExpectError {
			fail("%s", firstLine(s.FormatError(err)))
			return
		}
		msg := s.FormatError(err)
		if ok, rerr := matches(c.ErrorRegex, msg); !ok {
			if rerr != nil {
				fail("%v", rerr)
			} else {
				fail("the error %q does not match %q", firstLine(msg), c.ErrorRegex)
			}
			return
		}
		cr.Status = Passed
		return
	}
	switch c.Expect {
	case testspec.ExpectError:
		fail("expected an error matching %q, but the run succeeded", c.ErrorRegex)
		return
	case testspec.ExpectAuto:
		// auto output: the reference path's results are the expected
		// ones whenever another path ran the case
		if cr.Pipeline != "reference" && !strings.HasPrefix(cr.Pipeline, "reference ") {
			want, _, err := s.CallEntry(ctx, entry, args)
			if err != nil {
				fail("auto output: the reference path fails: %s", firstLine(s.FormatError(err)))
				return
			}
			for i := range want {
				if i >= len(out) || !closeEnough(out[i], want[i], opts.Tolerance) {
					if i < len(out) {
						fail("auto output: %s", mismatch(i, want[i], out[i], opts.Tolerance))
					} else {
						fail("auto output: %d results, the reference path gives %d", len(out), len(want))
					}
					return
				}
			}
		}
		cr.Status = Passed
		return
	case testspec.ExpectSuccess:
		if broken := brokenInvariants(cr, opts); len(broken) > 0 {
			fail("cost invariants: %s", strings.Join(broken, "; "))
			return
		}
		cr.Status = Passed
		return
	}
	if err := session.CheckValues(out, results, "result", entry); err != nil {
		// a path that gives a value of another type is wrong, whatever
		// the comparison would say
		fail("the %s path's results: %v", cr.Pipeline, err)
		return
	}
	if err := checkOutput(file, entry, c, results, out, opts.Tolerance); err != nil {
		fail("%v", err)
		return
	}
	if broken := brokenInvariants(cr, opts); len(broken) > 0 {
		fail("cost invariants: %s", strings.Join(broken, "; "))
		return
	}
	cr.Status = Passed
}

// brokenInvariants lists the cost invariants that the case's figures
// break, under CostInvariants (figures only recorded are not checked).
func brokenInvariants(cr *CaseResult, opts Options) []string {
	if !opts.CostInvariants {
		return nil
	}
	return costs.Broken(cr.Cost, cr.FusedCost)
}

// checkOutput compares out with the case's expected output (a block or a
// file), which must itself have the entry point's result types.
func checkOutput(file, entry string, c *testspec.Case, results []session.Type, out []value.Value, tol float64) error {
	var text []byte
	if c.Expect == testspec.ExpectOutputFile {
		var err error
		text, err = readData(file, c.OutputFile)
		if err != nil {
			return fmt.Errorf("output: %v", err)
		}
	} else {
		text = []byte(c.Output)
	}
	want, err := value.ReadTyped(text, elemPrims(results))
	if err == nil {
		err = session.CheckValues(want, results, "result", entry)
	}
	if err != nil {
		return fmt.Errorf("expected output: %v", err)
	}
	if len(want) != len(out) {
		return fmt.Errorf("expected %d results, got %d", len(want), len(out))
	}
	for i := range want {
		if !closeEnough(out[i], want[i], tol) {
			return fmt.Errorf("%s", mismatch(i, want[i], out[i], tol))
		}
	}
	return nil
}

func caseInput(ctx context.Context, s *session.Session, file string, c *testspec.Case, params []session.Type) ([]value.Value, error) {
	switch c.InputKind {
	case testspec.InputValues:
		return value.ReadTyped([]byte(c.Input), elemPrims(params))
	case testspec.InputFile:
		data, err := readData(file, c.InputFile)
		if err != nil {
			return nil, err
		}
		return value.ReadTyped(data, elemPrims(params))
	case testspec.InputRandom:
		return randomValues(c.Random)
	case testspec.InputScript, testspec.InputScriptFile:
		text := c.Input
		if c.InputKind == testspec.InputScriptFile {
			data, err := readData(file, c.InputFile)
			if err != nil {
				return nil, err
			}
			text = string(data)
		}
		r, err := s.EvalExpr(ctx, text)
		if err != nil {
			return nil, fmt.Errorf("%s", firstLine(s.FormatError(err)))
		}
		if t, ok := r.Value.(value.Tuple); ok && len(params) != 1 {
			return []value.Value(t), nil
		}
		return []value.Value{r.Value}, nil
	}
	return nil, fmt.Errorf("unknown kind of input")
}

// readData reads a data file named relative to the program, decompressing
// it when its name ends in .gz.
func readData(file, name string) ([]byte, error) { return testspec.ReadDataFile(file, name) }

// matches reports whether an error message matches a test's regex, as
// futhark test matches it (an empty regex matches any error, and . matches
// newlines too).
func matches(re, msg string) (bool, error) { return testspec.MatchError(re, msg) }

// firstLine squeezes an error report onto one line: its position and
// message, without the backtrace.
func firstLine(s string) string {
	if i := strings.Index(s, "\n\nBacktrace"); i >= 0 {
		s = s[:i]
	}
	return strings.Join(strings.Fields(s), " ")
}

// short prints a value, cut to a readable length.
func short(v value.Value) string {
	var b strings.Builder
	value.Write(&b, v)
	s := b.String()
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

func elemPrims(ts []session.Type) []value.PrimType {
	out := make([]value.PrimType, len(ts))
	for i, t := range ts {
		out[i] = session.ElemPrim(t)
	}
	return out
}

func programKind(spec *testspec.Spec) string {
	for _, b := range spec.Blocks {
		if b.CompileError {
			return "error"
		}
	}
	for _, b := range spec.Blocks {
		for _, c := range b.Cases {
			if !c.Compiled {
				return "run"
			}
		}
	}
	return ""
}

// excludedTag is the first of the case's tags that exclude lists.
func excludedTag(c *testspec.Case, exclude []string) string {
	for _, t := range exclude {
		if c.HasTag(t) {
			return t
		}
	}
	return ""
}
