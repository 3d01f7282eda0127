//go:build linux

package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/relurl/relurl/corpus"
	"github.com/relurl/relurl/links"
)

// TestHostileMatrix attacks every command relurl registers with every
// format it reads, each shaped in every hostile way of hostileShapes, and
// every output flag with what is not a regular file. Each run is a child
// process under a memory limit (RLIMIT_AS) and a time bound, in a folder
// of its own, and must end without a crash (a panic, Go's out-of-memory
// death), within matrixRSS of resident memory and matrixTime; when it
// exits non-zero, or the shape is one that must lose something (a bomb,
// an endless stream), its message must name the input. Nothing outside
// the run's folder may change.
//
// The lists come from the code: the commands from the command table
// (commands), the document formats from links.Format, so that a command
// or a format added without a row here fails this test. docs/reliability.md
// has its table.
func TestHostileMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("inputs of 100 MB, a child process each")
	}
	for _, c := range commands {
		if _, ok := hostileUses[c.name]; !ok {
			t.Errorf("command %q has no row in hostileUses: say how the matrix attacks it", c.name)
		}
	}
	formats := []string{"warc", "css", "robots"} // read by links (WARC) and rewrite (CSS, robots.txt), outside links.Format
	for f := links.FormatHTML; f.String() != "unknown"; f++ {
		if f != links.FormatRedirect { // a response's header, not a document: the WARC's rows attack it
			formats = append(formats, f.String())
		}
	}
	for _, f := range formats {
		if _, ok := formatUnits[f]; !ok {
			t.Errorf("format %q has no row in formatUnits: say what its hostile shapes are made of", f)
		}
	}
	if t.Failed() {
		return
	}
	for _, format := range formats {
		u := formatUnits[format]
		for _, shape := range hostileShapes {
			if !shape.applies(u) {
				continue // not a shape this format's documents take
			}
			t.Run(format+"/"+shape.name, func(t *testing.T) {
				t.Parallel()
				inputs := t.TempDir() // this row's own
				path := filepath.Join(inputs, strings.ReplaceAll(shape.name, " ", "-")+u.ext)
				if u.file != "" { // a name of its own: robots.txt
					path = filepath.Join(inputs, u.file)
				}
				if shape.body != nil {
					path = writeShape(t, path, u, shape)
					defer os.Remove(path)
				}
				for _, c := range commands {
					use := hostileUses[c.name]
					if !slices.Contains(use.formats, format) || use.once && shape.name != hostileShapes[0].name {
						continue // a command of arguments alone runs once
					}
					var stdin io.Reader
					var args []string
					switch {
					case shape.body == nil: // a stream
						if args = use.stdinArgs(format); args == nil {
							continue
						}
						stdin = shape.stream(u)
					case use.args != nil:
						args = use.args(path)
					default:
						f, err := os.Open(path)
						if err != nil {
							t.Fatal(err)
						}
						defer f.Close()
						stdin, args = f, use.stdinArgs(format)
					}
					t.Run(c.name, func(t *testing.T) {
						before := snapshot(t, inputs)
						r := runHostile(t, stdin, args...)
						r.judge(t, filepath.Base(path), shape.loses && !use.once, use.usage)
						if after := snapshot(t, inputs); !maps.Equal(before, after) {
							t.Errorf("relurl %s changed the inputs' folder: before %v, after %v", short(args), before, after)
						}
					})
				}
			})
		}
	}
	t.Run("outputs", func(t *testing.T) { hostileOutputs(t, t.TempDir()) })
}

// The bounds of every run. Memory is the README's: 3 × -max-size (64
// MiB) and 55 MB for the document, and an input's read-ahead, with a
// tenth more for the collector on a busy 2-core machine; time has an
// honest margin there too.
const (
	matrixAS   = 4 << 30 // RLIMIT_AS: Go reserves address space it never touches
	matrixRSS  = (3*corpus.DefaultMaxSize + 55<<20 + corpus.ReadAheadBytes) * 11 / 10
	matrixTime = 90 * time.Second
)

