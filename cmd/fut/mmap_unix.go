//go:build unix

package main

import (
	"os"
	"syscall"
)

// mapFile maps n bytes of f from offset 0 read-only, so that a large
// input is read from the page cache without a copy in Go's heap; release
// unmaps it. ok is false where the file cannot be mapped.
func mapFile(f *os.File, n int64) (b []byte, release func(), ok bool) {
	b, err := syscall.Mmap(int(f.Fd()), 0, int(n), syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		return nil, nil, false
	}
	syscall.Madvise(b, syscall.MADV_SEQUENTIAL)
	return b, func() { syscall.Munmap(b) }, true
}
