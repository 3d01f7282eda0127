// Package ordered runs jobs on every core and writes what they print in
// the jobs' order, in bounded memory: the machinery of relurl's line
// filters (batches of lines) and of its corpus runs (documents).
package ordered

import (
	"context"
	"iter"
	"runtime"
	"runtime/pprof"
	"sync"

	"github.com/relurl/relurl/internal/bufpool"
)

// The stages of a run, as CPU profiles label their goroutines (label
// "stage"): the goroutine that takes the jobs (and what it starts, such as
// the readers of a corpus's inputs and their inflaters), the workers, and
// the writer, the goroutine that called Run.
var (
	readStage  = pprof.Labels("stage", "read")
	workStage  = pprof.Labels("stage", "work")
	writeStage = pprof.Labels("stage", "write")
)

// labeled runs f with the goroutine labeled as stage: a goroutine f starts
// has the label too.
func labeled(stage pprof.LabelSet, f func()) {
	pprof.Do(context.Background(), stage, func(context.Context) { f() })
}

// PieceSize bounds the output a job holds: past it, the job hands what it
// has to the writer and waits until the writer takes it, so that memory
// stays bounded however much a job prints.
const PieceSize = 256 << 10

// Output is what a job prints, to standard output and standard error.
type Output struct {
	Out, Err []byte
	pieces   chan piece
	kept     *bufpool.Pool      // the buffers of the pieces, given back once written
	direct   func(*Output) bool // with one worker: the writer itself
	stopped  bool               // direct returned false: the rest is dropped
}

// A piece is what a job printed, handed to the writer: a copy, in buffers
// of the run's, nil for nothing.
type piece struct{ out, err *[]byte }

// hand hands what o holds to the writer, and empties it.
func (o *Output) hand() {
	o.pieces <- piece{keep(o.kept, o.Out), keep(o.kept, o.Err)}
	o.Out, o.Err = o.Out[:0], o.Err[:0]
}

// keep returns a copy of b in a buffer of kept, nil if b is empty.
func keep(kept *bufpool.Pool, b []byte) *[]byte {
	if len(b) == 0 {
		return nil
	}
	bp := kept.Get(len(b))
	*bp = append(*bp, b...)
	return bp
}

// Size is how much o holds.
func (o *Output) Size() int { return len(o.Out) + len(o.Err) }

// Spill hands what o holds to the writer once it holds more than
// PieceSize bytes; a job calls it between the things it prints. Outside
// Run it does nothing.
func (o *Output) Spill() {
	switch {
	case o.Size() <= PieceSize:
	case o.direct != nil:
		if !o.stopped && !o.direct(o) {
			o.stopped = true
		}
		o.Out, o.Err = o.Out[:0], o.Err[:0]
	case o.pieces != nil:
		o.hand()
	}
}

type task[J any] struct {
	job J
	out Output
}

// Run calls handle for each job of jobs, on workers goroutines at once,
// with an Output of the job's own; it calls write with what each job
// printed, in the jobs' order, in pieces, then after with the job once its
// output is all written. write and after run on the calling goroutine, one
// call at a time; either returning false stops the run at once: no more
// jobs are taken (the iterator is left at its next yield), and what jobs
// under way print is dropped. The jobs taken ahead of the writer are
// bounded by win.
func Run[J any](jobs iter.Seq[J], workers int, win Window, handle func(J, *Output), write func(*Output) bool, after func(J) bool) {
	if workers == 1 {
		runOne(jobs, win.Jobs, handle, write, after)
		return
	}
	fl := newFlight(win)
	work, order := make(chan *task[J], fl.widest), make(chan *task[J], fl.widest)
	var kept bufpool.Pool
	go labeled(readStage, func() {
		defer close(work)
		defer close(order)
		for j := range jobs {
			if !fl.enter() { // stopped
				return
			}
			t := &task[J]{job: j, out: Output{pieces: make(chan piece, 1), kept: &kept}}
			order <- t // never waits: the window has room
			work <- t
		}
	})
	for range workers {
		go labeled(workStage, func() {
			// Each worker prints into buffers of its own, kept from one
			// job to the next as one worker's are (runOne), and hands
			// the writer a copy, in a buffer the size of what it
			// printed: a buffer for each job, grown from nothing as it
			// prints, cost -j 2 over the 1,699 pages 17 ms of CPU, and
			// the copies 3.
			var out, errOut []byte
			for {
				t, ok := next(fl, work)
				if !ok {
					return
				}
				t.out.Out, t.out.Err = out[:0], errOut[:0]
				handle(t.job, &t.out)
				t.out.hand()
				close(t.out.pieces)
				out, errOut = small(t.out.Out), small(t.out.Err)
				t.out.Out, t.out.Err = nil, nil
				// The writer and the goroutine that takes the jobs run
				// when a worker leaves its processor: with jobs waiting
				// and a worker on each core, only when Go's scheduler
				// takes it back, every 10 ms, while the jobs behind the
				// writer fill the window and the workers run dry.
				// Each worker steps aside after each job (-j 2 over the
				// 1,699 pages: 3.5% faster).
				runtime.Gosched()
			}
		})
	}
	labeled(writeStage, func() { writeInOrder(order, fl, &kept, write, after) })
}

