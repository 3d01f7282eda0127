package ordered

import (
	"fmt"
	"iter"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func count(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

// Output comes out in the jobs' order, whatever order the workers finish
// in, and a job that prints more than PieceSize hands it over in pieces:
// with one worker, which writes itself, and with several.
func TestRun(t *testing.T) {
	for _, workers := range []int{1, 4} {
		t.Run(fmt.Sprint(workers, " workers"), func(t *testing.T) { testRun(t, workers) })
	}
}

func testRun(t *testing.T, workers int) {
	var out strings.Builder
	var after []int
	pieces := 0
	Run(count(100), workers, Window{Jobs: 8},
		func(j int, o *Output) {
			for k := range j % 3 * 25000 {
				o.Out = fmt.Appendf(o.Out, "%d.%d ", j, k)
				o.Spill()
			}
			o.Out = fmt.Appendf(o.Out, "%d\n", j)
			o.Err = fmt.Appendf(o.Err, "e%d ", j)
		},
		func(o *Output) bool {
			if o.Size() > 2*PieceSize {
				t.Errorf("a piece of %d bytes", o.Size())
			}
			pieces++
			for _, line := range strings.SplitAfter(string(o.Out), " ") {
				out.WriteString(line)
			}
			return true
		},
		func(j int) bool { after = append(after, j); return true })
	var want strings.Builder
	for j := range 100 {
		for k := range j % 3 * 25000 {
			fmt.Fprintf(&want, "%d.%d ", j, k)
		}
		fmt.Fprintf(&want, "%d\n", j)
	}
	if out.String() != want.String() {
		t.Error("the output is not in the jobs' order")
	}
	if len(after) != 100 || after[99] != 99 || pieces <= 100 {
		t.Errorf("after %d jobs, %d pieces", len(after), pieces)
	}
}

// Run stops at once when write or after says so, and takes no more jobs.
func TestStop(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprint(workers, " workers"), func(t *testing.T) { testStop(t, workers) })
	}
}

func testStop(t *testing.T, workers int) {
	var taken atomic.Int64 // the reader of jobs may run on after Run returns
	jobs := func(yield func(int) bool) {
		for i := 0; ; i++ {
			taken.Add(1)
			if !yield(i) {
				return
			}
		}
	}
	var seen []int
	Run(jobs, workers, Window{Jobs: 4}, func(j int, o *Output) { o.Out = append(o.Out, 'x') },
		func(*Output) bool { return true },
		func(j int) bool { seen = append(seen, j); return j < 9 })
	if n := taken.Load(); len(seen) != 10 || n > 10+4+2+2 {
		t.Errorf("after stopped at %v with %d jobs taken", seen, n)
	}
}

// A write that fails in the middle of a job's pieces stops the run there:
// no more pieces are written, and no job is done.
func TestStopInPieces(t *testing.T) {
	for _, workers := range []int{1, 2} {
		writes, afters := 0, 0
		Run(count(3), workers, Window{Jobs: 4},
			func(j int, o *Output) {
				for range 10 {
					o.Out = append(o.Out, make([]byte, PieceSize+1)...)
					o.Spill()
				}
			},
			func(*Output) bool { writes++; return writes < 2 },
			func(int) bool { afters++; return true })
		if writes != 2 || afters != 0 {
			t.Errorf("%d workers: %d writes, %d jobs done; want 2 and 0", workers, writes, afters)
		}
	}
}

// A job at the head of the window that takes long does not leave the
// other workers idle once the jobs behind it are done: the window widens
// to Widest, and no further.
func TestWindowWidens(t *testing.T) {
	const inFlight = 4
	var done, most atomic.Int64
	waited := false
	Run(count(40), 2, Window{Jobs: inFlight, Widest: 4 * inFlight},
		func(j int, o *Output) {
			if j == 0 {
				// Until the jobs behind it have filled the widest
				// window (the writer waits on this one, taken out of
				// it): with a window that does not widen, not before
				// the deadline.
				deadline := time.Now().Add(20 * time.Second)
				for done.Load() < 4*inFlight && time.Now().Before(deadline) {
					time.Sleep(time.Millisecond)
				}
				waited = done.Load() >= 4*inFlight
				// No job past the widest window is taken meanwhile.
				time.Sleep(20 * time.Millisecond)
				most.Store(done.Load())
			} else {
				done.Add(1)
			}
		},
		func(*Output) bool { return true },
		func(int) bool { return true })
	if !waited {
		t.Fatalf("the job at the head of the window waited in vain: %d jobs done behind it, want %d", done.Load(), 4*inFlight)
	}
	if n := most.Load(); n > 4*inFlight {
		t.Errorf("%d jobs done behind the head of the window, want at most %d", n, 4*inFlight)
	}
}
