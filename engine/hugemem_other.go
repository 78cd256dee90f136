//go:build !linux

package engine

// makeSlots returns a zeroed slot array.
func makeSlots(n int) []genSlot { return make([]genSlot, n) }

// freeSlots lets the garbage collector take s.
func freeSlots(s []genSlot) {}
