package main

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/relurl/relurl/corpus"
	"github.com/relurl/relurl/internal/jsonline"
	"github.com/relurl/relurl/internal/lines"
	"github.com/relurl/relurl/internal/ordered"
)

// A lineFunc handles input line number n: it appends what the command
// prints for it to o.Out (standard output) and o.Err (standard error), or
// returns an error for a line that cannot be handled. The workers of stream
// call it at once, each with its own output.
type lineFunc func(o *ordered.Output, n int, line []byte) error

// batch is a run of consecutive input lines, handled by one worker.
type batch struct {
	data    []byte // whole lines, as lines.Reader returns them
	first   int    // the number of the first line
	last    int    // the number of the last line
	skipped error  // instead of data, the *lines.TooLongError of a line skipped
	err     error  // a read error after the last line
	failed  bool   // some line could not be handled
}

// inFlight is the number of batches read ahead, per worker. A batch holds
// what lines.Reader returns at once: 64 KiB, or one line up to 1 MiB.
const inFlight = 4

// A streamer runs a lineFunc on each line of standard input.
type streamer struct {
	cmd    string
	strict bool   // stop at the first line that cannot be handled
	failed []byte // what stands in the output for a line that cannot be handled
	// skipped, if not nil, is what stands in the output for line n, which
	// is too long to be read (f never sees it): under -json, an object,
	// so that there is one for every line; else failed does.
	skipped func(n int, err error) []byte
	f       lineFunc
}

// skippedJSON is the object of a line too long to be read, for the -json
// of commands whose "error" is an object with a message (parse,
// validate); errorIsText makes "error" the message itself (url, compare).
func skippedJSON(errorIsText bool) func(n int, err error) []byte {
	return func(n int, err error) []byte {
		msg := strings.TrimPrefix(err.Error(), fmt.Sprintf("line %d: ", n))
		if errorIsText {
			return jsonline.Append(nil, struct {
				Line int    `json:"line"`
				Err  string `json:"error"`
			}{n, msg})
		}
		type message struct {
			Message string `json:"message"`
		}
		return jsonline.Append(nil, struct {
			Line  int     `json:"line"`
			Valid bool    `json:"valid"`
			Err   message `json:"error"`
		}{n, false, message{msg}})
	}
}

// stream runs s.f on each line of standard input and prints what it
// returns, in input order, using every core (package ordered): batches of
// lines are read, handled by workers, and written out in order. Memory
// stays bounded by the batches in flight and their pieces of output,
// whatever the input and however much each line prints.
//
// A line that cannot be handled (longer than lines.MaxLength, or one f
// rejects) is reported with its number on standard error, and s.failed is
// printed in its place, so that output lines stay in step with input lines;
// the run goes on and returns exitFailed at the end, or with s.strict
// stops at that line. When standard error is a terminal, a progress line
// shows the lines done and the rate.
func (e *env) stream(s streamer) int {
	workers := runtime.GOMAXPROCS(0)
	free := make(chan *batch, workers*inFlight+1) // batches, with their buffers, for those that follow
	p := e.newProgress()
	defer p.clear()
	status := exitOK
	ordered.Run(readBatches(e.stdin, free), workers, ordered.Window{Jobs: workers * inFlight},
		func(b *batch, o *ordered.Output) { b.handle(&s, o) },
		e.writer(p, &status).ordered,
		func(b *batch) bool {
			if b.failed {
				status = exitFailed
				if s.strict {
					return false
				}
			}
			if b.err != nil {
				p.clear()
				fmt.Fprintf(e.stderr, "relurl %s: reading standard input: %v\n", s.cmd, b.err)
				status = exitFailed
				return false
			}
			p.show(b.last)
			select {
			case free <- b:
			default:
			}
			return true
		})
	return status
}

// readBatches returns the batches of lines of in, reusing those in free.
func readBatches(in io.Reader, free chan *batch) iter.Seq[*batch] {
	return func(yield func(*batch) bool) {
		r := lines.NewReader(in, lines.MaxLength)
		for {
			first := r.Line() + 1
			chunk, err := r.Next()
			if err == io.EOF {
				return
			}
			var b *batch
			select {
			case b = <-free:
			default:
				b = new(batch)
			}
			*b = batch{data: append(b.data[:0], chunk...), first: first, last: r.Line()}
			var tooLong *lines.TooLongError
			switch {
			case errors.As(err, &tooLong):
				b.skipped = err
			case err != nil:
				b.err = err
			}
			if !yield(b) || b.err != nil {
				return
			}
		}
	}
}

