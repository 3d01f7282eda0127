// Command relurl resolves, splits, validates and extracts URLs by RFC 1808,
// and on request by RFC 3986 or by the WHATWG URL Standard, as browsers do
// (-spec 3986, -spec whatwg).
//
// Usage:
//
//	relurl links [-json | -tsv] [flags] DOCUMENT...    documents' links, resolved against their bases
//	relurl base [-json] [flags] DOCUMENT...            the base URLs and the layers of Section 3 that set them
//	relurl check [-json] [-offline] [flags] DOCUMENT... check that links lead somewhere; exit 2 if some do not
//	relurl rewrite -relative SCOPE [flags] DOCUMENT...  rewrite links in place, to move a tree as a whole
//	relurl resolve [-spec S] BASE REF...               resolve each REF against BASE
//	relurl resolve -base BASE | -pairs                 resolve lines of standard input
//	relurl compare [-markdown|-json] [-diff] BASE REF...  RFC 1808, RFC 3986, WHATWG and net/url side by side
//	relurl relative [-spec S] BASE TARGET...           the shortest reference from BASE to each TARGET
//	relurl explain [-spec S] [-json] BASE REF          how REF resolves, step by step
//	relurl parse [-spec S] [-json] URL... | -          components, validity (and form, scheme category)
//	relurl validate [-q] [-spec S] URL... | -          check URLs; exit 1 if any is invalid
//	relurl url [-set C=V] [-get TEMPLATE | -json] URL...  edit and show URLs, as trurl does
//
// S, the standard, is 1808 (RFC 1808, the default), 3986 (RFC 3986) or
// whatwg (the WHATWG URL Standard); -rfc is the same flag.
//
//	relurl version                                     the version and commit (also relurl -version)
//	relurl completion bash|zsh|fish                    the shell's completion script
//	relurl help [-man] [COMMAND]                       this list, a command's flags, or the man page
//
// Run "relurl help COMMAND" or "relurl COMMAND -h" for a command's flags and
// examples.
//
// Exit status: 0 on success; 1 for invalid input (an invalid URL for
// validate, a line or document that could not be handled: the others are
// still done); 2 for a usage error (an unknown command or flag, a bad flag
// value, a missing argument); 3 when the output could not be written.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"
)

// version is what a release build sets with -ldflags -X (.goreleaser.yaml).
// The commit and its time come from Go's build information, which go build
// stamps in a checkout (-buildvcs); go install …@version, which has none,
// gives the module's version instead.
var version = devVersion

const devVersion = "v0.1.0-dev"

// Exit statuses, for scripts.
const (
	exitOK      = 0
	exitInvalid = 1 // invalid input: a URL that fails validation, a line or document that cannot be handled
	exitUsage   = 2 // unknown command or flag, bad flag value, missing argument
	exitWrite   = 3 // standard output could not be written: what was printed is incomplete
)

// A command is one subcommand of relurl.
type command struct {
	name, args, short string
	run               func(e *env, args []string) int
}

// commands is set in init: the commands' help refers back to the table.
var commands []command

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

// env holds the streams a command reads and writes.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	stderrIsTTY    bool // show progress on stderr
	stdoutIsTTY    bool // and erase it before writing output there
	// describe, if set, is handed each command's flags and help by
	// parseFlags, which then stops the command: the completions and the
	// man page are made from them (describeCommands).
	describe func(fs *flag.FlagSet, help string)
}

func main() {
	stdout := &checkedWriter{w: os.Stdout}
	go endCleanly(stdout)
	e := &env{stdin: os.Stdin, stdout: stdout, stderr: os.Stderr, stderrIsTTY: isTerminal(os.Stderr), stdoutIsTTY: isTerminal(os.Stdout)}
	code := run(e, os.Args[1:])
	if stdout.err != nil {
		// Every command's output goes through stdout: whatever it
		// returned, what it printed is incomplete.
		fmt.Fprintf(e.stderr, "relurl: writing standard output: %v\n", stdout.err)
		code = exitWrite
	}
	os.Exit(code)
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
		"Run 'relurl COMMAND -h' for a command's flags and examples.\n"+
		"Exit status: 0 success, 1 invalid input, 2 usage error, 3 output not written.\n")
}