// small returns b, or nil if it is too large to keep for the next job: a
// large job's buffers go.
func small(b []byte) []byte {
	if cap(b) > 4*PieceSize {
		return nil
	}
	return b
}

// writeInOrder is Run's writer: what each task prints, in the tasks' order.
func writeInOrder[J any](order chan *task[J], fl *flight, kept *bufpool.Pool, write func(*Output) bool, after func(J) bool) {
	for t := range order {
		fl.leave()
		for p := range t.out.pieces {
			o := Output{}
			if p.out != nil {
				o.Out = *p.out
			}
			if p.err != nil {
				o.Err = *p.err
			}
			if !write(&o) {
				stopRun(t, order, fl)
				return
			}
			kept.Put(p.out)
			kept.Put(p.err)
		}
		if !after(t.job) {
			stopRun(nil, order, fl)
			return
		}
	}
}

// A Window bounds the jobs Run takes ahead of its writer: Jobs of them, and
// up to Widest (if that is more) while a worker waits for a job. That is
// when the writer waits on a long job at the head of the window (a docs
// tree's index page of megabytes, among pages of kilobytes) and the other
// workers are done with every job behind it: without a wider window, their
// cores would sit idle until it is done (-j 2 over the 1,699 pages: a core
// idle 10 to 14 ms of a run of 125, 3 to 5 with it). A window that wide
// for every job would hold more in memory all the time.
type Window struct{ Jobs, Widest int }

// A flight is the jobs of a run in flight: taken, and not yet handed to
// the writer.
type flight struct {
	mu           sync.Mutex
	cond         sync.Cond
	taken        int // jobs taken and not yet handed to the writer
	waiting      int // workers waiting for a job
	stopped      bool
	jobs, widest int
}

func newFlight(win Window) *flight {
	fl := &flight{jobs: win.Jobs, widest: max(win.Jobs, win.Widest)}
	fl.cond.L = &fl.mu
	return fl
}

// enter waits until the window has room for one more job, and takes it; it
// reports false once the run has stopped.
func (fl *flight) enter() bool {
	fl.mu.Lock()
	defer fl.mu.Unlock()
	for !fl.stopped && fl.taken >= fl.jobs && (fl.waiting == 0 || fl.taken >= fl.widest) {
		fl.cond.Wait()
	}
	if fl.stopped {
		return false
	}
	fl.taken++
	return true
}

// leave frees the room of the job the writer takes.
func (fl *flight) leave() {
	fl.mu.Lock()
	fl.taken--
	fl.cond.Signal()
	fl.mu.Unlock()
}

// next returns a worker's next job from work, false once there are no
// more: at once if one is there, else once one comes, the window widened
// while it waits.
func next[J any](fl *flight, work <-chan *task[J]) (*task[J], bool) {
	select {
	case t, ok := <-work:
		return t, ok
	default:
	}
	fl.wait(1)
	defer fl.wait(-1)
	t, ok := <-work
	return t, ok
}

// wait counts a worker that waits for a job (n = 1), or no longer (-1).
func (fl *flight) wait(n int) {
	fl.mu.Lock()
	fl.waiting += n
	if n > 0 {
		fl.cond.Signal()
	}
	fl.mu.Unlock()
}

// stop wakes the reader of jobs, for good.
func (fl *flight) stop() {
	fl.mu.Lock()
	fl.stopped = true
	fl.cond.Broadcast()
	fl.mu.Unlock()
}

// runOne is Run with one worker: the calling goroutine handles each job and
// writes what it prints, as it prints it. Handing each job's output to a
// writer goroutine, as Run does for many workers, would put the one worker
// behind the writer on its core at each hand-off, for nothing: with one
// worker, output is in order as it is made. Jobs are still taken from the
// iterator ahead, on a goroutine of their own, so that opening and reading
// inputs overlaps the work.
func runOne[J any](jobs iter.Seq[J], inFlight int, handle func(J, *Output), write func(*Output) bool, after func(J) bool) {
	work, quit := make(chan J, inFlight), make(chan struct{})
	defer close(quit)
	go labeled(readStage, func() {
		defer close(work)
		for j := range jobs {
			select {
			case work <- j:
			case <-quit:
				return
			}
		}
	})
	// The one worker writes too: its stage is work.
	labeled(workStage, func() { handleAll(work, handle, write, after) })
}

// handleAll is runOne's worker.
func handleAll[J any](work chan J, handle func(J, *Output), write func(*Output) bool, after func(J) bool) {
	out := Output{direct: write}
	for j := range work {
		out.Out, out.Err = out.Out[:0], out.Err[:0]
		handle(j, &out)
		if out.stopped || !write(&out) || !after(j) {
			return
		}
		out.Out, out.Err = small(out.Out), small(out.Err)
	}
}

// stopRun tells the reader of jobs to stop, and drains what the workers
// still print, in the background, so that none of them waits forever.
func stopRun[J any](current *task[J], order chan *task[J], fl *flight) {
	fl.stop()
	go func() {
		if current != nil {
			for range current.out.pieces {
			}
		}
		for t := range order {
			for range t.out.pieces {
			}
		}
	}()
}
