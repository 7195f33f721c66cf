package cl

import (
	"sync"

	"github.com/ebitengine/purego"
)

// The OpenCL implementation allocates through the C library's malloc: a
// CPU implementation such as PoCL compiles every program with LLVM in
// the process, and what it frees when a program or a context is released
// stays in the process's resident size unless the allocator is asked to
// give it back. glibc's malloc does not give back free memory in the
// middle of its heaps by itself; malloc_trim does.

var (
	trimOnce sync.Once
	trimFn   func(pad uintptr) int32
)

// TrimHostMemory asks the C allocator to give the memory it holds free
// back to the system (glibc's malloc_trim) and reports whether it could:
// false where OpenCL is not loaded or the C library has no malloc_trim
// (musl), where it does nothing. It takes a few milliseconds; callers use
// it after releasing programs or a context, not on every call.
func TrimHostMemory() bool {
	trimOnce.Do(func() {
		if Load() != nil {
			return
		}
		// libc is loaded with libOpenCL: the symbol is found in the
		// process's global scope
		addr, err := purego.Dlsym(purego.RTLD_DEFAULT, "malloc_trim")
		if err != nil || addr == 0 {
			return
		}
		purego.RegisterFunc(&trimFn, addr)
	})
	if trimFn == nil {
		return false
	}
	trimFn(0)
	return true
}