// usageLine is "relurl NAME ARGS", without a space when there are none.
func (c *command) usageLine() string {
	return strings.TrimSpace("relurl " + c.name + " " + c.args)
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

// parseFlags parses a command's flags. help is the text after the usage
// line: what the command does, and examples. It returns false, and the exit
// status, when the command should not run: after -h (status 0, help on
// standard output) or a bad flag (status 2, help on standard error).
func (e *env) parseFlags(fs *flag.FlagSet, args []string, help string) (int, bool) {
	var c *command
	for i := range commands {
		if commands[i].name == fs.Name() {
			c = &commands[i]
		}
	}
	printHelp := func(w io.Writer) {
		fmt.Fprintf(w, "usage: %s\n\n%s\n", c.usageLine(), strings.TrimSpace(help))
		if hasFlags(fs) {
			fmt.Fprintf(w, "\nFlags:\n")
			fs.SetOutput(w)
			fs.PrintDefaults()
		}
	}
	if e.describe != nil {
		e.describe(fs, help)
		return exitOK, false
	}
	fs.SetOutput(io.Discard)
	err := parseInterspersed(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		printHelp(e.stdout)
		return exitOK, false
	case err != nil:
		hint := ""
		if bad, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: "); ok {
			var names []string
			fs.VisitAll(func(f *flag.Flag) { names = append(names, "-"+f.Name) })
			hint = didYouMean("-"+strings.TrimLeft(bad, "-"), names)
		}
		return e.usageError(c.name, "%v%s", err, hint), false
	}
	return 0, true
}

// parseInterspersed parses args as every command reads them: flags before
// and after the arguments, in any order, until "--", after which every
// argument is one, whatever it starts with; "-" alone is an argument
// (standard input). Go's flag package stops at the first argument, and
// "resolve http://a/b -spec whatwg ../x" would resolve "-spec". Once done,
// fs.Args() holds the arguments, in order.
func parseInterspersed(fs *flag.FlagSet, args []string) error {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		rest := fs.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" && !takesValue(fs, args[:n-1]) {
			positional = append(positional, rest...)
			break
		}
		if len(rest) == 0 {
			break
		}
		positional, args = append(positional, rest[0]), rest[1:]
	}
	return fs.Parse(append([]string{"--"}, positional...))
}

// takesValue reports whether the last of args is a flag waiting for its
// value (so that a "--" after it is that value, as in "-o --").
func takesValue(fs *flag.FlagSet, args []string) bool {
	if len(args) == 0 {
		return false
	}
	a := args[len(args)-1]
	if !strings.HasPrefix(a, "-") || strings.Contains(a, "=") {
		return false
	}
	f := fs.Lookup(strings.TrimLeft(a, "-"))
	return f != nil && flagTakesValue(f)
}

// didYouMean returns ` (did you mean "x"?)` for the name among names
// closest to a mistyped one, within two edits; "" when none is.
func didYouMean(typed string, names []string) string {
	best, bestDist := "", 3
	for _, n := range names {
		if d := editDistance(strings.ToLower(typed), n); d < bestDist {
			best, bestDist = n, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// usageError reports a wrong use of command c and returns exitUsage.
func (e *env) usageError(name string, format string, args ...any) int {
	for _, c := range commands {
		if c.name == name {
			fmt.Fprintf(e.stderr, "relurl %s: %s\nusage: %s\nRun 'relurl %s -h' for details.\n",
				name, printable(fmt.Sprintf(format, args...)), c.usageLine(), name)
		}
	}
	return exitUsage
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	// /dev/null is a character device too, and no terminal.
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
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
