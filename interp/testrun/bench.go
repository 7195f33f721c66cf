package testrun

import (
	"context"
	"fmt"
	"math"
	"os"
	goruntime "runtime"
	"slices"
	"time"

	"fut/eval/value"
	"fut/interp/session"
	"fut/interp/testspec"
)

// BenchOptions configure a benchmark run.
type BenchOptions struct {
	Runs    int           // timed runs per dataset (after one warm-up)
	Timeout time.Duration // per program; 0 means none
	// MaxMemory bounds the bytes a program holds live (0: the session's default).
	MaxMemory int64
	// SkipCompiled leaves out cases tagged `compiled`: the large datasets
	// meant for a compiled backend, too slow for the reference evaluator.
	SkipCompiled bool
	// Backend is where the entry points run; with opencl, a runtime is the
	// device time of the kernels (build and copies excluded), and a
	// dataset whose entry point does not offload is reported, not timed on
	// the reference path.
	Backend session.Backend
	// Check compares the first run's results with the reference path's.
	Check bool
}

// Dataset is the timing of one dataset of one entry point.
type Dataset struct {
	Entry    string          `json:"entry"`
	Name     string          `json:"name"`
	Runtimes []time.Duration `json:"-"`
	Err      string          `json:"error,omitempty"`
	Launches int             `json:"launches,omitempty"` // kernels per run, when offloaded
	Checked  bool            `json:"checked,omitempty"`  // results compared with the reference path
	// OutputChecked: the first run's results equal the case's output block.
	OutputChecked bool `json:"output_checked,omitempty"`
	// Bytes is the size of the arguments and results (8 bytes a scalar),
	// for futhark bench's "bytes" (memory by space: here all "default").
	Bytes int64 `json:"bytes,omitempty"`
	// On the device: Runtimes are wall times of the call (arguments
	// already there, results left there: every kernel, host step and copy
	// between them); KernelTimes the device's time of its kernels in the
	// same runs; Upload the copy of the arguments to the device (once;
	// Resident says some stayed there between runs), Download that of the
	// results from it.
	KernelTimes []time.Duration `json:"-"`
	// Spans are the device's time of the call in further runs, from a
	// timed stamp queued before it to one after it (every command and
	// every gap between them, as a library's pair of CUDA events around
	// a call times it); none where the device cannot stamp.
	Spans            []time.Duration `json:"-"`
	Upload, Download time.Duration   `json:"-"`
	Resident         bool            `json:"-"`
	// Split says how the runs went across devices (--devices), or why
	// not ("" with one device).
	Split string `json:"-"`
}

// KernelMedian is the median of KernelTimes.
func (d *Dataset) KernelMedian() time.Duration {
	return median(d.KernelTimes)
}

// SpanMedian is the median of Spans (0: none).
func (d *Dataset) SpanMedian() time.Duration { return median(d.Spans) }

// Median returns the median runtime.
func (d *Dataset) Median() time.Duration { return median(d.Runtimes) }

