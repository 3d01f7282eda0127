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

// A lineFunc handles input line number n: it appends what the command
// prints for it to o.out (standard output) and o.msg (standard error), or
// returns an error for a line that cannot be handled. The workers of stream
// call it at once, each with its own output.
type lineFunc func(o *output, n int, line []byte) error

// output is what a run of lines printed, in order.
type output struct {
	out, msg []byte
}

// size is how much o holds.
func (o *output) size() int { return len(o.out) + len(o.msg) }

// batch is a run of consecutive input lines, handled by one worker.
type batch struct {
	data    []byte // whole lines, as lines.Reader returns them
	first   int    // the number of the first line
	last    int    // the number of the last line
	skipped error  // instead of data, the *lines.TooLongError of a line skipped
	err     error  // a read error after the last line
	output         // what the lines printed, after the pieces
	pieces  chan output
	failed  bool // some line could not be handled
}

// inFlight is the number of batches read ahead, per worker. A batch holds
// what lines.Reader returns at once: 64 KiB, or one line up to 1 MiB.
const inFlight = 4

// pieceSize bounds the output a worker holds for a batch: past it, the
// worker hands what it has to the writer and waits for it to be written
// out, so that memory stays bounded however much a line prints (a long
// base and empty references).
const pieceSize = 256 << 10

// A streamer runs a lineFunc on each line of standard input.
type streamer struct {
	cmd    string
	strict bool   // stop at the first line that cannot be handled
	failed []byte // what stands in the output for a line that cannot be handled
	f      lineFunc
}

// stream runs s.f on each line of standard input and prints what it
// returns, in input order, using every core: one goroutine reads batches of
// lines, workers handle them, and the calling goroutine writes them out in
// order. Memory stays bounded by the batches in flight and their pieces of
// output, whatever the input and however much each line prints.
//
// A line that cannot be handled (longer than lines.MaxLength, or one f
// rejects) is reported with its number on standard error, and s.failed is
// printed in its place, so that output lines stay in step with input lines;
// the run goes on and returns exitInvalid at the end, or with s.strict
// stops at that line. When standard error is a terminal, a progress line
// shows the lines done and the rate.
func (e *env) stream(s streamer) int {
	workers := runtime.GOMAXPROCS(0)
	n := workers * inFlight
	work, order, free := make(chan *batch, n), make(chan *batch, n), make(chan *batch, n)
	for range n {
		free <- &batch{}
	}
	quit := make(chan struct{})
	defer close(quit)

	go readBatches(e.stdin, free, work, order, quit)
	for range workers {
		go func() {
			for b := range work {
				b.handle(&s)
			}
		}()
	}

	p := e.newProgress()
	defer p.clear()
	status := exitOK
	for b := range order {
		for o := range b.pieces {
			if len(o.msg) > 0 {
				p.clear()
				e.stderr.Write(o.msg)
			}
			if _, err := e.stdout.Write(o.out); err != nil {
				p.clear()
				return exitWrite
			}
		}
		if b.failed {
			status = exitInvalid
			if s.strict {
				return exitInvalid
			}
		}
		if b.err != nil {
			p.clear()
			fmt.Fprintf(e.stderr, "relurl %s: reading standard input: %v\n", s.cmd, b.err)
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
			pieces: make(chan output, 1),
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

// handle runs s.f on each line of b, handing its output to the writer in
// pieces, the last one when all is done.
func (b *batch) handle(s *streamer) {
	defer func() {
		b.pieces <- b.output
		close(b.pieces)
	}()
	fail := func(err error) {
		b.msg = fmt.Appendf(b.msg, "relurl %s: %s\n", s.cmd, printable(err.Error()))
		b.failed = true
		if !s.strict {
			b.out = append(b.out, s.failed...)
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
		} else if err := s.f(&b.output, n, line); err != nil {
			fail(fmt.Errorf("line %d: %w", n, err))
		}
		if b.failed && s.strict {
			return
		}
		if b.output.size() > pieceSize {
			b.pieces <- b.output
			b.output = output{}
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

// write writes out to standard output and returns exitOK, or exitWrite
// when it fails (main reports the failure).
func (e *env) write(out []byte) int {
	if len(out) == 0 {
		return exitOK
	}
	if _, err := e.stdout.Write(out); err != nil {
		return exitWrite
	}
	return exitOK
}

// flush writes out what out buffers and returns exitOK, or exitWrite when
// it fails (main reports the failure).
func (e *env) flush(out *bufio.Writer) int {
	if err := out.Flush(); err != nil {
		return exitWrite
	}
	return exitOK
}

// eachURL calls f for each URL of a command: its arguments, or with "-"
// alone the lines of standard input. f appends what to print to o and
// reports whether the URL passed; line is the URL's line number on
// standard input, 0 for an argument. eachURL returns exitInvalid if one did
// not pass.
func (e *env) eachURL(cmd string, urls []string, f func(o *output, line int, url string) bool) int {
	var failed atomic.Bool // workers of stream set it concurrently
	check := func(o *output, line int, url string) {
		if !f(o, line, url) {
			failed.Store(true)
		}
	}
	var status int
	if len(urls) == 1 && urls[0] == "-" {
		status = e.stream(streamer{cmd: cmd, f: func(o *output, n int, line []byte) error {
			check(o, n, string(line))
			return nil
		}})
	} else {
		var o output
		for _, url := range urls {
			check(&o, 0, url)
		}
		e.stderr.Write(o.msg)
		status = e.write(o.out)
	}
	if failed.Load() && status == exitOK {
		status = exitInvalid
	}
	return status
}
