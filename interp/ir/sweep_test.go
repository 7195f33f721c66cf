package ir_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"fut/eval/value"
	"fut/interp/ir"
	"fut/interp/session"
	"fut/interp/testspec"
)

// TestSweep runs the entry points of the .fut programs under
// $FUT_IR_SWEEP (a directory, e.g. Futhark's tests) on their test inputs
// through the IR, and compares every result with the reference
// evaluator's. It is skipped unless the variable is set; it prints how
// many lowered and why the others did not.
func TestSweep(t *testing.T) {
	dir := os.Getenv("FUT_IR_SWEEP")
	if dir == "" {
		t.Skip("set FUT_IR_SWEEP to a directory of .fut programs")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.fut"))
	sort.Strings(files)
	ctx := context.Background()
	reasons := map[string]int{}
	lowered, agreed := 0, 0
	deadline := time.Now().Add(4 * time.Minute)
	for _, f := range files {
		if time.Now().After(deadline) {
			t.Logf("time is up after %s", f)
			break
		}
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		spec, err := testspec.Parse(src, f)
		if err != nil {
			continue
		}
		s, err := session.NewSession(session.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if os.Getenv("FUT_IR_SWEEP_TRACE") != "" {
			println(f)
		}
		lctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		err = s.LoadFile(lctx, f)
		cancel()
		if err != nil {
			continue
		}
		for _, b := range spec.Blocks {
			for _, entry := range b.Entries {
				params, _, ok := s.EntryPoint(entry)
				if !ok {
					continue
				}
				for _, c := range b.Cases {
					if c.InputKind != testspec.InputValues || c.Expect != testspec.ExpectOutput || c.Compiled {
						continue
					}
					prims := make([]value.PrimType, len(params))
					for i, p := range params {
						prims[i] = session.ElemPrim(p)
					}
					args, err := value.ReadTyped([]byte(c.Input), prims)
					if err != nil || len(args) != len(params) {
						continue
					}
					cctx, cancel := context.WithTimeout(ctx, 3*time.Second)
					// The reference may reuse the buffers of arguments it consumes.
					refArgs := make([]value.Value, len(args))
					for i, a := range args {
						refArgs[i] = a
						if arr, ok := a.(*value.Array); ok {
							refArgs[i] = arr.Copy()
						}
					}
					want, _, err := s.CallEntry(cctx, entry, refArgs)
					cancel()
					if err != nil {
						continue
					}
					if os.Getenv("FUT_IR_SWEEP_TRACE") != "" {
						println("  lower", entry)
					}
					p, irArgs, err := s.LowerEntryIR(entry, args)
					if err != nil {
						r := err.Error()
						if i := strings.Index(r, " at "); i > 0 {
							r = r[:i]
						}
						reasons[r]++
						continue
					}
					lowered++
					if os.Getenv("FUT_IR_SWEEP_TRACE") != "" {
						println("  passes")
					}
					final, _, err := ir.Run(p, "")
					if err != nil {
						t.Errorf("%s %s: %v", f, entry, err)
						continue
					}
					cctx, cancel = context.WithTimeout(ctx, 10*time.Second)
					got, err := ir.EvalAll(cctx, final, irArgs)
					cancel()
					if err != nil {
						t.Errorf("%s %s: %v", f, entry, err)
						continue
					}
					if !close(value.Tuple(got), value.Tuple(flat(want))) {
						t.Errorf("%s %s: IR gives %v, the reference %v", f, entry, got, want)
						continue
					}
					agreed++
				}
			}
		}
	}
	t.Logf("lowered %d cases, %d agree with the reference", lowered, agreed)
	type kv struct {
		k string
		v int
	}
	var rs []kv
	for k, v := range reasons {
		rs = append(rs, kv{k, v})
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].v > rs[j].v })
	for i, r := range rs {
		if i == 25 {
			break
		}
		t.Logf("%4d  %s", r.v, r.k)
	}
}
