// Package bufpool keeps byte buffers for reuse, by size class, so that a
// run that reads or prints about the same amount for each of many
// documents (a docs tree's pages, their links) allocates its memory once:
// a buffer new to each document is memory the allocator clears and the
// kernel faults in, a page fault for each 4 KiB.
package bufpool

import "sync"

// A Pool keeps buffers of 4 KiB, 8 KiB, ... 4 MiB, and larger ones with
// the last. Its zero value is ready for use, by many goroutines at once.
// Like a sync.Pool, it may drop what it keeps at any time: what it holds
// is never more than what a run used at once.
type Pool struct{ classes [11]sync.Pool }

const smallest = 4 << 10

// class returns the index of the smallest class that holds n bytes, or
// the last.
func (p *Pool) class(n int) int {
	c := 0
	for size := smallest; size < n && c < len(p.classes)-1; size <<= 1 {
		c++
	}
	return c
}

// Get returns an empty buffer of at least n bytes.
func (p *Pool) Get(n int) *[]byte {
	c := p.class(n)
	if bp, ok := p.classes[c].Get().(*[]byte); ok {
		if cap(*bp) >= n {
			*bp = (*bp)[:0]
			return bp
		}
		p.classes[c].Put(bp) // the last class's, too small for n
	}
	b := make([]byte, 0, max(n, smallest<<c))
	return &b
}

// Put keeps the buffer bp for a Get to come: it must not be used after.
// One of a size between the classes' (not from Get) is not kept.
func (p *Pool) Put(bp *[]byte) {
	if bp == nil {
		return
	}
	if c := p.class(cap(*bp)); smallest<<c <= cap(*bp) {
		p.classes[c].Put(bp)
	}
}
