package data

import (
	"math/bits"
	"sync"
)

// bufferPool is a memory.Allocator that keeps the buffers freed by released
// arrays for reuse. A Writer's builders and a Reader's decoder allocate the same
// buffer sizes batch after batch; reusing them spares the Go heap the large
// allocations (and the page faults and collections that come with them) that
// memory.GoAllocator makes each time. Buffers are zeroed when handed out, as
// those of memory.GoAllocator are. Safe for concurrent use.
type bufferPool struct {
	mu   sync.Mutex
	free [poolClasses][][]byte // free buffers of capacity 1<<(class+minShift)
	held int                   // bytes in free
}

const (
	minShift    = 6        // the smallest class: 64 bytes (64-byte aligned)
	poolClasses = 26       // the largest class: 2 GiB
	maxHeld     = 64 << 20 // bytes kept at most
)

// class returns the size class of a buffer of size bytes.
func class(size int) int {
	if size <= 1<<minShift {
		return 0
	}
	return bits.Len(uint(size-1)) - minShift
}

// Allocate returns a zeroed buffer of size bytes.
func (p *bufferPool) Allocate(size int) []byte {
	c := class(size)
	if c >= poolClasses {
		return make([]byte, size)
	}
	p.mu.Lock()
	if n := len(p.free[c]); n > 0 {
		b := p.free[c][n-1]
		p.free[c] = p.free[c][:n-1]
		p.held -= cap(b)
		p.mu.Unlock()
		b = b[:size]
		clear(b)
		return b
	}
	p.mu.Unlock()
	// Power-of-two sizes of the Go heap are aligned to their size (up to a
	// page) or to a page: 64-byte alignment, as arrow wants.
	return make([]byte, size, 1<<(c+minShift))
}

// Reallocate returns a buffer of size bytes that begins with the contents of b.
func (p *bufferPool) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		n := len(b)
		b = b[:size]
		if size > n {
			clear(b[n:])
		}
		return b
	}
	nb := p.Allocate(size)
	copy(nb, b)
	p.Free(b)
	return nb
}

// Free takes back a buffer from Allocate or Reallocate.
func (p *bufferPool) Free(b []byte) {
	c := class(cap(b))
	if c >= poolClasses || cap(b) != 1<<(c+minShift) {
		return // not one of ours
	}
	p.mu.Lock()
	if p.held+cap(b) <= maxHeld {
		p.free[c] = append(p.free[c], b[:0])
		p.held += cap(b)
	}
	p.mu.Unlock()
}
