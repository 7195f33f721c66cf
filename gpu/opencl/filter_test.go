package opencl

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	. "fut/gpu/kernel"
)

// filterKernel keeps the elements of x (f32) above 0.5, as a filter's
// compaction (kernel.Keep).
func filterKernel() *Kernel {
	n := Scalar("n", I64)
	x, dx, count := Buf("x", F32, n.V()), Buf("dx", F32, n.V()), Buf("count", I64, I64C(1))
	i := NewVar("i", I64)
	xv, flag := NewVar("xv", F32), NewVar("flag", I32)
	body := []Stmt{L(xv, Rd(x, i)), L(flag, Sel(Bin(">", xv, Float(F32, 0.5)), Int(I32, 1), Int(I32, 0)))}
	return &Kernel{Name: "filter", Params: []*Param{n, x, dx, count}, Shape: &Scan{
		N: n.V(), I: i, Body: body, Elems: []Exp{flag}, Op: BinLambda("+", I32), Neutral: []Exp{Int(I32, 0)}, Comm: true,
		Keep: &Keep{Vals: []Exp{xv}, Dest: []*Param{dx}, Count: count}}}
}

// TestFilterPasses: FilterPass chooses the compaction's single pass (0:
// the one that computes its elements again, no KeepK; 1: ranks in local
// memory; 2: ranks by warp ballots, the vote instruction where
// Caps.WarpVote, else emulated; its kept values staged in local memory,
// FilterStage), each element read once where KeepK is set. Where clang
// can compile OpenCL C for nvptx64, the vote variant's inline PTX is
// compiled too.
func TestFilterPasses(t *testing.T) {
	defer func(v int) { FilterPass = v }(FilterPass)
	for _, c := range []struct {
		pass  int
		caps  Caps
		keepK bool
		has   []string
		hasnt []string
	}{
		{0, Caps{Int64Atomics: true}, false, nil, []string{"FUT_BALLOT"}},
		{1, Caps{Int64Atomics: true}, true, []string{fmt.Sprintf("tile0[PAD(lid * %d + q)]", FilterK)}, []string{"FUT_BALLOT"}},
		{2, Caps{Int64Atomics: true}, true, []string{"fut_wb[w]", "popcount(b & ltmask)"}, []string{"vote.sync"}},
		{2, Caps{Int64Atomics: true, WarpVote: true}, true, []string{"vote.sync.ballot.b32", "popcount(b & ltmask)", "fut_st"}, []string{"fut_wb"}},
		// unless said, ballots on an NVIDIA GPU, the old pass elsewhere
		{-1, Caps{Int64Atomics: true}, false, nil, []string{"FUT_BALLOT"}},
		{-1, Caps{Int64Atomics: true, WarpVote: true}, true, []string{"vote.sync.ballot.b32"}, nil},
	} {
		FilterPass = c.pass
		p, err := Generate(filterKernel(), c.caps)
		if err != nil {
			t.Fatal(err)
		}
		if !p.LookBack || (p.KeepK != 0) != c.keepK || p.KeepWarp != (c.pass == 2 || c.pass < 0 && c.caps.WarpVote) {
			t.Fatalf("pass %d: LookBack %v, KeepK %d, KeepWarp %v", c.pass, p.LookBack, p.KeepK, p.KeepWarp)
		}
		// the ballots' pass bounds its registers on CUDA, no other
		if want := map[bool]int{true: filterMaxRegs()}[p.KeepWarp]; p.MaxRegs != want {
			t.Errorf("pass %d %+v: MaxRegs %d, want %d", c.pass, c.caps, p.MaxRegs, want)
		}
		lb := p.Source[strings.Index(p.Source, "filter_scanlb"):]
		for _, s := range c.has {
			if !strings.Contains(p.Source, s) {
				t.Errorf("pass %d %+v: no %q in\n%s", c.pass, c.caps, s, p.Source)
			}
		}
		for _, s := range c.hasnt {
			if strings.Contains(p.Source, s) {
				t.Errorf("pass %d %+v: %q in\n%s", c.pass, c.caps, s, p.Source)
			}
		}
		if c.keepK {
			// each element is read once: one read of x per row of the tile
			if got := strings.Count(lb, "v_x["); got != p.KeepK {
				t.Errorf("pass %d: %d reads of x for %d elements per work item", c.pass, got, p.KeepK)
			}
		}
		if c.caps.WarpVote {
			compilePTX(t, p.Source)
		}
	}
}

// compilePTX compiles OpenCL C to PTX with clang, where it is installed.
func compilePTX(t *testing.T, src string) {
	clang := ""
	for _, c := range []string{"clang", "clang-18", "clang-17", "clang-16", "clang-15", "clang-14"} {
		if p, err := exec.LookPath(c); err == nil {
			clang = p
			break
		}
	}
	if clang == "" {
		t.Log("no clang: the inline PTX is not compiled")
		return
	}
	dir := t.TempDir()
	f := filepath.Join(dir, "k.cl")
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(clang, "-x", "cl", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header", "-Xclang", "-cl-ext=+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics", "-target", "nvptx64-nvidia-nvcl", "-S", "-o", filepath.Join(dir, "k.ptx"), f).CombinedOutput()
	if err != nil {
		if strings.Contains(string(out), "No available targets") || strings.Contains(string(out), "unknown target") {
			t.Logf("clang has no nvptx64: %s", out)
			return
		}
		t.Fatalf("clang: %v\n%s", err, out)
	}
	ptx, err := os.ReadFile(filepath.Join(dir, "k.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ptx), "vote.sync.ballot.b32") {
		t.Fatalf("no vote in the PTX:\n%s", ptx)
	}
}
