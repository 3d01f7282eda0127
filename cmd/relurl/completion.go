package main

import (
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"io"
	"strings"
)

// This file makes the shells' completion scripts and the manual page from
// the commands themselves: their flag sets and their -h text, as each
// command hands them to parseFlags, so that neither can drift from what
// relurl accepts.

// A commandDoc is a command, its flags and its help text.
type commandDoc struct {
	command
	flags []*flag.Flag // in name order
	help  string
}

// describeCommands runs each command with an env that stops it at
// parseFlags, and keeps what it hands over.
func describeCommands() []commandDoc {
	var docs []commandDoc
	for _, c := range commands {
		d := commandDoc{command: c}
		e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
		e.describe = func(fs *flag.FlagSet, help string) {
			fs.VisitAll(func(f *flag.Flag) { d.flags = append(d.flags, f) })
			d.help = strings.TrimSpace(help)
		}
		c.run(e, nil)
		docs = append(docs, d)
	}
	return docs
}

const completionHelp = `
Completion prints a script that completes relurl's commands and their
flags in bash, zsh or fish, made from the commands' own flags. bash takes
it from source in ~/.bashrc; zsh from a file _relurl in a directory of
$fpath; fish from ~/.config/fish/completions/relurl.fish. The Debian
package installs all three where each shell looks.

Examples:

  $ source <(relurl completion bash)
`

func runCompletion(e *env, args []string) int {
	fs := flag.NewFlagSet("completion", flag.ContinueOnError)
	if code, ok := e.parseFlags(fs, args, completionHelp); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return e.usageError("completion", "want one shell: bash, zsh or fish")
	}
	var b bytes.Buffer
	switch docs := describeCommands(); fs.Arg(0) {
	case "bash":
		bashCompletion(&b, docs)
	case "zsh":
		zshCompletion(&b, docs)
	case "fish":
		fishCompletion(&b, docs)
	default:
		return e.usageError("completion", "%q is not one of bash, zsh, fish", fs.Arg(0))
	}
	return e.write(b.Bytes())
}

// argWords are what a command's arguments complete to, beside files: the
// commands for help, the shells for completion.
func argWords(d commandDoc, docs []commandDoc) []string {
	switch d.name {
	case "help":
		var names []string
		for _, d := range docs {
			names = append(names, d.name)
		}
		return names
	case "completion":
		return []string{"bash", "zsh", "fish"}
	}
	return nil
}

func bashCompletion(w *bytes.Buffer, docs []commandDoc) {
	var names []string
	for _, d := range docs {
		names = append(names, d.name)
	}
	fmt.Fprintf(w, `# bash completion for relurl, made by "relurl completion bash" from its flags.
_relurl() {
    local cur=${COMP_WORDS[COMP_CWORD]} flags= words= files=1
    if [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W %q -- "$cur"))
        return
    fi
    case ${COMP_WORDS[1]} in
`, strings.Join(names, " "))
	for _, d := range docs {
		var flags []string
		for _, f := range d.flags {
			flags = append(flags, "-"+f.Name)
		}
		words := argWords(d, docs)
		files := 1
		if words != nil {
			files = 0
		}
		fmt.Fprintf(w, "        %s) flags=%q words=%q files=%d ;;\n", d.name, strings.Join(flags, " "), strings.Join(words, " "), files)
	}
	w.WriteString(`    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$flags" -- "$cur"))
    elif [[ -n $words ]]; then
        COMPREPLY=($(compgen -W "$words" -- "$cur"))
    elif [[ $files == 1 ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _relurl relurl
`)
}

func zshCompletion(w *bytes.Buffer, docs []commandDoc) {
	w.WriteString(`#compdef relurl
# zsh completion for relurl, made by "relurl completion zsh" from its flags.
_relurl() {
  local -a commands flags
  commands=(
`)
	for _, d := range docs {
		fmt.Fprintf(w, "    %s\n", zshQuote(d.name+":"+zshEscape(d.short)))
	}
	w.WriteString(`  )
  if (( CURRENT == 2 )); then
    _describe -t commands 'relurl command' commands
    return
  fi
  case $words[2] in
`)
	for _, d := range docs {
		fmt.Fprintf(w, "    (%s)\n      flags=(", d.name)
		for _, f := range d.flags {
			name, usage := flag.UnquoteUsage(f)
			spec := "*-" + f.Name + "[" + zshEscape(usage) + "]"
			if flagTakesValue(f) {
				spec += ":" + zshEscape(cmp.Or(name, "value")) + ":"
			}
			w.WriteString(" " + zshQuote(spec))
		}
		w.WriteString(" )\n")
		if words := argWords(d, docs); words != nil {
			fmt.Fprintf(w, "      _arguments $flags '*:argument:(%s)'\n      ;;\n", strings.Join(words, " "))
		} else {
			w.WriteString("      _arguments $flags '*:file:_files'\n      ;;\n")
		}
	}
	w.WriteString(`  esac
}
if [[ $funcstack[1] == _relurl ]]; then
  _relurl "$@"
else
  compdef _relurl relurl
fi
`)
}

