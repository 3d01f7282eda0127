// Command relurl resolves, splits, validates and extracts URLs by RFC 1808,
// and on request by RFC 3986 or by the WHATWG URL Standard, as browsers do
// (-spec 3986, -spec whatwg).
//
// Usage:
//
//	relurl links [-json | -tsv] [flags] DOCUMENT...    documents' links, resolved against their bases
//	relurl base [-json] [flags] DOCUMENT...            the base URLs and the layers of Section 3 that set them
//	relurl check [-json] [-offline] [flags] DOCUMENT... check that links lead somewhere; exit 4 if some do not
//	relurl rewrite -relative SCOPE [flags] DOCUMENT...  rewrite links in place, to move a tree as a whole
//	relurl resolve [-spec S] BASE REF...               resolve each REF against BASE
//	relurl resolve -base BASE | -pairs                 resolve lines of standard input
//	relurl compare [-markdown|-json] [-diff] BASE REF...  RFC 1808, RFC 3986, WHATWG and net/url side by side
//	relurl relative [-spec S] BASE TARGET...           the shortest reference from BASE to each TARGET
//	relurl explain [-spec S] [-json] BASE REF          how REF resolves, step by step
//	relurl parse [-spec S] [-json] URL... | -          components, validity (and form, scheme category)
//	relurl validate [-q] [-spec S] URL... | -          check URLs; exit 4 if any is invalid
//	relurl url [-set C=V] [-get TEMPLATE | -json] URL...  edit and show URLs, as trurl does
//
// S, the standard, is 1808 (RFC 1808), 3986 (RFC 3986) or whatwg (the
// WHATWG URL Standard); -rfc is the same flag. The document commands (links,
// base, check, rewrite) resolve by whatwg, as a browser, by default; the
// others by 1808.
//
//	relurl version                                     the version and commit (also relurl -version)
//	relurl completion bash|zsh|fish                    the shell's completion script
//	relurl help [-man] [COMMAND]                       this list, a command's flags, or the man page
//
// Run "relurl help COMMAND" or "relurl COMMAND -h" for a command's flags and
// examples.
//
// Exit status, the same for every command: 0 on success; 1 when an input
// could not be read or handled, whole or in part (the others are still
// done), or there was nothing to read; 2 for a usage error (an unknown
// command or flag, a bad flag value, a missing argument); 3 when the output
// could not be written; 4 for findings (check's broken links, validate's
// invalid URLs); 5 when check's -max-time ran out first; a crash (out of
// memory) is SIGABRT, 134 in a shell, never 2.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/relurl/relurl/internal/safefile"
)

func init() {
	commands = []command{
		{"links", "[-json | -tsv | -format F] [-j N] [-map DIR=URL] [flags] DOCUMENT... | -files FILE", "print the links of documents, resolved against their bases (Sections 3 and 4)", runLinks},
		{"base", "[-json] [flags] DOCUMENT... | -files FILE", "print documents' base URLs and the layers of Section 3 that set them", runBase},
		{"check", "[-json | -format F] [-offline] [-root DIR] [flags] DOCUMENT... | -files FILE", "check that links lead somewhere, resolved as a browser does, <base> and all", runCheck},
		{"rewrite", "[-relative SCOPE | -absolute | -move OLD=NEW] [-w|-d|-l|-o DIR] DOC...", "rewrite documents' links in place, to move a tree as a whole", runRewrite},
		{"resolve", "[-spec 1808|3986|whatwg] [-base BASE | -pairs] [BASE] REF...", "resolve references against a base (RFC 1808, Section 4)", runResolve},
		{"compare", "[-markdown|-json] [-diff] [-base BASE | -pairs] [BASE] REF...", "resolve by RFC 1808, RFC 3986, WHATWG and net/url side by side", runCompare},
		{"relative", "[-spec 1808|3986|whatwg] [-base BASE | -pairs] [BASE] TARGET...", "the shortest reference from BASE to each TARGET", runRelative},
		{"explain", "[-spec 1808|3986|whatwg] [-json] BASE REF", "how REF resolves against BASE, step by step", runExplain},
		{"parse", "[-spec 1808|3986|whatwg] [-json] URL... | -", "show the components and validity of URLs", runParse},
		{"validate", "[-q | -print-valid] [-json] [-spec 1808|3986|whatwg] URL... | -", "check URLs by RFC 1808, RFC 3986 or the URL Standard", runValidate},
		{"url", "[-set C=V] [-get TEMPLATE | -json] [-append ...] [flags] [URL... | -files FILE]", "edit and show URLs, as trurl does, by the URL Standard's setters", runURL},
		{"version", "", "print relurl's version, and the commit it was built from", runVersion},
		{"completion", "bash | zsh | fish", "print the shell's completion script for relurl", runCompletion},
		{"help", "[-man] [COMMAND]", "list the commands, or show a command's flags and examples; -man: the manual page", runHelp},
	}
}

func main() {
	// Go's runtime ends a crash (out of memory, a bug) with status 2,
	// which is the usage error of the exit table: a script would read a
	// crash as a typo. Crashing by SIGABRT instead, a shell sees 134.
	debug.SetTraceback("crash")
	noCoreDump()
	setHeapFloor()
	stdout := &checkedWriter{w: os.Stdout}
	go endCleanly(stdout)
	e := &env{stdin: os.Stdin, stdout: stdout, stderr: os.Stderr, stderrIsTTY: isTerminal(os.Stderr), stdoutIsTTY: isTerminal(os.Stdout)}
	args := os.Args[1:]
	if name := strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe"); name == "trurl" {
		// Installed (or linked) as trurl, relurl is relurl url: trurl's
		// command lines run as written.
		args = append([]string{"url"}, args...)
	}
	stopProfile := startProfile(e)
	code := run(e, args)
	stopProfile()
	if stdout.err != nil {
		// Every command's output goes through stdout: whatever it
		// returned, what it printed is incomplete.
		fmt.Fprintf(e.stderr, "relurl: writing standard output: %v\n", stdout.err)
		code = exitWrite
	}
	os.Exit(code)
}

