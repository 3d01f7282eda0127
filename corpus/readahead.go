package corpus

import (
	"context"
	"iter"
	"runtime"
	"sync"
)

// The inputs after the first, read ahead by Docs when Options.Concurrent
// is over 1, hold at most this much each: documents (readAheadDocs), and
// bytes of WARC records and small files read whole (ReadAheadBytes). A
// document larger than that is let through alone.
const (
	readAheadDocs = 256
	// ReadAheadBytes bounds the memory of each input read ahead: a
	// run's memory grows by that much for each input it reads at once
	// beyond the first.
	ReadAheadBytes = 32 << 20
)

// readAhead yields the documents of the named inputs in input order,
// reading up to o.Concurrent of them at once: a slow input (a throttled
// server, an archive inflating on one core) no longer holds up those after
// it, each read on a goroutine of its own into a docQueue. The first input
// is read by the goroutine that yields its documents, as the inputs are
// when read one after the other: nothing is ahead of it to wait for, and
// a queue would only hand each of its documents from one goroutine to
// another (on cores the workers keep busy, a wait for each). It reports
// whether to go on.
func (o *Options) readAhead(ctx context.Context, names iter.Seq2[string, error], yield func(*Doc) bool) bool {
	type input struct {
		name string
		err  error
		q    *docQueue // nil for the first input
	}
	// Running readers: the one whose documents are yielded, and those of
	// the inputs in the channel.
	inputs := make(chan input, o.Concurrent-1)
	stop := make(chan struct{})
	go func() {
		defer close(inputs)
		first := true
		for name, err := range names {
			select {
			case <-stop: // stopped: the send below may still find room
				return
			default:
			}
			in := input{name: name, err: err}
			if !first {
				in.q = newDocQueue()
			}
			select {
			case inputs <- in:
			case <-stop:
				return
			}
			if !first {
				go func() {
					defer in.q.close()
					o.entry(ctx, name, err, in.q.push)
				}()
			}
			first = false
		}
	}()
	stopped := func() bool {
		close(stop)
		for in := range inputs {
			if in.q != nil {
				in.q.stop()
			}
		}
		return false
	}
	for in := range inputs {
		if in.q == nil {
			if !o.entry(ctx, in.name, in.err, yield) {
				return stopped()
			}
			continue
		}
		for d := range in.q.all() {
			if !yield(d) {
				in.q.stop()
				return stopped()
			}
		}
	}
	return true
}

// A docQueue is the documents of one input, read and not yet yielded.
type docQueue struct {
	mu      sync.Mutex
	cond    sync.Cond
	docs    []*Doc
	held    int64 // bytes the docs hold in memory
	closed  bool  // the reader is done
	stopped bool  // the run stopped: no more documents are wanted
}

func newDocQueue() *docQueue {
	q := &docQueue{}
	q.cond.L = &q.mu
	return q
}

// push adds d, waiting while the queue is full; it reports false, and
// closes d, once the run has stopped.
func (q *docQueue) push(d *Doc) bool {
	if !q.add(d) {
		return false
	}
	// A reader of small files is in system calls that return at once, and
	// so never leaves its processor to the worker its document woke: on
	// two cores, one worker of two read a docs tree's first hundred files
	// alone. The reader steps aside for it after each document (-j 2 on
	// the 1,699 pages, when the first input was read through a queue too:
	// 12% faster; check of the Rust book: 9%).
	runtime.Gosched()
	return true
}

// add is push but for the step aside.
func (q *docQueue) add(d *Doc) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	for !q.stopped && len(q.docs) > 0 && (len(q.docs) >= readAheadDocs || q.held+d.held > ReadAheadBytes) {
		q.cond.Wait()
	}
	if q.stopped {
		d.release()
		return false
	}
	q.docs = append(q.docs, d)
	q.held += d.held
	q.cond.Broadcast()
	return true
}

// close says the reader is done.
func (q *docQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.cond.Broadcast()
	q.mu.Unlock()
}

// all yields the documents as they come, until the reader is done.
func (q *docQueue) all() iter.Seq[*Doc] {
	return func(yield func(*Doc) bool) {
		for {
			q.mu.Lock()
			for len(q.docs) == 0 && !q.closed {
				q.cond.Wait()
			}
			if len(q.docs) == 0 {
				q.mu.Unlock()
				return
			}
			d := q.docs[0]
			q.docs[0] = nil
			q.docs = q.docs[1:]
			q.held -= d.held
			q.cond.Broadcast()
			q.mu.Unlock()
			if !yield(d) {
				return
			}
		}
	}
}

// stop refuses the documents to come and releases those waiting.
func (q *docQueue) stop() {
	q.mu.Lock()
	q.stopped = true
	docs := q.docs
	q.docs, q.held = nil, 0
	q.cond.Broadcast()
	q.mu.Unlock()
	for _, d := range docs {
		d.release()
	}
}
