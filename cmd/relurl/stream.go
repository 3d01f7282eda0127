package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/relurl/relurl/internal/lines"
)

// A lineFunc handles one input line: it appends what the command prints for
// it to o.out (standard output) and o.msg (standard error), or returns an
// error for a line that cannot be handled. The workers of stream call it at
// once, each with its own output.
type lineFunc func(o *output, line []byte) error

// output is what a run of lines printed, in order.
type output struct {
	out, msg []byte
}

// batch is a run of consecutive input lines, handled by one worker.
type batch struct {
	data    []byte // whole lines, as lines.Reader returns them
	first   int    // the number of the first line
	last    int    // the number of the last line
	skipped error  // instead of data, the *lines.TooLongError of a line skipped
	err     error  // a read error after the last line
	output
	failed       bool          // some line could not be handled
	strictOutput output        // with -strict, what is printed before the first such line, and its report
	done         chan struct{} // receives when the batch is handled
}

// inFlight is the number of batches read ahead, per worker. A batch holds
// what lines.Reader returns at once: 64 KiB, or one line up to 1 MiB.
const inFlight = 4

// stream runs f on each line of standard input and prints what it returns,
// in input order, using every core: one goroutine reads batches of lines,
// workers handle them, and the calling goroutine writes them out in order.
// Memory stays bounded by the batches in flight, whatever the input's size.
//
// A line that cannot be handled (longer than lines.MaxLength, or one f
// rejects) is reported with its number on standard error and skipped; the
// run goes on and returns exitInvalid at the end, or with strict stops at
// that line. When standard error is a terminal, a progress line shows the
// lines done and the rate.
func (e *env) stream(cmd string, strict bool, f lineFunc) int {
	workers := runtime.GOMAXPROCS(0)
	n := workers * inFlight
	work, order, free := make(chan *batch, n), make(chan *batch, n), make(chan *batch, n)
	for range n {
		free <- &batch{done: make(chan struct{}, 1)}
	}
	quit := make(chan struct{})
	defer close(quit)

	go readBatches(e.stdin, free, work, order, quit)
	for range workers {
		go func() {
			for b := range work {
				b.handle(cmd, f)
			}
		}()
	}

	p := e.newProgress()
	defer p.clear()
	status := exitOK
	for b := range order {
		<-b.done
		o := b.output
		if b.failed {
			status = exitInvalid
			if strict {
				o = b.strictOutput
			}
		}
		if len(o.msg) > 0 {
			p.clear()
			e.stderr.Write(o.msg)
		}
		if _, err := e.stdout.Write(o.out); err != nil {
			p.clear()
			fmt.Fprintf(e.stderr, "relurl %s: writing standard output: %v\n", cmd, err)
			return exitInvalid
		}
		if b.failed && strict {
			return exitInvalid
		}
		if b.err != nil {
			p.clear()
			fmt.Fprintf(e.stderr, "relurl %s: reading standard input: %v\n", cmd, b.err)
			return exitInvalid
		}
		p.show(b.last)
		free <- b
	}
	return status
}

// readBatches reads lines into batches taken from free, and hands each to
// the workers and, in the same order, to the writer, until the input ends or
// quit closes. Reusing the batches keeps memory constant and spares the
// garbage collector.
func readBatches(in io.Reader, free <-chan *batch, work, order chan<- *batch, quit <-chan struct{}) {
	defer close(work)
	defer close(order)
	r := lines.NewReader(in, lines.MaxLength)
	for {
		var b *batch
		select {
		case b = <-free:
		case <-quit:
			return
		}
		first := r.Line() + 1
		chunk, err := r.Next()
		if err == io.EOF {
			return
		}
		*b = batch{
			data: append(b.data[:0], chunk...), first: first, last: r.Line(),
			output: output{out: b.out[:0], msg: b.msg[:0]},
			done:   b.done,
		}
		var tooLong *lines.TooLongError
		switch {
		case errors.As(err, &tooLong):
			b.skipped = err
		case err != nil:
			b.err = err
		}
		order <- b
		work <- b
		if b.err != nil {
			return
		}
	}
}

// handle runs f on each line of b, then marks b done. cmd names the
// command in reports of lines that cannot be handled.
func (b *batch) handle(cmd string, f lineFunc) {
	defer func() { b.done <- struct{}{} }()
	fail := func(err error) {
		b.msg = fmt.Appendf(b.msg, "relurl %s: %v\n", cmd, err)
		if !b.failed {
			b.failed, b.strictOutput = true, b.output
		}
	}
	if b.skipped != nil {
		fail(b.skipped)
		return
	}
	rest := b.data
	for n := b.first; len(rest) > 0; n++ {
		var line []byte
		line, rest = lines.Cut(rest)
		if len(line) > lines.MaxLength {
			fail(&lines.TooLongError{Line: n, Max: lines.MaxLength})
		} else if err := f(&b.output, line); err != nil {
			fail(fmt.Errorf("line %d: %w", n, err))
		}
	}
}

// progress shows "N lines, R lines/s" on a terminal's standard error,
// rewritten in place a few times a second at most.
type progress struct {
	e           *env
	start, last time.Time
	shown       bool
}

func (e *env) newProgress() *progress {
	now := time.Now()
	return &progress{e: e, start: now, last: now}
}

func (p *progress) show(lines int) {
	if !p.e.stderrIsTTY {
		return
	}
	if now := time.Now(); now.Sub(p.last) >= 250*time.Millisecond {
		p.last = now
		rate := float64(lines) / now.Sub(p.start).Seconds()
		fmt.Fprintf(p.e.stderr, "\r\x1b[Krelurl: %d lines, %.0f lines/s", lines, rate)
		p.shown = true
	}
}

// clear erases the progress line so that a message or the end can follow.
func (p *progress) clear() {
	if p.shown {
		fmt.Fprint(p.e.stderr, "\r\x1b[K")
		p.shown = false
	}
}

// write writes out to standard output and returns exitOK, or reports the
// failure and returns exitInvalid.
func (e *env) write(cmd string, out []byte) int {
	if _, err := e.stdout.Write(out); err != nil {
		fmt.Fprintf(e.stderr, "relurl %s: writing standard output: %v\n", cmd, err)
		return exitInvalid
	}
	return exitOK
}

// flush writes out what out buffers and returns exitOK, or reports the
// failure and returns exitInvalid.
func (e *env) flush(cmd string, out *bufio.Writer) int {
	if err := out.Flush(); err != nil {
		fmt.Fprintf(e.stderr, "relurl %s: writing standard output: %v\n", cmd, err)
		return exitInvalid
	}
	return exitOK
}

// eachURL calls f for each URL of a command: its arguments, or with "-"
// alone the lines of standard input. f appends what to print to o and
// reports whether the URL passed; eachURL returns exitInvalid if one did not.
func (e *env) eachURL(cmd string, urls []string, f func(o *output, url string) bool) int {
	var failed atomic.Bool // workers of stream set it concurrently
	check := func(o *output, url string) {
		if !f(o, url) {
			failed.Store(true)
		}
	}
	var status int
	if len(urls) == 1 && urls[0] == "-" {
		status = e.stream(cmd, false, func(o *output, line []byte) error {
			check(o, string(line))
			return nil
		})
	} else {
		var o output
		for _, url := range urls {
			check(&o, url)
		}
		e.stderr.Write(o.msg)
		status = e.write(cmd, o.out)
	}
	if failed.Load() && status == exitOK {
		status = exitInvalid
	}
	return status
}
