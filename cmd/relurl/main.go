// Command relurl resolves, splits and validates URLs by RFC 1808.
//
// Usage:
//
//	relurl resolve BASE REF...       resolve each REF against BASE
//	relurl resolve -base BASE        resolve each line of standard input
//	relurl resolve -pairs            resolve lines "BASE<TAB>REF"
//	relurl parse [-json] URL...      show the components of each URL
//	relurl validate [-q] URL... | -  check URLs against RFC 1808's grammar
//	relurl version                   print the version
//
// Run "relurl help COMMAND" or "relurl COMMAND -h" for a command's flags and
// examples. Exit status: 0 on success, 1 for invalid input, 2 for a usage
// error.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

// version is relurl's version when built from a checkout; go install
// …@version reports the module's version instead.
const version = "v0.1.0-dev"

// Exit statuses, for scripts.
const (
	exitOK      = 0
	exitInvalid = 1 // invalid input: a URL that fails validation, a line that cannot be handled
	exitUsage   = 2 // unknown command or flag, missing argument
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
		{"links", "[-url URL] [-json] [flags] DOCUMENT", "print a document's links, resolved against its base (Sections 3 and 4)", runLinks},
		{"base", "[-url URL] [flags] DOCUMENT", "print a document's base URL and the layer of Section 3 that set it", runBase},
		{"resolve", "[-rfc 1808|3986] [-base BASE | -pairs] [BASE] REF...", "resolve references against a base (RFC 1808, Section 4)", runResolve},
		{"compare", "[-markdown] [-diff] [-base BASE | -pairs] [BASE] REF...", "resolve by RFC 1808, RFC 3986 and net/url side by side", runCompare},
		{"relative", "[-rfc 1808|3986] BASE TARGET...", "the shortest reference from BASE to each TARGET", runRelative},
		{"explain", "[-rfc 1808|3986] [-json] BASE REF", "how REF resolves against BASE, step by step", runExplain},
		{"parse", "[-json] URL...", "show the components, form and validity of URLs (Sections 2.2-2.4)", runParse},
		{"validate", "[-q] URL... | -", "check URLs against the grammar of Section 2.2", runValidate},
		{"version", "", "print relurl's version", runVersion},
	}
}

// env holds the streams a command reads and writes.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	stderrIsTTY    bool // show progress on stderr
}

func main() {
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, stderrIsTTY: isTerminal(os.Stderr)}
	os.Exit(run(e, os.Args[1:]))
}

func run(e *env, args []string) int {
	if len(args) == 0 {
		usage(e.stderr)
		return exitUsage
	}
	name, args := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) == 0 {
			usage(e.stdout)
			return exitOK
		}
		name, args = args[0], []string{"-h"}
	}
	for _, c := range commands {
		if c.name == name {
			return c.run(e, args)
		}
	}
	fmt.Fprintf(e.stderr, "relurl: unknown command %q\n", name)
	usage(e.stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "relurl resolves, splits and validates URLs exactly as RFC 1808 defines them.\n\nUsage:\n\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  relurl %s %s\n        %s\n", c.name, c.args, c.short)
	}
	fmt.Fprintf(w, "\nRun 'relurl COMMAND -h' for a command's flags and examples.\n")
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
		fmt.Fprintf(w, "usage: relurl %s %s\n\n%s\n", c.name, c.args, strings.TrimSpace(help))
		if hasFlags(fs) {
			fmt.Fprintf(w, "\nFlags:\n")
			fs.SetOutput(w)
			fs.PrintDefaults()
		}
	}
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		printHelp(e.stdout)
		return exitOK, false
	case err != nil:
		return e.usageError(c.name, "%v", err), false
	}
	return 0, true
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
			fmt.Fprintf(e.stderr, "relurl %s: %s\nusage: relurl %s %s\nRun 'relurl %s -h' for details.\n",
				name, fmt.Sprintf(format, args...), name, c.args, name)
		}
	}
	return exitUsage
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func runVersion(e *env, args []string) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	if code, ok := e.parseFlags(fs, args, "Version prints the version of relurl, from its module's build information."); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return e.usageError("version", "unexpected argument %q", fs.Arg(0))
	}
	v := version
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version // installed with go install …@version
	}
	fmt.Fprintf(e.stdout, "relurl %s %s\n", v, runtime.Version())
	return exitOK
}

// appendJSON appends v as one line of JSON, with "<", ">" and "&" as they
// are: URLs are easier to read that way, and the output is not for HTML.
func appendJSON(dst []byte, v any) []byte {
	buf := bytes.NewBuffer(dst)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	enc.Encode(v) // cannot fail: relurl's objects hold strings, numbers and bools
	return buf.Bytes()
}