// A hostileUse is how the matrix runs a command on a hostile input.
type hostileUse struct {
	formats []string // the formats of the rows it runs in
	// args runs it on the file at path; when nil, the file is its
	// standard input, with stdinArgs.
	args func(path string) []string
	// stdinArgs runs it on standard input of format (nil: it reads none).
	stdinArgs func(format string) []string
	usage     bool // a usage error is the right answer (a hostile argument)
	once      bool // it reads no input: one run, in the first row
}

// documentUse is a document command's: the file, and standard input
// with the format named.
func documentUse(cmd string, flags ...string) hostileUse {
	return hostileUse{
		formats: []string{"html", "message", "markdown", "text", "xml", "warc"},
		args:    func(path string) []string { return append(append([]string{cmd}, flags...), path) },
		stdinArgs: func(format string) []string {
			if format == "warc" {
				return nil // an archive is read from a file or a URL
			}
			return append(append([]string{cmd}, flags...), "-type", format, "-")
		},
	}
}

// lineUse is a command that reads URLs, one a line, from standard input:
// the "text" rows, each file given as its standard input.
func lineUse(args ...string) hostileUse {
	return hostileUse{formats: []string{"text"}, stdinArgs: func(string) []string { return args }}
}

// argumentUse is a command that reads no input: the "text" rows run it
// with a hostile argument, a usage error when usage is set.
func argumentUse(usage bool, args ...string) hostileUse {
	return hostileUse{formats: []string{"text"}, args: func(string) []string { return args }, stdinArgs: func(string) []string { return nil }, usage: usage, once: true}
}

var hostileUses = map[string]hostileUse{
	"links": documentUse("links", "-json"),
	"base":  documentUse("base"),
	"check": documentUse("check", "-offline"),
	"rewrite": {
		formats: []string{"html", "markdown", "css", "xml", "robots"},
		args: func(path string) []string {
			return []string{"rewrite", "-absolute", "-url", "https://x.example/d/", path}
		},
		stdinArgs: func(string) []string { return []string{"rewrite", "-absolute", "-url", "https://x.example/d/", "-"} },
	},
	"resolve":    lineUse("resolve", "-base", "https://x.example/a/b"),
	"compare":    lineUse("compare", "-base", "https://x.example/a/b"),
	"relative":   lineUse("relative", "-base", "https://x.example/a/b"),
	"parse":      lineUse("parse", "-"),
	"validate":   lineUse("validate", "-spec", "whatwg", "-"),
	"url":        lineUse("url", "-set", "port=8080", "-files", "-"),
	"explain":    argumentUse(false, "explain", "-spec", "whatwg", "https://x.example/", strings.Repeat("../\xff/", 20_000)),
	"version":    argumentUse(true, "version", "\xff\xfe"+strings.Repeat("x", 100_000)),
	"completion": argumentUse(true, "completion", "\xff\xfe"+strings.Repeat("x", 100_000)),
	"help":       argumentUse(true, "help", "\xff\xfe"+strings.Repeat("x", 100_000)),
}

// A formatUnit is what a format's hostile shapes are made of.
type formatUnit struct {
	ext          string
	file         string             // the file's name, when its format is told by it
	head, tail   string             // around the body
	link         func(i int) string // one link
	open, close  string             // one level of nesting
	lineHead     string             // before a line of 100 MB ...
	lineTail     string             // ... and after it
	attrs        func(n int) string // one element with n attributes ("" for none)
	gzipped      bool               // the format is read gzip-compressed too
	gzipOnly     bool               // and only so: an archive
	invalidUTF8  string
	endlessChunk string // repeated for ever on standard input
}

