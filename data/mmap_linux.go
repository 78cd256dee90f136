//go:build linux

package data

import (
	"fmt"
	"os"
	"syscall"
)

// mapFile maps the file f of size bytes read-only into memory and returns its
// bytes and the function that unmaps them. An empty file gives no bytes.
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	if size == 0 {
		return nil, func() error { return nil }, nil
	}
	if int64(int(size)) != size {
		return nil, nil, fmt.Errorf("file too large to map (%d bytes)", size)
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, fmt.Errorf("mmap: %w", err)
	}
	_ = syscall.Madvise(b, syscall.MADV_SEQUENTIAL) // only a hint
	return b, func() error { return syscall.Munmap(b) }, nil
}
