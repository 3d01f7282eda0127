package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// This file is what every command stands on: the streams it reads and
// writes (env), its flags parsed, its usage errors and its exit statuses.

// Exit statuses, for scripts: one table for every command (exitTable).
const (
	exitOK      = 0
	exitFailed  = 1 // an input, or part of one, could not be read or handled; or there was nothing to read
	exitUsage   = 2 // unknown command or flag, bad flag value, missing argument
	exitWrite   = 3 // the output (standard output, -o) could not be written: what was written is incomplete
	exitFound   = 4 // what the command looks for was found: broken links (check), invalid URLs (validate)
	exitTimeout = 5 // a time limit (check -max-time) ran out before the work was done
)

// exitTable is the table of exit statuses, in relurl help and the manual.
const exitTable = `Exit status, the same for every command:
  0  success: every input was read and handled, and nothing was found wrong
  1  failure: an input could not be read or handled, whole or in part (a
     document, a MIME part, a WARC record, a line, a URL to fetch): the
     others are still done; or there was nothing to read at all
  2  usage error: an unknown command or flag, a bad flag value, a missing
     argument; nothing was done
  3  the output could not be written (standard output, or -o's file): what
     was written is incomplete
  4  findings: check found broken links, validate invalid URLs
  5  time-out: check's -max-time ran out before every link was checked
When several apply, the first of 3, 1, 5, 4 in that order is the status.
A status over 128 is a signal's: 134 (SIGABRT) is relurl crashing, out of
memory or by a bug, with a message that says which; 137 (SIGKILL) is most
often the system's out-of-memory killer.`

// worse returns the status of a run that ended with both a and b: an
// output not written, then a failure, a time-out, findings.
func worse(a, b int) int {
	rank := func(code int) int {
		return [...]int{exitOK: 0, exitFound: 1, exitTimeout: 2, exitFailed: 3, exitUsage: 4, exitWrite: 5}[code]
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
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

// A command is one subcommand of relurl.
type command struct {
	name, args, short string
	run               func(e *env, args []string) int
}

// commands is the table of commands, set in main.go's init: their help
// refers back to it.
var commands []command

// usageLine is "relurl NAME ARGS", without a space when there are none.
func (c *command) usageLine() string {
	return strings.TrimSpace("relurl " + c.name + " " + c.args)
}

// flagTakesValue reports whether a flag is written with a value.
func flagTakesValue(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !b.IsBoolFlag()
}

// version is what a release build sets with -ldflags -X (.goreleaser.yaml).
// The commit and its time come from Go's build information, which go build
// stamps in a checkout (-buildvcs); go install …@version, which has none,
// gives the module's version instead.
var version = devVersion

const devVersion = "v0.1.0-dev"
