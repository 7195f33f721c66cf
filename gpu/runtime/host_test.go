package runtime

import (
	"slices"
	"testing"
	"time"

	"fut/eval/value"
	"fut/gpu/kernel"
)

// TestPinnedHost: arrays in pinned host memory (given only once allowed)
// upload and read back whole, directly, on both queues.
func TestPinnedHost(t *testing.T) {
	d := device(t)
	n := value.BulkMin/4 + 5
	if a := d.NewHostArray(value.I32, []int64{int64(n)}); d.isPinned(value.DataBytes(a.Data)) {
		t.Fatal("pinned memory given before AllowPinnedHost")
	}
	d.AllowPinnedHost(value.BulkMin)
	defer d.AllowPinnedHost(0)
	src := d.NewHostArray(value.I32, []int64{int64(n)})
	if !d.isPinned(value.DataBytes(src.Data)) {
		t.Skip("the device gives no pinned memory")
	}
	xs := src.Data.([]int32)
	for i := range xs {
		xs[i] = int32(i*7919 + 13)
	}
	t0 := time.Now()
	a, err := d.UploadAsync(src)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	t1 := time.Now()
	b, err := d.Upload(kernel.I32, src.Shape, xs)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	t2 := time.Now()
	dst := d.NewHostArray(value.I32, []int64{int64(n)})
	if !d.isPinned(value.DataBytes(dst.Data)[8:]) {
		t.Fatal("a part of pinned memory is not seen as pinned")
	}
	for _, x := range []*Array{a, b} {
		clear(dst.Data.([]int32))
		if err := x.ReadInto(dst.Data); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(dst.Data.([]int32), xs) {
			t.Fatal("the copy through pinned memory differs from the data")
		}
	}
	t.Logf("upload async %v, upload %v, two reads %v", t1.Sub(t0), t2.Sub(t1), time.Since(t2))
}
