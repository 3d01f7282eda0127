package bufpool

import "testing"

// Get gives a buffer of at least the size asked for, empty, and one that
// was put back when it is large enough: the same memory again.
func TestPool(t *testing.T) {
	var p Pool
	for _, n := range []int{0, 1, smallest - 1, smallest, smallest + 1, 300_000, smallest << 10, smallest<<10 + 1, 9 << 20} {
		bp := p.Get(n)
		if len(*bp) != 0 || cap(*bp) < n {
			t.Errorf("Get(%d): length %d, capacity %d", n, len(*bp), cap(*bp))
		}
		*bp = append(*bp, 'x')
		p.Put(bp)
		// sync.Pool keeps what is put on the processor it was put on;
		// the race detector drops some of it on purpose.
		if again := p.Get(n); len(*again) != 0 || cap(*again) < n {
			t.Errorf("Get(%d) again: length %d, capacity %d", n, len(*again), cap(*again))
		}
	}
	// One of a size between the classes is not kept, and nil is nothing.
	odd := make([]byte, 5000)
	p.Put(&odd)
	p.Put(nil)
	if bp := p.Get(5000); cap(*bp) == 5000 {
		t.Error("a buffer of 5000 bytes was kept in the 8 KiB class")
	}
}