var formatUnits = map[string]formatUnit{
	"html": {ext: ".html", head: "<!DOCTYPE html><title>t</title>", link: func(i int) string { return fmt.Sprintf(`<a href="p%d.html">x</a>`, i%1000) },
		open: "<div>", close: "</div>", lineHead: `<a href="`, lineTail: `">x</a>`,
		attrs:       func(n int) string { return "<img " + repeatf(n, ` a%d="b"`) + ` src="x.png">` },
		invalidUTF8: "<meta charset=utf-8><a href=\"\xff\xfe\xc0\xaf.html\">\xed\xa0\x80</a>", endlessChunk: `<a href="x.html">x</a>`},
	"message": {ext: ".eml", head: "From: a@x.example\r\nMIME-Version: 1.0\r\nContent-Location: https://x.example/\r\nContent-Type: text/html\r\n\r\n",
		link: func(i int) string { return fmt.Sprintf(`<a href="p%d.html">x</a>`, i%1000) },
		open: "Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n", close: "\r\n--b--\r\n",
		lineHead: "<a href=\"", lineTail: "\">x</a>", attrs: func(n int) string { return "<img " + repeatf(n, ` a%d="b"`) + ">" },
		invalidUTF8: "<a href=\"\xff\xfe.html\">\xc0</a>", endlessChunk: "<a href=x.html>x</a>"},
	"markdown": {ext: ".md", head: "# T\n\n", link: func(i int) string { return fmt.Sprintf("[x](p%d.md) ", i%1000) },
		open: "> ", close: "", lineHead: "[x](", lineTail: ")\n",
		attrs:       func(n int) string { return "<img " + repeatf(n, ` a%d="b"`) + ">\n" },
		invalidUTF8: "[\xff](\xfe\xc0.md)\n", endlessChunk: "[x](y.md) "},
	"text": {ext: ".txt", link: func(i int) string { return fmt.Sprintf("https://x.example/p%d\n", i%1000) },
		lineHead: "https://x.example/", lineTail: "\n", invalidUTF8: "https://x.example/\xff\xfe\n", endlessChunk: "https://x.example/a"},
	"xml": {ext: ".xml", head: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`, tail: "</urlset>",
		link: func(i int) string { return fmt.Sprintf("<url><loc>https://x.example/p%d</loc></url>", i%1000) },
		open: "<url>", close: "</url>", lineHead: "<url><loc>https://x.example/", lineTail: "</loc></url>",
		attrs:   func(n int) string { return "<url " + repeatf(n, ` a%d="b"`) + "><loc>https://x.example/</loc></url>" },
		gzipped: true, invalidUTF8: "<url><loc>https://x.example/\xff\xfe</loc></url>", endlessChunk: "<url><loc>https://x.example/a</loc></url>"},
	"warc": {ext: ".warc.gz", gzipped: true, gzipOnly: true},
	"robots": {file: "robots.txt", link: func(i int) string { return fmt.Sprintf("Sitemap: https://x.example/s%d.xml\n", i%1000) },
		lineHead: "Sitemap: https://x.example/", lineTail: "\n", invalidUTF8: "Sitemap: https://x.example/\xff\xfe\n", endlessChunk: "Disallow: /a\n"},
	"css": {ext: ".css", link: func(i int) string { return fmt.Sprintf("a{background:url(p%d.png)}\n", i%1000) },
		open: "@media screen{", close: "}", lineHead: "a{background:url(", lineTail: ")}\n",
		invalidUTF8: "a{background:url(\xff\xfe.png)}", endlessChunk: "a{background:url(x.png)}"},
}

func repeatf(n int, format string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
}

// A hostileShape is a hostile input of a format: a file whose body it
// writes (through gzip when gz), or a stream on standard input. loses says
// that reading it must lose something, so the run must exit non-zero and
// say so.
type hostileShape struct {
	name    string
	applies func(u formatUnit) bool
	body    func(w io.Writer, u formatUnit)
	gz      bool
	stream  func(u formatUnit) io.Reader
	loses   bool
}

var hostileShapes = []hostileShape{
	{name: "random bytes", applies: func(u formatUnit) bool { return !u.gzipOnly },
		body: func(w io.Writer, u formatUnit) {
			b := make([]byte, 1<<20)
			rand.Read(b)
			w.Write(b)
		}},
	{name: "invalid UTF-8", applies: func(u formatUnit) bool { return u.invalidUTF8 != "" },
		body: func(w io.Writer, u formatUnit) {
			io.WriteString(w, u.head+strings.Repeat(u.invalidUTF8, 1000)+u.tail)
		}},
	{name: "one 100 MB line", loses: true, applies: func(u formatUnit) bool { return u.lineHead != "" },
		body: func(w io.Writer, u formatUnit) {
			io.WriteString(w, u.head+u.lineHead)
			chunk := bytes.Repeat([]byte("a"), 1<<20)
			for range 100 {
				w.Write(chunk)
			}
			io.WriteString(w, u.lineTail+u.tail)
		}},
	{name: "nested a million deep", applies: func(u formatUnit) bool { return u.open != "" },
		body: func(w io.Writer, u formatUnit) {
			io.WriteString(w, u.head+strings.Repeat(u.open, 1_000_000)+u.link(0)+strings.Repeat(u.close, 1_000_000)+u.tail)
		}},
	{name: "200,000 attributes", applies: func(u formatUnit) bool { return u.attrs != nil },
		body: func(w io.Writer, u formatUnit) { io.WriteString(w, u.head+u.attrs(200_000)+u.tail) }},
	// A million links: a cost of a few hundred bytes a link (check kept
	// 490) shows as half a gigabyte.
	{name: "a million links", applies: func(u formatUnit) bool { return u.link != nil },
		body: func(w io.Writer, u formatUnit) {
			io.WriteString(w, u.head)
			for i := range 1_000_000 {
				io.WriteString(w, u.link(i))
			}
			io.WriteString(w, u.tail)
		}},
	// 256 MiB from about a megabyte: past every bound (-max-size, 64 MiB;
	// a sitemap's 50 MiB) four times over.
	{name: "a compression bomb", loses: true, gz: true, applies: func(u formatUnit) bool { return u.gzipped },
		body: func(w io.Writer, u formatUnit) {
			if u.gzipOnly { // a WARC record whose block is the bomb
				fmt.Fprintf(w, "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://x.example/\r\nWARC-Record-ID: <urn:uuid:0>\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=", 256<<20)
			} else {
				io.WriteString(w, u.head+u.lineHead)
			}
			chunk := bytes.Repeat([]byte("a"), 1<<20)
			for range 256 {
				w.Write(chunk)
			}
		}},
	{name: "an endless stream", loses: true, applies: func(u formatUnit) bool { return u.endlessChunk != "" },
		stream: func(u formatUnit) io.Reader {
			// Endless to relurl: 96 MiB, past every bound (-max-size's
			// 64 MiB, a line's megabyte), and then the end, so that a
			// filter (resolve, url) that rightly reads on ends too.
			return io.LimitReader(&endless{chunk: []byte(u.head + strings.Repeat(u.endlessChunk, 4096))}, 96<<20)
		}},
}

// writeShape writes a shape's file, and returns its path: with ".gz"
// added when it is compressed and its format's name does not say so.
func writeShape(t *testing.T, path string, u formatUnit, shape hostileShape) string {
	t.Helper()
	if shape.gz && !strings.HasSuffix(path, ".gz") {
		path += ".gz"
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	var w io.Writer = f
	var z *gzip.Writer
	if shape.gz {
		z, _ = gzip.NewWriterLevel(f, gzip.BestSpeed)
		w = z
	}
	shape.body(w, u)
	if z != nil {
		z.Close()
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// endless is a stream that never ends: the chunk again and again.
type endless struct {
	chunk []byte
	at    int
}

func (e *endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		c := copy(p[n:], e.chunk[e.at:])
		n += c
		e.at = (e.at + c) % len(e.chunk)
	}
	return n, nil
}

// hostileRun is how one child process ended.
type hostileRun struct {
	args     []string
	code     int
	signal   syscall.Signal
	rss      int64 // bytes
	took     time.Duration
	timedOut bool
	stderr   string
}

// runHostile runs relurl with args in a folder of its own under the
// matrix's bounds, its standard output counted and dropped.
func runHostile(t *testing.T, stdin io.Reader, args ...string) hostileRun {
	t.Helper()
	return runBounded(t, stdin, matrixAS, args...)
}

// runBounded is runHostile with the memory limit as, in bytes.
func runBounded(t *testing.T, stdin io.Reader, as int, args ...string) hostileRun {
	t.Helper()
	dir := t.TempDir()
	rss := filepath.Join(dir, ".rss")
	ctx, cancel := context.WithTimeout(context.Background(), matrixTime)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], append([]string{relurlBin}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), rusageEnv+"="+rss, addressSpaceEnv+"="+strconv.Itoa(as),
		"HOME="+dir, "XDG_CACHE_HOME="+dir)
	var stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, io.Discard, &limitedBuffer{b: &stderr, max: 64 << 10}
	cmd.WaitDelay = 5 * time.Second // an endless stdin is not waited for once it is killed
	start := time.Now()
	cmd.Run()
	r := hostileRun{args: args, code: cmd.ProcessState.ExitCode(), took: time.Since(start), timedOut: ctx.Err() != nil, stderr: stderr.String()}
	if b, err := os.ReadFile(rss); err == nil {
		var kib int64
		var sig int
		fmt.Sscan(string(b), &kib, &sig)
		r.rss, r.signal = kib<<10, syscall.Signal(sig)
	}
	// Nothing may be left in the folder: the output went to standard
	// output, and no temporary file remains.
	if ents, _ := os.ReadDir(dir); len(ents) > 1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("relurl %s left files in its folder: %q", short(args), names)
	}
	return r
}

// judge fails t if the run crashed, passed a bound, or lost something
// without saying so, naming what.
func (r hostileRun) judge(t *testing.T, what string, loses, usage bool) {
	t.Helper()
	t.Logf("relurl %s: exit %d, %d MiB, %v", short(r.args), r.code, r.rss>>20, r.took.Round(time.Millisecond))
	switch {
	case r.timedOut:
		t.Errorf("relurl %s: still running after %v", short(r.args), matrixTime)
		return
	case r.signal != 0 || strings.Contains(r.stderr, "fatal error:") || strings.Contains(r.stderr, "panic:"):
		t.Errorf("relurl %s: crashed (signal %d, exit %d): %.300s", short(r.args), r.signal, r.code, r.stderr)
		return
	case usage:
		if r.code != exitUsage {
			t.Errorf("relurl %s: exit %d, want a usage error: %.300s", short(r.args), r.code, r.stderr)
		}
		return
	case r.code == exitUsage:
		t.Errorf("relurl %s: a usage error: %.300s", short(r.args), r.stderr)
	case r.rss > matrixRSS:
		t.Errorf("relurl %s: %d MiB of memory, over the bound of %d MiB", short(r.args), r.rss>>20, matrixRSS>>20)
	}
	if loses && r.code != exitFailed {
		t.Errorf("relurl %s: exit %d on an input it cannot read whole, want %d", short(r.args), r.code, exitFailed)
	}
	// What failed is named: the file, standard input, or a line of it
	// (the URL commands), or an argument (explain).
	named := strings.Contains(r.stderr, what) || strings.Contains(r.stderr, "standard input") ||
		strings.Contains(r.stderr, "line ") || r.args[0] == "explain" && r.stderr != ""
	if r.code != exitOK && r.code != exitFound && !named { // findings are the report's
		t.Errorf("relurl %s: exit %d, and its message does not name %s: %.300s", short(r.args), r.code, what, r.stderr)
	}
}

// short is args with long ones cut, for messages.
func short(args []string) string {
	var s []string
	for _, a := range args {
		if len(a) > 40 {
			a = a[:20] + "…"
		}
		s = append(s, strings.ToValidUTF8(a, "?"))
	}
	return strings.Join(s, " ")
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	b   *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.b.Len(); room > 0 {
		l.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// hostileOutputs runs each flag that names a file to write onto what is
// not a regular file: a device node (made in the test's folder, as root),
// a FIFO, a symbolic link to either, one to a regular file, one to
// nothing. What is not a regular file is written in place, never
// replaced; a link to a regular file or to nothing is refused, the file
// untouched.
func hostileOutputs(t *testing.T, inputs string) {
	page := filepath.Join(inputs, "page.html")
	os.WriteFile(page, []byte(`<a href="a.html">a</a> <a href="https://x.example/">x</a>`), 0o644)
	type target struct {
		name    string
		make    func(dir string) string // the path to give
		inPlace bool                    // written in place, else refused
	}
	fifo := func(dir string) string {
		p := filepath.Join(dir, "fifo")
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	targets := []target{
		{"a FIFO", fifo, true},
		{"a link to a FIFO", func(dir string) string {
			p := filepath.Join(dir, "out")
			os.Symlink(fifo(dir), p)
			return p
		}, true},
		{"a link to a regular file", func(dir string) string {
			p := filepath.Join(dir, "out")
			os.WriteFile(filepath.Join(dir, "precious"), []byte("precious"), 0o644)
			os.Symlink(filepath.Join(dir, "precious"), p)
			return p
		}, false},
		{"a link to nothing", func(dir string) string {
			p := filepath.Join(dir, "out")
			os.Symlink(filepath.Join(dir, "nothing"), p)
			return p
		}, false},
	}
	if os.Geteuid() == 0 {
		targets = append(targets, target{"a device node (the null device)", func(dir string) string {
			p := filepath.Join(dir, "null")
			if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
				t.Fatal(err)
			}
			return p
		}, true})
	} else {
		t.Logf("not root: no device node is made, so that row does not run")
	}
	for _, flags := range [][]string{{"links", "-tsv", "-o"}, {"links", "-json", "-o"}, {"links", "-format", "arrow", "-o"}, {"links", "-format", "parquet", "-o"}, {"check", "-offline", "-cache"}} {
		for _, tg := range targets {
			t.Run(strings.Join(flags, " ")+" onto "+tg.name, func(t *testing.T) {
				dir := t.TempDir()
				path := tg.make(dir)
				before := snapshot(t, dir)
				var got chan int
				if strings.Contains(tg.name, "FIFO") {
					got = make(chan int, 1)
					go func() {
						f, err := os.OpenFile(filepath.Join(dir, "fifo"), os.O_RDONLY, 0)
						if err != nil {
							got <- -1
							return
						}
						n, _ := io.Copy(io.Discard, f)
						f.Close()
						got <- int(n)
					}()
				}
				args := append(slices.Clone(flags), path, page)
				r := runHostile(t, nil, args...)
				if r.timedOut || r.signal != 0 {
					t.Fatalf("relurl %s: timed out or crashed: %s", short(args), r.stderr)
				}
				check := flags[0] == "check"
				switch {
				case check && tg.inPlace:
					// A cache is a regular file: anything else is refused
					// before a FIFO could hold the run.
					if r.code == exitOK || !strings.Contains(r.stderr, "not a regular file") {
						t.Errorf("relurl %s: exit %d, %q; want a refusal", short(args), r.code, r.stderr)
					}
					if got != nil {
						// Unblock the reader that waits for a writer.
						if f, err := os.OpenFile(filepath.Join(dir, "fifo"), os.O_WRONLY, 0); err == nil {
							f.Close()
						}
						<-got
					}
				case tg.inPlace:
					if r.code != exitOK {
						t.Errorf("relurl %s: exit %d: %s", short(args), r.code, r.stderr)
					}
					if got != nil {
						if n := <-got; n <= 0 {
							t.Errorf("relurl %s: the FIFO's reader got %d bytes", short(args), n)
						}
					}
				default:
					if r.code == exitOK || !strings.Contains(r.stderr, "symbolic link") {
						t.Errorf("relurl %s: exit %d, %q; want a refusal naming the link", short(args), r.code, r.stderr)
					}
				}
				if after := snapshot(t, dir); !maps.Equal(before, after) {
					t.Errorf("relurl %s changed its folder: before %v, after %v", short(args), before, after)
				}
			})
		}
	}
}

// snapshot maps each path below dir to its type, size and modification
// time (a link: its target).
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		v := fmt.Sprintf("%v %d %v", info.Mode(), info.Size(), info.ModTime().UnixNano())
		if !info.Mode().IsRegular() {
			v = info.Mode().String() // a FIFO's or a device's time is that of its last write
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(path)
			v = "-> " + target
		}
		m[path] = v
		return nil
	})
	return m
}
