//go:build !linux

package data

import (
	"io"
	"os"
)

// mapFile reads the file f of size bytes into memory (memory mapping is used on
// Linux only) and returns its bytes and a function that releases them.
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, nil, err
	}
	return b, func() error { return nil }, nil
}