// handle runs s.f on each line of b.
func (b *batch) handle(s *streamer, o *ordered.Output) {
	fail := func(n int, err error, tooLong bool) {
		o.Err = fmt.Appendf(o.Err, "relurl %s: %s\n", s.cmd, printable(err.Error()))
		b.failed = true
		switch {
		case s.strict:
		case tooLong && s.skipped != nil:
			o.Out = append(o.Out, s.skipped(n, err)...)
		default:
			o.Out = append(o.Out, s.failed...)
		}
	}
	if b.skipped != nil {
		fail(b.first, b.skipped, true)
		return
	}
	rest := b.data
	for n := b.first; len(rest) > 0; n++ {
		var line []byte
		line, rest = lines.Cut(rest)
		if len(line) > lines.MaxLength {
			fail(n, &lines.TooLongError{Line: n, Max: lines.MaxLength}, true)
		} else if err := s.f(o, n, line); err != nil {
			fail(n, fmt.Errorf("line %d: %w", n, err), false)
		}
		if b.failed && s.strict {
			return
		}
		o.Spill()
	}
}

// progress shows "N lines, R lines/s" on a terminal's standard error,
// rewritten in place a few times a second at most.
type progress struct {
	e           *env
	start, last time.Time
	shown       bool
	// every, when set, is how often a line of progress is written when
	// standard error is no terminal (a CI job's log), for command cmd.
	every time.Duration
	cmd   string
}

func (e *env) newProgress() *progress {
	now := time.Now()
	return &progress{e: e, start: now, last: now}
}

// logEvery makes p write a line every d when standard error is not a
// terminal: a run that may take minutes is seen to go on.
func (p *progress) logEvery(cmd string, d time.Duration) *progress {
	p.cmd, p.every = cmd, d
	return p
}

func (p *progress) show(lines int) {
	p.update(func(seconds float64) string {
		return fmt.Sprintf("%d lines, %.0f lines/s", lines, float64(lines)/seconds)
	})
}

// showDocs shows "N documents, M MB, L links, R MB/s" the same way.
// count returns "1 link", "2 links": n and the noun, plural but for one.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func (p *progress) showDocs(s *corpus.Stats) {
	p.update(func(seconds float64) string {
		mb := float64(s.Bytes) / 1e6
		return fmt.Sprintf("%s, %.1f MB, %s, %.1f MB/s", count(s.Documents, "document"), mb, count(s.Links, "link"), mb/seconds)
	})
}

// update rewrites the progress line with text, given the seconds since
// the start, on a terminal and at most four times a second.
func (p *progress) update(text func(seconds float64) string) {
	if !p.e.stderrIsTTY {
		if now := time.Now(); p.every > 0 && now.Sub(p.last) >= p.every {
			// A log, not a terminal: a line now and then, so that a long
			// run is seen to go on.
			p.last = now
			fmt.Fprintf(p.e.stderr, "relurl %s: progress: %s\n", p.cmd, text(now.Sub(p.start).Seconds()))
		}
		return
	}
	if now := time.Now(); now.Sub(p.last) >= 250*time.Millisecond {
		p.last = now
		fmt.Fprintf(p.e.stderr, "\r\x1b[Krelurl: %s", text(now.Sub(p.start).Seconds()))
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

// writer returns the write function of an ordered run: what a job printed
// goes to standard error, then standard output; a failed write sets
// *status to exitWrite and stops the run (main reports the failure).
func (e *env) writer(p *progress, status *int) writeFunc {
	return func(out, errOut []byte) bool {
		if len(errOut) > 0 || len(out) > 0 && e.stdoutIsTTY {
			p.clear() // on the terminal where the output goes too
		}
		if len(errOut) > 0 {
			e.stderr.Write(errOut)
		}
		if len(out) == 0 {
			return true // a document with nothing to print: no write
		}
		if _, err := e.stdout.Write(out); err != nil {
			*status = exitWrite
			return false
		}
		return true
	}
}

// A writeFunc writes what a job printed, and reports whether the run goes
// on.
type writeFunc func(out, errOut []byte) bool

// ordered is w as ordered.Run's write.
func (w writeFunc) ordered(o *ordered.Output) bool { return w(o.Out, o.Err) }

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

// eachURL calls f for each URL of a command: its arguments, or with "-"
// alone the lines of standard input. f appends what to print to o and
// reports whether the URL passed; line is the URL's line number on
// standard input, 0 for an argument. skipped, if not nil, gives what stands
// for a line too long to read (streamer.skipped). eachURL returns miss if
// a URL did not pass (exitFound where that is what the command looks for,
// as validate does; exitFailed where the URL could not be handled), and
// exitFailed for a line that could not be read.
func (e *env) eachURL(cmd string, urls []string, miss int, skipped func(n int, err error) []byte, f func(o *ordered.Output, line int, url string) bool) int {
	var failed atomic.Bool // workers of stream set it concurrently
	check := func(o *ordered.Output, line int, url string) {
		if !f(o, line, url) {
			failed.Store(true)
		}
	}
	var status int
	if len(urls) == 1 && urls[0] == "-" {
		status = e.stream(streamer{cmd: cmd, skipped: skipped, f: func(o *ordered.Output, n int, line []byte) error {
			check(o, n, string(line))
			return nil
		}})
	} else {
		var o ordered.Output
		for _, url := range urls {
			check(&o, 0, url)
		}
		e.stderr.Write(o.Err)
		status = e.write(o.Out)
	}
	if failed.Load() {
		status = worse(status, miss)
	}
	return status
}
