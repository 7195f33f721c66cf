package costs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fut/eval/value"
	"fut/interp/session"
	"fut/interp/testspec"
)

// examplePrograms are the .fut files of examples/ and its folders.
func examplePrograms(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir("../../examples", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".fut") {
			files = append(files, path)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	return files
}

// checkInvariants reports a breach of D ≤ W or S1 ≤ S∞ (and of figures
// ≥ 0) in f.
func checkInvariants(t *testing.T, what string, f Figures) {
	t.Helper()
	if f.D > f.W || f.S1 > f.Sinf || f.W < 0 || f.D < 0 || f.S1 < 0 {
		t.Errorf("%s: invariants D ≤ W, S1 ≤ S∞ broken: %+v", what, f)
	}
}

// TestExampleClaims checks the growth every example claims in its
// `-- cost of` blocks, and the invariants at every size of those sweeps,
// as written and fused.
func TestExampleClaims(t *testing.T) {
	programs, claims, points := 0, 0, 0
	for _, file := range examplePrograms(t) {
		res, err := CheckFile(context.Background(), file, CheckOptions{Timeout: time.Minute})
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		if len(res) > 0 {
			programs++
		}
		for _, r := range res {
			claims++
			if !r.Passed {
				t.Errorf("%s: %s: %s", file, r.Claim.Label(), r.Msg)
			}
			if r.Sweep == nil {
				continue
			}
			for _, p := range r.Sweep.Points {
				points++
				checkInvariants(t, file+" as written at "+itoa(p.N), p.AsWritten)
				if p.Fused != nil {
					checkInvariants(t, file+" fused at "+itoa(p.N), *p.Fused)
				}
			}
		}
	}
	t.Logf("%d programs claim their growth in %d blocks; invariants hold at %d sizes", programs, claims, points)
	if programs < 10 {
		t.Errorf("only %d examples claim their growth", programs)
	}
}

// TestExampleInvariants runs every input of every example's test blocks
// with costs and checks D ≤ W and S1 ≤ S∞.
func TestExampleInvariants(t *testing.T) {
	ctx := context.Background()
	programs, cases := 0, 0
	for _, file := range examplePrograms(t) {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		spec, err := testspec.Parse(src, file)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		s, err := session.NewSession(session.Options{Cost: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.LoadFile(ctx, file); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		programs++
		for _, b := range spec.Blocks {
			for _, entry := range b.Entries {
				params, _, ok := s.EntryPoint(entry)
				if !ok {
					t.Fatalf("%s: no entry %s", file, entry)
				}
				prims := make([]value.PrimType, len(params))
				for i, p := range params {
					prims[i] = session.ElemPrim(p)
				}
				for _, c := range b.Cases {
					if c.InputKind != testspec.InputValues || c.Compiled {
						continue
					}
					args, err := value.ReadTyped([]byte(c.Input), prims)
					if err != nil {
						t.Fatalf("%s: %v", file, err)
					}
					_, cost, err := s.CallEntry(ctx, entry, args)
					if err != nil {
						continue // a case that expects an error
					}
					cases++
					checkInvariants(t, file+" "+entry+" on "+Shorten(c.Input, 40), FromCost(cost))
				}
			}
		}
	}
	t.Logf("invariants hold on %d inputs of %d programs", cases, programs)
	if cases < 20 {
		t.Errorf("only %d inputs ran", cases)
	}
}
