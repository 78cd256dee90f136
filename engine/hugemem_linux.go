//go:build linux

package engine

import (
	"syscall"
	"unsafe"
)

// hugeMin is the size from which tables are mapped directly.
const hugeMin = 4 << 20

// makeSlots returns a zeroed slot array. On Linux a large one is mapped directly
// and marked for transparent huge pages: the table is probed at random, and with
// 4 KiB pages most probes of a large table would also miss the TLB.
func makeSlots(n int) []genSlot {
	size := n * int(unsafe.Sizeof(genSlot{}))
	if size < hugeMin {
		return make([]genSlot, n)
	}
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]genSlot, n)
	}
	_ = syscall.Madvise(mem, 14) // MADV_HUGEPAGE; only a hint
	return unsafe.Slice((*genSlot)(unsafe.Pointer(&mem[0])), n)
}

// freeSlots returns a table made by makeSlots to the system when it was mapped.
func freeSlots(s []genSlot) {
	size := len(s) * int(unsafe.Sizeof(genSlot{}))
	if size < hugeMin {
		return
	}
	_ = syscall.Munmap(unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), size))
}