func median(ts []time.Duration) time.Duration {
	if len(ts) == 0 {
		return 0
	}
	s := slices.Clone(ts)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Interval95 returns a 95% confidence interval of the mean runtime (a
// normal approximation; with fewer than two runs, the one value).
func (d *Dataset) Interval95() (lo, hi time.Duration) {
	n := float64(len(d.Runtimes))
	if n == 0 {
		return 0, 0
	}
	var sum, sq float64
	for _, r := range d.Runtimes {
		sum += float64(r)
	}
	mean := sum / n
	if n < 2 {
		return time.Duration(mean), time.Duration(mean)
	}
	for _, r := range d.Runtimes {
		sq += (float64(r) - mean) * (float64(r) - mean)
	}
	half := 1.96 * math.Sqrt(sq/(n-1)) / math.Sqrt(n)
	// A run takes no less than no time: a wide interval of few runs is
	// cut at zero rather than printed negative.
	return time.Duration(math.Max(0, mean-half)), time.Duration(mean + half)
}

// BenchResult is the timing of one program.
type BenchResult struct {
	File     string
	Compile  time.Duration // parsing, checking and loading
	Datasets []*Dataset
	Err      string
	// SkippedCompiled counts the datasets tagged compiled left out on the
	// reference path (said, never silently).
	SkippedCompiled int
}

// BenchFile times every dataset of a program: one warm-up run, then
// opts.Runs timed runs. Cases tagged nobench, error cases and
// compile-error blocks are left out, as futhark bench does.
func BenchFile(ctx context.Context, file string, opts BenchOptions) *BenchResult {
	res := &BenchResult{File: file}
	if opts.Runs <= 0 {
		opts.Runs = 10
	}
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	src, err := os.ReadFile(file)
	if err != nil {
		res.Err = err.Error()
		return res
	}
	spec, err := testspec.Parse(src, file)
	if err != nil {
		res.Err = err.Error()
		return res
	}
	start := time.Now()
	s, err := session.NewSession(session.Options{MaxMemory: opts.MaxMemory})
	if err != nil {
		res.Err = err.Error()
		return res
	}
	if err := s.LoadFile(ctx, file); err != nil {
		res.Err = firstLine(s.FormatError(err))
		return res
	}
	res.Compile = time.Since(start)
	for _, b := range spec.Blocks {
		if b.CompileError {
			continue
		}
		for _, entry := range b.Entries {
			for _, c := range b.Cases {
				if c.Compiled && opts.SkipCompiled && !c.HasTag("nobench") && !c.HasTag("disable") && c.Expect != testspec.ExpectError {
					res.SkippedCompiled++
					continue
				}
				if c.HasTag("nobench") || c.HasTag("disable") || c.Expect == testspec.ExpectError || (c.Compiled && opts.SkipCompiled) {
					continue
				}
				res.Datasets = append(res.Datasets, benchCase(ctx, s, file, entry, c, opts))
			}
		}
	}
	return res
}

func benchCase(ctx context.Context, s *session.Session, file, entry string, c *testspec.Case, opts BenchOptions) *Dataset {
	runs := opts.Runs
	d := &Dataset{Entry: entry, Name: c.Name}
	params, results, ok := s.EntryPoint(entry)
	if !ok {
		d.Err = fmt.Sprintf("no entry point %q", entry)
		return d
	}
	var args []value.Value // set below, before any run
	// check checks the first run's results against the case's output
	// block (a benchmark of a wrong answer is no benchmark)
	check := func(out []value.Value) bool {
		for _, v := range append(append([]value.Value{}, args...), out...) {
			d.Bytes += 8 * value.Size(v)
		}
		if c.Expect != testspec.ExpectOutput && c.Expect != testspec.ExpectOutputFile {
			return true
		}
		if err := checkOutput(file, entry, c, results, out, value.DefaultTolerance); err != nil {
			d.Err = err.Error()
			return false
		}
		d.OutputChecked = true
		return true
	}
	var err error
	args, err = caseInput(ctx, s, file, c, params)
	if err == nil {
		err = session.CheckValues(args, params, "argument", entry)
	}
	if err != nil {
		d.Err = "input: " + err.Error()
		return d
	}
	if opts.Backend == session.BackendOpenCL || opts.Backend == session.BackendAuto {
		return benchOffload(ctx, s, entry, args, d, opts, check)
	}
	for i := 0; i <= runs; i++ {
		t0 := time.Now()
		out, _, err := s.CallEntry(ctx, entry, args)
		elapsed := time.Since(t0)
		if err != nil {
			d.Err = firstLine(s.FormatError(err))
			return d
		}
		if i == 0 && !check(out) {
			return d
		}
		if i > 0 { // the first run warms up
			d.Runtimes = append(d.Runtimes, elapsed)
		}
	}
	return d
}

// FutharkJSON is futhark bench's --json layout:
// {"prog.fut": {"datasets": {"name": {"runtimes": [µs, ...]}}}}.
func FutharkJSON(results []*BenchResult) map[string]any {
	out := map[string]any{}
	for _, r := range results {
		ds := map[string]any{}
		for _, d := range r.Datasets {
			if d.Err != "" {
				continue
			}
			us := make([]int64, len(d.Runtimes))
			for i, t := range d.Runtimes {
				us[i] = t.Microseconds()
			}
			name := d.Name
			if d.Entry != "main" {
				name = d.Entry + ":" + name
			}
			entry := map[string]any{"runtimes": us, "bytes": map[string]int64{"default": d.Bytes}}
			if len(d.KernelTimes) > 0 {
				ks := make([]int64, len(d.KernelTimes))
				for i, t := range d.KernelTimes {
					ks[i] = t.Microseconds()
				}
				entry["kernel_runtimes"] = ks
				entry["upload_us"] = d.Upload.Microseconds()
				entry["download_us"] = d.Download.Microseconds()
			}
			ds[name] = entry
		}
		out[r.File] = map[string]any{"datasets": ds}
	}
	return out
}

// benchOffload times an entry point on the device as a user of the
// device sees a call: the plan is made once (lowered, fused, flattened for
// these arguments), the arguments uploaded once (timed apart), then one
// warm-up run (which builds the kernels; its results are downloaded,
// timed apart, and checked) and opts.Runs runs timed by the host's clock
// from the first step to the last kernel's end, with the arguments
// already on the device and the results left there, the kernels
// launched without profiling events; then opts.Runs more with events,
// for the device's own time of the kernels, recorded beside.
func benchOffload(ctx context.Context, s *session.Session, entry string, args []value.Value, d *Dataset, opts BenchOptions, check func([]value.Value) bool) *Dataset {
	call, why := s.PrepareOffload(opts.Backend, entry, args)
	if call == nil {
		d.Err = "not offloaded: " + firstLine(why)
		return d
	}
	t0 := time.Now()
	resident, err := call.Upload()
	if err != nil {
		d.Err = "upload: " + firstLine(err.Error())
		return d
	}
	d.Upload = time.Since(t0)
	for _, a := range resident {
		d.Resident = d.Resident || a != nil
	}
	defer func() {
		for _, a := range resident {
			if a != nil {
				a.Release()
			}
		}
	}()
	// runs 1..Runs time the wall without kernel events (whose profiling
	// costs the call time of its own), runs Runs+1..2·Runs the kernels,
	// runs 2·Runs+1..3·Runs the span between two stamps (where the
	// device can stamp)
	defer call.SetKernelTiming(true)
	spans := true
	for i := 0; i <= 3*opts.Runs; i++ {
		span := i > 2*opts.Runs
		if span && !spans {
			break
		}
		if i == 1 {
			// the warm-up's garbage (its download, its check) is
			// collected before the timed runs, as testing.B does before
			// a benchmark, not by a collection running during them: on
			// one H100, mandelbrot 4096² took 0.379 ms of wall with this
			// collection (0.380 with GOGC=off), 0.387–0.388 without
			goruntime.GC()
		}
		call.SetKernelTiming(i == 0 || (i > opts.Runs && !span))
		var stop func() (time.Duration, bool)
		if span {
			stop = call.StartSpan()
		}
		t0 := time.Now()
		res, off, why, err := call.Run(ctx, resident, true)
		wall := time.Since(t0)
		if span {
			// stopped whatever the run gave: the device keeps no stamps
			t, ok := stop()
			if err == nil && res != nil {
				if !ok {
					spans = false
				} else {
					d.Spans = append(d.Spans, t)
				}
				res.Release()
				continue
			}
		}
		if err != nil {
			d.Err = firstLine(s.FormatError(err))
			return d
		}
		if res == nil {
			d.Err = "not offloaded: " + firstLine(why)
			return d
		}
		d.Launches, d.Split = off.Launches, off.Split
		if i > 0 {
			res.Release()
			if i <= opts.Runs {
				d.Runtimes = append(d.Runtimes, wall)
				continue
			}
			if off.Untimed > 0 {
				// a kernel time of zero would be a lie
				d.Err = fmt.Sprintf("the device gave no time for %d kernel launches (%v)", off.Untimed, off.UntimedWhy)
				return d
			}
			d.KernelTimes = append(d.KernelTimes, off.KernelTime)
			continue
		}
		t1 := time.Now()
		vals, err := call.Values(res)
		d.Download = time.Since(t1)
		if err != nil {
			d.Err = "download: " + firstLine(err.Error())
			return d
		}
		if !check(vals) {
			return d
		}
		if opts.Check {
			want, _, err := s.CallEntry(ctx, entry, args)
			if err != nil {
				d.Err = "reference: " + firstLine(s.FormatError(err))
				return d
			}
			for j := range want {
				if j >= len(vals) || !closeEnough(vals[j], want[j], value.DefaultTolerance) {
					d.Err = fmt.Sprintf("result %d differs from the reference path's", j)
					return d
				}
			}
			d.Checked = true
		}
	}
	return d
}
