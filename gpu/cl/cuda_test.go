package cl

import (
	"encoding/binary"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// nvidiaGPU is the first NVIDIA GPU, with CUDA asked for (FUT_CUDA=1);
// the test skips where there is none or libcuda does not load.
func nvidiaGPU(t *testing.T) *Device {
	t.Helper()
	t.Setenv("FUT_CUDA", "1")
	ds, _ := AllDevices()
	for _, d := range ds {
		if cudaWanted(d) {
			if err := loadCUDA(); err != nil {
				t.Skipf("NVIDIA GPU without CUDA: %v", err)
			}
			return d
		}
	}
	t.Skip("no NVIDIA GPU")
	return nil
}

// TestPatchPTX checks the rewrites of NVIDIA OpenCL's PTX for CUDA
// launches on a kernel of the shape NVIDIA emits.
func TestPatchPTX(t *testing.T) {
	src := `.version 9.0
.target sm_90, texmode_independent
.address_size 64

.entry k(
	.param .u64 .ptr .global .align 4 k_param_0,
	.param .u64 .ptr .shared .align 4 k_param_1
)
{
	ld.param.u64 	%rd1, [k_param_0];
	ld.param.u64 	%rd2, [k_param_1];
	mov.b32 	%r1, %envreg3;
	mov.b32 	%r2, %envreg0;
}
`
	got, err := patchPTX(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		".extern .shared .align 16 .b8 fut_dyn_smem[];\n\n.entry k(",
		"ld.param.u64 \t%rd2, [k_param_1];\n\t{ .reg .u64 %futsb; mov.u64 %futsb, fut_dyn_smem; add.u64 %rd2, %rd2, %futsb; }",
		"mov.b32 \t%r1, 0;", "mov.b32 \t%r2, 0;",
		".param .u64 k_param_1\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("patched PTX lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, ".ptr .shared") || strings.Contains(got, "%futsb, fut_dyn_smem; add.u64 %rd1") {
		t.Errorf("a global pointer was moved into shared memory:\n%s", got)
	}
	if _, err := patchPTX(strings.Replace(src, "%envreg0", "%envreg7", 1)); err == nil {
		t.Error("a PTX reading envreg7 was accepted")
	}
	// a use of a local parameter other than a load of it is refused
	odd := strings.Replace(src, "ld.param.u64 \t%rd2, [k_param_1];", "ld.param.u64 \t%rd2, [k_param_1+0];", 1)
	if _, err := patchPTX(odd); err == nil || !strings.Contains(err.Error(), "k_param_1") {
		t.Errorf("a PTX reading k_param_1 at an offset: %v", err)
	}
}

// TestCUDARoundTrip runs the OpenCL objects on CUDA (cuda.go): copies,
// fills, sub-buffers, a kernel with local memory, events, a second
// queue and pinned memory, on an NVIDIA GPU.
func TestCUDARoundTrip(t *testing.T) {
	d := nvidiaGPU(t)
	c, err := NewContext(d)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	if !c.CUDA() {
		t.Fatal("context not on CUDA")
	}
	src := `__kernel void axpy(__global float *y, __global const float *x, float a, long n, __local float *tmp, __local long *tmp2) {
  long i = get_global_id(0);
  tmp[get_local_id(0)] = x[i < n ? i : 0];
  tmp2[get_local_id(0)] = get_group_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < n) y[i] = a * tmp[get_local_id(0)] + y[i] + (float)(tmp2[get_local_id(0)] - i / get_local_size(0));
}`
	bx, by, bz, wg := axpyRoundTrip(t, c, src, "CUDA_ERROR_NOT_FOUND", LocalMem{64 * 4}, LocalMem{64 * 8})
	defer bx.Release()
	defer by.Release()
	defer bz.Release()
	const n = 1000
	if wg < 64 {
		t.Fatalf("work-group size %d", wg)
	}
	// fills: a byte over the whole buffer, then a word and a pattern of 8
	// bytes that is no repeated word into a sub-buffer at offsets
	sub, err := bz.Sub(64, 256)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Release()
	pat := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	if err := c.Fill(bz, []byte{9}, 0, 4*n); err != nil {
		t.Fatal(err)
	}
	if err := c.Fill(sub, []byte{1, 0, 0, 0}, 8, 64); err != nil {
		t.Fatal(err)
	}
	if err := c.Fill(sub, pat, 96, 160); err != nil {
		t.Fatal(err)
	}
	if err := c.Fill(sub, pat, 96, 168); err == nil {
		t.Fatal("a fill past the end of a sub-buffer accepted")
	}
	raw := make([]byte, 4*n)
	if err := c.Read(bz, 0, unsafe.Pointer(&raw[0]), 4*n); err != nil {
		t.Fatal(err)
	}
	for i, b := range raw {
		want := byte(9)
		switch {
		case i >= 72 && i < 136:
			want = []byte{1, 0, 0, 0}[(i-72)%4]
		case i >= 160 && i < 320:
			want = pat[(i-160)%8]
		}
		if b != want {
			t.Fatalf("byte %d = %d, want %d", i, b, want)
		}
	}
	// a second queue: an asynchronous write from pinned memory, a marker
	q, err := c.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	defer q.Release()
	pin, err := c.NewPinned(q, 4*n)
	if err != nil {
		t.Fatal(err)
	}
	defer pin.Release()
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint32(pin.Bytes()[4*i:], uint32(i*7))
	}
	wev, err := q.WriteAsync(bx, 0, unsafe.Pointer(&pin.Bytes()[0]), 4*n)
	if err != nil {
		t.Fatal(err)
	}
	if err := wev.Wait(); err != nil {
		t.Fatal(err)
	}
	got := make([]uint32, n)
	rev, err := q.ReadAsync(bx, 0, unsafe.Pointer(&got[0]), 4*n)
	if err != nil {
		t.Fatal(err)
	}
	if err := rev.Wait(); err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		if v != uint32(i*7) {
			t.Fatalf("got[%d] = %d", i, v)
		}
	}
	m, err := c.Marker()
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Wait(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := m.Times(); err == nil {
		t.Error("a marker has times")
	}
	if err := c.Finish(); err != nil {
		t.Fatal(err)
	}
}

