package runtime

import (
	"slices"
	"testing"

	"fut/eval/value"
	"fut/gpu/kernel"
)

// TestStagedCopies: copies larger than a pinned block (through the ring,
// a partial block last) arrive whole, on the device's queue and on the
// transfer queue, and ReadInto fills a given slice.
func TestStagedCopies(t *testing.T) {
	d := device(t)
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
