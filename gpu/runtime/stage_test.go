package runtime

import (
	"slices"
	"testing"

	"fut/eval/value"
	"fut/gpu/cl"
	"fut/gpu/kernel"
)

// TestStagedCopies: copies larger than a pinned block (through the ring,
// a partial block last) arrive whole, on the device's queue and on the
// transfer queue, and ReadInto fills a given slice.
func TestStagedCopies(t *testing.T) {
	if device(t).Info.Type&cl.TypeCPU != 0 {
		// the ring is for copies over a bus; on the CPU device it runs
		// when asked to, for this test
		stageOnCPU = true
		defer func() { stageOnCPU = false }()
	}
	d, err := Open(Config{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	n := (3*stageBlock + stageBlock/3 + 4) / 4
	xs := make([]int32, n)
	for i := range xs {
		xs[i] = int32(i*7919 + 13)
	}
	a, err := d.Upload(kernel.I32, []int64{int64(n)}, xs)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	got, err := a.Download()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.([]int32), xs) {
		t.Fatal("staged upload and download differ from the data")
	}
	if d.staged.blocks == nil {
		t.Fatal("the copies did not go through the ring")
	}
	b, err := d.UploadAsync(value.NewPrimArrayData(value.I32, []int64{int64(n)}, xs))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	into := make([]int32, n+5)
	if err := b.ReadInto(into); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(into[:n], xs) {
		t.Fatal("the transfer queue's upload, read into a slice, differs from the data")
	}
}

// TestNoStagingOnCPU: on a CPU device (PoCL) large copies go directly,
// without the ring of pinned blocks, which would only add a copy and keep
// 128 MiB resident.
func TestNoStagingOnCPU(t *testing.T) {
	if device(t).Info.Type&cl.TypeCPU == 0 {
		t.Skip("not a CPU device")
	}
	d, err := Open(Config{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	xs := make([]int32, 2*stageBlock/4)
	for i := range xs {
		xs[i] = int32(i)
	}
	a, err := d.Upload(kernel.I32, []int64{int64(len(xs))}, xs)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	got, err := a.Download()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.([]int32), xs) {
		t.Fatal("a direct copy differs from the data")
	}
	if d.staged.blocks != nil {
		t.Fatal("a CPU device made the ring of pinned blocks")
	}
}