// TestCUDAPeerCopy copies between two contexts: on one GPU (two contexts
// of the same device), and between the first two NVIDIA GPUs where there
// are two. The bytes arrive, after a write queued on the source before
// the copy; a copy out of bounds is refused.
func TestCUDAPeerCopy(t *testing.T) {
	first := nvidiaGPU(t)
	devs := []*Device{first, first}
	ds, _ := AllDevices()
	for _, d := range ds {
		if d != first && cudaWanted(d) {
			devs = append(devs, d) // pairs: (first, first), (first, second)
			break
		}
	}
	for i := 1; i < len(devs); i++ {
		src, err := NewContext(devs[0])
		if err != nil {
			t.Fatal(err)
		}
		dst, err := NewContext(devs[i])
		if err != nil {
			src.Release()
			t.Fatal(err)
		}
		const n = 1 << 20
		in := make([]byte, n)
		for j := range in {
			in[j] = byte(j*7 + i)
		}
		sb, err := src.CreateBuffer(0, n)
		if err != nil {
			t.Fatal(err)
		}
		db, err := dst.CreateBuffer(0, n)
		if err != nil {
			t.Fatal(err)
		}
		if err := dst.Fill(db, []byte{0}, 0, n); err != nil {
			t.Fatal(err)
		}
		// queued, not waited for: the copy must come after it
		if err := src.cu.write(src.cu.stream, sb, 0, unsafe.Pointer(&in[0]), n, false); err != nil {
			t.Fatal(err)
		}
		direct, err := CopyPeer(dst, db, 16, src, sb, 0, n-16)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]byte, n)
		if err := dst.Read(db, 0, unsafe.Pointer(&out[0]), n); err != nil {
			t.Fatal(err)
		}
		for j := 0; j < n; j++ {
			want := byte(0)
			if j >= 16 {
				want = in[j-16]
			}
			if out[j] != want {
				t.Fatalf("pair %d: byte %d is %d, want %d", i, j, out[j], want)
			}
		}
		if _, err := CopyPeer(dst, db, 1, src, sb, 0, n); err == nil {
			t.Errorf("pair %d: a copy past the end was not refused", i)
		}
		t.Logf("pair %d (%s → %s): direct %v", i, devs[0].Name, devs[i].Name, direct)
		src.Finish()
		sb.Release()
		db.Release()
		dst.Release()
		src.Release()
	}
}