// zshEscape escapes what _arguments and _describe read in a description.
func zshEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`, ":", `\:`).Replace(s)
}

// zshQuote quotes s for the shell, in single quotes.
func zshQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func fishCompletion(w *bytes.Buffer, docs []commandDoc) {
	w.WriteString("# fish completion for relurl, made by \"relurl completion fish\" from its flags.\n")
	w.WriteString("complete -c relurl -f\n")
	for _, d := range docs {
		fmt.Fprintf(w, "complete -c relurl -n __fish_use_subcommand -a %s -d %s\n", d.name, fishQuote(d.short))
	}
	for _, d := range docs {
		cond := fishQuote("__fish_seen_subcommand_from " + d.name)
		for _, f := range d.flags {
			_, usage := flag.UnquoteUsage(f)
			r := ""
			if flagTakesValue(f) {
				r = " -r"
			}
			fmt.Fprintf(w, "complete -c relurl -n %s -o %s%s -d %s\n", cond, f.Name, r, fishQuote(usage))
		}
		if words := argWords(d, docs); words != nil {
			fmt.Fprintf(w, "complete -c relurl -n %s -a %s\n", cond, fishQuote(strings.Join(words, " ")))
		} else {
			fmt.Fprintf(w, "complete -c relurl -n %s -F\n", cond)
		}
	}
}

// fishQuote quotes s for fish, in single quotes.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}

// manPage is relurl's manual page, in roff (man(7)), made from the
// commands' usage lines, -h texts and flags.
func manPage(docs []commandDoc) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, ".TH RELURL 1 \"\" %s \"User Commands\"\n", roffQuote("relurl "+version))
	b.WriteString(".SH NAME\nrelurl \\- relative URLs exactly as RFC 1808, RFC 3986 and the WHATWG URL Standard define them\n")
	b.WriteString(".SH SYNOPSIS\n.B relurl\n.I command\n[\\fIflags\\fR] [\\fIarguments\\fR]\n")
	var usageText bytes.Buffer
	usage(&usageText)
	intro, _, _ := strings.Cut(usageText.String(), "\n\nUsage:")
	b.WriteString(".SH DESCRIPTION\n")
	roffText(&b, intro+"\n\nFlags may come before or after the arguments; -- ends them; - alone is standard input. "+
		"Each command's flags and examples follow; relurl COMMAND -h shows the same.")
	b.WriteString(".SH COMMANDS\n")
	for _, d := range docs {
		fmt.Fprintf(&b, ".SS %s\n", roffEscape(d.usageLine()))
		roffText(&b, d.short+".")
		if d.help != "" {
			b.WriteString(".PP\n")
			roffText(&b, d.help)
		}
		for _, f := range d.flags {
			name, usage := flag.UnquoteUsage(f)
			fmt.Fprintf(&b, ".TP\n.B \\-%s", roffEscape(f.Name))
			if name != "" {
				fmt.Fprintf(&b, " \\fI%s\\fR", roffEscape(name))
			}
			b.WriteString("\n")
			if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "[]" {
				usage += " (default " + f.DefValue + ")"
			}
			roffText(&b, usage)
		}
	}
	b.WriteString(".SH EXIT STATUS\n")
	_, statuses, _ := strings.Cut(exitTable, "\n")
	roffText(&b, statuses)
	b.WriteString(".SH SEE ALSO\nRFC 1808, RFC 3986, the WHATWG URL Standard, the HTML Standard.\n")
	return b.Bytes()
}

// roffText writes text as roff: paragraphs as filled text, and lines
// indented by two spaces or more (examples, tables) as they are.
func roffText(b *bytes.Buffer, text string) {
	pre := false
	for i, line := range strings.Split(strings.TrimSpace(text), "\n") {
		indented := strings.HasPrefix(line, "  ")
		switch {
		case indented && !pre:
			b.WriteString(".PP\n.RS 4\n.nf\n")
			pre = true
		case !indented && pre && line != "":
			b.WriteString(".fi\n.RE\n.PP\n")
			pre = false
		case line == "" && !pre && i > 0:
			b.WriteString(".PP\n")
			continue
		case line == "":
			continue
		}
		if pre {
			line = strings.TrimPrefix(line, "  ")
		}
		b.WriteString(roffEscape(line) + "\n")
	}
	if pre {
		b.WriteString(".fi\n.RE\n")
	}
}

// roffEscape escapes a line of text for roff: backslashes, hyphens (which
// are minus signs in flags and URLs), and a control character at its start.
func roffEscape(s string) string {
	s = strings.NewReplacer(`\`, `\e`, "-", `\-`).Replace(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

// roffQuote is s as one argument of a roff request.
func roffQuote(s string) string { return `"` + strings.ReplaceAll(roffEscape(s), `"`, `\(dq`) + `"` }
