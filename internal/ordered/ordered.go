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
	pieces   chan Output
	free     buffers            // the buffers of pieces written, for the next
	direct   func(*Output) bool // with one worker: the writer itself
	stopped  bool               // direct returned false: the rest is dropped
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
		o.pieces <- Output{Out: o.Out, Err: o.Err}
		// The next piece in a buffer the writer is done with: a job that
		// prints gigabytes allocates little, and so leaves the collector
		// little to do, which on a busy machine is memory saved.
		o.Out, o.Err = o.free.get(), nil
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
	free := make(buffers, 2*win.Jobs+2)
	go labeled(readStage, func() {
		defer close(work)
		defer close(order)
		for j := range jobs {
			if !fl.enter() { // stopped
				return
			}
			t := &task[J]{job: j, out: Output{Out: free.get(), pieces: make(chan Output, 1), free: free}}
			order <- t // never waits: the window has room
			work <- t
		}
	})
	for range workers {
		go labeled(workStage, func() {
			for {
				t, ok := next(fl, work)
				if !ok {
					return
				}
				handle(t.job, &t.out)
				t.out.pieces <- Output{Out: t.out.Out, Err: t.out.Err}
				close(t.out.pieces)
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
	labeled(writeStage, func() { writeInOrder(order, fl, free, write, after) })
}

// writeInOrder is Run's writer: what each task prints, in the tasks' order.
func writeInOrder[J any](order chan *task[J], fl *flight, free buffers, write func(*Output) bool, after func(J) bool) {
	for t := range order {
		fl.leave()
		for o := range t.out.pieces {
			if !write(&o) {
				stopRun(t, order, fl)
				return
			}
			free.put(o.Out)
			free.put(o.Err)
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
// idle for 8 ms of a run of 125). A window that wide for every job would
// hold more in memory all the time.
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
		if out.Size() > 4*PieceSize {
			out.Out, out.Err = nil, nil // a large job's buffers go
		}
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

// buffers keeps the buffers of written output for the jobs that follow,
// so that a run of many jobs allocates little.
type buffers chan []byte

func (f buffers) get() []byte {
	select {
	case b := <-f:
		return b[:0]
	default:
		return nil
	}
}

func (f buffers) put(b []byte) {
	if cap(b) == 0 || cap(b) > 4*PieceSize {
		return
	}
	select {
	case f <- b:
	default:
	}
}
