package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// heapFloor is the heap below which relurl does not collect garbage. Go's
// collector first runs at a 4 MiB heap, then each time the heap doubles
// what was live: a check of a book of Markdown (113 files, 1.2 MB)
// collected three times in 25 ms, for a live heap of 6 MB, and spent a
// fifth of its time on it. With a floor of 32 MiB, a run that small ends
// before its first collection, and one whose live heap is past half the
// floor collects as Go's default has it: the peak memory of a large run
// is what it was, and a small one takes 32 MiB at most.
const heapFloor = 32 << 20

// gcPercent is the GOGC past the floor: Go's 100, or a command's own.
var gcPercent atomic.Int64

func init() { gcPercent.Store(100) }

// setHeapFloor makes the heap's goal the larger of heapFloor and Go's
// (what is live, times 1 + gcPercent/100): after each collection, it
// sets GOGC from what is live. A memory limit (limitMemory's) still
// bounds the heap from above. A user's own GOGC is left as it is.
func setHeapFloor() {
	if os.Getenv("GOGC") != "" {
		return
	}
	// Before the first collection, Go's goal is 4 MiB × GOGC/100.
	debug.SetGCPercent(int(max(gcPercent.Load(), heapFloor*100/(4<<20))))
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var watch func()
	watch = func() {
		// Run once an object made for the purpose is collected: after
		// each collection, on the runtime's cleanup goroutine.
		metrics.Read(live)
		p := gcPercent.Load()
		if live[0].Value.Kind() == metrics.KindUint64 {
			if l := int64(live[0].Value.Uint64()); l > 0 && l*(100+p)/100 < heapFloor {
				p = heapFloor*100/l - 100
			}
		}
		debug.SetGCPercent(int(p))
		// 16 bytes: an object of its own, not one of the tiny allocator's
		// blocks, which a cleanup cannot follow alone.
		runtime.AddCleanup(new([16]byte), func(struct{}) { watch() }, struct{}{})
	}
	runtime.AddCleanup(new([16]byte), func(struct{}) { watch() }, struct{}{})
}
