package runtime

import (
	"testing"

	"fut/gpu/kernel"
)

// TestPool: a released array's buffer serves the next array of its size
// (with the new array's data), the pool stays within its limit, and an
// array released twice is given back once.
func TestPool(t *testing.T) {
	d := device(t)
	d.pool.drain()
	a, err := d.Upload(kernel.I32, []int64{1000}, make([]int32, 1000))
	if err != nil {
		t.Fatal(err)
	}
	a.Release()
	a.Release()
	if n, bytes := d.Pooled(); n != 1 || bytes != 4000 {
		t.Fatalf("pooled %d buffers, %d bytes after one release, want 1 and 4000", n, bytes)
	}
	data := make([]int32, 1000)
	for i := range data {
		data[i] = int32(i * 3)
	}
	b, err := d.Upload(kernel.I32, []int64{1000}, data)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := d.Pooled(); n != 0 {
		t.Fatalf("the pooled buffer was not reused: %d left", n)
	}
	got, err := b.Download()
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range got.([]int32) {
		if x != data[i] {
			t.Fatalf("element %d: %d, want %d", i, x, data[i])
		}
	}
	b.Release()
	saved := d.pool.limit
	defer func() { d.pool.limit = saved }()
	d.pool.limit = 10000
	for i := 0; i < 5; i++ {
		c, err := d.Alloc(kernel.I32, 1000+int64(i))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Release()
	}
	for i := 0; i < 5; i++ {
		c, _ := d.Alloc(kernel.F64, 500+int64(i))
		c.Release()
	}
	if _, bytes := d.Pooled(); bytes > 10000 {
		t.Fatalf("the pool holds %d bytes, over its limit of 10000", bytes)
	}
}