// startProfile writes a CPU profile of the run to the file
// RELURL_CPUPROFILE names, if it names one, for bench/archives.sh and for
// anyone who wants to see where the time goes: its samples carry the
// label "stage" (read, work, write, inflate) of the goroutine they were
// taken on (go tool pprof -tags). It returns what ends the profile.
func startProfile(e *env) func() {
	path := os.Getenv("RELURL_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	// Written beside its name and renamed over it once whole, as every
	// file relurl writes: a profile never truncates a file in place.
	f, err := safefile.Create(path)
	if err == nil {
		if err = pprof.StartCPUProfile(f); err != nil {
			f.Abort()
		}
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "relurl: RELURL_CPUPROFILE: %v\n", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Commit(); err != nil {
			fmt.Fprintf(e.stderr, "relurl: RELURL_CPUPROFILE: %v\n", err)
		}
	}
}

// endCleanly ends relurl on SIGTERM or SIGINT once the output being
// written is out: every write is whole lines, so a reader never gets half
// a line (a pipeline's next stage would take it for a URL). A write that a
// reader does not take within 5 seconds is given up.
func endCleanly(stdout *checkedWriter) {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	sig := <-signals
	done := make(chan struct{})
	go func() {
		stdout.mu.Lock() // waits for the write under way; none starts after
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
	}
	// Files being written (rewrite's, -o's, the cache's) are left as they
	// were: their temporary files go.
	safefile.Cleanup()
	// End by the signal, as the caller expects; where a process cannot
	// signal itself (Windows), by the status a shell gives it.
	signal.Reset(sig)
	if self, err := os.FindProcess(os.Getpid()); err == nil && self.Signal(sig) == nil {
		time.Sleep(time.Second)
	}
	os.Exit(128 + int(sig.(syscall.Signal)))
}

// checkedWriter keeps the first error of writing w, and writes nothing
// after it. A write is never cut by endCleanly.
type checkedWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.err = err
	return n, err
}

func run(e *env, args []string) int {
	if len(args) == 0 {
		usage(e.stderr)
		return exitUsage
	}
	name, args := args[0], args[1:]
	switch name {
	case "-h", "-help", "--help":
		name = "help"
	case "-version", "--version":
		name = "version"
	}
	for _, c := range commands {
		if c.name == name {
			return c.run(e, args)
		}
	}
	if strings.HasPrefix(name, "-") {
		fmt.Fprintf(e.stderr, "relurl: unknown flag %s: flags come after the command\n", printable(name))
	} else {
		names := make([]string, len(commands))
		for i, c := range commands {
			names[i] = c.name
		}
		fmt.Fprintf(e.stderr, "relurl: unknown command %q%s\n", name, didYouMean(name, names))
	}
	usage(e.stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "relurl resolves, splits, validates and extracts URLs exactly as RFC 1808,\nRFC 3986 or the WHATWG URL Standard defines them (-spec 1808|3986|whatwg).\n\nUsage:\n\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %s\n        %s\n", c.usageLine(), c.short)
	}
	fmt.Fprintf(w, "\nFlags may come before or after the arguments; -- ends them; - alone is\n"+
		"standard input.\n"+
		"Run 'relurl COMMAND -h' for a command's flags and examples.\n\n"+exitTable+"\n")
}

const helpHelp = `
Help lists relurl's commands, or shows a command's flags and examples:
"relurl help links" is "relurl links -h". With -man it prints relurl's
manual page, in roff, made from the same text as every command's -h;
"relurl help -man > relurl.1 && man -l relurl.1" shows it.
`

func runHelp(e *env, args []string) int {
	fs := flag.NewFlagSet("help", flag.ContinueOnError)
	man := fs.Bool("man", false, "print the manual page (roff), all commands in one")
	if code, ok := e.parseFlags(fs, args, helpHelp); !ok {
		return code
	}
	if *man {
		if fs.NArg() > 0 {
			return e.usageError("help", "-man is the whole manual: no COMMAND")
		}
		return e.write(manPage(describeCommands()))
	}
	switch fs.NArg() {
	case 0:
		usage(e.stdout)
		return exitOK
	case 1:
	default:
		return e.usageError("help", "want at most one COMMAND, got %d", fs.NArg())
	}
	name := fs.Arg(0)
	for _, c := range commands {
		if c.name == name {
			return c.run(e, []string{"-h"})
		}
	}
	return e.usageError("help", "unknown command %q", name)
}

func runVersion(e *env, args []string) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	if code, ok := e.parseFlags(fs, args, "Version prints the version of relurl, from its module's build information."); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return e.usageError("version", "unexpected argument %q", fs.Arg(0))
	}
	fmt.Fprintln(e.stdout, versionLine())
	return exitOK
}

// versionLine is "relurl VERSION (commit REVISION, TIME) GO OS/ARCH", the
// commit marked "modified" when the checkout it was built from was.
func versionLine() string {
	v, build, modified, when := version, "commit unknown", false, ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				build = "commit " + s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		// Built from a checkout, Go's version for it is a pseudo-version,
		// which says less than the commit.
		if v == devVersion && build == "commit unknown" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
	}
	if modified {
		build += ", modified"
	}
	if when != "" {
		build += ", " + when
	}
	return fmt.Sprintf("relurl %s (%s) %s %s/%s", v, build, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