// TestStamps times a fill of 256 MiB between two stamps on CUDA (a span
// that covers it: more than zero, and at least the fill's own bandwidth
// allows), and finds no stamps on an OpenCL context.
func TestStamps(t *testing.T) {
	if d := firstDevice(t); !cudaWanted(d) {
		c, err := NewContext(d)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Release()
		if _, err := c.Stamp(); err != ErrNoStamp {
			t.Errorf("a stamp on OpenCL: %v", err)
		}
		if err := c.ArmStamps(); err != ErrNoStamp {
			t.Errorf("stamps armed on OpenCL: %v", err)
		}
		return
	}
	c, err := NewContext(nvidiaGPU(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	const n = 256 << 20
	b, err := c.CreateBuffer(0, n)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	a, err := c.Stamp()
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	if err := c.Fill(b, []byte{1, 2, 3, 4}, 0, n); err != nil {
		t.Fatal(err)
	}
	e, err := c.Stamp()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Release()
	span, err := e.Since(a)
	// no device writes 256 MiB in less than 20 µs (13 TB/s)
	if err != nil || span < 20*time.Microsecond {
		t.Errorf("span of a 256 MiB fill: %v, %v", span, err)
	}
	t.Logf("span of a 256 MiB fill: %v", span)
	// armed: the end is stamped before the host's wait, not after the
	// sleep that follows it
	if err := c.ArmStamps(); err != nil {
		t.Fatal(err)
	}
	if err := c.Fill(b, []byte{5, 6, 7, 8}, 0, n); err != nil {
		t.Fatal(err)
	}
	if err := c.Finish(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	end, err := c.EndStamp()
	if err != nil {
		t.Fatal(err)
	}
	defer end.Release()
	armed, err := end.Since(a)
	if err != nil || armed <= span || armed > 15*time.Millisecond {
		t.Errorf("span of two fills, the end stamped before the wait: %v, %v (the first fill's: %v)", armed, err, span)
	}
	t.Logf("span of two fills: %v", armed)
}

// TestCUDAFinishDrained checks the counts that let Finish return at once
// on a stream known drained: a launch leaves the stream undrained, a
// wait for the stream or for an event after the last command drains it,
// a command on a second queue leaves it as it is, and Finish after an
// asynchronous read still waits for the read (the values arrive).
func TestCUDAFinishDrained(t *testing.T) {
	d := nvidiaGPU(t)
	c, err := NewContext(d)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	p, err := c.BuildProgram(`__kernel void spin(__global uint *x, long n) {
  uint acc = (uint)get_global_id(0);
  for (long i = 0; i < n; i++) acc = acc * 3 + 1;
  x[get_global_id(0)] = acc;
}`, "")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	k, err := p.Kernel("spin")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Release()
	const n, steps = 256, 1 << 20
	buf, err := c.CreateBuffer(MemReadWrite, 4*n)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Release()
	if err := k.SetArg(0, buf); err != nil {
		t.Fatal(err)
	}
	if err := k.SetArg(1, int64(steps)); err != nil {
		t.Fatal(err)
	}
	cu := c.cu
	drained := func() bool { return cu.drained.Load() == cu.tail.Load() }
	want := make([]uint32, n)
	for i := range want {
		acc := uint32(i)
		for range steps {
			acc = acc*3 + 1
		}
		want[i] = acc
	}
	for round := range 3 {
		if err := c.LaunchUntimed(k, []int{n}, []int{64}); err != nil {
			t.Fatal(err)
		}
		if drained() {
			t.Fatalf("round %d: drained after a launch", round)
		}
		got := make([]uint32, n)
		var ev *Event
		switch round {
		case 0: // a wait for the stream
			if err := c.Finish(); err != nil {
				t.Fatal(err)
			}
			if err := c.Read(buf, 0, unsafe.Pointer(&got[0]), 4*n); err != nil {
				t.Fatal(err)
			}
		case 1: // an asynchronous read, then Finish
			if ev, err = c.Queue().ReadAsync(buf, 0, unsafe.Pointer(&got[0]), 4*n); err != nil {
				t.Fatal(err)
			}
			if drained() {
				t.Fatal("drained after an asynchronous read")
			}
			if err := c.Finish(); err != nil {
				t.Fatal(err)
			}
		case 2: // a wait for the event after the read
			if ev, err = c.Queue().ReadAsync(buf, 0, unsafe.Pointer(&got[0]), 4*n); err != nil {
				t.Fatal(err)
			}
			if err := ev.Wait(); err != nil {
				t.Fatal(err)
			}
		}
		if !drained() {
			t.Fatalf("round %d: not drained after the wait", round)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("round %d: x[%d] = %d, want %d", round, i, got[i], want[i])
			}
		}
		if ev != nil {
			ev.Release()
		}
	}
	// a second queue's command leaves the stream drained
	q, err := c.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	defer q.Release()
	got := make([]uint32, n)
	ev, err := q.ReadAsync(buf, 0, unsafe.Pointer(&got[0]), 4*n)
	if err != nil {
		t.Fatal(err)
	}
	if !drained() {
		t.Error("a second queue's read undrained the stream")
	}
	if err := ev.Wait(); err != nil {
		t.Fatal(err)
	}
	ev.Release()
}
