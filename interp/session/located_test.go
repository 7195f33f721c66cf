package session

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"fut/eval"
	"fut/eval/value"
)

// TestLocatedErrors runs the failing entry points of
// testdata/located/errors.fut on every path. The fused IR and OpenCL must
// report the error as the reference path does (the same file:line:col
// and message, up to the backtrace), from the positions the lowering puts
// on the statements that can fail: without running the reference path
// (the error is not the reference evaluator's) and without falling back.
func TestLocatedErrors(t *testing.T) {
	const file = "testdata/located/errors.fut"
	// rerun: the check's message names values as written (a slice), which
	// the fused path and the device leave to the reference path to report
	cases := []struct {
		entry, input string
		rerun        bool
	}{
		{"map_index", "[1, 2, 3] 1", false},
		{"row_index", "[[1, 2], [3, 4]] 2", false},
		{"two_steps", "[[1, 2], [3, 4]] 2", false},
		{"map_div", "[1, 2, 3, 4]", false},
		{"map_pow", "[3, 4, 2, 5]", false},
		{"map_assert", "[1, 2, 3, 4]", false},
		{"map_update", "[[1, 2], [3, 4]] 2", false},
		{"rev_index", "[1, 2, 3] 2", false},
		{"tr_index", "[[1, 2], [3, 4]] 2", false},
		{"prelude_call", "[[1, 2], [3, 4]] 3", true},
		{"loop_index", "[1, 2, 3] 4", false},
		{"host_index", "[1, 2, 3] 3", false},
	}
	s, err := NewSession(Options{MaxMemory: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	if err := s.LoadFile(ctx, file); err != nil {
		t.Fatal(s.FormatError(err))
	}
	_, devErr := OffloadDevice()
	if devErr != nil {
		t.Logf("no OpenCL device (%v): the OpenCL path is not run; install pocl-opencl-icd", devErr)
	}
	head := func(err error) string {
		msg := s.FormatError(err)
		if i := strings.Index(msg, "\n\nBacktrace:"); i >= 0 {
			msg = msg[:i]
		}
		return msg
	}
	for _, c := range cases {
		t.Run(c.entry, func(t *testing.T) {
			params, _, ok := s.EntryPoint(c.entry)
			if !ok {
				t.Fatalf("no entry point %s", c.entry)
			}
			want := make([]value.PrimType, len(params))
			for i, p := range params {
				want[i] = ElemPrim(p)
			}
			args, err := value.ReadTyped([]byte(c.input), want)
			if err != nil {
				t.Fatal(err)
			}
			_, _, refErr := s.CallEntry(ctx, c.entry, args)
			if refErr == nil {
				t.Fatalf("the reference path gives no error")
			}
			ref := head(refErr)
			if !strings.HasPrefix(ref, "Error at "+file+":") {
				t.Fatalf("the reference path's error names no position in the program: %q", ref)
			}
			notReference := func(path string, err error) {
				var re *eval.RuntimeError
				if errors.As(err, &re) && !c.rerun {
					t.Errorf("%s: the error came from running the reference path: %q", path, head(err))
				}
			}
			_, lowered, why, fusedErr := s.CallEntryFused(ctx, c.entry, args)
			switch {
			case !lowered:
				t.Errorf("fused: not lowered: %s", why)
			case fusedErr == nil:
				t.Errorf("fused: no error; the reference path gives %q", ref)
			default:
				notReference("fused", fusedErr)
				if got := head(fusedErr); got != ref {
					t.Errorf("fused:\n got %q\nwant %q", got, ref)
				}
			}
			if devErr != nil {
				return
			}
			off, why, offErr := s.CallEntryOffload(ctx, BackendOpenCL, c.entry, args)
			switch {
			case offErr == nil && off == nil && c.rerun:
				if !strings.Contains(why, "the reference path reports it") {
					t.Errorf("opencl: not run on the device: %s", why)
				}
			case offErr == nil && off == nil:
				t.Errorf("opencl: not run on the device: %s", why)
			case offErr == nil:
				t.Errorf("opencl: no error; the reference path gives %q", ref)
			default:
				notReference("opencl", offErr)
				if got := head(offErr); got != ref {
					t.Errorf("opencl:\n got %q\nwant %q", got, ref)
				}
			}
		})
	}
}
